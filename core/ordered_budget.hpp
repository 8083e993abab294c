// The ordered solver's memory accounting: every byte its kernels allocate (the scratch of
// each subtable solved, the fronts and their records, the memo) is charged to a Budget.
//
// A kernel call runs on one thread and installs its Budget for that thread (BudgetScope);
// the kernels' vectors use the Counted allocator, which charges the installed Budget on
// allocation and credits it on release, and the memo charges its table explicitly (it
// outlives a call: a call's Budget starts with the memo's bytes already in use). An
// allocation that would take the bytes in use past the limit throws OverBudget before
// anything is allocated; the binding catches it and the kernel reports OUT_OF_MEMORY with
// the bytes it would have needed. Without a Budget installed (the test hooks) nothing is
// counted.
//
// Which allocations a search makes depends only on its inputs (one thread per call), so
// whether a call passes its limit is the same on every run.
#pragma once

#include <memory>
#include <vector>

#include "common.hpp"

namespace dagger::ordered {

// Thrown by Budget::charge: the bytes that would have been in use.
struct OverBudget {
    i64 asked;
};

struct Budget {
    i64 limit = INF;  // bytes; INF: no ceiling
    i64 used = 0;     // bytes in use now
    i64 peak = 0;     // the most in use so far

    void charge(i64 bytes) {
        if (limit != INF && bytes > limit - used) throw OverBudget{used + bytes};
        used += bytes;
        if (used > peak) peak = used;
    }
    void release(i64 bytes) { used -= bytes; }
};

// The Budget of the kernel call running on this thread (nullptr: none).
inline thread_local Budget *t_budget = nullptr;

// Installs a Budget for the current thread for the scope's lifetime.
class BudgetScope {
    Budget *before_;

public:
    explicit BudgetScope(Budget &b) : before_(t_budget) { t_budget = &b; }
    ~BudgetScope() { t_budget = before_; }
    BudgetScope(const BudgetScope &) = delete;
    BudgetScope &operator=(const BudgetScope &) = delete;
};

// A std::allocator that charges the thread's Budget.
template <class T>
struct Counted {
    using value_type = T;
    Counted() = default;
    template <class U>
    Counted(const Counted<U> &) {}

    T *allocate(std::size_t n) {
        const i64 bytes = static_cast<i64>(n * sizeof(T));
        Budget *b = t_budget;
        if (b) b->charge(bytes);
        try {
            return std::allocator<T>{}.allocate(n);
        } catch (...) {
            if (b) b->release(bytes);
            throw;
        }
    }
    void deallocate(T *p, std::size_t n) {
        if (t_budget) t_budget->release(static_cast<i64>(n * sizeof(T)));
        std::allocator<T>{}.deallocate(p, n);
    }
    template <class U>
    bool operator==(const Counted<U> &) const {
        return true;
    }
};

// The kernels' vector: counted.
template <class T>
using vec = std::vector<T, Counted<T>>;

}  // namespace dagger::ordered
