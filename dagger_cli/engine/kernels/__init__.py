"""The fast engine's kernels: thin declarations of the compiled core's functions
(:mod:`dagger_cli._core`, built from ``core/*.cpp`` by ``pip install``), one module per
phase, each naming the arrays a kernel takes as structures.

* :mod:`.discovery`: the DAG Δ(T), breadth-first, in batches (``core/discovery.cpp``);
* :mod:`.fronts`: every subproblem's Pareto front, smallest subtables first
  (``core/fronts.cpp``);
* :mod:`.depth_two`: the last two levels from class counts (``core/depth_two.cpp``);
* :mod:`.ordered`: the ordered (numeric) solver (``core/ordered.cpp``).

Each phase is a resumable kernel that returns to Python every few million units of work
(so progress can be shown and Ctrl-C honoured) or when an array must grow, with a
:class:`Status`; the drivers are :mod:`dagger_cli.engine.dag` and
:mod:`dagger_cli.engine.ordered`. The constants below are the core's own (``common.hpp``).
"""

from __future__ import annotations

import enum

from ... import _core


class Status(enum.IntEnum):
    """What a resumable kernel returns."""

    DONE = _core.DONE  #: finished
    BUDGET_SPENT = _core.BUDGET_SPENT  #: its work budget is spent: report progress, call again
    MUST_GROW = _core.MUST_GROW  #: an array must grow (sizes in ``needs``), then call again
    TOO_MANY_NODES = _core.TOO_MANY_NODES  #: more subtables than --max-subtables
    FRONT_TOO_LONG = _core.FRONT_TOO_LONG  #: a front longer than its proven bound (a bug)
    #: a piece's arrays would pass the memory ceiling, or failed to allocate
    OUT_OF_MEMORY = _core.OUT_OF_MEMORY


#: The remaining depth of an uncapped subproblem ("infinite"): the ``max_level`` of no cap.
NO_CAP: int = _core.NO_CAP
#: Independent pieces a parallel phase is cut into (interleaved, for balance).
PIECES: int = _core.PIECES
