"""Progress on stderr for long runs, fit for a terminal and for a log.

:class:`Progress` says nothing for work that ends within ``after`` seconds. Past that, it
reads ``phase: done of total unit (rate, seconds)`` and behaves by where it writes:

* **a terminal** (``isatty()``): one line rewritten in place (a carriage return, padded
  over the previous text) at most every ``every`` seconds, and cleared at the end, so the
  terminal is left as it was;
* **a file or a pipe**: a line now and then, for a log: at most one per ``log_every``
  seconds (30 by default) or per tenth of a known total, plus the last state of each phase
  when it ends, so a ten-minute run writes a few dozen lines, not six hundred.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
import time
from collections.abc import Callable


class TimeLimitReached(KeyboardInterrupt):
    """The run's time limit passed (:func:`deadline`). Raised where the engine reports its
    progress, between two kernel calls, so it stops the work as Ctrl-C does (a
    KeyboardInterrupt: the solvers' worker threads stop too) and the caller
    (:mod:`dagger_cli.engine.anytime`) returns what it has."""


_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "dagger_deadline", default=None
)


@contextlib.contextmanager
def deadline(at: float | None):
    """Within the block, the engine stops with :class:`TimeLimitReached` once
    :func:`time.perf_counter` passes ``at`` (None: no limit). Per thread (a context
    variable), so concurrent runs keep their own."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


#: When the run began, for a time limit counted from there (the command line sets it as it
#: starts: reading the table counts); None: from the call that sets the deadline.
_STARTED: list[float] = []


def mark_start(at: float | None = None) -> None:
    """Count a later time limit from ``at`` (default: now), e.g. a command's start."""
    _STARTED[:] = [time.perf_counter() if at is None else at]


def started(now: float) -> float:
    """When the run began (:func:`mark_start`), or ``now``."""
    return min(_STARTED[0], now) if _STARTED else now


def has_deadline() -> bool:
    """Whether a :func:`deadline` is set for the calling thread."""
    return _DEADLINE.get() is not None


def check_deadline() -> None:
    """Raise :class:`TimeLimitReached` if the current :func:`deadline` has passed."""
    at = _DEADLINE.get()
    if at is not None and time.perf_counter() >= at:
        raise TimeLimitReached


class Progress:
    """Progress of the engine's phases on ``stream`` (stderr), a terminal's way or a log's.

    Parameters
    ----------
    enabled : bool
        False: never write anything.
    after : float
        Seconds of quiet before the first line (short runs say nothing).
    stream : file object, optional
        Where to write (default: ``sys.stderr``); its ``isatty()`` chooses the mode.
    every : float
        On a terminal, the least seconds between two rewrites of the line.
    log_every : float
        Off a terminal, the least seconds between two lines (a tenth of a known total
        also makes a line).
    clock : callable, optional
        Seconds, monotonic (default: :func:`time.perf_counter`); tests pass a fake one.

    Examples
    --------
    >>> import io
    >>> now = [0.0]
    >>> log = io.StringIO()
    >>> p = Progress(True, stream=log, clock=lambda: now[0])
    >>> for k in range(1, 601):          # ten minutes, one update a second
    ...     now[0] = float(k)
    ...     p.update("fronts", k, 600)
    >>> p.close()
    >>> len(log.getvalue().splitlines())  # not 600
    21
    """

    def __init__(
        self,
        enabled: bool,
        after: float = 2.0,
        stream=None,
        *,
        every: float = 0.5,
        log_every: float = 30.0,
        clock: Callable[[], float] | None = None,
    ):
        self.enabled = enabled
        self.after = after
        self.stream = stream or sys.stderr
        self.every = every
        self.log_every = log_every
        self.clock = clock or time.perf_counter
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = self.clock()
        self.last = -float("inf")  # when the last line was written (seconds since t0)
        self.shown = False  # something was written
        self.width = 0  # the length of the line on a terminal, to pad over it
        self.phase: str | None = None
        self.tenth = -1  # the last tenth of the phase's total written to a log
        self.pending: str | None = None  # the phase's latest state, not yet in the log

    def update(
        self,
        phase: str,
        done: int,
        total: int | None = None,
        unit: str = "subtables",
        rate: bool = True,
    ):
        """The state of ``phase``: ``done`` of ``total`` (None: not known) ``unit``, with
        the rate per second unless ``rate`` is False. Every update is also where a run's
        time limit stops it (:func:`check_deadline`)."""
        check_deadline()
        if not self.enabled:
            return
        now = self.clock() - self.t0
        if phase != self.phase:
            self._end_phase()
            self.phase, self.tenth = phase, -1
        of = f" of {total:,}" if total is not None else ""
        per = f"{done / now if now > 0 else 0.0:,.0f}/s, " if rate else ""
        line = f"{phase}: {done:,}{of} {unit} ({per}{now:.1f} s)"
        if now < self.after:
            return
        if self.tty:
            if now - self.last >= self.every:
                self._rewrite(line)
                self.last = now
            return
        tenth = 10 * done // total if total else -1
        if now - self.last >= self.log_every or tenth > self.tenth:
            self._write(line + "\n")
            self.last, self.tenth, self.pending = now, max(tenth, self.tenth), None
        else:
            self.pending = line

    def _end_phase(self) -> None:
        """A log gets the last state of a phase that had lines (its final count)."""
        if self.pending is not None and self.shown:
            self._write(self.pending + "\n")
        self.pending = None

    def _rewrite(self, line: str) -> None:
        self._write("\r" + line.ljust(self.width))
        self.width = len(line)

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """The end of the run: a terminal's line is cleared, a log gets the final state."""
        if not (self.enabled and self.shown):
            return
        if self.tty:
            if self.width:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
                self.width = 0
            return
        self._end_phase()
