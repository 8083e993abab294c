"""The UCI section (issue 7): each of the four UCI tables through the fast engine (median of
``--runs``, kernels warm), split into DAG and fronts, with throughput and the bytes the
discovery must read against the memory bandwidth; the baseline once (the same front, the
same DAG counts); the whole ``dagger relate NAME --format csv -q`` process.

    python -m scripts.bench run --only uci [--tables zoo,mushroom] [--runs 5]
                                           [--no-baseline] [--no-process]
"""

from __future__ import annotations

import functools
import statistics
import time

import numpy as np

from . import machine, procs, verdict

NAME = "uci"
OUTPUT = "uci.json"
HELP = "the four UCI tables: fast engine, baseline, whole processes (issue 7)"
TABLES = ["zoo", "lymphography", "nursery", "mushroom"]


def add_arguments(group) -> None:
    group.add_argument("--no-baseline", action="store_true", help="skip the baseline engine")
    group.add_argument("--no-process", action="store_true", help="skip the whole processes")


def memory_bandwidth(runs=3, size=2**27) -> float:
    """Copy bandwidth of one core (bytes read + written per second, median): memcpy of
    1 GiB, far beyond the caches."""
    src = np.ones(size, dtype=np.float64)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    t, _ = procs.median_time(lambda: np.copyto(dst, src), runs)
    return 2 * src.nbytes / t


def dag_bytes(dag) -> int:
    """Bytes the discovery must read at least: for every subtable with a split, its row
    numbers (4 B), each row's two keys (16 B) and one byte per non-constant attribute."""
    sizes = dag.node_size.astype(np.int64)
    bundles = np.diff(dag.node_bundle_start)
    split = bundles > 0
    return int((sizes[split] * (20 + bundles[split])).sum())


def process_run(args_list: list[str], runs: int) -> tuple[float, float]:
    """Median wall time and max peak RSS (MiB) of a whole `dagger` process."""
    res = [procs.launch_ok(procs.dagger(*args_list)) for _ in range(runs)]
    return statistics.median(r["wall"] for r in res), max(r["peak_mib"] for r in res)


def bench_tables(names, runs, baseline, process, bandwidth) -> list[dict]:
    from dagger_cli.costs import COSTS
    from dagger_cli.data.datasets import load_table
    from dagger_cli.engine import build_dag, compute_fronts, relate

    rows = []
    for name in names:
        table = load_table(name)
        relate(table)  # warm the compiled-kernel cache
        t_fast, rel = procs.median_time(functools.partial(relate, table), runs)

        def dag_only(table=table):
            t0 = time.perf_counter()
            dag = build_dag(table)
            t1 = time.perf_counter()
            compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
            return t1 - t0, time.perf_counter() - t1

        parts = [dag_only() for _ in range(runs)]
        t_dag = statistics.median(p[0] for p in parts)
        t_fronts = statistics.median(p[1] for p in parts)
        sizes = rel.dag.node_size.astype(np.int64)
        row = {
            "table": name,
            "rows": table.n_rows,
            "attributes": table.n_attributes,
            "subtables": rel.stats.subtables,
            "edges": rel.stats.edges,
            "front": len(rel.front),
            "fast_s": t_fast,
            "dag_s": t_dag,
            "fronts_s": t_fronts,
            "rows_visited": int((sizes * (np.diff(rel.dag.node_bundle_start) + 1)).sum()),
            "dag_bytes": dag_bytes(rel.dag),
        }
        row["bandwidth_floor_s"] = row["dag_bytes"] / bandwidth
        if baseline:
            t_base, base = procs.median_time(functools.partial(relate, table, engine="baseline"), 1)
            assert base.front.points() == rel.front.points(), f"{name}: engines disagree"
            assert base.stats == rel.stats, f"{name}: engines count the DAG differently"
            row["baseline_s"] = t_base
            row["speedup"] = t_base / t_fast
        if process:
            wall, peak = process_run(["relate", name, "--format", "csv", "-q"], runs)
            row["process_s"] = wall
            row["process_peak_mib"] = peak
        rows.append(row)
        print(_fmt_row(row), flush=True)
        print(
            f"{'':<13} DAG {t_dag:.3f} s + fronts {t_fronts:.3f} s: "
            f"{row['subtables'] / t_dag / 1e6:.2f}M subtables/s, "
            f"{row['edges'] / t_dag / 1e6:.1f}M edges/s, "
            f"{row['rows_visited'] / t_dag / 1e6:.0f}M row visits/s; reads at least "
            f"{row['dag_bytes'] / 2**20:,.0f} MiB = {row['bandwidth_floor_s'] * 1e3:.1f} ms "
            f"at memory bandwidth (x{t_dag / row['bandwidth_floor_s']:.0f} above)",
            flush=True,
        )
    return rows


def _fmt_row(r: dict) -> str:
    parts = [
        f"{r['table']:<13} rows {r['rows']:>6} attrs {r['attributes']:>3} "
        f"subtables {r['subtables']:>9,} edges {r['edges']:>10,} front {r['front']:>5} "
        f"engine {r['fast_s']:7.3f} s"
    ]
    if "baseline_s" in r:
        parts.append(f"baseline {r['baseline_s']:8.2f} s  x{r['speedup']:.0f}")
    if "process_s" in r:
        parts.append(f"process {r['process_s']:.2f} s peak {r['process_peak_mib']:.0f} MiB")
    return "  ".join(parts)


def run(args) -> dict:
    from dagger_cli.engine import threads

    record = machine.Record()
    bandwidth = memory_bandwidth()
    print(
        f"dagger bench: {machine.cores()} cores, {threads.current_choice()} threads per "
        f"kernel call, median of {args.runs} runs; memory copy bandwidth "
        f"{bandwidth / 1e9:.1f} GB/s",
        flush=True,
    )
    rows = bench_tables(
        args.tables.split(","), args.runs, not args.no_baseline, not args.no_process, bandwidth
    )
    if not args.no_process and rows:
        total = sum(r["process_s"] for r in rows)
        print(f"whole `dagger relate` processes, the {len(rows)} tables together: {total:.2f} s")
    verdicts = verdict.uci_verdicts(rows)
    if verdicts:
        print("targets (issue 7):")
        print("\n".join(v.line() for v in verdicts))
    result = {
        **record.done(),
        "bandwidth_bytes_per_s": bandwidth,
        "tables": rows,
        "verdicts": [v.as_dict() for v in verdicts],
    }
    machine.write_json(args.out, OUTPUT, result)
    return result
