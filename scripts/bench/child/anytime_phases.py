"""One ``dagger`` command with a time limit, run in this fresh process with its phases timed:
where the seconds over the limit go.

    DAGGER_BENCH_LAUNCH=<time.monotonic() of the launch> \
        python scripts/bench/child/anytime_phases.py DAGGER_ARG ...

The command runs in process (``dagger_cli.cli.main``, its output discarded); the engine's
anytime driver and its deadline check are wrapped, not changed. Prints one JSON line of
seconds, each from the moment the limit's clock started (``solve_within`` entered;
negative: before it): ``launch`` (the parent's launch), ``start`` (this interpreter's first
statement), ``imported`` (the command line imported), ``table_start`` and ``table_end`` (the table
read and prepared), ``deadline`` (the limit),
``noticed`` (the first deadline check that raised), ``answer`` and ``answered`` (the
answer of what finished: entered, returned), ``returned`` (the driver returned), ``done``
(the command returned, its output written); ``phases``: the driver's steps that started
(greedy trees, the least misclassifications, each depth cap) with their start and end and
the first deadline check after their start (seconds after it);
``checks``: how many deadline checks ran; ``longest_check_gap``: the longest time without
one from the first step's start to the last step's end. The parent adds the process's exit.
"""

import contextlib
import io
import json
import os
import sys
import time

START = time.monotonic()
LAUNCH = float(os.environ.get("DAGGER_BENCH_LAUNCH", START))

from dagger_cli.cli import main as dagger  # noqa: E402
from dagger_cli.engine import anytime, progress  # noqa: E402

IMPORTED = time.monotonic()
marks: dict = {}
phases: list = []
checks: list = []


def _now() -> float:
    return time.monotonic()


def wrap_checks() -> None:
    inner = progress.check_deadline

    def check_deadline() -> None:
        checks.append(_now())
        try:
            inner()
        except BaseException:
            marks.setdefault("noticed", _now())
            raise

    progress.check_deadline = check_deadline


def wrap_driver() -> None:
    inner_solve = anytime.solve_within
    inner_answer = anytime._answer

    def solve_within(table, query, exact_solve):
        marks["t0"] = _now()
        marks["limit"] = float(query.time_limit)

        def timed_solve(table, q):
            label = "least misclassifications" if q.least_y else f"depth <= {q.max_depth}"
            step = {"step": label, "start": _now()}
            phases.append(step)
            try:
                return exact_solve(table, q)
            finally:
                step["end"] = _now()

        try:
            return inner_solve(table, query, timed_solve)
        finally:
            marks["returned"] = _now()

    def _answer(*args, **kwargs):
        marks["answer"] = _now()
        try:
            return inner_answer(*args, **kwargs)
        finally:
            marks["answered"] = _now()

    anytime.solve_within = solve_within
    anytime._answer = _answer


def wrap_table() -> None:
    from dagger_cli.cli import common

    inner = common.load_table

    def load_table(*args, **kwargs):
        marks["table_start"] = _now()
        try:
            return inner(*args, **kwargs)
        finally:
            marks["table_end"] = _now()

    common.load_table = load_table


def wrap_greedy() -> None:
    import dagger_cli.greedy as greedy

    inner = greedy.greedy_trees

    def greedy_trees(*args, **kwargs):
        step = {"step": "greedy trees", "start": _now()}
        phases.append(step)
        try:
            yield from inner(*args, **kwargs)
        finally:
            step["end"] = _now()

    greedy.greedy_trees = greedy_trees


def main(args: list[str]) -> None:
    wrap_checks()
    wrap_driver()
    wrap_greedy()
    wrap_table()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = dagger.main(args, prog_name="dagger", standalone_mode=False) or 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    done = _now()
    t0 = marks.get("t0", done)

    def rel(t):
        return None if t is None else t - t0

    # The work's first step, every deadline check after it, and the end of the last step:
    # the longest time the engine went without a check (the deadline can be late by that).
    first = phases[0]["start"] if phases else t0
    last = max((p.get("end") or done for p in phases), default=done)
    seen = [first, *(t for t in checks if first <= t <= last), last]
    gaps = [b - a for a, b in zip(seen, seen[1:])]
    figures = {
        "code": code,
        "limit": marks.get("limit"),
        "launch": rel(LAUNCH),
        "start": rel(START),
        "imported": rel(IMPORTED),
        "table_start": rel(marks.get("table_start")),
        "table_end": rel(marks.get("table_end")),
        "deadline": marks.get("limit"),
        "noticed": rel(marks.get("noticed")),
        "answer": rel(marks.get("answer")),
        "answered": rel(marks.get("answered")),
        "returned": rel(marks.get("returned")),
        "done": rel(done),
        "phases": [
            {
                "step": p["step"],
                "start": rel(p["start"]),
                "end": rel(p.get("end")),
                "first_check": next((t - p["start"] for t in checks if t >= p["start"]), None),
            }
            for p in phases
        ],
        "checks": len(checks),
        "longest_check_gap": max(gaps, default=None),
        "done_monotonic": done,
    }
    print(json.dumps(figures), file=sys.__stdout__, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
