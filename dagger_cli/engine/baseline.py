"""The plain engines: a memoised recursion over row sets.

``baseline`` is the straightforward, obviously correct algorithm: the DAG Δ(T) is the
set of distinct row sets reached by splitting on non-constant attributes, and every
node's Pareto front is built from its children's with numpy (all combinations, then a
Pareto filter). It is slow (Python work per subtable and attribute) and serves as the
oracle of the fast engine.

``paper`` is the algorithm of section 4 of the paper on the same recursion: a dense
function F_Θ over B_Λ = {0, ..., mN} per node, each bundle's F computed by the layered
min-plus DAG δ(Θ, f_i) (a chain of min-plus convolutions), valid for the pair
(total path length, misclassifications) only. Its cost grows with (mN)² per edge, so
it refuses large tables.
"""

from __future__ import annotations

import sys

import numpy as np

from ..costs import MAX, Cost
from ..errors import InputError, LimitError
from ..fronts import pareto

#: The paper engine refuses tables whose B_Λ has more points than this.
PAPER_MAX_LAMBDA = 2000


class _Walker:
    """Memoised recursion over (row set, remaining depth) shared by the plain engines.

    The remaining depth ``r`` is None without a depth cap; at ``r == 0`` a subtable gets
    its leaf only, and its children are solved with ``r - 1``. DAG statistics count each
    row set once: a row set is expanded (bundles, edges) if some visit could split it."""

    def __init__(self, table, max_subtables=None) -> None:
        self.codes = table.codes
        self.dec = table.decisions
        self.n_dec = len(table.decision_values)
        self.memo: dict[tuple, object] = {}
        self.expanded: dict[bytes, bool] = {}  # row set -> bundles counted
        self.bundles = 0
        self.edges = 0
        self.max_subtables = max_subtables
        self.weighting = getattr(table, "weighting", None)

    def leaf_stats(self, rows):
        counts = np.bincount(self.dec[rows], minlength=self.n_dec)
        return int(rows.size - counts.max())

    def weight(self, rows) -> tuple[int, int | None]:
        """The ``n`` and ``mis`` of the costs: rows and misclassified rows, or with
        weighted rows their weight and the least price of a leaf."""
        w = self.weighting
        if w is None:
            return int(rows.size), self.leaf_stats(rows)
        n = int(w.rows[rows].sum())
        if w.too_small(rows.size):
            return n, None  # no leaf: fewer rows than the minimum leaf size
        return n, w.leaf(w.class_totals(self.dec, rows, self.n_dec))[1]

    def splittable(self, rows):
        """Some attribute is not constant on the rows."""
        block = self.codes[:, rows]
        return bool((block != block[:, :1]).any())

    def solve(self, rows, r=None):
        rows_key = rows.tobytes()
        key = (rows_key, r)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        if rows_key not in self.expanded:
            if self.max_subtables is not None and len(self.expanded) >= self.max_subtables:
                raise LimitError(
                    f"more than {self.max_subtables} subtables; raise --max-subtables or use a "
                    "smaller table"
                )
            self.expanded[rows_key] = False
        mis = self.leaf_stats(rows)
        splits = []
        if mis > 0 and r != 0:
            count = not self.expanded[rows_key]
            for a in range(self.codes.shape[0]):
                vals = self.codes[a, rows]
                if (vals == vals[0]).all():
                    continue
                self.bundles += count
                children = []
                for v in np.unique(vals):
                    children.append(self.solve(rows[vals == v], None if r is None else r - 1))
                    self.edges += count
                splits.append(children)
            self.expanded[rows_key] = bool(splits)
        split = bool(splits) if r != 0 else mis > 0 and self.splittable(rows)
        n, cost = self.weight(rows)
        result = self.node_value(n, cost, splits, split, mis, rows)
        self.memo[key] = result
        return result

    @property
    def terminal(self) -> int:
        return sum(not e for e in self.expanded.values())

    def node_value(self, n, mis, splits, split, impure, rows):  # pragma: no cover - abstract
        raise NotImplementedError


class _ParetoWalker(_Walker):
    def __init__(self, table, x: Cost, y: Cost, max_subtables=None, exact_only=False):
        super().__init__(table, max_subtables)
        self.cx, self.cy = x, y
        self.exact_only = exact_only

    @staticmethod
    def _combine(cost, a, b):
        if cost.combine == MAX:
            return np.maximum(a[:, None], b[None, :]).ravel()
        return (a[:, None] + b[None, :]).ravel()

    def node_value(self, n, mis, splits, split, impure, rows):
        cx, cy = self.cx, self.cy
        xs, ys = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
        if mis is not None and (cx.reads_decision or cy.reads_decision):
            # A leaf with a choice of two decisions: both its points.
            w = self.weighting
            totals = w.class_totals(self.dec, rows, self.n_dec)[None, :]
            _, lm, fp, fn = w.decision_leaves(totals)
            for c, out in ((cx, xs), (cy, ys)):
                out.append(
                    c.leaf_const + c.leaf_mis * lm[0] + c.leaf_fp * fp[0] + c.leaf_fn * fn[0]
                )
        elif mis is not None and (not self.exact_only or impure == 0 or not split):
            xs.append(np.array([cx.leaf_const + cx.leaf_mis * mis], dtype=np.int64))
            ys.append(np.array([cy.leaf_const + cy.leaf_mis * mis], dtype=np.int64))
        for children in splits:
            ax = np.zeros(1, dtype=np.int64)
            ay = np.zeros(1, dtype=np.int64)
            for fx, fy in children:
                bx = self._combine(cx, ax, fx)
                by = self._combine(cy, ay, fy)
                keep = pareto(bx, by)
                ax, ay = bx[keep], by[keep]
            xs.append(ax + cx.split_const + cx.split_rows * n)
            ys.append(ay + cy.split_const + cy.split_rows * n)
        x = np.concatenate(xs)
        y = np.concatenate(ys)
        keep = pareto(x, y)
        return x[keep], y[keep]


class _PaperWalker(_Walker):
    """Dense F_Θ over B_Λ = {0..mN}: F[n] = least µ among trees with Λ <= n."""

    def __init__(self, table, max_subtables=None) -> None:
        if getattr(table, "weighting", None) is not None:
            raise InputError(
                "the paper engine counts rows, not weights; weighted rows and prices need "
                "the fast or baseline engine"
            )
        super().__init__(table, max_subtables)
        self.size = table.codes.shape[0] * table.codes.shape[1] + 1

    def _min_plus(self, f, g):
        # One layer of δ(Θ, f_i): h(n) = min over n1 + n2 <= n of f(n1) + g(n2); with f, g
        # non-increasing this equals the min over n1 + n2 = n, truncated to B_Λ.
        size = self.size
        h = np.full(size, np.iinfo(np.int64).max // 4, dtype=np.int64)
        for k in range(size):
            np.minimum(h[k:], f[k] + g[: size - k], out=h[k:])
        return h

    def node_value(self, n, mis, splits, split, impure, rows):
        f = np.full(self.size, mis, dtype=np.int64)
        for children in splits:
            acc = children[0]
            for g in children[1:]:
                acc = self._min_plus(acc, g)
            # F^{f_i}(n) = acc(n - N(Θ)) for n >= N(Θ); below N(Θ) only the leaf exists.
            shifted = np.full(self.size, np.iinfo(np.int64).max // 4, dtype=np.int64)
            if n < self.size:
                shifted[n:] = acc[: self.size - n]
            np.minimum(f, shifted, out=f)
        return f


def baseline_front(table, x: Cost, y: Cost, max_subtables=None, exact_only=False, max_depth=None):
    """Front and DAG statistics by the plain recursion, over the trees of depth at most
    ``max_depth`` if given. Returns (xs, ys, stats dict)."""
    walker = _ParetoWalker(table, x, y, max_subtables, exact_only)
    rows = np.arange(table.n_rows, dtype=np.int32)
    with _deep_recursion(table.n_attributes):
        fx, fy = walker.solve(rows, max_depth)
    return fx, fy, _stats(walker)


def paper_front(table, max_subtables=None):
    """Front of (total path length, misclassifications) by the paper's dense algorithm."""
    size = table.n_attributes * table.n_rows + 1
    if size > PAPER_MAX_LAMBDA + 1:
        raise LimitError(
            f"the paper engine works on dense functions over B_Λ = {{0, ..., mN}} with mN = "
            f"{size - 1} > {PAPER_MAX_LAMBDA}; it would take too long. Use --engine fast "
            "(exact, same result) for this table."
        )
    walker = _PaperWalker(table, max_subtables)
    rows = np.arange(table.n_rows, dtype=np.int32)
    with _deep_recursion(table.n_attributes):
        f = walker.solve(rows)
    # Pareto points of F: the n where F drops (Proposition 3 read backwards).
    n = np.arange(size, dtype=np.int64)
    drop = np.concatenate(([True], f[1:] < f[:-1]))
    return n[drop], f[drop], _stats(walker)


def _stats(walker):
    return {
        "subtables": len(walker.expanded),
        "terminal": walker.terminal,
        "bundles": walker.bundles,
        "edges": walker.edges,
        "subproblems": len(walker.memo),
    }


class _deep_recursion:
    """Recursion depth is at most the number of attributes; make room for it."""

    def __init__(self, m):
        self.need = 4 * m + 200

    def __enter__(self):
        self.old = sys.getrecursionlimit()
        if self.need > self.old:
            sys.setrecursionlimit(self.need)

    def __exit__(self, *exc):
        sys.setrecursionlimit(self.old)
