// The ordered solver's subtables: the table as the kernels read it, the workspace of rows
// sorted per attribute, and the passes over one subtable's rows.
//
// An ordered attribute has codes 0..K (the intervals between its K thresholds); its splits
// are code <= j / code > j. A nominal attribute splits into one child per value present. A
// subtable is kept as its rows sorted by each attribute's code in the workspace
// buf[level, a, :]: a subtable at `level` owns the range [off, off + m) of every
// attribute's row; its children are written into the same range of level + 1 by a stable
// partition (never re-sorted), and their own children below that, so siblings never
// overwrite each other.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "ordered_budget.hpp"

namespace dagger::ordered {

// The table: codes (A x n, attribute-major), kinds (1: ordered), nv (codes per attribute;
// nv[A]: the most codes for the depth-two trees from class counts, 0: never; nv[A + 1]:
// the factor of sweep_after, when the depth-two trees of two classes come from d2_sweep;
// nv[A + 2]: the minimum leaf size, min_leaf), decisions
// (0..C-1), the two random keys per row (2 x n) that name subtables, and the rows' integer
// weights (null: every row weighs 1). A row of weight k counts as k rows wherever a cost
// counts rows (class counts, a subtable's size in total path length, the rows a bound
// moves); the rows themselves still say which splits exist and name the subtables. With a
// price matrix (price[c * C + d]: a row of class c decided d, per unit of weight; null: 1
// for a wrong decision, 0 for a right one) a leaf costs its decision of least price, and a
// row moved changes a cost by at most its weight times F, the largest price (at least 1).
struct Table {
    const i32 *codes;
    const i8 *kinds;
    const i64 *nv;
    const i32 *dec;
    const i64 *keys;
    i64 A, n, C;
    bool all_ordered;  // no nominal attribute
    const i64 *wt = nullptr;
    const i64 *price = nullptr;
    i64 F = 1;
    // The minimum leaf size (--min-leaf): a split is allowed only if each child holds at
    // least min_leaf rows (rows, whatever their weights). Above 1 a subset of rows may need
    // more errors than the rows it lies in (its split may be forbidden), so no bound may read
    // a contained side's value as a lower bound (see `monotone`, `containing`).
    i64 min_leaf = 1;

    const i32 *col(i64 a) const { return codes + a * n; }
    // Whether a side's value only grows as it takes rows (no minimum leaf size): the bounds
    // that read a contained side's value (a neighbour's, a zero-error side's) hold.
    bool monotone() const { return min_leaf <= 1; }
    // Whether a side's value is at least a side's that contains it less what the rows
    // between move a cost by (a tree of the smaller side takes them in its leaves): always
    // without a minimum leaf size; under one only when every attribute is ordered. A
    // nominal split of the smaller side may lack a child for a value of the rows between,
    // and a child of theirs alone may hold fewer than min_leaf rows.
    bool containing() const { return monotone() || all_ordered; }
    bool ordered(i64 a) const { return kinds[a] == 1; }
    u64 key(i64 which, i64 row) const { return static_cast<u64>(keys[which * n + row]); }
    i64 w(i64 row) const { return wt ? wt[row] : 1; }
};

// The rows of the subtables being solved (levels x A x n) and each row's child of the
// split being made.
struct Workspace {
    i32 *buf;
    i64 levels;
    i32 *side;
};

// A subtable: the range [off, off + m) of workspace level `level`.
struct Sub {
    i64 level, off, m;
};

// What a search counts (the stats array the driver reads while the kernel runs): deep
// subtables solved, splits evaluated, splits skipped by bounds; and the abort flag the
// driver sets on Ctrl-C, read between two splits.
enum : int { S_SOLVED = 0, S_EVALUATED = 1, S_PRUNED = 2, S_ABORT = 3, N_STATS = 4 };

struct Stats {
    i64 *s;
    void add(int slot, i64 k = 1) const {
        std::atomic_ref<i64> r(s[slot]);
        r.store(r.load(std::memory_order_relaxed) + k, std::memory_order_relaxed);
    }
    bool aborted() const {
        return std::atomic_ref<i64>(s[S_ABORT]).load(std::memory_order_relaxed) != 0;
    }
};

// Row q of attribute a's order of s is rows(T, W, s, a)[q].
inline i32 *rows(const Table &T, const Workspace &W, Sub s, i64 a) {
    return W.buf + (s.level * T.A + a) * T.n + s.off;
}

// Rows per class of the m rows lst (their weight per class, with weights wt).
inline void counts(const i32 *lst, i64 m, const i32 *dec, i64 *cnt, i64 C,
                   const i64 *wt = nullptr) {
    std::fill(cnt, cnt + C, 0);
    if (wt == nullptr) {
        for (i64 q = 0; q < m; ++q) ++cnt[dec[lst[q]]];
    } else {
        for (i64 q = 0; q < m; ++q) cnt[dec[lst[q]]] += wt[lst[q]];
    }
}

inline i64 sum(const i64 *v, i64 n) {
    i64 t = 0;
    for (i64 i = 0; i < n; ++i) t += v[i];
    return t;
}

// The misclassifications of a leaf of cnt rows (or weight) per class: those not of its
// largest class, or with prices (price[c * C + d]) its decision's of least price.
inline i64 leaf_cost(const i64 *cnt, i64 C, const i64 *price) {
    if (price == nullptr) {
        i64 t = 0, b = 0;
        for (i64 c = 0; c < C; ++c) {
            t += cnt[c];
            b = std::max(b, cnt[c]);
        }
        return t - b;
    }
    i64 best = std::numeric_limits<i64>::max();
    for (i64 d = 0; d < C; ++d) {
        i64 v = 0;
        for (i64 c = 0; c < C; ++c) v += cnt[c] * price[c * C + d];
        best = std::min(best, v);
    }
    return best;
}

// leaf_cost of tot - cnt (the other side of a split), tmp: C entries of scratch.
inline i64 rest_cost(const i64 *tot, const i64 *cnt, i64 C, const i64 *price, i64 *tmp) {
    for (i64 c = 0; c < C; ++c) tmp[c] = tot[c] - cnt[c];
    return leaf_cost(tmp, C, price);
}

// The weight of the first pos[k] rows of lst, for the K thresholds (wpos[k]; wpos = pos
// without weights): how far apart two thresholds are in the rows a bound moves.
inline void weight_positions(const i32 *lst, const i64 *wt, const i64 *pos, i64 K, i64 *wpos) {
    i64 q = 0, acc = 0;
    for (i64 j = 0; j < K; ++j) {
        for (; q < pos[j]; ++q) acc += wt[lst[q]];
        wpos[j] = acc;
    }
}

// Where an attribute's K thresholds sit in what the bounds move: w, the weight on each
// one's <= side (pos itself without weights), and b, that times T.F (the most a unit of
// weight moved changes a cost, with prices; w itself otherwise): what the interval pruner,
// kmax and the seeds compare thresholds by. Its arrays are kept across attributes.
struct Positions {
    vec<i64> w_own, b_own;
    const i64 *w = nullptr, *b = nullptr;
    void of(const Table &T, const i32 *lst, const i64 *pos, i64 K) {
        w = pos;
        if (T.wt) {
            w_own.resize(static_cast<std::size_t>(K));
            weight_positions(lst, T.wt, pos, K, w_own.data());
            w = w_own.data();
        }
        b = w;
        if (T.F != 1) {
            b_own.resize(static_cast<std::size_t>(K));
            for (i64 k = 0; k < K; ++k) b_own[k] = T.F * w[k];
            b = b_own.data();
        }
    }
};

inline i64 largest(const i64 *v, i64 n) {
    i64 b = v[0];
    for (i64 i = 1; i < n; ++i) b = std::max(b, v[i]);
    return b;
}

// Where the codes change along lst (rows sorted by col): the candidate thresholds, as the
// number of rows on the <= side. Returns how many.
inline i64 boundaries(const i32 *lst, i64 m, const i32 *col, i64 *pos) {
    i64 K = 0;
    for (i64 p = 1; p < m; ++p)
        if (col[lst[p]] != col[lst[p - 1]]) pos[K++] = p;
    return K;
}

// The thresholds a minimum leaf size allows among K at positions pos (rows on the <= side)
// of m rows: [k0, k1], each side at least min_leaf rows (k0 > k1: none).
inline std::pair<i64, i64> allowed(const i64 *pos, i64 K, i64 m, i64 min_leaf) {
    if (min_leaf <= 1) return {0, K - 1};
    const i64 k0 = std::lower_bound(pos, pos + K, min_leaf) - pos;
    const i64 k1 = (std::upper_bound(pos, pos + K, m - min_leaf) - pos) - 1;
    return {k0, k1};
}

// Whether each of the k groups at starts holds at least min_leaf rows.
inline bool groups_allowed(const i64 *starts, i64 k, i64 min_leaf) {
    for (i64 g = 0; g < k && min_leaf > 1; ++g)
        if (starts[g + 1] - starts[g] < min_leaf) return false;
    return true;
}

// The runs of equal codes along lst (a nominal split's children): their starts (and
// starts[k] = m). Returns k.
inline i64 groups(const i32 *lst, i64 m, const i32 *col, i64 *starts) {
    starts[0] = 0;
    i64 k = 1;
    for (i64 p = 1; p < m; ++p)
        if (col[lst[p]] != col[lst[p - 1]]) starts[k++] = p;
    starts[k] = m;
    return k;
}

// Write the children of s (W.side[row]: its child 0..k-1; child g's rows start at
// starts[g]) into level + 1, every attribute stably.
inline void partition(const Table &T, const Workspace &W, Sub s, const i64 *starts, i64 k) {
    i64 nxt_small[8];
    vec<i64> nxt_big;
    i64 *nxt = nxt_small;
    if (k > 8) {
        nxt_big.resize(static_cast<std::size_t>(k));
        nxt = nxt_big.data();
    }
    const Sub below{s.level + 1, s.off, s.m};
    for (i64 b = 0; b < T.A; ++b) {
        const i32 *src = rows(T, W, s, b);
        i32 *dst = rows(T, W, below, b);
        std::copy(starts, starts + k, nxt);
        for (i64 q = 0; q < s.m; ++q) {
            const i32 row = src[q];
            dst[nxt[W.side[row]]++] = row;
        }
    }
}

// Per ordered attribute, the threshold of its best split into two leaves by the Gini
// impurity (its index among the attribute's thresholds) and that split's impurity (inf for
// a nominal attribute): the search starts there, and visits the attributes best first.
inline void hints(const Table &T, const Workspace &W, Sub s, const i64 *total, i64 *hint,
                  double *score) {
    const i64 m = s.m, C = T.C;
    const i64 wm = sum(total, C);  // the rows' weight
    vec<i64> left(static_cast<std::size_t>(C));
    for (i64 a = 0; a < T.A; ++a) {
        hint[a] = 0;
        score[a] = std::numeric_limits<double>::infinity();
        if (!T.ordered(a)) continue;
        const i32 *lst = rows(T, W, s, a);
        const i32 *col = T.col(a);
        std::fill(left.begin(), left.end(), 0);
        // the sums of the sides' squared class weights, kept as a row moves (exact in
        // int64: a table weighs less than 2^29)
        i64 j = 0, wp = 0, sl = 0, sr = 0;
        for (i64 c = 0; c < C; ++c) sr += total[c] * total[c];
        for (i64 p = 1; p < m; ++p) {
            const i64 wq = T.w(lst[p - 1]), c = T.dec[lst[p - 1]];
            sl += (2 * left[c] + wq) * wq;
            sr -= (2 * (total[c] - left[c]) - wq) * wq;
            left[c] += wq;
            wp += wq;
            if (col[lst[p]] == col[lst[p - 1]]) continue;
            // the rows' weighted impurity
            const double gini = static_cast<double>(wm) -
                                static_cast<double>(sl) / static_cast<double>(wp) -
                                static_cast<double>(sr) / static_cast<double>(wm - wp);
            if (gini < score[a] - 1e-9) {
                score[a] = gini;
                hint[a] = j;
            }
            ++j;
        }
    }
}

// The attributes by score, stably (ties in attribute order).
inline vec<i64> by_score(const double *score, i64 A) {
    vec<i64> order(static_cast<std::size_t>(A));
    for (i64 a = 0; a < A; ++a) {  // insertion: stable, and A is small
        i64 j = a - 1;
        while (j >= 0 && score[a] < score[order[j]]) {
            order[j + 1] = order[j];
            --j;
        }
        order[j + 1] = a;
    }
    return order;
}

// The leaf errors of both sides of each of the K thresholds after pos[k] rows of lst
// (prefix class counts); and those counts, prefix[k * C + c], if asked for.
inline void side_leaves(const i32 *lst, i64 m, const i32 *dec, i64 C, const i64 *total,
                        const i64 *pos, i64 K, i64 *misL, i64 *misR, i64 *prefix = nullptr,
                        const i64 *wt = nullptr, const i64 *price = nullptr) {
    vec<i64> cnt(static_cast<std::size_t>(C), 0), tmp(static_cast<std::size_t>(C));
    const i64 wm = sum(total, C);
    i64 j = 0, wl = 0;
    for (i64 q = 0; q < m - 1; ++q) {
        const i64 wq = wt ? wt[lst[q]] : 1;
        cnt[dec[lst[q]]] += wq;
        wl += wq;
        if (j < K && pos[j] == q + 1) {
            i64 ml = 0, mr = 0;
            for (i64 c = 0; c < C; ++c) {
                ml = std::max(ml, cnt[c]);
                mr = std::max(mr, total[c] - cnt[c]);
            }
            misL[j] = wl - ml;
            misR[j] = (wm - wl) - mr;
            if (price) {
                misL[j] = leaf_cost(cnt.data(), C, price);
                misR[j] = rest_cost(total, cnt.data(), C, price, tmp.data());
            }
            if (prefix) std::copy(cnt.begin(), cnt.end(), prefix + j * C);
            ++j;
        }
    }
}

// The class counts of the first pos[k] rows of lst, prefix[k * C + c], for the K
// thresholds.
inline void prefix_counts(const i32 *lst, const i32 *dec, i64 C, const i64 *pos, i64 K,
                          i64 *prefix, const i64 *wt = nullptr) {
    vec<i64> cnt(static_cast<std::size_t>(C), 0);
    i64 q = 0;
    for (i64 j = 0; j < K; ++j) {
        for (; q < pos[j]; ++q) cnt[dec[lst[q]]] += wt ? wt[lst[q]] : 1;
        std::copy(cnt.begin(), cnt.end(), prefix + j * C);
    }
}

// Per threshold (after pos[k] rows of lst) and side, the least errors of a tree of at most
// L leaves, L = 1..nl: its rows less the L largest class counts (each leaf predicts one
// class): out[(k * 2 + side) * nl + L - 1], side 0 the <= side. The L largest are selected
// in place (no sort).
template <class R, class D>
vec<i64> class_bounds(const R *lst, i64 m, const D *dec, i64 C, const i64 *total, const i64 *pos,
                      i64 K, i64 nl, const i64 *wt = nullptr) {
    vec<i64> out(static_cast<std::size_t>(K * 2 * nl), 0);
    vec<i64> cnt(static_cast<std::size_t>(C), 0), top(static_cast<std::size_t>(C));
    const i64 wm = sum(total, C);
    i64 j = 0, wl = 0;
    for (i64 q = 0; q < m - 1; ++q) {
        const i64 wq = wt ? wt[lst[q]] : 1;
        cnt[dec[lst[q]]] += wq;
        wl += wq;
        if (j < K && pos[j] == q + 1) {
            for (i64 sd = 0; sd < 2; ++sd) {
                for (i64 c = 0; c < C; ++c) top[c] = sd == 0 ? cnt[c] : total[c] - cnt[c];
                i64 acc = sd == 0 ? wl : wm - wl;
                for (i64 L = 0; L < nl; ++L) {
                    if (L < C) {  // the largest of top[L:] into top[L]
                        i64 b = L;
                        for (i64 c = L + 1; c < C; ++c)
                            if (top[c] > top[b]) b = c;
                        std::swap(top[b], top[L]);
                        acc -= top[L];
                    }
                    out[(j * 2 + sd) * nl + L] = acc;
                }
            }
            ++j;
        }
    }
    return out;
}

// The subtable packed for the depth-two pass, so that it reads no row index.
//
// With at most MAX_LANE_CLASSES classes the ordered attributes are kept LANES at a time,
// position-major (Lanes: entry (block * m + q) * LANES + l is lane l of a block at
// position q, the attribute attr[block * LANES + l]'s q-th row in its order): the row's
// class w (with two classes as a step, +1 class 1, -1 class 0) and whether the code
// changes after position q, as we = 2 * w + change, and the root attribute's code sa
// (root_codes); the pass walks a block's lanes side by side. The other attributes (nominal
// ones, or all with more classes) are kept row by row (Rows: cb[j * m + q], the code of
// the q-th row in the order of attribute attr[j]; cls its class; sa the root attribute's
// code). With weights the step of two classes is the row's weight (+w class 1, -w class
// 0), and with more classes a lane's position keeps the row's weight too (wt), as does a
// row kept row by row.
inline constexpr i64 LANES = 8;
inline constexpr i64 MAX_LANE_CLASSES = 8;

// The narrow walks (lanes_walk16, lanes_walk_classes16): without weights or prices and with
// at most NARROW_ROWS rows (two classes; NARROW_CLASS_ROWS with more), the counts fit 16
// bits, so a block's LANES attributes walk in NARROW_LANES = 4 * LANES lanes of 16 bits:
// per attribute l, lane l its <= side and lane LANES + l its > side forwards from the first
// position, lanes 2 * LANES + l and 3 * LANES + l the same sides backwards from the last.
// A walk takes the ceil(m / 2) narrow positions (narrow_half): narrow position q holds
// position q forwards and position m - 1 - q backwards (padding where that is below
// ceil(m / 2): a code no threshold puts on the lane's side, no step, no threshold). A
// backward lane's threshold bit at position p is the one of p - 1 (the code changes between
// p - 1 and p), so it scores the split there from the rows after it, as a forward lane does
// from the rows before: the two halves are two independent chains of work, which the
// processor overlaps (about 1.3 times the positions walked per second). we16 and sa16 hold
// we and sa so.
inline constexpr i64 NARROW_ROWS = 32000;        // two classes: D, signed
inline constexpr i64 NARROW_CLASS_ROWS = 65000;  // more: class counts, unsigned
inline constexpr i32 NARROW_CODES = 32000;  // sa16: root codes below it
inline constexpr i64 NARROW_LANES = 4 * LANES;
// The bits of the <= sides' lanes (forwards and backwards) of a narrow position.
inline constexpr std::uint32_t NARROW_LEFT = 0x00FF00FFu;
static_assert(LANES == 8 && NARROW_LANES == 32, "NARROW_LEFT: 8 lanes per block");
inline constexpr i64 narrow_half(i64 m) { return (m + 1) / 2; }
// Whether narrow lane l walks a <= side.
inline constexpr bool narrow_left(i64 l) { return (NARROW_LEFT >> l) & 1; }

struct Lanes {
    i64 blocks = 0;
    vec<i64> attr;    // per lane, its attribute (-1: padding)
    vec<i32> we, sa;  // per lane and position
    vec<i32> wt;      // per lane and position: the row's weight (weights and C > 2 only)
    vec<i16> we16, sa16;  // the narrow walk's (NARROW_LANES per narrow position), when `narrow`
    bool narrow = false;  // we16 holds we (root_lists then fills sa16 if its codes fit)
    bool narrow_sa = false;  // sa16 holds sa
    // Whether a split at threshold code t walks the narrow lanes.
    bool narrow_at(i64 t) const {
        return narrow && narrow_sa && t > -NARROW_CODES && t < NARROW_CODES;
    }
};

// we16 from we (m positions per block): forwards each position's value, backwards its step
// with the threshold bit of the position before; padding 0 (no step, no threshold).
inline void narrow_we(Lanes &ln, i64 m) {
    const i64 H = narrow_half(m);
    ln.we16.assign(static_cast<std::size_t>(ln.blocks * H * NARROW_LANES), 0);
    for (i64 blk = 0; blk < ln.blocks; ++blk) {
        const i32 *we = ln.we.data() + blk * m * LANES;
        i16 *out = ln.we16.data() + blk * H * NARROW_LANES;
        for (i64 q = 0; q < H; ++q, out += NARROW_LANES) {
            const i64 p = m - 1 - q;
            for (i64 l = 0; l < LANES; ++l) {
                out[l] = out[LANES + l] = static_cast<i16>(we[q * LANES + l]);
                if (p >= H) {
                    const i32 back = (we[p * LANES + l] >> 1) * 2 + (we[(p - 1) * LANES + l] & 1);
                    out[2 * LANES + l] = out[3 * LANES + l] = static_cast<i16>(back);
                }
            }
        }
    }
}

struct Rows {
    vec<i64> attr;  // the attributes kept row by row
    vec<i32> cb, cls, sa;
    vec<i32> wt;  // the rows' weights (weights only)
};

struct Packed {
    i64 m = 0;
    Lanes lanes;
    Rows rows;
    const i64 *price = nullptr;  // the table's price matrix (null: 0/1), and its F
    i64 F = 1;
};

// Pack the subtable: the m positions of each attribute b's order are the rows list[b],
// of codes col(b)[row] and classes cls(b)[row]; ordered attributes (kinds[b] == 1) in
// lanes when C <= MAX_LANE_CLASSES.
template <class Col, class Cls>
void pack_lists(Packed &pk, const i32 *const *list, Col col, Cls cls, const i8 *kinds, i64 A,
                i64 C, i64 m, const i64 *wt = nullptr, const i64 *price = nullptr, i64 F = 1) {
    pk.m = m;
    pk.price = price;
    pk.F = F;
    Lanes &ln = pk.lanes;
    Rows &rw = pk.rows;
    ln.attr.clear();
    rw.attr.clear();
    // (with prices, more than two classes go row by row)
    const bool lanes = C <= MAX_LANE_CLASSES && (price == nullptr || C == 2);
    // with two classes, a row's step: D = cost of deciding 0 less cost of deciding 1, on
    // the side so far (+1 class 1, -1 class 0 without prices)
    const bool priced2 = price != nullptr && C == 2;
    const i32 step0 = priced2 ? static_cast<i32>(price[0] - price[1]) : -1;
    const i32 step1 = priced2 ? static_cast<i32>(price[2] - price[3]) : 1;
    for (i64 b = 0; b < A; ++b) (lanes && kinds[b] == 1 ? ln.attr : rw.attr).push_back(b);
    ln.blocks = (static_cast<i64>(ln.attr.size()) + LANES - 1) / LANES;
    while (static_cast<i64>(ln.attr.size()) < ln.blocks * LANES) ln.attr.push_back(-1);
    const std::size_t size = static_cast<std::size_t>(ln.blocks * m * LANES);
    ln.we.assign(size, 0);
    ln.sa.resize(size);  // (root_lists writes every lane)
    const bool lane_wt = wt != nullptr && C > 2;
    if (lane_wt)
        ln.wt.assign(size, 1);
    else
        ln.wt.clear();
    for (i64 k = 0; k < ln.blocks * LANES; ++k) {
        const i64 b = ln.attr[k];
        if (b < 0) continue;
        const i32 *lst = list[b];
        const i32 *cb = col(b);
        const i32 *dec = cls(b);
        const std::size_t at = static_cast<std::size_t>((k / LANES) * m * LANES + k % LANES);
        i32 *we = ln.we.data() + at;
        for (i64 q = 0; q < m; ++q) {
            const i32 c = dec[lst[q]];
            const i32 u = wt ? static_cast<i32>(wt[lst[q]]) : 1;
            const i32 w = C == 2 ? (c == 1 ? step1 * u : step0 * u) : c;
            we[q * LANES] = 2 * w + (q + 1 < m && cb[lst[q + 1]] != cb[lst[q]] ? 1 : 0);
        }
        if (lane_wt) {
            i32 *wq = ln.wt.data() + at;
            for (i64 q = 0; q < m; ++q) wq[q * LANES] = static_cast<i32>(wt[lst[q]]);
        }
    }
    ln.narrow = lanes && wt == nullptr && price == nullptr && ln.blocks > 0 &&
                m <= (C == 2 ? NARROW_ROWS : NARROW_CLASS_ROWS);
    ln.narrow_sa = false;
    if (ln.narrow) narrow_we(ln, m);
    const std::size_t rsize = rw.attr.size() * static_cast<std::size_t>(m);
    rw.cb.resize(rsize);
    rw.cls.resize(rsize);
    rw.sa.resize(rsize);
    rw.wt.resize(wt ? rsize : 0);
    for (std::size_t j = 0; j < rw.attr.size(); ++j) {
        const i32 *lst = list[rw.attr[j]];
        const i32 *cb = col(rw.attr[j]);
        const i32 *dec = cls(rw.attr[j]);
        for (i64 q = 0; q < m; ++q) {
            rw.cb[j * m + q] = cb[lst[q]];
            rw.cls[j * m + q] = dec[lst[q]];
        }
        if (wt)
            for (i64 q = 0; q < m; ++q) rw.wt[j * m + q] = static_cast<i32>(wt[lst[q]]);
    }
}

inline void pack(const Table &T, const Workspace &W, Sub s, Packed &pk) {
    vec<const i32 *> list(static_cast<std::size_t>(T.A));
    for (i64 b = 0; b < T.A; ++b) list[b] = rows(T, W, s, b);
    pack_lists(
        pk, list.data(), [&](i64 b) { return T.col(b); }, [&](i64) { return T.dec; }, T.kinds,
        T.A, T.C, s.m, T.wt, T.price, T.F);
}

// The root attribute's code (code(b)[row]) of each position of every attribute b's order
// (the lists of pack_lists): the side of each row of a split of it is sa > threshold code.
template <class Code>
void root_lists(Packed &pk, const i32 *const *list, Code code) {
    const i64 m = pk.m;
    Lanes &ln = pk.lanes;
    // a block's lanes: their attributes' lists and codes (a padding lane reads any lane's)
    const auto lanes_of = [&](i64 blk, const i32 **lst, const i32 **cd) {
        for (i64 l = 0; l < LANES; ++l) {
            i64 b = ln.attr[blk * LANES + l];
            if (b < 0) b = ln.attr[0];
            lst[l] = list[b];
            cd[l] = code(b);
        }
    };
    const auto wide = [&](i64 blk) {  // row by row
        const i32 *lst[LANES], *cd[LANES];
        lanes_of(blk, lst, cd);
        i32 *out = ln.sa.data() + blk * m * LANES;
        for (i64 q = 0; q < m; ++q, out += LANES)
            for (i64 l = 0; l < LANES; ++l) out[l] = cd[l][lst[l][q]];
    };
    // narrow: straight into sa16 while the codes fit, else every block into sa after all
    ln.narrow_sa = ln.narrow;
    const i64 H = narrow_half(m);
    if (ln.narrow) ln.sa16.resize(static_cast<std::size_t>(ln.blocks * H * NARROW_LANES));
    for (i64 blk = 0; blk < ln.blocks; ++blk) {
        if (!ln.narrow_sa) {
            wide(blk);
            continue;
        }
        const i32 *lst[LANES], *cd[LANES];
        lanes_of(blk, lst, cd);
        i16 *o16 = ln.sa16.data() + blk * H * NARROW_LANES;
        i32 lo = 0, hi = 0;
        i64 real = 0;  // the block's lanes of an attribute (padding, whose walks are not read,
                       // keeps any codes)
        while (real < LANES && ln.attr[blk * LANES + real] >= 0) ++real;
        for (i64 q = 0; q < H; ++q, o16 += NARROW_LANES) {
            const i64 p = m - 1 - q;
            for (i64 l = 0; l < real; ++l) {
                const i32 v = cd[l][lst[l][q]];
                const i32 u = p >= H ? cd[l][lst[l][p]] : v;
                lo = std::min({lo, v, u});
                hi = std::max({hi, v, u});
                o16[l] = o16[LANES + l] = static_cast<i16>(v);
                // padding: on neither side (above every threshold, at or below every one)
                o16[2 * LANES + l] = static_cast<i16>(p >= H ? u : NARROW_CODES);
                o16[3 * LANES + l] = static_cast<i16>(p >= H ? u : -NARROW_CODES);
            }
        }
        if (lo <= -NARROW_CODES || hi >= NARROW_CODES) {
            ln.narrow_sa = false;
            for (i64 b = 0; b <= blk; ++b) wide(b);
        }
    }
    Rows &rw = pk.rows;
    for (std::size_t j = 0; j < rw.attr.size(); ++j) {
        const i32 *lst = list[rw.attr[j]];
        const i32 *cd = code(rw.attr[j]);
        for (i64 q = 0; q < m; ++q) rw.sa[j * m + q] = cd[lst[q]];
    }
}

// Attribute a's codes in every attribute's order of the packed subtable s.
inline void root_codes(const Table &T, const Workspace &W, Sub s, i64 a, Packed &pk) {
    const i32 *lists[64];
    vec<const i32 *> more;
    const i32 **list = lists;
    if (T.A > 64) {
        more.resize(static_cast<std::size_t>(T.A));
        list = more.data();
    }
    for (i64 b = 0; b < T.A; ++b) list[b] = rows(T, W, s, b);
    const i32 *code = T.col(a);
    root_lists(pk, list, [&](i64) { return code; });
}

}  // namespace dagger::ordered
