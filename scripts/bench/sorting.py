"""The sorting section (issue 14): ``dagger optimize sortingN.csv --order
total-path-length,depth --exact-only`` in a fresh process for each N: the least total path
length of a comparison sort, the exact number of sorts reaching it, their depth and the
least depth, checked against Knuth's values, with wall time, CPU time and peak RSS.

    python -m scripts.bench run --only sorting [--sorting 6,7] [--max-memory 6G]
"""

from __future__ import annotations

import json
import subprocess

from . import machine, procs, verdict

NAME = "sorting"
OUTPUT = "sorting.json"
HELP = "counting on the sorting tables: least total path length, its count (issue 14)"


def add_arguments(group) -> None:
    group.add_argument("--sorting", default="6,7", metavar="N,...", help="sorting tables (6,7)")
    group.add_argument("--max-memory", metavar="SIZE", help="--max-memory for the sorting runs")


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
        check = verdict.sorting_check(n, tpl, least_depth)
        print(
            f"sorting {n}: {row['subtables']:,} subtables, {row['edges']:,} edges; least total "
            f"path length {tpl}{check}, {abbreviate(trees)} trees reach it, "
            f"{'all' if trees_depth == trees else abbreviate(trees_depth)} of them of depth "
            f"{depth} (least depth {least_depth}); {res['wall']:.1f} s "
            f"({res['cpu']:.1f} s of CPU), {res['peak_mib']:.0f} MiB",
            flush=True,
        )
        rows.append(row)
    return rows


def run(args) -> dict:
    record = machine.Record()
    ns = [int(v) for v in args.sorting.split(",") if v]
    rows = bench_sorting(ns, args.out, args.max_memory)
    verdicts = verdict.sorting_verdicts(rows)
    if verdicts:
        print("targets (issue 14):")
        print("\n".join(v.line() for v in verdicts))
    result = {**record.done(), "rows": rows, "verdicts": [v.as_dict() for v in verdicts]}
    machine.write_json(args.out, OUTPUT, result)
    return result
