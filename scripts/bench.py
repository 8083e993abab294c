"""`make bench`: the engines on the four UCI tables, a synthetic scaling series, and the
optimal-decision-tree benchmark under a depth cap (against STreeD).

Figures are medians of several runs; speed is reported as ratios against the plain
baseline measured in the same run (the machines are shared and noisy).

    python scripts/bench.py [--runs 5] [--tables zoo,lymphography,...] [--no-baseline]
                            [--no-process] [--scaling/--no-scaling] [--out out/bench]
                            [--no-read] [--read-rows 5000000]
                            [--odt-tables anneal,...] [--odt-depths 2,3,4,5]
                            [--odt-tpl-depths 3,4] [--odt-runs 3] [--odt-deep-runs 1]
                            [--odt-timeout 300] [--odt-max-memory 2G] [--odt-baseline]
                            [--sorting 6,7] [--no-sorting] [--max-memory 6G]
                            [--no-study] [--no-load]
                            [--bounds-cases mushroom:tpl,odt-vote:depth:4,...]
                            [--bounds-runs 5] [--bounds-timeout 900] [--no-bounds]
    python scripts/bench.py --only read|uci|odt|bounds|sklearn|load|rules|num  # one section
    python scripts/bench.py --only num            # numeric columns against ConTree (bench_num.py)
    python scripts/bench.py --only-sorting        # the sorting tables alone
    python scripts/bench.py --study-only          # dagger study vs separate processes

The bounds section (`--only bounds`, also in the full run; issue 17) times, per case in one
fresh process, the whole front against the queries that need only part of it (max_y at the
front's median y and at its least y, max_x at its median x and at its second point's x,
least_y), each answer checked against the whole front restricted.

The load section (`--only load`, also in the full run) times mushroom quiet and with one
busy neighbour process per core, default threads against NUMBA_NUM_THREADS=1 (settings
interleaved, each run a fresh process), and with --only load the four UCI tables quiet.

The study section (`--study-only` runs it alone) times `dagger study` on the four tables x
all 20 ordered cost pairs against the same 80 tasks as `dagger relate` processes run one
after another, for several worker / engine-thread settings.
"""

from __future__ import annotations

import argparse
import csv
import functools
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dagger_cli.data.datasets import load_table  # noqa: E402
from dagger_cli.data.table import DecisionTable  # noqa: E402
from dagger_cli.engine import relate  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_num  # noqa: E402

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
use = resource.getrusage(resource.RUSAGE_CHILDREN)
peak = use.ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak_mib": peak, "code": proc.returncode,
                  "cpu": use.ru_utime + use.ru_stime,
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


def bench_rules(out_dir: Path, runs: int, odt_tables, max_length: int = 3) -> list[dict]:
    """`dagger rules TABLE -q -o X.csv`, whole processes (median wall, peak RSS): every
    row's front of exact rules, length vs coverage, on mushroom and nursery (the whole
    DAG) and, with --max-length, on the odt tables. The load average is printed before
    and after (the machine is shared)."""
    exe = str(Path(sys.executable).with_name("dagger"))
    folder = out_dir / "rules"
    folder.mkdir(parents=True, exist_ok=True)
    cases = [("mushroom", None), ("nursery", None)] + [(f"odt-{t}", max_length) for t in odt_tables]
    print(f"rules: whole `dagger rules` processes, median of {runs}; {_load()}", flush=True)
    rows = []
    for name, cap in cases:
        dest = folder / f"{name}.csv"
        cmd = [exe, "rules", name, "-q", "-o", str(dest)]
        if cap is not None:
            cmd += ["--max-length", str(cap)]
        res = [launch(cmd) for _ in range(runs)]
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
    print(f"rules: done; {_load()}")
    (out_dir / "rules.json").write_text(json.dumps(rows, indent=2))
    print(f"wrote {out_dir / 'rules.json'}")
    return rows


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
        t_fast, rel = median_time(functools.partial(relate, table), runs)

        def dag_only(table=table):
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
            t_base, base = median_time(functools.partial(relate, table, engine="baseline"), 1)
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


STUDY_CONFIGS = [  # (label, dagger study options): workers x engine threads per task
    ("2 workers x 1 thread (default)", []),
    ("2 workers x 2 threads (oversubscribed)", ["--threads", "2"]),
    ("1 worker x 2 threads", ["--workers", "1", "--threads", "2"]),
    ("1 worker x 1 thread", ["--workers", "1", "--threads", "1"]),
]


def _load() -> str:
    return "load " + " ".join(f"{v:.2f}" for v in os.getloadavg())


def _study_rows(dest: Path, relate_dir: Path, label: str) -> list[dict]:
    """results.csv of a finished study, its curves checked against `dagger relate -o`."""
    with open(dest / "results.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert all(r["status"] == "ok" for r in rows), f"{label}: failed tasks"
    for r in rows:
        same = (dest / r["curve"]).read_bytes() == (relate_dir / Path(r["curve"]).name).read_bytes()
        assert same, f"{label}: {r['curve']} differs from dagger relate -o"
    return rows


def bench_study(out_dir: Path, runs: int, tables=tuple(TABLES)):
    """`dagger study` (whole process, fresh output folder) against the same tasks as
    separate `dagger relate` processes one after another; medians of ``runs``. Each run
    times every setting in turn, so a change of the machine's load hits them alike."""
    import shutil

    from dagger_cli.costs import COSTS

    exe = str(Path(sys.executable).with_name("dagger"))
    folder = out_dir / "study"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    study = folder / "study.toml"
    study.write_text(f'tables = {json.dumps(list(tables))}\npairs = "all"\n')
    pairs = [(x, y) for x in COSTS for y in COSTS if x != y]
    tasks = [(t, x, y) for t in tables for x, y in pairs]
    print(f"study: {len(tables)} tables x {len(pairs)} pairs = {len(tasks)} tasks ({_load()})")
    launch([exe, "study", str(study), "-o", str(folder / "warm"), "-q"])  # caches, tables
    labels = ["separate relate processes"] + [label for label, _ in STUDY_CONFIGS]
    times: dict[str, list] = {label: [] for label in labels}
    loads: dict[str, list] = {label: [] for label in labels}
    task_s: dict[str, list] = {label: [] for label in labels}
    for run in range(runs):
        t0 = time.perf_counter()
        for t, x, y in tasks:
            dest = folder / "relate" / f"{t}__{x}__{y}.csv"
            launch([exe, "relate", t, "--x", x, "--y", y, "-q", "-o", str(dest)])
        times[labels[0]].append(time.perf_counter() - t0)
        loads[labels[0]].append(os.getloadavg()[0])
        for label, opts in STUDY_CONFIGS:
            dest = folder / "out"
            shutil.rmtree(dest, ignore_errors=True)
            times[label].append(
                launch([exe, "study", str(study), "-o", str(dest), "-q", *opts])["wall"]
            )
            loads[label].append(os.getloadavg()[0])
            rows = _study_rows(dest, folder / "relate", label)
            task_s[label].append(sum(float(r["seconds"]) for r in rows))
        print(
            f"  run {run + 1}: "
            + ", ".join(f"{times[label][-1]:.1f} s" for label in labels)
            + f" ({_load()})",
            flush=True,
        )
    again = launch([exe, "study", str(study), "-o", str(folder / "out"), "-q"])["wall"]
    seq = statistics.median(times[labels[0]])
    print(f"  {labels[0]}: {seq:.1f} s (median of {runs})")
    configs = []
    for label, opts in STUDY_CONFIGS:
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
    print(f"  re-run of a finished study (every task skipped): {again:.1f} s")
    results = {
        "tasks": len(tasks),
        "sequential_s": seq,
        "sequential_runs": times[labels[0]],
        "sequential_load_1min": loads[labels[0]],
        "configs": configs,
        "rerun_s": again,
    }
    (out_dir / "study.json").write_text(json.dumps(results, indent=2))
    best = configs[0]
    ok = best["speedup"] >= 1.7
    print(
        f"targets (issue 15):\n  [{'met' if ok else 'NOT MET'}] dagger study "
        f"x{best['speedup']:.2f} the separate processes on {os.cpu_count()} cores (>= x1.7)"
    )
    print(f"wrote {out_dir / 'study.json'}")
    return results


# --------------------------------------------------------------------------- load
#: The thread settings the load section compares (label, environment changes; None
#: removes a variable). "default" is what a user gets with nothing set.
LOAD_CONFIGS = [
    ("default", {}),
    ("one thread", {"NUMBA_NUM_THREADS": "1"}),
]
#: Variables that choose threads or OpenMP waiting: unset for the runs, so that each
#: setting is exactly its own (a shell's NUMBA_NUM_THREADS must not leak into "default").
THREAD_VARS = ("NUMBA_NUM_THREADS", "DAGGER_THREADS", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
LOAD_TARGET = 1.1  # issue 17: under load, default within 1.1x of one thread


def load_run(name):
    """(In a fresh process) one warm DAG + fronts of ``name``: a first relate loads the
    compiled kernels, then one timed run; prints the seconds and the thread counts the
    kernel calls ran with, as JSON."""
    import numba

    from dagger_cli.costs import COSTS
    from dagger_cli.engine import build_dag, compute_fronts, threads

    table = load_table(name)
    relate(table)
    threads.CALLS.clear()
    t0 = time.perf_counter()
    dag = build_dag(table)
    t1 = time.perf_counter()
    compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
    t2 = time.perf_counter()
    print(
        json.dumps(
            {
                "dag_s": t1 - t0,
                "fronts_s": t2 - t1,
                "engine_s": t2 - t0,
                "calls_by_threads": dict(sorted(threads.CALLS.items())),
                "layer": numba.threading_layer(),
            }
        )
    )


def _env_for(changes):
    env = {k: v for k, v in os.environ.items() if k not in THREAD_VARS}
    env.update({k: v for k, v in changes.items() if v is not None})
    return env


def launch_env(cmd, env):
    """:func:`launch` with its own environment."""
    res = json.loads(
        subprocess.run(
            [sys.executable, "-c", LAUNCHER, *cmd],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
    )
    if res["code"] != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{res['stderr']}")
    return res


def _die_with_parent():
    """(In a busy neighbour, before exec) be killed when the benchmark dies (Linux)."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class BusyNeighbours:
    """``n`` busy-loop processes (one per core by default) for the ``with`` block; always
    killed at its end, whatever happens in it (SIGTERM included), and with the benchmark
    if it is killed outright."""

    def __init__(self, n=None):
        self.n = n or os.cpu_count() or 1
        self.procs = []

    def __enter__(self):
        import signal

        self.sigterm = signal.signal(signal.SIGTERM, self._terminate)
        for _ in range(self.n):
            self.procs.append(
                subprocess.Popen(
                    [sys.executable, "-c", "while 1: pass"], preexec_fn=_die_with_parent
                )
            )
        time.sleep(0.5)  # let them reach the run queue
        return self

    @staticmethod
    def _terminate(signum, frame):
        raise SystemExit(f"stopped by signal {signum}")

    def __exit__(self, *exc):
        import signal

        for p in self.procs:
            p.kill()
        for p in self.procs:
            p.wait()
        self.procs = []
        signal.signal(signal.SIGTERM, self.sigterm)


def _load_round(name, configs, runs, label):
    """Whole process and engine time of each setting, the settings taking turns in each
    of ``runs`` rounds; medians and the loads seen."""
    exe = str(Path(sys.executable).with_name("dagger"))
    res = {
        c: {"process_s": [], "engine_s": [], "dag_s": [], "fronts_s": [], "calls": []}
        for c, _ in configs
    }
    loads = []
    for _ in range(runs):
        for cfg, changes in configs:
            env = _env_for(changes)
            r = res[cfg]
            r["process_s"].append(launch_env([exe, "relate", name, "-q"], env)["wall"])
            out = json.loads(
                launch_env([sys.executable, __file__, "--load-run", name], env)["stdout"]
            )
            for k in ("engine_s", "dag_s", "fronts_s"):
                r[k].append(out[k])
            r["calls"].append(out["calls_by_threads"])
        loads.append(os.getloadavg()[0])
    summary = {}
    for cfg, _ in configs:
        r = res[cfg]
        summary[cfg] = {
            **{k: statistics.median(r[k]) for k in ("process_s", "engine_s", "dag_s", "fronts_s")},
            "runs": {k: r[k] for k in ("process_s", "engine_s")},
            "calls_by_threads": r["calls"],
        }
        s = summary[cfg]
        print(
            f"  {label:<6} {cfg:<22} whole process {s['process_s']:.2f} s "
            f"(range {min(r['process_s']):.2f}-{max(r['process_s']):.2f}), engine "
            f"{s['engine_s']:.3f} s (DAG {s['dag_s']:.3f} + fronts {s['fronts_s']:.3f}; "
            f"range {min(r['engine_s']):.3f}-{max(r['engine_s']):.3f})",
            flush=True,
        )
    return {"configs": summary, "load_1min": loads}


def bench_load(out_dir, runs, table="mushroom", configs=None, uci=True):
    """Mushroom quiet and with one busy neighbour per core: the default threads against
    one thread (and any other ``configs``), whole process and engine; then the four UCI
    tables quiet, as the UCI section measures them."""
    configs = configs or LOAD_CONFIGS
    print(f"load: {table}, {runs} interleaved runs per setting ({_load()})", flush=True)
    launch([str(Path(sys.executable).with_name("dagger")), "relate", table, "-q"])  # caches
    results = {"table": table, "cores": os.cpu_count()}
    results["quiet"] = _load_round(table, configs, runs, "quiet")
    with BusyNeighbours() as busy:
        print(f"  ({busy.n} busy neighbours; {_load()})", flush=True)
        results["busy"] = _load_round(table, configs, runs, "busy")
        results["busy"]["neighbours"] = busy.n
    lines = []
    for state in ("quiet", "busy"):
        conf = results[state]["configs"]
        if "default" in conf and "one thread" in conf:
            ratio = {
                k: conf["default"][k] / conf["one thread"][k] for k in ("process_s", "engine_s")
            }
            results[state]["ratio_default_to_one"] = ratio
            lines.append((state, ratio))
    print("targets (issue 17):")
    for state, ratio in lines:
        mark = ""
        if state == "busy":
            ok = max(ratio.values()) <= LOAD_TARGET
            results["target_met"] = ok
            mark = f"[{'met' if ok else 'NOT MET'}] "
        print(
            f"  {mark}{state}: default / one thread = x{ratio['process_s']:.2f} whole process, "
            f"x{ratio['engine_s']:.2f} engine"
            + (f" (<= {LOAD_TARGET} under load)" if state == "busy" else "")
        )
    if uci:
        print(f"load: the four UCI tables, quiet ({_load()})", flush=True)
        rows = bench_tables(TABLES, runs, False, True, memory_bandwidth())
        results["uci"] = rows
        print(f"  whole processes together: {sum(r['process_s'] for r in rows):.2f} s")
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "bench-load.json").write_text(json.dumps(results, indent=2))
    print(f"wrote {out_dir / 'bench-load.json'}")
    return results


#: Knuth's least total path lengths of sorting n elements (TAOCP vol. 3, 5.3.1) and the
#: least depths (the minimum number of comparisons, ceil(log2 n!) up to n = 11).
SORTING_KNOWN = {3: (16, 3), 4: (112, 5), 5: (832, 7), 6: (6896, 10), 7: (62416, 13)}


def bench_sorting(ns, out_dir, max_memory=None):
    """`dagger optimize sortingN.csv --order total-path-length,depth --exact-only`, each
    in a fresh process: the least total path length of a comparison sort, the number of
    sorts reaching it, and their depth (with whether that is the least depth)."""
    exe = str(Path(sys.executable).with_name("dagger"))
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in ns:
        path = out_dir / f"sorting{n}.csv"
        subprocess.run([exe, "example", "sorting", str(n), "-o", str(path), "--force"], check=True)
        cmd = [exe, "optimize", str(path), "--order", "total-path-length,depth", "--exact-only"]
        cmd += ["--format", "json", "-q"] + (["--max-memory", max_memory] if max_memory else [])
        res = json.loads(
            subprocess.run(
                [sys.executable, "-c", LAUNCHER, *cmd], capture_output=True, text=True, check=True
            ).stdout
        )
        row = {"n": n, "wall_s": res["wall"], "cpu_s": res["cpu"], "peak_mib": res["peak_mib"]}
        row["code"] = res["code"]
        if res["code"] != 0:
            row["error"] = res["stderr"].strip().splitlines()[-1]
            print(f"sorting {n}: exit {res['code']} after {res['wall']:.1f} s: {row['error']}")
            rows.append(row)
            continue
        from dagger_cli.engine.counting import _int_digits
        from dagger_cli.text import abbreviate

        _int_digits()  # counts of many thousands of digits
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
        known = SORTING_KNOWN.get(n)
        check = "" if known is None else (" (known)" if known == (tpl, least_depth) else " WRONG")
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


def check_targets(rows, results, sorting_rows=()):
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
    for r in sorting_rows:
        if r["n"] == 7 and r["code"] == 0:
            say(
                r["wall_s"] <= 60 and r["peak_mib"] <= 8192,
                f"sorting 7: least total path length, its count and the least depth in "
                f"{r['wall_s']:.1f} s, {r['peak_mib']:.0f} MiB (<= 60 s, <= 8 GiB; issue 14)",
            )
    if lines:
        print("targets (issues 7 and 14):")
        print("\n".join(lines))


READ_CHILD = r"""
import resource, sys, time
t0 = time.perf_counter()
from dagger_cli.data.table import DecisionTable
t = DecisionTable.from_csv(sys.argv[1])
ru = resource.getrusage(resource.RUSAGE_SELF)
print(f"{t.n_rows} rows x {t.n_attributes} attributes; CPU {ru.ru_utime + ru.ru_stime:.1f} s")
"""


def make_read_csv(path: Path, rows: int, seed: int = 11) -> None:
    """A 5 M-row table of the kind users bring: 20 categorical attributes (2 to 30 values,
    some two-character, a few missing '?'), a yes/no decision; about 55 bytes a row."""
    rng = np.random.default_rng(seed)
    cards = [2, 3, 4, 5, 6, 8, 10, 12, 2, 3, 4, 5, 30, 2, 3, 7, 9, 11, 3, 2]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as fh:
        fh.write(",".join(f"a{j}" for j in range(len(cards))) + ",decision\n")
        block = 500_000
        for start in range(0, rows, block):
            k = min(block, rows - start)
            cols = [rng.integers(0, c, k).astype(str) for c in cards]
            cols[5][rng.random(k) < 0.01] = "?"
            dec = np.where(rng.random(k) < 0.4, "yes", "no")
            lines = [",".join(r) for r in zip(*cols, dec)]
            fh.write("\n".join(lines) + "\n")
    tmp.replace(path)


def bench_read(out_dir: Path, rows: int, runs: int, readers=("python", "columnar")) -> dict:
    """Reading a generated CSV into a DecisionTable, each run a fresh process: the Python
    reader (before) and the columnar one (after), wall time and peak RSS."""
    path = out_dir / f"read-{rows}.csv"
    if not path.exists():
        print(f"generating {path} ...", flush=True)
        make_read_csv(path, rows)
    size = path.stat().st_size
    print(f"read: {path.name}, {rows:,} rows, {size / 2**20:.0f} MiB", flush=True)
    out = {"rows": rows, "bytes": size}
    for reader in readers:
        env = dict(os.environ, DAGGER_CSV_READER=reader)
        res = []
        for _ in range(runs if reader == "columnar" else 1):
            res.append(
                json.loads(
                    subprocess.run(
                        [
                            sys.executable,
                            "-c",
                            LAUNCHER,
                            sys.executable,
                            "-c",
                            READ_CHILD,
                            str(path),
                        ],
                        capture_output=True,
                        text=True,
                        check=True,
                        env=env,
                    ).stdout
                )
            )
        if any(r["code"] for r in res):
            raise SystemExit(f"reading {path} failed:\n{res[0]['stderr']}")
        wall = statistics.median(r["wall"] for r in res)
        peak = max(r["peak_mib"] for r in res)
        out[reader] = {
            "wall_s": wall,
            "peak_mib": peak,
            "runs": len(res),
            "load_average": os.getloadavg()[0],
            "result": res[0]["stdout"].strip(),
        }
        print(
            f"  {reader:8} reader: {wall:6.1f} s, peak RSS {peak:6.0f} MiB "
            f"({peak * 2**20 / size:.1f}x the file; {len(res)} run(s)); {res[0]['stdout'].strip()}",
            flush=True,
        )
    if "columnar" not in out:
        return out
    col = out["columnar"]
    ok_time, ok_mem = col["wall_s"] <= 10, col["peak_mib"] * 2**20 <= 3 * size
    print(
        f"  target: within 10 s ({'met' if ok_time else 'NOT MET'}) and 3x the file size in "
        f"memory ({'met' if ok_mem else 'NOT MET'})"
    )
    return out


# --------------------------------------------------------------------------- odt (depth cap)
ODT_TABLES = [
    "anneal",
    "australian-credit",
    "diabetes",
    "german-credit",
    "heart-cleveland",
    "hepatitis",
    "kr-vs-kp",
    "primary-tumor",
    "soybean",
    "tic-tac-toe",
    "vote",
    "vehicle",
]
#: STreeD's least misclassifications per depth 1..4 (shared/datasets/odt/README.md).
ODT_EXPECTED = {
    "anneal": (151, 137, 112, 91),
    "australian-credit": (89, 87, 73, 56),
    "diabetes": (196, 177, 162, 137),
    "german-credit": (290, 267, 236, 204),
    "heart-cleveland": (69, 60, 41, 25),
    "hepatitis": (19, 16, 10, 3),
    "kr-vs-kp": (1012, 418, 198, 144),
    "primary-tumor": (70, 58, 46, 34),
    "soybean": (92, 55, 29, 14),
    "tic-tac-toe": (288, 282, 216, 137),
    "vote": (19, 17, 12, 5),
    "vehicle": (189, 75, 26, 12),
}
#: Issue 17: dagger faster than STreeD in total and on at least this share of the tables
#: (9 of the 12; on a subset, the same share rounded up).
ODT_WIN_SHARE = 0.75
#: Issue 17: total path length vs misclassifications at D = 4 within this, per table.
TPL_TARGET_S = 5.0
TPL_TARGET_MIB = 2048.0
#: The depth cap of issue 17's targets for total path length vs misclassifications.
TPL_TARGET_DEPTH = 4
#: A run that takes longer than this is not repeated: its one run is the figure.
ODT_REPEAT_BELOW_S = 20.0

# Like LAUNCHER, with a time limit: the child is killed after TIMEOUT seconds.
LAUNCHER_T = r"""
import json, resource, subprocess, sys, time
limit = float(sys.argv[1])
t0 = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
try:
    out, err = proc.communicate(timeout=limit)
    code = proc.returncode
except subprocess.TimeoutExpired:
    proc.kill()
    out, err = proc.communicate()
    code = "timeout"
wall = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps({"wall": wall, "peak_mib": peak, "code": code,
                  "stdout": out.decode(), "stderr": err.decode()}))
"""


def launch_limited(cmd, limit):
    """Wall time, peak RSS (MiB), exit code ("timeout" after ``limit`` s) and output."""
    return json.loads(
        subprocess.run(
            [sys.executable, "-c", LAUNCHER_T, str(limit), *cmd],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    )


def odt_run(table, x, depth, engine, runs, max_memory="2G"):
    """(In a fresh process) one capped front, computed ``runs`` times: prints the first
    call's seconds (it also loads the cached kernels), the median of the others (engine
    seconds, kernels warm; the first one's when runs == 1) and the front, as JSON."""
    t = load_table(f"odt-{table}")
    times = []
    for _ in range(runs):
        t1 = time.perf_counter()
        rel = relate(
            t, x, "misclassifications", engine=engine, max_depth=depth, max_memory=max_memory
        )
        times.append(time.perf_counter() - t1)
        if times[-1] > ODT_REPEAT_BELOW_S:
            break
    out = {
        "first_s": times[0],
        "engine_s": statistics.median(times[1:] or times),
        "calls": len(times),
        "points": rel.front.points(),
        "least_mis": int(rel.front.y[-1]),
        "stats": rel.stats.as_dict(),
    }
    print(json.dumps(out))


# STreeD's whole process: only what a user of pystreed needs (numpy, pystreed, the file),
# not this script's imports (dagger and numba), which would slow STreeD's start-up.
STREED_CHILD = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from pystreed import STreeDClassifier
data = np.loadtxt(sys.argv[1], dtype=np.int64, ndmin=2)
y, X = data[:, 0], data[:, 1:]
fits, mis = [], []
for d in map(int, sys.argv[2].split(",")):
    t1 = time.perf_counter()
    model = STreeDClassifier(max_depth=d, cost_complexity=0, min_leaf_node_size=1)
    model.fit(X, y)
    fits.append(time.perf_counter() - t1)
    mis.append(int((model.predict(X) != y).sum()))
print(json.dumps({"fit_s": fits, "mis": mis, "in_process_s": time.perf_counter() - t0}))
"""


def streed_depths(cap):
    """The depths STreeD is fitted at to answer what dagger's front at ``cap`` answers:
    every depth 1..cap up to 4 (one fit per depth: STreeD gives one tree, dagger the
    front), depth ``cap`` alone beyond (issue 17: at D = 5 the last fit dominates)."""
    return list(range(1, cap + 1)) if cap <= 4 else [cap]


def _odt_path(table):
    from dagger_cli.data.datasets import fetch

    return fetch(f"odt-{table}")


def _failure(r):
    """Why a launched run failed: "timeout", "memory" (stopped by --max-memory or out of
    memory) or "exit N"."""
    if "(--max-memory)" in r["stderr"] or "MemoryError" in r["stderr"]:
        return "memory"  # even if killed at the time limit while it was exiting
    if r["code"] == "timeout":
        return "timeout"
    return f"exit {r['code']}"


def _repeat(cmd, runs, limit):
    """``cmd`` run up to ``runs`` times (once when it takes over ODT_REPEAT_BELOW_S): the
    finished runs, and the failure that stopped them (None if none did)."""
    done = []
    for _ in range(max(runs, 1)):
        r = launch_limited(cmd, limit)
        if r["code"] != 0:
            return done, {
                "failed": _failure(r),
                "wall": r["wall"],
                "peak_mib": r["peak_mib"],
                "stderr": r["stderr"][-300:],
            }
        done.append(r)
        if r["wall"] > ODT_REPEAT_BELOW_S:
            break
    return done, None


def measure_dagger(runner, process, runs, limit):
    """Engine seconds and the front from ``runner`` (one fresh process computing the
    front ``runs`` + 1 times: the first call also loads the compiled kernels), then the
    whole ``process`` up to ``runs`` times: median wall time, largest peak RSS. A failed
    run is reported as ``failed`` ("timeout", "memory", "exit N") with its wall time."""
    done, fail = _repeat(runner, 1, limit)
    if fail:
        return fail
    out = json.loads(done[0]["stdout"].strip().splitlines()[-1])
    res = {
        "engine_s": out["engine_s"],
        "first_s": out["first_s"],
        "points": out["points"],
        "stats": out["stats"],
        "runner_peak_mib": done[0]["peak_mib"],
    }
    if process is None:  # the runner's own figures
        return {**res, "wall": done[0]["wall"], "peak_mib": done[0]["peak_mib"], "runs": 1}
    done, fail = _repeat(process, runs, limit)
    if fail:
        return {**res, **fail}
    walls = [r["wall"] for r in done]
    peak = max(r["peak_mib"] for r in done)
    return {**res, "wall": statistics.median(walls), "walls": walls, "peak_mib": peak}


def measure_streed(path, depths, runs, limit):
    """STreeD fitted at each of ``depths`` in one fresh process, up to ``runs`` times:
    median wall time of the whole process, median sum of the fit times, the fits' training
    misclassifications per depth."""
    cmd = [sys.executable, "-c", STREED_CHILD, str(path), ",".join(map(str, depths))]
    done, fail = _repeat(cmd, runs, limit)
    if fail:
        return {"depths": list(depths), **fail}
    outs = [json.loads(r["stdout"].strip().splitlines()[-1]) for r in done]
    walls = [r["wall"] for r in done]
    return {
        "depths": list(depths),
        "mis": outs[0]["mis"],
        "fit_s": statistics.median(sum(o["fit_s"]) for o in outs),
        "fits": [statistics.median(f) for f in zip(*(o["fit_s"] for o in outs))],
        "wall": statistics.median(walls),
        "walls": walls,
        "peak_mib": max(r["peak_mib"] for r in done),
    }


def ok_run(r):
    """Whether a measured part finished (its whole process too, where there was one)."""
    return r is not None and "failed" not in r and "wall" in r


def least_per_depth(points, cap):
    """The least misclassifications over the trees of depth <= d, for d = 1..cap, read off
    a depth-vs-misclassifications front (its points are (depth, misclassifications))."""
    return [min(y for x, y in points if x <= d) for d in range(1, cap + 1)]


def check_exact(res, table, cap, streed_known):
    """Mark a dagger depth-vs-misclassifications result at ``cap`` against the reference:
    the README's values for d <= 4, STreeD's of this run (``streed_known``, depth ->
    misclassifications) beyond. ``exact`` is False on any mismatch, True when every depth
    was checked and agrees, None when some depth has no reference (``unchecked``)."""
    if res is None or "points" not in res:
        return
    known = dict(enumerate(ODT_EXPECTED[table], start=1))
    known.update({d: m for d, m in streed_known.items() if d > len(ODT_EXPECTED[table])})
    res["least"] = least_per_depth(res["points"], cap)
    res["expected"] = [known.get(d) for d in range(1, cap + 1)]
    res["mismatch"] = [
        d
        for d, (g, w) in enumerate(zip(res["least"], res["expected"]), 1)
        if w is not None and g != w
    ]
    res["unchecked"] = [d for d, w in enumerate(res["expected"], 1) if w is None]
    res["exact"] = False if res["mismatch"] else (None if res["unchecked"] else True)


def check_row(row, depths):
    """Exactness of one table's results: STreeD's own values against the README's (d <= 4),
    then each dagger depth-vs-misclassifications front against the references."""
    table = row["table"]
    streed_known = {}
    for d in depths:
        s = row.get(f"streed_D{d}")
        if ok_run(s):
            got = dict(zip(s["depths"], s["mis"]))
            streed_known.update(got)
            ref = {k: m for k, m in enumerate(ODT_EXPECTED[table], 1) if k in got}
            s["exact"] = all(got[k] == m for k, m in ref.items()) if ref else None
    for d in depths:
        check_exact(row.get(f"depth_D{d}"), table, d, streed_known)


def bench_odt(
    tables,
    runs,
    limit,
    depths=(2, 3, 4, 5),
    tpl_depths=(3, 4),
    deep_runs=1,
    baseline=False,
    max_memory="2G",
):
    """The depth cap on the benchmark against STreeD, each run a fresh process (issue 17).

    For each table: dagger's depth vs misclassifications front at each cap of ``depths``
    (engine seconds in a runner, kernels warm; whole `dagger relate` processes; peak RSS)
    and, at each cap D >= 4, STreeD fitted at :func:`streed_depths` (D) in one process
    (whole process and the sum of its fits) right after it; dagger's total path length vs
    misclassifications at each cap of ``tpl_depths``; the baseline engine on that pair at
    D = 3 if ``baseline``. Medians of ``runs`` whole processes at D <= 4, of ``deep_runs``
    beyond; every process stopped after ``limit`` s, dagger's at ``max_memory``."""
    from dagger_cli.data.datasets import REGISTRY

    try:
        import pystreed  # noqa: F401

        have_streed = True
    except ImportError:
        have_streed = False

    me = [sys.executable, str(Path(__file__).resolve())]
    exe = str(Path(sys.executable).with_name("dagger"))

    def runs_at(d):
        return runs if d <= 4 else deep_runs

    def dagger(table, x, d):
        n = runs_at(d)
        runner = [*me, "--odt-run", table, x, str(d), "fast", str(n + 1), max_memory]
        cli = [exe, "relate", f"odt-{table}", "--x", x, "--y", "misclassifications"]
        cli += ["--max-depth", str(d), "-q", "--max-memory", max_memory]
        return measure_dagger(runner, cli, n, limit)

    load_start, started = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"odt: {len(tables)} table(s), each run a fresh process; medians of {runs} run(s) at "
        f"D <= 4 and of {deep_runs} at D >= 5 (a run over {ODT_REPEAT_BELOW_S:g} s is not "
        f"repeated); every process stopped after {limit:g} s, dagger's at --max-memory "
        f"{max_memory}; {os.cpu_count()} cores, {_load()}",
        flush=True,
    )
    rows = []
    for table in tables:
        path = _odt_path(table)  # fetched (or copied from the mirror) before any timing
        ds = REGISTRY[f"odt-{table}"]
        row = {"table": table, "rows": ds.rows, "features": ds.n_attributes}
        for d in depths:
            row[f"depth_D{d}"] = dagger(table, "depth", d)
            if d >= 4 and have_streed:
                row[f"streed_D{d}"] = measure_streed(path, streed_depths(d), runs_at(d), limit)
        for d in tpl_depths:
            row[f"tpl_D{d}"] = dagger(table, "total-path-length", d)
        if baseline:
            runner = [*me, "--odt-run", table, "total-path-length", "3", "baseline", "1"]
            row["baseline_tpl_D3"] = measure_dagger([*runner, max_memory], None, 1, 2 * limit)
        check_row(row, depths)
        rows.append(row)
        print(odt_lines(row, depths, tpl_depths), flush=True)
    load_end = os.getloadavg()
    verdicts = odt_verdicts(rows, depths, tpl_depths)
    start, end = (" ".join(f"{v:.2f}" for v in load) for load in (load_start, load_end))
    print(f"odt done: load average (1, 5, 15 min) at the start {start}, at the end {end}")
    print("targets (issue 17; whole processes unless said):")
    for v in verdicts:
        mark = {True: "met", False: "NOT MET", None: "info"}[v["ok"]]
        print(f"  [{mark}] {v['text']}")
    table_md = odt_markdown(rows, depths, tpl_depths)
    print(table_md)
    return {
        **_run_record(started, load_start, load_end),
        "runs": runs,
        "deep_runs": deep_runs,
        "timeout_s": limit,
        "max_memory": max_memory,
        "pystreed": _version("pystreed"),
        "tables": rows,
        "verdicts": verdicts,
        "markdown": table_md,
    }


def _run_record(started, load_start, load_end):
    """When a section ran, on how many cores, and the load average before and after."""
    return {
        "started": started,
        "finished": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "cores": os.cpu_count(),
        "load_start": load_start,
        "load_end": load_end,
    }


def _version(package):
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def _why(r):
    """A failed run in words: what stopped it and after how long."""
    what = {"timeout": "timed out", "memory": "> --max-memory"}.get(r["failed"], r["failed"])
    return f"{what} ({r['wall']:.0f} s)"


def _cell(r, peak=True, wall=True):
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


def _streed_cell(s):
    if s is None:
        return "-"
    if not ok_run(s):
        return _why(s)
    return f"{s['fit_s']:.2f} / {s['wall']:.2f}" + ("" if s.get("exact") is not False else " (?)")


def _depth_label(depths):
    return f"d={depths[0]}" if len(depths) == 1 else f"d={depths[0]}..{depths[-1]}"


def odt_lines(row, depths, tpl_depths):
    """One table's figures in a few lines: engine / whole process seconds (peak RSS)."""
    lines = [f"{row['table']} ({row['rows']} rows, {row['features']} features)"]
    lines.append(
        "  depth vs µ    " + " | ".join(f"D={d} {_cell(row.get(f'depth_D{d}'))}" for d in depths)
    )
    for d in depths:
        r, s = row.get(f"depth_D{d}"), row.get(f"streed_D{d}")
        if s is None:
            continue
        text = f"  STreeD {_depth_label(s['depths'])}: "
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
        + " | ".join(f"D={d} {_cell(row.get(f'tpl_D{d}'))}{_tpl_mark(row, d)}" for d in tpl_depths)
    )
    if "baseline_tpl_D3" in row:
        lines.append(
            f"  baseline Λ vs µ D=3: {_cell(row['baseline_tpl_D3'], peak=False, wall=False)}"
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


def _tpl_ok(r):
    return ok_run(r) and r["engine_s"] <= TPL_TARGET_S and r["peak_mib"] <= TPL_TARGET_MIB


def _tpl_mark(row, d):
    if d != TPL_TARGET_DEPTH:
        return ""
    r = row.get(f"tpl_D{d}")
    return " [met]" if _tpl_ok(r) else " [NOT MET]"


def compare_streed(rows, cap):
    """Issue 17's verdict at ``cap``: dagger's whole process against STreeD's (fitted at
    :func:`streed_depths` (cap)), faster in total and on at least ODT_WIN_SHARE of the
    tables. A run of STreeD stopped at the time limit counts at its wall time (a lower
    bound of its time); a dagger run that did not finish, or a STreeD run that failed
    otherwise, leaves the verdict not met. None when STreeD was not run."""
    pairs = [(row["table"], row.get(f"depth_D{cap}"), row.get(f"streed_D{cap}")) for row in rows]
    if all(s is None for _, _, s in pairs):
        return None
    n = len(pairs)
    needed = math.ceil(ODT_WIN_SHARE * n)
    timed_out = [t for t, _, s in pairs if s is not None and s.get("failed") == "timeout"]
    streed_failed = [t for t, _, s in pairs if not ok_run(s) and t not in timed_out]
    dagger_failed = [t for t, d, _ in pairs if not ok_run(d)]
    judged = [(t, d, s) for t, d, s in pairs if ok_run(d) and (ok_run(s) or t in timed_out)]
    wins = [t for t, d, s in judged if d["wall"] < s["wall"]]
    both = [(d, s) for _, d, s in pairs if ok_run(d) and ok_run(s)]
    out = {
        "cap": cap,
        "streed_depths": streed_depths(cap),
        "tables": n,
        "needed": needed,
        "wins": wins,
        "judged": [t for t, _, _ in judged],
        "dagger_s": sum(d["wall"] for _, d, _ in judged),
        "streed_s": sum(s["wall"] for _, _, s in judged),
        "dagger_failed": dagger_failed,
        "streed_timed_out": timed_out,
        "streed_failed": streed_failed,
        "solver_compared": len(both),
        "engine_s": sum(d["engine_s"] for d, _ in both),
        "fits_s": sum(s["fit_s"] for _, s in both),
        "engine_wins": sum(d["engine_s"] < s["fit_s"] for d, s in both),
    }
    complete = not dagger_failed and not streed_failed
    out["met"] = complete and out["dagger_s"] < out["streed_s"] and len(wins) >= needed
    return out


def _tables(n):
    return f"{n} table" if n == 1 else f"{n} tables"


def _compare_text(c):
    label = _depth_label(c["streed_depths"])
    plus = "+" if set(c["streed_timed_out"]) & set(c["judged"]) else ""
    n, judged = c["tables"], len(c["judged"])
    text = (
        f"D = {c['cap']} vs STreeD {label}: dagger faster in total over the {_tables(n)} "
        f"and on at least {c['needed']} of them: "
    )
    if judged == n:
        text += f"{c['dagger_s']:.1f} s against {c['streed_s']:.1f}{plus} s, faster on "
        text += f"{len(c['wins'])}"
    else:
        text += f"on the {_tables(judged)} timed on both sides {c['dagger_s']:.1f} s against "
        text += f"{c['streed_s']:.1f}{plus} s, faster on {len(c['wins'])}"
    if c["tables"] != len(ODT_TABLES):
        text += f" (a subset: the issue's verdict is over the {len(ODT_TABLES)} tables)"
    if c["dagger_failed"]:
        text += f"; dagger did not finish on {', '.join(c['dagger_failed'])}"
    if c["streed_timed_out"]:
        text += f"; STreeD timed out on {', '.join(c['streed_timed_out'])} (counted at the limit)"
    if c["streed_failed"]:
        text += f"; STreeD failed on {', '.join(c['streed_failed'])}"
    return text


def odt_verdicts(rows, depths, tpl_depths):
    """Issue 17's targets, each {"ok": True / False / None (information), "text": ...}."""
    out = []

    def say(ok, text, **data):
        out.append({"ok": ok, "text": text, **data})

    n = len(rows)
    for d in depths:
        res = [(row["table"], row.get(f"depth_D{d}")) for row in rows]
        wrong = [t for t, r in res if r is not None and r.get("exact") is False]
        unfinished = [t for t, r in res if not (r is not None and "points" in r)]
        unchecked = [t for t, r in res if r is not None and r.get("exact", False) is None]
        text = (
            f"exact: depth vs misclassifications at D = {d} gives the least misclassifications "
            f"per depth ({'README' if d <= 4 else 'README for d <= 4, STreeD of this run beyond'})"
            f" on {n - len(wrong) - len(unfinished) - len(unchecked)} of the {n} tables"
        )
        for label, names in (
            ("!!! MISMATCH on", wrong),
            ("not finished on", unfinished),
            ("unchecked (no STreeD value) on", unchecked),
        ):
            if names:
                text += f"; {label} {', '.join(names)}"
        say(not (wrong or unfinished or unchecked), text, cap=d, wrong=wrong)
    for d in depths:
        c = compare_streed(rows, d)
        if c is None:
            continue
        say(c["met"], _compare_text(c), **c)
        if c["solver_compared"]:
            say(
                None,
                f"D = {d}, the solvers alone (engine seconds against the sum of STreeD's fit "
                f"times, on the {_tables(c['solver_compared'])} where both finished): "
                f"{c['engine_s']:.2f} s against {c['fits_s']:.2f} s, dagger faster on "
                f"{c['engine_wins']}",
            )
    if TPL_TARGET_DEPTH in tpl_depths:
        key = f"tpl_D{TPL_TARGET_DEPTH}"
        bad = [row["table"] for row in rows if not _tpl_ok(row.get(key))]
        say(
            not bad,
            f"total path length vs misclassifications at D = {TPL_TARGET_DEPTH} within "
            f"{TPL_TARGET_S:g} s (engine) and {TPL_TARGET_MIB / 1024:g} GiB on "
            f"{n - len(bad)} of the {n} tables" + (f" (not: {', '.join(bad)})" if bad else ""),
        )
        slow = [
            row["table"]
            for row in rows
            if not (ok_run(row.get(key)) and row[key]["wall"] <= TPL_TARGET_S)
        ]
        say(
            not slow,
            f"the same in whole processes: within {TPL_TARGET_S:g} s on {n - len(slow)} of "
            f"the {n} tables" + (f" (not: {', '.join(slow)})" if slow else ""),
        )
    base = [row.get("baseline_tpl_D3") for row in rows]
    fast = [row.get("tpl_D3") for row in rows]
    if any(b is not None for b in base) and all(ok_run(r) for r in fast):
        if all(ok_run(b) for b in base):
            tf = sum(r["engine_s"] for r in fast)
            tb = sum(b["engine_s"] for b in base)
            say(
                tb >= 20 * tf,
                f"(issue 16) fast x{tb / tf:.1f} the baseline on total path length vs "
                f"misclassifications at D = 3, engine seconds ({tf:.2f} s vs {tb:.1f} s)",
            )
        else:
            say(False, "(issue 16) the baseline at D = 3 did not finish on every table")
    peaks = [
        r["peak_mib"]
        for row in rows
        for k, r in row.items()
        if k.startswith(("depth_", "tpl_")) and ok_run(r)
    ]
    if peaks:
        say(None, f"largest peak RSS of dagger's finished runs: {max(peaks):.0f} MiB")
    return out


def odt_markdown(rows, depths, tpl_depths):
    """The figures as a README table: dagger engine / whole process seconds (peak RSS),
    STreeD fits / whole process seconds, a total row for the caps compared with STreeD."""
    cols = []  # (header, cell of a row)
    for d in depths:
        cols.append((f"depth vs µ, D={d}", lambda row, d=d: _cell(row.get(f"depth_D{d}"))))
        if any(f"streed_D{d}" in row for row in rows):
            label = _depth_label(streed_depths(d))
            fits = "fit" if len(streed_depths(d)) == 1 else "fits"
            cols.append(
                (
                    f"STreeD {label}: {fits} / process",
                    lambda row, d=d: _streed_cell(row.get(f"streed_D{d}")),
                )
            )
    for d in tpl_depths:
        cols.append((f"Λ vs µ, D={d}", lambda row, d=d: _cell(row.get(f"tpl_D{d}"))))
    if any("baseline_tpl_D3" in row for row in rows):
        cols.append(
            (
                "baseline Λ vs µ, D=3",
                lambda row: _cell(row.get("baseline_tpl_D3"), peak=False, wall=False),
            )
        )
    lines = [
        "| table | " + " | ".join(h for h, _ in cols) + " |",
        "| --- |" + " ---: |" * len(cols),
    ]
    lines += ["| " + " | ".join([row["table"], *(f(row) for _, f in cols)]) + " |" for row in rows]
    total = [""] * len(cols)
    for d in depths:
        c = compare_streed(rows, d)
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


# --------------------------------------------------------------------------- bounds (issue 17)
#: The default cases of the bounds section: (table, x, depth cap or None); y is µ. Depth vs µ
#: at D = 5 (german-credit about a minute a query, vehicle more) is offered through
#: --bounds-cases only: with it the section would take far more than its few minutes.
BOUNDS_CASES = [
    ("mushroom", "total-path-length", None),
    ("nursery", "total-path-length", None),
    ("odt-vehicle", "total-path-length", 4),
    ("odt-german-credit", "total-path-length", 4),
    ("odt-german-credit", "depth", 4),
    ("odt-vehicle", "depth", 4),
]
#: The queries of each case, in the order each round runs them: (key, label).
BOUNDS_QUERIES = [
    ("whole", "whole front"),
    ("max_y_median", "max_y = K1, median y"),
    ("max_y_least", "max_y = least y"),
    ("max_x_median", "max_x = N1, median x"),
    ("max_x_second", "max_x = N2, 2nd x"),
    ("least_y", "least_y"),
]
BOUNDS_Y = "misclassifications"
_SYMBOLS = {"total-path-length": "Λ", "misclassifications": "µ"}


def _bounds_cases(text):
    """A comma-separated list of cases ``TABLE:X[:D]``: a registered table, the x cost (a
    name or alias of ``dagger costs``; y is misclassifications) and an optional depth cap."""
    from dagger_cli.costs import get_cost
    from dagger_cli.data.datasets import REGISTRY
    from dagger_cli.errors import InputError

    cases = []
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
        if name == BOUNDS_Y:
            raise argparse.ArgumentTypeError(f"{spec!r}: x must differ from y ({BOUNDS_Y})")
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


def _rounds(text):
    """A number of timed rounds, at least 1 (their median is the figure)."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a number of rounds >= 1, got {text!r}")
    return int(text)


def case_label(table, x, cap):
    """``odt-vehicle depth vs µ, D = 4``: the case as the README names it."""
    where = f"D = {cap}" if cap is not None else "uncapped"
    return f"{table} {_SYMBOLS.get(x, x)} vs {_SYMBOLS[BOUNDS_Y]}, {where}"


def bounds_of(points):
    """Each query's keyword arguments for :func:`relate`, read off the whole front
    (``points`` by x rising, y falling): K1 and N1 are the lower medians of its y and x
    values (a point's own values), N2 the second point's x. A front of one point has no
    second point: that query is left out."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    out = {
        "whole": {},
        "max_y_median": {"max_y": statistics.median_low(ys)},
        "max_y_least": {"max_y": ys[-1]},
        "max_x_median": {"max_x": statistics.median_low(xs)},
        "max_x_second": {"max_x": xs[1]} if len(xs) > 1 else None,
        "least_y": {"least_y": True},
    }
    return {k: v for k, v in out.items() if v is not None}


def expected_answer(points, kwargs):
    """What a bounded query must answer: the whole front restricted to the bounds, or its
    last point for ``least_y``."""
    if kwargs.get("least_y"):
        return [tuple(p) for p in points[-1:]]
    mx, my = kwargs.get("max_x", math.inf), kwargs.get("max_y", math.inf)
    return [(x, y) for x, y in map(tuple, points) if x <= mx and y <= my]


def bounds_run(table, x, cap, runs):
    """(In a fresh process) one case: the whole front once (it also loads the cached
    kernels, and gives the bounds), each bounded query once more (its own kernels loaded),
    then ``runs`` rounds timing every query in turn, so a change of the machine's load hits
    them alike. Prints per query the engine seconds (``rel.seconds``) of the timed runs,
    the answer, subtables and stored front points, as JSON."""
    t = load_table(table)

    def call(kwargs):
        return relate(t, x, BOUNDS_Y, max_depth=cap, **kwargs)

    first = call({})
    queries = bounds_of(first.front.points())
    out = {"rows": t.n_rows, "attributes": t.n_attributes, "first_s": first.seconds}
    del first
    res = {}
    for key, kwargs in queries.items():
        rel = call(kwargs)
        res[key] = {
            "bounds": kwargs,
            "points": rel.front.points(),
            "subtables": int(rel.stats.subtables),
            "stored": int(rel.store.fxy.shape[0]) if rel.store is not None else None,
            "warm_s": rel.seconds,
            "seconds": [],
        }
        del rel
    for _ in range(runs):
        for key, kwargs in queries.items():
            rel = call(kwargs)
            if rel.front.points() != res[key]["points"]:  # the engine is deterministic
                raise SystemExit(f"{table} {x} D={cap} {key}: the answer changed between runs")
            res[key]["seconds"].append(rel.seconds)
            del rel
    for r in res.values():
        r["engine_s"] = statistics.median(r["seconds"])
    print(json.dumps({**out, "queries": res}))


def check_bounds(case):
    """Mark each query of a measured case ``exact`` (its answer is the whole front
    restricted to its bounds) and give it the ratio whole / bounded of the engine seconds;
    the case's ``exact`` is whether every query is."""
    q = case["queries"]
    whole = q["whole"]
    for r in q.values():
        r["expected"] = expected_answer(whole["points"], r["bounds"])
        r["exact"] = [tuple(p) for p in r["points"]] == r["expected"]
        r["ratio"] = whole["engine_s"] / r["engine_s"] if r["engine_s"] > 0 else math.inf
    case["exact"] = all(r["exact"] for r in q.values())
    return case["exact"]


def _bound_text(kwargs):
    if kwargs.get("least_y"):
        return "last point"
    return ", ".join(f"{k[-1]} <= {v}" for k, v in kwargs.items()) or "-"


def _count(n):
    return "-" if n is None else f"{n:,}"


def bounds_lines(case):
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
    for key, label in BOUNDS_QUERIES:
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


def bounds_summary(cases):
    """Per bounded query kind, the median over the measured cases of whole / bounded."""
    out = {}
    for key, _ in BOUNDS_QUERIES[1:]:
        ratios = [c["queries"][key]["ratio"] for c in cases if key in c.get("queries", {})]
        if ratios:
            out[key] = {"median_ratio": statistics.median(ratios), "cases": len(ratios)}
    return out


def bounds_markdown(cases):
    """The figures as a README table: engine seconds (median) and whole / bounded."""
    heads = [label for _, label in BOUNDS_QUERIES]
    lines = ["| case | " + " | ".join(heads) + " |", "| --- |" + " ---: |" * len(heads)]
    for c in cases:
        cells = []
        for key, _ in BOUNDS_QUERIES:
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
        f"×{summary[k]['median_ratio']:.2f}" if k in summary else "" for k, _ in BOUNDS_QUERIES[1:]
    ]
    lines.append("| median whole / bounded | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def bench_bounds(cases, runs, limit):
    """Issue 17's bounded queries against the whole front, each case in one fresh process
    (:func:`bounds_run`): its first calls load the compiled kernels and are not timed, and
    no case inherits the memory of a larger one before it. Engine seconds are medians of
    ``runs`` rounds; every answer is checked against the whole front restricted, and a
    wrong one stops the benchmark after the report (SystemExit)."""
    me = [sys.executable, str(Path(__file__).resolve())]
    load_start, started = os.getloadavg(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    print(
        f"bounds: {len(cases)} case(s), each in a fresh process (warm-up calls untimed), "
        f"engine seconds of {runs} round(s) of the {len(BOUNDS_QUERIES)} queries in turn, "
        f"median; every process stopped after {limit:g} s; {os.cpu_count()} cores, {_load()}",
        flush=True,
    )
    done = []
    for table, x, cap in cases:
        case = {"table": table, "x": x, "cap": cap}
        cmd = [*me, "--bounds-run", table, x, str(cap), str(runs)]
        r = launch_limited(cmd, limit)
        if r["code"] != 0:
            case.update(failed=_failure(r), wall=r["wall"], stderr=r["stderr"][-300:])
        else:
            case.update(json.loads(r["stdout"].strip().splitlines()[-1]))
            case.update(wall=r["wall"], peak_mib=r["peak_mib"])
            check_bounds(case)
        done.append(case)
        print(bounds_lines(case), flush=True)
    load_end = os.getloadavg()
    start, end = (" ".join(f"{v:.2f}" for v in load) for load in (load_start, load_end))
    print(f"bounds done: load average (1, 5, 15 min) at the start {start}, at the end {end}")
    summary = bounds_summary(done)
    labels = dict(BOUNDS_QUERIES)
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
        **_run_record(started, load_start, load_end),
        "runs": runs,
        "timeout_s": limit,
        "cases": done,
        "summary": summary,
        "markdown": table_md,
        "not_exact": wrong,
    }


def run_bounds(args):
    """The bounds section with the options of ``args``; figures into bench-bounds.json. A
    bounded answer that is not the whole front restricted fails loudly, after the file is
    written."""
    result = bench_bounds(args.bounds_cases, args.bounds_runs, args.bounds_timeout)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench-bounds.json").write_text(json.dumps({"bounds": result}, indent=2))
    print(f"wrote {args.out / 'bench-bounds.json'}")
    if result["not_exact"]:
        raise SystemExit(
            "bounds: NOT EXACT (the bounded front differs from the whole front restricted): "
            + "; ".join(result["not_exact"])
        )
    return result


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


def _names(text):
    """A comma-separated list of odt tables, each checked against the benchmark's."""
    names = [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in ODT_TABLES]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown table(s) {', '.join(bad) or '(none given)'}; known: {', '.join(ODT_TABLES)}"
        )
    return names


def _caps(text):
    """A comma-separated list of depth caps D >= 1, sorted, each once."""
    try:
        caps = sorted({int(v) for v in text.split(",") if v.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected depths such as 2,3,4, got {text!r}") from None
    if not caps or caps[0] < 1:
        raise argparse.ArgumentTypeError(f"expected depths >= 1 such as 2,3,4, got {text!r}")
    return caps


def run_odt(args):
    """The odt section with the options of ``args``; figures into bench-odt.json."""
    try:
        import pystreed  # noqa: F401
    except ImportError:
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
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench-odt.json").write_text(json.dumps({"odt": result}, indent=2))
    print(f"wrote {args.out / 'bench-odt.json'}")
    return result


def _load_configs(extra):
    configs = list(LOAD_CONFIGS)
    for spec in extra or ():
        label, _, assigns = spec.partition(":")
        changes = dict(a.split("=", 1) for a in assigns.split(",") if a)
        configs.append((label, changes))
    return configs


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
    ap.add_argument("--no-study", action="store_true", help="skip the dagger study section")
    ap.add_argument("--study-only", action="store_true", help="run the study section alone")
    ap.add_argument("--sorting", default="6,7", metavar="N,...", help="sorting tables to run")
    ap.add_argument("--no-sorting", action="store_true")
    ap.add_argument("--only-sorting", action="store_true", help="run the sorting section alone")
    ap.add_argument("--max-memory", metavar="SIZE", help="--max-memory for the sorting runs")
    ap.add_argument("--point", nargs=3, metavar=("KIND", "M", "N"), help=argparse.SUPPRESS)
    ap.add_argument(
        "--only",
        choices=["read", "uci", "odt", "bounds", "sklearn", "load", "rules", "num"],
        help="run one section alone (read: the CSV reader; uci; odt: the depth-cap benchmark; "
        "bounds: bounded queries against the whole front; sklearn: the estimator; rules: "
        "`dagger rules` on mushroom, nursery and the odt tables; num: numeric columns "
        "against ConTree, scripts/bench_num.py)",
    )
    ap.add_argument("--no-read", action="store_true", help="skip the CSV reading section")
    ap.add_argument("--read-rows", type=int, default=5_000_000)
    ap.add_argument(
        "--read-readers",
        default=None,
        help="readers to time, of python,columnar (default: both with --only read, else "
        "columnar: the python reader takes minutes on 5 M rows)",
    )
    ap.add_argument(
        "--odt-tables", type=_names, default=ODT_TABLES, help="odt tables (default: all 12)"
    )
    ap.add_argument(
        "--odt-depths",
        type=_caps,
        default=[2, 3, 4, 5],
        metavar="D,...",
        help="caps D of depth vs misclassifications; each D >= 4 is compared with STreeD "
        "(default 2,3,4,5)",
    )
    ap.add_argument(
        "--odt-tpl-depths",
        type=_caps,
        default=[3, 4],
        metavar="D,...",
        help="caps D of total path length vs misclassifications (default 3,4)",
    )
    ap.add_argument(
        "--odt-runs", type=int, default=3, help="runs per figure at D <= 4 (median; default 3)"
    )
    ap.add_argument(
        "--odt-deep-runs", type=int, default=1, help="runs per figure at D >= 5 (default 1)"
    )
    ap.add_argument(
        "--odt-timeout", type=float, default=300.0, help="seconds per process (default 300)"
    )
    ap.add_argument(
        "--odt-max-memory", default="2G", metavar="SIZE", help="dagger's --max-memory (2G)"
    )
    ap.add_argument(
        "--odt-baseline",
        action="store_true",
        help="also the baseline engine on total path length vs misclassifications at D = 3",
    )
    ap.add_argument("--odt-run", nargs=6, help=argparse.SUPPRESS)
    ap.add_argument(
        "--bounds-cases",
        type=_bounds_cases,
        default=BOUNDS_CASES,
        metavar="TABLE:X[:D],...",
        help="cases of the bounds section, x against misclassifications under an optional "
        "depth cap (default: "
        + ",".join(f"{t}:{x}" + (f":{d}" if d else "") for t, x, d in BOUNDS_CASES)
        + ")",
    )
    ap.add_argument(
        "--bounds-runs",
        type=_rounds,
        default=5,
        help="timed rounds per bounds case (median; 5)",
    )
    ap.add_argument(
        "--bounds-timeout",
        type=float,
        default=900.0,
        help="seconds per bounds case process (default 900)",
    )
    ap.add_argument("--no-bounds", action="store_true", help="skip the bounds section")
    ap.add_argument("--bounds-run", nargs=4, help=argparse.SUPPRESS)
    ap.add_argument("--load-run", help=argparse.SUPPRESS)
    ap.add_argument(
        "--load-config",
        action="append",
        metavar="LABEL:VAR=VALUE,...",
        help="with --only load: another thread setting to compare (repeatable), e.g. "
        "'spin:GOMP_SPINCOUNT=10000'",
    )
    ap.add_argument("--no-load-uci", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-load", action="store_true", help="skip the threads-under-load section")
    ap.add_argument("--no-rules", action="store_true", help="skip the decision-rules section")
    ap.add_argument("--no-num", action="store_true", help="skip the numeric (ConTree) section")
    bench_num.add_arguments(ap)
    args = ap.parse_args()
    if args.point:
        scaling_point(args.point[0], int(args.point[1]), int(args.point[2]))
        return
    sorting_ns = [] if args.no_sorting else [int(v) for v in args.sorting.split(",") if v]
    if args.only_sorting:
        srows = bench_sorting(sorting_ns, args.out, args.max_memory)
        check_targets([], [], srows)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "sorting.json").write_text(json.dumps(srows, indent=2))
        print(f"wrote {args.out / 'sorting.json'}")
        return
    if args.odt_run:
        t, x, d, engine, n, max_memory = args.odt_run
        odt_run(t, x, int(d), engine, int(n), max_memory)
        return
    if args.only == "odt":
        run_odt(args)
        return
    if args.bounds_run:
        table, x, cap, runs = args.bounds_run
        bounds_run(table, x, None if cap == "None" else int(cap), int(runs))
        return
    if args.only == "bounds":
        run_bounds(args)
        return
    if args.load_run:
        load_run(args.load_run)
        return
    if args.only == "load":
        bench_load(
            args.out, args.runs, configs=_load_configs(args.load_config), uci=not args.no_load_uci
        )
        return
    if args.only == "read":
        readers = (args.read_readers or "python,columnar").split(",")
        read = bench_read(args.out, args.read_rows, args.runs, readers)
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "read.json").write_text(json.dumps(read, indent=2))
        print(f"wrote {args.out / 'read.json'}")
        return
    if args.study_only:
        bench_study(args.out, args.runs, args.tables.split(","))
        return
    if args.only == "rules":
        bench_rules(args.out, args.runs, args.odt_tables)
        return
    if args.only == "num":
        bench_num.run(args)
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
    odt = None if args.only == "uci" else run_odt(args)
    bounds = None if args.only == "uci" or args.no_bounds else run_bounds(args)
    uci_only = args.only == "uci"  # the UCI tables and the scaling series, nothing else
    srows = [] if uci_only else bench_sorting(sorting_ns, args.out, args.max_memory)
    check_targets(rows, results, srows)
    read = (
        None
        if args.no_read or args.only == "uci"
        else bench_read(
            args.out,
            args.read_rows,
            min(args.runs, 3),
            (args.read_readers or "columnar").split(","),
        )
    )
    estimator = [] if uci_only else bench_sklearn(args.runs)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "bench.json").write_text(
        json.dumps(
            {
                "bandwidth_bytes_per_s": bandwidth,
                "tables": rows,
                "scaling": results,
                "read": read,
                "odt": odt,
                "bounds": bounds,
                "sorting": srows,
                "sklearn": estimator,
            },
            indent=2,
        )
    )
    print(f"wrote {args.out / 'bench.json'}")
    if not (args.no_load or uci_only):  # its UCI part is the UCI section above
        bench_load(args.out, args.runs, configs=_load_configs(args.load_config), uci=False)
    if not (args.no_rules or uci_only):
        bench_rules(args.out, args.runs, args.odt_tables)
    if not (args.no_num or uci_only):
        bench_num.run(args)
    if not (args.no_study or uci_only):
        bench_study(args.out, args.runs, args.tables.split(","))


if __name__ == "__main__":
    main()
