"""The whole-DAG route's depth-two layer on a Dask cluster.

``relate --scheduler ADDRESS|local`` on a query that the DAG of subtables answers (nominal
and binary attributes, any cost pair the layer computes) under ``--max-depth`` D >= 2: the
calling process discovers the DAG down to level D - 2 and sends the layer's entries (a
subtable there and a remaining depth of 1 or 2: its last two levels, from class counts;
:mod:`dagger_cli.engine.kernels.depth_two`) to the workers in runs
(:func:`dagger_cli.engine.pieces.cut_runs`), each with its subtables' rows
(:class:`~dagger_cli.engine.dag.LayerPiece`). The fronts come back and are appended to
the point pool in entry order, as the kernel appends them in one process; the levels
above, the trees and the outputs stay in the calling process. The layer is the larger
part of the work on the twelve binary benchmark tables at depth 5 (german-credit: 6.5 s
of 7.7 s), and its entries need nothing from each other: no bound travels.

How the pieces run:

* What every piece shares (the table as the layer reads it, the leaves, the costs'
  parameters: :class:`~dagger_cli.engine.dag.LayerJob`) goes to each worker once per
  query, through a Dask ``Variable`` on the scheduler (as the ordered solver's table:
  :mod:`dagger_cli.engine.cluster`); a piece's own rows travel with its task, so that the
  scheduler can run it again elsewhere when its worker dies (Dask's retries,
  :data:`~dagger_cli.engine.cluster.RETRIES`): a piece is a pure function of them.
* At most :data:`IN_FLIGHT` pieces per worker are out at once: the calling process makes
  a piece's arrays only when it is sent, so neither it nor the scheduler holds the rows
  of the whole layer at once.
* Each piece's rows stay below :data:`MOST_BYTES` (Dask warns about larger tasks), and
  there are at least :data:`PER_WORKER` pieces per worker for balance.
* Time limits, Ctrl-C, a scheduler gone, memory: as for the ordered solver's pieces (the
  query's stop ``Event``, asked between two kernel calls of a piece; each task its
  worker's share of ``--max-memory``).
"""

from __future__ import annotations

import pickle
import threading
import time

import numpy as np

from ..errors import LimitError
from ..text import size_text
from .cluster import IDLE, RETRIES, Session, result_of, wait_some
from .pieces import cut_runs

#: Pieces per worker at least (balance: the entries' work is estimated, not known).
PER_WORKER = 8
#: The most bytes of rows a piece carries (Dask warns about tasks of more than 10 MB).
MOST_BYTES = 8 << 20
#: Pieces per worker sent and not yet back at once.
IN_FLIGHT = 3


class LayerCluster(Session):
    """Runs a query's depth-two layer on a Dask cluster (see the module docstring)."""

    def __init__(self, client, scheduler: str, max_memory: int | None):
        super().__init__(client, scheduler, _forget)
        # each task: its worker's share of the ceiling
        self.share = None if max_memory is None else max_memory // self.workers
        self.job_var = self.variable("layer-job")
        self.job_name = self.job_var.name

    def depth_two(self, dag, entries, job, append, progress) -> int:
        """The fronts of the layer's ``entries`` (``D2Entries`` of ``dag``), each piece's
        handed to ``append(lo, lens, fxy, fch)`` in entry order; returns the slots the
        fronts' bounds needed beyond the attributes (see
        :func:`~dagger_cli.engine.dag.run_layer_piece`)."""
        from .dag import layer_piece, layer_work
        from .kernels import Status

        self._call(self.job_var.set, pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL))
        total = int(entries.node.size)
        size = 4 * dag.node_size[entries.node].astype(np.int64)
        runs = cut_runs(
            entries.node, layer_work(dag, entries), size, PER_WORKER * self.workers, MOST_BYTES
        )
        window = IN_FLIGHT * self.workers
        back: dict[int, tuple] = {}
        sent, stored, slack = 0, 0, 0
        pending: dict = {}
        try:
            while stored < len(runs):
                while sent < len(runs) and len(pending) + len(back) < window:
                    lo, hi = runs[sent]
                    fut = self.client.submit(
                        _layer_task,
                        self.token,
                        self.job_name,
                        self.share,
                        layer_piece(dag, entries, lo, hi),
                        key=f"dagger-layer-{self.token}-{sent}",
                        pure=False,
                        retries=RETRIES,
                    )
                    pending[fut] = sent
                    sent += 1
                finished, _ = wait_some(set(pending))
                for fut in finished:
                    i = pending.pop(fut)
                    if fut.cancelled():
                        raise self._cancelled()
                    back[i] = self._call(result_of, fut)
                while stored in back:
                    status, lens, fxy, fch, needs, more = back.pop(stored)
                    if status == Status.OUT_OF_MEMORY:
                        raise LimitError(
                            "a piece of the depth-two layer ran out of its worker's share of "
                            f"--max-memory ({size_text(needs)} asked for one subtable): give "
                            "the workers more memory, or try a lower --max-depth"
                        )
                    append(runs[stored][0], lens, fxy, fch)
                    slack = max(slack, more)
                    stored += 1
                done = runs[stored - 1][1] if stored else 0
                progress.update(
                    "depth-two fronts on the cluster",
                    done,
                    total,
                    unit=f"subproblems ({stored:,} of {len(runs):,} pieces back)",
                )
        except BaseException:
            self._halt(pending)
            raise
        return slack


# ---------------------------------------------------------------- on the workers
#: Per query on this worker: (its LayerJob, when a piece of it last ran).
_JOBS: dict[str, list] = {}
_LOCK = threading.Lock()


def _job(token: str, job_var):
    """The query's :class:`~dagger_cli.engine.dag.LayerJob` on this worker (from the
    Variable the first time); queries idle for :data:`IDLE` seconds are dropped."""
    now = time.monotonic()
    with _LOCK:
        for t in [t for t, (_, last) in _JOBS.items() if now - last > IDLE]:
            del _JOBS[t]
        kept = _JOBS.get(token)
        if kept is None:
            kept = _JOBS[token] = [pickle.loads(job_var.get()), now]
        kept[1] = now
        return kept[0]


def _layer_task(token: str, job_name: str, share: int | None, piece):
    """A Dask task: the fronts of one piece of the layer (see
    :func:`~dagger_cli.engine.dag.run_layer_piece`)."""
    import distributed

    from .dag import NO_LIMIT, run_layer_piece
    from .threads import current_choice

    client = distributed.get_client()
    job = _job(token, distributed.Variable(job_name, client=client))
    stop = distributed.Event(f"dagger-stop-{token}", client=client)
    if share is None:
        allow = NO_LIMIT
    else:
        beside = piece.nbytes + sum(x.nbytes for x in job.table if isinstance(x, np.ndarray))
        allow = max(share - beside, 0) // current_choice()
    return run_layer_piece(job, piece, allow, stop.is_set)


def _forget(token: str) -> None:
    """Drop a query from this worker (``client.run`` at the query's end)."""
    with _LOCK:
        _JOBS.pop(token, None)


__all__ = ["LayerCluster"]
