"""The engine: exact Pareto fronts of two tree costs over the DAG Δ(T) of a decision table.

>>> from dagger_cli.data.table import example_table
>>> relate(example_table()).front.points()
[(0, 2), (4, 0)]

The public API is :func:`relate` (keyword options) and :func:`solve` (a :class:`Query`),
both returning a :class:`Relation`; :data:`ENGINES` names the solvers
(:mod:`~dagger_cli.engine.registry`). The fast engine's pieces are importable from here
too: :func:`build_dag`, :func:`compute_fronts`, :class:`Dag`, :class:`DagStats`,
:class:`FrontStore`, :class:`Status`, :class:`Progress`, :class:`MemoryGuard`,
:func:`memory_ceiling`, :func:`parse_size`. Modules inside the package import from the
module that defines a name, never from here.
"""

from __future__ import annotations

from .api import relate, solve
from .dag import Status, build_dag, compute_fronts, use_depth_two
from .memory import (
    GrowableArrays,
    MemoryGuard,
    memory_available,
    memory_ceiling,
    parse_size,
    resident_bytes,
)
from .progress import Progress
from .query import Query
from .registry import ENGINES, SOLVERS
from .structures import Dag, DagStats, FrontStore, Relation

__all__ = [
    "ENGINES",
    "SOLVERS",
    "Dag",
    "DagStats",
    "FrontStore",
    "GrowableArrays",
    "MemoryGuard",
    "Progress",
    "Query",
    "Relation",
    "Status",
    "build_dag",
    "compute_fronts",
    "memory_available",
    "memory_ceiling",
    "parse_size",
    "relate",
    "resident_bytes",
    "solve",
    "use_depth_two",
]
