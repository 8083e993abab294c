"""What the engine computes: the DAG Δ(T) (:class:`Dag`), its size (:class:`DagStats`),
every subproblem's Pareto front (:class:`FrontStore`) and the result of a query
(:class:`Relation`).

Plain containers of flat numpy arrays, built by the driver (:mod:`dagger_cli.engine.dag`)
and by the solvers of :mod:`dagger_cli.engine.registry`, read by tree extraction
(:mod:`dagger_cli.trees`) and counting (:mod:`dagger_cli.engine.counting`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..fronts import Front


@dataclass(frozen=True)
class DagStats:
    """Size of the DAG Δ(T): separable subtables (nodes), terminal nodes (no bundle),
    bundles (one per non-constant attribute of a non-terminal node) and edges.

    Under a depth cap D (``max_depth``) only what is reachable within D splits is built:
    a subtable at depth D is terminal (its leaf only); ``subproblems`` counts the
    (subtable, remaining depth) pairs whose fronts were computed (uncapped: one per
    subtable)."""

    subtables: int
    terminal: int
    bundles: int
    edges: int
    subproblems: int
    max_depth: int | None = None
    #: subproblems solved by the depth-two layer (from class counts, no subtables built)
    depth_two: int | None = None
    #: which DAG answered when it is not built from the table's rows (:attr:`Dag.route`)
    route: str | None = None

    def as_dict(self) -> dict:
        out: dict[str, int | str] = {
            "subtables": self.subtables,
            "terminal": self.terminal,
            "bundles": self.bundles,
            "edges": self.edges,
            "subproblems": self.subproblems,
        }
        if self.max_depth is not None:
            out["max_depth"] = self.max_depth
        if self.depth_two is not None:
            out["depth_two"] = self.depth_two
        if self.route is not None:
            out["route"] = self.route
        return out


@dataclass(frozen=True)
class OrderedStats:
    """What the ordered solver did (:mod:`dagger_cli.engine.ordered`): subtables solved
    at remaining depth >= 2, splits evaluated, and splits skipped by its bounds."""

    subtables: int
    splits: int
    pruned: int
    max_depth: int | None = None
    terminal: int = 0
    edges: int = 0
    depth_two: int | None = None

    @property
    def bundles(self) -> int:
        return self.splits

    @property
    def subproblems(self) -> int:
        return self.subtables

    def as_dict(self) -> dict:
        return {
            "solver": "ordered",
            "subtables": self.subtables,
            "splits": self.splits,
            "pruned": self.pruned,
            "max_depth": self.max_depth,
        }

    def text(self) -> str:
        return (
            f"ordered solver: {self.subtables:,} subtables solved at remaining depth >= 2, "
            f"{self.splits:,} splits evaluated, {self.pruned:,} skipped by bounds"
        )


@dataclass(eq=False)
class Dag:
    """The DAG Δ(T) as flat arrays (CSR), node 0 being the whole table.

    Node ``i`` has rows ``row_pool[node_start[i]:node_start[i] + node_size[i]]``, most
    common decision ``node_major[i]``, ``node_mis[i]`` rows of other decisions, and
    bundles ``node_bundle_start[i]:node_bundle_start[i + 1]``; bundle ``b`` splits on
    attribute ``bundle_attr[b]`` into the children
    ``edge_child[bundle_edge_start[b]:bundle_edge_start[b + 1]]`` (value order).
    ``node_split[i]`` is 1 if some attribute splits an impure node (its rows are not all
    equal), ``node_level[i]`` its least depth in a tree (breadth-first discovery) and
    ``node_attr_len[i]`` its number of candidate attributes (a bound on its subtrees'
    depth). Under a depth cap ``max_depth`` nodes of that level have no bundles.

    With the depth-two layer (``d2_level`` = D - 2, ``table_arrays`` the table as the
    kernels read it) nodes of level D - 2 are not expanded either: their fronts at
    remaining depth 1 and 2 come from class counts over their rows
    (:func:`dagger_cli.engine.kernels.depth_two.d2_fronts`), so the two last levels are never built.
    """

    node_start: np.ndarray
    node_size: np.ndarray
    node_mis: np.ndarray
    node_major: np.ndarray
    node_split: np.ndarray
    node_level: np.ndarray
    node_attr_len: np.ndarray
    node_bundle_start: np.ndarray
    row_pool: np.ndarray
    bundle_attr: np.ndarray
    bundle_edge_start: np.ndarray
    edge_child: np.ndarray
    terminal: int
    n_attributes: int
    max_depth: int | None = None
    d2_level: int | None = None
    table_arrays: object = None
    #: the bounds discovery applied (:func:`dagger_cli.engine.dag._limits`; None: none)
    limits: np.ndarray | None = None
    #: per node its rows' weight (int32, :mod:`dagger_cli.weights`) when the table's rows
    #: are weighted or priced; then ``node_mis`` is its leaf's least price and
    #: ``node_major`` that leaf's decision. None: unweighted (see :attr:`weights`).
    node_weight: np.ndarray | None = None
    #: a leaf with a choice of two decisions (a cost pair with false positives or
    #: negatives): per node its two points ``x0 y0 x1 y1`` (int64, flat) and the two
    #: decisions (``leaf_dec``, nodes x 2, code order); empty and None otherwise
    #: (:meth:`decide`)
    leaf_xy: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    leaf_dec: np.ndarray | None = None
    #: per node its classes' weights (nodes x classes), kept when the table has a positive
    #: class (:meth:`weigh`, read by :meth:`decide`)
    class_totals: np.ndarray | None = None
    #: how the depth-two layer's leaves read weighted rows
    #: (:func:`dagger_cli.engine.kernels.depth_two.weighted_leaves`; None: the plain counts)
    d2_leaves: Any = None

    def decide(self, table, cx, cy) -> None:
        """Set the leaves' two points for the pair ``cx``, ``cy`` when one of them reads
        the leaf's decision (against the table's positive class), else clear them."""
        if not (cx.reads_decision or cy.reads_decision):
            self.leaf_xy = np.zeros(0, dtype=np.int64)
            self.leaf_dec = None
            return
        dec, mis, fp, fn = self.leaf_choices(table)

        def leaf(c):
            return c.leaf_const + c.leaf_mis * mis + c.leaf_fp * fp + c.leaf_fn * fn

        lx, ly = leaf(cx), leaf(cy)
        self.leaf_xy = np.ascontiguousarray(
            np.stack([lx[:, 0], ly[:, 0], lx[:, 1], ly[:, 1]], axis=1).ravel(), dtype=np.int64
        )
        self.leaf_dec = dec

    def leaf_choices(self, table) -> tuple[np.ndarray, ...]:
        """Per node the two decisions its leaf may take against the table's positive class
        and, for each, its misclassifications (least price), false positives and false
        negatives (:meth:`dagger_cli.weights.Weighting.decision_leaves`; nodes x 2 each);
        a leaf of fewer rows than the minimum leaf size costs
        :attr:`~dagger_cli.weights.Weighting.infeasible` in all three, either way, as
        ``node_mis`` has it."""
        assert self.class_totals is not None, "a table with a positive class is weighed"
        w = table.weighting
        dec, mis, fp, fn = w.decision_leaves(self.class_totals)
        if w.min_leaf > 1:
            small = w.too_small(self.node_size)[:, None]
            mis, fp, fn = (np.where(small, w.infeasible, v) for v in (mis, fp, fn))
        return dec, mis, fp, fn

    @property
    def weights(self) -> np.ndarray:
        """Per node the ``n`` of the split costs: its rows' weight, or its rows."""
        return self.node_size if self.node_weight is None else self.node_weight

    def weigh(self, table) -> None:
        """Give the nodes the weights and leaf prices of ``table.weighting`` (in place;
        nothing when the table is unweighted)."""
        w = getattr(table, "weighting", None)
        if w is None:
            return
        totals = w.node_totals(
            table.decisions,
            self.row_pool,
            self.node_start,
            self.node_size,
            len(table.decision_values),
        )
        self.node_weight, self.node_mis, self.node_major = w.terms(totals, self.node_size)
        if self.d2_level is not None:
            from .kernels.depth_two import weighted_leaves

            self.d2_leaves = weighted_leaves(w, table.decisions, len(table.decision_values))
        # Kept for the leaves' choice of decisions (Dag.decide) only: one pass over the rows.
        self.class_totals = totals if w.positive is not None else None

    def is_d2(self, node: int) -> bool:
        """Whether ``node``'s fronts at remaining depth >= 1 come from the depth-two layer."""
        return self.d2_level is not None and int(self.node_level[node]) == self.d2_level

    @property
    def stats(self) -> DagStats:
        return DagStats(
            int(self.node_size.size),
            int(self.terminal),
            int(self.bundle_attr.size),
            int(self.edge_child.size),
            int(self.node_size.size),
            self.max_depth,
            route=self.route,
        )

    def subproblem_counts(self) -> np.ndarray:
        """Per node, how many (node, remaining depth r) subproblems its front needs:
        r = 0 .. R with R = D - level, at most its candidate attributes (no subtree is
        deeper), 0 for a node without bundles (its leaf is its only tree)."""
        if self.max_depth is None:
            return np.ones(self.node_size.size, dtype=np.int64)
        top = np.minimum(self.max_depth - self.node_level.astype(np.int64), self.node_attr_len)
        has = self.node_bundle_start[1:] > self.node_bundle_start[:-1]
        if self.d2_level is not None:
            # Not expanded, but split by the depth-two layer when some attribute splits them.
            d2 = self.node_level == self.d2_level
            has = has | (d2 & (self.node_mis > 0) & (self.node_split > 0) & self._splittable())
        return np.where(has, np.maximum(top, 0), 0).astype(np.int64) + 1

    def _splittable(self) -> np.ndarray:
        """Per node, whether a tree within the bounds ``limits`` can split it."""
        if self.limits is None:
            return np.ones(self.node_size.size, dtype=bool)
        from .kernels.fronts import splittable

        return splittable(self.node_level, self.node_size, self.limits)

    def rows(self, node: int) -> np.ndarray:
        s = self.node_start[node]
        return self.row_pool[s : s + self.node_size[node]]

    @property
    def route(self) -> str | None:
        """Which DAG answered, in words, when it is not built from the table's rows (see
        :class:`dagger_cli.engine.posets.PosetDag`); None: the DAG of its subtables."""
        return None

    def tree_refusal(self, table) -> str | None:
        """Why no tree of ``table`` is extracted on this DAG (None: one is)."""
        return None

    def mapped(self, table, root):
        """A tree extracted on this DAG (its root :class:`dagger_cli.trees.TreeNode`) as a
        tree of ``table``: itself here; a DAG whose nodes stand for classes of subtables
        maps it back."""
        return root

    def bundles(self, node: int) -> range:
        return range(int(self.node_bundle_start[node]), int(self.node_bundle_start[node + 1]))

    def children(self, bundle: int) -> np.ndarray:
        return self.edge_child[self.bundle_edge_start[bundle] : self.bundle_edge_start[bundle + 1]]

    def nbytes(self) -> int:
        return sum(
            a.nbytes
            for a in (
                self.node_start,
                self.node_size,
                self.node_mis,
                self.node_major,
                self.node_split,
                self.node_level,
                self.node_attr_len,
                self.node_bundle_start,
                self.row_pool,
                self.bundle_attr,
                self.bundle_edge_start,
                self.edge_child,
            )
        )


@dataclass(eq=False)
class FrontStore:
    """Every subproblem's Pareto front: points ``fref[s, 0]:fref[s, 0] + fref[s, 1]`` of
    ``fxy`` (one (x, y) row per point); ``fch`` is the local bundle index that made the
    point (-1: leaf; for a depth-two subproblem, the split attribute's column).
    Uncapped, subproblem ``s`` is node ``s``; under a depth cap node ``i``'s subproblems
    are ``sub_start[i] + r``, r = 0 .. its count - 1 (remaining depth r; the top one
    stands for any larger r)."""

    fref: np.ndarray
    fxy: np.ndarray
    fch: np.ndarray
    sub_start: np.ndarray | None = None
    #: how many subproblems the depth-two layer solved (None: not used)
    depth_two: int | None = None

    def subproblem(self, node: int, r: int | None = None) -> int:
        """The subproblem of ``node`` with remaining depth ``r`` (None: the largest)."""
        if self.sub_start is None:
            return node
        s0, s1 = int(self.sub_start[node]), int(self.sub_start[node + 1])
        return s1 - 1 if r is None else s0 + min(r, s1 - s0 - 1)

    def subproblem_depth(self, node: int) -> int | None:
        """The remaining depth of ``node``'s top subproblem (None uncapped)."""
        if self.sub_start is None:
            return None
        return int(self.sub_start[node + 1] - self.sub_start[node]) - 1

    def front(self, node: int, r: int | None = None):
        """x, y and bundle index of the points of ``node``'s front at remaining depth
        ``r`` (None: the largest it has)."""
        sub = self.subproblem(node, r)
        s = self.fref[sub, 0]
        e = s + self.fref[sub, 1]
        return self.fxy[s:e, 0], self.fxy[s:e, 1], self.fch[s:e]


@dataclass(eq=False)
class Relation:
    """Result of :func:`dagger_cli.engine.relate` (and of every solver of
    :mod:`dagger_cli.engine.registry`)."""

    table: object
    front: Front
    stats: DagStats | OrderedStats | None
    engine: str
    seconds: float
    dag: Dag | None = None
    store: FrontStore | None = None
    max_depth: int | None = None
    #: the tree behind the point (x, y) of ``front``, for solvers without a DAG (the
    #: ordered solver, whose :meth:`~dagger_cli.engine.registry.Solver.tree` calls it)
    extractor: Callable[[int, int], Any] | None = None
    #: the :class:`~dagger_cli.engine.query.Query` it answers (set by
    #: :func:`dagger_cli.engine.api.solve`)
    query: Any = None
    #: the :class:`~dagger_cli.engine.registry.Solver` that computed it:
    #: :func:`dagger_cli.trees.extract_tree` asks it for the tree behind a point
    solver: Any = None
    #: ``"exact"``: the front is the exact one; ``"time_limit"`` or ``"interrupted"``: the
    #: best front found in time (:mod:`dagger_cli.engine.anytime`), whose points are real
    #: trees, ``proven`` saying which of them are on the exact front and ``bound`` below it
    status: str = "exact"
    #: per point of ``front``, whether no tree dominates it (None: every point)
    proven: np.ndarray | None = None
    #: ``(x, y)``, a staircase no tree is below: every tree has a point of it at or below its
    #: costs (None: the front itself, exact)
    bound: tuple | None = None

    def _repr_html_(self) -> str:
        """The relation in a notebook: its table, its front (staircase and table) and, for
        an answer found within a time limit, what is proven."""
        from html import escape

        from ..notebook import front_html
        from ..output import anytime_lines
        from ..text import table_line

        cap = "" if self.max_depth is None else f" over the trees of depth <= {self.max_depth}"
        notes = "".join(f"<p>{escape(line)}</p>" for line in anytime_lines(self))
        head = f"<p><b>{escape(table_line(self.table))}</b>{escape(cap)}</p>"
        return f"<div>{head}{front_html(self.front)}{notes}</div>"

    @property
    def keeps_trees(self) -> bool:
        """Whether the tree behind each point can be found (:func:`dagger_cli.extract_tree`)."""
        if self.solver is not None:
            return bool(self.solver.trees)
        return self.dag is not None and self.store is not None
