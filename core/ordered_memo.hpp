// The ordered solver's memo: the least misclassifications found for a subtable at a
// remaining depth (or a lower bound that no tree beat), kept across calls.
//
// A subtable is named by the two wrapping sums (h1, h2) of its rows' random 64-bit keys, as
// in the DAG engine; with the depth r the key is (h1, h2 + r * ODD): for one subtable the r
// differ, and two different subtables agree in both words as rarely as in (h1, h2). The
// table is open addressing with linear probing, at most 3/4 full, 24 bytes an entry; it
// doubles when full, and its bytes are charged to the calling thread's Budget (the old and
// the new table while it moves), so a search that would pass the memory ceiling stops.
//
// The pieces of one search (dagger_cli.engine.pieces) share it from several threads: every
// lookup and store holds its mutex (a store costs far less than the subtable's solve, so
// the threads rarely wait). A store keeps what is known: an exact value is never replaced
// by a bound, and of two bounds the larger stays, so what another thread stored meanwhile
// is not lost (one thread alone never meets either case: an exact value is returned, not
// recomputed, and a bound is recomputed only under a larger one).
#pragma once

#include <mutex>
#include <stdexcept>
#include <vector>

#include "ordered_budget.hpp"

namespace dagger::ordered {

class Memo {
    struct Entry {
        u64 k1, k2;
        i64 val;  // value * 2 + exact; EMPTY: a free slot
    };
    static constexpr i64 EMPTY = std::numeric_limits<i64>::min();
    static constexpr u64 ODD = 0x9E3779B97F4A7C15ull;
    static constexpr std::size_t FIRST = 1024;

    std::vector<Entry> slots_;  // charged explicitly (it outlives a kernel call)
    std::size_t count_ = 0;
    mutable std::mutex mutex_;

    static u64 mix(u64 a, u64 b) {
        u64 z = a ^ (b * 0xBF58476D1CE4E5B9ull);
        z ^= z >> 31;
        z *= 0x94D049BB133111EBull;
        return z ^ (z >> 29);
    }
    std::size_t home(u64 k1, u64 k2) const { return mix(k1, k2) & (slots_.size() - 1); }

    void grow() {
        const std::size_t cap = slots_.empty() ? FIRST : 2 * slots_.size();
        const i64 bytes = static_cast<i64>(cap * sizeof(Entry));
        if (t_budget) t_budget->charge(bytes);
        std::vector<Entry> bigger;
        try {
            bigger.assign(cap, Entry{0, 0, EMPTY});
        } catch (...) {
            if (t_budget) t_budget->release(bytes);
            throw;
        }
        std::swap(slots_, bigger);
        for (const Entry &e : bigger) {
            if (e.val == EMPTY) continue;
            std::size_t i = home(e.k1, e.k2);
            while (slots_[i].val != EMPTY) i = (i + 1) & (cap - 1);
            slots_[i] = e;
        }
        const i64 old = static_cast<i64>(bigger.capacity() * sizeof(Entry));
        std::vector<Entry>().swap(bigger);
        if (t_budget) t_budget->release(old);
    }

public:
    Memo() = default;
    Memo(const Memo &) = delete;
    Memo &operator=(const Memo &) = delete;

    std::size_t size() const {
        const std::lock_guard<std::mutex> hold(mutex_);
        return count_;
    }
    i64 bytes() const {
        const std::lock_guard<std::mutex> hold(mutex_);
        return static_cast<i64>(slots_.capacity() * sizeof(Entry));
    }

    // The value kept for the subtable (h1, h2) at depth r, if any.
    bool find(u64 h1, u64 h2, i64 r, i64 &value, bool &exact) const {
        const std::lock_guard<std::mutex> hold(mutex_);
        if (slots_.empty()) return false;
        const u64 k2 = h2 + static_cast<u64>(r) * ODD;
        for (std::size_t i = home(h1, k2);; i = (i + 1) & (slots_.size() - 1)) {
            const Entry &e = slots_[i];
            if (e.val == EMPTY) return false;
            if (e.k1 == h1 && e.k2 == k2) {
                value = e.val >> 1;
                exact = (e.val & 1) != 0;
                return true;
            }
        }
    }

    // Keep the value of the subtable (h1, h2) at depth r (with what is kept already: an
    // exact value stays, a larger bound stays).
    void put(u64 h1, u64 h2, i64 r, i64 value, bool exact) {
        const std::lock_guard<std::mutex> hold(mutex_);
        const u64 k2 = h2 + static_cast<u64>(r) * ODD;
        const i64 val = static_cast<i64>(static_cast<u64>(value) << 1) | (exact ? 1 : 0);
        for (bool grown = false;; grown = true) {
            if (!slots_.empty()) {
                for (std::size_t i = home(h1, k2);; i = (i + 1) & (slots_.size() - 1)) {
                    Entry &e = slots_[i];
                    if (e.k1 == h1 && e.k2 == k2 && e.val != EMPTY) {
                        if (!(e.val & 1) && (exact || val > e.val)) e.val = val;
                        return;
                    }
                    if (e.val == EMPTY) {
                        if (4 * (count_ + 1) <= 3 * slots_.size()) {
                            e = {h1, k2, val};
                            ++count_;
                            return;
                        }
                        break;  // full: a new key needs a bigger table
                    }
                }
            }
            if (grown) throw std::logic_error("ordered memo: no room after growing");
            grow();
        }
    }
};

}  // namespace dagger::ordered
