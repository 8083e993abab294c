"""One query cut into pieces: the unit of work that threads in one process and the workers
of a Dask cluster run alike.

A search for the least misclassifications at depth d (a step of the depth front,
:func:`dagger_cli.engine.ordered.solve_ordered`) is cut at its root (:func:`cut`): one piece
per attribute that splits the table, its size its number of splits. The pieces are
independent but for one number: the least misclassifications found so far, a bound every
piece reads before each split it evaluates and lowers when it finds a better tree (an
atomic minimum in the kernel: :func:`dagger_cli.engine.kernels.ordered.best_piece`). The
answer is that bound once every piece is done, the same whatever order the pieces ran in
and however many at once, and so are the trees (found again by one search per node). Only
the work done depends on when each piece learnt the others' trees: the solver's counters
(``--stats``) are the same from run to run on one thread, and on more they say what that
run did.

On a cluster a piece is the grain: an executor runs a list of pieces with a function of
(piece, slot) and returns their results in the pieces' order: :class:`Threads` here (a
thread per slot, each slot its own workspace; the kernels release the GIL), and the
cluster's in :mod:`dagger_cli.engine.cluster` (the pieces as Dask tasks, the bound carried
between workers). A third executor is one more class with :meth:`Threads.run`'s signature.

The threads of one process go finer, as a team
(:func:`dagger_cli.engine.kernels.ordered.best_team`): the kernel's threads share the
pieces' thresholds themselves. A free thread takes the queued thresholds of the first
started piece that has some (each narrowed by what is known when it is taken), else starts
the next piece, else waits for the evaluations still running. So the pieces still run in
the search's order and share its bound, but two threads no longer race two pieces against
a bound neither has found yet, and no large piece is left to one thread at the end: wilt's
depth-4 search took 0.78 s on two threads against 1.46 s on one, where a thread per piece
took 0.85-0.94 s (2026-12-05). A team that runs out of memory gives way to the pieces in
turn, one thread with all the memory (:func:`dagger_cli.engine.ordered.solve_ordered`).

The pieces are made in the search's order (:func:`cut`): the attributes by the Gini
impurity of their best single split. Run in that order, the first pieces find good trees
early and the later ones, the attributes whose best split is poor, are mostly pruned by
them.

The whole-DAG route's depth-two layer (:mod:`dagger_cli.engine.dag`) has no bound to
share: its entries (a subtable and a remaining depth of 1 or 2) are independent, and the
kernel's threads take them one at a time. On a cluster its pieces are runs of consecutive
entries (:func:`cut_runs`), each run whole subtables, sized by the kernel's own estimate
of their work.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

T = TypeVar("T")
P = TypeVar("P")


@dataclass(frozen=True)
class Piece:
    """The root's splits on attribute ``attr``: of an ordered one its thresholds
    ``lo..hi`` (positions among the root's thresholds; the kernel takes any range), of a
    nominal one the one split on all its values (``lo = hi = 0``). ``splits``: how many
    splits it evaluates at most, the estimate of its work."""

    attr: int
    lo: int
    hi: int
    splits: int


def cut(order: Sequence[int], splits: Sequence[int], ordered: Sequence[bool]) -> list[Piece]:
    """The pieces of a search at the root, in the search's order: ``order`` the attributes
    in the search's order, ``splits[a]`` a's thresholds (ordered) or values (nominal),
    ``ordered[a]`` whether it is ordered. One piece per attribute: an attribute that cannot
    split the table (no threshold, one value) makes none.

    Why not finer (an ordered attribute's thresholds in ranges)? Its thresholds bound each
    other: the first one evaluated, with a generous bound for its second side, often rules
    out all those on one side of it at once (a side's least errors only grow as the side
    takes more rows), and a range cut off from it must find such a bound again for itself.
    Cut into about 48 ranges, wilt at depth 4 did five times the work of one piece per
    attribute (the ranges of each attribute from its best single split outwards). Even its
    largest piece (0.63 s of the depth's 1.46 s on one thread) cut in two at its best
    single split, both halves searched from there, took 0.76 s on one thread and finished
    the depth no sooner on two (0.82 s against 0.84 s; 2026-12-05).

    >>> [(p.attr, p.splits) for p in cut([1, 2, 0], [3, 1, 100], [False, False, True])]
    [(2, 100), (0, 3)]
    """
    out: list[Piece] = []
    for a in order:
        k = int(splits[a])
        if k > (0 if ordered[a] else 1):
            out.append(Piece(int(a), 0, max(k - 1, 0) if ordered[a] else 0, k))
    return out


def cut_runs(
    group: np.ndarray, work: np.ndarray, size: np.ndarray, pieces: int, most: int
) -> list[tuple[int, int]]:
    """Consecutive runs ``[lo, hi)`` of items (the layer's entries) that keep the items of
    one group (a subtable: ``group`` non-decreasing) together: about ``pieces`` runs of
    equal ``work``, and more where a run would pass ``most`` in ``size`` (counted once per
    group, by its first item: what the run carries). A group larger than ``most`` is a run
    of its own.

    >>> cut_runs(np.array([0, 0, 1, 2, 2, 3]), np.array([1, 1, 4, 1, 1, 2]),
    ...          np.array([5, 0, 5, 5, 0, 5]), 2, 100)
    [(0, 3), (3, 6)]
    >>> cut_runs(np.array([0, 1, 2]), np.ones(3, int), np.array([6, 6, 6]), 1, 10)
    [(0, 1), (1, 2), (2, 3)]
    """
    n = int(group.size)
    if n == 0:
        return []
    firsts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])  # each group's first item
    ends = np.r_[firsts[1:], n]
    gwork = np.add.reduceat(work.astype(np.float64), firsts)
    gsize = size[firsts].astype(np.int64)
    target = float(gwork.sum()) / max(int(pieces), 1)
    out: list[tuple[int, int]] = []
    lo, acc_w, acc_s = 0, 0.0, 0
    for g in range(firsts.size):
        if g > 0 and int(firsts[g]) > lo and (acc_w >= target or acc_s + gsize[g] > most):
            out.append((lo, int(firsts[g])))
            lo, acc_w, acc_s = int(firsts[g]), 0.0, 0
        acc_w += float(gwork[g])
        acc_s += int(gsize[g])
    out.append((lo, int(ends[-1])))
    return out


class Stop(Exception):
    """A piece's function asks the executor to start no more pieces (e.g. out of memory
    beside others); the pieces not started get None."""


@dataclass
class Threads:
    """Runs pieces on ``slots`` threads of this process: each thread takes the next piece
    not started, in order, and runs ``work(piece, slot)`` (a slot's resources, e.g. its
    workspace, are its own); the calling thread waits, calling ``tick(done)`` about 20
    times a second (progress; it may raise, e.g. the time limit's KeyboardInterrupt). On
    KeyboardInterrupt (Ctrl-C, a time limit) ``stop()`` is called (it must make the running
    pieces return soon, e.g. by their abort flag), the threads are joined and it is raised
    again; an error in a piece is raised in the calling thread once the others are done."""

    slots: int

    def run(
        self,
        pieces: Sequence[P],
        work: Callable[[P, int], T],
        tick: Callable[[int], None] = lambda done: None,
        stop: Callable[[], None] = lambda: None,
    ) -> list[T | None]:
        results: list[T | None] = [None] * len(pieces)
        lock = threading.Lock()
        state = {"next": 0, "done": 0, "halt": False}
        errors: list[BaseException] = []

        def loop(slot: int) -> None:
            while True:
                with lock:
                    i = state["next"]
                    if i >= len(pieces) or state["halt"] or errors:
                        return
                    state["next"] = i + 1
                try:
                    results[i] = work(pieces[i], slot)
                except Stop:
                    with lock:
                        state["halt"] = True
                except BaseException as err:  # handed to the calling thread
                    with lock:
                        errors.append(err)
                    return
                with lock:
                    state["done"] += 1

        n = max(1, min(self.slots, len(pieces)))
        workers = [
            threading.Thread(target=loop, args=(s,), name=f"dagger-piece-{s}", daemon=True)
            for s in range(n)
        ]
        for t in workers:
            t.start()
        try:
            while alive := [t for t in workers if t.is_alive()]:
                alive[0].join(0.05)
                tick(state["done"])
        except KeyboardInterrupt:
            with lock:
                state["halt"] = True
            stop()
            for t in workers:
                t.join()
            raise
        for t in workers:
            t.join()
        if errors:
            raise errors[0]
        return results


def shared_bound(value: int) -> np.ndarray:
    """The one int64 the pieces of a search share as their bound (see the module
    docstring)."""
    return np.array([value], dtype=np.int64)


__all__ = ["Piece", "Stop", "Threads", "cut", "cut_runs", "shared_bound"]
