"""Processes: the one launcher every section measures through, the child programs' commands,
repeated runs and why a run failed.

Every measured process (a ``dagger`` command, a peer, a child of :mod:`scripts.bench.child`)
is started by ``child/launcher.py``, a fresh small interpreter, and reported as a dict:
``wall`` (s), ``peak_mib`` (peak RSS of the process), ``cpu`` (s, user + system), ``code``
(the exit code, or ``"timeout"``), ``stdout``, ``stderr``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CHILD_DIR = Path(__file__).resolve().parent / "child"
#: The venv's ``dagger`` entry point, beside its interpreter.
DAGGER = str(Path(sys.executable).with_name("dagger"))


def dagger(*args: str) -> list[str]:
    """The command line of ``dagger ARGS`` (the venv's entry point)."""
    return [DAGGER, *args]


def child(name: str, *args) -> list[str]:
    """The command line of the child program ``child/NAME.py`` with ``args``."""
    return [sys.executable, str(CHILD_DIR / f"{name}.py"), *map(str, args)]


def launch(cmd: list[str], limit: float | None = None, env: dict | None = None) -> dict:
    """``cmd`` run as a fresh process (killed after ``limit`` s, if given): its report."""
    out = subprocess.run(
        child("launcher", "none" if limit is None else limit, *cmd),
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    return json.loads(out)


def launch_ok(cmd: list[str], env: dict | None = None) -> dict:
    """:func:`launch`, and a failed command stops the benchmark with its stderr."""
    res = launch(cmd, env=env)
    if res["code"] != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{res['stderr']}")
    return res


def last_json(res: dict):
    """The last line of a launched child's stdout, as JSON (its figures)."""
    return json.loads(res["stdout"].strip().splitlines()[-1])


def failure(res: dict) -> str:
    """Why a launched run failed: "memory" (stopped by --max-memory or out of memory, even
    if killed at the time limit while it was exiting), "timeout" or "exit N"."""
    if "(--max-memory)" in res["stderr"] or "MemoryError" in res["stderr"]:
        return "memory"
    if res["code"] == "timeout":
        return "timeout"
    return f"exit {res['code']}"


def repeat(cmd: list[str], runs: int, limit: float, once_over: float):
    """``cmd`` run up to ``runs`` times (no more after a run over ``once_over`` s): the
    finished runs' reports, and the failure that stopped them (None if none did)."""
    done = []
    for _ in range(max(runs, 1)):
        r = launch(cmd, limit)
        if r["code"] != 0:
            return done, {
                "failed": failure(r),
                "wall": r["wall"],
                "peak_mib": r["peak_mib"],
                "stderr": r["stderr"][-300:],
            }
        done.append(r)
        if r["wall"] > once_over:
            break
    return done, None


def median_time(fn, runs: int):
    """The median wall time of ``runs`` calls of ``fn`` in this process, and its last result."""
    times = []
    out = None
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out
