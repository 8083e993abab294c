"""The Dask plumbing that studies (:mod:`dagger_cli.study`) and one query across a cluster
(:mod:`dagger_cli.engine.cluster`) share: importing ``distributed`` or saying how to get it,
a local cluster bound to 127.0.0.1, quiet logs, and Ctrl-C kept from the workers and from
the cluster's shutdown. Dask is optional: nothing here imports it at module level."""

from __future__ import annotations

import contextlib
import os

from ..errors import DaggerError


def require_dask(what: str = "dagger study runs its tasks"):
    """Import ``distributed`` or say how to install it (exit 2); ``what`` needs it."""
    try:
        import distributed
    except ImportError:
        raise DaggerError(
            f"{what} on Dask, which is not installed: pip install 'dagger-cli[dask]'"
        ) from None
    return distributed


def machine_memory() -> int:
    """Physical memory of this machine in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


#: Dask's housekeeping of a local cluster, slowed down: by default its processes wake
#: every 10-100 ms (the workers' statistical profiler, the event loops' tick watch, the
#: memory monitors, work stealing), which took 11 % of a core with nothing to do and cost a
#: query on two workers 13 % of its time beside a one-process run on a 2-core machine
#: (``page`` at depth 4, 2026-12-05: 3.2 s of CPU in 30 idle seconds, 0.4 s with these).
#: The pieces of a query run for seconds each, so nothing here needs to react faster; a
#: worker's memory is still watched every second, its death noticed as before.
QUIET_HOUSEKEEPING = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
    "distributed.scheduler.work-stealing-interval": "1s",
}


def local_cluster(distributed, workers: int | None, threads: int | None):
    """One single-threaded worker process per core (or ``workers``), on 127.0.0.1 only,
    each with its share of the machine's memory and of its cores for the engine, with
    Dask's housekeeping slowed down (:data:`QUIET_HOUSEKEEPING`)."""
    import dask

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    n = workers or cores
    engine_threads = threads or max(1, cores // n)
    with dask.config.set(QUIET_HOUSEKEEPING):  # the workers get the config at their start
        return distributed.LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            # no dashboard, and the scheduler's HTTP endpoints (health, metrics) on a free
            # port of 127.0.0.1: its default, 8787, is taken by any other Dask
            # dashboard running, and Dask warns about it
            dashboard_address="127.0.0.1:0",
            scheduler_kwargs={"dashboard": False},
            memory_limit=machine_memory() // n,
            env={"DAGGER_THREADS": str(engine_threads)},
            silence_logs=40,  # logging.ERROR: no worker chatter on the user's terminal
        )


@contextlib.contextmanager
def workers_ignore_ctrl_c():
    """Start the local workers with SIGINT ignored (kept across exec by every process they
    start): Ctrl-C on the terminal reaches the whole process group, and it is the client's
    to handle (keep the finished results, close the cluster), not the workers' (a traceback
    each)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def interrupt_after():
    """Ctrl-C during the block (the cluster's shutdown) is held until the block ends, then
    raised as KeyboardInterrupt (exit 130, "interrupted"): inside distributed's shutdown
    it would print distributed's own traceback, and the run would end as if it had
    finished. A second Ctrl-C stops the process at once (exit 130)."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    hits: list[int] = []

    def held(signum, frame):
        if hits:
            os._exit(130)
        hits.append(signum)

    before = signal.signal(signal.SIGINT, held)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
    if hits:
        raise KeyboardInterrupt


class quiet_dask:
    """Silence distributed's INFO/WARNING logs while the client starts and stops."""

    def __enter__(self):
        import logging

        self.loggers = [logging.getLogger(n) for n in ("distributed", "tornado")]
        self.levels = [lg.level for lg in self.loggers]
        for lg in self.loggers:
            lg.setLevel(logging.ERROR)

    def __exit__(self, *exc):
        for lg, level in zip(self.loggers, self.levels):
            lg.setLevel(level)
