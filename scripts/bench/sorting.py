"""The sorting section (issues 14 and 45): ``dagger optimize sortingN.csv --order
total-path-length,depth --exact-only`` in a fresh process for each N: the least total path
length of a comparison sort, the exact number of sorts reaching it, their depth and the
least depth, checked against Knuth's values (and the 2016 value for N = 8), with wall
time, CPU time and peak RSS; then the natural form of the query, ``--order
misclassifications,total-path-length,depth`` without ``--exact-only``, timed the same way.
Both run on the DAG of isomorphism classes of partial orders (the classes and their edges
are the ``subtables`` and ``edges`` recorded).

    python -m scripts.bench run --only sorting [--sorting 6,7,8,9] [--max-memory 6G]
"""

from __future__ import annotations

import json
import subprocess

from . import machine, procs, verdict

NAME = "sorting"
OUTPUT = "sorting.json"
HELP = "counting on the sorting tables: least total path length, its count (issues 14, 45)"


def add_arguments(group) -> None:
    group.add_argument(
        "--sorting", default="6,7,8,9", metavar="N,...", help="sorting tables (6,7,8,9)"
    )
    group.add_argument("--max-memory", metavar="SIZE", help="--max-memory for the sorting runs")


#: (the figures' prefix, N, seconds, issue, what): each within that time and 8 GiB.
SORTING_TARGETS = [
    ("", 7, 60, 14, "least total path length, its count and the least depth"),
    ("natural_", 7, 30, 45, "misclassifications, total path length, depth"),
    ("natural_", 8, 600, 45, "misclassifications, total path length, depth"),
    ("natural_", 9, 3600, 45, "misclassifications, total path length, depth"),
]


def sorting_verdicts(rows: list[dict]) -> list[verdict.Verdict]:
    """The sorting targets (:data:`SORTING_TARGETS`) of the runs that finished."""
    return [
        verdict.Verdict(
            r[f"{p}wall_s"] <= wall and r[f"{p}peak_mib"] <= 8192,
            f"sorting {n}: {what} in {r[f'{p}wall_s']:.1f} s, {r[f'{p}peak_mib']:.0f} MiB "
            f"(<= {wall} s, <= 8 GiB; issue {issue})",
        )
        for p, n, wall, issue, what in SORTING_TARGETS
        for r in rows
        if r["n"] == n and r.get(f"{p}code") == 0
    ]


def bench_sorting(ns, out_dir, max_memory=None) -> list[dict]:
    """`dagger optimize sortingN.csv --order total-path-length,depth --exact-only`, each
    in a fresh process: the least total path length of a comparison sort, the number of
    sorts reaching it, and their depth (with whether that is the least depth)."""
    from dagger_cli.engine.counting import allow_long_counts
    from dagger_cli.text import abbreviate

    allow_long_counts()  # counts of many thousands of digits
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in ns:
        path = out_dir / f"sorting{n}.csv"
        subprocess.run(
            procs.dagger("example", "sorting", str(n), "-o", str(path), "--force"), check=True
        )
        cmd = procs.dagger("optimize", str(path), "--order", "total-path-length,depth")
        cmd += ["--exact-only", "--format", "json", "-q"]
        cmd += ["--max-memory", max_memory] if max_memory else []
        res = procs.launch(cmd)
        row = {"n": n, "wall_s": res["wall"], "cpu_s": res["cpu"], "peak_mib": res["peak_mib"]}
        row["code"] = res["code"]
        if res["code"] != 0:
            row["error"] = res["stderr"].strip().splitlines()[-1]
            print(f"sorting {n}: exit {res['code']} after {res['wall']:.1f} s: {row['error']}")
            rows.append(row)
            continue
        doc = json.loads(res["stdout"])
        (tpl, trees), (depth, trees_depth) = [(s["value"], s["trees"]) for s in doc["stages"]]
        least_depth = doc["total_optimality"][0]["least"]
        row.update(
            total_path_length=tpl,
            trees=str(trees),
            trees_digits=len(str(trees)),
            trees_at_that_depth=str(trees_depth),
            depth=depth,
            least_depth=least_depth,
            subtables=doc["stats"]["subtables"],
            edges=doc["stats"]["edges"],
        )
        natural = procs.dagger("optimize", str(path), "--format", "json", "-q")
        natural += ["--order", "misclassifications,total-path-length,depth"]
        natural += ["--max-memory", max_memory] if max_memory else []
        res2 = procs.launch(natural)
        row.update(natural_code=res2["code"], natural_wall_s=res2["wall"])
        row.update(natural_cpu_s=res2["cpu"], natural_peak_mib=res2["peak_mib"])
        if res2["code"] == 0:
            stages = json.loads(res2["stdout"])["stages"]
            row["natural_values"] = [s["value"] for s in stages]
        check = verdict.sorting_check(n, tpl, least_depth)
        natural_text = row.get("natural_values", f"exit {res2['code']}")
        print(
            f"sorting {n}: {row['subtables']:,} subtables, {row['edges']:,} edges; least total "
            f"path length {tpl}{check}, {abbreviate(trees)} trees reach it, "
            f"{'all' if trees_depth == trees else abbreviate(trees_depth)} of them of depth "
            f"{depth} (least depth {least_depth}); {res['wall']:.1f} s "
            f"({res['cpu']:.1f} s of CPU), {res['peak_mib']:.0f} MiB; misclassifications, "
            f"total path length, depth: {natural_text} "
            f"in {res2['wall']:.1f} s, {res2['peak_mib']:.0f} MiB",
            flush=True,
        )
        rows.append(row)
    return rows


def run(args) -> dict:
    record = machine.Record()
    ns = [int(v) for v in args.sorting.split(",") if v]
    rows = bench_sorting(ns, args.out, args.max_memory)
    verdicts = sorting_verdicts(rows)
    if verdicts:
        print("targets (issues 14, 45):")
        print("\n".join(v.line() for v in verdicts))
    result = {**record.done(), "rows": rows, "verdicts": [v.as_dict() for v in verdicts]}
    machine.write_json(args.out, OUTPUT, result)
    return result
