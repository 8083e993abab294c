"""The bounds on the costs (``max_x``, ``max_y``, ``least_y``) inside the kernels.

A subproblem of ``n`` rows at least depth ``lvl`` may cost at most an allowance
(:func:`_allowance`) for a tree through it to stay within a bound; discovery leaves
unexpanded the subtables no tree within the bounds splits (:func:`_expands`,
:func:`splittable`), the fronts kernel drops a bundle's partial points that cannot reach
the node's front (:func:`_prune`, :func:`_dominated`) and the depth-two layer trims its
fronts to the allowances (:func:`_trim`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .common import INF, NO_CAP, _comb


@njit(cache=True, inline="always")
def _expands(level, n, max_level, limits):
    """Whether a node of least depth ``level`` and ``n`` rows is expanded: below the
    depth cap and splittable within the bounds ``limits`` (x's bound, split_const,
    split_rows, leaf_const, then y's; INF: none). Its own split and each of its
    ``level`` ancestors' add at least ``split_const + split_rows * n``, and below it
    every tree costs at least ``leaf_const``."""
    if level >= max_level:
        return False
    for o in range(0, 8, 4):
        # Its split is at depth ``level``: ``level + 1`` splits of at least n rows.
        if _allowance(limits[o], level + 1, limits[o + 1], limits[o + 2], n) < limits[o + 3]:
            return False
    return True


@njit(cache=True)
def splittable(node_level, node_size, limits):
    """Per node, whether a tree within the bounds ``limits`` can split it (what
    discovery decides, :func:`_expands`, the depth cap aside)."""
    out = np.empty(node_level.size, dtype=np.bool_)
    for i in range(node_level.size):
        out[i] = _expands(node_level[i], node_size[i], NO_CAP, limits)
    return out


@njit(cache=True, inline="always")
def _allowance(limit, lvl, sc, sr, n):
    """The most a subproblem of ``n`` rows whose least depth is ``lvl`` may cost for a
    tree through it to cost at most ``limit`` (INF: unbounded): each of its ``lvl``
    ancestors is a split of more rows, adding at least ``sc + sr * n``."""
    if limit == INF:
        return INF
    return limit - lvl * (sc + sr * n)


@njit(cache=True, inline="always")
def _dominated(qx, qy, ox, oy, no):
    """Whether a point of the Pareto set ``ox, oy[:no]`` (x ascending) is <= ``(qx, qy)``
    in both costs."""
    j = 0
    while j < no and ox[j] <= qx:
        j += 1
    return j > 0 and oy[j - 1] <= qy


@njit(cache=True, inline="always")
def _prune(ax, ay, na, k, restx, k2, resty, addx, addy, xs, ys, ox, oy, no):
    """Keep (in place) the points of a bundle's partial front ``ax, ay[:na]`` (x
    ascending) whose best completion (the remaining children at their least x and least
    y: ``restx``, ``resty``) can still be on the node's front: within the allowances
    ``xs``, ``ys`` and not dominated by the node's front so far ``ox, oy[:no]``. Returns
    how many are kept. (A dropped point's every completion is dominated by, or equal to,
    a point listed before it, which wins the tie: the front and its tags are unchanged.)"""
    w = 0
    j = 0
    for q in range(na):
        lx = _comb(k, ax[q], restx) + addx
        ly = _comb(k2, ay[q], resty) + addy
        # The bounds' x never decreases with q: the last front point with x <= lx is found
        # by a pointer moving one way.
        while j < no and ox[j] <= lx:
            j += 1
        if lx <= xs and ly <= ys and not (j > 0 and oy[j - 1] <= ly):
            ax[w] = ax[q]
            ay[w] = ay[q]
            w += 1
    return w


@njit(cache=True, inline="always")
def _trim(ox, oy, oc, cnt, n, lvl, params):
    """Keep (in place) the points of a front ``ox, oy, oc[:cnt]`` (x ascending, y
    descending) that the bounds of :func:`_node_front` keep: x and y within the
    subproblem's allowances (a run of consecutive points), only the last of them when
    ``params[13]`` asks for the least y. Returns how many are kept."""
    xs = _allowance(params[11], lvl, params[3], params[4], n)
    ys = _allowance(params[12], lvl, params[8], params[9], n)
    hi = cnt
    while hi > 0 and ox[hi - 1] > xs:
        hi -= 1
    lo = 0
    while lo < hi and oy[lo] > ys:
        lo += 1
    if params[13] != 0 and hi > lo:
        lo = hi - 1
    for k in range(lo, hi):
        ox[k - lo] = ox[k]
        oy[k - lo] = oy[k]
        oc[k - lo] = oc[k]
    return hi - lo
