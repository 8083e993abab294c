"""Progress lines on stderr for long runs, and the note shown while numba compiles.

:class:`Progress` writes a line (``phase: done of total unit (rate, seconds)``) at most once a
second, and only for work that runs longer than a couple of seconds; its
:meth:`Progress.first_call` wraps a kernel's first call in a process, which says once that
the kernels are being compiled when that call takes long (:class:`_CompileNote`).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time


class Progress:
    """Progress lines on stderr, only for work that runs longer than ``after`` seconds."""

    def __init__(self, enabled: bool, after: float = 2.0, stream=None):
        self.enabled = enabled
        self.after = after
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def update(self, phase: str, done: int, total: int | None = None, unit: str = "subtables"):
        if not self.enabled:
            return
        now = time.perf_counter() - self.t0
        if now < self.after or now - self.last < 1.0:
            return
        self.last = now
        rate = done / now if now > 0 else 0.0
        of = f" of {total:,}" if total is not None else ""
        tty = getattr(self.stream, "isatty", lambda: False)()
        end = "\r" if tty else "\n"
        self.stream.write(f"{phase}: {done:,}{of} {unit} ({rate:,.0f}/s, {now:.1f} s){end}")
        self.stream.flush()
        self.shown = True

    def first_call(self):
        """A context for a kernel's first call in this process: if it has not returned
        after 2 s, numba is compiling it (first run after installing); say so once."""
        return _CompileNote(self) if self.enabled else contextlib.nullcontext()

    def close(self):
        if self.shown and getattr(self.stream, "isatty", lambda: False)():
            self.stream.write("\n")
            self.stream.flush()


class _CompileNote:
    shown = False  # once per process
    delay = 2.0

    def __init__(self, progress):
        self.progress = progress
        self.timer = threading.Timer(self.delay, self._note)
        self.timer.daemon = True

    def _note(self):
        if not _CompileNote.shown:
            _CompileNote.shown = True
            self.progress.stream.write(
                "dagger: compiling the engine's kernels (first run after "
                "installing: about 20 s, cached afterwards)\n"
            )
            self.progress.stream.flush()

    def __enter__(self):
        self.timer.start()

    def __exit__(self, *exc):
        self.timer.cancel()
