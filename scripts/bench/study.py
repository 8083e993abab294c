"""The study section (issue 15): ``dagger study`` on the tables x all 20 ordered cost pairs
(whole processes, fresh output folder) against the same tasks as separate ``dagger relate
-o`` processes one after another, for several worker / engine-thread settings; each curve
checked byte for byte. The settings take turns within each run, medians over the runs.

    python -m scripts.bench run --only study [--tables zoo,mushroom] [--runs 5]
"""

from __future__ import annotations

import csv
import json
import shutil
import statistics
import time
from pathlib import Path

from . import machine, procs, verdict

NAME = "study"
OUTPUT = "study.json"
HELP = "`dagger study` against separate `dagger relate` processes (issue 15)"

CONFIGS = [  # (label, dagger study options): workers x engine threads per task
    ("2 workers x 1 thread (default)", []),
    ("2 workers x 2 threads (oversubscribed)", ["--threads", "2"]),
    ("1 worker x 2 threads", ["--workers", "1", "--threads", "2"]),
    ("1 worker x 1 thread", ["--workers", "1", "--threads", "1"]),
]


def add_arguments(group) -> None:
    """The study section has no options of its own (``--tables``, ``--runs``)."""


def _study_rows(dest: Path, relate_dir: Path, label: str) -> list[dict]:
    """results.csv of a finished study, its curves checked against `dagger relate -o`."""
    with open(dest / "results.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert all(r["status"] == "ok" for r in rows), f"{label}: failed tasks"
    for r in rows:
        same = (dest / r["curve"]).read_bytes() == (relate_dir / Path(r["curve"]).name).read_bytes()
        assert same, f"{label}: {r['curve']} differs from dagger relate -o"
    return rows


def bench_study(out_dir: Path, runs: int, tables) -> dict:
    """`dagger study` (whole process, fresh output folder) against the same tasks as
    separate `dagger relate` processes one after another; medians of ``runs``. Each run
    times every setting in turn, so a change of the machine's load hits them alike."""
    from dagger_cli.costs import ROW_COSTS

    folder = out_dir / "study"
    shutil.rmtree(folder, ignore_errors=True)
    (folder / "relate").mkdir(parents=True)  # dagger creates no folder for a file
    study = folder / "study.toml"
    study.write_text(f'tables = {json.dumps(list(tables))}\npairs = "all"\n')
    pairs = [(x, y) for x in ROW_COSTS for y in ROW_COSTS if x != y]
    tasks = [(t, x, y) for t in tables for x, y in pairs]
    print(f"study: {len(tables)} tables x {len(pairs)} pairs = {len(tasks)} tasks", end=" ")
    print(f"({machine.load_text()})")
    procs.launch_ok(procs.dagger("study", str(study), "-o", str(folder / "warm"), "-q"))
    labels = ["separate relate processes"] + [label for label, _ in CONFIGS]
    times: dict[str, list] = {label: [] for label in labels}
    loads: dict[str, list] = {label: [] for label in labels}
    task_s: dict[str, list] = {label: [] for label in labels}
    for run in range(runs):
        t0 = time.perf_counter()
        for t, x, y in tasks:
            dest = folder / "relate" / f"{t}__{x}__{y}.csv"
            procs.launch_ok(procs.dagger("relate", t, "--x", x, "--y", y, "-q", "-o", str(dest)))
        times[labels[0]].append(time.perf_counter() - t0)
        loads[labels[0]].append(machine.load_average()[0])
        for label, opts in CONFIGS:
            dest = folder / "out"
            shutil.rmtree(dest, ignore_errors=True)
            cmd = procs.dagger("study", str(study), "-o", str(dest), "-q", *opts)
            times[label].append(procs.launch_ok(cmd)["wall"])
            loads[label].append(machine.load_average()[0])
            rows = _study_rows(dest, folder / "relate", label)
            task_s[label].append(sum(float(r["seconds"]) for r in rows))
        print(
            f"  run {run + 1}: "
            + ", ".join(f"{times[label][-1]:.1f} s" for label in labels)
            + f" ({machine.load_text()})",
            flush=True,
        )
    again = procs.launch_ok(procs.dagger("study", str(study), "-o", str(folder / "out"), "-q"))
    seq = statistics.median(times[labels[0]])
    print(f"  {labels[0]}: {seq:.1f} s (median of {runs})")
    configs = []
    for label, opts in CONFIGS:
        wall = statistics.median(times[label])
        own = statistics.median(task_s[label])
        configs.append(
            {
                "config": label,
                "options": opts,
                "wall_s": wall,
                "runs": times[label],
                "task_seconds_sum": own,
                "speedup": seq / wall,
                "load_1min": loads[label],
            }
        )
        print(
            f"  dagger study, {label}: {wall:.1f} s (x{seq / wall:.2f}; "
            f"tasks' own time {own:.1f} s)"
        )
    print(f"  re-run of a finished study (every task skipped): {again['wall']:.1f} s")
    v = verdict.study_verdict(configs[0]["speedup"], machine.cores())
    print(f"targets (issue 15):\n{v.line()}")
    return {
        "tasks": len(tasks),
        "sequential_s": seq,
        "sequential_runs": times[labels[0]],
        "sequential_load_1min": loads[labels[0]],
        "configs": configs,
        "rerun_s": again["wall"],
        "verdicts": [v.as_dict()],
    }


def run(args) -> dict:
    record = machine.Record()
    result = {**bench_study(args.out, args.runs, args.tables.split(",")), **record.done()}
    machine.write_json(args.out, OUTPUT, result)
    return result
