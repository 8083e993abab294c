"""`make bench`: the engines on the four UCI tables, and a synthetic scaling series.

Figures are medians of several runs; speed is reported as ratios against the plain
baseline measured in the same run (the machines are shared and noisy).

    python scripts/bench.py [--runs 5] [--tables zoo,lymphography,...] [--no-baseline]
                            [--no-process] [--scaling/--no-scaling] [--out out/bench]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dagger_cli.datasets import load_table  # noqa: E402
from dagger_cli.engine import relate  # noqa: E402
from dagger_cli.table import DecisionTable  # noqa: E402

TABLES = ["zoo", "lymphography", "nursery", "mushroom"]


def median_time(fn, runs):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def process_run(args_list, runs):
    """Median wall time and max peak RSS (MiB) of a whole `dagger` process."""
    exe = str(Path(sys.executable).with_name("dagger"))
    walls, peaks = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen([exe, *args_list], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        walls.append(time.perf_counter() - t0)
        peaks.append(usage.ru_maxrss / 1024)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise SystemExit(f"dagger {' '.join(args_list)} failed:\n{err}")
    return statistics.median(walls), max(peaks)


def bench_tables(names, runs, baseline, process):
    rows = []
    for name in names:
        table = load_table(name)
        relate(table)  # warm the compiled-kernel cache
        t_fast, rel = median_time(lambda: relate(table), runs)
        tracemalloc.start()
        relate(table)
        _, peak_py = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        row = {
            "table": name, "rows": table.n_rows, "attributes": table.n_attributes,
            "subtables": rel.stats.subtables, "edges": rel.stats.edges,
            "front": len(rel.front), "fast_s": t_fast, "fast_peak_mib": peak_py / 2**20,
            "rows_visited": int(rel.dag.row_pool.size),
        }
        if baseline:
            t_base, base = median_time(lambda: relate(table, engine="baseline"), 1)
            assert base.front.points() == rel.front.points(), f"{name}: engines disagree"
            row["baseline_s"] = t_base
            row["speedup"] = t_base / t_fast
        if process:
            wall, peak = process_run(["relate", name, "--format", "csv", "-q"], runs)
            row["process_s"] = wall
            row["process_peak_mib"] = peak
        rows.append(row)
        print(_fmt_row(row), flush=True)
    return rows


def _fmt_row(r):
    parts = [f"{r['table']:<13} rows {r['rows']:>6} attrs {r['attributes']:>3} "
             f"subtables {r['subtables']:>9,} edges {r['edges']:>10,} front {r['front']:>5} "
             f"engine {r['fast_s']:7.3f} s"]
    if "baseline_s" in r:
        parts.append(f"baseline {r['baseline_s']:8.2f} s  x{r['speedup']:.0f}")
    if "process_s" in r:
        parts.append(f"process {r['process_s']:.2f} s peak {r['process_peak_mib']:.0f} MiB")
    return "  ".join(parts)


# --------------------------------------------------------------------------- scaling
def synthetic(kind, m, n, seed):
    rng = np.random.default_rng(seed)
    if kind == "random":
        X = rng.integers(0, 2, size=(n, m))
        y = rng.integers(0, 3, size=n)
    else:  # structured: decision is a noisy function of a few attributes
        X = rng.integers(0, 2, size=(n, m))
        y = (X[:, 0] ^ X[:, 1]) + (X[:, 2] & X[:, 3])
        flip = rng.random(n) < 0.1
        y[flip] = rng.integers(0, 3, size=flip.sum())
    return DecisionTable.from_rows(X.tolist(), y.tolist(), name=f"{kind}-{m}x{n}")


SERIES = [("random", m, n) for m, n in [(10, 100), (12, 200), (14, 200), (16, 300), (18, 300),
                                          (20, 300), (22, 400), (24, 400)]] + \
         [("structured", m, n) for m, n in [(12, 200), (16, 300), (20, 300), (24, 400)]]


def peak_rss_of(fn):
    """Peak RSS increase of running fn in a forked child (MiB) and its wall time."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(r)
        t0 = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t0
        os.write(w, json.dumps({"t": dt, **out}).encode())
        os._exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    _, _, usage = os.wait4(pid, 0)
    res = json.loads(data)
    res["peak_mib"] = usage.ru_maxrss / 1024
    return res


def bench_scaling(out_dir, max_seconds):
    results = []
    for kind, m, n in SERIES:
        table = synthetic(kind, m, n, seed=m * 1000 + n)

        def job():
            rel = relate(table)
            return {"subtables": rel.stats.subtables, "edges": rel.stats.edges,
                    "front": len(rel.front)}

        res = peak_rss_of(job)
        res.update(kind=kind, m=m, n=n)
        results.append(res)
        print(f"{kind:<10} m={m:>2} n={n:>3}: subtables {res['subtables']:>10,} edges "
              f"{res['edges']:>11,}  {res['t']:6.2f} s  peak {res['peak_mib']:6.0f} MiB  "
              f"({res['subtables'] / res['t']:,.0f} subtables/s, "
              f"{res['edges'] / res['t']:,.0f} edges/s)", flush=True)
        if res["t"] > max_seconds:
            print("  (stopping the series: the next size would take too long)")
            break
    _plot_scaling(results, out_dir)
    return results


def _plot_scaling(results, out_dir):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for kind, marker in (("random", "o"), ("structured", "s")):
        rs = [r for r in results if r["kind"] == kind]
        if not rs:
            continue
        axes[0].loglog([r["subtables"] for r in rs], [r["t"] for r in rs], marker, label=f"{kind}: time")
        axes[1].loglog([r["edges"] for r in rs], [r["peak_mib"] for r in rs], marker, label=f"{kind}: peak RSS")
    axes[0].set_xlabel("subtables")
    axes[0].set_ylabel("seconds (fast engine)")
    axes[1].set_xlabel("edges")
    axes[1].set_ylabel("peak RSS (MiB)")
    for ax in axes:
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle("dagger fast engine: synthetic binary tables, 10-24 attributes, 100-400 rows")
    out_dir.mkdir(parents=True, exist_ok=True)
    fig.savefig(out_dir / "scaling.png", dpi=120, bbox_inches="tight")
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--no-process", action="store_true")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--max-seconds", type=float, default=60.0)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    args = ap.parse_args()
    print(f"dagger bench: {os.cpu_count()} cores, median of {args.runs} runs", flush=True)
    rows = bench_tables(args.tables.split(","), args.runs, not args.no_baseline, not args.no_process)
    if not args.no_process and rows:
        total = sum(r["process_s"] for r in rows)
        print(f"whole `dagger relate` processes, the {len(rows)} tables together: {total:.2f} s")
    results = [] if args.no_scaling else bench_scaling(args.out, args.max_seconds)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench.json").write_text(json.dumps({"tables": rows, "scaling": results}, indent=2))
    print(f"wrote {args.out / 'bench.json'}")


if __name__ == "__main__":
    main()
