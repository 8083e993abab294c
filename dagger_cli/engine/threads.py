"""The engine's threads: how many a kernel call of the compiled core uses.

The compiled core (:mod:`dagger_cli._core`) runs a kernel's independent pieces on threads it
starts for the call and joins at its end (``parallel_for`` in ``core/common.hpp``), and runs
a small batch of work on the calling thread alone: no thread waits by spinning between
calls, so an idle worker takes nothing from a busy neighbour, and every core this process
may use is the default. The results never depend on the threads (the kernels are written
so), only the time.

Knobs, in order of precedence (README's environment table):

- ``DAGGER_THREADS=N``: N threads per kernel call; ``DAGGER_THREADS=auto`` (the default):
  every core this process may use (its CPU affinity, lowered by a cgroup CPU quota);
- a caller's share (:func:`set_ceiling`: ``dagger study`` gives each task its share of a
  worker's cores): a ceiling for the calling thread's kernel calls.
"""

from __future__ import annotations

import math
import os
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TypeVar

from ..errors import InputError

#: The environment variable that fixes the engine's thread count (or ``auto``).
ENV = "DAGGER_THREADS"
AUTO = "auto"

T = TypeVar("T")


def requested(environ: Mapping[str, str] | None = None) -> int | str:
    """What the user asked for: a thread count (``DAGGER_THREADS=N``) or :data:`AUTO`
    (the default: every core this process may use).

    >>> requested({}), requested({"DAGGER_THREADS": "3"}), requested({"DAGGER_THREADS": "auto"})
    ('auto', 3, 'auto')
    """
    env = os.environ if environ is None else environ
    text = env.get(ENV, "").strip()
    if not text or text.lower() == AUTO:
        return AUTO
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise InputError(f"{ENV}={text!r}: expected {AUTO!r} or a positive number of threads")
    return value


def available_cores() -> int:
    """Cores this process may run on: its CPU affinity, lowered by a cgroup CPU quota."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    quota = _cgroup_quota()
    if quota is not None:
        cores = min(cores, max(1, math.ceil(quota)))
    return max(1, cores)


def _cgroup_quota(
    proc_cgroup: str = "/proc/self/cgroup", root: str = "/sys/fs/cgroup"
) -> float | None:
    """The CPU quota of this process's cgroup in cores (v2 ``cpu.max``, v1
    ``cpu.cfs_quota_us``), or None when unlimited or unknown."""
    text = _read(proc_cgroup)
    if not text:
        return None
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        path = path.lstrip("/")
        try:
            if controllers == "":
                limit = _read(os.path.join(root, path, "cpu.max"))
                if limit and not limit.startswith("max"):
                    fields = limit.split()
                    return int(fields[0]) / int(fields[1])
            elif "cpu" in controllers.split(","):
                base = os.path.join(root, controllers, path)
                us = _read(os.path.join(base, "cpu.cfs_quota_us"))
                per = _read(os.path.join(base, "cpu.cfs_period_us"))
                if us and per and int(us) > 0:
                    return int(us) / int(per)
        except ValueError:
            continue
    return None


def _read(path: str) -> str | None:
    try:
        with open(path) as f:
            return f.read().strip()
    except (OSError, ValueError):
        return None


_CORES: list[int] = []
_LOCAL = threading.local()
#: How many kernel calls :func:`run` made with each thread count (for the benchmark).
CALLS: Counter[int] = Counter()


def set_ceiling(n: int | None) -> None:
    """At most ``n`` threads for the calling thread's kernel calls (None: no ceiling): a
    caller's share of the cores, e.g. a study's task on a worker."""
    _LOCAL.ceiling = None if n is None else max(1, int(n))


def current_choice() -> int:
    """The thread count for the next kernel call of the calling thread."""
    wanted = requested()
    if wanted == AUTO:
        if not _CORES:
            _CORES.append(available_cores())
        wanted = _CORES[0]
    ceiling = getattr(_LOCAL, "ceiling", None)
    return max(1, min(int(wanted), ceiling) if ceiling else int(wanted))


def run(kernel: Callable[..., T], *args) -> T:
    """Call a kernel with the thread count chosen now (:func:`current_choice`); the
    calling thread's previous count is restored afterwards, whatever happens."""
    from .. import _core

    threads = current_choice()
    CALLS[threads] += 1
    before = _core.set_threads(threads)
    try:
        return kernel(*args)
    finally:
        _core.set_threads(before)
