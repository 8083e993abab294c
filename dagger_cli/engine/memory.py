"""Memory: sizes, the ceiling a run may use, the guard of Python passes, growable arrays.

``max_memory`` (``--max-memory``) is read by :func:`parse_size` and turned into a ceiling by
:func:`memory_ceiling` (by default a share of :func:`memory_available` at start); the
engine's work arrays live in :class:`GrowableArrays` (anonymous memory maps on Linux), and
:class:`MemoryGuard` watches the resident memory (:func:`resident_bytes`) of the passes
whose data live in no engine array (counting's exact integers).

>>> parse_size("2GiB")
2147483648
"""

from __future__ import annotations

import mmap
import sys

import numpy as np

from ..errors import InputError, LimitError
from ..text import size_text


def parse_size(text: str | int | None) -> int | None:
    """``'500M'``, ``'2GiB'``, ``'1.5G'`` or a number of bytes -> bytes.

    >>> parse_size("2GiB"), parse_size("500M"), parse_size(1024)
    (2147483648, 524288000, 1024)
    """
    if text is None or isinstance(text, int):
        return text
    s = str(text).strip().upper().removesuffix("B").removesuffix("I")
    mult = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    try:
        if s and s[-1] in mult:
            return int(float(s[:-1]) * mult[s[-1]])
        return int(float(s))
    except ValueError:
        raise InputError(f"cannot read size {text!r}; expected e.g. 500M, 2G or 2GiB") from None


#: Share of the memory available at start that the engine may use when no --max-memory is
#: given: the rest is left to the system and other programs (and to the page cache).
DEFAULT_MEMORY_FRACTION = 0.8
#: Values of ``max_memory`` that mean "no ceiling" and "the default ceiling".
NO_LIMIT = ("none", "off", "unlimited")
AUTO = "auto"


def memory_available() -> int | None:
    """Bytes the system can give without swapping: ``MemAvailable`` of ``/proc/meminfo``,
    lowered to the room left under a cgroup (v2) memory limit; None when unknown.

    Under Linux overcommit an allocation "succeeds" far beyond this and the process is killed
    later without a word (exit 137), so a ceiling must be chosen from this figure up front.
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
        avail = int(fields["MemAvailable"].split()[0]) * 1024
    except (OSError, KeyError, ValueError, IndexError):
        return None
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
            current = int(fh.read().strip())
        if limit.isdigit():
            avail = min(avail, max(0, int(limit) - current))
    except (OSError, ValueError):
        pass
    return avail


def resident_bytes() -> int | None:
    """This process's resident memory (``/proc/self/statm``), None where unknown."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * mmap.PAGESIZE
    except (OSError, ValueError, IndexError):
        return None


#: Steps between two readings of a :class:`MemoryGuard` (a reading costs about 10 µs).
GUARD_EVERY = 1024


class MemoryGuard:
    """Stops a Python pass (counting's exact integers, which live in no engine array)
    before its memory passes ``ceiling`` bytes: the growth of the process's resident
    memory since the guard was made, read every ``every`` steps (no check where
    ``/proc`` does not say, or without a ceiling)."""

    def __init__(self, ceiling: int | None, what: str, every: int | None = None):
        self.ceiling, self.what = ceiling, what
        self.every = GUARD_EVERY if every is None else every
        self.start = resident_bytes() if ceiling is not None else None
        self.steps = 0

    def step(self, done: int, total: int) -> None:
        self.steps += 1
        if self.start is None or self.ceiling is None or self.steps % self.every:
            return
        now = resident_bytes()
        if now is not None and now - self.start > self.ceiling:
            raise LimitError(
                f"{self.what} needs more than {size_text(self.ceiling)} (--max-memory) "
                f"after {done:,} of {total:,} steps"
            )


def memory_ceiling(max_memory=AUTO) -> tuple[int | None, str]:
    """``max_memory`` as bytes (None: no ceiling) and the option to name in messages.

    ``"auto"`` (the default) is :data:`DEFAULT_MEMORY_FRACTION` of :func:`memory_available`
    at start (no ceiling where that is unknown); ``None``, ``"none"``, ``"off"`` and
    ``"unlimited"`` lift the ceiling; anything else goes through :func:`parse_size`.
    """
    if max_memory is None or (isinstance(max_memory, str) and max_memory.lower() in NO_LIMIT):
        return None, "--max-memory"
    if isinstance(max_memory, str) and max_memory.lower() == AUTO:
        avail = memory_available()
        if avail is None:
            return None, "--max-memory"
        ceiling = int(avail * DEFAULT_MEMORY_FRACTION)
        return ceiling, (
            f"the default ceiling, {DEFAULT_MEMORY_FRACTION:.0%} of the "
            f"{size_text(avail)} available at start; --max-memory SIZE or none changes it"
        )
    return parse_size(max_memory), "--max-memory"


_MMAP = sys.platform.startswith("linux") and hasattr(mmap, "MAP_ANONYMOUS")


class GrowableArrays:
    """The engine's growable work arrays, by name (``arrays["edge_child"]``).

    On Linux each lives on an anonymous memory map: growing it remaps its pages (mremap)
    instead of copying them, and the new part is not touched until written (the system
    maps zero pages on first use). Touching fresh memory is slow on virtual machines, and a
    copy would hold old and new arrays at once. Elsewhere they are numpy arrays, copied.
    An array obtained here must not be kept across :meth:`grow` of the same name."""

    def __init__(self, specs: dict, use_mmap: bool | None = None):
        self._mmap = _MMAP if use_mmap is None else use_mmap
        self._dtype, self._maps, self._views = {}, {}, {}
        for name, (size, dtype) in specs.items():
            self._dtype[name] = dt = np.dtype(dtype)
            if self._mmap:
                self._maps[name] = mmap.mmap(
                    -1, max(size, 1) * dt.itemsize, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
                )
            else:
                self._views[name] = np.zeros(max(size, 1), dt)

    def __getitem__(self, name: str) -> np.ndarray:
        view = self._views.get(name)
        if view is None:
            view = self._views[name] = np.frombuffer(self._maps[name], self._dtype[name])
        return view

    def grow(self, name: str, need: int, used: int) -> None:
        """Room for ``need`` items (at least double), the first ``used`` kept."""
        size = self[name].size
        if need <= size:
            return
        if not self._mmap:  # a new array, only the used part copied
            out = np.empty(max(need, 2 * size), dtype=self._dtype[name])
            out[:used] = self._views[name][:used]
            self._views[name] = out
            return
        del self._views[name]  # release the buffer so that the map can move
        try:
            self._maps[name].resize(max(need, 2 * size) * self._dtype[name].itemsize)
        except OSError as err:  # ENOMEM: the system has no room for the bigger map
            raise LimitError(
                f"out of memory: cannot grow {name} to {need:,} items ({err.strerror or err})"
            ) from None

    def nbytes(self) -> int:
        return sum(self[name].nbytes for name in self._dtype)
