"""The bounds section (issue 17): a query that needs only part of a front against the whole
front. Each case (``TABLE:X[:D]``: x against misclassifications, an optional depth cap) runs
in one fresh process (``child/bounds_case.py``: warm-up calls untimed, then ``--bounds-runs``
rounds of the six queries in turn); every answer is checked against the whole front
restricted (:func:`scripts.bench.verdict.check_bounds`), and a wrong one stops the benchmark
(exit 1) after the report and the file.

    python -m scripts.bench run --only bounds [--bounds-cases zoo:depth:2,mushroom:tpl]
                                              [--bounds-runs 5] [--bounds-timeout 900]
"""

from __future__ import annotations

import argparse
import statistics

from . import machine, procs, verdict
from .child.bounds_case import Y

NAME = "bounds"
OUTPUT = "bench-bounds.json"
HELP = "bounded queries against the whole front (issue 17)"

#: The default cases: (table, x, depth cap or None); y is µ. Depth vs µ at D = 5
#: (german-credit about a minute a query, vehicle more) is offered through --bounds-cases
#: only: with it the section would take far more than its few minutes.
CASES = [
    ("mushroom", "total-path-length", None),
    ("nursery", "total-path-length", None),
    ("odt-vehicle", "total-path-length", 4),
    ("odt-german-credit", "total-path-length", 4),
    ("odt-german-credit", "depth", 4),
    ("odt-vehicle", "depth", 4),
]
#: The queries of each case, in the order each round runs them (the keys of
#: :func:`scripts.bench.child.bounds_case.bounds_of`): (key, label).
QUERIES = [
    ("whole", "whole front"),
    ("max_y_median", "max_y = K1, median y"),
    ("max_y_least", "max_y = least y"),
    ("max_x_median", "max_x = N1, median x"),
    ("max_x_second", "max_x = N2, 2nd x"),
    ("least_y", "least_y"),
]
_SYMBOLS = {"total-path-length": "Λ", "misclassifications": "µ"}


def parse_cases(text: str) -> list[tuple[str, str, int | None]]:
    """A comma-separated list of cases ``TABLE:X[:D]``: a registered table, the x cost (a
    name or alias of ``dagger costs``; y is misclassifications) and an optional depth cap."""
    from dagger_cli.costs import get_cost
    from dagger_cli.data.datasets import REGISTRY
    from dagger_cli.errors import InputError

    cases: list[tuple[str, str, int | None]] = []
    for spec in (v.strip() for v in text.split(",")):
        if not spec:
            continue
        table, _, rest = spec.partition(":")
        x, _, cap = rest.partition(":")
        if table not in REGISTRY:
            raise argparse.ArgumentTypeError(
                f"unknown table {table!r} in {spec!r}; known: {', '.join(REGISTRY)}"
            )
        try:
            name = get_cost(x or "total-path-length").name
        except InputError as err:
            raise argparse.ArgumentTypeError(f"{spec!r}: {err}") from None
        if name == Y:
            raise argparse.ArgumentTypeError(f"{spec!r}: x must differ from y ({Y})")
        if cap.strip().lower() in ("", "none"):
            depth = None
        elif cap.strip().isdigit() and int(cap) >= 1:
            depth = int(cap)
        else:
            raise argparse.ArgumentTypeError(f"{spec!r}: expected a depth cap >= 1, got {cap!r}")
        cases.append((table, name, depth))
    if not cases:
        raise argparse.ArgumentTypeError(
            f"expected cases such as mushroom:tpl,odt-vote:depth:4, got {text!r}"
        )
    return cases


def rounds(text: str) -> int:
    """A number of timed rounds, at least 1 (their median is the figure)."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of rounds >= 1, got {text!r}")
    return int(text)


def add_arguments(group) -> None:
    default = ",".join(f"{t}:{x}" + (f":{d}" if d else "") for t, x, d in CASES)
    group.add_argument(
        "--bounds-cases",
        type=parse_cases,
        default=CASES,
        metavar="TABLE:X[:D],...",
        help=f"x against misclassifications under an optional depth cap (default: {default})",
    )
    group.add_argument(
        "--bounds-runs", type=rounds, default=5, help="timed rounds per case (median; 5)"
    )
    group.add_argument(
        "--bounds-timeout", type=float, default=900.0, help="seconds per case (default 900)"
    )


def case_label(table, x, cap) -> str:
    """``odt-vehicle depth vs µ, D = 4``: the case as the results page names it."""
    where = f"D = {cap}" if cap is not None else "uncapped"
    return f"{table} {_SYMBOLS.get(x, x)} vs {_SYMBOLS[Y]}, {where}"


def _bound_text(kwargs) -> str:
    if kwargs.get("least_y"):
        return "last point"
    return ", ".join(f"{k[-1]} <= {v}" for k, v in kwargs.items()) or "-"


def _count(n) -> str:
    return "-" if n is None else f"{n:,}"


def bounds_lines(case) -> str:
    """A measured case as text: one line per query."""
    head = case_label(case["table"], case["x"], case["cap"])
    if "failed" in case:
        return f"{head}: FAILED ({case['failed']}, {case['wall']:.0f} s) {case.get('stderr', '')}"
    lines = [
        f"{head} ({case['rows']} rows, {case['attributes']} attributes; process "
        f"{case['wall']:.1f} s, peak {case['peak_mib']:.0f} MiB)",
        f"  {'query':<22} {'bound':<13} {'points':>6} {'engine s':>9} {'whole/b':>8} "
        f"{'subtables':>10} {'stored pts':>11}  check",
    ]
    for key, label in QUERIES:
        r = case["queries"].get(key)
        if r is None:
            lines.append(f"  {label:<22} (the front has one point)")
            continue
        check = "exact" if r["exact"] else "!!! NOT EXACT"
        ratio = f"x{r['ratio']:.2f}"
        lines.append(
            f"  {label:<22} {_bound_text(r['bounds']):<13} {len(r['points']):>6} "
            f"{r['engine_s']:>9.3f} {ratio:>8} {r['subtables']:>10,} "
            f"{_count(r['stored']):>11}  {check}"
        )
    return "\n".join(lines)


def bounds_summary(cases) -> dict:
    """Per bounded query kind, the median over the measured cases of whole / bounded."""
    out = {}
    for key, _ in QUERIES[1:]:
        ratios = [c["queries"][key]["ratio"] for c in cases if key in c.get("queries", {})]
        if ratios:
            out[key] = {"median_ratio": statistics.median(ratios), "cases": len(ratios)}
    return out


def bounds_markdown(cases) -> str:
    """The figures as a Markdown table: engine seconds (median) and whole / bounded."""
    heads = [label for _, label in QUERIES]
    lines = ["| case | " + " | ".join(heads) + " |", "| --- |" + " ---: |" * len(heads)]
    for c in cases:
        cells = []
        for key, _ in QUERIES:
            r = c.get("queries", {}).get(key)
            if r is None:
                cells.append("failed" if "failed" in c else "-")
            elif key == "whole":
                cells.append(f"{r['engine_s']:.3f} s ({len(r['points'])} pts)")
            else:
                cells.append(f"{r['engine_s']:.3f} s ×{r['ratio']:.2f}")
        lines.append(f"| {case_label(c['table'], c['x'], c['cap'])} | " + " | ".join(cells) + " |")
    summary = bounds_summary(cases)
    cells = [""] + [
        f"×{summary[k]['median_ratio']:.2f}" if k in summary else "" for k, _ in QUERIES[1:]
    ]
    lines.append("| median whole / bounded | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def bench_bounds(cases, runs, limit) -> dict:
    """Each case in one fresh process: its first calls load the compiled kernels and are
    not timed, and no case inherits the memory of a larger one before it. Engine seconds
    are medians of ``runs`` rounds; every answer is checked against the whole front
    restricted (the wrong ones listed in ``not_exact``)."""
    record = machine.Record()
    print(
        f"bounds: {len(cases)} case(s), each in a fresh process (warm-up calls untimed), "
        f"engine seconds of {runs} round(s) of the {len(QUERIES)} queries in turn, "
        f"median; every process stopped after {limit:g} s; {machine.cores()} cores, "
        f"{machine.load_text()}",
        flush=True,
    )
    done = []
    for table, x, cap in cases:
        case = {"table": table, "x": x, "cap": cap}
        r = procs.launch(procs.child("bounds_case", table, x, cap, runs), limit)
        if r["code"] != 0:
            case.update(failed=procs.failure(r), wall=r["wall"], stderr=r["stderr"][-300:])
        else:
            case.update(procs.last_json(r))
            case.update(wall=r["wall"], peak_mib=r["peak_mib"])
            verdict.check_bounds(case)
        done.append(case)
        print(bounds_lines(case), flush=True)
    times = record.done()
    start, end = machine.loads(times["load_start"]), machine.loads(times["load_end"])
    print(f"bounds done: load average (1, 5, 15 min) at the start {start}, at the end {end}")
    summary = bounds_summary(done)
    labels = dict(QUERIES)
    print(
        "median ratio whole / bounded (engine seconds) per query: "
        + "; ".join(
            f"{labels[k]} x{v['median_ratio']:.2f} ({v['cases']} of {len(done)} cases)"
            for k, v in summary.items()
        )
    )
    table_md = bounds_markdown(done)
    print(table_md)
    wrong = [
        f"{case_label(c['table'], c['x'], c['cap'])}: {k}"
        for c in done
        for k, r in c.get("queries", {}).items()
        if not r["exact"]
    ]
    return {
        **times,
        "runs": runs,
        "timeout_s": limit,
        "cases": done,
        "summary": summary,
        "markdown": table_md,
        "not_exact": wrong,
    }


def run(args) -> dict:
    """The section with the options of ``args``; a bounded answer that is not the whole
    front restricted fails loudly, after the file is written."""
    result = bench_bounds(args.bounds_cases, args.bounds_runs, args.bounds_timeout)
    machine.write_json(args.out, OUTPUT, {"bounds": result})
    if result["not_exact"]:
        raise SystemExit(
            "bounds: NOT EXACT (the bounded front differs from the whole front restricted): "
            + "; ".join(result["not_exact"])
        )
    return result
