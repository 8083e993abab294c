// The ordered solver's kernels (driven by dagger_cli.engine.ordered): exact trees of bounded
// depth over ordered (numeric) and nominal attributes, by sweeps and branch and bound.
//
// Two searches share the subtable representation of ordered_subtable.hpp:
//
// - best: the least misclassifications over the trees of depth <= r (the depth front, one
//   depth at a time), below an upper bound ub, or a proof that none is below it. Depth 1 is
//   one sweep per attribute (ordered_depth_one.hpp); depth 2 evaluates a root split by the
//   depth-two pass over both sides (sides_d1) or from class counts per pair of attributes
//   (d2_counts), and deeper the children are solved recursively, the larger first under
//   the bound, the other under what it leaves plus the distance to the ends of the current
//   interval (ConTree's trick: a larger bound prunes more of the interval). Results at
//   depth >= 2 are kept in the memo (ordered_memo.hpp). A child starts warm from its
//   evaluated neighbours (their children hold nearly the same rows): their values bound
//   its value from below (a tree that reaches the bound ends its search), the root of
//   their best tree is its first split, and their own evaluated splits bound its splits
//   (similarity bounds, less the rows they have that it lacks: seed_bounds). Under a
//   minimum leaf size (Table::min_leaf) only the bounds of a containing side hold, and each
//   side is first solved without it (Search::relaxed), whose values bound it from below
//   and prune with every other bound.
// - fronts: the whole Pareto front of (x, misclassifications) for x one of total path
//   length, nodes or leaves: branch and bound over fronts (ordered_front.hpp). The working
//   front starts as the bound (VIRTUAL points) and the front at depth r - 1, and every
//   candidate split is skipped when all it could make is weakly dominated by it; a child is
//   solved under the working front moved by what the split and its siblings add at least
//   (its FrontLimits, derived here), and what it left out lies above its bound, which keeps
//   the neighbours' lower bounds valid. The second side's bound is widened by the rows to
//   the interval's farther end (ConTree's trick), so that its lower bounds prune there.
//
// Both visit each ordered attribute's thresholds through the interval pruner
// (ordered_intervals.hpp). Ties: the first tree found wins; the search order is fixed
// (attributes by their best single split's Gini impurity, thresholds from that split
// outwards, breadth first), so the outputs are deterministic. Every allocation is charged
// to the call's memory budget (ordered_budget.hpp); past it the kernel returns
// OUT_OF_MEMORY.
#include <nanobind/stl/pair.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

#include "ordered_depth_two.hpp"
#include "ordered_memo.hpp"
#include "py.hpp"

namespace dagger::ordered {
namespace {

// Pairs of lower-bound points beyond which a threshold is not bounded on its own (fronts):
// screening costs a pass over the pairs per threshold, far less than the two children it
// can spare. With a choice of decision every threshold is screened at remaining depth >= 3
// and none at depth 2, where the screens cost more than they spared (wilt's false positives
// against negatives at depth 3: 11.1 s against 7.2 s).
constexpr i64 SCREEN_PAIRS = i64{1} << 18;

// What one kernel call shares down its recursion. Under a minimum leaf size, best's
// `relaxed`: the same search without it (a subtable's value without a minimum leaf size is
// at most its value with one, and only grows as the subtable takes rows, so its values
// bound the constrained ones from below with every bound of a contained side), its results
// kept in the same memo at depth + RELAXED_KEY.
struct Search {
    const Table &T;
    const Workspace &W;
    Stats st;
    Memo *memo;  // best's
    const Search *relaxed = nullptr;
    i64 key = 0;  // added to the depth in the memo's keys
};
constexpr i64 RELAXED_KEY = 64;

// ---------------------------------------------------------------- least misclassifications

// The limits of a best search: the remaining depth and the bound (the value is wanted only
// if below it).
// A split's sides' values (or lower bounds) in a subtable a search solved: the
// threshold (attr, code) of its evaluated splits, which a subtable of nearly the same rows
// starts from (its seeds).
struct Seed {
    i32 attr, code, L, R;
};
using Seeds = vec<Seed>;

struct BestLimits {
    i64 depth, bound;
    // What the caller knows of the subtable (a warm start, never needed for exactness): a
    // lower bound of its value (a tree found at it is optimal); a split to try first, the
    // best root of a subtable of nearly the same rows (attribute -1: none); and up to two
    // such subtables' evaluated splits, each with the rows it has that this one lacks
    // (slack: its sides' values bound this one's less that many).
    i64 lb = 0, try_attr = -1, try_code = -1;
    const Seeds *seeds[2] = {nullptr, nullptr};
    i64 slack[2] = {0, 0};
    BestLimits child(i64 b) const { return {depth - 1, b}; }
};

struct Value {
    i64 v;
    bool exact;
};

// One piece of a search at the root (dagger_cli.engine.pieces): only the root's splits on
// one attribute, of an ordered one its thresholds lo..hi, below a bound shared with the
// other pieces. The bound is one int64 that every piece reads before each threshold it
// evaluates and lowers (an atomic minimum) when it finds a better tree: a lock would
// serialise nothing more than one word, and a piece that reads a stale value only prunes
// less for a moment. The root is then not kept in the memo (a piece sees part of it).
struct RootPiece {
    i64 attr, lo, hi;
    i64 *shared;

    i64 bound() const { return std::atomic_ref<i64>(*shared).load(std::memory_order_relaxed); }
    void lower(i64 v) const {
        std::atomic_ref<i64> b(*shared);
        i64 now = b.load(std::memory_order_relaxed);
        while (v < now && !b.compare_exchange_weak(now, v, std::memory_order_relaxed)) {
        }
    }
};

// The order in which best visits the attributes of a subtable: by score (hints), the
// attribute of the split to try first (try_attr) before the others.
vec<i64> visit_order(const double *score, i64 A, i64 try_attr) {
    vec<i64> order = by_score(score, A);
    if (try_attr >= 0) {
        auto it = std::find(order.begin(), order.end(), try_attr);
        std::rotate(order.begin(), it, it + 1);
    }
    return order;
}

// The index among the K thresholds at positions pos (rows sorted by col along lst) of the
// first threshold whose code (the <= side's last code) is at least code (K - 1 if none).
i64 threshold_at(const i32 *lst, const i32 *col, const i64 *pos, i64 K, i64 code) {
    i64 lo = 0, hi = K - 1;
    while (lo < hi) {
        const i64 mid = (lo + hi) / 2;
        if (col[lst[pos[mid] - 1]] < code)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

// What a search of an ordered attribute's thresholds knows of each evaluated threshold's
// children: their values (or lower bounds), the roots of the trees found for them and,
// when they were searched (depth >= 2), their own evaluated splits.
struct Evaluated {
    vec<i64> L, R;            // the <= and > sides' values or lower bounds
    vec<i64> la, lc, ra, rc;  // the sides' best roots (attribute, code; -1: none)
    vec<Seeds> sL, sR;        // the sides' evaluated splits (depth >= 3 only)
    vec<i64> L1, R1;          // the sides' relaxed values or lower bounds (Search::relaxed)
    Evaluated(i64 K, bool deep, bool relaxed = false)
        : L(static_cast<std::size_t>(K), 0),
          R(static_cast<std::size_t>(K), 0),
          la(static_cast<std::size_t>(K), -1),
          lc(static_cast<std::size_t>(K), -1),
          ra(static_cast<std::size_t>(K), -1),
          rc(static_cast<std::size_t>(K), -1),
          sL(deep ? static_cast<std::size_t>(K) : 0),
          sR(deep ? static_cast<std::size_t>(K) : 0),
          L1(relaxed ? static_cast<std::size_t>(K) : 0, 0),
          R1(relaxed ? static_cast<std::size_t>(K) : 0, 0) {}
};

// Per threshold k of attribute a (K thresholds at positions pos along lst), lower bounds
// of its sides' values from the seeds of lim (none: false). A seed's split (code c) is the
// threshold whose <= side ends at the largest code <= c, when it splits these rows; its
// sides' values less the seed's slack bound that threshold's, and the sides' values move
// by at most one per row from there (the <= side only grows along the thresholds, the >
// side only shrinks); with weights, by at most a row's weight (wpos: the weight on the <=
// side of each threshold, pos without weights; the slack is a weight too).
bool seed_bounds(const BestLimits &lim, i64 a, const i32 *lst, i64 m, const i32 *col,
                 const i64 *pos, const i64 *wpos, i64 K, bool monotone, bool containing,
                 vec<i64> &sl, vec<i64> &sr) {
    if (!containing) return false;  // (a seed's sides less its slack, and the moves below)
    bool any = false;
    const i64 last = col[lst[m - 1]];  // the largest code of these rows
    for (int j = 0; j < 2; ++j) {
        const Seeds *sd = lim.seeds[j];
        if (sd == nullptr) continue;
        for (const Seed &e : *sd) {
            if (e.attr != a || e.code >= last) continue;  // (all rows on its <= side)
            // the thresholds whose <= side ends at a code <= e.code: [0, n)
            i64 lo = 0, hi = K;
            while (lo < hi) {
                const i64 mid = (lo + hi) / 2;
                if (col[lst[pos[mid] - 1]] <= e.code)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            const i64 k = lo - 1;  // (the rows past it have codes > e.code, as e.code < last)
            if (k < 0) continue;   // (no row on its <= side)
            if (!any) {
                sl.assign(static_cast<std::size_t>(K), 0);
                sr.assign(static_cast<std::size_t>(K), 0);
                any = true;
            }
            sl[k] = std::max<i64>(sl[k], e.L - lim.slack[j]);
            sr[k] = std::max<i64>(sr[k], e.R - lim.slack[j]);
        }
    }
    if (!any) return false;
    // the <= side: no less than at any threshold before (monotone only), nor than after less
    // the rows between
    i64 run = 0;
    if (monotone)
        for (i64 k = 0; k < K; ++k) run = sl[k] = std::max(sl[k], run);
    for (i64 k = K - 2; k >= 0; --k)
        sl[k] = std::max(sl[k], sl[k + 1] - (wpos[k + 1] - wpos[k]));
    run = 0;
    if (monotone)
        for (i64 k = K - 1; k >= 0; --k) run = sr[k] = std::max(sr[k], run);
    for (i64 k = 1; k < K; ++k) sr[k] = std::max(sr[k], sr[k - 1] - (wpos[k] - wpos[k - 1]));
    return true;
}

// The warm start of the children of threshold mid (after p rows) in the interval I, from
// its evaluated neighbours (similarity bounds): their values bound the sides' (side_bounds;
// with weights, pos and p are the weights on the <= side), and their evaluated splits seed
// them (the contained neighbour's only when monotone, the containing one's only when
// `containing`). The split to try first in each: the root found for that side at the
// nearer neighbour (the one fewer rows away).
std::pair<BestLimits, BestLimits> warm_children(const Evaluated &ev, const Interval &I,
                                                const i64 *pos, i64 p, i64 depth,
                                                bool monotone, bool containing) {
    BestLimits l{depth - 1, 0}, r{depth - 1, 0};
    std::tie(l.lb, r.lb) = side_bounds(ev.L, ev.R, I, pos, p, monotone, containing);
    const bool has_l = I.ln >= 0, has_r = I.rn >= 0;
    if (has_l && !ev.sL.empty()) {
        if (monotone) l.seeds[0] = &ev.sL[I.ln];
        if (containing) {
            r.seeds[1] = &ev.sR[I.ln];
            r.slack[1] = p - pos[I.ln];
        }
    }
    if (has_r && !ev.sL.empty()) {
        if (monotone) r.seeds[0] = &ev.sR[I.rn];
        if (containing) {
            l.seeds[1] = &ev.sL[I.rn];
            l.slack[1] = pos[I.rn] - p;
        }
    }
    const bool left_near = has_l && (!has_r || p - pos[I.ln] <= pos[I.rn] - p);
    const i64 near = left_near ? I.ln : I.rn, far = left_near ? I.rn : I.ln;
    for (const i64 k : {near, far}) {
        if (k < 0) continue;
        if (l.try_attr < 0 && ev.la[k] >= 0) {
            l.try_attr = ev.la[k];
            l.try_code = ev.lc[k];
        }
        if (r.try_attr < 0 && ev.ra[k] >= 0) {
            r.try_attr = ev.ra[k];
            r.try_code = ev.rc[k];
        }
    }
    return {l, r};
}

Value best(const Search &X, Sub s, BestLimits lim, u64 h1, u64 h2, i64 *choice,
           Seeds *out = nullptr, const RootPiece *piece = nullptr);

// The split of s on a nominal attribute (its k >= 2 groups of rows at starts along lst):
// the children solved in turn at depth r - 1 under what the bound UB leaves them; their
// sum (at least UB when the split is no better).
i64 eval_nominal(const Search &X, Sub s, const i32 *lst, const i64 *starts, i64 k, i64 r,
                 i64 UB, u64 *hk1, u64 *hk2, i64 *sub) {
    const Table &T = X.T;
    const Workspace &W = X.W;
    for (i64 g = 0; g < k; ++g) {
        hk1[g] = 0;
        hk2[g] = 0;
        for (i64 q = starts[g]; q < starts[g + 1]; ++q) {
            W.side[lst[q]] = static_cast<i32>(g);
            hk1[g] += T.key(0, lst[q]);
            hk2[g] += T.key(1, lst[q]);
        }
    }
    partition(T, W, s, starts, k);
    X.st.add(S_EVALUATED);
    const BestLimits lim{r, UB};
    i64 acc = 0;
    for (i64 g = 0; g < k; ++g) {
        const Sub child{s.level + 1, s.off + starts[g], starts[g + 1] - starts[g]};
        acc += best(X, child, lim.child(UB - acc), hk1[g], hk2[g], sub).v;
        if (acc >= UB) break;
    }
    return acc;
}

// What the evaluated neighbours of the interval I say under the bound UB: lower bounds of
// its sides (lbl, lbr: a side's value only grows as it takes rows), and I narrowed (the
// thresholds within the rows a neighbour's excess over UB can move are skipped, those past
// a side without error dropped). False when none is left to visit. Not monotone (a minimum
// leaf size): a side is bounded by the neighbour's side that contains it less the rows
// between (when `containing`), and by the relaxed values (ev.L1, R1), with which the skips
// run as above.
bool narrow(const IntervalPruner &iv, Interval &I, const Evaluated &ev, i64 UB, i64 zlo,
            i64 zhi, const Stats &st, i64 &lbl, i64 &lbr, bool monotone = true,
            bool containing = true) {
    // the values that only grow as a side takes rows: the sides' own, or under a minimum
    // leaf size the relaxed ones (kept whenever there is one: Search::relaxed)
    const vec<i64> &GL = monotone ? ev.L : ev.L1, &GR = monotone ? ev.R : ev.R1;
    lbl = I.ln >= 0 ? GL[I.ln] : 0;
    lbr = I.rn >= 0 ? GR[I.rn] : 0;
    if (!monotone && containing) {  // and the containing neighbour's side, less the rows between
        if (I.rn >= 0) lbl = std::max<i64>(lbl, ev.L[I.rn] - iv.gap(I.lo, I.rn));
        if (I.ln >= 0) lbr = std::max<i64>(lbr, ev.R[I.ln] - iv.gap(I.ln, I.hi));
    }
    if (lbl + lbr >= UB) {
        st.add(S_PRUNED, I.hi - I.lo + 1);
        return false;
    }
    // the neighbours' cost, minus the rows moved
    if (I.ln >= 0) iv.shrink_from_left(I, GL[I.ln] + GR[I.ln] - UB);
    if (I.rn >= 0) iv.shrink_from_right(I, GL[I.rn] + GR[I.rn] - UB);
    if (monotone) IntervalPruner::clip(I, zlo, zhi);
    return I.lo <= I.hi;
}

// Threshold mid of an ordered attribute of s at remaining depth r >= 3 (lst: the rows in
// its order; pos, wpos: the thresholds' positions in rows and in what a bound moves),
// each side first searched relaxed under a minimum leaf size (Search::relaxed; not at all
// with K when that reaches its bound),
// evaluated in the interval I under the bound UB, its sides at least lbl, lbr (from the
// neighbours) and seed_l, seed_r (from the seeds): the sides' values or lower bounds. The
// larger side is solved first under UB, the other under what that leaves plus the
// distance to I's ends (ConTree's trick: a larger bound prunes more of the interval); the
// sides' roots and evaluated splits go to ev. Writes W.side and the next level of W.
std::pair<i64, i64> eval_deep(const Search &X, Sub s, const i32 *lst, const i64 *pos,
                              const i64 *wpos, const Interval &I, i64 mid, i64 r, i64 UB,
                              i64 lbl, i64 lbr, i64 seed_l, i64 seed_r, u64 h1, u64 h2,
                              Evaluated &ev, i64 *sub) {
    const Table &T = X.T;
    const Workspace &W = X.W;
    const i64 m = s.m, p = pos[mid], wp = wpos[mid];
    u64 l1 = 0, l2 = 0;
    for (i64 q = 0; q < m; ++q) {
        const i32 row = lst[q];
        if (q < p) {
            W.side[row] = 0;
            l1 += T.key(0, row);
            l2 += T.key(1, row);
        } else {
            W.side[row] = 1;
        }
    }
    const u64 r1 = h1 - l1, r2 = h2 - l2;
    const i64 two[2] = {0, p};
    partition(T, W, s, two, 2);
    const i64 half = std::max(wp - wpos[I.lo], wpos[I.hi] - wp);
    const bool big_left = p >= m - p;
    const Sub left{s.level + 1, s.off, p}, right{s.level + 1, s.off + p, m - p};
    const Sub fsub = big_left ? left : right, ssub = big_left ? right : left;
    const u64 f1 = big_left ? l1 : r1, f2 = big_left ? l2 : r2;
    const u64 s1 = big_left ? r1 : l1, s2 = big_left ? r2 : l2;
    auto [wl, wr] = warm_children(ev, I, wpos, wp, r, T.monotone(), T.containing());
    wl.lb = std::max(wl.lb, seed_l);
    wr.lb = std::max(wr.lb, seed_r);
    // under a minimum leaf size: the sides' relaxed lower bounds, and their values
    const bool relax = X.relaxed != nullptr && !ev.L1.empty();
    i64 rl = 0, rr = 0;
    if (relax) {
        std::tie(rl, rr) = side_bounds(ev.L1, ev.R1, I, wpos, wp, true, true);
        wl.lb = std::max(wl.lb, rl);
        wr.lb = std::max(wr.lb, rr);
    }
    BestLimits fl = big_left ? wl : wr, sl = big_left ? wr : wl;
    Seeds *fo = big_left ? &ev.sL[mid] : &ev.sR[mid];
    Seeds *so = big_left ? &ev.sR[mid] : &ev.sL[mid];
    i64 rf = big_left ? rl : rr, rs = big_left ? rr : rl;  // relaxed: what is known
    // A side under lim: first its relaxed value below the bound (a lower bound: at or above
    // it, the side is not searched), then its own from there.
    const auto solve = [&](Sub c, BestLimits lim, u64 a1, u64 a2, Seeds *o, i64 &rv) -> i64 {
        if (relax) {
            BestLimits l1{lim.depth, lim.bound};
            l1.lb = rv;
            l1.try_attr = lim.try_attr;
            l1.try_code = lim.try_code;
            rv = best(*X.relaxed, c, l1, a1, a2, sub).v;
            if (rv >= lim.bound) {
                sub[0] = sub[1] = -1;
                return rv;
            }
            lim.lb = std::max(lim.lb, rv);
        }
        return best(X, c, lim, a1, a2, sub, o).v;
    };
    fl.bound = UB;
    const i64 vf = solve(fsub, fl, f1, f2, fo, rf);
    const i64 fa = sub[0], fc = sub[1];
    i64 vs = std::max(big_left ? lbr : lbl, sl.lb);
    i64 sa = -1, sc = -1;
    if (UB - vf + half > 0) {
        sl.bound = UB - vf + half;
        vs = solve(ssub, sl, s1, s2, so, rs);
        sa = sub[0];
        sc = sub[1];
    }
    if (relax) {
        ev.L1[mid] = big_left ? rf : rs;
        ev.R1[mid] = big_left ? rs : rf;
    }
    ev.la[mid] = big_left ? fa : sa;
    ev.lc[mid] = big_left ? fc : sc;
    ev.ra[mid] = big_left ? sa : fa;
    ev.rc[mid] = big_left ? sc : fc;
    return {big_left ? vf : vs, big_left ? vs : vf};
}

// After how many splits evaluated a subtable of m rows and A attributes (two classes,
// ordered attributes) leaves its search for d2_sweep: about what the sweep costs in splits
// (each split one pass over the m rows of the A attributes, a sweep A passes of 2 log2 m
// tree updates per row) times the table's sweep factor (T.nv[A + 1]: the cost of a tree
// update over a row's step in a pass; 0: at once, negative: never). So a subtable whose
// splits the bounds prune stays with the search, and one whose near-tied splits keep it
// evaluating costs at most about twice the sweep.
inline i64 sweep_after(const Table &T, i64 m) {
    const i64 factor = T.nv[T.A + 1];
    if (factor < 0) return INF;
    return static_cast<i64>(static_cast<double>(factor) * 2.0 * static_cast<double>(T.A) *
                            std::log2(static_cast<double>(std::max<i64>(m, 2))));
}

// The least misclassifications over the trees of depth <= lim.depth of s if below
// lim.bound (exact), else a lower bound of at least lim.bound. choice gets the root of the
// best tree found: (attribute, threshold code, kind), attribute -1 for the leaf. (h1, h2):
// the subtable's name in the memo. With a piece (the root of a search at depth >= 3 only):
// the least over the piece's splits if below the bound then (exact), else the bound.
Value best(const Search &X, Sub s, BestLimits lim, u64 h1, u64 h2, i64 *choice, Seeds *out,
           const RootPiece *piece) {
    const Table &T = X.T;
    const Workspace &W = X.W;
    const i64 m = s.m, r = lim.depth, ub = lim.bound, C = T.C, A = T.A;
    vec<i64> total(static_cast<std::size_t>(C));
    counts(rows(T, W, s, 0), m, T.dec, total.data(), C, T.wt);
    const i64 leaf = leaf_cost(total.data(), C, T.price);
    choice[0] = -1;
    choice[1] = -1;
    choice[2] = LEAF;
    if (r == 0 || leaf == 0 || m <= 1) {
        if (piece == nullptr) return {leaf, true};
        // every split of a pure subtable is as good as its leaf
        const bool found = leaf < std::min(ub, piece->bound());
        if (found) piece->lower(leaf);
        return found ? Value{leaf, true} : Value{ub, false};
    }
    if (r == 1) {
        const vec<Tagged> f = front1(T, W, s, DEPTH);
        const Tagged &last = f.back();
        choice[0] = last.attr;
        choice[1] = last.code;
        choice[2] = last.kind;
        return {last.y, true};
    }
    i64 lb = lim.lb;  // a tree of lb errors is optimal
    if (piece == nullptr) {
        i64 v;
        bool exact;
        if (X.memo->find(h1, h2, r + X.key, v, exact)) {
            if (exact || v >= ub) return {v, exact};
            lb = std::max(lb, v);
        }
    }
    if (lb >= ub) return {lb, false};
    if (r == 2 && T.nv[A] > 0 && piece == nullptr && T.price == nullptr && T.monotone()) {
        bool few = true;  // every attribute of few codes: the depth-two trees from counts
        for (i64 a = 0; a < A; ++a) few = few && T.nv[a] <= T.nv[A];
        if (few) {
            X.st.add(S_SOLVED);
            const i64 v = d2_counts(T, W, s, choice);
            X.memo->put(h1, h2, r + X.key, v, true);
            return {v, true};
        }
    }
    // Two classes, ordered attributes: after this many splits evaluated, the rest of the
    // subtable's depth-two trees come from d2_sweep, all at once
    const bool sweepable = r == 2 && piece == nullptr && T.price == nullptr && C == 2 &&
                           T.all_ordered && T.monotone();
    const i64 sweep_at = sweepable ? sweep_after(T, m) : INF;
    const auto sweep = [&]() -> Value {
        const i64 v = d2_sweep(T, W, s, X.st, choice);
        if (X.st.aborted()) return {ub, false};
        X.memo->put(h1, h2, r + X.key, v, true);
        return {v, true};
    };
    X.st.add(S_SOLVED);
    if (sweep_at == 0) return sweep();
    i64 evaluated = 0;  // splits evaluated here
    i64 inc = piece ? INF : leaf;  // a piece: only its splits
    vec<u64> hk1(static_cast<std::size_t>(m + 1), 0), hk2(static_cast<std::size_t>(m + 1), 0);
    vec<i64> totL(static_cast<std::size_t>(C), 0), totR(static_cast<std::size_t>(C), 0);
    i64 sub[3];
    vec<i64> hint(static_cast<std::size_t>(A));
    vec<double> score(static_cast<std::size_t>(A));
    hints(T, W, s, total.data(), hint.data(), score.data());
    vec<i64> pos(static_cast<std::size_t>(m + 1));
    Packed pk;  // the depth-two passes read the packed subtable
    std::optional<SidesScratch> sides;
    if (r == 2) {
        pack(T, W, s, pk);
        sides.emplace(m, C, pk.lanes, T.wt != nullptr);
    }
    Positions at;  // the thresholds' positions in what the bounds move
    // the bound now: the caller's, the best found, and the other pieces'
    const auto bound = [&] { return std::min({ub, inc, piece ? piece->bound() : INF}); };
    bool found = false;  // a piece: whether it found a tree below the bound
    const auto improve = [&](i64 v) {
        inc = v;
        found = true;
        if (piece) piece->lower(v);
    };
    vec<i64> attrs = visit_order(score.data(), A, lim.try_attr);
    if (piece) attrs.assign(1, piece->attr);
    for (const i64 a : attrs) {
        if (bound() <= lb || X.st.aborted()) break;
        const i32 *lst = rows(T, W, s, a);
        const i32 *col = T.col(a);
        if (!T.ordered(a)) {
            const i64 k = groups(lst, m, col, pos.data());
            if (k < 2 || !groups_allowed(pos.data(), k, T.min_leaf)) continue;
            const i64 UB = bound();
            const i64 acc = eval_nominal(X, s, lst, pos.data(), k, r, UB, hk1.data(),
                                         hk2.data(), sub);
            if (acc < UB) {
                improve(acc);
                choice[0] = a;
                choice[1] = -1;
                choice[2] = NOMINAL;
                if (piece) choice[3] = choice[4] = -1;  // the children's: not kept
            }
            continue;
        }
        const i64 K = boundaries(lst, m, col, pos.data());
        if (K == 0) continue;
        // how far apart thresholds are in what a bound moves (Positions: the weight
        // between them, times F with prices)
        at.of(T, lst, pos.data(), K);
        const i64 *wpos = at.b;
        vec<i64> prefix;  // at depth 2: the <= side's class counts per threshold
        bool coded = false;  // at depth 2: a's codes in the packed subtable (at its first pass)
        if (r == 2) {
            prefix.resize(static_cast<std::size_t>(K * C));
            prefix_counts(lst, T.dec, C, pos.data(), K, prefix.data(), T.wt);
        }
        // per evaluated threshold: its sides' values (or lower bounds), and their roots
        Evaluated ev(K, r >= 3, X.relaxed != nullptr);
        vec<i64> &recL = ev.L, &recR = ev.R;
        vec<i64> seedL, seedR;  // per threshold: its sides' lower bounds from the seeds
        const bool seeded =
            seed_bounds(lim, a, lst, m, col, pos.data(), wpos, K, T.monotone(), T.containing(),
                        seedL, seedR);
        i64 zlo = -1;  // the last threshold whose <= side has no error
        i64 zhi = K;   // the first threshold whose > side has no error
        const i64 start =
            a == lim.try_attr ? threshold_at(lst, col, pos.data(), K, lim.try_code) : hint[a];
        // the thresholds a minimum leaf size allows (all without), of the piece's
        const auto [k0, k1] = allowed(pos.data(), K, m, T.min_leaf);
        const i64 lo = std::max(k0, piece ? piece->lo : 0);
        const i64 hi = std::min(k1, piece ? piece->hi : K - 1);
        if (lo > hi) continue;
        IntervalPruner iv(wpos, K, start, lo, hi);
        while (!iv.empty()) {
            Interval I = iv.pop();
            const i64 UB = bound();
            if (UB <= lb || X.st.aborted()) break;
            i64 lbl, lbr;
            if (!narrow(iv, I, ev, UB, zlo, zhi, X.st, lbl, lbr, T.monotone(), T.containing()))
                continue;
            i64 mid = iv.want(I);
            if (seeded) {
                auto dead = [&](i64 k) {
                    return std::max(seedL[k], lbl) + std::max(seedR[k], lbr) >= UB;
                };
                const i64 n0 = I.hi - I.lo + 1;
                while (I.lo <= I.hi && dead(I.lo)) ++I.lo;
                while (I.lo <= I.hi && dead(I.hi)) --I.hi;
                if (I.lo > I.hi) {
                    X.st.add(S_PRUNED, n0);
                    continue;
                }
                X.st.add(S_PRUNED, n0 - (I.hi - I.lo + 1));
                mid = std::clamp(mid, I.lo, I.hi);
                for (i64 d = 1; dead(mid); ++d) {  // the nearest live threshold
                    if (mid - d >= I.lo && !dead(mid - d)) {
                        mid -= d;
                        break;
                    }
                    if (mid + d <= I.hi && !dead(mid + d)) {
                        mid += d;
                        break;
                    }
                }
            }
            if (evaluated++ == sweep_at) return sweep();
            iv.evaluated();
            const i64 p = pos[mid];
            X.st.add(S_EVALUATED);
            i64 vl, vr;
            if (r == 2) {
                for (i64 c = 0; c < C; ++c) {
                    totL[c] = prefix[mid * C + c];
                    totR[c] = total[c] - totL[c];
                }
                const i64 t = col[lst[p - 1]];
                if (!coded) {
                    root_codes(T, W, s, a, pk);
                    coded = true;
                }
                if (X.relaxed != nullptr) {  // the sides without the minimum leaf size first
                    const auto [l1, r1] = sides_d1(pk, t, T.kinds, A, C, p, totL.data(),
                                                   totR.data(), BOTH, *sides);
                    ev.L1[mid] = l1;
                    ev.R1[mid] = r1;
                    vl = l1;
                    vr = r1;
                }
                if (X.relaxed == nullptr || vl + vr < UB)
                    std::tie(vl, vr) = sides_d1(pk, t, T.kinds, A, C, p, totL.data(),
                                                totR.data(), BOTH, *sides, T.min_leaf);
            } else {
                std::tie(vl, vr) =
                    eval_deep(X, s, lst, pos.data(), wpos, I, mid, r, UB, lbl, lbr,
                              seeded ? seedL[mid] : 0, seeded ? seedR[mid] : 0, h1, h2, ev, sub);
            }
            recL[mid] = std::max(vl, lbl);
            recR[mid] = std::max(vr, lbr);
            if (seeded) {
                recL[mid] = std::max(recL[mid], seedL[mid]);
                recR[mid] = std::max(recR[mid], seedR[mid]);
            }
            if (out != nullptr)
                out->push_back({static_cast<i32>(a), col[lst[p - 1]], static_cast<i32>(recL[mid]),
                                static_cast<i32>(recR[mid])});
            if (vl == 0 && T.monotone()) zlo = std::max(zlo, mid);
            if (vr == 0 && T.monotone()) zhi = std::min(zhi, mid);
            if (vl + vr < UB) {
                improve(vl + vr);
                choice[0] = a;
                choice[1] = col[lst[p - 1]];
                choice[2] = ORDERED;
                if (piece) {  // the sides' least (both below the bound, so exact)
                    choice[3] = vl;
                    choice[4] = vr;
                }
            }
            iv.split(I, mid);
        }
    }
    if (X.st.aborted()) return {ub, false};  // not a result: never kept
    if (piece) return found ? Value{inc, true} : Value{ub, false};
    if (inc < ub) {
        X.memo->put(h1, h2, r + X.key, inc, true);
        return {inc, true};
    }
    X.memo->put(h1, h2, r + X.key, ub, false);
    return {ub, false};
}

// The pieces of one search at the root (depth >= 3) run by a team of threads: each thread
// takes work in the pieces' order, the queued intervals of the first started piece that
// has some (an ordered attribute's thresholds, dagger_cli.engine.pieces), else the next
// piece not started, else it waits for the evaluations in flight (they queue more). So the
// threads work side by side on the first pieces, the ones that find good trees early, as
// one thread would, and no thread idles while a piece's thresholds are left: a piece is no
// longer the grain of the work, and a large one does not hold the search's end alone.
//
// An interval is taken, narrowed and its threshold chosen under the team's lock, from the
// piece's evaluated thresholds (its neighbours are evaluated before it is queued); the
// threshold is evaluated without the lock, in the thread's own workspace and search, and
// recorded under it (its sides' values, the intervals on either side queued). The bound is
// one int64 read before each interval and lowered by an atomic minimum (RootPiece), as
// between the pieces of separate calls; the memo is shared (ordered_memo.hpp). The value
// is the least below the caller's bound, the same whatever the threads and their timing;
// what they did (the stats) depends on when each learnt the others' trees. A piece's
// evaluated thresholds live with the team: the memory is charged to the thread that made
// it, and released when the team is dropped.
class RootTeam {
public:
    struct Spec {
        i64 attr, lo, hi;
    };

    RootTeam(std::vector<Spec> pieces, i64 bound) : pieces_(std::move(pieces)), bound_(bound) {}

    i64 value() const { return RootPiece{0, 0, 0, &bound_}.bound(); }
    i64 done() const {
        const std::lock_guard<std::mutex> hold(mu_);
        return done_;
    }
    i64 size() const { return static_cast<i64>(pieces_.size()); }

    // One thread's share of the search of s at depth lim.depth (>= 3) below lim.bound (the
    // search's subtable named (h1, h2), loaded in the thread's workspace). An exception (out
    // of memory) stops the team and is raised in this thread.
    void work(const Search &X, Sub s, BestLimits lim, u64 h1, u64 h2) {
        const Table &T = X.T;
        const Workspace &W = X.W;
        const RootPiece shared{0, 0, 0, &bound_};
        const auto bound = [&] { return std::min(lim.bound, shared.bound()); };
        i64 sub[3];
        std::unique_lock<std::mutex> lk(mu_);
        if (hint_.empty()) {  // the first thread in: the root's leaf and its attributes' hints
            vec<i64> total(static_cast<std::size_t>(T.C));
            counts(rows(T, W, s, 0), s.m, T.dec, total.data(), T.C, T.wt);
            leaf_ = leaf_cost(total.data(), T.C, T.price);
            vec<double> score(static_cast<std::size_t>(T.A));
            hint_.resize(static_cast<std::size_t>(T.A));
            hints(T, W, s, total.data(), hint_.data(), score.data());
        }
        if (leaf_ == 0 || s.m <= 1) {  // every split of a pure subtable is as good as its leaf
            if (!pieces_.empty() && leaf_ < bound()) shared.lower(leaf_);
            next_ = pieces_.size();
            done_ = size();
            return;
        }
        try {
            while (!stop_ && !X.st.aborted() && bound() > lim.lb) {
                Job *job = nullptr;
                for (const auto &j : jobs_) {
                    if (!j->iv.empty()) {
                        job = j.get();
                        break;
                    }
                }
                if (job != nullptr) {
                    Interval I = job->iv.pop();
                    const i64 UB = bound();
                    i64 lbl, lbr;
                    if (!narrow(job->iv, I, job->ev, UB, job->zlo, job->zhi, X.st, lbl, lbr,
                                T.monotone(), T.containing())) {
                        finish(*job);
                        continue;
                    }
                    const i64 mid = job->iv.want(I);
                    job->iv.evaluated();
                    X.st.add(S_EVALUATED);
                    ++job->inflight;
                    lk.unlock();
                    const i32 *lst = rows(T, W, s, job->attr);
                    const auto [vl, vr] =
                        eval_deep(X, s, lst, job->pos.data(), job->at.b, I, mid, lim.depth, UB,
                                  lbl, lbr, 0, 0, h1, h2, job->ev, sub);
                    lk.lock();
                    --job->inflight;
                    job->ev.L[mid] = std::max(vl, lbl);
                    job->ev.R[mid] = std::max(vr, lbr);
                    if (vl == 0 && T.monotone()) job->zlo = std::max(job->zlo, mid);
                    if (vr == 0 && T.monotone()) job->zhi = std::min(job->zhi, mid);
                    if (vl + vr < bound()) shared.lower(vl + vr);
                    job->iv.split(I, mid);
                    finish(*job);
                    cv_.notify_all();
                    continue;
                }
                if (next_ < pieces_.size()) {
                    const Spec spec = pieces_[next_++];
                    ++starting_;
                    lk.unlock();
                    std::unique_ptr<Job> made = start(X, s, lim.depth, spec, bound(), sub);
                    lk.lock();
                    --starting_;
                    if (made) {
                        jobs_.push_back(std::move(made));
                        finish(*jobs_.back());
                    } else {
                        ++done_;
                    }
                    cv_.notify_all();
                    continue;
                }
                bool busy = starting_ > 0;
                for (const auto &j : jobs_) busy = busy || j->inflight > 0;
                if (!busy) break;
                cv_.wait_for(lk, std::chrono::milliseconds(20));
            }
        } catch (...) {
            if (!lk.owns_lock()) lk.lock();
            stop_ = true;  // (the piece's state is not whole: the answer is not to be read)
            cv_.notify_all();
            throw;
        }
        cv_.notify_all();
    }

private:
    // A started piece of an ordered attribute: its thresholds, the pruner's queue, what is
    // known of each evaluated threshold, and the evaluations in flight.
    struct Job {
        i64 attr;
        vec<i64> pos;
        Positions at;
        IntervalPruner iv;
        Evaluated ev;
        i64 zlo, zhi, inflight = 0;
        bool counted = false;
        Job(i64 a, vec<i64> p, i64 K, const Table &T, const i32 *lst, i64 start, i64 lo, i64 hi)
            : attr(a),
              pos(std::move(p)),
              at(),
              iv((at.of(T, lst, pos.data(), K), at.b), K, start, lo, std::min(hi, K - 1)),
              ev(K, true, !T.monotone()),
              zlo(-1),
              zhi(K) {}
    };

    // Count a piece done once nothing of it is queued or in flight.
    void finish(Job &job) {
        if (!job.counted && job.iv.empty() && job.inflight == 0) {
            job.counted = true;
            ++done_;
        }
    }

    // A piece begun (without the lock): a nominal attribute's one split evaluated here
    // (nothing to share: null); an ordered one's thresholds made ready for the team.
    std::unique_ptr<Job> start(const Search &X, Sub s, i64 r, const Spec &spec, i64 UB,
                               i64 *sub) {
        const Table &T = X.T;
        const Workspace &W = X.W;
        const i64 m = s.m, a = spec.attr;
        const i32 *lst = rows(T, W, s, a);
        vec<i64> pos(static_cast<std::size_t>(m + 1));
        if (!T.ordered(a)) {
            const i64 k = groups(lst, m, T.col(a), pos.data());
            if (k < 2 || !groups_allowed(pos.data(), k, T.min_leaf)) return nullptr;
            vec<u64> hk1(static_cast<std::size_t>(k)), hk2(static_cast<std::size_t>(k));
            const i64 acc = eval_nominal(X, s, lst, pos.data(), k, r, UB, hk1.data(), hk2.data(),
                                         sub);
            if (acc < UB) RootPiece{0, 0, 0, &bound_}.lower(acc);
            return nullptr;
        }
        const i64 K = boundaries(lst, m, T.col(a), pos.data());
        const auto [k0, k1] = allowed(pos.data(), K, m, T.min_leaf);
        const i64 lo = std::max(spec.lo, k0), hi = std::min(spec.hi, k1);
        if (K == 0 || lo > hi) return nullptr;
        return std::make_unique<Job>(a, std::move(pos), K, T, lst, hint_[a], lo, hi);
    }

    std::vector<Spec> pieces_;
    mutable i64 bound_;  // lowered through RootPiece's atomic minimum
    mutable std::mutex mu_;
    std::condition_variable cv_;
    std::vector<std::unique_ptr<Job>> jobs_;
    std::size_t next_ = 0;
    i64 starting_ = 0, done_ = 0;
    bool stop_ = false;
    i64 leaf_ = 0;       // the root's leaf (set with hint_)
    vec<i64> hint_;      // per attribute, the threshold its search starts from
};

// ---------------------------------------------------------------- whole fronts

// The limits of a fronts search: the remaining depth and the bound, a staircase whose
// weakly dominated points are not wanted (empty: the whole front).
struct FrontLimits {
    i64 depth;
    Span<const XY> bound;
    FrontLimits child(const vec<XY> &b) const {
        return {depth - 1, Span<const XY>{b.data(), static_cast<i64>(b.size())}};
    }
};

// The least x (sum costs) of a tree of at least L leaves on n rows, depth <= depth (n:
// their weight, with weights: each row weighs at least one unit).
i64 leaves_x(i64 L, i64 n, i64 lc, i64 sc, i64 sr, bool binary, i64 depth) {
    if (L == 1) return lc;
    if (!binary) return sc + sr * n + L * lc;  // one split of L ways
    if (depth == 2 && L == 4) return 3 * sc + 2 * sr * n + 4 * lc;  // every row twice
    return (L - 1) * sc + sr * (n + 2 * (L - 2)) + L * lc;
}

// Whether every tree of a split (<= side of nl rows, the other nr, each of depth <= d)
// deeper than two levels is weakly dominated, by the class-count bounds cb (class_bounds:
// cb[side * n_lv + L - 1]) and the least x of their leaves (leaves_x).
bool classes_dead(const i64 *cb, i64 n_lv, i64 nl, i64 nr, i64 split_x, const Cost &px,
                  bool binary, i64 d, i64 misl, i64 misr, const YLim &lim) {
    for (i64 i = 0; i < n_lv; ++i) {
        const i64 yl = i == 0 ? misl : cb[i];
        const i64 xl = leaves_x(i + 1, nl, px.lc, px.sc, px.sr, binary, d);
        for (i64 j = 0; j < n_lv; ++j) {
            if (i <= 1 && j <= 1) continue;  // each side a leaf or a split into two: the seed's
            const i64 yr = j == 0 ? misr : cb[n_lv + j];
            const i64 x = split_x + xl + leaves_x(j + 1, nr, px.lc, px.sc, px.sr, binary, d);
            if (yl + yr < lim.at(x)) return false;
        }
    }
    return true;
}

// What the root's steps of a whole-front search (the driver's, one per attribute in the
// search's order, several at once in threads) have found so far: each step publishes its
// working front as it changes, and reads its predecessors' before each root threshold it
// evaluates. A step so prunes with what the steps before it found, as if run after them,
// while they still run beside it. What it returns does not depend on when it read: a point
// it finds that a predecessor also finds is merged after the predecessor's (the driver
// merges the steps in order, the first of equal points kept), a point it misses for a
// predecessor's is weakly dominated there; so the merged front and its provenance are
// those of the steps run one after another. Only the work (the stats) depends on timing.
class Board {
public:
    explicit Board(i64 steps)
        : fronts_(static_cast<std::size_t>(steps)), ver_(static_cast<std::size_t>(steps)) {}
    i64 size() const { return static_cast<i64>(fronts_.size()); }

    void publish(i64 step, const vec<Tagged> &f) {
        const std::lock_guard<std::mutex> hold(mu_);
        fronts_[static_cast<std::size_t>(step)].assign(f.begin(), f.end());
        ++ver_[static_cast<std::size_t>(step)];
    }

    // Merges the fronts of the steps before `step` into f (its own points first among
    // equal ones) if one of them was published since `seen` (the sum of those steps'
    // publications when last read); whether f changed. (One lock per root threshold: a
    // threshold's evaluation costs milliseconds.)
    bool read(i64 step, i64 &seen, vec<Tagged> &f) {
        const std::lock_guard<std::mutex> hold(mu_);
        i64 before = 0;
        std::size_t more = 0;
        for (i64 j = 0; j < step; ++j) {
            before += ver_[static_cast<std::size_t>(j)];
            more += fronts_[static_cast<std::size_t>(j)].size();
        }
        if (before == seen) return false;
        seen = before;
        vec<Tagged> all;
        all.reserve(f.size() + more);
        all.assign(f.begin(), f.end());
        for (i64 j = 0; j < step; ++j) {
            const auto &g = fronts_[static_cast<std::size_t>(j)];
            all.insert(all.end(), g.begin(), g.end());
        }
        pareto(all);
        if (all.size() == f.size() &&
            std::equal(all.begin(), all.end(), f.begin(), [](const Tagged &a, const Tagged &b) {
                return a.x == b.x && a.y == b.y;
            }))
            return false;
        f = std::move(all);
        return true;
    }

private:
    std::mutex mu_;
    // the steps' fronts (not charged to a kernel call's budget: the board outlives them)
    std::vector<std::vector<Tagged>> fronts_;
    std::vector<i64> ver_;  // how often each step published
};

// The least corners of what both lower-bound sets say of a side's split trees (each point
// of a set bounds a tree from below: the trees lie in both sets' up-sets, whose
// intersection's corners these are): a, its x moved up by ash, and b (null: none), moved
// down by (bdx, bdy); both raised to x >= xmin, y >= 0. out: x up, y down.
inline void join_lb(const vec<XY> &a, i64 ash, const vec<XY> *b, i64 bdx, i64 bdy, i64 xmin,
                    vec<XY> &out) {
    out.clear();
    const i64 na = static_cast<i64>(a.size()), nb = b ? static_cast<i64>(b->size()) : 0;
    i64 i = 0, j = 0, ya = INF, yb = b ? INF : 0, top = INF;
    const auto xa = [&](i64 k) { return k < na ? std::max(a[k].x + ash, xmin) : INF; };
    const auto xb = [&](i64 k) { return k < nb ? std::max((*b)[k].x - bdx, xmin) : INF; };
    while (i < na || j < nb) {
        const i64 x = std::min(xa(i), xb(j));
        for (; xa(i) == x; ++i) ya = std::min(ya, a[i].y);
        for (; xb(j) == x; ++j) yb = std::min(yb, std::max<i64>((*b)[j].y - bdy, 0));
        const i64 y = std::max(ya, yb);
        if (y < top) {
            top = y;
            out.push_back({x, y});
        }
    }
}

// The points of f not weakly dominated by the staircase b.
template <class B>
vec<Tagged> undominated(vec<Tagged> f, const B &b) {
    if (b.size() > 0)
        f.erase(std::remove_if(f.begin(), f.end(),
                               [&](const Tagged &p) { return dominated(p.x, p.y, b); }),
                f.end());
    return f;
}

// Whether every point of c moved down by (d0, d1), and raised to at least 0, is weakly
// dominated by f.
template <class F>
bool moved_dominated(const vec<XY> &c, i64 d0, i64 d1, const F &f) {
    for (const XY &p : c)
        if (!dominated(std::max<i64>(p.x - d0, 0), std::max<i64>(p.y - d1, 0), f)) return false;
    return true;
}

// The first k from `from` towards `to` (step +1 or -1) where dead(k) is false, dead being
// true up to some point and false after it; one past `to` when it is true throughout.
// Galloping, then bisecting: a few calls of dead however far it reaches.
template <class D>
i64 first_alive(i64 from, i64 to, i64 step, D dead) {
    const i64 n = (to - from) * step + 1;  // the candidates 0..n-1, k = from + i * step
    if (n <= 0 || !dead(from)) return from;
    i64 good = 0, gap = 1;  // dead at good
    while (good + gap < n && dead(from + (good + gap) * step)) {
        good += gap;
        gap *= 2;
    }
    i64 lo = good + 1, hi = std::min(good + gap, n);  // the first alive in [lo, hi]
    while (lo < hi) {
        const i64 mid = (lo + hi) / 2;
        if (dead(from + mid * step))
            lo = mid + 1;
        else
            hi = mid;
    }
    return from + lo * step;
}

// What a fronts search keeps of an evaluated threshold: lower-bound sets of its sides and
// of their combination (x with the split's); at remaining depth 3, its sides' bounds of
// their own splits per attribute (front2_ordered's), for the sides of the thresholds
// further out, which hold these rows and more.
struct Record {
    vec<XY> L, R, C;
    vec<SplitBounds> sl, sr;
    vec<XY> L1, R1, C1;  // under a minimum leaf size: the same without it (relaxed)
};

// The front (x, misclassifications) of s over the trees of depth <= lim.depth, x by the
// cost px, without the points weakly dominated by lim.bound. Returns the real points with
// their tree's root (LEAF, ORDERED with the threshold code, NOMINAL) or SHALLOWER (a point
// of the front at depth <= depth - 1). attrs empty: every attribute, in the order of the
// hints. Otherwise only the splits of those attributes, from the working front *seed (its
// points' provenance kept: the driver's root steps). At depth 2, splits_in (or null): per
// attribute, bounds of the splits of a subtable of some of these rows (front2_ordered's
// seed); splits_out (or null) gets this search's, per attribute; splits_wider (or null):
// those of a subtable of these rows and more, which change a side's errors by at most
// lose.
vec<Tagged> fronts(const Search &X, Sub s, FrontLimits lim, const Cost &px,
                   Span<const i64> attrs = {}, const vec<Tagged> *seed = nullptr,
                   const vec<SplitBounds> *splits_in = nullptr,
                   vec<SplitBounds> *splits_out = nullptr,
                   const vec<SplitBounds> *splits_wider = nullptr, i64 lose = 0,
                   Board *board = nullptr, i64 step = 0) {
    const Table &T = X.T;
    const Workspace &W = X.W;
    const i64 m = s.m, C = T.C, A = T.A, r = lim.depth;
    const i64 comb = px.comb, lc = px.lc, sc = px.sc, sr = px.sr;
    vec<i64> total(static_cast<std::size_t>(C));
    if (r == 0) {
        counts(rows(T, W, s, 0), m, T.dec, total.data(), C, T.wt);
        if (px.choice) {
            vec<Tagged> leaf;
            choice_leaf(total.data(), leaf);
            for (Tagged &t : leaf) t.kind = LEAF, t.attr = t.code = -1;
            return leaf;
        }
        return vec<Tagged>{{lc, leaf_cost(total.data(), C, T.price), LEAF, -1, -1}};
    }
    if (r == 1) {
        // without what the bound rules out, as deeper: with a choice of decision the
        // front of every labelling of each split is long, and its sibling's is combined
        // with all of it
        return undominated(front1(T, W, s, px, lim.bound), lim.bound);
    }
    counts(rows(T, W, s, 0), m, T.dec, total.data(), C, T.wt);
    const i64 wm = sum(total.data(), C);  // the rows' weight (m without weights)
    // a leaf without errors: every split costs more
    const i64 leaf = T.price ? leaf_cost(total.data(), C, T.price) : wm - largest(total.data(), C);
    if (m <= 1 || leaf == 0) return vec<Tagged>{{lc, leaf, LEAF, -1, -1}};
    vec<Tagged> F;
    if (attrs.size() == 0) {
        X.st.add(S_SOLVED);
        const vec<Tagged> sh = fronts(X, s, {r - 1, lim.bound}, px);
        F = working_front(lim.bound, sh);
    } else {
        F = *seed;
    }
    const i64 split_x = sc + sr * wm;
    // how far x moves per row moved: total path length's depth below, a row's false
    // positive (a row moved changes one of x and y by at most one: both bounded), and a
    // leaf's: a side's tree that takes a row may lack a nominal split's child for its
    // value, and takes it with a new leaf there (one per row, x summed)
    const i64 alpha = px.choice ? 1 : sr * (r - 1) + (T.all_ordered || comb ? 0 : lc);
    const vec<XY> triv{{lc, 0}};     // the least any subtree costs
    // Under a minimum leaf size a subset of rows may need more errors (its splits may leave
    // too few rows): every bound from a side that the bounded side contains is off (the
    // monotone bound, the shrink, a screen's near sets, the sibling's set in a side's bound,
    // the contained seeds); those from a side that contains it, less the rows between, stay
    // when every attribute is ordered (Table::containing: the screens' far sets, the wider
    // seeds).
    const bool mono = T.monotone(), containing = T.containing();
    // Under K, each side is first searched without it (X.relaxed): a relaxed front is a
    // lower-bound set of the side's with K and only grows as the side takes rows, so the
    // neighbours' relaxed sets bound the thresholds between as the sides' own do without K
    // (the monotone bound, the shrink, a screen's near sets, the sibling's set); and a
    // threshold whose relaxed sides are ruled out is not searched with K. (The bindings set
    // X.relaxed whenever T has a minimum leaf size.)
    const Search *rx = mono ? nullptr : X.relaxed;
    const vec<XY> none;
    // Whether every split into leaves of a subtable costs the same x (then a side's front at
    // depth 1 is its leaf and its best split): x not counting leaves, or binary splits.
    const bool one_x = !px.choice && (comb == 1 || lc == 0 || T.all_ordered);
    // the largest x a split of this subtable can make, for the lookup of the front's y
    const i64 x_top = px.choice ? wm : split_x + 2 * (r - 1) * (sc + sr * wm + 2 * lc) + 2 * lc;
    Packed pk;  // the subtable packed for the depth-two passes, once
    bool packed = false;
    YLim lim2;  // the depth-two trees' ylim(F), kept across attributes while valid
    bool lim2_ok = false;
    vec<i64> hint(static_cast<std::size_t>(A));
    vec<double> score(static_cast<std::size_t>(A));
    hints(T, W, s, total.data(), hint.data(), score.data());
    vec<i64> pos(static_cast<std::size_t>(m + 1));
    Positions at;  // the thresholds' positions in what the bounds move
    i64 seen = 0;  // the board when last read (Board::read)
    vec<i64> order;
    if (attrs.size() == 0)
        order = by_score(score.data(), A);
    else
        order.assign(attrs.begin(), attrs.end());
    for (const i64 a : order) {
        if (X.st.aborted()) break;
        const i32 *lst = rows(T, W, s, a);
        const i32 *col = T.col(a);
        if (!T.ordered(a)) {
            if (board != nullptr && board->read(step, seen, F)) lim2_ok = false;
            const i64 k = groups(lst, m, col, pos.data());
            if (k < 2 || !groups_allowed(pos.data(), k, T.min_leaf)) continue;
            for (i64 g = 0; g < k; ++g)
                for (i64 q = pos[g]; q < pos[g + 1]; ++q) W.side[lst[q]] = static_cast<i32>(g);
            partition(T, W, s, pos.data(), k);
            X.st.add(S_EVALUATED);
            vec<XY> acc{{0, 0}};
            i64 lo_x = 0, lo_y = 0;  // what the children solved so far add at least
            bool pruned = false;
            for (i64 g = 0; g < k; ++g) {
                const i64 rest = k - 1 - g;
                const i64 dx = split_x + (comb ? 0 : lo_x + rest * lc);
                const vec<XY> b = shifted(F, dx, lo_y);
                const Sub child{s.level + 1, s.off + pos[g], pos[g + 1] - pos[g]};
                const vec<Tagged> G = fronts(X, child, lim.child(b), px);
                const XY id = ideal(G, b);
                lo_x += std::max(id.x, lc);
                lo_y += std::max<i64>(id.y, 0);
                if (G.empty()) {
                    pruned = true;  // every tree of this child is ruled out
                    break;
                }
                acc = g == 0 ? xy(G) : combine(acc, G, comb);
                // the children so far, the others at their least (a leaf each)
                const vec<XY> rest_x{{comb ? lc : rest * lc, 0}};
                const bool dead = rest > 0 ? all_dominated(combine(acc, rest_x, comb), split_x, F)
                                           : all_dominated(acc, split_x, F);
                if (dead) {
                    pruned = true;
                    break;
                }
            }
            if (!pruned) {
                F = merge(F, acc, split_x, NOMINAL, a, -1);
                lim2_ok = false;
                if (board != nullptr) board->publish(step, F);
            }
            continue;
        }
        if (r == 2 && one_x) {
            if (!packed) {
                pack(T, W, s, pk);
                packed = true;
            }
            const bool has_in = splits_in != nullptr && static_cast<i64>(splits_in->size()) == A;
            const bool has_wider =
                splits_wider != nullptr && static_cast<i64>(splits_wider->size()) == A;
            if (splits_out != nullptr && static_cast<i64>(splits_out->size()) != A)
                splits_out->assign(static_cast<std::size_t>(A), SplitBounds{});
            front2_ordered(T, W, s, a, hint[a], px, pk, X.st, F, lim2, lim2_ok,
                           has_in ? &(*splits_in)[a] : nullptr,
                           splits_out != nullptr ? &(*splits_out)[a] : nullptr,
                           has_wider ? &(*splits_wider)[a] : nullptr, lose);
            continue;
        }
        const i64 K = boundaries(lst, m, col, pos.data());
        if (K == 0) continue;
        const auto [k0, k1] = allowed(pos.data(), K, m, T.min_leaf);  // all without
        if (k0 > k1) continue;
        // the weight on the <= side of each threshold (the sides' sizes in x) and what
        // moving rows up to it can change a cost by (the pruner's; x moves by alpha per
        // unit of weight, so no more): Positions
        at.of(T, lst, pos.data(), K);
        const i64 *wpos = at.w, *bpos = at.b;
        // the sides' leaf errors at every threshold (prefix class counts)
        vec<i64> misL(static_cast<std::size_t>(K)), misR(static_cast<std::size_t>(K));
        vec<i64> prefix(px.choice ? static_cast<std::size_t>(K * C) : 0);  // <= side's classes
        side_leaves(lst, m, T.dec, C, total.data(), pos.data(), K, misL.data(), misR.data(),
                    px.choice ? prefix.data() : nullptr, T.wt, T.price);
        // Each side's trees of L leaves err no less than its rows less its L largest
        // classes, and cost at least the x of L leaves (with binary splits only, and at
        // depth 2, a tree of 4 leaves is the full one): a lower-bound set per side, if C > 2.
        // (Below depth 3 the seed holds no tree whose side has two leaves: not used there.)
        const i64 n_lv = C > 2 && r >= 3 && T.price == nullptr
                             ? std::min(C, T.all_ordered && r == 3 ? i64{4} : C)
                             : 0;
        vec<i64> cls_lb;
        if (n_lv > 0)
            cls_lb = class_bounds(lst, m, T.dec, C, total.data(), pos.data(), K, n_lv, T.wt);
        YLim lim_y;
        bool lim_stale = true;
        // per evaluated threshold: lower-bound sets of its sides and of their combination
        vec<i64> slot(static_cast<std::size_t>(K), -1);
        vec<Record> recs;
        recs.push_back({triv, triv, triv, {}, {}, triv, triv, triv});
        // a neighbour's sets that only grow as a side takes rows (the relaxed ones under K),
        // and those a containing side bounds less the rows between (K's when containing)
        const auto grow_l = [&](i64 k) -> const vec<XY> & {
            return mono ? recs[slot[k]].L : recs[slot[k]].L1;
        };
        const auto grow_r = [&](i64 k) -> const vec<XY> & {
            return mono ? recs[slot[k]].R : recs[slot[k]].R1;
        };
        const auto grow_c = [&](i64 k) -> const vec<XY> & {
            return mono ? recs[slot[k]].C : recs[slot[k]].C1;
        };
        const auto wide_l = [&](i64 k) -> const vec<XY> * {
            return containing ? &recs[slot[k]].L : &recs[slot[k]].L1;
        };
        const auto wide_r = [&](i64 k) -> const vec<XY> * {
            return containing ? &recs[slot[k]].R : &recs[slot[k]].R1;
        };
        // with a choice of decision: the weight of class c between thresholds i and j
        const auto between = [&](i64 i, i64 j, i64 c) {
            return std::abs(prefix[i * C + c] - prefix[j * C + c]);
        };
        IntervalPruner iv(bpos, K, hint[a], k0, k1);
        while (!iv.empty()) {
            Interval I = iv.pop();
            if (X.st.aborted()) break;
            if (board != nullptr && board->read(step, seen, F)) {
                lim_stale = true;
                lim2_ok = false;
            }
            // the neighbours' points, moved by the rows in between
            if (px.choice) {
                // with a choice of decision, per class: the rows between move a side's false
                // positives by their negatives' weight, its false negatives by their
                // positives', never below 0 (tighter than kmax's k rows in both)
                const auto dead_from = [&](i64 nb, i64 kk) {
                    return moved_dominated(grow_c(nb), between(kk, nb, 0), between(kk, nb, 1), F);
                };
                if (I.ln >= 0)
                    I.lo = first_alive(I.lo, I.hi, 1, [&](i64 kk) { return dead_from(I.ln, kk); });
                if (I.rn >= 0 && I.lo <= I.hi)
                    I.hi = first_alive(I.hi, I.lo, -1, [&](i64 kk) { return dead_from(I.rn, kk); });
            } else {
                if (I.ln >= 0) iv.shrink_from_left(I, kmax(grow_c(I.ln), F, alpha));
                if (I.rn >= 0) iv.shrink_from_right(I, kmax(grow_c(I.rn), F, alpha));
            }
            if (I.lo > I.hi) continue;
            const vec<XY> &lbl = I.ln >= 0 ? grow_l(I.ln) : triv;
            const vec<XY> &lbr = I.rn >= 0 ? grow_r(I.rn) : triv;
            if (all_dominated(combine(lbl, lbr, comb), split_x, F)) {  // monotone bound
                X.st.add(S_PRUNED, I.hi - I.lo + 1);
                continue;
            }
            const i64 want = iv.want(I);
            i64 mid = want, alive = 2;
            const i64 nl_pts = static_cast<i64>(lbl.size()), nr_pts = static_cast<i64>(lbr.size());
            if (px.choice ? r >= 3 : nl_pts * nr_pts <= SCREEN_PAIRS) {
                // Each threshold on bounds of its own: its sides' leaves exactly (prefix
                // counts), their split trees above both neighbours' sets (below), raised to
                // the least x a split of a side of that size costs.
                if (lim_stale) {
                    lim_y = ylim(F, lc, x_top);
                    lim_stale = false;
                }
                mid = -1;
                alive = 0;
                i64 gap_best = INF;
                vec<XY> jl, jr;
                for (i64 kk = I.lo; kk <= I.hi; ++kk) {
                    const i64 p = wpos[kk];
                    const i64 xs_l = sc + sr * p + (comb ? lc : 2 * lc);
                    const i64 xs_r = sc + sr * (wm - p) + (comb ? lc : 2 * lc);
                    if (n_lv > 0 && !comb &&
                        classes_dead(cls_lb.data() + kk * 2 * n_lv, n_lv, p, wm - p, split_x, px,
                                     T.all_ordered, r - 1, misL[kk], misR[kk], lim_y)) {
                        X.st.add(S_PRUNED);
                        continue;
                    }
                    // each side's leaf: its point, or with a choice of decision its two
                    XY leafL[2] = {{lc, misL[kk]}, {lc, misL[kk]}};
                    XY leafR[2] = {{lc, misR[kk]}, {lc, misR[kk]}};
                    if (px.choice) {
                        const i64 n0 = prefix[kk * C], n1 = prefix[kk * C + 1];
                        leafL[0] = {n0, 0};
                        leafL[1] = {0, n1};
                        leafR[0] = {total[0] - n0, 0};
                        leafR[1] = {0, total[1] - n1};
                    }
                    // A split side holds its near neighbour's same side and more rows, each
                    // at least one level down: its x is at least that side's point's plus
                    // theirs (Λ). It is also its far neighbour's same side less the rows
                    // between, each of which moves x by at most alpha and y by one (with
                    // weights and prices, by its weight times the largest price): both bounds
                    // at once (join_lb). With a choice of decision a row moved changes only
                    // its class's cost, by its weight: the far side less the rows between
                    // per class (their negatives from x, positives from y).
                    if (px.choice) {
                        const vec<XY> *far_l = I.rn >= 0 ? wide_l(I.rn) : nullptr;
                        const vec<XY> *far_r = I.ln >= 0 ? wide_r(I.ln) : nullptr;
                        join_lb(lbl, 0, far_l, I.rn >= 0 ? between(kk, I.rn, 0) : 0,
                                I.rn >= 0 ? between(kk, I.rn, 1) : 0, 0, jl);
                        join_lb(lbr, 0, far_r, I.ln >= 0 ? between(kk, I.ln, 0) : 0,
                                I.ln >= 0 ? between(kk, I.ln, 1) : 0, 0, jr);
                    } else {
                        const i64 dl = I.ln >= 0 ? p - wpos[I.ln] : 0;  // weight between
                        const i64 dr = I.rn >= 0 ? wpos[I.rn] - p : 0;
                        const i64 bl = I.ln >= 0 ? bpos[kk] - bpos[I.ln] : 0;  // moves by
                        const i64 br = I.rn >= 0 ? bpos[I.rn] - bpos[kk] : 0;
                        const vec<XY> *far_l = I.rn >= 0 ? wide_l(I.rn) : nullptr;
                        const vec<XY> *far_r = I.ln >= 0 ? wide_r(I.ln) : nullptr;
                        join_lb(lbl, comb ? 0 : sr * dl, far_l, alpha * br, br, xs_l, jl);
                        join_lb(lbr, comb ? 0 : sr * dr, far_r, alpha * bl, bl, xs_r, jr);
                    }
                    const vec<XY> &JL = jl, &JR = jr;
                    const i64 nl_j = static_cast<i64>(JL.size());
                    const i64 nr_j = static_cast<i64>(JR.size());
                    const i64 nlf = px.choice ? 2 : 1;
                    bool dead = true;
                    for (i64 i = 0; i < nl_j + nlf && dead; ++i) {
                        const bool li = i >= nl_j;
                        const i64 ax = li ? leafL[i - nl_j].x : std::max(JL[i].x, xs_l);
                        const i64 ay = li ? leafL[i - nl_j].y : JL[i].y;
                        for (i64 j = 0; j < nr_j + nlf; ++j) {
                            const bool lj = j >= nr_j;
                            if (li && lj) continue;  // a depth-one tree: the seed's
                            const i64 bx = lj ? leafR[j - nr_j].x : std::max(JR[j].x, xs_r);
                            const i64 by = lj ? leafR[j - nr_j].y : JR[j].y;
                            const i64 x = split_x + (comb ? std::max(ax, bx) : ax + bx);
                            if (ay + by < lim_y.at(x)) {
                                dead = false;
                                break;
                            }
                        }
                    }
                    if (dead) {
                        X.st.add(S_PRUNED);
                        continue;
                    }
                    ++alive;
                    if (std::abs(kk - want) < gap_best) {
                        gap_best = std::abs(kk - want);
                        mid = kk;
                    }
                }
                if (mid < 0) continue;
            }
            iv.evaluated();
            const i64 p = pos[mid];
            X.st.add(S_EVALUATED);
            const i64 code = col[lst[p - 1]];
            for (i64 q = 0; q < m; ++q) W.side[lst[q]] = q < p ? 0 : 1;
            const i64 two[2] = {0, p};
            partition(T, W, s, two, 2);
            // The larger side first, under the working front moved by the split and less
            // what the other side costs at least; the other side under what remains, if
            // anything can.
            const bool big_left = p >= m - p;
            const Sub left{s.level + 1, s.off, p}, right{s.level + 1, s.off + p, m - p};
            const Sub osub = big_left ? left : right, ssub = big_left ? right : left;
            const vec<XY> &sib = big_left ? lbr : lbl;
            const XY is = ideal(sib, none);
            // the rows (weight) from mid to I's farther end: what the second side's bound is
            // widened by (ConTree's trick, as in eval_deep)
            const i64 half = std::max(bpos[mid] - bpos[I.lo], bpos[I.hi] - bpos[mid]);
            // A side's bound: the working front eroded by what the other side costs at least
            // (its whole lower-bound set) when the side is deep enough to repay the
            // erosion's work, else moved by that set's least corner (x summed: a depth-like
            // x, maximised, is moved by the corner).
            const bool ero = r >= 3 && !comb;
            const vec<XY> b1 = ero ? eroded(F, sib, split_x, 0)
                                   : shifted(F, split_x + (comb ? 0 : is.x), is.y);
            // at remaining depth 3, each side starts from the bounds of its splits found at
            // the neighbour whose same side it holds (the left side's from the left one)
            const bool seeds = r == 3 && one_x;
            const vec<SplitBounds> *inL =
                seeds && mono && I.ln >= 0 ? &recs[slot[I.ln]].sl : nullptr;
            const vec<SplitBounds> *inR =
                seeds && mono && I.rn >= 0 ? &recs[slot[I.rn]].sr : nullptr;
            const vec<SplitBounds> *in_o = big_left ? inL : inR, *in_s = big_left ? inR : inL;
            // and from the other neighbour, whose same side holds these rows and more, less
            // what the rows between change a side's errors by
            const vec<SplitBounds> *wL =
                seeds && containing && I.rn >= 0 ? &recs[slot[I.rn]].sl : nullptr;
            const vec<SplitBounds> *wR =
                seeds && containing && I.ln >= 0 ? &recs[slot[I.ln]].sr : nullptr;
            const i64 loseL = I.rn >= 0 ? bpos[I.rn] - bpos[mid] : 0;
            const i64 loseR = I.ln >= 0 ? bpos[mid] - bpos[I.ln] : 0;
            const vec<SplitBounds> *w_o = big_left ? wL : wR, *w_s = big_left ? wR : wL;
            const i64 lose_o = big_left ? loseL : loseR, lose_s = big_left ? loseR : loseL;
            vec<SplitBounds> out_o, out_s;
            // The second side's bound, from the first's lower-bound set ol: under what
            // remains, widened by half rows' worth of each cost: what it leaves out then lies
            // that far above the front, so its lower-bound set (S below) rules out more of the
            // thresholds between the neighbours that read it.
            const auto second_bound = [&](const vec<XY> &ol) {
                const XY il = ideal(ol, none);
                return ero ? eroded(F, ol, split_x - alpha * half, -half)
                           : shifted(F, split_x + (comb ? 0 : il.x) - alpha * half, il.y - half);
            };
            // under K: the sides without it first (see rx), their lower-bound sets. With a
            // choice of decision at depth 1 a side's front with K comes in the same pass as
            // the one without (front1_choice's relaxed): fused, the first side's (Ok) under
            // the same bound b1.
            const bool fuse = rx != nullptr && px.choice && r == 2;
            vec<Tagged> Ok, Sk;  // fused: the sides' fronts with K
            vec<XY> b2k;         // fused: the bound of the second's (the relaxed one's)
            const auto depth_one = [&](Sub sub, const vec<XY> &b, vec<Tagged> &with_k) {
                vec<Tagged> without;
                const Span<const XY> bs{b.data(), static_cast<i64>(b.size())};
                with_k = undominated(front1_choice(T, W, sub, bs, &without), bs);
                return undominated(without, bs);
            };
            vec<XY> OL1, S1, cxy1;
            bool dead = false;  // every tree of the split ruled out by the relaxed sides
            if (rx != nullptr) {
                const vec<Tagged> O1 =
                    fuse ? depth_one(osub, b1, Ok) : fronts(*rx, osub, lim.child(b1), px);
                OL1 = lower(O1, b1, lc);
                S1 = sib;
                cxy1 = combine(OL1, S1, comb);
                dead = O1.empty() || all_dominated(cxy1, split_x, F);
                if (!dead) {
                    const vec<XY> b2 = second_bound(OL1);
                    const vec<Tagged> S2 =
                        fuse ? depth_one(ssub, b2, Sk) : fronts(*rx, ssub, lim.child(b2), px);
                    if (fuse) b2k = b2;
                    S1 = lower(S2, b2, lc);
                    cxy1 = combine(OL1, S1, comb);
                    dead = S2.empty() || all_dominated(combine(O1, S2, comb), split_x, F);
                }
                for (auto &q : cxy1) q.x += split_x;
            }
            vec<XY> OL, S, cxy;
            if (dead) {  // the relaxed sets bound the sides with K too
                OL = OL1;
                S = S1;
                cxy = cxy1;
            } else {
                const vec<Tagged> O =
                    fuse ? std::move(Ok)
                         : fronts(X, osub, lim.child(b1), px, {}, nullptr, in_o,
                                  seeds ? &out_o : nullptr, w_o, lose_o);
                OL = lower(O, b1, lc);
                cxy = combine(OL, sib, comb);
                S = sib;
                if (!O.empty() && !all_dominated(cxy, split_x, F)) {
                    // (fused: under the relaxed one's bound, which rules out no more)
                    const vec<XY> b2 = fuse ? std::move(b2k) : second_bound(OL);
                    const vec<Tagged> S2 =
                        fuse ? std::move(Sk)
                             : fronts(X, ssub, lim.child(b2), px, {}, nullptr, in_s,
                                      seeds ? &out_s : nullptr, w_s, lose_s);
                    if (!S2.empty()) {
                        const vec<XY> both = combine(O, S2, comb);
                        if (!all_dominated(both, split_x, F)) {
                            F = merge(F, both, split_x, ORDERED, a, code);
                            lim_stale = true;
                            if (board != nullptr) board->publish(step, F);
                        }
                    }
                    S = lower(S2, b2, lc);
                    cxy = combine(OL, S, comb);
                } else if (in_s != nullptr) {
                    out_s = *in_s;  // not searched: the bounds it was handed hold for it too
                }
                for (auto &q : cxy) q.x += split_x;
            }
            slot[mid] = static_cast<i64>(recs.size());
            if (big_left)
                recs.push_back({std::move(OL), std::move(S), std::move(cxy), std::move(out_o),
                                std::move(out_s), std::move(OL1), std::move(S1),
                                std::move(cxy1)});
            else
                recs.push_back({std::move(S), std::move(OL), std::move(cxy), std::move(out_s),
                                std::move(out_o), std::move(S1), std::move(OL1),
                                std::move(cxy1)});
            if (alive > 1) iv.split(I, mid);
        }
    }
    return real(F);
}

// ---------------------------------------------------------------- the workspace bound

// An upper bound of the scratch one kernel call holds at once along its recursion (one
// subtable per level, each of at most n rows), fronts and memo aside: what the driver
// reserves per concurrent call beside its rows (bytes).
i64 scratch_bytes(i64 n, i64 A, i64 C, i64 depth) {
    const i64 m = n + 1, K = n;
    const i64 common = 8 * (3 * C + 3 * A) + 8 * m;              // totals, hints, order, pos
    const i64 intervals = 32 * (2 * K + 2);                        // the queue
    const i64 packed = (16 * A + 8 * LANES) * n + 16 * (A + LANES)  // lanes or rows, the walk
                       + 24 * m + 16 * C;  // and the pass's scratch (weights' too)
    // hk1, hk2; per threshold its sides' values, roots, seeds and seed bounds (the seeds'
    // points, 16 bytes per split a child evaluated, are charged as they are made)
    const i64 best_deep = common + 16 * m + (16 + 32 + 48 + 16 + 8) * K + intervals;
    const i64 best_two = best_deep + packed + 8 * C * K;           // + prefix counts
    const i64 V = 64;                                              // d2_counts (few codes)
    const i64 counted = 8 * C * (A * V + V * V + 2 * V) + 16 * V;
    // ylim over a split's x (rows of weight 1; with weights its table grows with their
    // units up to YLIM_DENSE entries, then keeps the front's staircase)
    const i64 front_x = 8 * std::min((2 * depth + 1) * (n + 3), YLIM_DENSE);
    const i64 fronts_deep = common + 32 * K + 16 * C * K + intervals + front_x;
    // (+ 17 per threshold: the seed's bounds, front2_ordered's seedL, seedR, known)
    const i64 fronts_two = common + packed + (90 + 8 * C) * K + intervals + front_x;
    i64 total = 0;
    for (i64 r = depth; r >= 2; --r) {
        const i64 b = r == 2 ? std::max(best_two, counted) : best_deep;
        const i64 f = r == 2 ? std::max(fronts_two, fronts_deep) : fronts_deep;
        total += std::max(b, f);
    }
    return total + 8 * (2 * C + 5 * (A + 1));  // the depth-one fronts
}

}  // namespace
}  // namespace dagger::ordered

// ---------------------------------------------------------------- bindings
namespace dagger::py {
namespace {

using namespace dagger::ordered;

// The most the rows' weights may add up to: the depth-two pass's lanes keep a side's
// weighted counts, and twice a row's weight, in int32 below their sentinel 2^30.
constexpr i64 WEIGHT_LIMIT = (i64{1} << 29) - 1;

// usage[]: what a kernel call held (bytes): its peak, what it would have needed when it
// stopped (OUT_OF_MEMORY), the memo's bytes and entries at the end.
enum { U_PEAK = 0, U_ASKED = 1, U_MEMO_BYTES = 2, U_MEMO_SIZE = 3, N_USAGE = 4 };

struct BoundTable {
    Table T;
    Workspace W;
};

// The table and workspace of the named tuples OrderedTable and Workspace.
BoundTable bind_table(nb::handle table, nb::handle work) {
    auto codes = nb::cast<AnyArray>(table.attr("codes"));
    if (codes.dtype() != nb::dtype<i32>() || codes.ndim() != 2)
        throw nb::type_error("codes: expected an int32 matrix (attributes x rows)");
    const i64 A = static_cast<i64>(codes.shape(0)), n = static_cast<i64>(codes.shape(1));
    auto kinds = field<const i8>(table, "kinds");
    auto nv = field<const i64>(table, "nv");
    auto dec = field<const i32>(table, "dec");
    auto keys = field<const i64>(table, "keys");
    if (kinds.size() != A || nv.size() != A + 3 || dec.size() != n || keys.size() != 2 * n)
        throw nb::value_error("OrderedTable: arrays of inconsistent sizes");
    if (nv[A + 2] < 1) throw nb::value_error("nv[A + 2], the minimum leaf size: at least 1");
    auto buf = nb::cast<AnyArray>(work.attr("buf"));
    if (buf.dtype() != nb::dtype<i32>() || buf.ndim() != 3 ||
        static_cast<i64>(buf.shape(1)) != A || static_cast<i64>(buf.shape(2)) != n)
        throw nb::type_error("buf: expected an int32 array (levels x attributes x rows)");
    auto side = field<i32>(work, "side");
    if (side.size() != n) throw nb::value_error("side: one entry per row");
    bool all_ordered = true;
    for (i64 a = 0; a < A; ++a) all_ordered = all_ordered && kinds[a] == 1;
    // the rows' weights: None (every row weighs 1) or one positive int64 per row, whose sum
    // the lanes of the depth-two pass hold in int32 (WEIGHT_LIMIT)
    const i64 *wt = nullptr;
    nb::object weights = nb::getattr(table, "weights", nb::none());
    if (!weights.is_none()) {
        auto w = span<const i64>(weights, "weights");
        if (w.size() != n) throw nb::value_error("weights: one entry per row");
        i64 total = 0;
        for (i64 i = 0; i < n; ++i) {
            if (w[i] < 1) throw nb::value_error("weights: every row's must be >= 1");
            total += w[i];
            if (total > WEIGHT_LIMIT) throw nb::value_error("weights: their sum is too large");
        }
        wt = w.p;
    }
    // a price matrix (C x C int64, per unit of weight; None: 0/1), with weights only
    const i64 C = nb::cast<i64>(table.attr("n_classes"));
    const i64 *price = nullptr;
    i64 F = 1;
    nb::object prices = nb::getattr(table, "prices", nb::none());
    if (!prices.is_none()) {
        auto p = span<const i64>(prices, "prices");
        if (wt == nullptr || p.size() != C * C)
            throw nb::value_error("prices: C x C entries, and weights with them");
        for (i64 i = 0; i < C * C; ++i) {
            if (p[i] < 0) throw nb::value_error("prices: every one must be >= 0");
            F = std::max(F, p[i]);
        }
        i64 total = 0;
        for (i64 i = 0; i < n; ++i) total += wt[i];
        if (total > WEIGHT_LIMIT / F) throw nb::value_error("prices: the weights cost too much");
        price = p.p;
    }
    Table T{static_cast<const i32 *>(codes.data()),
            kinds.p,
            nv.p,
            dec.p,
            keys.p,
            A,
            n,
            C,
            all_ordered,
            wt,
            price,
            F,
            nv[A + 2]};
    Workspace W{static_cast<i32 *>(buf.data()), static_cast<i64>(buf.shape(0)), side.p};
    return {T, W};
}

vec<Tagged> read_points(nb::handle pts) {
    auto x = field<const i64>(pts, "x");
    auto y = field<const i64>(pts, "y");
    auto k = field<const i64>(pts, "kind");
    auto a = field<const i64>(pts, "attr");
    auto c = field<const i64>(pts, "code");
    if (y.size() != x.size() || k.size() != x.size() || a.size() != x.size() ||
        c.size() != x.size())
        throw nb::value_error("Points: arrays of one length expected");
    vec<Tagged> out(static_cast<std::size_t>(x.size()));
    for (i64 i = 0; i < x.size(); ++i) out[i] = {x[i], y[i], k[i], a[i], c[i]};
    return out;
}

vec<XY> read_xy(Span<const i64> x, Span<const i64> y) {
    if (y.size() != x.size()) throw nb::value_error("x and y of one length expected");
    vec<XY> out(static_cast<std::size_t>(x.size()));
    for (i64 i = 0; i < x.size(); ++i) out[i] = {x[i], y[i]};
    return out;
}

nb::tuple points_numpy(const vec<Tagged> &f) {
    std::vector<i64> x, y, k, a, c;
    for (auto *v : {&x, &y, &k, &a, &c}) v->reserve(f.size());
    for (const auto &t : f) {
        x.push_back(t.x);
        y.push_back(t.y);
        k.push_back(t.kind);
        a.push_back(t.attr);
        c.push_back(t.code);
    }
    return nb::make_tuple(to_numpy<i64>(std::move(x)), to_numpy<i64>(std::move(y)),
                          to_numpy<i64>(std::move(k)), to_numpy<i64>(std::move(a)),
                          to_numpy<i64>(std::move(c)));
}

nb::tuple xy_numpy(const vec<XY> &f) {
    std::vector<i64> x, y;
    for (const auto &p : f) {
        x.push_back(p.x);
        y.push_back(p.y);
    }
    return nb::make_tuple(to_numpy<i64>(std::move(x)), to_numpy<i64>(std::move(y)));
}

Cost read_cost(nb::handle cost) {
    Cost px{nb::cast<i64>(cost.attr("combine")), nb::cast<i64>(cost.attr("leaf")),
            nb::cast<i64>(cost.attr("split_const")), nb::cast<i64>(cost.attr("split_rows"))};
    if (nb::hasattr(cost, "choice")) px.choice = nb::cast<i64>(cost.attr("choice"));
    return px;
}

i64 read_budget(nb::handle budget) {
    if (budget.is_none()) return INF;
    const i64 b = nb::cast<i64>(budget);
    return b < 0 ? INF : b;
}

void check_sub(const Table &T, const Workspace &W, i64 m, i64 depth) {
    if (m < 0 || m > T.n) throw nb::value_error("m: more rows than the table has");
    if (depth < 0) throw nb::value_error("depth: expected >= 0");
    if (W.levels < std::max<i64>(depth, 1))
        throw nb::value_error("buf: fewer levels than the depth needs");
}

// Runs f() under a Budget of `limit` bytes that starts with `held` in use; returns the
// status, and the usage.
template <class F>
int run_budgeted(i64 limit, i64 held, Span<i64> usage, F &&f) {
    Budget b;
    b.limit = limit;
    b.used = held;
    b.peak = held;
    int status = DONE;
    {
        BudgetScope scope(b);
        try {
            f();
        } catch (const OverBudget &e) {
            usage[U_ASKED] = e.asked;
            status = OUT_OF_MEMORY;
        } catch (const std::bad_alloc &) {
            usage[U_ASKED] = b.used;
            status = OUT_OF_MEMORY;
        }
    }
    usage[U_PEAK] = b.peak;
    return status;
}

// fn(X) on the search X of table T (workspace W, stats, memo) with the GIL released and
// within the budget limit; usage gets what it held and the memo's size. Returns the status.
template <class F>
int search_budgeted(const Table &T, const Workspace &W, Span<i64> stats, Memo &memo, i64 limit,
                    Span<i64> usage, F &&fn) {
    nb::gil_scoped_release free;
    Table T1 = T;  // without the minimum leaf size: the relaxed search's
    T1.min_leaf = 1;
    const Search X1{T1, W, Stats{stats.p}, &memo, nullptr, RELAXED_KEY};
    const Search X{T, W, Stats{stats.p}, &memo, T.monotone() ? nullptr : &X1};
    const int status = run_budgeted(limit, memo.bytes(), usage, [&] { fn(X); });
    usage[U_MEMO_BYTES] = memo.bytes();
    usage[U_MEMO_SIZE] = static_cast<i64>(memo.size());
    return status;
}

}  // namespace

void bind_ordered(nb::module_ &m) {
    m.attr("ORDERED_WEIGHT_LIMIT") = WEIGHT_LIMIT;
    nb::class_<Memo>(m, "OrderedMemo",
                     "The ordered solver's memo: the least misclassifications found per "
                     "(subtable, depth), kept across kernel calls (ordered_best).")
        .def(nb::init<>())
        .def("__len__", &Memo::size)
        .def(
            "get",
            [](const Memo &memo, i64 h1, i64 h2, i64 depth) -> nb::object {
                i64 v;
                bool exact;
                if (!memo.find(static_cast<u64>(h1), static_cast<u64>(h2), depth, v, exact))
                    return nb::none();
                return nb::make_tuple(v, exact);
            },
            nb::arg("h1"), nb::arg("h2"), nb::arg("depth"),
            "The (value, exact) kept for the subtable named (h1, h2) at a depth, or None.")
        .def_prop_ro("nbytes", &Memo::bytes, "The bytes its table takes.");

    m.def(
        "ordered_best",
        [](nb::handle table, nb::handle work, i64 m_rows, nb::handle limits, nb::handle name,
           Memo &memo, nb::handle stats, nb::handle choice, nb::handle budget, nb::handle usage) {
            auto [T, W] = bind_table(table, work);
            const BestLimits lim{nb::cast<i64>(limits.attr("depth")),
                                 nb::cast<i64>(limits.attr("bound"))};
            check_sub(T, W, m_rows, lim.depth);
            const auto h = nb::cast<std::pair<i64, i64>>(name);
            auto st = span<i64>(stats, "stats");
            auto ch = span<i64>(choice, "choice");
            auto us = span<i64>(usage, "usage");
            if (st.size() < N_STATS || ch.size() < 3 || us.size() < N_USAGE)
                throw nb::value_error("stats, choice or usage: too short");
            const i64 limit = read_budget(budget);
            Value v{0, false};
            const int status = search_budgeted(T, W, st, memo, limit, us, [&](const Search &X) {
                v = best(X, Sub{0, 0, m_rows}, lim, static_cast<u64>(h.first),
                         static_cast<u64>(h.second), ch.p);
            });
            return nb::make_tuple(status, v.v, v.exact);
        },
        nb::arg("table"), nb::arg("work"), nb::arg("m"), nb::arg("limits"), nb::arg("name"),
        nb::arg("memo"), nb::arg("stats"), nb::arg("choice"), nb::arg("budget"),
        nb::arg("usage"),
        "The least misclassifications of the first m rows of the workspace's level 0 at depth "
        "<= limits.depth if below limits.bound: (status, value, exact). See "
        "dagger_cli.engine.kernels.ordered.best.");

    m.def(
        "ordered_best_piece",
        [](nb::handle table, nb::handle work, i64 m_rows, nb::handle limits, nb::handle name,
           Memo &memo, nb::handle stats, nb::handle piece, nb::handle shared, nb::handle choice,
           nb::handle budget, nb::handle usage) {
            auto [T, W] = bind_table(table, work);
            const BestLimits lim{nb::cast<i64>(limits.attr("depth")),
                                 nb::cast<i64>(limits.attr("bound"))};
            check_sub(T, W, m_rows, lim.depth);
            if (lim.depth < 3) throw nb::value_error("a piece of a search needs depth >= 3");
            const auto h = nb::cast<std::pair<i64, i64>>(name);
            const i64 a = nb::cast<i64>(piece.attr("attr"));
            const i64 lo = nb::cast<i64>(piece.attr("lo")), hi = nb::cast<i64>(piece.attr("hi"));
            if (a < 0 || a >= T.A) throw nb::value_error("piece: no such attribute");
            if (lo < 0 || hi < lo) throw nb::value_error("piece: thresholds lo..hi out of order");
            auto st = span<i64>(stats, "stats");
            auto sh = span<i64>(shared, "shared");
            auto ch = span<i64>(choice, "choice");
            auto us = span<i64>(usage, "usage");
            if (st.size() < N_STATS || sh.size() < 1 || ch.size() < 5 || us.size() < N_USAGE)
                throw nb::value_error("stats, shared, choice or usage: too short");
            const i64 limit = read_budget(budget);
            const RootPiece rp{a, lo, hi, sh.p};
            Value v{0, false};
            const int status = search_budgeted(T, W, st, memo, limit, us, [&](const Search &X) {
                v = best(X, Sub{0, 0, m_rows}, lim, static_cast<u64>(h.first),
                         static_cast<u64>(h.second), ch.p, nullptr, &rp);
            });
            return nb::make_tuple(status, v.v, v.exact);
        },
        nb::arg("table"), nb::arg("work"), nb::arg("m"), nb::arg("limits"), nb::arg("name"),
        nb::arg("memo"), nb::arg("stats"), nb::arg("piece"), nb::arg("shared"),
        nb::arg("choice"), nb::arg("budget"), nb::arg("usage"),
        "One piece of ordered_best at the root (depth >= 3): the least misclassifications over "
        "the trees whose root splits on piece.attr (an ordered one at thresholds piece.lo.."
        "piece.hi) if below both limits.bound and shared[0], which it lowers: (status, value, "
        "found); choice gets the first such tree's root and its sides' least. See "
        "dagger_cli.engine.kernels.ordered.best_piece.");

    nb::class_<Board>(m, "OrderedBoard",
                      "What the root's steps of one whole-front search found so far "
                      "(ordered_fronts' board): each step's working front, for the steps "
                      "after it.")
        .def(nb::init<i64>(), nb::arg("steps"))
        .def("__len__", &Board::size);

    nb::class_<RootTeam>(m, "OrderedRootTeam",
                         "The pieces of one search at the root, run by a team of threads "
                         "(ordered_best_team): their bound and how many are done.")
        .def(
            "__init__",
            [](RootTeam *t, nb::handle pieces, i64 bound) {
                std::vector<RootTeam::Spec> specs;
                for (nb::handle p : pieces)
                    specs.push_back({nb::cast<i64>(p.attr("attr")), nb::cast<i64>(p.attr("lo")),
                                     nb::cast<i64>(p.attr("hi"))});
                new (t) RootTeam(std::move(specs), bound);
            },
            nb::arg("pieces"), nb::arg("bound"))
        .def_prop_ro("value", &RootTeam::value,
                     "The least misclassifications found below the bound (else the bound).")
        .def_prop_ro("done", &RootTeam::done, "How many pieces are done.")
        .def("__len__", &RootTeam::size);

    m.def(
        "ordered_best_team",
        [](nb::handle table, nb::handle work, i64 m_rows, nb::handle limits, nb::handle name,
           Memo &memo, nb::handle stats, RootTeam &team, nb::handle budget, nb::handle usage) {
            auto [T, W] = bind_table(table, work);
            const BestLimits lim{nb::cast<i64>(limits.attr("depth")),
                                 nb::cast<i64>(limits.attr("bound"))};
            check_sub(T, W, m_rows, lim.depth);
            if (lim.depth < 3) throw nb::value_error("a team's search needs depth >= 3");
            const auto h = nb::cast<std::pair<i64, i64>>(name);
            auto st = span<i64>(stats, "stats");
            auto us = span<i64>(usage, "usage");
            if (st.size() < N_STATS || us.size() < N_USAGE)
                throw nb::value_error("stats or usage: too short");
            return search_budgeted(T, W, st, memo, read_budget(budget), us, [&](const Search &X) {
                team.work(X, Sub{0, 0, m_rows}, lim, static_cast<u64>(h.first),
                          static_cast<u64>(h.second));
            });
        },
        nb::arg("table"), nb::arg("work"), nb::arg("m"), nb::arg("limits"), nb::arg("name"),
        nb::arg("memo"), nb::arg("stats"), nb::arg("team"), nb::arg("budget"), nb::arg("usage"),
        "One thread's share of a search at the root (depth >= 3) run by a team: returns its "
        "status; the answer is team.value once every thread is done. See "
        "dagger_cli.engine.kernels.ordered.best_team.");

    m.def(
        "ordered_lower_bound",
        [](nb::handle shared, i64 v) {
            auto sh = span<i64>(shared, "shared");
            if (sh.size() < 1) throw nb::value_error("shared: too short");
            RootPiece{0, 0, 0, sh.p}.lower(v);
            return RootPiece{0, 0, 0, sh.p}.bound();
        },
        nb::arg("shared"), nb::arg("value"),
        "Lower a bound shared with running pieces to value (an atomic minimum, as the pieces "
        "lower it); returns the bound.");

    m.def(
        "ordered_root_plan",
        [](nb::handle table, nb::handle work, i64 m_rows) {
            auto [T, W] = bind_table(table, work);
            check_sub(T, W, m_rows, 0);
            std::vector<i64> order, hint(static_cast<std::size_t>(T.A)),
                splits(static_cast<std::size_t>(T.A));
            {
                nb::gil_scoped_release free;
                const Sub s{0, 0, m_rows};
                vec<i64> total(static_cast<std::size_t>(T.C));
                counts(rows(T, W, s, 0), m_rows, T.dec, total.data(), T.C, T.wt);
                vec<double> score(static_cast<std::size_t>(T.A));
                hints(T, W, s, total.data(), hint.data(), score.data());
                const vec<i64> o = by_score(score.data(), T.A);
                order.assign(o.begin(), o.end());
                vec<i64> pos(static_cast<std::size_t>(m_rows + 1));
                for (i64 a = 0; a < T.A; ++a) {
                    const i32 *lst = rows(T, W, s, a);
                    splits[a] = T.ordered(a) ? boundaries(lst, m_rows, T.col(a), pos.data())
                                             : groups(lst, m_rows, T.col(a), pos.data());
                }
            }
            return nb::make_tuple(to_numpy<i64>(std::move(order)), to_numpy<i64>(std::move(hint)),
                                  to_numpy<i64>(std::move(splits)));
        },
        nb::arg("table"), nb::arg("work"), nb::arg("m"),
        "The root as the pieces of a search see it: the attributes in the search's order, each "
        "one's hint (the threshold of its best single split by Gini impurity) and its splits "
        "(an ordered attribute's thresholds, a nominal one's values).");

    m.def(
        "ordered_fronts",
        [](nb::handle table, nb::handle work, i64 m_rows, nb::handle limits, nb::handle cost,
           nb::handle attrs, nb::handle stats, nb::handle budget, nb::handle usage,
           nb::handle board, i64 step) {
            auto [T, W] = bind_table(table, work);
            const i64 depth = nb::cast<i64>(limits.attr("depth"));
            Board *bd = board.is_none() ? nullptr : nb::cast<Board *>(board);
            if (bd != nullptr && (step < 0 || step >= bd->size()))
                throw nb::value_error("step: not one of the board's");
            check_sub(T, W, m_rows, depth);
            const vec<Tagged> bound = read_points(limits.attr("bound"));
            const Cost px = read_cost(cost);
            if (px.choice && (T.C != 2 || T.price))
                throw nb::value_error(
                    "cost: a leaf's choice of decision needs two classes and no prices");
            auto at = span<const i64>(attrs, "attrs");
            for (i64 a : at)
                if (a < 0 || a >= T.A) throw nb::value_error("attrs: no such attribute");
            auto st = span<i64>(stats, "stats");
            auto us = span<i64>(usage, "usage");
            if (st.size() < N_STATS || us.size() < N_USAGE)
                throw nb::value_error("stats or usage: too short");
            const i64 limit = read_budget(budget);
            vec<Tagged> out;
            int status;
            {
                nb::gil_scoped_release free;
                Table T1 = T;  // without the minimum leaf size: the relaxed search's
                T1.min_leaf = 1;
                const Search X1{T1, W, Stats{st.p}, nullptr};
                const Search X{T, W, Stats{st.p}, nullptr, T.monotone() ? nullptr : &X1};
                status = run_budgeted(limit, 0, us, [&] {
                    const vec<XY> box = xy(bound);
                    const FrontLimits lim{depth, {box.data(), static_cast<i64>(box.size())}};
                    out = fronts(X, Sub{0, 0, m_rows}, lim, px, at, &bound, nullptr, nullptr,
                                 nullptr, 0, bd, step);
                });
                us[U_MEMO_BYTES] = 0;
                us[U_MEMO_SIZE] = 0;
            }
            return nb::make_tuple(status, points_numpy(out));
        },
        nb::arg("table"), nb::arg("work"), nb::arg("m"), nb::arg("limits"), nb::arg("cost"),
        nb::arg("attrs"), nb::arg("stats"), nb::arg("budget"), nb::arg("usage"),
        nb::arg("board").none() = nb::none(), nb::arg("step") = 0,
        "The front (x, misclassifications) of the first m rows of the workspace's level 0 at "
        "depth <= limits.depth beyond the bound: (status, (x, y, kind, attr, code)). See "
        "dagger_cli.engine.kernels.ordered.fronts.");

    m.def(
        "ordered_hint_order",
        [](nb::handle table, nb::handle work, i64 m_rows) {
            auto [T, W] = bind_table(table, work);
            check_sub(T, W, m_rows, 0);
            std::vector<i64> order;
            {
                nb::gil_scoped_release free;
                const Sub s{0, 0, m_rows};
                vec<i64> total(static_cast<std::size_t>(T.C));
                counts(rows(T, W, s, 0), m_rows, T.dec, total.data(), T.C, T.wt);
                vec<i64> hint(static_cast<std::size_t>(T.A));
                vec<double> score(static_cast<std::size_t>(T.A));
                hints(T, W, s, total.data(), hint.data(), score.data());
                const vec<i64> o = by_score(score.data(), T.A);
                order.assign(o.begin(), o.end());
            }
            return to_numpy<i64>(std::move(order));
        },
        "The attributes in the search's order at the root (their best split's Gini impurity, "
        "ties in attribute order; nominal ones last).");

    m.def(
        "ordered_working_front",
        [](nb::handle box, nb::handle shallower) {
            const vec<Tagged> b = read_points(box), s = read_points(shallower);
            return points_numpy(working_front(b, s));
        },
        "A search's first working front: the box's points (VIRTUAL) and the shallower front's "
        "(SHALLOWER).");

    m.def(
        "ordered_merged",
        [](nb::handle work, nb::handle res) {
            vec<Tagged> all = read_points(work);
            const vec<Tagged> more = read_points(res);
            all.insert(all.end(), more.begin(), more.end());
            pareto(all);
            return points_numpy(all);
        },
        "The Pareto front of a working front's points and a step's, the working front's first "
        "among equal points.");

    m.def("ordered_scratch_bytes", &scratch_bytes, nb::arg("n"), nb::arg("attributes"),
          nb::arg("classes"), nb::arg("depth"),
          "An upper bound of the scratch one kernel call holds at once (fronts and memo aside).");

    // ---- the algebra and the passes on their own (for the tests)
    m.def(
        "ordered_pareto",
        [](nb::handle x, nb::handle y, nb::handle k, nb::handle a, nb::handle c) {
            auto sx = span<const i64>(x), sy = span<const i64>(y), sk = span<const i64>(k);
            auto sa = span<const i64>(a), sc = span<const i64>(c);
            vec<Tagged> pts(static_cast<std::size_t>(sx.size()));
            for (i64 i = 0; i < sx.size(); ++i) pts[i] = {sx[i], sy[i], sk[i], sa[i], sc[i]};
            pareto(pts);
            return points_numpy(pts);
        },
        "The non-dominated points, sorted by x, the first of equal points kept.");
    m.def(
        "ordered_combine",
        [](nb::handle ax, nb::handle ay, nb::handle bx, nb::handle by, i64 comb) {
            const vec<XY> a = read_xy(span<const i64>(ax), span<const i64>(ay));
            const vec<XY> b = read_xy(span<const i64>(bx), span<const i64>(by));
            return xy_numpy(combine(a, b, comb));
        },
        "The front of the pairs a + b (x summed or maximised, y summed).");
    m.def(
        "ordered_kmax",
        [](nb::handle cx, nb::handle cy, nb::handle fx, nb::handle fy, i64 alpha) {
            const vec<XY> c = read_xy(span<const i64>(cx), span<const i64>(cy));
            const vec<XY> f = read_xy(span<const i64>(fx), span<const i64>(fy));
            return kmax(c, f, alpha);
        },
        "The largest k such that every point of c moved by (-k * alpha, -k) is weakly "
        "dominated by the staircase f (0 also when not even k = 0 is).");
    m.def(
        "ordered_eroded",
        [](nb::handle wx, nb::handle wy, nb::handle sx, nb::handle sy, i64 dx, i64 dy) {
            const vec<XY> w = read_xy(span<const i64>(wx), span<const i64>(wy));
            const vec<XY> sib = read_xy(span<const i64>(sx), span<const i64>(sy));
            return xy_numpy(eroded(w, sib, dx, dy));
        },
        "The staircase w eroded by the lower-bound staircase sib moved by (dx, dy).");
    m.def(
        "ordered_merge",
        [](nb::handle fx, nb::handle fy, nb::handle fk, nb::handle fa, nb::handle fc,
           nb::handle px, nb::handle py, i64 kind, i64 attr, i64 code) {
            auto sx = span<const i64>(fx), sy = span<const i64>(fy), sk = span<const i64>(fk);
            auto sa = span<const i64>(fa), sc = span<const i64>(fc);
            vec<Tagged> f(static_cast<std::size_t>(sx.size()));
            for (i64 i = 0; i < sx.size(); ++i) f[i] = {sx[i], sy[i], sk[i], sa[i], sc[i]};
            const vec<XY> p = read_xy(span<const i64>(px), span<const i64>(py));
            return points_numpy(merge(f, p, 0, kind, attr, code));
        },
        "The front with the points added (its own points win ties).");
    m.def(
        "ordered_class_bounds",
        [](nb::handle lst, nb::handle dec, i64 C, nb::handle total, nb::handle pos, i64 K, i64 nl) {
            auto l = span<const i64>(lst, "lst");
            auto d = span<const i64>(dec, "dec");
            auto t = span<const i64>(total, "total");
            auto p = span<const i64>(pos, "pos");
            const vec<i64> out = class_bounds(l.p, l.size(), d.p, C, t.p, p.p, K, nl);
            return to_numpy<i64>(std::vector<i64>(out.begin(), out.end()),
                                 {static_cast<std::size_t>(K), 2, static_cast<std::size_t>(nl)});
        },
        "Per threshold and side, the rows less the L largest class counts, L = 1..nl.");
    m.def(
        "ordered_sides_d1",
        [](nb::handle cb, nb::handle cls, nb::handle sa, i64 t, nb::handle kinds, i64 C, i64 nl,
           nb::handle totL, nb::handle totR, int which, bool narrow) {
            auto b = mat<const i32>(cb, "cb");
            auto k = mat<const i32>(cls, "cls");
            auto s = mat<const i32>(sa, "sa");
            auto kd = span<const i8>(kinds, "kinds");
            auto tl = span<const i64>(totL, "totL");
            auto tr = span<const i64>(totR, "totR");
            if (k.rows != b.rows || s.rows != b.rows || k.cols != b.cols || s.cols != b.cols ||
                kd.size() != b.rows || tl.size() != C || tr.size() != C)
                throw nb::value_error("sides_d1: arrays of inconsistent shapes");
            Packed pk;
            const i64 m = b.cols;
            std::vector<i32> iota(static_cast<std::size_t>(m));
            for (i64 q = 0; q < m; ++q) iota[q] = static_cast<i32>(q);
            std::vector<const i32 *> list(static_cast<std::size_t>(b.rows), iota.data());
            pack_lists(
                pk, list.data(), [&](i64 j) { return b.row(j); }, [&](i64 j) { return k.row(j); },
                kd.p, b.rows, C, m);
            pk.lanes.narrow = pk.lanes.narrow && narrow;
            root_lists(pk, list.data(), [&](i64 j) { return s.row(j); });
            SidesScratch w(b.cols, C, pk.lanes);
            const auto [l, r] = sides_d1(pk, t, kd.p, b.rows, C, nl, tl.p, tr.p, which, w);
            return nb::make_tuple(l, r);
        },
        "The depth-two pass: both sides' least misclassifications over depth <= 1 (narrow: "
        "the 16-bit walk where it applies, else the 32-bit one).");
}

}  // namespace dagger::py
