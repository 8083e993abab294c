"""The numeric section of `make bench` (issue 23): dagger's ordered solver beside ConTree.

    python scripts/bench.py --only num [--num-tables bank,raisin,...] [--num-runs 3]
    python scripts/bench_num.py [the same options]

On ConTree's six benchmark tables (``../shared/datasets/num``, registered as ``num-<table>``),
each run a fresh process, runs interleaved, medians of ``--num-runs``:

* depth vs misclassifications at ``--max-depth 3``: the whole process of ``dagger relate
  num-T --max-depth 3 --x depth --y misclassifications`` against the whole process of
  ConTree's sweep over depths 1..3 (``pycontree``: numpy, pycontree, the file, three fits),
  and the solvers alone (dagger's ``relate`` call in a warm process; ConTree's three
  ``fit`` calls); every depth's least misclassifications checked against ConTree's;
* depth 4 on bank, raisin and wilt: dagger's front at ``--max-depth 4`` against ConTree's
  single fit at depth 4 (whole processes);
* total path length vs misclassifications at ``--max-depth 3`` (no peer computes it): wall
  time and peak memory, against the targets of 60 s and 2 GiB;
* the estimator: ``DaggerTreeClassifier(max_depth=3, thresholds="all")`` fitted on bank;
* a numeric table of 100,000 rows and 10 columns at depth 3: peak memory (target 2 GiB).

ConTree runs in a child process with only what its users import; without ``pycontree``
(``pip install pycontree``) its columns say so. The machine is shared: the load average is
printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NUM_DIR = REPO.parent / "shared" / "datasets" / "num"
TABLES = ("bank", "raisin", "rice", "wilt", "segment", "page")
#: ConTree's least misclassifications per depth 1..3 (shared/datasets/num/README.md).
CONTREE_OPTIMA = {
    "bank": (201, 100, 23),
    "raisin": (122, 109, 94),
    "rice": (271, 257, 243),
    "wilt": (261, 138, 88),
    "segment": (1650, 990, 278),
    "page": (372, 253, 168),
}

#: Seconds after which the 100,000-row table is stopped (its target is memory).
LARGE_LIMIT = 300.0
#: The numeric section's cases (--num-parts).
PARTS = ("depth3", "depth4", "tpl", "estimator", "large")
#: Seconds after which a total-path-length front is stopped (its target is 60 s).
TPL_LIMIT = 180.0

# A whole process, timed by a parent that does nothing else: wall, peak RSS, exit code.
LAUNCHER = r"""
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

# ConTree as its users run it: numpy, pycontree, the file, one fit per depth.
CONTREE_CHILD = r"""
import json, sys, time
import numpy as np
from pycontree import ConTree
data = np.loadtxt(sys.argv[1], ndmin=2)
y, X = data[:, 0].astype(np.int64), data[:, 1:]
fits, mis = [], []
for d in map(int, sys.argv[2].split(",")):
    t1 = time.perf_counter()
    model = ConTree(max_depth=d)
    model.fit(X, y)
    fits.append(time.perf_counter() - t1)
    mis.append(int((model.predict(X) != y).sum()))
print(json.dumps({"fit_s": fits, "mis": mis}))
"""

# dagger's solver alone: the table loaded, the kernels warm (one call first), then timed.
DAGGER_SOLVER_CHILD = r"""
import json, statistics, sys, time
from dagger_cli.data.datasets import load_table
from dagger_cli.engine import relate
t = load_table("num-" + sys.argv[1])
depth, x = int(sys.argv[2]), sys.argv[3]
relate(t, x, "misclassifications", max_depth=1)
times = []
for _ in range(int(sys.argv[4])):
    t1 = time.perf_counter()
    rel = relate(t, x, "misclassifications", max_depth=depth)
    times.append(time.perf_counter() - t1)
print(json.dumps({"solver_s": statistics.median(times), "points": rel.front.points()}))
"""

ESTIMATOR_CHILD = r"""
import json, sys, time
import numpy as np
from dagger_cli.sklearn import DaggerTreeClassifier
data = np.loadtxt(sys.argv[1], ndmin=2)
y, X = data[:, 0].astype(np.int64), data[:, 1:]
DaggerTreeClassifier(max_depth=1, thresholds="all").fit(X[:50], y[:50])  # kernels loaded
t1 = time.perf_counter()
clf = DaggerTreeClassifier(max_depth=int(sys.argv[2]), thresholds="all").fit(X, y)
print(json.dumps({"fit_s": time.perf_counter() - t1, "errors": int((clf.predict(X) != y).sum()),
                  "solver": clf.solver_}))
"""


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def launch(cmd, limit: float, env=None) -> dict:
    return json.loads(
        subprocess.run(
            [sys.executable, "-c", LAUNCHER, str(limit), *cmd],
            capture_output=True,
            text=True,
            check=True,
            env=env,
        ).stdout
    )


def _env() -> dict:
    env = dict(os.environ)
    if NUM_DIR.is_dir():
        env.setdefault("DAGGER_NUM_MIRROR", NUM_DIR.as_uri())
    return env


def have_contree() -> bool:
    probe = subprocess.run([sys.executable, "-c", "import pycontree"], capture_output=True)
    return probe.returncode == 0


def dagger_cmd(table: str, depth: int, x: str = "depth") -> list[str]:
    exe = str(Path(sys.executable).with_name("dagger"))
    return [exe, "relate", f"num-{table}", "--max-depth", str(depth), "--x", x]  # y: errors


def _front(stdout: str) -> list[tuple[int, int]]:
    """The (x, y) rows of `dagger relate`'s text table."""
    pts = []
    for line in stdout.splitlines()[2:]:
        cols = line.split()
        if len(cols) >= 2 and all(c.replace(".", "").isdigit() for c in cols):
            pts.append((int(cols[0]), int(cols[-1])))
    return pts


def least_per_depth(points, cap):
    return [min(y for d, y in points if d <= k) for k in range(1, cap + 1)]


def median(values):
    return statistics.median(values) if values else float("nan")


def bench_depth(tables, runs, depth, limit, contree):
    """The headline: depth vs misclassifications at ``depth``, dagger against ConTree."""
    rows = []
    env = _env()
    for t in tables:
        path = NUM_DIR / f"{t}.txt"
        d_runs, c_runs, d_solver, c_fit = [], [], [], []
        front = None
        mis = None
        for _ in range(runs):
            r = launch(dagger_cmd(t, depth) + ["-q"], limit, env)
            if r["code"] != 0:
                print(f"  dagger {t}: {r['code']} {r['stderr'][-300:]}")
                break
            d_runs.append(r)
            front = _front(r["stdout"])
            if contree:
                c = launch(
                    [
                        sys.executable,
                        "-c",
                        CONTREE_CHILD,
                        str(path),
                        ",".join(map(str, range(1, depth + 1))),
                    ],
                    limit,
                )
                if c["code"] == 0:
                    c_runs.append(c)
                    doc = json.loads(c["stdout"])
                    c_fit.append(sum(doc["fit_s"]))
                    mis = doc["mis"]
        solver = launch(
            [sys.executable, "-c", DAGGER_SOLVER_CHILD, t, str(depth), "depth", str(runs)],
            limit,
            env,
        )
        if solver["code"] == 0:
            d_solver.append(json.loads(solver["stdout"])["solver_s"])
        least = least_per_depth(front, depth) if front else None
        expected = list(CONTREE_OPTIMA[t][:depth]) if depth <= 3 else None
        row = {
            "table": t,
            "depth": depth,
            "dagger_s": median([r["wall"] for r in d_runs]),
            "dagger_mib": max((r["peak_mib"] for r in d_runs), default=float("nan")),
            "dagger_solver_s": median(d_solver),
            "contree_s": median([r["wall"] for r in c_runs]),
            "contree_mib": max((r["peak_mib"] for r in c_runs), default=float("nan")),
            "contree_fit_s": median(c_fit),
            "least": least,
            "contree_mis": mis,
            "exact": least is not None
            and (mis is None or least == mis)
            and (expected is None or least == expected),
        }
        rows.append(row)
        print(
            f"  {t:8s} D={depth}: dagger {row['dagger_s']:7.2f} s ({row['dagger_solver_s']:6.2f} s "
            f"solver, {row['dagger_mib']:5.0f} MiB) | ConTree {row['contree_s']:7.2f} s "
            f"({row['contree_fit_s']:6.2f} s fits, {row['contree_mib']:5.0f} MiB) | "
            f"least errors {least} {'= ConTree' if row['exact'] else '!= ' + str(mis or expected)}",
            flush=True,
        )
    return rows


def bench_depth4(tables, runs, limit, contree):
    """Depth 4: dagger's front over depth <= 4 against ConTree's one fit at depth 4."""
    rows = []
    env = _env()
    for t in tables:
        path = NUM_DIR / f"{t}.txt"
        d_runs, c_runs, mis, front = [], [], None, None
        for _ in range(runs):
            r = launch(dagger_cmd(t, 4) + ["-q"], limit, env)
            d_runs.append(r)
            if r["code"] == 0:
                front = _front(r["stdout"])
            if contree:
                c = launch([sys.executable, "-c", CONTREE_CHILD, str(path), "4"], limit)
                c_runs.append(c)
                if c["code"] == 0:
                    mis = json.loads(c["stdout"])["mis"][0]
        ok = [r["wall"] for r in d_runs if r["code"] == 0]
        cok = [r["wall"] for r in c_runs if r["code"] == 0]
        least = min(y for _, y in front) if front else None
        row = {
            "table": t,
            "dagger_s": median(ok) if ok else None,
            "contree_s": median(cok) if cok else None,
            "least": least,
            "contree_mis": mis,
            "exact": least is not None and (mis is None or least == mis),
        }
        rows.append(row)
        ds = f"{row['dagger_s']:.2f} s" if ok else f"failed ({d_runs[-1]['code']})"
        cs = f"{row['contree_s']:.2f} s" if cok else (str(c_runs[-1]["code"]) if contree else "n/a")
        print(
            f"  {t:8s} D=4: dagger {ds} | ConTree {cs} | least errors {least} (ConTree {mis})",
            flush=True,
        )
    return rows


def bench_tpl(tables, limit):
    """Total path length vs misclassifications at depth 3: dagger alone (no peer does it)."""
    rows = []
    env = _env()
    for t in tables:
        r = launch(dagger_cmd(t, 3, "total-path-length") + ["-q", "--max-memory", "2G"], limit, env)
        pts = _front(r["stdout"]) if r["code"] == 0 else []
        row = {
            "table": t,
            "wall_s": r["wall"],
            "peak_mib": r["peak_mib"],
            "code": r["code"],
            "points": len(pts),
            "ok": r["code"] == 0 and r["wall"] <= 60 and r["peak_mib"] <= 2048,
        }
        rows.append(row)
        print(
            f"  {t:8s} Λ vs µ D=3: {r['wall']:7.2f} s, {r['peak_mib']:5.0f} MiB, "
            f"{len(pts)} points, exit {r['code']} "
            f"({'met' if row['ok'] else 'NOT met'}: 60 s, 2 GiB)",
            flush=True,
        )
    return rows


def bench_estimator(limit):
    r = launch(
        [sys.executable, "-c", ESTIMATOR_CHILD, str(NUM_DIR / "bank.txt"), "3"], limit, _env()
    )
    if r["code"] != 0:
        print(f"  estimator: {r['code']} {r['stderr'][-300:]}")
        return None
    doc = json.loads(r["stdout"])
    print(
        f"  DaggerTreeClassifier(max_depth=3, thresholds='all') on bank: fit {doc['fit_s']:.2f} s "
        f"({doc['solver']}, {doc['errors']} training errors; target 1 s)",
        flush=True,
    )
    return doc


def bench_large(limit, rows=100_000, cols=10, depth=3):
    """A numeric table of ``rows`` x ``cols`` at ``depth``: peak memory (target 2 GiB), with
    every threshold (100,000 per column: stopped at ``limit`` s if need be) and with 16."""
    import numpy as np

    rng = np.random.default_rng(23)
    X = rng.normal(size=(rows, cols)).round(4)
    score = X[:, 0] + 0.5 * X[:, 1] * X[:, 2] - 0.3 * X[:, 3]
    y = (score + rng.normal(scale=0.5, size=rows) > 0).astype(int)
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.csv"
        header = ",".join([f"x{j}" for j in range(cols)] + ["y"])
        fmt = ["%.4f"] * cols + ["%d"]
        np.savetxt(
            path, np.column_stack([X, y]), delimiter=",", header=header, comments="", fmt=fmt
        )
        exe = str(Path(sys.executable).with_name("dagger"))
        for spec in ("all", "16"):
            cmd = [exe, "relate", str(path), "--thresholds", spec, "--duplicates", "keep"]
            cmd += ["--max-depth", str(depth), "--x", "depth", "-q"]
            r = launch(cmd, limit, _env())
            pts = _front(r["stdout"]) if r["code"] == 0 else []
            print(
                f"  {rows:,} rows x {cols} numeric columns, --thresholds {spec}, depth <= {depth}: "
                f"{r['wall']:.1f} s, {r['peak_mib']:.0f} MiB peak, exit {r['code']}, front {pts} "
                "(target 2 GiB)",
                flush=True,
            )
            out[spec] = {"wall_s": r["wall"], "peak_mib": r["peak_mib"], "code": r["code"]}
            out[spec]["points"] = pts
    return out


def verdicts(depth_rows):
    won = [r["table"] for r in depth_rows if r["dagger_s"] < r["contree_s"]]
    total_d = sum(r["dagger_s"] for r in depth_rows)
    total_c = sum(r["contree_s"] for r in depth_rows)
    ratio = total_c / total_d if total_d else float("nan")
    print(
        f"  whole processes over the {len(depth_rows)} tables: dagger {total_d:.2f} s, ConTree "
        f"{total_c:.2f} s (x{ratio:.2f}); dagger faster on "
        f"{len(won)} of {len(depth_rows)} ({', '.join(won)}); exact on "
        f"{sum(r['exact'] for r in depth_rows)} of {len(depth_rows)}",
        flush=True,
    )


def run(args) -> dict:
    if not NUM_DIR.is_dir():
        print(f"numeric bench: the tables are not at {NUM_DIR}; skipped")
        return {}
    contree = have_contree()
    tables = [t for t in args.num_tables.split(",") if t]
    print(
        f"numeric bench (issue 23): load average {load_average()}; ConTree: "
        f"{'pycontree' if contree else 'not installed (pip install pycontree)'}",
        flush=True,
    )
    out: dict = {"load_start": load_average()}
    parts = set(args.num_parts.split(","))
    if "depth3" in parts:
        out["depth3"] = bench_depth(tables, args.num_runs, 3, args.num_timeout, contree)
        if contree:
            verdicts(out["depth3"])
    deep = [t for t in ("bank", "raisin", "wilt") if t in tables]
    if "depth4" in parts:
        out["depth4"] = bench_depth4(deep, 1, args.num_timeout, contree)
    if "tpl" in parts:
        out["tpl3"] = bench_tpl(tables, min(args.num_timeout, TPL_LIMIT))
    if "estimator" in parts:
        out["estimator"] = bench_estimator(args.num_timeout)
    if "large" in parts:
        out["large"] = bench_large(min(args.num_timeout, LARGE_LIMIT))
    out["load_end"] = load_average()
    print(f"numeric bench: load average {out['load_end']} at the end", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "num.json").write_text(json.dumps(out, indent=2))
    print(f"wrote {args.out / 'num.json'}")
    return out


def add_arguments(ap) -> None:
    ap.add_argument("--num-tables", default=",".join(TABLES), help="numeric bench tables")
    ap.add_argument("--num-runs", type=int, default=3, help="runs per numeric case (median)")
    ap.add_argument("--num-timeout", type=float, default=900.0, help="seconds per process")
    ap.add_argument(
        "--num-parts",
        default=",".join(PARTS),
        help=f"which numeric cases to run, of {','.join(PARTS)}",
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--out", type=Path, default=REPO / "out" / "bench")
    run(parser.parse_args())
