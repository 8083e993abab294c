"""The query: one frozen value that says what :func:`dagger_cli.engine.solve` computes.

>>> q = Query("depth", "misclassifications", max_depth=3)
>>> q.x_cost.name, q.engine, q.cap(16), q.cap(3)
('depth', 'fast', 3, None)
>>> Query(engine="paper", exact_only=True)
Traceback (most recent call last):
    ...
dagger_cli.errors.InputError: the paper engine has no --exact-only; use --engine fast

Every option is checked once, in :meth:`Query.__post_init__` (an :class:`InputError`
naming the option); the solvers of :mod:`dagger_cli.engine.registry` read a valid query and
its derived values: the cost objects, the effective depth cap (:meth:`Query.cap`) and the
bounds pushed into the fast engine (:attr:`Query.pushed_bounds`, :attr:`Query.push_least`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import numpy as np

from ..costs import DEFAULT_X, DEFAULT_Y, SUM, Cost, check_pair
from ..errors import InputError
from .memory import AUTO, NO_LIMIT, parse_size
from .registry import ENGINES, SOLVERS


@dataclass(frozen=True)
class Query:
    """What to compute: the Pareto front of cost ``x`` against cost ``y`` over the trees
    for a table, and how (the options of :func:`dagger_cli.engine.relate`, which documents
    each of them).

    Parameters
    ----------
    x, y : str
        Two different cost names from :data:`dagger_cli.costs.COSTS` (validated into
        :attr:`x_cost`, :attr:`y_cost`).
    engine : str
        A solver of :data:`dagger_cli.engine.registry.SOLVERS` (``"fast"``, ``"baseline"``,
        ``"paper"``).
    max_depth, max_x, max_y, least_y, count, exact_only, depth_two, max_subtables,
    max_memory, progress, time_limit, scheduler, workers
        As in :func:`dagger_cli.engine.relate`.
    """

    x: str = DEFAULT_X
    y: str = DEFAULT_Y
    engine: str = "fast"
    max_depth: int | None = None
    max_x: int | None = None
    max_y: int | None = None
    least_y: bool = False
    count: bool = False
    exact_only: bool = False
    depth_two: bool | str = "auto"
    max_subtables: int | None = None
    max_memory: int | str | None = AUTO
    progress: bool = False
    #: seconds: the best front found within them, each point marked proven or not, with a
    #: proven bound (:mod:`dagger_cli.engine.anytime`); None: the exact front, however long
    time_limit: float | None = None
    #: a Dask scheduler's address, or ``"local"`` for a local cluster of ``workers`` worker
    #: processes: the search's pieces run there (:mod:`dagger_cli.engine.cluster`)
    scheduler: str | None = None
    workers: int | None = None
    #: the cost objects of ``x`` and ``y`` (set from the names)
    x_cost: Cost = field(init=False, repr=False, compare=False)
    y_cost: Cost = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        cx, cy = check_pair(self.x, self.y)
        object.__setattr__(self, "x_cost", cx)
        object.__setattr__(self, "y_cost", cy)
        engine, max_depth = self.engine, self.max_depth
        if engine not in ENGINES:
            raise InputError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
        if max_depth is not None:
            if isinstance(max_depth, bool) or not isinstance(max_depth, (int, np.integer)):
                raise InputError(f"max_depth must be an integer >= 0, got {max_depth!r}")
            if max_depth < 0:
                raise InputError(f"max_depth must be >= 0, got {max_depth}")
            object.__setattr__(self, "max_depth", int(max_depth))
        for name, bound in (("max_x", self.max_x), ("max_y", self.max_y)):
            if bound is not None and (
                isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 0
            ):
                raise InputError(f"{name} must be an integer >= 0, got {bound!r}")
        mem = self.max_memory
        if not (mem is None or (isinstance(mem, str) and mem.lower() in (*NO_LIMIT, AUTO))):
            parse_size(mem)  # the message of a size that cannot be read
        if self.time_limit is not None:
            object.__setattr__(self, "time_limit", parse_duration(self.time_limit))
            if self.count:
                raise InputError(
                    "--count needs every tree of the front: it has no --time-limit (counting "
                    "cannot stop half way); drop one of them"
                )
        if self.scheduler is not None or self.workers is not None:
            from .cluster import check

            check(self.scheduler, self.workers)
        self.solver.validate(self)

    @property
    def solver(self):
        """The :class:`~dagger_cli.engine.registry.Solver` named by ``engine``."""
        return SOLVERS[self.engine]

    @property
    def exact(self) -> Query:
        """This query without its time limit (what :mod:`dagger_cli.engine.anytime` runs)."""
        return replace(self, time_limit=None)

    def cap(self, n_attributes: int) -> int | None:
        """The effective depth cap on a table of ``n_attributes`` attributes: no tree is
        deeper than that, so a cap of at least ``n_attributes`` is no cap (None)."""
        md = self.max_depth
        return md if md is not None and md < n_attributes else None

    @property
    def pushed(self) -> bool:
        """Whether the bounds go inside the engine: one that computes less for them
        (:attr:`~dagger_cli.engine.registry.Solver.pushes_bounds`), except for counting
        (which needs every tree)."""
        return self.solver.pushes_bounds and not self.count

    @property
    def pushed_bounds(self) -> tuple[int | None, int | None]:
        """``(max_x, max_y)`` as the engine computes them (None: not pushed)."""
        return (self.max_x, self.max_y) if self.pushed else (None, None)

    @property
    def push_least(self) -> bool:
        """Whether each subproblem keeps only its least-y point. That is the least y of
        the whole only without a bound on x (under one, the children's least-y points may
        add up past it: a knapsack), and with a y summed over children."""
        return bool(
            self.least_y and self.pushed and self.y_cost.combine == SUM and self.max_x is None
        )


_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "min": 60.0, "h": 3600.0}


def parse_duration(value) -> float:
    """Seconds from a number or a text such as ``90s``, ``5m``, ``1.5h``, ``30`` (seconds).

    >>> parse_duration("90s"), parse_duration("5m"), parse_duration(2.5), parse_duration("1h")
    (90.0, 300.0, 2.5, 3600.0)
    """
    if isinstance(value, bool):
        raise InputError(f"a time limit must be a duration such as 90s or 5m, got {value!r}")
    if isinstance(value, (int, float, np.integer, np.floating)):
        seconds = float(value)
    else:
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*(s|m|min|h)?\s*", str(value).lower())
        if m is None:
            raise InputError(
                f"a time limit must be a duration such as 90s, 5m or 1.5h, got {value!r}"
            )
        seconds = float(m.group(1)) * _UNITS[m.group(2) or ""]
    if not seconds >= 0 or seconds == float("inf"):
        raise InputError(f"a time limit must be a finite duration >= 0, got {value!r}")
    return seconds
