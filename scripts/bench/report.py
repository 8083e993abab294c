"""The report section (issue 39): ``--report`` of a long front against the front's own time.
Every run is a fresh ``dagger relate`` process, timed whole, start-up included:

* **the front**: ``relate T --max-depth D -q -o front.csv`` (the front and its CSV);
* **the report**: the same with ``--report r.html`` (the front, its CSV, then every
  point's tree, up to 250, in one pass, and the page);

taking turns, ``--report-runs`` of each; the medians, their ratio (target: the report
within 2x the front's own time, issue 39) and each run's peak memory. Cases: numeric
tables kept whole (``--thresholds``) with long total-path-length vs misclassifications
fronts, and a generated table no test uses (54,000 rows x 6 random columns by default,
``--thresholds all``), at depth 2 and 3.

    python -m scripts.bench run --only report [--report-runs 3] [--report-rows 54000]
        [--report-cases bank:3,rice:3,large:2,large:3]
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from . import anytime, machine, num, procs
from .verdict import Verdict

NAME = "report"
OUTPUT = "report.json"
HELP = "--report of a long front: its time against the front's own (one pass of trees)"

#: Issue 39: a report within this many times the front's own time.
REPORT_RATIO = 2.0
#: table:depth; ``large`` is the generated table.
CASES = ("bank:3", "rice:3", "large:2", "large:3")


def add_arguments(group) -> None:
    group.add_argument("--report-runs", type=int, default=3, help="runs of each (median; 3)")
    group.add_argument(
        "--report-cases",
        default=",".join(CASES),
        help="table:depth,... (num tables, or large: the generated one)",
    )
    group.add_argument(
        "--report-rows", type=int, default=54_000, help="rows of the generated table"
    )
    group.add_argument("--report-cols", type=int, default=6, help="columns of the generated table")


def bench_case(label: str, table: str, depth: int, extra: tuple, runs: int, tmp: Path) -> dict:
    """The front and the report of one case, ``runs`` each, taking turns."""
    env = num._env()
    base = procs.dagger(
        "relate", table, "--max-depth", str(depth), *extra, "-q", "-o", str(tmp / "front.csv"),
    )  # fmt: skip
    report = [*base, "--report", str(tmp / "r.html")]
    fronts, reports = [], []
    for _ in range(runs):
        for cmd, into in ((base, fronts), (report, reports)):
            into.append(procs.launch_ok(cmd, env))
    points = sum(1 for line in (tmp / "front.csv").read_text().splitlines()[1:] if line)
    front_s = statistics.median(r["wall"] for r in fronts)
    report_s = statistics.median(r["wall"] for r in reports)
    row = {
        "case": f"{label}, depth <= {depth}",
        "points": points,
        "front_s": front_s,
        "report_s": report_s,
        "ratio": report_s / front_s if front_s > 0 else None,
        "front_peak_mib": max(r["peak_mib"] for r in fronts),
        "report_peak_mib": max(r["peak_mib"] for r in reports),
        "runs": runs,
        "load_1min": machine.load_average()[0],
    }
    print(
        f"  {row['case']}: {points} points; front {front_s:.2f} s, with the report "
        f"{report_s:.2f} s (x{row['ratio']:.2f}); peak {row['front_peak_mib']:.0f} / "
        f"{row['report_peak_mib']:.0f} MiB; {machine.load_text()}",
        flush=True,
    )
    return row


def report_verdict(row: dict) -> Verdict:
    """Issue 39: ``--report`` of a long front within 2x the front's own time."""
    ratio = row["ratio"]
    return Verdict(
        ratio is not None and ratio <= REPORT_RATIO,
        f"{row['case']}: the report of {row['points']} points in {row['report_s']:.2f} s, "
        f"x{ratio:.2f} the front's {row['front_s']:.2f} s (target <= x{REPORT_RATIO:g})",
    )


def run(args) -> dict:
    if not num.NUM_DIR.is_dir():
        print(f"report bench: the numeric tables are not at {num.NUM_DIR}; skipped")
        return {}
    record = machine.Record()
    print(f"report bench (issue 39): {machine.cores()} cores, {machine.load_text()}", flush=True)
    rows = []
    with tempfile.TemporaryDirectory(prefix="dagger-report-") as tmp:
        folder = Path(tmp)
        large = None
        for case in [c for c in args.report_cases.split(",") if c]:
            name, depth = case.split(":")
            if name == "large":
                if large is None:
                    large = anytime.large_table(folder, args.report_rows, args.report_cols)
                label = f"{args.report_rows:,} x {args.report_cols}"
                table, extra = str(large), ("--thresholds", "all")
            else:
                label, table, extra = name, f"num-{name}", ()
            rows.append(bench_case(label, table, int(depth), extra, args.report_runs, folder))
    out = {"cases": rows, **record.done()}
    verdicts = [report_verdict(r) for r in rows]
    print("targets (issue 39):")
    print("\n".join(v.line() for v in verdicts))
    out["verdicts"] = [v.as_dict() for v in verdicts]
    machine.write_json(args.out, OUTPUT, out)
    return out
