// The ordered solver's interval pruner: the order in which a search visits the thresholds
// of one ordered attribute, and the ranges it skips (ConTree's interval pruning).
//
// An attribute's K thresholds (0..K-1) are split positions pos[k]: the rows on the <= side.
// The search starts with the whole range and an interval queue, breadth first: it takes an
// interval [lo, hi] with its evaluated neighbours ln < lo and rn > hi (-1: none), may
// shrink it from the neighbours' results, evaluates one threshold (the attribute's hint
// at first, else the middle), and queues the two halves on either side of it, each with
// the evaluated threshold as its new neighbour. What each search knows of an evaluated
// threshold (sides' values, fronts) and how it bounds the ones between is its own; the
// pruner keeps the queue and the shrinking common to all:
//
// - moving a threshold past k rows changes a side's misclassifications by at most k: when
//   a neighbour is worse than needed by k, the thresholds within k rows of it are skipped
//   (shrink_from_left / shrink_from_right);
// - a side with no error at a threshold stays error-free past it (ConTree's zero
//   indices): clip drops the thresholds beyond.
#pragma once

#include <utility>

#include "ordered_budget.hpp"

namespace dagger::ordered {

struct Interval {
    i64 lo, hi;  // the thresholds still to visit, inclusive
    i64 ln, rn;  // the evaluated neighbours (-1: none)
};

// Lower bounds of the sides of the threshold after p (pos, p: in what a bound moves) in the
// interval I from its evaluated neighbours' values L, R (best's, or without a minimum leaf
// size, relaxed: best's ev.L1, R1, front2_ordered's r1L, r1R):
// each side is its containing neighbour's side less the rows between, each of which moves
// a value by at most one (its weight, times the largest price), when `containing`
// (Table::containing); and, when a side's value only grows as it takes rows (monotone), at
// least its contained neighbour's.
inline std::pair<i64, i64> side_bounds(const vec<i64> &L, const vec<i64> &R, const Interval &I,
                                       const i64 *pos, i64 p, bool monotone, bool containing) {
    i64 l = 0, r = 0;
    if (I.ln >= 0) {
        if (monotone) l = L[I.ln];
        if (containing) r = std::max<i64>(r, R[I.ln] - (p - pos[I.ln]));
    }
    if (I.rn >= 0) {
        if (monotone) r = std::max(r, R[I.rn]);
        if (containing) l = std::max<i64>(l, L[I.rn] - (pos[I.rn] - p));
    }
    return {l, r};
}

class IntervalPruner {
    vec<Interval> queue_;
    std::size_t head_ = 0;
    const i64 *pos_;
    i64 hint_;
    bool first_ = true;

public:
    // The thresholds lo..hi (default: all K) at positions pos[0..K), searched from `hint`
    // outwards (from the middle when the hint is not among them).
    IntervalPruner(const i64 *pos, i64 K, i64 hint, i64 lo = 0, i64 hi = -1)
        : pos_(pos), hint_(hint) {
        if (hi < 0) hi = K - 1;
        queue_.reserve(static_cast<std::size_t>(2 * (hi - lo + 1) + 2));
        if (lo <= hi) queue_.push_back({lo, hi, -1, -1});
    }

    bool empty() const { return head_ == queue_.size(); }
    // How far apart thresholds a < b are (in what a bound moves).
    i64 gap(i64 a, i64 b) const { return pos_[b] - pos_[a]; }
    Interval pop() { return queue_[head_++]; }

    // Skip the thresholds within k rows of the left neighbour (after it).
    void shrink_from_left(Interval &iv, i64 k) const {
        while (iv.lo <= iv.hi && pos_[iv.lo] - pos_[iv.ln] <= k) ++iv.lo;
    }
    // Skip the thresholds within k rows of the right neighbour (before it).
    void shrink_from_right(Interval &iv, i64 k) const {
        while (iv.lo <= iv.hi && pos_[iv.rn] - pos_[iv.hi] <= k) --iv.hi;
    }
    // Keep the thresholds strictly between zlo and zhi.
    static void clip(Interval &iv, i64 zlo, i64 zhi) {
        iv.lo = std::max(iv.lo, zlo + 1);
        iv.hi = std::min(iv.hi, zhi - 1);
    }

    // The threshold to evaluate in iv: the hint until one is evaluated, when it is in iv;
    // else the middle.
    i64 want(const Interval &iv) const {
        return first_ && iv.lo <= hint_ && hint_ <= iv.hi ? hint_ : (iv.lo + iv.hi) / 2;
    }
    // A threshold was evaluated (from now on, the middles).
    void evaluated() { first_ = false; }

    // Queue the halves of iv on either side of the evaluated threshold mid.
    void split(const Interval &iv, i64 mid) {
        if (iv.lo <= mid - 1) queue_.push_back({iv.lo, mid - 1, iv.ln, mid});
        if (mid + 1 <= iv.hi) queue_.push_back({mid + 1, iv.hi, mid, iv.rn});
    }
};

}  // namespace dagger::ordered
