"""One query across a Dask cluster: the pieces of a search (:mod:`dagger_cli.engine.pieces`)
as Dask tasks, with the bound carried between the workers while they run.

``relate --scheduler ADDRESS|local [--workers N]`` (and :func:`dagger_cli.engine.relate`'s
``scheduler``): the ordered solver's depth front (depth vs misclassifications on numeric
columns, ``--thresholds``) sends each depth's pieces, the same pieces the engine's threads
run in one process, to the cluster's workers; everything else of the query (the depths 1
and 2, the trees, the outputs) stays in the calling process. The answer and the trees are
the one-process answer: a depth's least misclassifications is the least the pieces found,
whatever ran where and when.

How the pieces run:

* The table goes to every worker once per query, through the scheduler (a Dask
  ``Variable`` holding it pickled; a worker fetches it before its first piece): workers
  need neither its file nor a compiler (the compiled core comes with dagger's wheel). Not
  ``scatter``: the scheduler's active memory manager keeps one copy of scattered data, and
  a killed worker holding it would lose the table for every piece not yet run. A worker keeps, per
  query, the solver's arrays, one memo for all the pieces and depths it runs, and a
  workspace per task running at once; the client drops them at the end (and a worker drops
  them by itself after :data:`IDLE` seconds without a piece, should the client vanish).
* The bound travels through one Dask ``Variable`` per query, ``(depth, bound)``, that
  the client owns: a watcher thread on each worker looks at it every :data:`POLL` seconds,
  lowers its running pieces' shared bound to it (the kernel reads that bound before every
  split it evaluates), and sets it when a piece of its own went lower. A Variable, not an
  actor or a queue: it lives on the scheduler (a lost worker loses nothing of it), it is
  the one value every reader wants (the latest least), and two workers that set it at
  once can only leave a higher value for one poll, which the lower one's watcher sets
  again (a bound read late prunes less, never wrongly). Pub/sub is gone from
  ``distributed`` since 2025.
* Faults: a worker that dies mid-query has its tasks run again elsewhere (Dask's retries,
  :data:`RETRIES`): a piece is a pure function of the table, the depth, the bound and its
  splits, so a rerun can only find the same least. A scheduler that goes away ends the
  query with a :class:`~dagger_cli.errors.DaggerError` (exit 2), nothing written.
* Time limits and Ctrl-C: the client sets the query's Dask ``Event`` (a flag no worker
  clears, unlike the Variable they all write), the watchers raise their running pieces'
  abort flags, and the tasks not started are cancelled.
* Memory: each task has its worker's share of ``--max-memory`` (the ceiling over the
  workers), less the table and a workspace.
"""

from __future__ import annotations

import contextlib
import pickle
import threading
import time
import uuid
from dataclasses import dataclass, field

import numpy as np

from ..errors import DaggerError, InputError, LimitError
from .pieces import Piece

#: ``--scheduler local``: a local cluster of single-threaded worker processes.
LOCAL = "local"
#: Seconds between two looks of the client and of each worker at the cluster's bound.
POLL = 0.1
#: Seconds after which a worker drops a query that ran no piece (a vanished client).
IDLE = 600.0
#: Times a piece is run again after its worker died.
RETRIES = 3


def check(scheduler: str | None, workers: int | None) -> None:
    """The options' own errors (before any work)."""
    if workers is not None:
        if scheduler is None:
            raise InputError(
                f"--workers {workers} sizes a local cluster: give --scheduler local too (or "
                "leave --workers out: one process uses every core by itself)"
            )
        if scheduler != LOCAL:
            raise InputError(
                "--workers sizes a local cluster (--scheduler local); a scheduler at an "
                "address has its workers already"
            )
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise InputError(f"--workers must be a whole number >= 1, got {workers!r}")
    if scheduler is not None and not str(scheduler).strip():
        raise InputError("--scheduler needs an address (tcp://host:port) or 'local'")


@contextlib.contextmanager
def connect(scheduler: str, workers: int | None = None):
    """A Dask client of the scheduler at ``scheduler``, or of a local cluster of
    ``workers`` single-threaded worker processes on 127.0.0.1 (one per core by default)
    for ``"local"``; closed (and the local cluster stopped) at the end."""
    from .dask_setup import (
        interrupt_after,
        local_cluster,
        quiet_dask,
        require_dask,
        workers_ignore_ctrl_c,
    )

    distributed = require_dask("--scheduler runs the search")
    cluster = None
    with quiet_dask():
        if scheduler == LOCAL:
            with workers_ignore_ctrl_c():
                cluster = local_cluster(distributed, workers, 1)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as err:
                raise DaggerError(
                    f"cannot reach the Dask scheduler at {scheduler}: {err}"
                ) from None
    try:
        with _silent():  # a scheduler gone is ours to say (Cluster._call), once
            yield client
    finally:
        with interrupt_after(), quiet_dask(), contextlib.suppress(Exception):
            client.close()
            if cluster is not None:
                cluster.close()


@contextlib.contextmanager
def _silent():
    """distributed's own error logs off (the client's reconnection attempts)."""
    import logging

    lg = logging.getLogger("distributed")
    level = lg.level
    lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        lg.setLevel(level)


class Session:
    """A query's hold on a Dask cluster: its client, a token naming what the query puts on
    the scheduler, its stop ``Event`` (a flag no worker clears) and the client calls that
    turn a scheduler gone into a clear error. :class:`Cluster` (the ordered solver's
    pieces) and :class:`~dagger_cli.engine.cluster_layer.LayerCluster` (the whole DAG's
    depth-two layer) are sessions."""

    def __init__(self, client, scheduler: str, forget):
        from .dask_setup import require_dask

        self.distributed = require_dask("--scheduler runs the search")
        self.client, self.scheduler = client, scheduler
        self.forget = forget  # drops the query from a worker (top level: pickled by name)
        self.token = uuid.uuid4().hex
        self.workers = max(1, len(self._call(client.scheduler_info)["workers"]))
        self.stop = self.distributed.Event(f"dagger-stop-{self.token}", client=client)
        self._variables: list = []

    def variable(self, kind: str):
        """A Dask Variable of this query (``dagger-KIND-TOKEN``), deleted by :meth:`close`."""
        var = self.distributed.Variable(f"dagger-{kind}-{self.token}", client=self.client)
        self._variables.append(var)
        return var

    def _call(self, f, *args, **kw):
        """A client call; a scheduler gone is a DaggerError."""
        try:
            return f(*args, **kw)
        except Exception as err:
            gone = isinstance(err, (OSError, TimeoutError)) or type(err).__name__ in _GONE
            if not gone:
                raise
            raise DaggerError(
                f"the Dask scheduler at {self.scheduler} went away during the search: "
                f"{type(err).__name__}: {err}. Nothing was written; run it again when the "
                "cluster is back, or without --scheduler"
            ) from None

    def _cancelled(self) -> DaggerError:
        """The error of a piece the cluster cancelled."""
        if self.client.status != "running":
            return DaggerError(
                f"the Dask scheduler at {self.scheduler} went away during the search. "
                "Nothing was written; run it again when the cluster is back, or without "
                "--scheduler"
            )
        return DaggerError(
            f"the Dask scheduler at {self.scheduler} cancelled a piece of the search (was "
            "it restarted, or the piece cancelled by another client?). Nothing was "
            "written; run it again"
        )

    def _halt(self, pending) -> None:
        """Stop the running pieces (the stop Event) and cancel those not started."""
        with contextlib.suppress(Exception):
            self.stop.set()
            self.client.cancel(list(pending))

    def close(self) -> None:
        """Drop the query from the workers and the scheduler."""
        with contextlib.suppress(Exception):
            self.client.run(self.forget, self.token)
        for var in self._variables:
            with contextlib.suppress(Exception):
                var.delete()
        with contextlib.suppress(Exception):
            self.stop.clear()


class Cluster(Session):
    """The executor of a query's depth searches on a Dask cluster (see the module
    docstring): :meth:`best` runs one depth's pieces; :meth:`close` frees the workers."""

    def __init__(self, client, scheduler: str, table, depth: int, max_memory: int | None, prepare):
        super().__init__(client, scheduler, _forget)
        self.prepare = (
            prepare  # a worker's (arrays, memo) of the query (top level: pickled by name)
        )
        self.depth = depth
        # each task: its worker's share of the ceiling
        self.max_memory = None if max_memory is None else max_memory // self.workers
        self.var = self.variable("bound")
        self.var_name = self.var.name
        self.table_var = self.variable("table")
        self.table_name = self.table_var.name
        self._call(self.table_var.set, pickle.dumps(table, protocol=pickle.HIGHEST_PROTOCOL))

    def best(self, plan: list[Piece], d: int, bound: int, stats: np.ndarray, tick) -> int:
        """The least misclassifications at depth <= d of the pieces ``plan`` below
        ``bound`` (else ``bound``); adds the tasks' counters to ``stats``; ``tick(done,
        made, least)`` shows progress (it may raise KeyboardInterrupt: then the running
        pieces are stopped and it is raised again)."""
        from .kernels import ordered as k

        least = bound
        self._call(self.var.set, (d, least))
        futures = [
            self.client.submit(
                _piece_task,
                self.prepare,
                self.token,
                self.table_name,
                self.depth,
                self.max_memory,
                self.var_name,
                d,
                bound,
                piece,
                key=f"dagger-piece-{self.token}-{d}-{i}",
                pure=False,
                retries=RETRIES,
            )
            for i, piece in enumerate(plan)
        ]
        pending = set(futures)
        done = 0
        try:
            while pending:
                finished, pending = wait_some(pending)
                for fut in finished:
                    if fut.cancelled():
                        raise self._cancelled()
                    status, value, found, own, usage = self._call(result_of, fut)
                    if status != k.DONE:
                        raise LimitError(
                            "a piece of the search ran out of its worker's share of "
                            f"--max-memory ({usage[k.U_ASKED]:,} bytes asked): give the "
                            "workers more memory, or try a lower --max-depth"
                        )
                    stats[: k.S_ABORT] += np.asarray(own[: k.S_ABORT], dtype=np.int64)
                    if found and value < least:
                        least = int(value)
                        self._call(self.var.set, (d, least))
                    done += 1
                seen = self._call(self.var.get)
                if seen[0] == d and seen[1] < least:
                    least = int(seen[1])
                tick(done, len(futures), least)
        except BaseException:
            self._halt(pending)
            raise
        return least


#: What distributed raises when the client lost its scheduler (besides OSError and
#: TimeoutError): the futures it cancels when it gives up reconnecting.
_GONE = ("CancelledError", "FuturesCancelledError", "CommClosedError")


def wait_some(pending: set) -> tuple[set, set]:
    """(finished, pending) after waiting :data:`POLL` seconds at most for one more.

    Polled, not ``distributed.wait``: that one raises a cancelled future's
    ``CancelledError``, a BaseException that the client's ``sync`` turns into an
    UnboundLocalError of its own."""
    end = time.monotonic() + POLL
    while True:
        finished = {fut for fut in pending if fut.done()}
        if finished or time.monotonic() >= end:
            return finished, pending - finished
        time.sleep(POLL / 10)


def result_of(fut):
    try:
        return fut.result()
    except Exception as err:  # noqa: BLE001 - named for the user
        if type(err).__name__ == "KilledWorker":
            raise DaggerError(
                f"every worker that ran a piece of the search died ({RETRIES + 1} tries: out "
                f"of memory?): {err}"
            ) from None
        raise


# ---------------------------------------------------------------- on the workers
_QUERIES: dict[str, _Local] = {}
_LOCK = threading.Lock()


@dataclass
class _Local:
    """A query as a worker keeps it: the solver's arrays, the memo, free workspaces, the
    running pieces' counters and each depth's shared bound; a watcher thread carries the
    bound between it and the cluster."""

    arrays: object
    memo: object
    m: int
    name: tuple[int, int]
    free: list = field(default_factory=list)
    running: list = field(default_factory=list)
    shared: dict = field(default_factory=dict)
    last: float = field(default_factory=time.monotonic)
    closed: bool = False
    stopped: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)


def _local(prepare, token: str, table, depth: int, max_memory: int | None, var, stop) -> _Local:
    """The query ``token`` on this worker (its table from the Variable ``table`` the
    first time)."""
    with _LOCK:
        q = _QUERIES.get(token)
        if q is None:
            arrays, memo = prepare(pickle.loads(table.get()), depth, max_memory)
            m = arrays.load(None)
            q = _Local(arrays, memo, m, arrays.name(None), free=[arrays.work])
            _QUERIES[token] = q
            threading.Thread(
                target=_watch, args=(token, q, var, stop), name="dagger-watch", daemon=True
            ).start()
        q.last = time.monotonic()
        return q


def _piece_task(prepare, token, table, depth, max_memory, var_name, d, bound, piece):
    """A Dask task: one piece of the depth-d search below ``bound``; returns (status,
    value, found, counters, usage)."""
    import distributed

    from .kernels import ordered as k

    client = distributed.get_client()
    var = distributed.Variable(var_name, client=client)
    stop = distributed.Event(f"dagger-stop-{token}", client=client)
    table_var = distributed.Variable(table, client=client)
    q = _local(prepare, token, table_var, depth, max_memory, var, stop)
    with q.lock:
        shared = q.shared.setdefault(d, np.array([bound], dtype=np.int64))
        ws = q.free.pop() if q.free else None
    a = q.arrays
    if ws is None:  # another task runs beside this one on this worker
        ws = k.Workspace(a.buf.copy(), a.side.copy())
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    usage = np.zeros(k.N_USAGE, dtype=np.int64)
    with q.lock:
        q.running.append(stats)
        stats[k.S_ABORT] = int(q.stopped)
    try:
        root = k.RootPiece(piece.attr, piece.lo, piece.hi)
        limits = k.BestLimits(d, bound)
        budget = a.budget(1)
        choice = np.zeros(5, dtype=np.int64)
        status, value, found = k.best_piece(
            a.table, ws, q.m, limits, q.name, q.memo, stats, root, shared, choice, budget, usage
        )
    finally:
        with q.lock:
            q.running.remove(stats)
            q.free.append(ws)
            q.last = time.monotonic()
    return int(status), int(value), bool(found), stats.tolist(), usage.tolist()


def _watch(token: str, q: _Local, var, stop) -> None:
    """Carry the bound between this worker's pieces and the cluster's Variable (see the
    module docstring) until the query is dropped or idle."""
    from .kernels import ordered as k

    while not q.closed:
        time.sleep(POLL)
        if time.monotonic() - q.last > IDLE and not q.running:
            _forget(token)
            return
        try:
            d, least = var.get(timeout=5)
            stopped = stop.is_set()
        except Exception:  # noqa: BLE001 - the scheduler busy or gone: look again later
            continue
        with q.lock:
            shared = q.shared.get(d)
            if stopped:
                q.stopped = True
                for st in q.running:
                    st[k.S_ABORT] = 1
        if shared is None:
            continue
        mine = k.lower_bound(shared, int(least))
        if mine < least:  # ours is lower (or another worker's set crossed ours): tell
            with contextlib.suppress(Exception):
                var.set((d, mine))


def _forget(token: str) -> None:
    """Drop a query from this worker (``client.run`` at the query's end)."""
    from .kernels import ordered as k

    with _LOCK:
        q = _QUERIES.pop(token, None)
    if q is not None:
        q.closed = True
        with q.lock:  # the compiled memo and arrays go now, not at the worker's exit
            for st in q.running:  # pieces still running (a limit, Ctrl-C) stop at once
                st[k.S_ABORT] = 1
            q.memo = q.arrays = None
            q.free.clear()
            q.shared.clear()
