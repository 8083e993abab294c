"""The anytime section (issue 33): ``--time-limit``, the best front found within a time
limit, each point proven or not, with a proven bound. Every run is a fresh ``dagger
relate`` process (``-q --format json``), timed whole, start-up included:

* **the limit is honoured** (part ``limits``): ``relate num-T --max-depth 4 --time-limit L``
  on numeric tables whose exact front takes much longer (segment and rice, total path length
  vs misclassifications), for each limit L (1, 3, 10 s): the wall time and its time over the
  limit (wall - L), median of ``--anytime-runs``, alone (the machine's own load) and beside
  a busy neighbour (one more process spinning in a Python loop, started by the section for
  the run and stopped after), the two taking turns. Target: over the limit <= 1 s beside the
  busy neighbour;
* **every numeric table within 10 s** (part ``six``): ``--time-limit 10s`` at depth 4 on the
  six numeric tables, one run each, and (part ``large``) on a generated table no test uses
  (30,000 rows x 12 columns of random floats, the decision made from four of them,
  ``--thresholds all``) at each limit and 10 s: each returns within its limit + 1 s with a
  front and a bound (exit 6: stopped at the limit; 0: the exact front, its own bound);
* **a limit long enough gives the exact answer** (part ``exact``): ``--format csv`` with
  ``--time-limit 1h`` equals the output without a limit, byte for byte;
* **what the answers say**: per run the status, the points, the points proven and the
  largest gap (JSON: ``status``, ``bound``, each point's ``proven`` and ``gap``);
* **where the time over the limit goes** (part ``phases``): the same command run in process
  by a fresh ``child/anytime_phases.py``: the start-up before the limit's clock starts, the
  driver's steps and their first deadline checks, the deadline noticed, the work stopped,
  the answer made, the output, the exit.

    python -m scripts.bench run --only anytime [--anytime-tables segment,rice]
        [--anytime-limits 1,3,10] [--anytime-runs 5] [--anytime-depth 4]
        [--anytime-parts limits,six,large,exact,phases] [--anytime-large-rows 30000]
"""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from . import load, machine, num, procs, verdict

NAME = "anytime"
OUTPUT = "anytime.json"
HELP = "--time-limit: the limit honoured (alone, beside a busy neighbour), exact when long enough"

PARTS = ("limits", "six", "large", "exact", "phases")
LIMIT_TABLES = ("segment", "rice")
LIMITS = (1.0, 3.0, 10.0)
#: The limit every numeric table is run at (part ``six``, ``large``).
TEN = 10.0
#: Cases whose output must not change with a long limit (part ``exact``).
EXACT_CASES = [
    ["relate", "num-raisin", "--x", "depth", "--max-depth", "2"],
    ["relate", "num-bank", "--max-depth", "2"],
]
LONG_LIMIT = "1h"
#: The phases measured (part ``phases``): each limit table at this limit, alone and beside a
#: busy neighbour; the generated table at the shortest limit and at 10 s.
PHASES_LIMIT = 3.0


def limits_arg(text: str) -> list[float]:
    return [float(v) for v in text.split(",") if v.strip()]


def add_arguments(group) -> None:
    group.add_argument(
        "--anytime-tables",
        default=",".join(LIMIT_TABLES),
        help="numeric tables of the limits part (default segment,rice)",
    )
    group.add_argument(
        "--anytime-limits",
        type=limits_arg,
        default=list(LIMITS),
        metavar="S,...",
        help="time limits in seconds (default 1,3,10)",
    )
    group.add_argument(
        "--anytime-runs", type=int, default=5, help="runs per limit, alone and busy (median; 5)"
    )
    group.add_argument("--anytime-depth", type=int, default=4, help="--max-depth (default 4)")
    group.add_argument(
        "--anytime-x", default="total-path-length", help="the x cost (default total-path-length)"
    )
    group.add_argument(
        "--anytime-parts",
        default=",".join(PARTS),
        help=f"which parts to run, of {','.join(PARTS)}",
    )
    group.add_argument(
        "--anytime-six",
        default=",".join(num.TABLES),
        help="the numeric tables run at 10 s (default the six)",
    )
    group.add_argument(
        "--anytime-large-rows", type=int, default=30_000, help="rows of the generated table"
    )
    group.add_argument(
        "--anytime-large-cols", type=int, default=12, help="columns of the generated table"
    )
    group.add_argument(
        "--anytime-timeout",
        type=float,
        default=120.0,
        help="seconds past the limit after which a run is killed (default 120)",
    )


# --------------------------------------------------------------------------- one run
def command(table: str, depth: int, limit: float, x: str, *extra: str) -> list[str]:
    """``dagger relate TABLE --max-depth D --x X --time-limit Ls -q --format json``."""
    return procs.dagger(
        "relate", table, "--max-depth", str(depth), "--x", x,
        "--time-limit", f"{limit:g}s", "-q", "--format", "json", *extra,
    )  # fmt: skip


def answer_of(stdout: str) -> dict:
    """What a JSON answer says: its status (``exact`` when it has none), points, points
    proven (every point of an exact answer), the largest gap, whether it has a bound (an
    exact front is its own)."""
    try:
        doc = json.loads(stdout)
    except ValueError:
        return {"status": None, "points": 0, "proven": 0, "max_gap": None, "bound": False}
    pts = doc.get("points", [])
    status = doc.get("status", "exact")
    gaps = [p.get("gap", 0) for p in pts]
    return {
        "status": status,
        "points": len(pts),
        "proven": sum(bool(p.get("proven", True)) for p in pts),
        "max_gap": max(gaps, default=None),
        "bound": status == "exact" or bool(doc.get("bound")),
        "bound_points": len(doc.get("bound", [])),
    }


def measure(cmd: list[str], limit: float, timeout: float, env: dict) -> dict:
    """One fresh process of ``cmd``: its wall time, time over ``limit``, exit, answer."""
    r = procs.launch(cmd, limit + timeout, env)
    run = {
        "wall": r["wall"],
        "over": r["wall"] - limit,
        "code": r["code"],
        "peak_mib": r["peak_mib"],
        "load_1min": machine.load_average()[0],
        **answer_of(r["stdout"]),
    }
    if r["code"] not in verdict.ANYTIME_EXITS:
        run["stderr"] = r["stderr"][-300:]
    return run


def busy_run(cmd: list[str], limit: float, timeout: float, env: dict) -> dict:
    """:func:`measure` beside one busy neighbour, started for the run and stopped after."""
    with load.BusyNeighbours(1):
        return measure(cmd, limit, timeout, env)


def median(values) -> float:
    values = list(values)
    return statistics.median(values) if values else float("nan")


def summary(runs: list[dict]) -> dict:
    """Medians and ranges of a case's runs, and what the answers said."""
    return {
        "wall": median(r["wall"] for r in runs),
        "over": median(r["over"] for r in runs),
        "over_max": max((r["over"] for r in runs), default=float("nan")),
        "codes": sorted({str(r["code"]) for r in runs}),
        "points": sorted({r["points"] for r in runs}),
        "proven": sorted({r["proven"] for r in runs}),
        "max_gap": sorted({r["max_gap"] for r in runs if r["max_gap"] is not None}),
        "answered": all(verdict.anytime_answered(r) for r in runs),
    }


def span(values: list) -> str:
    """``3`` or ``3-5`` (the values' range)."""
    if not values:
        return "-"
    lo, hi = min(values), max(values)
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def quality(s: dict) -> str:
    return f"{span(s['proven'])} of {span(s['points'])} proven, largest gap {span(s['max_gap'])}"


# --------------------------------------------------------------------------- the parts
def bench_limits(tables, limits, runs, depth, x, timeout) -> list[dict]:
    """Each table at each limit, alone and beside a busy neighbour, taking turns."""
    rows = []
    env = num._env()
    for t in tables:
        for limit in limits:
            cmd = command(f"num-{t}", depth, limit, x)
            alone, busy = [], []
            for _ in range(max(runs, 1)):
                alone.append(measure(cmd, limit, timeout, env))
                busy.append(busy_run(cmd, limit, timeout, env))
            row = {
                "table": t,
                "limit": limit,
                "depth": depth,
                "x": x,
                "alone": summary(alone),
                "busy": summary(busy),
                "runs": {"alone": alone, "busy": busy},
            }
            rows.append(row)
            a, b = row["alone"], row["busy"]
            print(
                f"  {t:8s} --time-limit {limit:g}s D={depth}: over the limit alone "
                f"{a['over']:+.2f} s (max {a['over_max']:+.2f}), beside a busy neighbour "
                f"{b['over']:+.2f} s (max {b['over_max']:+.2f}); exit {'/'.join(b['codes'])}; "
                f"{quality(b)} (busy), {quality(a)} (alone)",
                flush=True,
            )
    return rows


def bench_within(cases, limit, depth, x, timeout) -> list[dict]:
    """Each ``(label, table argument, extra arguments)`` once at ``limit``."""
    rows = []
    env = num._env()
    for label, table, extra in cases:
        r = measure(command(table, depth, limit, x, *extra), limit, timeout, env)
        r.update(table=label, limit=limit, depth=depth)
        rows.append(r)
        print(
            f"  {label:8s} --time-limit {limit:g}s D={depth}: {r['wall']:.2f} s "
            f"({r['over']:+.2f} s), exit {r['code']}, {r['status']}: {r['proven']} of "
            f"{r['points']} proven, largest gap {r['max_gap']}, bound "
            f"{'yes' if r['bound'] else 'NO'}" + (f" {r['stderr']}" if "stderr" in r else ""),
            flush=True,
        )
    return rows


def large_table(folder: Path, rows: int, cols: int) -> Path:
    """A CSV of ``rows`` x ``cols`` random floats (4 decimals) and a 0/1 decision made from
    four of them with noise; the same file for the same sizes."""
    import numpy as np

    rng = np.random.default_rng(33)
    X = rng.normal(size=(rows, cols)).round(4)
    score = X[:, 0] - 0.7 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3]
    y = (score + rng.normal(scale=0.4, size=rows) > 0).astype(int)
    path = folder / f"anytime-{rows}x{cols}.csv"
    header = ",".join([f"x{j}" for j in range(cols)] + ["y"])
    fmt = ["%.4f"] * cols + ["%d"]
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header=header, comments="", fmt=fmt)
    return path


def bench_exact(cases, timeout) -> list[dict]:
    """Each case's ``--format csv`` output with ``--time-limit 1h`` against without a limit."""
    rows = []
    env = num._env()
    for args in cases:
        plain = procs.launch(procs.dagger(*args, "-q", "--format", "csv"), timeout, env)
        cmd = procs.dagger(*args, "--time-limit", LONG_LIMIT, "-q", "--format", "csv")
        limited = procs.launch(cmd, timeout, env)
        row = {
            "case": " ".join(args),
            "codes": [plain["code"], limited["code"]],
            "walls": [plain["wall"], limited["wall"]],
            "same": plain["stdout"] == limited["stdout"] and bool(plain["stdout"]),
            "lines": len(plain["stdout"].splitlines()),
        }
        rows.append(row)
        print(
            f"  {row['case']} --format csv: without a limit {plain['wall']:.2f} s (exit "
            f"{plain['code']}), --time-limit {LONG_LIMIT} {limited['wall']:.2f} s (exit "
            f"{limited['code']}): {'the same bytes' if row['same'] else 'DIFFERENT'} "
            f"({row['lines']} lines)",
            flush=True,
        )
    return rows


def phases_run(args: list[str], limit: float, timeout: float, env: dict) -> dict:
    """``dagger ARGS`` in ``child/anytime_phases.py``: its phases and the process's exit,
    in seconds from the limit's clock start."""
    t_launch = time.monotonic()
    env = dict(env, DAGGER_BENCH_LAUNCH=repr(t_launch))
    p = subprocess.run(
        procs.child("anytime_phases", *args),
        capture_output=True,
        text=True,
        env=env,
        timeout=limit + timeout,
    )
    end = time.monotonic()
    if p.returncode != 0 or not p.stdout.strip():
        return {"failed": p.returncode, "stderr": p.stderr[-300:]}
    doc = json.loads(p.stdout.strip().splitlines()[-1])
    doc["exited"] = doc["done"] + (end - doc.pop("done_monotonic"))
    doc["wall"] = end - t_launch
    doc["over"] = doc["wall"] - limit
    return doc


def breakdown(doc: dict) -> dict:
    """The seconds of a phases run: before the limit's clock started (the interpreter's
    start, the imports, the command line, the table read and prepared), then after the
    limit (the deadline noticed, the work stopped, the answer made, the output, the exit)."""
    noticed = doc["noticed"] if doc["noticed"] is not None else doc["answer"]
    out = {
        "interpreter": doc["start"] - doc["launch"],
        "imports": doc["imported"] - doc["start"],
    }
    if doc.get("table_start") is not None and doc.get("table_end") is not None:
        out["command line"] = doc["table_start"] - doc["imported"] - doc["table_end"]
        out["table read"] = doc["table_end"] - doc["table_start"]
    else:
        out["command line"] = -doc["imported"]
    if doc["answer"] is not None and noticed is not None:  # stopped at the limit
        out.update(
            {
                "deadline noticed": noticed - doc["deadline"],
                "work stopped": doc["answer"] - noticed,
                "answer made": doc["answered"] - doc["answer"],
            }
        )
    out["output"] = doc["done"] - (doc["answered"] or doc["returned"] or doc["done"])
    out["exit"] = doc["exited"] - doc["done"]
    return out


def bench_phases(cases, timeout) -> list[dict]:
    env = num._env()
    rows = []
    for label, args, limit, busy in cases:
        if busy:
            with load.BusyNeighbours(1):
                doc = phases_run(args, limit, timeout, env)
        else:
            doc = phases_run(args, limit, timeout, env)
        doc.update(label=label, busy=busy)
        if "failed" not in doc:
            doc["breakdown"] = breakdown(doc)
        rows.append(doc)
        print("  " + phases_line(doc), flush=True)
    return rows


def phases_line(doc: dict) -> str:
    where = " beside a busy neighbour" if doc["busy"] else ""
    if "failed" in doc:
        return f"{doc['label']}{where}: FAILED ({doc['failed']}) {doc['stderr']}"
    parts = ", ".join(f"{k} {v:.2f} s" for k, v in doc["breakdown"].items())
    steps = "; ".join(
        f"{p['step']} {p['start']:.2f}-"
        + ("" if p["end"] is None else f"{p['end']:.2f}")
        + " s"
        + ("" if p.get("first_check") is None else f" (first check {p['first_check']:.2f} s in)")
        for p in doc["phases"]
    )
    gap = doc["longest_check_gap"]
    return (
        f"{doc['label']}{where}: {doc['wall']:.2f} s, {doc['over']:+.2f} s over: {parts} "
        f"(steps: {steps}; {doc['checks']} deadline checks, at most "
        f"{'-' if gap is None else f'{gap:.2f}'} s apart from the first step on)"
    )


# --------------------------------------------------------------------------- the report
def markdown(out: dict) -> str:
    """The figures as the results page's tables."""
    lines = []
    if out.get("limits"):
        lines += [
            "| table, limit | over the limit alone | beside a busy neighbour | exit "
            "| proven of points (busy) | largest gap | ≤ 1 s |",
            "| --- | ---: | ---: | --- | --- | --- | --- |",
        ]
        for r in out["limits"]:
            a, b = r["alone"], r["busy"]
            v = verdict.anytime_limit_verdict(r)
            lines.append(
                f"| {r['table']}, {r['limit']:g} s | {a['over']:+.2f} s | {b['over']:+.2f} s "
                f"(max {b['over_max']:+.2f}) | {'/'.join(b['codes'])} | {span(b['proven'])} of "
                f"{span(b['points'])} | {span(b['max_gap'])} | {v.mark} |"
            )
    within = (out.get("six") or []) + (out.get("large") or [])
    if within:
        lines += [
            "",
            "| table, limit (one run) | wall | exit | proven of points | largest gap "
            "| ≤ limit + 1 s |",
            "| --- | ---: | --- | --- | --- | --- |",
        ]
        for r in within:
            lines.append(
                f"| {r['table']}, {r['limit']:g} s | {r['wall']:.2f} s | {r['code']} | "
                f"{r['proven']} of {r['points']} | {r['max_gap']} | "
                f"{verdict.met(verdict.anytime_within(r))} |"
            )
    return "\n".join(lines)


def run(args) -> dict:
    if not num.NUM_DIR.is_dir():
        print(f"anytime bench: the numeric tables are not at {num.NUM_DIR}; skipped")
        return {}
    record = machine.Record()
    parts = set(args.anytime_parts.split(","))
    tables = [t for t in args.anytime_tables.split(",") if t]
    depth, x, timeout = args.anytime_depth, args.anytime_x, args.anytime_timeout
    env = num._env()
    out: dict = {"depth": depth, "x": x}
    print(f"anytime bench (issue 33): {machine.cores()} cores, {machine.load_text()}", flush=True)
    # The tables in dagger's cache and the kernels compiled before any timing.
    six = [t for t in args.anytime_six.split(",") if t]
    warm = {}
    for t in dict.fromkeys(tables + six):
        warm[t] = procs.launch(command(f"num-{t}", depth, 1.0, x), 1.0 + 900, env)["wall"]
    out["warm_up_s"] = warm
    said = ", ".join(f"{t} {s:.1f} s" for t, s in warm.items())
    print(f"  warm-up at 1 s (the tables cached, the kernels compiled): {said}", flush=True)
    with tempfile.TemporaryDirectory(prefix="dagger-anytime-") as tmp:
        large = large_table(Path(tmp), args.anytime_large_rows, args.anytime_large_cols)
        large_label = f"{args.anytime_large_rows:,} x {args.anytime_large_cols}"
        large_extra = ("--thresholds", "all")
        if "limits" in parts:
            out["limits"] = bench_limits(
                tables, args.anytime_limits, args.anytime_runs, depth, x, timeout
            )
        if "six" in parts:
            cases = [(t, f"num-{t}", ()) for t in six]
            out["six"] = bench_within(cases, TEN, depth, x, timeout)
        if "large" in parts:
            cases = [(large_label, str(large), large_extra)]
            out["large"] = [
                r
                for limit in sorted({*args.anytime_limits, TEN})
                for r in bench_within(cases, limit, depth, x, timeout)
            ]
        if "exact" in parts:
            out["exact"] = bench_exact(EXACT_CASES, timeout + 600)
        if "phases" in parts:
            cases = []
            for t in tables:
                a = command(f"num-{t}", depth, PHASES_LIMIT, x)[1:]
                cases += [(f"{t} at {PHASES_LIMIT:g} s", a, PHASES_LIMIT, b) for b in (0, 1)]
            for limit in sorted({min(args.anytime_limits), TEN}):
                a = command(str(large), depth, limit, x, *large_extra)[1:]
                cases.append((f"{large_label} at {limit:g} s", a, limit, 0))
            out["phases"] = bench_phases(cases, timeout)
    out.update(record.done())
    print(f"anytime bench done: {machine.load_text()}", flush=True)
    verdicts = verdict.anytime_verdicts(out)
    print("targets (issue 33):")
    print("\n".join(v.line() for v in verdicts))
    out["verdicts"] = [v.as_dict() for v in verdicts]
    out["markdown"] = markdown(out)
    print(out["markdown"])
    machine.write_json(args.out, OUTPUT, out)
    return out
