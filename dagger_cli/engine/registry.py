"""The solvers, by name: ``relate(..., engine=NAME)`` and ``--engine NAME`` run ``SOLVERS[NAME]``.

>>> ENGINES
('fast', 'baseline', 'paper', 'ordered')

A solver is a function ``(table, query) -> Relation`` that computes the front of a
validated :class:`~dagger_cli.engine.query.Query` (``query.max_memory`` already in bytes or
None, :func:`dagger_cli.engine.memory.memory_ceiling`). What every solver shares (the
memory ceiling, its limit hints, counting, the bounds' final restriction) is
:func:`dagger_cli.engine.api.solve`'s. A new solver is one entry of :data:`SOLVERS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..fronts import Front
from .baseline import baseline_front, paper_front
from .dag import solve_fast
from .ordered import solve_ordered
from .structures import DagStats, Relation


def _relation(table, query, engine: str, fx, fy, stats: DagStats) -> Relation:
    front = Front(
        query.x_cost,
        query.y_cost,
        np.array(fx, dtype=np.int64),
        np.array(fy, dtype=np.int64),
        table.n_rows,
    )
    return Relation(
        table=table,
        front=front,
        stats=stats,
        engine=engine,
        seconds=0.0,
        max_depth=query.max_depth,
    )


def solve_baseline(table, query) -> Relation:
    """The ``baseline`` solver: plain recursion with numpy Pareto merging (the oracle,
    :func:`dagger_cli.engine.baseline.baseline_front`)."""
    cap = query.cap(table.n_attributes)
    fx, fy, st = baseline_front(
        table,
        query.x_cost,
        query.y_cost,
        max_subtables=query.max_subtables,
        exact_only=query.exact_only,
        max_depth=cap,
    )
    return _relation(table, query, "baseline", fx, fy, DagStats(**st, max_depth=cap))


def solve_paper(table, query) -> Relation:
    """The ``paper`` solver: the paper's dense algorithm, total path length vs
    misclassifications only, small tables only (:func:`dagger_cli.engine.baseline.paper_front`)."""
    fx, fy, st = paper_front(table, max_subtables=query.max_subtables)
    return _relation(table, query, "paper", fx, fy, DagStats(**st))


#: Every solver by engine name, in the order ``--engine`` lists them.
SOLVERS: dict[str, Callable[[Any, Any], Relation]] = {
    "fast": solve_fast,  # compiled kernels (dagger_cli.engine.dag, .kernels)
    "baseline": solve_baseline,
    "paper": solve_paper,
    # numeric columns kept whole, under a depth cap (dagger_cli.engine.ordered); "fast"
    # hands such queries to it (dagger_cli.engine.api.solve)
    "ordered": solve_ordered,
}
ENGINES = tuple(SOLVERS)
