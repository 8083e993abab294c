"""The rules section: ``dagger rules TABLE -q -o X.csv``, whole processes (median wall, peak
RSS): every row's front of exact rules, on mushroom and nursery (the whole DAG) and, with
``--max-length 3``, on the odt tables.

    python -m scripts.bench run --only rules [--runs 5] [--odt-tables hepatitis,vote]
"""

from __future__ import annotations

import statistics

from . import machine, procs

NAME = "rules"
OUTPUT = "rules.json"
HELP = "`dagger rules` on mushroom, nursery and the odt tables"


def add_arguments(group) -> None:
    """The rules section has no options of its own (``--runs``, ``--odt-tables``)."""


def bench_rules(out_dir, runs: int, odt_tables, max_length: int = 3) -> list[dict]:
    """Whole `dagger rules` processes; the load average before and after."""
    folder = out_dir / "rules"
    folder.mkdir(parents=True, exist_ok=True)
    cases = [("mushroom", None), ("nursery", None)] + [(f"odt-{t}", max_length) for t in odt_tables]
    print(
        f"rules: whole `dagger rules` processes, median of {runs}; {machine.load_text()}",
        flush=True,
    )
    rows = []
    for name, cap in cases:
        dest = folder / f"{name}.csv"
        cmd = procs.dagger("rules", name, "-q", "-o", str(dest))
        if cap is not None:
            cmd += ["--max-length", str(cap)]
        res = [procs.launch_ok(cmd) for _ in range(runs)]
        with dest.open() as fh:
            lines = sum(1 for _ in fh) - 1
        row = {
            "table": name,
            "max_length": cap,
            "wall_s": statistics.median(r["wall"] for r in res),
            "peak_mib": max(r["peak_mib"] for r in res),
            "csv_lines": lines,
        }
        rows.append(row)
        label = name + ("" if cap is None else f" --max-length {cap}")
        print(
            f"  {label:<36} {row['wall_s']:6.2f} s  {row['peak_mib']:6.0f} MiB  {lines:,} rule(s)",
            flush=True,
        )
    print(f"rules: done; {machine.load_text()}")
    return rows


def run(args) -> dict:
    record = machine.Record()
    result = {"rows": bench_rules(args.out, args.runs, args.odt_tables), **record.done()}
    machine.write_json(args.out, OUTPUT, result)
    return result
