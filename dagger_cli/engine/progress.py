"""Progress lines on stderr for long runs, and the note shown while numba compiles.

:class:`Progress` writes a line (``phase: done of total unit (rate, seconds)``) at most once a
second, and only for work that runs longer than a couple of seconds; its
:meth:`Progress.first_call` wraps a kernel call, which says that the kernels are being
compiled when numba really compiles during it, and how long that took (:class:`_CompileNote`).
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
        """A context for a kernel call: if numba compiles during it (first run after
        installing, or a new kind of table), say so, and then how long it took."""
        return _CompileNote(self) if self.enabled else contextlib.nullcontext()

    def close(self):
        if self.shown and getattr(self.stream, "isatty", lambda: False)():
            self.stream.write("\n")
            self.stream.flush()


class _CompileNote:
    """Says that numba is compiling while it really is, and how long it took.

    numba announces each compilation (a function or a type signature not in its cache) with
    a ``numba:compile`` event; loading a cached kernel announces nothing. The note appears
    when a compilation has gone on for :attr:`delay` seconds (quick ones stay silent), and
    when the call returns a second line gives the seconds spent compiling: no promise of
    how long it will take (it depends on the machine and its load, 20 s to over a minute).
    """

    delay = 1.0
    shown = False  # the explanation, once per process; then a line per compiling call

    def __init__(self, progress) -> None:
        self.progress = progress
        self.depth = 0
        self.began = 0.0
        self.spent = 0.0
        self.timer: threading.Timer | None = None
        self.noted = False
        self.listener = None
        self.what = "the kernels"

    def _start(self, ev=None):
        if self.depth == 0:
            self.began = time.perf_counter()
            if self.what == "the kernels":
                func = getattr((getattr(ev, "data", None) or {}).get("dispatcher"), "py_func", None)
                self.what = getattr(func, "__name__", self.what)
            if self.timer is None and not self.noted:
                if self.delay <= 0:
                    self._note()
                else:
                    self.timer = threading.Timer(self.delay, self._note)
                    self.timer.daemon = True
                    self.timer.start()
        self.depth += 1

    def _end(self):
        self.depth -= 1
        if self.depth == 0:
            self.spent += time.perf_counter() - self.began

    def _note(self):
        self.noted = True
        if _CompileNote.shown:
            return
        _CompileNote.shown = True
        self.progress.stream.write(
            "dagger: compiling the engine's kernels (numba: the first run after installing, "
            "or a new kind of table; cached for later runs)\n"
        )
        self.progress.stream.flush()

    def __enter__(self):
        from numba.core import event

        note = self

        class _Listener(event.Listener):
            def on_start(self, ev):
                note._start(ev)

            def on_end(self, ev):
                note._end()

        self.listener = _Listener()
        event.register("numba:compile", self.listener)

    def __exit__(self, *exc):
        from numba.core import event

        event.unregister("numba:compile", self.listener)
        if self.timer is not None:
            self.timer.cancel()
        if self.noted:
            self.progress.stream.write(f"dagger: compiled {self.what} in {self.spent:.0f} s\n")
            self.progress.stream.flush()
