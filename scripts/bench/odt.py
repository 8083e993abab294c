"""The odt section (issues 16 and 17): the depth cap on the 12 tables of the optimal-decision-
tree benchmark against STreeD, every run a fresh process.

For each table: dagger's depth vs misclassifications front at each cap D of
``--odt-depths`` (engine seconds in a runner, kernels warm; whole ``dagger relate``
processes; peak RSS) and, at each D >= 4, STreeD fitted at every depth 1..4 (D = 4) or at D
alone (beyond) right after it; dagger's total path length vs misclassifications at each cap
of ``--odt-tpl-depths``; with ``--odt-baseline``, the baseline engine on that pair at D = 3.
The verdicts are :func:`scripts.bench.verdict.odt_verdicts`.

    python -m scripts.bench run --only odt [--odt-tables hepatitis,primary-tumor]
        [--odt-depths 2,3,4,5] [--odt-tpl-depths 3,4] [--odt-runs 3] [--odt-deep-runs 1]
        [--odt-timeout 300] [--odt-max-memory 2G] [--odt-baseline]
"""

from __future__ import annotations

import argparse
import statistics

from . import machine, peers, procs, verdict
from .verdict import ODT_TABLES, depth_label, ok_run, streed_depths

NAME = "odt"
OUTPUT = "bench-odt.json"
HELP = "the depth cap on the odt benchmark against STreeD (issues 16, 17)"

#: A run that takes longer than this is not repeated: its one run is the figure.
REPEAT_BELOW_S = 20.0


def table_names(text: str) -> list[str]:
    """A comma-separated list of odt tables, each checked against the benchmark's."""
    names = [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in ODT_TABLES]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown table(s) {', '.join(bad) or '(none given)'}; known: {', '.join(ODT_TABLES)}"
        )
    return names


def caps(text: str) -> list[int]:
    """A comma-separated list of depth caps D >= 1, sorted, each once."""
    try:
        out = sorted({int(v) for v in text.split(",") if v.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected depths such as 2,3,4, got {text!r}") from None
    if not out or out[0] < 1:
        raise argparse.ArgumentTypeError(f"expected depths >= 1 such as 2,3,4, got {text!r}")
    return out


def add_arguments(group) -> None:
    group.add_argument(
        "--odt-tables",
        type=table_names,
        default=ODT_TABLES,
        help="odt tables (default: all 12; also the rules section's)",
    )
    group.add_argument(
        "--odt-depths",
        type=caps,
        default=[2, 3, 4, 5],
        metavar="D,...",
        help="caps D of depth vs misclassifications; each D >= 4 is compared with STreeD "
        "(default 2,3,4,5)",
    )
    group.add_argument(
        "--odt-tpl-depths",
        type=caps,
        default=[3, 4],
        metavar="D,...",
        help="caps D of total path length vs misclassifications (default 3,4)",
    )
    group.add_argument(
        "--odt-runs", type=int, default=3, help="runs per figure at D <= 4 (median; default 3)"
    )
    group.add_argument(
        "--odt-deep-runs", type=int, default=1, help="runs per figure at D >= 5 (default 1)"
    )
    group.add_argument(
        "--odt-timeout", type=float, default=300.0, help="seconds per process (default 300)"
    )
    group.add_argument(
        "--odt-max-memory", default="2G", metavar="SIZE", help="dagger's --max-memory (2G)"
    )
    group.add_argument(
        "--odt-baseline",
        action="store_true",
        help="also the baseline engine on total path length vs misclassifications at D = 3",
    )


def measure_dagger(runner, process, runs, limit) -> dict:
    """Engine seconds and the front from ``runner`` (one fresh process computing the
    front ``runs`` + 1 times: the first call also loads the compiled kernels), then the
    whole ``process`` up to ``runs`` times: median wall time, largest peak RSS. A failed
    run is reported as ``failed`` ("timeout", "memory", "exit N") with its wall time."""
    done, fail = procs.repeat(runner, 1, limit, REPEAT_BELOW_S)
    if fail:
        return fail
    out = procs.last_json(done[0])
    res = {
        "engine_s": out["engine_s"],
        "first_s": out["first_s"],
        "points": out["points"],
        "stats": out["stats"],
        "runner_peak_mib": done[0]["peak_mib"],
    }
    if process is None:  # the runner's own figures
        return {**res, "wall": done[0]["wall"], "peak_mib": done[0]["peak_mib"], "runs": 1}
    done, fail = procs.repeat(process, runs, limit, REPEAT_BELOW_S)
    if fail:
        return {**res, **fail}
    walls = [r["wall"] for r in done]
    peak = max(r["peak_mib"] for r in done)
    return {**res, "wall": statistics.median(walls), "walls": walls, "peak_mib": peak}


def bench_odt(
    tables,
    runs,
    limit,
    depths=(2, 3, 4, 5),
    tpl_depths=(3, 4),
    deep_runs=1,
    baseline=False,
    max_memory="2G",
) -> dict:
    """The depth cap on the benchmark against STreeD, each run a fresh process (issue 17).
    Medians of ``runs`` whole processes at D <= 4, of ``deep_runs`` beyond; every process
    stopped after ``limit`` s, dagger's at ``max_memory``."""
    from dagger_cli.data.datasets import REGISTRY, fetch

    have_streed = peers.available(peers.STREED)

    def runs_at(d):
        return runs if d <= 4 else deep_runs

    def dagger(table, x, d):
        n = runs_at(d)
        runner = procs.child("odt_front", table, x, d, "fast", n + 1, max_memory, REPEAT_BELOW_S)
        cli = procs.dagger("relate", f"odt-{table}", "--x", x, "--y", "misclassifications")
        cli += ["--max-depth", str(d), "-q", "--max-memory", max_memory]
        return measure_dagger(runner, cli, n, limit)

    record = machine.Record()
    print(
        f"odt: {len(tables)} table(s), each run a fresh process; medians of {runs} run(s) at "
        f"D <= 4 and of {deep_runs} at D >= 5 (a run over {REPEAT_BELOW_S:g} s is not "
        f"repeated); every process stopped after {limit:g} s, dagger's at --max-memory "
        f"{max_memory}; {machine.cores()} cores, {machine.load_text()}",
        flush=True,
    )
    rows = []
    for table in tables:
        path = fetch(f"odt-{table}")  # fetched (or copied from the mirror) before any timing
        ds = REGISTRY[f"odt-{table}"]
        row = {"table": table, "rows": ds.rows, "features": ds.n_attributes}
        for d in depths:
            row[f"depth_D{d}"] = dagger(table, "depth", d)
            if d >= 4 and have_streed:
                row[f"streed_D{d}"] = peers.measure_streed(
                    path, streed_depths(d), runs_at(d), limit, REPEAT_BELOW_S
                )
        for d in tpl_depths:
            row[f"tpl_D{d}"] = dagger(table, "total-path-length", d)
        if baseline:
            tpl = ("total-path-length", 3, "baseline", 1, max_memory, REPEAT_BELOW_S)
            runner = procs.child("odt_front", table, *tpl)
            row["baseline_tpl_D3"] = measure_dagger(runner, None, 1, 2 * limit)
        verdict.check_row(row, depths)
        rows.append(row)
        print(odt_lines(row, depths, tpl_depths), flush=True)
    times = record.done()
    verdicts = verdict.odt_verdicts(rows, depths, tpl_depths)
    start, end = machine.loads(times["load_start"]), machine.loads(times["load_end"])
    print(f"odt done: load average (1, 5, 15 min) at the start {start}, at the end {end}")
    print("targets (issue 17; whole processes unless said):")
    for v in verdicts:
        print(v.line())
    table_md = odt_markdown(rows, depths, tpl_depths)
    print(table_md)
    return {
        **times,
        "runs": runs,
        "deep_runs": deep_runs,
        "timeout_s": limit,
        "max_memory": max_memory,
        "pystreed": peers.version(peers.STREED),
        "tables": rows,
        "verdicts": [v.as_dict() for v in verdicts],
        "markdown": table_md,
    }


def _why(r) -> str:
    """A failed run in words: what stopped it and after how long."""
    what = {"timeout": "timed out", "memory": "> --max-memory"}.get(r["failed"], r["failed"])
    return f"{what} ({r['wall']:.0f} s)"


def cell(r, peak=True, wall=True) -> str:
    """A dagger figure: engine / whole process seconds (peak RSS), or why it failed."""
    if r is None:
        return "-"
    if not ok_run(r):
        engine = f"{r['engine_s']:.2f} / " if "engine_s" in r else ""
        return engine + _why(r)
    text = f"{r['engine_s']:.2f}" + (f" / {r['wall']:.2f}" if wall else "")
    if peak:
        text += f" ({r['peak_mib']:.0f} MiB)"
    if r.get("exact") is False:
        text += " WRONG"
    return text


def streed_cell(s) -> str:
    if s is None:
        return "-"
    if not ok_run(s):
        return _why(s)
    return f"{s['fit_s']:.2f} / {s['wall']:.2f}" + ("" if s.get("exact") is not False else " (?)")


def _tpl_mark(row, d) -> str:
    if d != verdict.TPL_TARGET_DEPTH:
        return ""
    return " [met]" if verdict.tpl_ok(row.get(f"tpl_D{d}")) else " [NOT MET]"


def odt_lines(row, depths, tpl_depths) -> str:
    """One table's figures in a few lines: engine / whole process seconds (peak RSS)."""
    lines = [f"{row['table']} ({row['rows']} rows, {row['features']} features)"]
    lines.append(
        "  depth vs µ    " + " | ".join(f"D={d} {cell(row.get(f'depth_D{d}'))}" for d in depths)
    )
    for d in depths:
        r, s = row.get(f"depth_D{d}"), row.get(f"streed_D{d}")
        if s is None:
            continue
        text = f"  STreeD {depth_label(s['depths'])}: "
        if ok_run(s):
            fits = "fit" if len(s["depths"]) == 1 else "fits"
            text += f"{fits} {s['fit_s']:.2f} s, process {s['wall']:.2f} s"
        else:
            text += _why(s)
        if ok_run(r) and (ok_run(s) or s["failed"] == "timeout"):
            who = "dagger" if r["wall"] < s["wall"] else "STreeD"
            ratio = max(r["wall"], s["wall"]) / min(r["wall"], s["wall"])
            text += f" -> D={d}: {who} x{ratio:.2f} faster (whole processes)"
        lines.append(text)
    lines.append(
        "  Λ vs µ        "
        + " | ".join(f"D={d} {cell(row.get(f'tpl_D{d}'))}{_tpl_mark(row, d)}" for d in tpl_depths)
    )
    if "baseline_tpl_D3" in row:
        lines.append(
            f"  baseline Λ vs µ D=3: {cell(row['baseline_tpl_D3'], peak=False, wall=False)}"
        )
    for d in depths:
        r = row.get(f"depth_D{d}")
        if r is not None and r.get("exact") is False:
            lines.append(
                f"  !!! MISMATCH at D={d}: least misclassifications per depth 1..{d} "
                f"{r['least']}, expected {r['expected']}"
            )
        elif r is not None and r.get("unchecked"):
            lines.append(f"  (D={d}: depth {r['unchecked']} unchecked: STreeD did not finish)")
    for d in depths:
        s = row.get(f"streed_D{d}")
        if s is not None and s.get("exact") is False:
            lines.append(f"  !!! STreeD's {s['mis']} differ from the README's values")
    return "\n".join(lines)


def odt_markdown(rows, depths, tpl_depths) -> str:
    """The figures as a Markdown table: dagger engine / whole process seconds (peak RSS),
    STreeD fits / whole process seconds, a total row for the caps compared with STreeD."""
    cols = []  # (header, cell of a row)
    for d in depths:
        cols.append((f"depth vs µ, D={d}", lambda row, d=d: cell(row.get(f"depth_D{d}"))))
        if any(f"streed_D{d}" in row for row in rows):
            label = depth_label(streed_depths(d))
            fits = "fit" if len(streed_depths(d)) == 1 else "fits"
            cols.append(
                (
                    f"STreeD {label}: {fits} / process",
                    lambda row, d=d: streed_cell(row.get(f"streed_D{d}")),
                )
            )
    for d in tpl_depths:
        cols.append((f"Λ vs µ, D={d}", lambda row, d=d: cell(row.get(f"tpl_D{d}"))))
    if any("baseline_tpl_D3" in row for row in rows):
        cols.append(
            (
                "baseline Λ vs µ, D=3",
                lambda row: cell(row.get("baseline_tpl_D3"), peak=False, wall=False),
            )
        )
    lines = [
        "| table | " + " | ".join(h for h, _ in cols) + " |",
        "| --- |" + " ---: |" * len(cols),
    ]
    lines += ["| " + " | ".join([row["table"], *(f(row) for _, f in cols)]) + " |" for row in rows]
    total = [""] * len(cols)
    for d in depths:
        c = verdict.compare_streed(rows, d)
        if c is None or c["dagger_failed"] or c["streed_failed"]:
            continue
        j = [h for h, _ in cols].index(f"depth vs µ, D={d}")
        total[j] = (
            f"{sum(row[f'depth_D{d}']['engine_s'] for row in rows):.2f} / {c['dagger_s']:.2f}"
        )
        plus = "+" if c["streed_timed_out"] else ""  # their fits are not known
        total[j + 1] = f"{c['fits_s']:.2f}{plus} / {c['streed_s']:.2f}{plus}"
    if any(total):
        lines.append("| total | " + " | ".join(total) + " |")
    return "\n".join(lines)


def run(args) -> dict:
    if not peers.available(peers.STREED):
        print("(pystreed not installed: pip install -e '.[bench]' for the STreeD columns)")
    result = bench_odt(
        args.odt_tables,
        args.odt_runs,
        args.odt_timeout,
        depths=args.odt_depths,
        tpl_depths=args.odt_tpl_depths,
        deep_runs=args.odt_deep_runs,
        baseline=args.odt_baseline,
        max_memory=args.odt_max_memory,
    )
    machine.write_json(args.out, OUTPUT, {"odt": result})
    return result
