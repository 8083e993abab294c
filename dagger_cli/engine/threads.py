"""The engine's threads: the OpenMP waiting policy, the thread count per kernel call,
and numba's start-up.

Measured on the shared 2-core machine (mushroom, DAG + fronts in one process, settings
interleaved; README, "Threads under load"): with passive waiting, two threads were never
slower than one, quiet or beside busy processes (1.59 s against 2.09 s with two busy
neighbours and others' jobs: the scheduler shares the cores per thread, and a sleeping
worker gives its share back). Any spinning between parallel regions is what breaks
under load: 30,000 spins per wait (``GOMP_SPINCOUNT=30000``) took 4.1 s where passive
took 1.0 s on the same loaded machine, and 9.6 s with two busy neighbours. So:

- waiting is passive unless the user chose otherwise (:func:`configure_openmp`, before
  numba loads its OpenMP layer, which reads the policy once);
- with passive waiting the kernels get every thread numba has (one per core, or what a
  caller set with ``numba.set_num_threads``, e.g. ``dagger study``'s per-task share);
- if the user asked for spinning (``OMP_WAIT_POLICY=ACTIVE``, a non-zero
  ``GOMP_SPINCOUNT``), the count follows the load instead: the kernels are resumable
  (they return to Python every few million units of work), so before each call
  :func:`run` counts the other tasks ready to run at that instant and gives the kernel
  the cores they leave (at least one): 3.2 s instead of 9.6 s in the case above.

The readings are instantaneous: ``/proc/loadavg``'s count of runnable tasks (the same as
``procs_running`` of ``/proc/stat``) minus this process's own runnable threads
(``/proc/self/task/*/stat``: the caller, and OpenMP workers still spinning after the
previous region); the cores are those of ``os.sched_getaffinity``, lowered by a cgroup
CPU quota. Where ``/proc`` is missing the count is left alone. The results never depend
on the threads (the kernels are written so), only the time.

Knobs, in order of precedence (README's environment table):

- ``DAGGER_THREADS=N``: always N threads (at most numba's ``NUMBA_NUM_THREADS``);
  ``DAGGER_THREADS=auto`` (the default): as above;
- ``NUMBA_NUM_THREADS=N`` set by the user (and ``DAGGER_THREADS`` not): numba's N, or a
  caller's lower count, never changed;
- ``OMP_WAIT_POLICY``, ``GOMP_SPINCOUNT``: the user's own win.

numba's first call also imports scipy's BLAS bindings when scipy is installed (0.2-0.3 s
of every process); :func:`defer_scipy_blas` moves that to numba's first real BLAS use.
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Mapping
from typing import TypeVar

from ..errors import InputError

#: The environment variable that fixes the engine's thread count (or ``auto``).
ENV = "DAGGER_THREADS"
AUTO = "auto"

T = TypeVar("T")


def configure_openmp(environ: os._Environ | dict | None = None) -> None:
    """Set the OpenMP waiting policy's default before numba loads its OpenMP layer.

    Passive waiting (a worker sleeps as soon as a parallel region ends): a spinning worker
    keeps its core from every other process until it gives up (with
    ``OMP_WAIT_POLICY=ACTIVE``, never: even between calls and with one-thread regions),
    and a thread waiting at a region's end for a descheduled one burns its own time
    slice. The user's own ``OMP_WAIT_POLICY`` or ``GOMP_SPINCOUNT`` wins."""
    env = os.environ if environ is None else environ
    if "OMP_WAIT_POLICY" not in env and "GOMP_SPINCOUNT" not in env:
        env["OMP_WAIT_POLICY"] = "PASSIVE"


def defer_scipy_blas() -> None:
    """Spare a process that never uses BLAS the import of scipy's (0.2-0.3 s).

    numba's ``numba.np.arraymath``, imported on the first call of any compiled function
    (cached ones too), asks at import whether BLAS is there by importing
    ``scipy.linalg.cython_blas``, which loads all of ``scipy.linalg``; the kernels never
    use BLAS. Importing that module here with the check answering "yes" when scipy is
    importable (numba itself has imported scipy's top level by then) keeps numba's
    answer and moves the import to numba's first real BLAS use (``np.dot`` ...), which
    still checks. Nothing changes if the module is already imported, or without scipy."""
    import sys

    if "numba.np.arraymath" in sys.modules or "scipy" not in sys.modules:
        return
    try:
        from numba.np import linalg
    except ImportError:  # pragma: no cover - another numba layout: leave it alone
        return
    check = getattr(linalg, "ensure_blas", None)
    if check is None:  # pragma: no cover
        return
    linalg.ensure_blas = _blas_is_there
    try:
        from numba.np import arraymath
    except Exception:  # pragma: no cover - numba imports it again on its first call
        return
    finally:
        linalg.ensure_blas = check
    if getattr(arraymath, "ensure_blas", None) is _blas_is_there:
        arraymath.ensure_blas = check


def _blas_is_there() -> None:
    """numba's BLAS check at import, answered without importing scipy.linalg."""


def choose(cores: int, running: int, own_running: int, ceiling: int) -> int:
    """The thread count for one kernel call when workers spin: the cores the other
    runnable tasks leave.

    Parameters
    ----------
    cores : int
        Cores this process may use (affinity, cgroup quota).
    running : int
        Runnable tasks on the machine at this instant, this process's included.
    own_running : int
        This process's runnable threads among them (at least the caller).
    ceiling : int
        The most threads to use (numba's current count).

    Returns
    -------
    int
        Between 1 and ``ceiling``.

    >>> choose(cores=2, running=1, own_running=1, ceiling=2)  # quiet
    2
    >>> choose(cores=2, running=2, own_running=1, ceiling=2)  # one busy neighbour
    1
    >>> choose(cores=8, running=5, own_running=2, ceiling=8)  # three busy neighbours
    5
    """
    others = max(0, running - max(own_running, 1))
    return max(1, min(ceiling, cores - others))


def requested(environ: Mapping[str, str] | None = None) -> int | str | None:
    """What the user asked for: a thread count (``DAGGER_THREADS=N``), :data:`AUTO` (the
    default: every thread, or the load's share when workers spin) or None
    (``NUMBA_NUM_THREADS`` set and ``DAGGER_THREADS`` not: numba's count, or a caller's
    ``numba.set_num_threads``, is left alone)."""
    env = os.environ if environ is None else environ
    text = env.get(ENV, "").strip()
    if not text:
        return None if env.get("NUMBA_NUM_THREADS", "").strip() else AUTO
    if text.lower() == AUTO:
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


def runnable() -> tuple[int, int] | None:
    """(runnable tasks on the machine, this process's runnable threads), or None
    where ``/proc`` does not say."""
    text = _read("/proc/loadavg")
    if not text:
        return None
    try:
        running = int(text.split()[3].split("/")[0])
    except (IndexError, ValueError):
        return None
    own = 0
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return None
    for tid in tasks:
        stat = _read(f"/proc/self/task/{tid}/stat")
        # The state follows the command name, which may hold spaces and parentheses.
        if stat and stat.rpartition(")")[2].split()[:1] == ["R"]:
            own += 1
    return running, max(own, 1)


_CORES: list[int] = []
#: How many kernel calls :func:`run` made with each thread count (for the benchmark).
CALLS: Counter[int] = Counter()


def _numba_max() -> int:
    import numba

    return int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]


def spinning(environ: Mapping[str, str] | None = None) -> bool:
    """Whether OpenMP workers spin between parallel regions (libgomp's rules: a
    ``GOMP_SPINCOUNT`` wins, else only ``OMP_WAIT_POLICY=passive`` sleeps at once)."""
    env = os.environ if environ is None else environ
    count = env.get("GOMP_SPINCOUNT", "").strip()
    if count:
        return count != "0"
    return env.get("OMP_WAIT_POLICY", "").strip().lower() != "passive"


def current_choice() -> int | None:
    """The thread count for the next kernel call, or None to leave numba's as it is."""
    wanted = requested()
    if wanted is None:
        return None
    if wanted != AUTO:
        return min(int(wanted), _numba_max())
    if not spinning():
        return None  # every thread: measured never slower, quiet or loaded
    import numba

    ceiling = numba.get_num_threads()
    if ceiling <= 1:
        return None
    reading = runnable()
    if reading is None:
        return None
    if not _CORES:
        _CORES.append(available_cores())
    return choose(_CORES[0], reading[0], reading[1], ceiling)


def run(kernel: Callable[..., T], *args) -> T:
    """Call a parallel kernel with the thread count chosen now (:func:`current_choice`);
    the caller's count is restored afterwards, whatever happens."""
    threads = current_choice()
    import numba

    from .. import _core

    before = numba.get_num_threads()
    count = before if threads is None else threads
    CALLS[count] += 1
    core_before = _core.set_threads(count)  # the compiled core's count, for this thread
    try:
        if threads is None or threads == before:
            return kernel(*args)
        numba.set_num_threads(threads)
        try:
            return kernel(*args)
        finally:
            numba.set_num_threads(before)
    finally:
        _core.set_threads(core_before)
