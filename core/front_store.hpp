// What the two fronts kernels share (fronts.cpp: every subproblem of the DAG from its
// children's fronts; depth_two.cpp: the last two levels of a depth cap from class counts):
// the cost pair's parameters, the Pareto step (pareto_into), one subproblem's front from
// its bundles' children's fronts (node_front, with the bounds of bounds.hpp), the scratch
// it works in, and the point pool the fronts are appended to (store).
//
// A front is a list of points (x, y), x ascending and y descending (a Pareto set), each
// with a tag: the local index of the bundle that made it (-1: the leaf). Ties: among equal
// points the first listed wins (the leaf, then bundles in attribute order, children in
// value order); every step here keeps that rule, which the node numbering, the trees and
// the counts downstream rely on.
//
// The pool: subproblem s's front is points fref[2s] .. fref[2s] + fref[2s + 1] of fxy
// (x, y interleaved) and fch (tags); counters[1] points are used. The kernels compute a
// batch of fronts in parallel pieces, each into its own slots, then store copies them
// into the pool in entry order: the same bytes whatever the threads.
#pragma once

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "bounds.hpp"

namespace dagger::fronts {

// out_len of an entry no piece wrote (its piece failed), and of one refused for memory.
inline constexpr i64 NOT_WRITTEN = -3;
inline constexpr i64 NO_ROOM = -2;
// The bytes one unit of a Scratch's capacity is counted for against a piece's allowance
// (numba's count, kept so that the same ceilings give the same answers; the arrays of
// Scratch take 10 * 8 + 2 * 4 bytes a unit, less).
inline constexpr i64 SCRATCH_BYTES = 11 * 8 + 3 * 4;
// Entries of one batch at most, and its output slots at most.
inline constexpr i64 CHUNK_NODES = 4096;
inline constexpr i64 CHUNK_ENTRIES = i64{1} << 21;

// An array of n T's, uninitialised (the fill constructor sets them): numba's np.empty.
// A negative or impossible length throws std::bad_alloc (a failed allocation, which the
// kernels report as OUT_OF_MEMORY), never something else.
template <class T>
struct Buf {
    std::unique_ptr<T[]> p;
    i64 n = 0;
    Buf() = default;
    explicit Buf(i64 len) : p(len > 0 ? new T[static_cast<std::size_t>(len)] : nullptr), n(len) {
        if (len < 0) throw std::bad_alloc();
    }
    Buf(i64 len, T v) : Buf(len) { std::fill(p.get(), p.get() + n, v); }
    T &operator[](i64 i) const { return p[i]; }
    T *data() const { return p.get(); }
    i64 size() const { return n; }
};

// One cost's five parameters (dagger_cli.costs.Cost.params).
struct Cost {
    i64 combine, leaf_const, leaf_mis, split_const, split_rows;
    i64 leaf(i64 mis) const { return leaf_const + leaf_mis * mis; }
    // What a split of n rows adds to its children's combined cost.
    i64 split(i64 n) const { return split_const + split_rows * n; }
};

// The cost pair and the bounds, read once from the params vector the driver builds
// (x's five, y's five, exact_only, max_x, max_y, least_y; bounds.hpp's trim reads it raw).
struct Params {
    Cost x, y;
    bool exact_only;
    i64 max_x, max_y;  // INF: none
    bool least_y;
    const i64 *raw;
    // The two leaves (DagView::leaf_xy) at remaining depth 0 only, a plain leaf above (the
    // anytime bound's optimistic leaves at the cap); an optional 15th value.
    bool leaves_at_cap = false;

    static Params of(Span<const i64> p) {
        if (p.size() < 14) throw std::invalid_argument("params: 14 values expected");
        return Params{{p[0], p[1], p[2], p[3], p[4]},
                      {p[5], p[6], p[7], p[8], p[9]},
                      p[10] != 0,
                      p[11],
                      p[12],
                      p[13] != 0,
                      p.p,
                      p.size() > 14 && p[14] != 0};
    }
};

// The Pareto step's buffers: a table indexed by y (x's and candidate indices, all INF and
// 0 between calls) and the sort buffer of the general case.
struct ParetoBuf {
    Buf<i64> sbx, sbi;
    std::vector<std::pair<i64, i64>> keys;
    explicit ParetoBuf(i64 n) : sbx(n, INF), sbi(n, 0) {}
};

// Write the Pareto points of the first p candidates x, y (tags ch when TAGS) to out*, x
// ascending; returns how many. out* must have room for p + 1 points. The first listed of
// equal points wins. An array indexed by y when y spans a small range (misclassifications
// never exceed the rows), else a stable sort by (x, y).
template <bool TAGS, class C>
inline i64 pareto_into(const i64 *x, const i64 *y, const C *ch, i64 p, i64 *outx, i64 *outy,
                       C *outch, ParetoBuf &pb) {
    if (p == 0) return 0;
    if (p == 1) {
        outx[0] = x[0];
        outy[0] = y[0];
        if constexpr (TAGS) outch[0] = ch[0];
        return 1;
    }
    i64 ymin = y[0], ymax = y[0];
    for (i64 k = 1; k < p; ++k) {
        ymin = std::min(ymin, y[k]);
        ymax = std::max(ymax, y[k]);
    }
    const i64 span = ymax - ymin + 1;
    if (span <= 4 * p + 16 && span <= pb.sbx.size()) {
        i64 *sbx = pb.sbx.data();
        i64 *sbi = pb.sbi.data();
        // Per y the least x, and with tags the first candidate of it on a tie (selects,
        // no branches).
        for (i64 k = 0; k < p; ++k) {
            const u64 t = static_cast<u64>(y[k] - ymin);
            const i64 v = x[k];
            if constexpr (TAGS) {
                const bool better = v < sbx[t];
                sbi[t] = better ? k : sbi[t];
                sbx[t] = better ? v : sbx[t];
            } else {
                sbx[t] = std::min(sbx[t], v);
            }
        }
        // y ascending, keeping x strictly decreasing (each write kept or overwritten; out*
        // have room for one more than p) ...
        i64 cur = INF;
        u64 w = 0;
        for (i64 t = 0; t < span; ++t) {
            const i64 v = sbx[t];
            const bool keep = v < cur;
            outx[w] = v;
            outy[w] = t + ymin;
            if constexpr (TAGS) {
                outch[w] = ch[sbi[t]];
                sbi[t] = 0;
            }
            w += keep;
            cur = std::min(cur, v);
            sbx[t] = INF;
        }
        const i64 cnt = static_cast<i64>(w);
        // ... then reversed into x ascending.
        for (i64 k = 0; k < cnt / 2; ++k) {
            const i64 j = cnt - 1 - k;
            std::swap(outx[k], outx[j]);
            std::swap(outy[k], outy[j]);
            if constexpr (TAGS) std::swap(outch[k], outch[j]);
        }
        return cnt;
    }
    i64 xmin = x[0];
    for (i64 k = 1; k < p; ++k) xmin = std::min(xmin, x[k]);
    // (key, index): sorted by key, equal keys (equal points) in list order.
    auto &keys = pb.keys;
    keys.resize(static_cast<std::size_t>(p));
    for (i64 k = 0; k < p; ++k) keys[k] = {(x[k] - xmin) * span + (y[k] - ymin), k};
    std::sort(keys.begin(), keys.end());
    i64 cur = INF, cnt = 0;
    for (i64 q = 0; q < p; ++q) {
        const i64 k = keys[q].second;
        if (y[k] < cur) {
            cur = y[k];
            outx[cnt] = x[k];
            outy[cnt] = y[k];
            if constexpr (TAGS) outch[cnt] = ch[k];
            ++cnt;
        }
    }
    return cnt;
}

// node_front's scratch, every array of `cap` points: a bundle's running front (a), its
// products with the next child (b), a node's merged front (c), its front (o; tags in oc),
// and the best the children after each one of a bundle can do (r).
struct Scratch {
    i64 cap;
    Buf<i64> ax, ay, bx, by, cx, cy, ox, oy, rx, ry;
    Buf<i32> cc, oc;
    explicit Scratch(i64 n)
        : cap(n), ax(n), ay(n), bx(n), by(n), cx(n), cy(n), ox(n), oy(n), rx(n), ry(n), cc(n),
          oc(n) {}
};

// Every combination of na points a with L points c into b (a-major): x's combined by max
// (xmax) or summed, y's likewise. One loop per combination of the two, so that each runs
// without a test per point.
inline void products(bool xmax, bool ymax, const i64 *ax, const i64 *ay, i64 na, const i64 *cx,
                     const i64 *cy, i64 L, i64 *bx, i64 *by) {
    auto run = [&](auto fx, auto fy) {
        for (i64 k = 0; k < na; ++k) {
            const i64 kx = ax[k], ky = ay[k];
            i64 *__restrict ox = bx + k * L;
            i64 *__restrict oy = by + k * L;
            for (i64 q = 0; q < L; ++q) {
                ox[q] = fx(kx, cx[q]);
                oy[q] = fy(ky, cy[q]);
            }
        }
    };
    auto mx = [](i64 a, i64 b) { return std::max(a, b); };
    auto add = [](i64 a, i64 b) { return a + b; };
    if (xmax) {
        if (ymax) run(mx, mx);
        else run(mx, add);
    } else {
        if (ymax) run(add, mx);
        else run(add, add);
    }
}

// The children's fronts a node_front call reads: edge g's child front is points
// px, py[gp[g]:gp[g] + gl[g]].
struct ChildFronts {
    const i64 *gp, *gl, *px, *py;
};

// One subproblem's front into s.ox, s.oy, s.oc; returns its length, or -need when the
// scratch (of s.cap points) is too short.
//
// Its candidates are the leaf (unless the parameters ask for exact trees only and the
// node is impure and `split`: some attribute splits it) and bundles b0 .. b1 - 1 (none at
// remaining depth 0); bundle b's children are edges bes[b] .. bes[b + 1] - 1, their fronts
// those of edges g = g_base + e - bes[b0] of `kids`. A front may be empty (exact trees
// only, under a depth cap): a bundle with an empty child is empty.
//
// Bounds (no point of the front is lost, no tag changes): the front is kept sorted as it
// grows (the leaf, then bundle after bundle, merged); a bundle whose best possible point
// (every child at its least x, every child at its least y) is dominated is skipped, and
// inside a bundle a partial combination whose best completion is dominated is dropped
// (prune); max_x, max_y keep the points within what this subproblem, at least lvl deep,
// has left of them (allowance); least_y keeps only the point of least y.
//
// With `leaves` (x0 y0 x1 y1: a leaf that may take either of two decisions) the leaf is
// those two points, tagged -1 and -2, the first kept on a tie, a dominated one dropped.
inline i64 node_front(i64 n, i64 mis, i64 split, i64 lvl, i64 b0, i64 b1, const i64 *bes,
                      i64 g_base, const Params &P, const ChildFronts &kids, Scratch &s,
                      ParetoBuf &pb, const i64 *leaves = nullptr) {
    const Cost &X = P.x, &Y = P.y;
    const i64 xk = X.combine, yk = Y.combine;
    const i64 xs = allowance(P.max_x, lvl, X.split_const, X.split_rows, n);
    i64 ys = allowance(P.max_y, lvl, Y.split_const, Y.split_rows, n);
    const bool both_sum = xk != MAXK && yk != MAXK;
    const i64 cap = s.cap;
    const i64 e_base = bes[b0];
    const i64 addx = X.split(n), addy = Y.split(n);
    const i64 *gp = kids.gp, *gl = kids.gl, *px = kids.px, *py = kids.py;
    i64 *ax = s.ax.data(), *ay = s.ay.data(), *rx = s.rx.data(), *ry = s.ry.data();
    i64 no = 0;
    if (leaves != nullptr) {
        i64 x0 = leaves[0], y0 = leaves[1], x1 = leaves[2], y1 = leaves[3];
        i32 t0 = -1, t1 = -2;
        if (x1 < x0 || (x1 == x0 && y1 < y0)) {
            std::swap(x0, x1);
            std::swap(y0, y1);
            std::swap(t0, t1);
        }
        if (x0 <= xs && y0 <= ys) {
            s.ox[no] = x0;
            s.oy[no] = y0;
            s.oc[no] = t0;
            ++no;
        }
        if (x1 <= xs && y1 <= ys && (no == 0 || y1 < s.oy[no - 1])) {
            s.ox[no] = x1;
            s.oy[no] = y1;
            s.oc[no] = t1;
            ++no;
        }
        if (P.least_y && no > 0) ys = s.oy[no - 1];
    } else if (!P.exact_only || mis == 0 || split == 0) {
        const i64 lx = X.leaf(mis), ly = Y.leaf(mis);
        if (lx <= xs && ly <= ys) {
            s.ox[0] = lx;
            s.oy[0] = ly;
            s.oc[0] = -1;
            no = 1;
            if (P.least_y) ys = ly;
        }
    }
    for (i64 b = b0; b < b1; ++b) {
        const i64 g0 = g_base + bes[b] - e_base;
        const i64 g1 = g_base + bes[b + 1] - e_base;
        if (g1 - g0 > cap) return -(g1 - g0 + 1);
        // The best the children after each one can do: rx, ry[g - g0] (costs are >= 0: 0
        // is the combination of none).
        bool empty = gl[g0] == 0;
        rx[g1 - 1 - g0] = 0;
        ry[g1 - 1 - g0] = 0;
        for (i64 g = g1 - 1; g > g0; --g) {
            const i64 L = gl[g];
            if (L == 0) {
                empty = true;
                break;
            }
            const i64 st = gp[g];
            rx[g - 1 - g0] = comb(xk, rx[g - g0], px[st]);
            ry[g - 1 - g0] = comb(yk, ry[g - g0], py[st + L - 1]);
        }
        if (empty) continue;
        // The bundle's best possible point: skipped when out of bounds or dominated.
        const i64 s0 = gp[g0];
        const i64 ix = comb(xk, px[s0], rx[0]) + addx;
        const i64 iy = comb(yk, py[s0 + gl[g0] - 1], ry[0]) + addy;
        if (ix > xs || iy > ys || dominated(ix, iy, s.ox.data(), s.oy.data(), no)) continue;
        // The first child's front (costs are >= 0: max with 0 and + 0 leave it unchanged,
        // and it is already Pareto), then one more child at a time.
        i64 na = gl[g0];
        if (na >= cap) return -(na + 1);
        for (i64 k = 0; k < na; ++k) {
            ax[k] = px[s0 + k];
            ay[k] = py[s0 + k];
        }
        na = prune(ax, ay, na, xk, rx[0], yk, ry[0], addx, addy, xs, ys, s.ox.data(),
                   s.oy.data(), no);
        for (i64 g = g0 + 1; g < g1; ++g) {
            if (na == 0) break;
            const i64 st = gp[g];
            const i64 L = gl[g];
            if (L == 1 && both_sum) {
                // A single point shifts a Pareto set; it stays Pareto.
                const i64 dx = px[st], dy = py[st];
                for (i64 k = 0; k < na; ++k) {
                    ax[k] += dx;
                    ay[k] += dy;
                }
            } else {
                const i64 p = na * L;
                if (p >= cap) return -(p + 1);
                products(xk == MAXK, yk == MAXK, ax, ay, na, px + st, py + st, L, s.bx.data(),
                         s.by.data());
                na = pareto_into<false, i32>(s.bx.data(), s.by.data(), nullptr, p, ax, ay,
                                             nullptr, pb);
            }
            na = prune(ax, ay, na, xk, rx[g - g0], yk, ry[g - g0], addx, addy, xs, ys,
                       s.ox.data(), s.oy.data(), no);
        }
        if (na == 0) continue;
        if (no + na >= cap) return -(no + na + 1);
        // Merge into the front: x ascending, then y ascending, the front's point first on a
        // tie (listed before); a point is kept when its y is below every kept one's.
        const i64 *ox = s.ox.data(), *oy = s.oy.data();
        const i32 *oc = s.oc.data();
        i64 *cx = s.cx.data(), *cy = s.cy.data();
        i32 *cc = s.cc.data();
        const i32 tag = static_cast<i32>(b - b0);
        i64 i = 0, j = 0, w = 0, cur = INF;
        while (i < no || j < na) {
            i64 vx = j < na ? ax[j] + addx : INF;
            i64 vy = j < na ? ay[j] + addy : INF;
            i32 vc;
            if (j >= na || (i < no && (ox[i] < vx || (ox[i] == vx && oy[i] <= vy)))) {
                vx = ox[i];
                vy = oy[i];
                vc = oc[i];
                ++i;
            } else {
                vc = tag;
                ++j;
            }
            if (vy < cur) {
                cx[w] = vx;
                cy[w] = vy;
                cc[w] = vc;
                ++w;
                cur = vy;
            }
        }
        std::swap(s.cx, s.ox);
        std::swap(s.cy, s.oy);
        std::swap(s.cc, s.oc);
        no = w;
        if (P.least_y) {
            s.ox[0] = s.ox[no - 1];
            s.oy[0] = s.oy[no - 1];
            s.oc[0] = s.oc[no - 1];
            no = 1;
            ys = s.oy[0];
        }
    }
    return no;
}

// The DAG's arrays the kernels read (dagger_cli.engine.structures.Dag's of the same names).
struct DagView {
    Span<const i64> node_start;
    Span<const i32> node_size, node_mis;
    Span<const i8> node_split;
    Span<const i32> node_level;
    Span<const i64> node_bundle_start, bundle_edge_start;
    Span<const i32> edge_child, row_pool;
    // A subtable's weight, the n of the split costs (dagger_cli.weights: its rows' weights
    // summed; node_size itself when the rows are unweighted).
    Span<const i32> node_weight;
    // A leaf with a choice of two decisions (dagger_cli.costs: false positives and false
    // negatives): per node its two points, x0 y0 x1 y1 (the decisions in code order); empty
    // when every leaf is the point of node_mis.
    Span<const i64> leaf_xy;
};

// The point pool the kernels append to (the driver's arrays, grown on MUST_GROW): fref
// (2 per subproblem), fxy (2 per point), fch (tags), counters ([0]: the next entry of the
// kernel's order, [1]: points used), needs ([0]: points after MUST_GROW, bytes after
// OUT_OF_MEMORY).
struct Pool {
    Span<i64> fref, fxy;
    Span<i32> fch;
    Span<i64> counters, needs;
};

// A batch's output: entry t's front is len[t] points at x, y, c[off[t]:] (len -1: longer
// than its bound, a bug; NO_ROOM, NOT_WRITTEN: see above).
struct BatchOut {
    Buf<i64> x, y;
    Buf<i32> c;
    // Room for `need` points (at least double, contents not kept).
    void reserve(i64 need) {
        if (need <= x.size()) return;
        const i64 size = std::max(need, 2 * x.size());
        x = Buf<i64>(size);
        y = Buf<i64>(size);
        c = Buf<i32>(size);
    }
};

// The calling thread's batch output, kept from one call of a kernel to the next while a
// phase runs (the driver calls a kernel again and again, each call within a work budget,
// BUDGET_SPENT until the phase ends): made afresh in each call, its tens of MiB went back
// to the system at the call's end and were faulted in again at the next (a third of the
// depth-two layer's time on odt-anneal at depth 5, in the kernel's page faults). A
// kernel takes it through a KeptBatchOut, which releases it unless the call returns
// BUDGET_SPENT (a phase stopped between two calls keeps it until this thread's next phase
// ends; its bytes are within what the driver reserved for the phase's batches).
inline BatchOut &thread_batch_out() {
    thread_local BatchOut out;
    return out;
}

struct KeptBatchOut {
    BatchOut &out = thread_batch_out();
    int status = DONE;  // the call's result: BUDGET_SPENT keeps the buffers
    ~KeptBatchOut() {
        if (status != BUDGET_SPENT) out = BatchOut{};
    }
    // Return status through this: `return kept(status);`
    int operator()(int st) {
        status = st;
        return st;
    }
};

// Append a batch's fronts to the pool in entry order: entry t's len[t] points at
// out[off[t]:] become subproblem sub[t]'s front (sub[t] < 0: none, its front is already
// there). Returns DONE with the points of the batch in `total`, FRONT_TOO_LONG when an
// entry's length is -1, or MUST_GROW with needs[0] the points the pool must hold.
inline int store(i64 nk, const i64 *sub, const i64 *off, const i64 *len, const BatchOut &out,
                 const Pool &pool, i64 &total) {
    total = 0;
    for (i64 t = 0; t < nk; ++t) {
        if (len[t] < 0) {
            total = 0;
            return FRONT_TOO_LONG;
        }
        total += len[t];
    }
    i64 used = pool.counters[1];
    if (used + total > pool.fch.size()) {
        pool.needs[0] = used + total;
        total = 0;
        return MUST_GROW;
    }
    for (i64 t = 0; t < nk; ++t) {
        const i64 sb = sub[t];
        if (sb < 0) continue;
        const i64 cnt = len[t];
        pool.fref[2 * sb] = used;
        pool.fref[2 * sb + 1] = cnt;
        const i64 o = off[t];
        for (i64 k = 0; k < cnt; ++k) {
            pool.fxy[2 * (used + k)] = out.x[o + k];
            pool.fxy[2 * (used + k) + 1] = out.y[o + k];
            pool.fch[used + k] = out.c[o + k];
        }
        used += cnt;
    }
    pool.counters[1] = used;
    return DONE;
}

}  // namespace dagger::fronts
