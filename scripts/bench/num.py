"""The numeric section (issue 23): dagger's ordered solver beside ConTree on ConTree's six
benchmark tables (``../shared/datasets/num``, registered as ``num-<table>``), each run a
fresh process, runs interleaved, medians of ``--num-runs``:

* depth vs misclassifications at ``--max-depth 3``: the whole ``dagger relate num-T
  --max-depth 3 --x depth --y misclassifications`` process against ConTree's process fitting
  depths 1..3, and the solvers alone (dagger's ``relate`` call in a warm process; ConTree's
  three ``fit`` calls); every depth's least misclassifications checked against ConTree's;
* depth 4 on bank, raisin and wilt: dagger's front at ``--max-depth 4`` against ConTree's
  single fit at depth 4 (whole processes);
* total path length vs misclassifications at ``--max-depth 3`` (no peer computes it): wall
  time and peak memory, against the targets of 60 s and 2 GiB;
* the estimator: ``DaggerTreeClassifier(max_depth=3, thresholds="all")`` fitted on bank;
* a numeric table of ``--num-large-rows`` (100,000) rows and 10 columns at depth 3: peak
  memory (target 2 GiB).

    python -m scripts.bench run --only num [--num-tables bank,raisin] [--num-runs 3]
        [--num-parts depth3,depth4,tpl,estimator,large] [--num-timeout 900]
"""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path

from . import machine, peers, procs, verdict
from .verdict import CONTREE_OPTIMA

NAME = "num"
OUTPUT = "num.json"
HELP = "numeric columns against ConTree (issue 23)"

NUM_DIR = procs.REPO.parent / "shared" / "datasets" / "num"
TABLES = tuple(CONTREE_OPTIMA)
#: Seconds after which the large table is stopped (its target is memory).
LARGE_LIMIT = 300.0
#: The numeric section's cases (--num-parts).
PARTS = ("depth3", "depth4", "tpl", "estimator", "large")
#: Seconds after which a total-path-length front is stopped (its target is 60 s).
TPL_LIMIT = 180.0


def add_arguments(group) -> None:
    group.add_argument("--num-tables", default=",".join(TABLES), help="numeric bench tables")
    group.add_argument("--num-runs", type=int, default=3, help="runs per numeric case (median)")
    group.add_argument("--num-timeout", type=float, default=900.0, help="seconds per process")
    group.add_argument(
        "--num-parts",
        default=",".join(PARTS),
        help=f"which numeric cases to run, of {','.join(PARTS)}",
    )
    group.add_argument(
        "--num-large-rows", type=int, default=100_000, help="rows of the large table (100000)"
    )


def _env() -> dict:
    env = dict(os.environ)
    if NUM_DIR.is_dir():
        env.setdefault("DAGGER_NUM_MIRROR", NUM_DIR.as_uri())
    return env


def dagger_cmd(table: str, depth: int, x: str = "depth") -> list[str]:
    return procs.dagger("relate", f"num-{table}", "--max-depth", str(depth), "--x", x)


def _front(stdout: str) -> list[tuple[int, int]]:
    """The (x, y) rows of `dagger relate`'s text table."""
    pts = []
    for line in stdout.splitlines()[2:]:
        cols = line.split()
        if len(cols) >= 2 and all(c.replace(".", "").isdigit() for c in cols):
            pts.append((int(cols[0]), int(cols[-1])))
    return pts


def median(values):
    return statistics.median(values) if values else float("nan")


def bench_depth(tables, runs, depth, limit, contree) -> list[dict]:
    """The headline: depth vs misclassifications at ``depth``, dagger against ConTree."""
    rows = []
    env = _env()
    for t in tables:
        path = NUM_DIR / f"{t}.txt"
        d_runs, c_runs, d_solver, c_fit = [], [], [], []
        front = None
        mis = None
        for _ in range(runs):
            r = procs.launch(dagger_cmd(t, depth) + ["-q"], limit, env)
            if r["code"] != 0:
                print(f"  dagger {t}: {r['code']} {r['stderr'][-300:]}")
                break
            d_runs.append(r)
            front = _front(r["stdout"])
            if contree:
                c, doc = peers.fit_contree(path, range(1, depth + 1), limit)
                if doc is not None:
                    c_runs.append(c)
                    c_fit.append(sum(doc["fit_s"]))
                    mis = doc["mis"]
        solver = procs.launch(procs.child("num_solver", t, depth, "depth", runs), limit, env)
        if solver["code"] == 0:
            d_solver.append(procs.last_json(solver)["solver_s"])
        least = verdict.least_per_depth(front, depth) if front else None
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
            "exact": verdict.num_exact(least, mis, expected),
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


def bench_depth4(tables, runs, limit, contree) -> list[dict]:
    """Depth 4: dagger's front over depth <= 4 against ConTree's one fit at depth 4."""
    rows = []
    env = _env()
    for t in tables:
        path = NUM_DIR / f"{t}.txt"
        d_runs, c_runs, mis, front = [], [], None, None
        for _ in range(runs):
            r = procs.launch(dagger_cmd(t, 4) + ["-q"], limit, env)
            d_runs.append(r)
            if r["code"] == 0:
                front = _front(r["stdout"])
            if contree:
                c, doc = peers.fit_contree(path, [4], limit)
                c_runs.append(c)
                if doc is not None:
                    mis = doc["mis"][0]
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


def bench_tpl(tables, limit) -> list[dict]:
    """Total path length vs misclassifications at depth 3: dagger alone (no peer does it)."""
    rows = []
    env = _env()
    for t in tables:
        cmd = dagger_cmd(t, 3, "total-path-length") + ["-q", "--max-memory", "2G"]
        r = procs.launch(cmd, limit, env)
        pts = _front(r["stdout"]) if r["code"] == 0 else []
        row = {
            "table": t,
            "wall_s": r["wall"],
            "peak_mib": r["peak_mib"],
            "code": r["code"],
            "points": len(pts),
            "ok": verdict.num_tpl_ok(r["code"], r["wall"], r["peak_mib"]),
        }
        rows.append(row)
        print(
            f"  {t:8s} Λ vs µ D=3: {r['wall']:7.2f} s, {r['peak_mib']:5.0f} MiB, "
            f"{len(pts)} points, exit {r['code']} "
            f"({'met' if row['ok'] else 'NOT met'}: 60 s, 2 GiB)",
            flush=True,
        )
    return rows


def bench_estimator(limit) -> dict | None:
    cmd = procs.child("num_estimator", NUM_DIR / "bank.txt", 3)
    r = procs.launch(cmd, limit, _env())
    if r["code"] != 0:
        print(f"  estimator: {r['code']} {r['stderr'][-300:]}")
        return None
    doc = procs.last_json(r)
    print(
        f"  DaggerTreeClassifier(max_depth=3, thresholds='all') on bank: fit {doc['fit_s']:.2f} s "
        f"({doc['solver']}, {doc['errors']} training errors; target 1 s)",
        flush=True,
    )
    return doc


def bench_large(limit, rows=100_000, cols=10, depth=3) -> dict:
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
        for spec in ("all", "16"):
            cmd = procs.dagger("relate", str(path), "--thresholds", spec, "--duplicates", "keep")
            cmd += ["--max-depth", str(depth), "--x", "depth", "-q"]
            r = procs.launch(cmd, limit, _env())
            pts = _front(r["stdout"]) if r["code"] == 0 else []
            print(
                f"  {rows:,} rows x {cols} numeric columns, --thresholds {spec}, depth <= {depth}: "
                f"{r['wall']:.1f} s, {r['peak_mib']:.0f} MiB peak, exit {r['code']}, front {pts} "
                "(target 2 GiB)",
                flush=True,
            )
            out[spec] = {"wall_s": r["wall"], "peak_mib": r["peak_mib"], "code": r["code"]}
            out[spec]["points"] = pts
    out["rows"] = rows
    return out


def run(args) -> dict:
    if not NUM_DIR.is_dir():
        print(f"numeric bench: the tables are not at {NUM_DIR}; skipped")
        return {}
    contree = peers.available(peers.CONTREE)
    tables = [t for t in args.num_tables.split(",") if t]
    record = machine.Record()
    print(
        f"numeric bench (issue 23): load average {machine.loads()}; ConTree: "
        f"{'pycontree' if contree else 'not installed (pip install pycontree)'}",
        flush=True,
    )
    out: dict = {"load_start": machine.loads()}
    parts = set(args.num_parts.split(","))
    if "depth3" in parts:
        out["depth3"] = bench_depth(tables, args.num_runs, 3, args.num_timeout, contree)
        if contree:
            print("  " + verdict.num_depth_summary(out["depth3"]).text, flush=True)
    deep = [t for t in ("bank", "raisin", "wilt") if t in tables]
    if "depth4" in parts:
        out["depth4"] = bench_depth4(deep, 1, args.num_timeout, contree)
    if "tpl" in parts:
        out["tpl3"] = bench_tpl(tables, min(args.num_timeout, TPL_LIMIT))
    if "estimator" in parts:
        out["estimator"] = bench_estimator(args.num_timeout)
    if "large" in parts:
        out["large"] = bench_large(min(args.num_timeout, LARGE_LIMIT), rows=args.num_large_rows)
    out["load_end"] = machine.loads()
    print(f"numeric bench: load average {out['load_end']} at the end", flush=True)
    verdicts = verdict.num_verdicts(out)
    if verdicts:
        print("targets (issue 23):")
        print("\n".join(v.line() for v in verdicts))
    out["verdicts"] = [v.as_dict() for v in verdicts]
    out.update({k: v for k, v in record.done().items() if k not in ("load_start", "load_end")})
    machine.write_json(args.out, OUTPUT, out)
    return out
