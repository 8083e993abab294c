"""The engine's entry points: :func:`solve` runs a :class:`Query`, :func:`relate` builds one.

>>> from dagger_cli.data.table import example_table
>>> relate(example_table()).front.points()
[(0, 2), (4, 0)]
>>> solve(example_table(), Query("depth", "misclassifications")).front.points()
[(0, 2), (1, 0)]

``solve(table, query)`` returns a :class:`Relation`: the Pareto front of cost ``x`` against
cost ``y`` over every decision tree for the table, the statistics of the DAG Δ(T), and
(fast engine) what tree extraction needs. The solver named by ``query.engine`` computes the
front (:mod:`dagger_cli.engine.registry`); what all solvers share is here: the memory
ceiling and the hints of its messages, the second run that tells "no tree" from "none within
the bounds", counting (:mod:`dagger_cli.engine.counting`) and the bounds' final restriction.

Engines: ``fast`` (compiled kernels, :mod:`dagger_cli.engine.kernels`), ``baseline`` (plain
recursion with numpy Pareto merging, the oracle) and ``paper`` (the paper's dense
algorithm, total path length vs misclassifications only, small tables only).
"""

from __future__ import annotations

import time
from dataclasses import replace

from ..costs import DEFAULT_X, DEFAULT_Y
from ..errors import InputError, LimitError
from ..fronts import Front
from ..weights import positive_table
from .memory import AUTO, memory_ceiling
from .query import Query
from .structures import Relation


def with_positive(table, query: Query):
    """``table`` ready for a cost pair with false positives or negatives: its positive
    class set (a two-class table's second class when none was chosen); the pairs and
    options that do not read a leaf's choice of decision refused clearly."""
    table = positive_table(table)
    if query.exact_only:
        raise InputError("--exact-only with false positives or negatives is not supported yet")
    return table


def _check_cluster(table, query: Query, solver) -> None:
    """What runs on a Dask cluster (``scheduler``): the ordered solver's depth front, the
    whole DAG's depth-two layer (:meth:`Solver.cluster_refusal`)."""
    why = solver.cluster_refusal(table, query)
    if why is not None:
        raise InputError(
            "--scheduler runs a depth-capped search across a cluster: on numeric columns kept "
            "whole (--thresholds all|K) the search for the least misclassifications at each "
            "depth (depth and misclassifications as the two costs), otherwise the last two "
            "levels of the DAG of subtables (--max-depth 2 or more). This query "
            f"({query.x} vs {query.y}, {solver.name} solver) needs {why}; as it is, it "
            "runs in one process: drop --scheduler"
        )


def runs_on_cluster(table, query: Query) -> bool:
    """Whether ``query`` (with ``scheduler``) runs part of its search on a Dask cluster
    (else :func:`solve` refuses it: :meth:`Solver.cluster_refusal`)."""
    try:
        if query.x_cost.reads_decision or query.y_cost.reads_decision:
            table = with_positive(table, query)
        table, solver = query.solver.route(table, query)
    except InputError:
        return False
    return solver.cluster_refusal(table, query) is None


def solve(table, query: Query) -> Relation:
    """The exact Pareto front that ``query`` asks for over all trees for ``table``.

    Parameters
    ----------
    table : DecisionTable
    query : Query
        What to compute (validated when it was made); see :func:`relate` for the options.
    """
    if query.x_cost.reads_decision or query.y_cost.reads_decision:
        table = with_positive(table, query)
    if getattr(table, "weighting", None) is not None:
        if table.weighting.min_leaf > 1:
            if not (query.x_cost.reads_errors or query.y_cost.reads_errors):
                raise InputError(
                    f"a minimum leaf size (--min-leaf) needs misclassifications, false "
                    f"positives or false negatives as one of the two costs (a leaf of fewer "
                    f"rows is priced in them), not {query.x} vs {query.y}"
                )
            if query.exact_only:
                raise InputError("--min-leaf and --exact-only do not go together yet")
    if query.time_limit is not None:
        from .anytime import solve_within

        return solve_within(table, query, solve)
    max_memory, which = memory_ceiling(query.max_memory)
    query = replace(query, max_memory=max_memory)
    push_x, push_y = query.pushed_bounds
    # (an ordered attribute stands for its thresholds' binary attributes)
    cap = query.cap(getattr(table, "n_tests", table.n_attributes))
    t0 = time.perf_counter()
    try:
        table, solver = query.solver.route(table, query)
        if query.scheduler is not None:
            _check_cluster(table, query, solver)
        rel = solver.solve(table, query)
    except LimitError as err:
        raise _limit_hint(err, which, query.solver.depth_helps, cap) from None
    rel.query, rel.solver = query, solver
    rel.seconds = time.perf_counter() - t0
    empty = len(rel.front) == 0
    if empty and query.exact_only and cap is not None and (push_x, push_y) != (None, None):
        # Empty within the bounds: is there no tree at all? (Then say so, as the unbounded
        # engines do; the rare case pays a second run.)
        solve(
            table,
            Query(
                query.x,
                query.y,
                exact_only=True,
                max_depth=query.max_depth,
                max_memory=max_memory,
                max_subtables=query.max_subtables,
            ),
        )
    if empty and push_x is None and push_y is None:
        if not query.exact_only:  # the single leaf is always a tree
            raise AssertionError(f"{query.engine} engine: an empty front without bounds (a bug)")
        raise InputError(
            f"every tree of depth <= {query.max_depth} has an avoidable misclassification "
            "(--exact-only: an impure leaf that some attribute splits); raise --max-depth "
            "or drop --exact-only"
        )
    if query.count:
        from .counting import front_counts

        try:
            counts = tuple(front_counts(rel, exact_only=query.exact_only, max_memory=max_memory))
        except LimitError as err:
            raise _limit_hint(err, which, False) from None
        front = rel.front
        rel.front = Front(front.x_cost, front.y_cost, front.x, front.y, table.weight_total, counts)
        rel.seconds = time.perf_counter() - t0
    # What the bounds keep (the fast engine's bounded front is already just that).
    rel.front = rel.front.restrict(x_max=query.max_x, y_max=query.max_y)
    if query.least_y and len(rel.front):
        rel.front = rel.front.restrict(y_max=int(rel.front.y[-1]))
    return rel


def relate(
    table,
    x: str = DEFAULT_X,
    y: str = DEFAULT_Y,
    *,
    engine: str = "fast",
    max_subtables: int | None = None,
    max_memory=AUTO,
    progress: bool = False,
    exact_only: bool = False,
    max_depth: int | None = None,
    count: bool = False,
    depth_two: bool | str = "auto",
    max_x: int | None = None,
    max_y: int | None = None,
    least_y: bool = False,
    scheduler: str | None = None,
    workers: int | None = None,
) -> Relation:
    """The exact Pareto front of cost ``x`` against cost ``y`` over all trees for ``table``
    (of depth at most ``max_depth``, if given): ``solve(table, Query(x, y, **options))``.

    Parameters
    ----------
    table : DecisionTable
    x, y : str
        Two different cost names from :data:`dagger_cli.costs.COSTS`.
    engine : {"fast", "baseline", "paper", "ordered"}
        ``fast`` hands a table with numeric columns split by thresholds to ``ordered``
        under a depth cap (:mod:`dagger_cli.engine.ordered`); the others read such a
        table's binary expansion.
    max_subtables : int, optional
        Stop with :class:`LimitError` when the DAG has more subtables.
    max_memory : int, str or None
        Stop with :class:`LimitError` when the engine's arrays need more bytes (``"2G"``).
        The default ``"auto"`` is 80 % of the memory available at start
        (:func:`~dagger_cli.engine.memory.memory_ceiling`); ``None`` or ``"none"`` lifts the
        ceiling.
    progress : bool
        Print progress on stderr for runs longer than about 2 s.
    exact_only : bool
        Only trees without avoidable misclassifications: a subtable with several decisions
        is a leaf only if no attribute splits it (on a merged table: trees with µ = 0).
        Makes pairs such as depth vs total path length informative.
    max_depth : int, optional
        Only trees of depth at most ``max_depth`` (a single leaf has depth 0). A cap of at
        least the number of attributes changes nothing (no tree is deeper). Exact trees
        only (``exact_only``) under a cap may be none: :class:`InputError`.
    count : bool
        Also count the trees at every Pareto point (exact integers in ``front.counts``;
        fast engine only; see :mod:`dagger_cli.engine.counting`).
    depth_two : bool or "auto"
        Under a cap D >= 2 (fast engine), solve the last two levels from class counts
        per attribute value and per pair of values, without building their subtables
        (the depth-two layer; the same fronts and trees). ``False`` builds every
        subtable within D splits: the slow path the layer is checked against. Not used
        with ``exact_only`` or ``count``, which need every subtable. ``"auto"`` (the
        default) uses it for D <= 4 and, deeper, on tables of at least 24 attributes
        (:func:`~dagger_cli.engine.dag.use_depth_two`).
    max_x, max_y : int, optional
        Only the front's points with x <= ``max_x`` and y <= ``max_y`` (the front may be
        empty). The fast engine computes less for them: every subproblem keeps only the
        points that can still make such a point (bounds; see
        :func:`dagger_cli.engine.kernels.fronts._node_front`), and a subtable that cannot be
        split within them is not expanded. The same points and trees as the whole front restricted.
    least_y : bool
        Only the front's last point: the least y, and the least x among the trees with
        that y (what a solver that minimises y alone finds). With the fast engine and a
        y that sums over children (misclassifications, total path length, nodes,
        leaves) each subproblem keeps its one such point.
    scheduler : str, optional
        A Dask scheduler's address, or ``"local"`` for a local cluster of ``workers``
        worker processes (one per core by default): under ``max_depth``, the least
        misclassifications at each depth on numeric columns (depth vs misclassifications,
        the ordered solver; :mod:`dagger_cli.engine.cluster`) or the last two levels of
        the DAG of subtables (any cost pair; :mod:`dagger_cli.engine.cluster_layer`) is
        cut into pieces that run there; the same answer.
    """
    return solve(
        table,
        Query(
            x,
            y,
            engine=engine,
            max_depth=max_depth,
            max_x=max_x,
            max_y=max_y,
            least_y=least_y,
            count=count,
            exact_only=exact_only,
            depth_two=depth_two,
            max_subtables=max_subtables,
            max_memory=max_memory,
            progress=progress,
            scheduler=scheduler,
            workers=workers,
        ),
    )


def _limit_hint(
    err: LimitError, which: str, depth_helps: bool, cap: int | None = None
) -> LimitError:
    """The limit message, naming the ceiling that applied and the way around it."""
    text = str(err).replace("(--max-memory)", f"({which})")
    if depth_helps and "--max-depth" not in text:
        if cap is None:
            text = text.rstrip() + (
                " Try --max-depth D (trees of depth at most D need fewer subtables)."
            )
        elif cap > 0:
            text = text.rstrip() + (
                f" Try a lower --max-depth than {cap} (each level fewer needs far fewer subtables)."
            )
    return LimitError(text)
