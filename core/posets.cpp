// The DAG Δ(T) of a sorting table from partial orders (driven by
// dagger_cli.engine.posets.poset_dag).
//
// A subtable of the sorting table reached by splits is the set of orders consistent with
// the comparisons made so far: the linear extensions of a partial order, one 64-bit word
// for n <= 8 elements (bit 8x + y: x before y), a 128-bit one for n = 9 (bit 9x + y; the
// Layout structs). A split on "xi<xj" is possible where i and j are incomparable; its
// children add "j before i" (value 0) and "i before j" (value 1) and close transitively; a
// subtable's size is its number of linear extensions (paths through its down-sets).
// Nothing reads the rows.
//
// discover: breadth-first from the empty order, a hash table of orders (open addressing,
// one slot = (order + 1, node), kept at most half full); a parent's children keys are
// computed first and their slots prefetched, so the cache misses of its lookups overlap.
// With `classes` each child is replaced by its canonical form (canonical, below): one node
// per isomorphism class. The arrays grow as numba's did (to the need, at least double) and
// the memory they take is checked against a limit after every parent. sizes: every order's
// number of linear extensions, in parallel pieces. extension_rows: the table rows of one
// order's linear extensions (depth-first), for tree extraction.
#include <array>

#include "py.hpp"

namespace dagger {
namespace {

namespace nb = nanobind;
using py::span;
using py::to_numpy;

using u128 = unsigned __int128;

// One order in a word: bit S * x + y says "x before y"; WORDS int64 per order in numpy.
struct Small {
    using W = u64;
    static constexpr i64 S = 8, WORDS = 1;
};
struct Nine {
    using W = u128;
    static constexpr i64 S = 9, WORDS = 2;
};

template <class L>
inline typename L::W bit(i64 x, i64 y) {
    return typename L::W{1} << (L::S * x + y);
}

template <class L>
inline bool before(typename L::W p, i64 x, i64 y) {
    return ((p >> (L::S * x + y)) & 1) != 0;
}

// The elements after x (a bit mask).
template <class L>
inline i64 row(typename L::W p, i64 x) {
    return static_cast<i64>((p >> (L::S * x)) & ((typename L::W{1} << L::S) - 1));
}

// The transitive closure of p plus "a before b" (p transitively closed).
template <class L>
inline typename L::W add(typename L::W p, i64 a, i64 b, i64 n) {
    using W = typename L::W;
    const W up = static_cast<W>(row<L>(p, b) | (i64{1} << b));
    W out = p;
    for (i64 x = 0; x < n; ++x)
        if (x == a || before<L>(p, x, a)) out |= up << (L::S * x);
    return out;
}

// Per element, the set of elements before it.
template <class L>
inline void predecessors(typename L::W p, i64 n, i64 *pred) {
    for (i64 x = 0; x < n; ++x) {
        pred[x] = 0;
        for (i64 y = 0; y < n; ++y)
            if (before<L>(p, y, x)) pred[x] |= i64{1} << y;
    }
}

// The number of linear extensions of p: paths through its down-sets (f: 2^n counts).
template <class L>
i64 extensions(typename L::W p, i64 n, i64 *f) {
    i64 pred[9];
    predecessors<L>(p, n, pred);
    const i64 full = (i64{1} << n) - 1;
    std::fill(f, f + full + 1, 0);
    f[0] = 1;
    for (i64 s = 0; s < full; ++s) {
        if (f[s] == 0) continue;
        for (i64 x = 0; x < n; ++x)
            if (((s >> x) & 1) == 0 && (pred[x] & ~s) == 0) f[s | (i64{1} << x)] += f[s];
    }
    return f[full];
}

// The canonical form of the order p of n elements (its isomorphism class's representative)
// and the labelling that gives it: pos[x] is x's label in the representative, which has
// "pos[x] before pos[y]" wherever p has "x before y".
//
// The elements are first coloured by colour refinement: a colour is (the colour before,
// how many predecessors and successors of each colour), numbered by the order of these
// signatures, until the number of colours stays (refinement only splits colours); the
// first round gives the numbers of predecessors and successors. The colours are
// invariants, so an isomorphism maps each colour onto itself, and the least key over the
// labellings that give the colours' elements consecutive labels, colour by colour (any
// order inside a colour), is the same for every member of a class: the representative.
// A labelling's key lists, for l = 0, 1, ..., the relations between label l and the
// labels below it (2l bits: "l before b", "b before l" for b < l; n(n - 1) bits in all,
// held in a word of the layout), so the labels given first decide a prefix of the key:
// the search is depth-first over the orders inside the colours (their factorials'
// product: 40,320 for the empty order of 8 elements, few for most orders) and leaves a
// prefix already above the best key's.
template <class L>
typename L::W canonical(typename L::W p, i64 n, i64 *pos) {
    using W = typename L::W;
    i64 pred[9], succ[9], colour[9] = {0};
    predecessors<L>(p, n, pred);
    for (i64 x = 0; x < n; ++x) succ[x] = row<L>(p, x);
    i64 colours = 1;
    for (;;) {
        std::array<std::array<i32, 19>, 9> sig{}, sorted{};
        for (i64 x = 0; x < n; ++x) {
            sig[x][0] = static_cast<i32>(colour[x]);
            for (i64 y = 0; y < n; ++y) {
                if ((pred[x] >> y) & 1) ++sig[x][1 + colour[y]];
                if ((succ[x] >> y) & 1) ++sig[x][10 + colour[y]];
            }
            sorted[x] = sig[x];
        }
        std::sort(sorted.begin(), sorted.begin() + n);
        const i64 distinct = std::unique(sorted.begin(), sorted.begin() + n) - sorted.begin();
        for (i64 x = 0; x < n; ++x)
            colour[x] = std::lower_bound(sorted.begin(), sorted.begin() + distinct, sig[x]) -
                        sorted.begin();
        if (distinct == colours) break;
        colours = distinct;
    }
    i64 label_colour[9];
    {
        i64 at = 0;
        for (i64 c = 0; c < colours; ++c)
            for (i64 x = 0; x < n; ++x)
                if (colour[x] == c) label_colour[at++] = c;
    }
    const i64 bits = n * (n - 1);
    W best = 0;
    bool found = false;
    i64 elem[9], best_elem[9];
    // Level l gives label l to an unused element of its colour; key holds l(l - 1) bits.
    auto rec = [&](auto &&self, i64 l, i64 used, W key) -> void {
        if (found && key > (best >> (bits - l * (l - 1)))) return;
        if (l == n) {
            if (!found || key < best) {
                best = key;
                found = true;
                std::copy(elem, elem + n, best_elem);
            }
            return;
        }
        for (i64 x = 0; x < n; ++x) {
            if (((used >> x) & 1) || colour[x] != label_colour[l]) continue;
            elem[l] = x;
            W k = key;
            for (i64 b = 0; b < l; ++b) {
                const i64 y = elem[b];
                k = (k << 2) | static_cast<W>(((succ[x] >> y) & 1) << 1) |
                    static_cast<W>((pred[x] >> y) & 1);
            }
            self(self, l + 1, used | (i64{1} << x), k);
        }
    };
    rec(rec, 0, 0, W{0});
    W word = 0;
    for (i64 l = 0; l < n; ++l) pos[best_elem[l]] = l;
    for (i64 x = 0; x < n; ++x)
        for (i64 y = 0; y < n; ++y)
            if ((succ[x] >> y) & 1) word |= bit<L>(pos[x], pos[y]);
    return word;
}

inline i64 hash_mix(u64 key, i64 mask) {
    const u64 h = key * u64{0x9E3779B97F4A7C15ull};
    return static_cast<i64>(h >> 20) & mask;
}

inline i64 hash_slot(u64 key, i64 mask) { return hash_mix(key, mask); }

inline i64 hash_slot(u128 key, i64 mask) {
    const u64 high = static_cast<u64>(key >> 64) * u64{0xC2B2AE3D27D4EB4Full};
    return hash_mix(static_cast<u64>(key) ^ high, mask);
}

// a, or a with room for need items (at least double) when it is shorter.
template <class T>
void grow(std::vector<T> &a, i64 need) {
    const i64 size = static_cast<i64>(a.size());
    if (need > size) a.resize(static_cast<std::size_t>(std::max(need, 2 * size)));
}

template <class L>
struct Discovered {
    int status = 0;
    i64 nn = 0, nb = 0, ne = 0, head = 0;
    std::vector<typename L::W> poset;
    std::vector<i32> level;
    std::vector<i64> bstart;
    std::vector<i32> battr;
    std::vector<i64> bedge;
    std::vector<i32> child;
};

// Breadth-first from the empty order: status 0 done, 3 more than `limit` subtables, 4 more
// than `mem_limit` bytes of arrays (counted as the numba kernel counted them). With
// `classes` a child is its canonical form (one node per isomorphism class).
template <class L>
Discovered<L> discover(i64 n, Span<const i64> pi, Span<const i64> pj, i64 limit, i64 mem_limit,
                       bool classes) {
    using W = typename L::W;
    struct Slot {
        W key;  // order + 1; 0: empty
        i64 node;
    };
    const i64 m = pi.size();
    const i64 cap = 1024;
    Discovered<L> d;
    d.poset.assign(cap, 0);
    d.level.assign(cap, 0);
    d.bstart.assign(cap + 1, 0);
    d.battr.assign(cap, 0);
    d.bedge.assign(cap + 1, 0);
    d.child.assign(4 * cap, 0);
    i64 slots = i64{1} << 12;
    // Open addressing, one slot = (poset + 1, node) side by side: one cache miss a lookup.
    std::vector<Slot> ht(static_cast<std::size_t>(slots), Slot{0, 0});
    std::vector<W> keys(static_cast<std::size_t>(std::max<i64>(2 * m, 1)), 0);
    std::vector<i32> attrs(static_cast<std::size_t>(std::max<i64>(m, 1)), 0);
    ht[hash_slot(W{1}, slots - 1)] = Slot{W{1}, 0};
    i64 nn = 1, nb = 0, ne = 0, head = 0;
    int status = 0;
    while (head < nn) {
        const W p = d.poset[head];
        d.bstart[head] = nb;
        i64 k = 0;
        for (i64 a = 0; a < m; ++a) {
            const i64 i = pi[a], j = pj[a];
            if (before<L>(p, i, j) || before<L>(p, j, i)) continue;
            attrs[k / 2] = static_cast<i32>(a);
            // value 0: x_j < x_i; 1: x_i < x_j
            W lo = add<L>(p, j, i, n), hi = add<L>(p, i, j, n);
            if (classes) {
                i64 pos[9];
                lo = canonical<L>(lo, n, pos);
                hi = canonical<L>(hi, n, pos);
            }
            keys[k] = lo + 1;
            keys[k + 1] = hi + 1;
            prefetch(&ht[hash_slot(keys[k], slots - 1)]);
            prefetch(&ht[hash_slot(keys[k + 1], slots - 1)]);
            k += 2;
        }
        grow(d.battr, nb + k / 2);
        grow(d.bedge, nb + k / 2 + 1);
        grow(d.child, ne + k);
        for (i64 e = 0; e < k; ++e) {
            if (e % 2 == 0) {
                d.battr[nb] = attrs[e / 2];
                d.bedge[nb] = ne;
                ++nb;
            }
            const W key = keys[e];
            i64 h = hash_slot(key, slots - 1);
            while (ht[h].key != 0 && ht[h].key != key) h = (h + 1) & (slots - 1);
            if (ht[h].key == 0) {
                if (nn >= limit) {
                    status = 3;
                    break;
                }
                grow(d.poset, nn + 1);
                grow(d.level, nn + 1);
                grow(d.bstart, nn + 2);
                d.poset[nn] = key - 1;
                d.level[nn] = d.level[head] + 1;  // breadth-first: its least depth
                ht[h] = Slot{key, nn};
                d.child[ne] = static_cast<i32>(nn);
                ++nn;
                if (2 * nn > slots) {  // keep the table at most half full
                    const i64 bigger = 2 * slots;
                    std::vector<Slot> out(static_cast<std::size_t>(bigger), Slot{0, 0});
                    for (i64 s = 0; s < slots; ++s) {
                        if (ht[s].key != 0) {
                            i64 t = hash_slot(ht[s].key, bigger - 1);
                            while (out[t].key != 0) t = (t + 1) & (bigger - 1);
                            out[t] = ht[s];
                        }
                    }
                    ht.swap(out);
                    slots = bigger;
                }
            } else {
                d.child[ne] = static_cast<i32>(ht[h].node);
            }
            ++ne;
        }
        if (status != 0) break;
        const i64 used = static_cast<i64>(d.poset.size()) * (sizeof(W) + 8) +
                         static_cast<i64>(d.bstart.size()) * 8 +
                         static_cast<i64>(d.battr.size()) * 4 +
                         static_cast<i64>(d.bedge.size()) * 8 +
                         static_cast<i64>(d.child.size()) * 4 +
                         slots * static_cast<i64>(sizeof(Slot));
        if (used > mem_limit) {
            status = 4;
            break;
        }
        ++head;
    }
    d.bstart[nn] = nb;
    d.bedge[nb] = ne;
    d.status = status;
    d.nn = nn;
    d.nb = nb;
    d.ne = ne;
    d.head = head;
    return d;
}

// The rows of the linear extensions of p (depth-first, at most `count` of them): an
// extension lists the elements in increasing order; its row is that of its ranks (the
// lexicographic rank of the ranks tuple indexes row_of_rank).
template <class L>
std::vector<i64> extension_rows(typename L::W p, i64 n, i64 count, Span<const i64> row_of_rank) {
    i64 pred[9];
    predecessors<L>(p, n, pred);
    i64 fact[10];
    fact[0] = 1;
    for (i64 k = 1; k <= n; ++k) fact[k] = fact[k - 1] * k;
    std::vector<i64> out(static_cast<std::size_t>(std::max<i64>(count, 0)));
    i64 seq[9] = {0}, nxt[10] = {0}, ranks[9] = {0};
    i64 w = 0, level = 0, done = 0;
    while (level >= 0) {
        if (level == n) {
            for (i64 r = 0; r < n; ++r) ranks[seq[r]] = r;
            i64 rank = 0, used = 0;
            for (i64 k = 0; k < n; ++k) {  // lexicographic rank of ranks (a Lehmer code)
                const i64 v = ranks[k];
                i64 below = 0;
                for (i64 u = 0; u < v; ++u)
                    if (((used >> u) & 1) == 0) ++below;
                rank += below * fact[n - 1 - k];
                used |= i64{1} << v;
            }
            if (w >= count) throw std::length_error("more linear extensions than count");
            out[w++] = row_of_rank[rank];
            --level;
            done &= ~(i64{1} << seq[level]);
            continue;
        }
        i64 x = nxt[level];
        while (x < n && (((done >> x) & 1) || (pred[x] & ~done) != 0)) ++x;
        if (x == n) {
            --level;
            if (level >= 0) done &= ~(i64{1} << seq[level]);
            continue;
        }
        nxt[level] = x + 1;
        seq[level] = x;
        done |= i64{1} << x;
        ++level;
        nxt[level] = 0;
    }
    out.resize(static_cast<std::size_t>(w));
    return out;
}

void check_n(i64 n) {
    if (n < 1 || n > 9) throw nb::value_error("n: a sorting table of 1 to 9 elements");
}

// The orders of a numpy array (int64: one per order up to 8 elements, two per order for 9,
// low word first) as words of the layout.
template <class L>
std::vector<typename L::W> words(nb::handle poset) {
    auto ps = span<const i64>(poset, "poset");
    if (ps.size() % L::WORDS != 0) throw nb::value_error("poset: two int64 per order of 9");
    std::vector<typename L::W> out(static_cast<std::size_t>(ps.size() / L::WORDS));
    for (std::size_t v = 0; v < out.size(); ++v) {
        typename L::W w = 0;
        for (i64 k = L::WORDS - 1; k >= 0; --k)
            w = (w << 32 << 32) | static_cast<u64>(ps[static_cast<i64>(v) * L::WORDS + k]);
        out[v] = w;
    }
    return out;
}

// Words as a numpy array of int64 (shape (k,) up to 8 elements, (k, 2) for 9).
template <class L>
nb::object as_numpy(const std::vector<typename L::W> &ws, i64 k) {
    std::vector<i64> flat(static_cast<std::size_t>(k * L::WORDS));
    for (i64 v = 0; v < k; ++v) {
        typename L::W w = ws[static_cast<std::size_t>(v)];
        for (i64 j = 0; j < L::WORDS; ++j) {
            flat[static_cast<std::size_t>(v * L::WORDS + j)] = static_cast<i64>(static_cast<u64>(w));
            w = w >> 32 >> 32;
        }
    }
    if (L::WORDS == 1) return nb::cast(to_numpy<i64>(std::move(flat)));
    return nb::cast(to_numpy<i64>(
        std::move(flat), {static_cast<std::size_t>(k), static_cast<std::size_t>(L::WORDS)}));
}

template <class L>
nb::object discover_py(i64 n, Span<const i64> a, Span<const i64> b, i64 limit, i64 mem_limit,
                       bool classes) {
    Discovered<L> d;
    {
        nb::gil_scoped_release free;
        d = discover<L>(n, a, b, limit, mem_limit, classes);
    }
    d.level.resize(static_cast<std::size_t>(d.nn));
    d.bstart.resize(static_cast<std::size_t>(d.nn + 1));
    d.battr.resize(static_cast<std::size_t>(d.nb));
    d.bedge.resize(static_cast<std::size_t>(d.nb + 1));
    d.child.resize(static_cast<std::size_t>(d.ne));
    nb::object posets = as_numpy<L>(d.poset, d.nn);
    return nb::make_tuple(d.status, d.nn, d.nb, d.ne, d.head, posets,
                          to_numpy<i32>(std::move(d.level)), to_numpy<i64>(std::move(d.bstart)),
                          to_numpy<i32>(std::move(d.battr)), to_numpy<i64>(std::move(d.bedge)),
                          to_numpy<i32>(std::move(d.child)));
}

template <class L>
nb::object sizes_py(nb::handle poset, i64 n) {
    const auto ps = words<L>(poset);
    std::vector<i32> out(ps.size());
    bool ok;
    {
        nb::gil_scoped_release free;
        constexpr i64 pieces = 64;
        const i64 k = static_cast<i64>(ps.size());
        ok = parallel_for(pieces, [&](i64 piece) {
            std::vector<i64> f(static_cast<std::size_t>(i64{1} << n));
            for (i64 v = piece; v < k; v += pieces)
                out[v] = static_cast<i32>(extensions<L>(ps[v], n, f.data()));
        });
    }
    if (!ok) throw std::bad_alloc();
    return nb::cast(to_numpy<i32>(std::move(out)));
}

template <class L>
nb::object canonical_py(nb::handle poset, i64 n) {
    auto ps = words<L>(poset);
    const i64 k = static_cast<i64>(ps.size());
    std::vector<i64> labels(static_cast<std::size_t>(k * n));
    {
        nb::gil_scoped_release free;
        for (i64 v = 0; v < k; ++v) ps[v] = canonical<L>(ps[v], n, labels.data() + v * n);
    }
    return nb::make_tuple(
        as_numpy<L>(ps, k),
        to_numpy<i64>(std::move(labels), {static_cast<std::size_t>(k), static_cast<std::size_t>(n)}));
}

template <class L>
nb::object extension_rows_py(nb::handle p, i64 n, i64 count, Span<const i64> rr) {
    const auto w = words<L>(p);
    if (w.size() != 1) throw nb::value_error("p: one order");
    std::vector<i64> out;
    {
        nb::gil_scoped_release free;
        out = extension_rows<L>(w[0], n, count, rr);
    }
    return nb::cast(to_numpy<i64>(std::move(out)));
}

}  // namespace

namespace py {

void bind_posets(nb::module_ &m) {
    m.def(
        "posets_discover",
        [](i64 n, nb::handle pi, nb::handle pj, i64 limit, i64 mem_limit, bool classes) {
            check_n(n);
            auto a = span<const i64>(pi, "pi"), b = span<const i64>(pj, "pj");
            if (a.size() != b.size()) throw nb::value_error("pi, pj: not of one length");
            for (i64 k = 0; k < a.size(); ++k)
                if (a[k] < 0 || a[k] >= n || b[k] < 0 || b[k] >= n || a[k] == b[k])
                    throw nb::value_error("pi, pj: pairs of distinct elements below n");
            if (n <= 8) return discover_py<Small>(n, a, b, limit, mem_limit, classes);
            return discover_py<Nine>(n, a, b, limit, mem_limit, classes);
        },
        nb::arg("n"), nb::arg("pi"), nb::arg("pj"), nb::arg("limit"), nb::arg("mem_limit"),
        nb::arg("classes"),
        "Breadth-first from the empty order of n elements, the attributes comparing pi[a] "
        "with pj[a]: (status, nodes, bundles, edges, nodes processed, orders, levels, "
        "node -> first bundle, bundle attributes, bundle -> first edge, edge children); "
        "status 0 done, 3 more than limit nodes, 4 more than mem_limit bytes. With classes "
        "every child is its canonical form: one node per isomorphism class. Orders are "
        "int64 (bit 8x + y: x before y) up to 8 elements, two int64 each for 9 (bit 9x + y "
        "of the 128-bit word, low word first).");

    m.def(
        "posets_canonical",
        [](nb::handle poset, i64 n) {
            check_n(n);
            return n <= 8 ? canonical_py<Small>(poset, n) : canonical_py<Nine>(poset, n);
        },
        nb::arg("poset"), nb::arg("n"),
        "Each order's canonical form (as the orders) and the labelling giving it (int64, n "
        "per order: element x of the order is element labels[x] of the canonical form).");

    m.def(
        "posets_sizes",
        [](nb::handle poset, i64 n) {
            check_n(n);
            return n <= 8 ? sizes_py<Small>(poset, n) : sizes_py<Nine>(poset, n);
        },
        nb::arg("poset"), nb::arg("n"),
        "Every order's number of linear extensions (int32; in parallel pieces).");

    m.def(
        "posets_extension_rows",
        [](nb::handle p, i64 n, i64 count, nb::handle row_of_rank) {
            check_n(n);
            auto rr = span<const i64>(row_of_rank, "row_of_rank");
            i64 fact = 1;
            for (i64 k = 2; k <= n; ++k) fact *= k;
            if (rr.size() < fact) throw nb::value_error("row_of_rank: one row per order");
            return n <= 8 ? extension_rows_py<Small>(p, n, count, rr)
                          : extension_rows_py<Nine>(p, n, count, rr);
        },
        nb::arg("p"), nb::arg("n"), nb::arg("count"), nb::arg("row_of_rank"),
        "The table rows of the linear extensions of the order p (an array of its int64 "
        "words; depth-first order).");
}

}  // namespace py
}  // namespace dagger
