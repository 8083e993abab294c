"""The first-call section: what a command costs the first time, in a fresh process whose
kernel caches are empty, beside its warm second call in the same process.

For each case (a ``dagger`` command), a fresh process (``child/first_call.py``) with
``NUMBA_CACHE_DIR`` pointed at an empty temporary folder runs the command in process once
(numba compiles every kernel it needs and fills that folder) and then ``--first-warm-runs``
times more (warm: the median is the figure); a second fresh process with the cache now
filled gives the first call that every later process pays. With a compiled core there is no
kernel cache to empty: the same figures are simply measured. The target (the C++ port's):
first call <= 1.5 x warm + 1 s.

    python -m scripts.bench run --only firstcall [--first-warm-runs 3]
        [--first-cases 'relate zoo -q; relate num-raisin --x depth --max-depth 3 -q']
"""

from __future__ import annotations

import os
import shlex
import statistics
import tempfile

from . import machine, procs, verdict

NAME = "firstcall"
OUTPUT = "first-call.json"
HELP = "the first call in a fresh process, kernel caches empty, against the warm call"

#: (label, dagger arguments): the fast engine uncapped, a depth cap on a binary benchmark
#: table, a numeric table at depth 3 (the ordered solver).
CASES = [
    ("relate zoo", ["relate", "zoo", "-q"]),
    (
        "relate odt-german-credit, depth vs µ, D = 4",
        ["relate", "odt-german-credit", "--x", "depth", "--max-depth", "4", "-q"],
    ),
    (
        "relate num-raisin, depth vs µ, D = 3",
        ["relate", "num-raisin", "--x", "depth", "--max-depth", "3", "-q"],
    ),
]


def parse_cases(text: str) -> list[tuple[str, list[str]]]:
    """``dagger`` commands separated by ``;``, each labelled by itself."""
    out = []
    for part in text.split(";"):
        args = shlex.split(part)
        if args:
            out.append((" ".join(args), args))
    return out


def add_arguments(group) -> None:
    group.add_argument(
        "--first-cases",
        type=parse_cases,
        default=CASES,
        metavar="'ARGS; ARGS'",
        help="dagger commands to measure, separated by ';' (default: relate zoo; a depth cap "
        "on odt-german-credit; num-raisin at depth 3)",
    )
    group.add_argument(
        "--first-warm-runs", type=int, default=3, help="warm calls after the first (median; 3)"
    )
    group.add_argument(
        "--first-runs",
        type=int,
        default=1,
        help="fresh processes per case, each with its own empty cache (median; 1)",
    )
    group.add_argument(
        "--first-timeout", type=float, default=900.0, help="seconds per process (default 900)"
    )


def _fetch(args: list[str]) -> None:
    """The command's registered table in dagger's cache before any timing."""
    from dagger_cli.data.datasets import REGISTRY, fetch

    for a in args:
        if a in REGISTRY:
            fetch(a)


def _measure(args, warm_runs, limit, cache_dir) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    r = procs.launch(procs.child("first_call", warm_runs, *args), limit, env)
    if r["code"] != 0:
        return {"failed": procs.failure(r), "wall": r["wall"], "stderr": r["stderr"][-300:]}
    return {**procs.last_json(r), "process_s": r["wall"], "peak_mib": r["peak_mib"]}


def measure_case(label, args, warm_runs, runs, limit) -> dict:
    """One case: ``runs`` fresh processes with empty caches, then one with the cache the
    last of them filled."""
    _fetch(args)
    cold, cached = [], None
    for _ in range(max(runs, 1)):
        with tempfile.TemporaryDirectory(prefix="dagger-first-call-") as cache:
            cold.append(_measure(args, warm_runs, limit, cache))
            if "failed" in cold[-1]:
                return {"label": label, "args": args, **cold[-1]}
            cached = _measure(args, warm_runs, limit, cache)
    assert cached is not None
    case = {
        "label": label,
        "args": args,
        "first_s": statistics.median(c["first_s"] for c in cold),
        "warm_s": statistics.median(c["warm_s"] for c in cold),
        "process_s": statistics.median(c["process_s"] for c in cold),
        "peak_mib": max(c["peak_mib"] for c in cold),
        "import_s": statistics.median(c["import_s"] for c in cold),
        "cached_first_s": cached.get("first_s"),
        "same_output": all(c["same_output"] for c in cold) and cached.get("same_output", False),
        "numba_loaded": cold[0]["numba_loaded"],
        "cache_files": cold[0]["cache_files"],
        "runs": [{k: c[k] for k in ("first_s", "warm_s", "process_s")} for c in cold],
    }
    case["ratio"] = case["first_s"] / case["warm_s"] if case["warm_s"] > 0 else float("inf")
    case["difference_s"] = case["first_s"] - case["warm_s"]
    return case


def case_line(c: dict) -> str:
    if "failed" in c:
        return f"  {c['label']}: FAILED ({c['failed']}, {c['wall']:.0f} s) {c['stderr']}"
    if c["cache_files"]:
        caches = f"caches empty; {c['cache_files']} kernel cache files written"
    else:
        caches = "no kernel cache written" + (" (numba loaded)" if c["numba_loaded"] else "")
    cached = c["cached_first_s"]
    line = (
        f"  {c['label']}: first call {c['first_s']:.2f} s ({caches}), warm {c['warm_s']:.3f} s: "
        f"x{c['ratio']:.1f}, +{c['difference_s']:.2f} s; caches filled: first {cached:.2f} s; "
        f"whole process {c['process_s']:.1f} s, {c['peak_mib']:.0f} MiB "
        f"(import {c['import_s']:.2f} s)"
    )
    if not c["same_output"]:
        line += "\n  !!! the first and the warm calls answered differently"
    return line


def markdown(cases) -> str:
    lines = [
        "| command | first call (caches empty) | warm call | first / warm | first − warm "
        "| first call (caches filled) | target |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for c in cases:
        if "failed" in c:
            lines.append(f"| {c['label']} | failed ({c['failed']}) | | | | | |")
            continue
        v = verdict.first_call_verdict(c)
        lines.append(
            f"| {c['label']} | {c['first_s']:.2f} s | {c['warm_s']:.3f} s | ×{c['ratio']:.1f} "
            f"| {c['difference_s']:.2f} s | {c['cached_first_s']:.2f} s | {v.mark} |"
        )
    return "\n".join(lines)


def run(args) -> dict:
    record = machine.Record()
    print(
        f"first call: {len(args.first_cases)} command(s), each in a fresh process with empty "
        f"kernel caches (NUMBA_CACHE_DIR), then {args.first_warm_runs} warm call(s) in it; "
        f"{machine.cores()} cores, {machine.load_text()}",
        flush=True,
    )
    cases = []
    for label, cmd in args.first_cases:
        cases.append(
            measure_case(label, cmd, args.first_warm_runs, args.first_runs, args.first_timeout)
        )
        print(case_line(cases[-1]), flush=True)
    times = record.done()
    print(f"first call done: {machine.load_text()}")
    verdicts = [verdict.first_call_verdict(c) for c in cases if "failed" not in c]
    print(
        f"targets (the compiled core: first call <= {verdict.FIRST_FACTOR:g} x warm + "
        f"{verdict.FIRST_S:g} s):"
    )
    print("\n".join(v.line() for v in verdicts))
    table_md = markdown(cases)
    print(table_md)
    result = {
        **times,
        "cases": cases,
        "verdicts": [v.as_dict() for v in verdicts],
        "markdown": table_md,
    }
    machine.write_json(args.out, OUTPUT, result)
    return result
