"""The solvers, by name: ``--engine NAME`` and ``Query(engine=NAME)`` run ``SOLVERS[NAME]``.

>>> ENGINES
('fast', 'baseline', 'paper', 'ordered')
>>> SOLVERS["paper"].pushes_bounds, SOLVERS["fast"].counts
(False, True)

A solver is a :class:`Solver`: it checks what it can answer (:meth:`Solver.validate`, when a
:class:`~dagger_cli.engine.query.Query` is made), routes a table to the solver that answers it
(:meth:`Solver.route`: the fast engine hands numeric columns kept whole to the ordered solver
under a depth cap, the others read their binary expansion), computes the front
(:meth:`Solver.solve`) and finds the tree behind a point (:meth:`Solver.tree`). What every
solver shares (the memory ceiling, its limit hints, counting, the bounds' final restriction)
is :func:`dagger_cli.engine.api.solve`'s. A new solver is one subclass and one entry of
:data:`SOLVERS`; nothing outside this module and the solvers' own modules names an engine.

This module imports no solver's code until it runs: importing the options
(:mod:`dagger_cli.engine.query`) loads no kernel.
"""

from __future__ import annotations

from typing import Any

from ..costs import DEFAULT_X, DEFAULT_Y
from ..errors import InputError


class Solver:
    """One way to compute the exact front of a query (the base: what most solvers share).

    Attributes
    ----------
    name : str
        Its ``--engine`` name.
    summary : str
        One line for ``--engine``'s help.
    counts : bool
        Whether it keeps what counting the trees needs (``count=True``).
    pushes_bounds : bool
        Whether the bounds (``max_x``, ``max_y``, ``least_y``) go inside it (it computes
        less for them), or only restrict its front afterwards.
    depth_helps : bool
        Whether a lower depth cap makes it need less memory (its limit messages say so).
    trees : bool
        Whether it finds the tree behind a point (:meth:`tree`).
    clusters : frozenset
        The cost pairs whose search it runs on a Dask cluster (``scheduler``;
        :mod:`dagger_cli.engine.cluster`).
    """

    name = ""
    summary = ""
    trees = False
    counts = False
    pushes_bounds = False
    depth_helps = False
    clusters: frozenset = frozenset()

    def cluster_refusal(self, table, query) -> str | None:
        """What ``query`` lacks for this solver to run it on a Dask cluster (None: it
        runs it there): by default a cost pair of :attr:`clusters`."""
        if frozenset({query.x_cost.name, query.y_cost.name}) in self.clusters:
            return None
        if not self.clusters:
            return "another solver"
        return " or ".join(" and ".join(sorted(p)) for p in sorted(self.clusters, key=sorted)) + (
            " as the two costs"
        )

    def validate(self, query) -> None:
        """Raise :class:`InputError` for what this solver cannot compute (the query is
        otherwise valid)."""
        if query.count and not self.counts:
            raise InputError(f"counting trees needs the fast engine, not {self.name!r}")

    def route(self, table, query) -> tuple[Any, Solver]:
        """The table and the solver that answer ``query``: by default this one, on the
        binary expansion of a table with numeric columns kept whole."""
        if getattr(table, "ordered", None):
            return binary_expansion(table, query), self
        return table, self

    def solve(self, table, query):
        """The :class:`~dagger_cli.engine.structures.Relation` of ``query`` on ``table``."""
        raise NotImplementedError

    def tree(self, relation, point: int):
        """The tree (:class:`dagger_cli.trees.Tree`) behind point ``point`` of the front."""
        raise InputError(
            f"the {self.name} engine keeps no trees; tree extraction needs the fast engine "
            "(--engine fast)"
        )

    def trees_of(self, relation, points: list[int], progress=None) -> list:
        """The trees behind points ``points`` of the front (by default one by one:
        :meth:`tree`; a solver that can shares the work between them)."""
        out = []
        for n, k in enumerate(points):
            out.append(self.tree(relation, k))
            if progress is not None:
                progress.update("trees", n + 1, len(points), unit="points' trees")
        return out


class FastSolver(Solver):
    """The compiled DAG engine (:mod:`dagger_cli.engine.dag`)."""

    name = "fast"
    summary = "fast: the DAG of subtables by the compiled kernels (default)"
    trees = True
    counts = True
    pushes_bounds = True
    depth_helps = True

    def validate(self, query) -> None:
        super().validate(query)
        if query.depth_two != "auto" and not isinstance(query.depth_two, bool):
            raise InputError(f"depth_two must be True, False or 'auto', got {query.depth_two!r}")

    def route(self, table, query):
        ordered = SOLVERS["ordered"]
        if getattr(table, "ordered", None) and ordered.applies(table, query):
            return table, ordered
        return super().route(table, query)

    def cluster_refusal(self, table, query) -> str | None:
        from .dag import layer_refusal

        return layer_refusal(table, query)

    def solve(self, table, query):
        from .dag import solve_fast

        if query.scheduler is None:
            return solve_fast(table, query)
        from .cluster import connect
        from .cluster_layer import LayerCluster

        with connect(query.scheduler, query.workers) as client:
            made: list = []

            def on_cluster(max_memory):
                made.append(LayerCluster(client, query.scheduler, max_memory))
                return made[-1]

            try:
                return solve_fast(table, query, on_cluster)
            finally:
                for c in made:
                    c.close()

    def tree(self, relation, point: int):
        from ..trees import dag_tree

        return dag_tree(relation, point)

    def trees_of(self, relation, points: list[int], progress=None) -> list:
        from ..trees import dag_trees

        return dag_trees(relation, points, progress)


class OrderedSolver(Solver):
    """Numeric columns kept whole under a depth cap (:mod:`dagger_cli.engine.ordered`)."""

    name = "ordered"
    summary = (
        "ordered: numeric columns kept whole (--thresholds) under --max-depth, swept by "
        "thresholds (chosen by fast for such tables)"
    )
    trees = True
    clusters = frozenset({frozenset({"depth", "misclassifications"})})

    def applies(self, table, query) -> bool:
        """Whether it answers ``query`` on ``table``: numeric columns kept whole, a depth
        cap, and neither ``exact_only`` nor ``count``."""
        from .ordered import applies

        return applies(table, query)

    def route(self, table, query):
        if not self.applies(table, query):
            from .ordered import why_not

            raise InputError(
                f"the ordered engine cannot answer this query: {why_not(table, query)}"
            )
        return table, self

    def solve(self, table, query):
        from .ordered import solve_ordered

        return solve_ordered(table, query)

    def tree(self, relation, point: int):
        front = relation.front
        return relation.extractor(int(front.x[point]), int(front.y[point]))

    def trees_of(self, relation, points: list[int], progress=None) -> list:
        """The trees of ``points`` in one pass (``_Extractor.trees``): the trees
        :meth:`tree` gives one by one, each root's search bounded as there."""
        front = relation.front
        xy = [(int(front.x[k]), int(front.y[k])) for k in points]
        return relation.extractor.trees(xy, progress)


class BaselineSolver(Solver):
    """Plain recursion with numpy Pareto merging: the oracle
    (:func:`dagger_cli.engine.baseline.baseline_front`)."""

    name = "baseline"
    summary = "baseline: plain recursion, the slow oracle"
    depth_helps = True

    def solve(self, table, query):
        from .baseline import baseline_front
        from .structures import DagStats

        cap = query.cap(table.n_attributes)
        fx, fy, st = baseline_front(
            table,
            query.x_cost,
            query.y_cost,
            max_subtables=query.max_subtables,
            exact_only=query.exact_only,
            max_depth=cap,
        )
        return _relation(table, query, self.name, fx, fy, DagStats(**st, max_depth=cap))


class PaperSolver(Solver):
    """The paper's dense algorithm, total path length vs misclassifications only, small
    tables only (:func:`dagger_cli.engine.baseline.paper_front`)."""

    name = "paper"
    summary = "paper: the paper's dense algorithm (small tables, its pair only)"

    def validate(self, query) -> None:
        super().validate(query)
        if query.max_depth is not None:
            raise InputError(
                "the paper engine has no depth cap (--max-depth); use --engine fast or baseline"
            )
        if (query.x_cost.name, query.y_cost.name) != (DEFAULT_X, DEFAULT_Y):
            raise InputError(
                "the paper engine computes total-path-length vs misclassifications only; "
                f"use --engine fast for {query.x_cost.name} vs {query.y_cost.name}"
            )
        if query.exact_only:
            raise InputError("the paper engine has no --exact-only; use --engine fast")

    def solve(self, table, query):
        from .baseline import paper_front
        from .structures import DagStats

        fx, fy, st = paper_front(table, max_subtables=query.max_subtables)
        return _relation(table, query, self.name, fx, fy, DagStats(**st))


def binary_expansion(table, query):
    """The table a solver of nominal attributes reads for a table with numeric columns
    kept whole: each one as its binary attributes ``col<=t``
    (:meth:`~dagger_cli.data.table.DecisionTable.binarized`; the same trees), after saying
    so when the query will be costly (:func:`_warn_expansion`)."""
    _warn_expansion(table, query)
    return table.binarized(max_bytes=query.max_memory)


#: Binary attributes from which a numeric table's expansion, uncapped, is announced.
EXPANSION_WARNING = 24


def _warn_expansion(table, query) -> None:
    """Say before the work that a query on many thresholds may take minutes and gigabytes,
    and what to give instead: uncapped, a depth cap; capped (a query the ordered solver
    does not answer), fewer thresholds."""
    tests = table.n_tests
    if tests < EXPANSION_WARNING:
        return
    if query.cap(tests) is None:
        _cost_warning(
            f"{table.name}: without a depth cap the {len(table.ordered)} numeric column(s) "
            f"split by thresholds are {tests:,} binary attributes col<=t for the DAG engine, "
            "which builds every subtable that their tests make: with this many that can take "
            "minutes and gigabytes. --max-depth D (numeric columns kept whole by the "
            "ordered solver: seconds at D <= 3) or fewer thresholds (--thresholds K) make "
            "it small"
        )
    elif query.engine == "fast":  # (another engine, chosen, runs on the expansion by design)
        from .ordered import why_not

        warn_expansion(
            table,
            "the ordered solver, which keeps numeric columns whole under --max-depth, does "
            f"not answer this query ({why_not(table, query)})",
        )


def warn_expansion(table, why: str) -> None:
    """Say before the work that ``why`` sends a table of many thresholds to the DAG of its
    binary expansion even under a depth cap, and that fewer thresholds make it small."""
    tests = table.n_tests
    if tests >= EXPANSION_WARNING:
        _cost_warning(
            f"{table.name}: {why}: the {len(table.ordered)} numeric column(s) become "
            f"{tests:,} binary attributes col<=t for the DAG engine, which can take minutes "
            "and gigabytes even at depth 2 or 3. Fewer thresholds (--thresholds K, say 16) "
            "make it small"
        )


def _cost_warning(text: str) -> None:
    import warnings

    from ..errors import CostWarning

    warnings.warn(CostWarning(text), stacklevel=5)


def _relation(table, query, engine: str, fx, fy, stats):
    """The Relation of a solver that keeps only its front."""
    import numpy as np

    from ..fronts import Front
    from .structures import Relation

    front = Front(
        query.x_cost,
        query.y_cost,
        np.array(fx, dtype=np.int64),
        np.array(fy, dtype=np.int64),
        table.weight_total,
    )
    return Relation(
        table=table, front=front, stats=stats, engine=engine, seconds=0.0, max_depth=query.max_depth
    )


#: Every solver by engine name, in the order ``--engine`` lists them.
SOLVERS: dict[str, Solver] = {
    s.name: s for s in (FastSolver(), BaselineSolver(), PaperSolver(), OrderedSolver())
}
ENGINES = tuple(SOLVERS)


def engines_help() -> str:
    """``--engine``'s help: every solver's summary."""
    return "; ".join(s.summary for s in SOLVERS.values()) + "."
