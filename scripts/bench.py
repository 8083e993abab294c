"""`make bench`: the engines on the four UCI tables, and a synthetic scaling series.

Figures are medians of several runs; speed is reported as ratios against the plain
baseline measured in the same run (the machines are shared and noisy).

    python scripts/bench.py [--runs 5] [--tables zoo,lymphography,...] [--no-baseline]
                            [--no-process] [--scaling/--no-scaling] [--out out/bench]
                            [--only sklearn]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
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


# Runs one command and reports its wall time and peak RSS. A fresh, small interpreter
# starts it: a child forked from this (big) process would inherit our peak RSS.
LAUNCHER = r"""
import json, resource, subprocess, sys, time
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
out, err = proc.communicate()
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak_mib": peak, "code": proc.returncode,
                  "stdout": out.decode(), "stderr": err.decode()}))
"""


def launch(cmd):
    """Wall time, peak RSS (MiB) and output of ``cmd`` run as a fresh process."""
    res = json.loads(
        subprocess.run(
            [sys.executable, "-c", LAUNCHER, *cmd], capture_output=True, text=True, check=True
        ).stdout
    )
    if res["code"] != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{res['stderr']}")
    return res


def process_run(args_list, runs):
    """Median wall time and max peak RSS (MiB) of a whole `dagger` process."""
    exe = str(Path(sys.executable).with_name("dagger"))
    res = [launch([exe, *args_list]) for _ in range(runs)]
    return statistics.median(r["wall"] for r in res), max(r["peak_mib"] for r in res)


def memory_bandwidth(runs=3, size=2**27):
    """Copy bandwidth of one core (bytes read + written per second, median): memcpy of
    1 GiB, far beyond the caches."""
    src = np.ones(size, dtype=np.float64)
    dst = np.empty_like(src)
    np.copyto(dst, src)
    t, _ = median_time(lambda: np.copyto(dst, src), runs)
    return 2 * src.nbytes / t


def dag_bytes(dag):
    """Bytes the discovery must read at least: for every subtable with a split, its row
    numbers (4 B), each row's two keys (16 B) and one byte per non-constant attribute."""
    sizes = dag.node_size.astype(np.int64)
    bundles = np.diff(dag.node_bundle_start)
    split = bundles > 0
    return int((sizes[split] * (20 + bundles[split])).sum())


def bench_tables(names, runs, baseline, process, bandwidth):
    from dagger_cli.costs import COSTS
    from dagger_cli.engine import build_dag, compute_fronts

    rows = []
    for name in names:
        table = load_table(name)
        relate(table)  # warm the compiled-kernel cache
        t_fast, rel = median_time(lambda: relate(table), runs)

        def dag_only():
            t0 = time.perf_counter()
            dag = build_dag(table)
            t1 = time.perf_counter()
            compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
            return t1 - t0, time.perf_counter() - t1

        parts = [dag_only() for _ in range(runs)]
        t_dag = statistics.median(p[0] for p in parts)
        t_fronts = statistics.median(p[1] for p in parts)
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
            "rows_visited": int(
                (
                    rel.dag.node_size.astype(np.int64) * (np.diff(rel.dag.node_bundle_start) + 1)
                ).sum()
            ),
            "dag_bytes": dag_bytes(rel.dag),
        }
        row["bandwidth_floor_s"] = row["dag_bytes"] / bandwidth
        if baseline:
            t_base, base = median_time(lambda: relate(table, engine="baseline"), 1)
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


def _fmt_row(r):
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


# --------------------------------------------------------------------------- scaling
def synthetic(kind, m, n, seed):
    """A binary table: ``random`` (independent attributes and decisions) or ``structured``
    (attributes are noisy copies of 6 hidden factors, the decision a noisy function of
    three of them: many rows alike, as in real data)."""
    rng = np.random.default_rng(seed)
    if kind == "random":
        X = rng.integers(0, 2, size=(n, m))
        y = rng.integers(0, 3, size=n)
    else:
        hidden = rng.integers(0, 2, size=(n, 6))
        X = hidden[:, np.arange(m) % 6] ^ (rng.random((n, m)) < 0.1)
        y = (hidden[:, 0] ^ hidden[:, 1]) + (hidden[:, 2] & hidden[:, 3])
        flip = rng.random(n) < 0.1
        y[flip] = rng.integers(0, 3, size=flip.sum())
    return DecisionTable.from_rows(X.astype(int).tolist(), y.tolist(), name=f"{kind}-{m}x{n}")


SERIES = [
    ("random", m, n)
    for m, n in [(10, 100), (12, 200), (14, 200), (16, 300), (18, 300), (20, 300), (22, 300)]
] + [
    ("structured", m, n)
    for m, n in [(10, 100), (14, 200), (16, 300), (18, 300), (20, 300), (22, 400), (24, 400)]
]
#: The series stops a kind at the first table over this many subtables or this memory.
SCALING_MAX_SUBTABLES = 8_000_000
SCALING_MAX_MEMORY = 8 * 2**30


def scaling_point(kind, m, n):
    """One point of the series, run in its own process: prints its figures as JSON."""
    from dagger_cli.costs import COSTS
    from dagger_cli.engine import build_dag, compute_fronts
    from dagger_cli.errors import LimitError

    build_dag(synthetic("random", 6, 20, 1))  # load the compiled kernels first
    table = synthetic(kind, m, n, seed=m * 1000 + n)
    try:
        t0 = time.perf_counter()
        dag = build_dag(table, max_subtables=SCALING_MAX_SUBTABLES, max_memory=SCALING_MAX_MEMORY)
        t1 = time.perf_counter()
        compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
        t2 = time.perf_counter()
    except LimitError as e:
        print(json.dumps({"limit": str(e)}))
        return
    sizes = dag.node_size.astype(np.int64)
    print(
        json.dumps(
            {
                "subtables": dag.stats.subtables,
                "edges": dag.stats.edges,
                "t_dag": t1 - t0,
                "t_fronts": t2 - t1,
                "t": t2 - t0,
                "rows_visited": int((sizes * (np.diff(dag.node_bundle_start) + 1)).sum()),
            }
        )
    )


def bench_scaling(out_dir, max_seconds, runs):
    """Each table in a fresh process (engine time measured inside it, peak RSS of the whole
    process); the median of ``runs`` runs, one run for points slower than 15 s."""
    results = []
    stopped = set()
    for kind, m, n in SERIES:
        if kind in stopped:
            continue
        cmd = [sys.executable, __file__, "--point", kind, str(m), str(n)]
        first = launch(cmd)
        point = json.loads(first["stdout"])
        if "limit" in point:
            print(f"{kind:<10} m={m:>2} n={n:>3}: stopped, {point['limit']}")
            stopped.add(kind)
            continue
        res = [dict(point, peak_mib=first["peak_mib"])]
        for _ in range(runs - 1 if point["t"] < 15 else 0):
            more = launch(cmd)
            res.append(dict(json.loads(more["stdout"]), peak_mib=more["peak_mib"]))
        med = {
            k: statistics.median(r[k] for r in res) for k in ("t", "t_dag", "t_fronts", "peak_mib")
        }
        row = dict(point, **med, kind=kind, m=m, n=n, runs=len(res))
        results.append(row)
        print(
            f"{kind:<10} m={m:>2} n={n:>3}: subtables {row['subtables']:>10,} edges "
            f"{row['edges']:>11,}  {row['t']:6.2f} s (DAG {row['t_dag']:.2f} + fronts "
            f"{row['t_fronts']:.2f})  peak {row['peak_mib']:6.0f} MiB  "
            f"{row['subtables'] / row['t_dag'] / 1e6:.2f}M subtables/s, "
            f"{row['edges'] / row['t_dag'] / 1e6:.1f}M edges/s, "
            f"{row['rows_visited'] / row['t_dag'] / 1e6:.0f}M row visits/s (DAG)  "
            f"[median of {len(res)}]",
            flush=True,
        )
        if row["t"] > max_seconds:
            print(f"  (stopping the {kind} series: the next size would take too long)")
            stopped.add(kind)
    _plot_scaling(results, out_dir)
    return results


def _plot_scaling(results, out_dir):
    """Time and peak memory against subtables and edges (log-log), with the issue's target
    (about 1.5M subtables and 30M edges in at most 10 s and 2 GiB) as dotted lines."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(2, 2, figsize=(11, 8.5))
    panels = [
        ("subtables", "t", "seconds (DAG + fronts)", 1.5e6, 10),
        ("edges", "t", "seconds (DAG + fronts)", 30e6, 10),
        ("subtables", "peak_mib", "peak RSS of the process (MiB)", 1.5e6, 2048),
        ("edges", "peak_mib", "peak RSS of the process (MiB)", 30e6, 2048),
    ]
    for ax, (xk, yk, ylabel, xt, yt) in zip(axes.ravel(), panels):
        for kind, marker in (("random", "o"), ("structured", "s")):
            rs = [r for r in results if r["kind"] == kind]
            if rs:
                ax.loglog([r[xk] for r in rs], [r[yk] for r in rs], marker + "-", label=kind)
        ax.axvline(xt, color="grey", linestyle=":", linewidth=1)
        ax.axhline(yt, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel(xk)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(loc="upper left")
    fig.suptitle(
        "dagger fast engine on synthetic binary tables (10-24 attributes, 100-400 rows);\n"
        "dotted: the target, 1.5M subtables / 30M edges in <= 10 s and <= 2 GiB"
    )
    fig.tight_layout()
    out_dir.mkdir(parents=True, exist_ok=True)
    fig.savefig(out_dir / "scaling.png", dpi=110)
    plt.close(fig)


def check_targets(rows, results):
    """The issue's targets, each with its measured figure and met / NOT MET."""
    lines = []

    def say(ok, text):
        lines.append(f"  [{'met' if ok else 'NOT MET'}] {text}")

    by_name = {r["table"]: r for r in rows}
    for name in ("lymphography", "nursery", "mushroom"):
        r = by_name.get(name)
        if r and "speedup" in r:
            say(
                r["speedup"] >= 20, f"{name}: fast engine x{r['speedup']:.0f} the baseline (>= x20)"
            )
    if "mushroom" in by_name and "process_s" in by_name["mushroom"]:
        r = by_name["mushroom"]
        say(r["process_s"] <= 1.5, f"mushroom whole process {r['process_s']:.2f} s (<= 1.5 s)")
    if len(rows) == 4 and all("process_s" in r for r in rows):
        total = sum(r["process_s"] for r in rows)
        say(total <= 4, f"the four tables' processes together {total:.2f} s (<= 4 s)")
        peak = max(r["process_peak_mib"] for r in rows)
        say(peak <= 500, f"largest peak RSS of those processes {peak:.0f} MiB (<= 500 MiB)")
    # The series point nearest to 1.5M subtables / 30M edges.
    near = [r for r in results if 1.0e6 <= r["subtables"] <= 2.0e6 and 20e6 <= r["edges"] <= 40e6]
    for r in near:
        say(
            r["t"] <= 10 and r["peak_mib"] <= 2048,
            f"{r['kind']} {r['m']}x{r['n']}: {r['subtables']:,} subtables, {r['edges']:,} edges in "
            f"{r['t']:.2f} s, {r['peak_mib']:.0f} MiB (<= 10 s, <= 2 GiB)",
        )
    if lines:
        print("targets (issue 7):")
        print("\n".join(lines))


#: The estimator's speed targets (issue 13): (parameters, seconds) on breast cancer.
SKLEARN_TARGETS = [
    ({"max_depth": 3, "thresholds": 16}, 5.0),
    ({"max_depth": 2, "thresholds": "all"}, 10.0),
]


def bench_sklearn(runs):
    """DaggerTreeClassifier.fit on breast cancer (569 x 30 numeric), the issue's two settings.

    Median wall time of ``runs`` fits after one warm-up fit (the compiled kernels loaded), with
    the front's size, the tree's training errors beside CART's at the same depth, and the
    target for each."""
    try:
        from sklearn.datasets import load_breast_cancer
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:
        print("sklearn bench: scikit-learn is not installed (pip install dagger-cli[sklearn])")
        return []
    from dagger_cli.sklearn import DaggerTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    load = os.getloadavg()[0]
    print(
        f"DaggerTreeClassifier.fit on breast cancer ({X.shape[0]} x {X.shape[1]} numeric), "
        f"median of {runs} (load average {load:.1f} on {os.cpu_count()} cores; CPU time "
        "counts every thread):",
        flush=True,
    )
    DaggerTreeClassifier(max_depth=1, thresholds=2).fit(X, y)  # warm: load the kernels
    out = []
    for params, target in SKLEARN_TARGETS:
        cpu0 = time.process_time()
        t, clf = median_time(lambda p=params: DaggerTreeClassifier(**p).fit(X, y), runs)
        cpu = (time.process_time() - cpu0) / runs  # all threads: the work, whatever the load
        errors = int((clf.predict(X) != y).sum())
        cart = DecisionTreeClassifier(max_depth=params["max_depth"], random_state=0).fit(X, y)
        cart_errors = int((cart.predict(X) != y).sum())
        row = {
            "params": params,
            "seconds": t,
            "cpu_seconds": cpu,
            "attributes": clf.table_.n_attributes,
            "front": len(clf.front_),
            "errors": errors,
            "cart_errors": cart_errors,
            "target_s": target,
        }
        out.append(row)
        print(
            f"  {params}: {t:.2f} s ({cpu:.2f} s of CPU), {row['attributes']} threshold "
            f"attributes, {row['front']} front points; training errors {errors} "
            f"(CART {cart_errors}); [{'met' if t <= target else 'NOT MET'}] <= {target:.0f} s",
            flush=True,
        )
    return out


def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tables", default=",".join(TABLES))
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--no-process", action="store_true")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--max-seconds", type=float, default=60.0)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    ap.add_argument(
        "--only", choices=["sklearn"], help="run only this section (sklearn: the estimator)"
    )
    ap.add_argument("--point", nargs=3, metavar=("KIND", "M", "N"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.point:
        scaling_point(args.point[0], int(args.point[1]), int(args.point[2]))
        return
    if args.only == "sklearn":
        rows = bench_sklearn(args.runs)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "sklearn.json").write_text(json.dumps(rows, indent=2))
        print(f"wrote {args.out / 'sklearn.json'}")
        return
    import numba

    bandwidth = memory_bandwidth()
    print(
        f"dagger bench: {os.cpu_count()} cores, {numba.get_num_threads()} numba threads, "
        f"median of {args.runs} runs; memory copy bandwidth {bandwidth / 1e9:.1f} GB/s",
        flush=True,
    )
    rows = bench_tables(
        args.tables.split(","), args.runs, not args.no_baseline, not args.no_process, bandwidth
    )
    print(f"(numba threading layer: {numba.threading_layer()})")
    if not args.no_process and rows:
        total = sum(r["process_s"] for r in rows)
        print(f"whole `dagger relate` processes, the {len(rows)} tables together: {total:.2f} s")
    results = [] if args.no_scaling else bench_scaling(args.out, args.max_seconds, args.runs)
    check_targets(rows, results)
    estimator = bench_sklearn(args.runs)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench.json").write_text(
        json.dumps(
            {
                "bandwidth_bytes_per_s": bandwidth,
                "tables": rows,
                "scaling": results,
                "sklearn": estimator,
            },
            indent=2,
        )
    )
    print(f"wrote {args.out / 'bench.json'}")


if __name__ == "__main__":
    main()
