"""Pareto fronts of two integer costs and the paper's functions F and G."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .costs import Cost


def pareto(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Indices of the Pareto-optimal points (least x, least y), x ascending.

    Among equal points the first one (lowest index) is kept, so callers control ties
    by the order in which they list candidates.

    >>> pareto(np.array([0, 4, 4, 5]), np.array([2, 0, 0, 0])).tolist()
    [0, 1]
    """
    x = np.asarray(x)
    y = np.asarray(y)
    if x.size == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort((np.arange(x.size), y, x))
    ys = y[order]
    best_before = np.minimum.accumulate(np.concatenate(([np.iinfo(np.int64).max], ys[:-1])))
    return order[ys < best_before]


@dataclass(frozen=True, eq=False)
class Front:
    """The Pareto-optimal points of cost ``x`` against cost ``y`` over all trees.

    ``x`` is ascending and ``y`` strictly descending. ``n_rows`` is the number of rows
    of the (prepared) table, used for the average depth.
    """

    x_cost: Cost
    y_cost: Cost
    x: np.ndarray
    y: np.ndarray
    n_rows: int
    #: The number of trees at each point (``relate(..., count=True)``), else None.
    counts: tuple | None = None
    #: Of the best front found within a time limit (:mod:`dagger_cli.engine.anytime`):
    #: whether each point is proven (on the exact front), and its gap (its y less the
    #: proven bound's at its x); None for an exact front.
    proven: tuple | None = None
    gaps: tuple | None = None

    def __post_init__(self):
        object.__setattr__(self, "x", np.asarray(self.x, dtype=np.int64))
        object.__setattr__(self, "y", np.asarray(self.y, dtype=np.int64))

    def __len__(self) -> int:
        return int(self.x.size)

    def points(self) -> list[tuple[int, int]]:
        return [(int(a), int(b)) for a, b in zip(self.x, self.y)]

    def least_y(self, x_max: int) -> int | None:
        """F: the least y among trees with x <= ``x_max`` (None if no tree qualifies)."""
        k = int(np.searchsorted(self.x, x_max, side="right")) - 1
        return None if k < 0 else int(self.y[k])

    def least_x(self, y_max: int) -> int | None:
        """G: the least x among trees with y <= ``y_max`` (None if no tree qualifies)."""
        # y is strictly descending: the first point with y <= y_max has the least x.
        k = int(np.searchsorted(-self.y, -y_max, side="left"))
        return None if k >= self.y.size else int(self.x[k])

    def point_for_y(self, y_max: int) -> int | None:
        """Index of the point that realises G(y_max)."""
        k = int(np.searchsorted(-self.y, -y_max, side="left"))
        return None if k >= self.y.size else k

    def point_for_x(self, x_max: int) -> int | None:
        """Index of the point that realises F(x_max)."""
        k = int(np.searchsorted(self.x, x_max, side="right")) - 1
        return None if k < 0 else k

    def restrict(self, x_max: int | None = None, y_max: int | None = None) -> Front:
        keep = np.ones(self.x.size, dtype=bool)
        if x_max is not None:
            keep &= self.x <= x_max
        if y_max is not None:
            keep &= self.y <= y_max
        mask = keep.tolist()

        def kept(values):
            return None if values is None else tuple(v for v, k in zip(values, mask) if k)

        return Front(
            self.x_cost,
            self.y_cost,
            self.x[keep],
            self.y[keep],
            self.n_rows,
            kept(self.counts),
            kept(self.proven),
            kept(self.gaps),
        )

    def _repr_html_(self) -> str:
        """The front in a notebook: its staircase and its table
        (:func:`dagger_cli.notebook.front_html`)."""
        from .notebook import front_html

        return front_html(self)

    def columns(self) -> list[str]:
        """Output columns: the two costs, each per-row mean (average_depth) next to its cost."""
        cols = []
        for c in (self.x_cost, self.y_cost):
            cols.append(c.column)
            if c.mean_column is not None:
                cols.append(c.mean_column)
        if self.counts is not None:
            cols.append("trees")
        if self.proven is not None:
            cols += ["proven", "gap"]
        return cols

    def records(self) -> list[dict]:
        """One dict per point with :meth:`columns` as keys (average depth as a float)."""
        out = []
        for k, (a, b) in enumerate(zip(self.x.tolist(), self.y.tolist())):
            rec = {}
            for c, v in ((self.x_cost, a), (self.y_cost, b)):
                rec[c.column] = v
                if c.mean_column is not None:
                    rec[c.mean_column] = v / self.n_rows
            if self.counts is not None:
                rec["trees"] = self.counts[k]
            if self.proven is not None and self.gaps is not None:
                rec["proven"] = bool(self.proven[k])
                rec["gap"] = int(self.gaps[k])
            out.append(rec)
        return out
