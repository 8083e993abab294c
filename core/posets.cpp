// The DAG Δ(T) of a sorting table from partial orders (driven by
// dagger_cli.engine.posets.poset_dag).
//
// A subtable of the sorting table reached by splits is the set of orders consistent with
// the comparisons made so far: the linear extensions of a partial order, one 64-bit word
// for n <= 8 elements (bit 8x + y: x before y). A split on "xi<xj" is possible where i and
// j are incomparable; its children add "j before i" (value 0) and "i before j" (value 1)
// and close transitively; a subtable's size is its number of linear extensions (paths
// through its down-sets). Nothing reads the rows.
//
// discover: breadth-first from the empty order, a hash table of orders (open addressing,
// one 16-byte slot = (order + 1, node), kept at most half full); a parent's children keys
// are computed first and their slots prefetched, so the cache misses of its lookups
// overlap. The arrays grow as numba's did (to the need, at least double) and the memory
// they take is checked against a limit after every parent. sizes: every order's number of
// linear extensions, in parallel pieces. extension_rows: the table rows of one order's
// linear extensions (depth-first), for tree extraction.
#include <array>

#include "py.hpp"

namespace dagger {
namespace {

namespace nb = nanobind;

inline u64 before(u64 p, i64 x, i64 y) { return (p >> (8 * x + y)) & 1; }

// The transitive closure of p plus "a before b" (p transitively closed).
inline u64 add(u64 p, i64 a, i64 b, i64 n) {
    const u64 up = ((p >> (8 * b)) & 0xFF) | (u64{1} << b);
    u64 out = p;
    for (i64 x = 0; x < n; ++x)
        if (x == a || before(p, x, a)) out |= up << (8 * x);
    return out;
}

// Per element, the set of elements before it.
inline void predecessors(u64 p, i64 n, i64 *pred) {
    for (i64 x = 0; x < n; ++x) {
        pred[x] = 0;
        for (i64 y = 0; y < n; ++y)
            if (before(p, y, x)) pred[x] |= i64{1} << y;
    }
}

// The number of linear extensions of p: paths through its down-sets (f: 2^n counts).
i64 extensions(u64 p, i64 n, i64 *f) {
    i64 pred[8];
    predecessors(p, n, pred);
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

inline i64 hash_slot(i64 key, i64 mask) {
    const u64 h = static_cast<u64>(key) * 0x9E3779B97F4A7C15ull;
    return static_cast<i64>(h >> 20) & mask;
}

// a, or a with room for need items (at least double) when it is shorter.
template <class T>
void grow(std::vector<T> &a, i64 need) {
    const i64 size = static_cast<i64>(a.size());
    if (need > size) a.resize(static_cast<std::size_t>(std::max(need, 2 * size)));
}

struct Discovered {
    int status = 0;
    i64 nn = 0, nb = 0, ne = 0, head = 0;
    std::vector<i64> poset;
    std::vector<i32> level;
    std::vector<i64> bstart;
    std::vector<i32> battr;
    std::vector<i64> bedge;
    std::vector<i32> child;
};

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
// labels below it (2l bits: "l before b", "b before l" for b < l), so the labels given
// first decide a prefix of the key: the search is depth-first over the orders inside the
// colours (their factorials' product: 40,320 for the empty order of 8 elements, few for
// most orders) and leaves a prefix already above the best key's.
u64 canonical(u64 p, i64 n, i64 *pos) {
    i64 pred[8], succ[8], colour[8] = {0};
    for (i64 x = 0; x < n; ++x) {
        pred[x] = 0;
        succ[x] = static_cast<i64>((p >> (8 * x)) & 0xFF);
        for (i64 y = 0; y < n; ++y)
            if (before(p, y, x)) pred[x] |= i64{1} << y;
    }
    i64 colours = 1;
    for (;;) {
        std::array<std::array<i32, 17>, 8> sig{}, sorted{};
        for (i64 x = 0; x < n; ++x) {
            sig[x][0] = static_cast<i32>(colour[x]);
            for (i64 y = 0; y < n; ++y) {
                if ((pred[x] >> y) & 1) ++sig[x][1 + colour[y]];
                if ((succ[x] >> y) & 1) ++sig[x][9 + colour[y]];
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
    i64 label_colour[8];
    {
        i64 at = 0;
        for (i64 c = 0; c < colours; ++c)
            for (i64 x = 0; x < n; ++x)
                if (colour[x] == c) label_colour[at++] = c;
    }
    const i64 bits = n * (n - 1);
    u64 best = 0;
    bool found = false;
    i64 elem[8], best_elem[8];
    // Level l gives label l to an unused element of its colour; key holds l(l - 1) bits.
    auto rec = [&](auto &&self, i64 l, i64 used, u64 key) -> void {
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
            u64 k = key;
            for (i64 b = 0; b < l; ++b) {
                const i64 y = elem[b];
                k = (k << 2) | static_cast<u64>(((succ[x] >> y) & 1) << 1) |
                    static_cast<u64>((pred[x] >> y) & 1);
            }
            self(self, l + 1, used | (i64{1} << x), k);
        }
    };
    rec(rec, 0, 0, 0);
    u64 word = 0;
    for (i64 l = 0; l < n; ++l) pos[best_elem[l]] = l;
    for (i64 x = 0; x < n; ++x)
        for (i64 y = 0; y < n; ++y)
            if ((succ[x] >> y) & 1) word |= u64{1} << (8 * pos[x] + pos[y]);
    return word;
}

// Breadth-first from the empty order: status 0 done, 3 more than `limit` subtables, 4 more
// than `mem_limit` bytes of arrays (counted as the numba kernel counted them). With
// `classes` a child is its canonical form (one node per isomorphism class).
Discovered discover(i64 n, Span<const i64> pi, Span<const i64> pj, i64 limit, i64 mem_limit,
                    bool classes) {
    const i64 m = pi.size();
    const i64 cap = 1024;
    Discovered d;
    d.poset.assign(cap, 0);
    d.level.assign(cap, 0);
    d.bstart.assign(cap + 1, 0);
    d.battr.assign(cap, 0);
    d.bedge.assign(cap + 1, 0);
    d.child.assign(4 * cap, 0);
    i64 slots = i64{1} << 12;
    // Open addressing, one slot = (poset + 1, node) side by side: one cache miss a lookup.
    std::vector<i64> ht(static_cast<std::size_t>(2 * slots), 0);
    std::vector<i64> keys(static_cast<std::size_t>(std::max<i64>(2 * m, 1)), 0);
    std::vector<i32> attrs(static_cast<std::size_t>(std::max<i64>(m, 1)), 0);
    ht[2 * hash_slot(1, slots - 1)] = 1;
    i64 nn = 1, nb = 0, ne = 0, head = 0;
    int status = 0;
    while (head < nn) {
        const u64 p = static_cast<u64>(d.poset[head]);
        d.bstart[head] = nb;
        i64 k = 0;
        for (i64 a = 0; a < m; ++a) {
            const i64 i = pi[a], j = pj[a];
            if (before(p, i, j) || before(p, j, i)) continue;
            attrs[k / 2] = static_cast<i32>(a);
            u64 lo = add(p, j, i, n), hi = add(p, i, j, n);  // value 0: x_j < x_i; 1: x_i < x_j
            if (classes) {
                i64 pos[8];
                lo = canonical(lo, n, pos);
                hi = canonical(hi, n, pos);
            }
            keys[k] = static_cast<i64>(lo + 1);
            keys[k + 1] = static_cast<i64>(hi + 1);
            prefetch(&ht[2 * hash_slot(keys[k], slots - 1)]);
            prefetch(&ht[2 * hash_slot(keys[k + 1], slots - 1)]);
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
            const i64 key = keys[e];
            i64 h = hash_slot(key, slots - 1);
            while (ht[2 * h] != 0 && ht[2 * h] != key) h = (h + 1) & (slots - 1);
            if (ht[2 * h] == 0) {
                if (nn >= limit) {
                    status = 3;
                    break;
                }
                grow(d.poset, nn + 1);
                grow(d.level, nn + 1);
                grow(d.bstart, nn + 2);
                d.poset[nn] = key - 1;
                d.level[nn] = d.level[head] + 1;  // breadth-first: its least depth
                ht[2 * h] = key;
                ht[2 * h + 1] = nn;
                d.child[ne] = static_cast<i32>(nn);
                ++nn;
                if (2 * nn > slots) {  // keep the table at most half full
                    const i64 bigger = 2 * slots;
                    std::vector<i64> out(static_cast<std::size_t>(2 * bigger), 0);
                    for (i64 s = 0; s < slots; ++s) {
                        if (ht[2 * s] != 0) {
                            i64 t = hash_slot(ht[2 * s], bigger - 1);
                            while (out[2 * t] != 0) t = (t + 1) & (bigger - 1);
                            out[2 * t] = ht[2 * s];
                            out[2 * t + 1] = ht[2 * s + 1];
                        }
                    }
                    ht.swap(out);
                    slots = bigger;
                }
            } else {
                d.child[ne] = static_cast<i32>(ht[2 * h + 1]);
            }
            ++ne;
        }
        if (status != 0) break;
        const i64 used = static_cast<i64>(d.poset.size()) * 16 +
                         static_cast<i64>(d.bstart.size()) * 8 +
                         static_cast<i64>(d.battr.size()) * 4 +
                         static_cast<i64>(d.bedge.size()) * 8 +
                         static_cast<i64>(d.child.size()) * 4 + slots * 16;
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
std::vector<i64> extension_rows(u64 p, i64 n, i64 count, Span<const i64> row_of_rank) {
    i64 pred[8];
    predecessors(p, n, pred);
    i64 fact[9];
    fact[0] = 1;
    for (i64 k = 1; k <= n; ++k) fact[k] = fact[k - 1] * k;
    std::vector<i64> out(static_cast<std::size_t>(std::max<i64>(count, 0)));
    i64 seq[8] = {0}, nxt[9] = {0}, ranks[8] = {0};
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
    if (n < 1 || n > 8) throw nb::value_error("n: a sorting table of 1 to 8 elements");
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
            Discovered d;
            {
                nb::gil_scoped_release free;
                d = discover(n, a, b, limit, mem_limit, classes);
            }
            d.poset.resize(static_cast<std::size_t>(d.nn));
            d.level.resize(static_cast<std::size_t>(d.nn));
            d.bstart.resize(static_cast<std::size_t>(d.nn + 1));
            d.battr.resize(static_cast<std::size_t>(d.nb));
            d.bedge.resize(static_cast<std::size_t>(d.nb + 1));
            d.child.resize(static_cast<std::size_t>(d.ne));
            return nb::make_tuple(d.status, d.nn, d.nb, d.ne, d.head,
                                  to_numpy<i64>(std::move(d.poset)),
                                  to_numpy<i32>(std::move(d.level)),
                                  to_numpy<i64>(std::move(d.bstart)),
                                  to_numpy<i32>(std::move(d.battr)),
                                  to_numpy<i64>(std::move(d.bedge)),
                                  to_numpy<i32>(std::move(d.child)));
        },
        nb::arg("n"), nb::arg("pi"), nb::arg("pj"), nb::arg("limit"), nb::arg("mem_limit"),
        nb::arg("classes"),
        "Breadth-first from the empty order of n elements, the attributes comparing pi[a] "
        "with pj[a]: (status, nodes, bundles, edges, nodes processed, orders, levels, "
        "node -> first bundle, bundle attributes, bundle -> first edge, edge children); "
        "status 0 done, 3 more than limit nodes, 4 more than mem_limit bytes. With classes "
        "every child is its canonical form: one node per isomorphism class.");

    m.def(
        "posets_canonical",
        [](nb::handle poset, i64 n) {
            check_n(n);
            auto ps = span<const i64>(poset, "poset");
            const i64 k = ps.size();
            std::vector<i64> canon(static_cast<std::size_t>(k));
            std::vector<i64> labels(static_cast<std::size_t>(k * n));
            {
                nb::gil_scoped_release free;
                for (i64 v = 0; v < k; ++v)
                    canon[v] = static_cast<i64>(
                        canonical(static_cast<u64>(ps[v]), n, labels.data() + v * n));
            }
            return nb::make_tuple(to_numpy<i64>(std::move(canon)),
                                  to_numpy<i64>(std::move(labels), {static_cast<std::size_t>(k), static_cast<std::size_t>(n)}));
        },
        nb::arg("poset"), nb::arg("n"),
        "Each order's canonical form (int64) and the labelling giving it (int64, n per "
        "order: element x of the order is element labels[x] of the canonical form).");

    m.def(
        "posets_sizes",
        [](nb::handle poset, i64 n) {
            check_n(n);
            auto ps = span<const i64>(poset, "poset");
            std::vector<i32> out(static_cast<std::size_t>(ps.size()));
            bool ok;
            {
                nb::gil_scoped_release free;
                constexpr i64 pieces = 64;
                ok = parallel_for(pieces, [&](i64 piece) {
                    std::vector<i64> f(static_cast<std::size_t>(i64{1} << n));
                    for (i64 v = piece; v < ps.size(); v += pieces)
                        out[v] = static_cast<i32>(extensions(static_cast<u64>(ps[v]), n, f.data()));
                });
            }
            if (!ok) throw std::bad_alloc();
            return to_numpy<i32>(std::move(out));
        },
        nb::arg("poset"), nb::arg("n"),
        "Every order's number of linear extensions (int32; in parallel pieces).");

    m.def(
        "posets_extension_rows",
        [](i64 p, i64 n, i64 count, nb::handle row_of_rank) {
            check_n(n);
            auto rr = span<const i64>(row_of_rank, "row_of_rank");
            i64 fact = 1;
            for (i64 k = 2; k <= n; ++k) fact *= k;
            if (rr.size() < fact) throw nb::value_error("row_of_rank: one row per order");
            std::vector<i64> out;
            {
                nb::gil_scoped_release free;
                out = extension_rows(static_cast<u64>(p), n, count, rr);
            }
            return to_numpy<i64>(std::move(out));
        },
        nb::arg("p"), nb::arg("n"), nb::arg("count"), nb::arg("row_of_rank"),
        "The table rows of the linear extensions of the order p (depth-first order).");
}

}  // namespace py
}  // namespace dagger
