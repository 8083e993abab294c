// The bounds on the costs (max_x, max_y, least_y) inside the kernels.
//
// A subproblem of n rows at least depth lvl may cost at most an allowance (allowance) for a
// tree through it to stay within a bound; discovery leaves unexpanded the subtables no tree
// within the bounds splits (expands), the fronts kernel drops a bundle's partial points
// that cannot reach the node's front (prune, dominated) and the depth-two layer trims its
// fronts to the allowances (trim).
//
// `limits` (8 values) is, per cost x then y: its bound (INF: none), split_const,
// split_rows, leaf_const (dagger_cli.engine.dag._limits). `params` is the cost pair's
// parameter vector of the fronts kernels: x's (combine, leaf_const, leaf_mis, split_const,
// split_rows) at 0..4, y's at 5..9, exact_only at 10, max_x 11, max_y 12, least_y 13.
#pragma once

#include "common.hpp"

namespace dagger {

// The most a subproblem of n rows whose least depth is lvl may cost for a tree through it
// to cost at most `limit` (INF: unbounded): each of its lvl ancestors is a split of more
// rows, adding at least sc + sr * n.
inline i64 allowance(i64 limit, i64 lvl, i64 sc, i64 sr, i64 n) {
    if (limit == INF) return INF;
    return limit - lvl * (sc + sr * n);
}

// Whether a node of least depth `level` and n rows is expanded: below the depth cap and
// splittable within the bounds `limits`. Its own split and each of its `level` ancestors'
// add at least split_const + split_rows * n, and below it every tree costs at least
// leaf_const.
inline bool expands(i64 level, i64 n, i64 max_level, const i64 *limits) {
    if (level >= max_level) return false;
    for (int o = 0; o < 8; o += 4) {
        // Its split is at depth `level`: level + 1 splits of at least n rows.
        if (allowance(limits[o], level + 1, limits[o + 1], limits[o + 2], n) < limits[o + 3])
            return false;
    }
    return true;
}

// Whether a point of the Pareto set ox, oy[:no] (x ascending) is <= (qx, qy) in both
// costs.
inline bool dominated(i64 qx, i64 qy, const i64 *ox, const i64 *oy, i64 no) {
    i64 j = 0;
    while (j < no && ox[j] <= qx) ++j;
    return j > 0 && oy[j - 1] <= qy;
}

// Keep (in place) the points of a bundle's partial front ax, ay[:na] (x ascending) whose
// best completion (the remaining children at their least x and least y: restx, resty) can
// still be on the node's front: within the allowances xs, ys and not dominated by the
// node's front so far ox, oy[:no]. Returns how many are kept. (A dropped point's every
// completion is dominated by, or equal to, a point listed before it, which wins the tie:
// the front and its tags are unchanged.)
inline i64 prune(i64 *ax, i64 *ay, i64 na, i64 k, i64 restx, i64 k2, i64 resty, i64 addx,
                 i64 addy, i64 xs, i64 ys, const i64 *ox, const i64 *oy, i64 no) {
    i64 w = 0, j = 0;
    for (i64 q = 0; q < na; ++q) {
        const i64 lx = comb(k, ax[q], restx) + addx;
        const i64 ly = comb(k2, ay[q], resty) + addy;
        // The bounds' x never decreases with q: the last front point with x <= lx is found
        // by a pointer moving one way.
        while (j < no && ox[j] <= lx) ++j;
        if (lx <= xs && ly <= ys && !(j > 0 && oy[j - 1] <= ly)) {
            ax[w] = ax[q];
            ay[w] = ay[q];
            ++w;
        }
    }
    return w;
}

// Keep (in place) the points of a front ox, oy, oc[:cnt] (x ascending, y descending) that
// the bounds of the fronts kernel keep: x and y within the subproblem's allowances (a run
// of consecutive points), only the last of them when params[13] asks for the least y.
// Returns how many are kept.
template <class C>
inline i64 trim(i64 *ox, i64 *oy, C *oc, i64 cnt, i64 n, i64 lvl, const i64 *params) {
    const i64 xs = allowance(params[11], lvl, params[3], params[4], n);
    const i64 ys = allowance(params[12], lvl, params[8], params[9], n);
    i64 hi = cnt;
    while (hi > 0 && ox[hi - 1] > xs) --hi;
    i64 lo = 0;
    while (lo < hi && oy[lo] > ys) ++lo;
    if (params[13] != 0 && hi > lo) lo = hi - 1;
    for (i64 k = lo; k < hi; ++k) {
        ox[k - lo] = ox[k];
        oy[k - lo] = oy[k];
        oc[k - lo] = oc[k];
    }
    return hi - lo;
}

}  // namespace dagger
