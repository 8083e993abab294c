"""Exact fronts of shallow trees (depth <= 3) over threshold attributes, by column sweeps.

The DAG engine is general: every split of every subtable is a bundle with its children
materialised. Over threshold attributes (:mod:`dagger_cli.data.thresholds`) that is wasteful at the
bottom of a depth-capped tree: breast cancer's 30 columns with 16 thresholds each give 480
attributes, and the subtables at depth 3 number millions. This module computes the same front
(the Pareto-optimal (x, misclassifications) over every tree of depth <= D, D <= 3) without
them, using what the engine cannot know: the attributes ``col<=t`` of one column are nested.

* Remaining depth 1: the trees are the leaf and the splits into two leaves; every split has
  the same x, so the front is the leaf and the split with the fewest errors, if it has fewer.
  For each column, the class counts of the rows per threshold interval (one pass over the
  rows) and a sweep over the thresholds give every split's errors.
* Remaining depth 2: for each column, rows are moved interval by interval from the ``>`` side
  to the ``<=`` side; the class counts per interval of every column are kept for the ``<=``
  side (the ``>`` side's are the total minus them), so each split's two depth-1 fronts cost a
  sweep over the counts, not over the rows.
* Remaining depth 3: every split of the subtable, each side's depth-2 front, combined.

Every front point keeps its provenance (the split and the two children's points that made
it; the first candidate in table order among equal points), so the tree behind a point is
read off along one path, recomputing only the fronts of the nodes on it.

A split is a candidate when it is an attribute of the table that is not constant on the
subtable; equal splits (thresholds with no row between them) give equal candidates, and only
the first is kept, which changes no front. Costs follow :mod:`dagger_cli.costs` (any x cost;
y is misclassifications). The front is exactly the engine's (``relate(table, max_depth=D)``),
which the tests check.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..costs import COSTS, MAX
from ..fronts import Front
from ..trees import Tree, TreeNode

#: Deepest cap this module handles; deeper caps go to the DAG engine.
MAX_DEPTH = 3


@njit(cache=True)
def _comb(a, b, is_max):
    if is_max:
        return a if a > b else b
    return a + b


@njit(cache=True)
def _sweep_best(cnt, less, sub, c, k, total, n, C, yes):
    """Fewest errors of a split of column ``c`` into two leaves from class counts per
    interval ``cnt[c, b, :]`` (minus ``less[c, b, :]`` if ``sub``: the other side's counts
    without building them); ``k`` thresholds; ``yes`` is scratch room for C counts.
    Returns (errors, threshold) or (-1, -1)."""
    best = -1
    arg = -1
    yes[:] = 0
    yes_n = 0
    for j in range(k):
        moved = 0
        for d in range(C):
            v = cnt[c, j, d] - less[c, j, d] if sub else cnt[c, j, d]
            yes[d] += v
            moved += v
        if moved == 0:
            continue  # the same split as the previous threshold
        yes_n += moved
        if yes_n == n:
            break
        my = 0
        mn = 0
        for d in range(C):
            if yes[d] > my:
                my = yes[d]
            if total[d] - yes[d] > mn:
                mn = total[d] - yes[d]
        e = (yes_n - my) + (n - yes_n - mn)
        if best < 0 or e < best:
            best = e
            arg = j
    return best, arg


@njit(cache=True)
def _counts(rows, bins, dec, m, kmax, C):
    cnt = np.zeros((m, kmax + 1, C), np.int64)
    for i in rows:
        d = dec[i]
        for c in range(m):
            cnt[c, bins[c, i], d] += 1
    return cnt


@njit(cache=True)
def _front1(cnt, less, sub, total, n, ks, C, px, scratch):
    """Depth-1 front from the counts: (leaf x, mis) and maybe (split x, errors);
    also the first attribute (column, threshold) reaching the split point."""
    leaf_x = px[1]
    big = 0
    for d in range(C):
        if total[d] > big:
            big = total[d]
    mis = n - big
    best = -1
    bc = -1
    bj = -1
    for c in range(ks.size):
        e, j = _sweep_best(cnt, less, sub, c, ks[c], total, n, C, scratch)
        if e >= 0 and (best < 0 or e < best):
            best = e
            bc = c
            bj = j
    split_x = px[3] + px[4] * n + _comb(leaf_x, leaf_x, px[0] == MAX)
    if best >= 0 and best < mis:
        return np.array([[leaf_x, mis], [split_x, best]], np.int64), bc, bj
    return np.array([[leaf_x, mis]], np.int64), -1, -1


@njit(cache=True)
def _pareto(cx, cy, k):
    """Indices of the Pareto-optimal candidates among the first k (x ascending, y strictly
    descending); among equal points the first candidate (generation order) is kept."""
    order = np.argsort(cx[:k] * (2**31) + cy[:k], kind="mergesort")  # stable: x, y, index
    keep = np.empty(k, np.int64)
    q = 0
    best = -1
    for t in range(k):
        i = order[t]
        if q == 0 or cy[i] < best:
            if q > 0 and cx[i] == cx[keep[q - 1]]:
                continue
            keep[q] = i
            best = cy[i]
            q += 1
    return keep[:q]


@njit(cache=True)
def _column(c, rows, bins, dec, ks, C, px, cnt_all, total, cx, cy, prov, off):
    """The depth-2 candidates of the splits of column ``c``, written from slot ``off`` on
    (4 slots per threshold; unused slots get x = -1)."""
    m = ks.size
    kmax = ks.max()
    n = rows.size
    k = ks[c]
    is_max = px[0] == MAX
    base = px[3] + px[4] * n
    for t in range(off, off + 4 * k):
        cx[t] = -1
    # rows sorted by their interval in column c (counting sort)
    start = np.zeros(k + 2, np.int64)
    for i in rows:
        start[bins[c, i] + 1] += 1
    for b in range(k + 1):
        start[b + 1] += start[b]
    fill = start.copy()
    order = np.empty(n, np.int64)
    for i in rows:
        b = bins[c, i]
        order[fill[b]] = i
        fill[b] += 1
    cnt_yes = np.zeros((m, kmax + 1, C), np.int64)
    tot_yes = np.zeros(C, np.int64)
    tot_no = np.zeros(C, np.int64)
    scratch = np.zeros(C, np.int64)
    yes_n = 0
    for j in range(k):
        lo = start[j]
        hi = start[j + 1]
        if hi == lo:
            continue  # the same split as the previous threshold
        for t in range(lo, hi):
            i = order[t]
            d = dec[i]
            tot_yes[d] += 1
            for c2 in range(m):
                cnt_yes[c2, bins[c2, i], d] += 1
        yes_n += hi - lo
        if yes_n == n:
            break
        for d in range(C):
            tot_no[d] = total[d] - tot_yes[d]
        fy, _, _ = _front1(cnt_yes, cnt_yes, False, tot_yes, yes_n, ks, C, px, scratch)
        fn, _, _ = _front1(cnt_all, cnt_yes, True, tot_no, n - yes_n, ks, C, px, scratch)
        q = off + 4 * j
        for a in range(fy.shape[0]):
            for b in range(fn.shape[0]):
                cx[q] = base + _comb(fy[a, 0], fn[b, 0], is_max)
                cy[q] = fy[a, 1] + fn[b, 1]
                prov[q, 0] = c
                prov[q, 1] = j
                prov[q, 2] = fy[a, 0]
                prov[q, 3] = fy[a, 1]
                prov[q, 4] = fn[b, 0]
                prov[q, 5] = fn[b, 1]
                q += 1


@njit(cache=True)
def _collect(cx, cy, prov, q):
    """The front of the used candidate slots (x >= 0), with its provenance."""
    used = np.flatnonzero(cx[:q] >= 0)
    ux = cx[used]
    uy = cy[used]
    keep = _pareto(ux, uy, used.size)
    out = np.empty((keep.size, 2), np.int64)
    for t in range(keep.size):
        out[t, 0] = ux[keep[t]]
        out[t, 1] = uy[keep[t]]
    return out, prov[used[keep]]


@njit(cache=True)
def _setup2(rows, bins, dec, ks, C, px):
    n = rows.size
    total = np.zeros(C, np.int64)
    for i in rows:
        total[dec[i]] += 1
    size = 1 + 4 * ks.sum()
    cx = np.full(size, -1, np.int64)
    cy = np.zeros(size, np.int64)
    prov = np.full((size, 6), -1, np.int64)
    cx[0] = px[1]
    cy[0] = n - total.max()
    offs = np.empty(ks.size, np.int64)
    o = 1
    for c in range(ks.size):
        offs[c] = o
        o += 4 * ks[c]
    cnt_all = _counts(rows, bins, dec, ks.size, ks.max(), C)
    return total, cx, cy, prov, offs, cnt_all


@njit(cache=True)
def _front2(rows, bins, dec, ks, C, px):
    """Depth-2 front of the subtable ``rows`` and, per point, its provenance
    (column, threshold, <= side's point, > side's point; -1s for the leaf)."""
    total, cx, cy, prov, offs, cnt_all = _setup2(rows, bins, dec, ks, C, px)
    if cy[0] > 0:
        for c in range(ks.size):
            _column(c, rows, bins, dec, ks, C, px, cnt_all, total, cx, cy, prov, offs[c])
    return _collect(cx, cy, prov, cx.size)


@njit(cache=True, parallel=True)
def _front2_par(rows, bins, dec, ks, C, px):
    """:func:`_front2` with the columns in parallel (same result), for the root only: from
    inside :func:`_front3` the many small parallel launches cost more than they save."""
    total, cx, cy, prov, offs, cnt_all = _setup2(rows, bins, dec, ks, C, px)
    if cy[0] > 0:
        for c in prange(ks.size):
            _column(c, rows, bins, dec, ks, C, px, cnt_all, total, cx, cy, prov, offs[c])
    return _collect(cx, cy, prov, cx.size)


@njit(cache=True)
def _split_fronts(s, sc, sj, rows, bins, dec, ks, C, px, fys, fns, ly, ln):
    """The depth-2 fronts of both sides of split ``s``, into ``fys``/``fns``."""
    c = sc[s]
    j = sj[s]
    ny = 0
    for i in rows:
        if bins[c, i] <= j:
            ny += 1
    yes = np.empty(ny, np.int64)
    no = np.empty(rows.size - ny, np.int64)
    a = 0
    b = 0
    for i in rows:
        if bins[c, i] <= j:
            yes[a] = i
            a += 1
        else:
            no[b] = i
            b += 1
    fy, _ = _front2(yes, bins, dec, ks, C, px)
    fn, _ = _front2(no, bins, dec, ks, C, px)
    ly[s] = fy.shape[0]
    ln[s] = fn.shape[0]
    for t in range(fy.shape[0]):
        fys[s, t, 0] = fy[t, 0]
        fys[s, t, 1] = fy[t, 1]
    for t in range(fn.shape[0]):
        fns[s, t, 0] = fn[t, 0]
        fns[s, t, 1] = fn[t, 1]


@njit(cache=True)
def _front3(rows, bins, dec, ks, C, px):
    """Depth-3 front of the subtable ``rows``, with provenance as in :func:`_front2`."""
    n = rows.size
    total = np.zeros(C, np.int64)
    for i in rows:
        total[dec[i]] += 1
    mis = n - total.max()
    # the distinct splits that are not constant here, in table order
    sc = np.empty(ks.sum(), np.int64)
    sj = np.empty(ks.sum(), np.int64)
    ns = 0
    if mis > 0:
        for c in range(ks.size):
            last = -1
            for j in range(ks[c]):
                ny = 0
                for i in rows:
                    if bins[c, i] <= j:
                        ny += 1
                if ny == 0 or ny == n or ny == last:
                    continue
                last = ny
                sc[ns] = c
                sj[ns] = j
                ns += 1
    width = n + 1  # a depth-2 front has at most mis + 1 <= n + 1 points
    fys = np.zeros((ns, width, 2), np.int64)
    fns = np.zeros((ns, width, 2), np.int64)
    ly = np.zeros(ns, np.int64)
    ln = np.zeros(ns, np.int64)
    for s in range(ns):
        _split_fronts(s, sc, sj, rows, bins, dec, ks, C, px, fys, fns, ly, ln)
    size = 1
    for s in range(ns):
        size += ly[s] * ln[s]
    cx = np.empty(size, np.int64)
    cy = np.empty(size, np.int64)
    prov = np.full((size, 6), -1, np.int64)
    cx[0] = px[1]
    cy[0] = mis
    q = 1
    is_max = px[0] == MAX
    base = px[3] + px[4] * n
    for s in range(ns):
        for a in range(ly[s]):
            for b in range(ln[s]):
                cx[q] = base + _comb(fys[s, a, 0], fns[s, b, 0], is_max)
                cy[q] = fys[s, a, 1] + fns[s, b, 1]
                prov[q, 0] = sc[s]
                prov[q, 1] = sj[s]
                prov[q, 2] = fys[s, a, 0]
                prov[q, 3] = fys[s, a, 1]
                prov[q, 4] = fns[s, b, 0]
                prov[q, 5] = fns[s, b, 1]
                q += 1
    return _collect(cx, cy, prov, q)


class ShallowSolver:
    """Fronts and trees of depth <= 3 over a table whose attributes are all thresholds.

    Parameters
    ----------
    table : DecisionTable
        Every attribute in ``table.splits`` (see :func:`applies`).
    x : str
        The x cost (y is misclassifications).
    """

    def __init__(self, table, x: str = "total-path-length"):
        self.table = table
        self.cx = COSTS[x]
        self.cy = COSTS["misclassifications"]
        self.px = np.array(self.cx.params(), dtype=np.int64)
        columns: list[str] = []
        self.attr = {}  # (column index, threshold index) -> attribute index
        thresholds: dict[str, list] = {}
        for a, name in enumerate(table.attributes):
            split = table.splits[name]
            if split.column not in thresholds:
                columns.append(split.column)
                thresholds[split.column] = []
            thresholds[split.column].append((split.threshold, a))
        m, n = len(columns), table.n_rows
        self.ks = np.array([len(thresholds[c]) for c in columns], dtype=np.int64)
        self.bins = np.zeros((m, n), dtype=np.int64)
        for c, col in enumerate(columns):
            ts = sorted(thresholds[col])
            if [a for _, a in ts] != sorted(a for _, a in ts):
                raise ValueError("threshold attributes out of order")  # a bug, not user input
            for j, (_, a) in enumerate(ts):
                self.attr[(c, j)] = a
                # row is in interval > j when it is not <= t_j (code 0 is "no")
                self.bins[c] += (table.codes[a] == 0).astype(np.int64)
        self.dec = np.ascontiguousarray(table.decisions, dtype=np.int64)
        self.C = len(table.decision_values)

    # ------------------------------------------------------------------ fronts
    def _split(self, rows, c, j):
        below = self.bins[c, rows] <= j
        return rows[below], rows[~below]

    def _front(self, rows, r):
        """(front (k, 2), provenance (k, 6) or None) of the subtable ``rows`` at remaining
        depth ``r``; provenance row: (column, threshold, <= point, > point), -1 for a leaf."""
        if r == 0:
            counts = np.bincount(self.dec[rows], minlength=self.C)
            return np.array([[self.cx.leaf_const, rows.size - counts.max()]], np.int64), None
        if r == 1:
            cnt = _counts(rows, self.bins, self.dec, self.ks.size, int(self.ks.max()), self.C)
            total = np.bincount(self.dec[rows], minlength=self.C).astype(np.int64)
            scratch = np.zeros(self.C, np.int64)
            f, c, j = _front1(cnt, cnt, False, total, rows.size, self.ks, self.C, self.px, scratch)
            prov = np.full((f.shape[0], 6), -1, np.int64)
            if f.shape[0] == 2:
                yes, no = self._split(rows, c, j)
                leaf = self.cx.leaf_const
                prov[1] = (c, j, leaf, self._mis(yes), leaf, self._mis(no))
            return f, prov
        kernel = _front2_par if r == 2 else _front3
        return kernel(rows, self.bins, self.dec, self.ks, self.C, self.px)

    def front(self, max_depth: int) -> Front:
        """The exact front over trees of depth <= ``max_depth`` (at most :data:`MAX_DEPTH`)."""
        if not 0 <= max_depth <= MAX_DEPTH:
            raise ValueError(f"the shallow solver handles depths 0..{MAX_DEPTH}")
        rows = np.arange(self.table.n_rows, dtype=np.int64)
        f, prov = self._front(rows, max_depth)
        self._root = (max_depth, f, prov)
        return Front(self.cx, self.cy, f[:, 0], f[:, 1], self.table.n_rows)

    # ------------------------------------------------------------------ trees
    def _node(self, rows, r, tx, ty, known=None) -> TreeNode:
        counts = np.bincount(self.dec[rows], minlength=self.C)
        decision = self.table.decision_values[int(np.argmax(counts))]
        node_counts = tuple(int(v) for v in counts)
        if r == 0 or (tx == self.cx.leaf_const and ty == rows.size - int(counts.max())):
            return TreeNode(node_counts, decision)
        f, prov = known if known is not None else self._front(rows, r)
        hit = np.flatnonzero((f[:, 0] == tx) & (f[:, 1] == ty))
        assert hit.size == 1, "extraction lost its way: the point is not on the front"
        c, j, yx, yy, nx, ny = (int(v) for v in prov[hit[0]])
        yes, no = self._split(rows, c, j)
        kids = (self._node(no, r - 1, nx, ny), self._node(yes, r - 1, yx, yy))
        from ..data.thresholds import NO, YES

        name = self.table.attributes[self.attr[(c, j)]]
        return TreeNode(node_counts, decision, name, ((NO, kids[0]), (YES, kids[1])))

    def _mis(self, rows) -> int:
        return rows.size - int(np.bincount(self.dec[rows], minlength=self.C).max())

    def tree(self, max_depth: int, point) -> Tree:
        """The tree behind ``point`` = (x, y) of the front over depth <= ``max_depth``."""
        rows = np.arange(self.table.n_rows, dtype=np.int64)
        root = getattr(self, "_root", None)
        known = root[1:] if root is not None and root[0] == max_depth else None
        node = self._node(rows, max_depth, int(point[0]), int(point[1]), known)
        return Tree.for_table(self.table, node)


def applies(table, max_depth) -> bool:
    """Whether :class:`ShallowSolver` computes this front: every attribute a threshold and a
    depth cap of at most :data:`MAX_DEPTH`."""
    return (
        max_depth is not None
        and 0 <= max_depth <= MAX_DEPTH
        and table.n_attributes > 0
        and all(a in table.splits for a in table.attributes)
    )


__all__ = ["MAX_DEPTH", "ShallowSolver", "applies"]
