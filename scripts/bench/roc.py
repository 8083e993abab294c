"""The numeric section's parts on false positives against false negatives (issue 38), on
the two-class tables of ConTree's benchmark (``num-<table>``), one fresh process each:

* ``roc``: the front of false positives against false negatives (the trees' ROC front)
  beside depth vs misclassifications on the same table and cap, at depths 2 and 3: the ratio
  of their wall times against :data:`ROC_TARGET`;
* ``best``: ``dagger tree --best f1|balanced-accuracy`` at depth 3 (queries of the least
  priced misclassifications, dagger_cli/best.py) beside depth vs misclassifications and the
  ROC front it used to scan;
* ``roc-limit``: the ROC front at depth 3 under a time limit (:data:`LIMITS`): its points,
  how many are proven, the largest gap (the supported points come from priced queries,
  ``dagger_cli.engine.anytime._hull``).

    python -m scripts.bench run --only num --num-parts roc,best,roc-limit
"""

from __future__ import annotations

import json

from . import procs
from .num import _against, _env, dagger_cmd

ROC_TABLES = ("bank", "raisin", "rice", "wilt")
ROC_DEPTHS = (2, 3)
ROC_LIMIT = 300.0
ROC_TARGET = 3.0
#: The time limits of ``roc-limit`` per table (seconds): about a third of the exact front's
#: run where it ends, 30 s where it does not (rice).
LIMITS = {"bank": 1, "raisin": 10, "rice": 30, "wilt": 3}


def bench_roc(tables, limit) -> list[dict]:
    """The front of false positives against false negatives (the trees' ROC front) beside
    depth vs misclassifications on the same two-class table and cap, one process each: the
    ratio of their wall times (issue 38's target: within :data:`ROC_TARGET` at depth 3)."""
    rows = []
    env = _env()
    for t in (t for t in tables if t in ROC_TABLES):
        for d in ROC_DEPTHS:
            base = procs.launch(dagger_cmd(t, d) + ["-q"], limit, env)
            cmd = dagger_cmd(t, d, "false-positives") + ["--y", "false-negatives", "-q"]
            r = procs.launch(cmd, limit, env)
            row = {"table": t, "depth": d, **_against(r, base, ROC_TARGET)}
            rows.append(row)
            pts, ratio, ok = row["points"], row["ratio"], row["ok"]
            print(
                f"  {t:8s} FP vs FN D={d}: {r['wall']:7.2f} s, {r['peak_mib']:5.0f} MiB, "
                f"{pts} points, exit {r['code']}; depth vs µ {base['wall']:.2f} s: "
                f"x{ratio:.1f} ({'met' if ok else 'NOT met'}: x{ROC_TARGET:g})",
                flush=True,
            )
    return rows


def bench_best(tables, limit, depth=3) -> list[dict]:
    """``dagger tree --best f1|balanced-accuracy`` (queries of the least priced
    misclassifications, dagger_cli/best.py) beside depth vs misclassifications and beside the
    ROC front it used to scan (stopped at ``limit``), on the same two-class table and cap,
    one process each: the score line and the ratios of the walls."""
    rows = []
    env = _env()
    for t in (t for t in tables if t in ROC_TABLES):
        base = procs.launch(dagger_cmd(t, depth) + ["-q"], limit, env)
        roc = dagger_cmd(t, depth, "false-positives") + ["--y", "false-negatives", "-q"]
        front = procs.launch(roc, limit, env)
        for score in ("f1", "balanced-accuracy"):
            cmd = procs.dagger("tree", f"num-{t}", "--max-depth", str(depth), "--best", score)
            r = procs.launch(cmd, limit, env)
            said = [ln for ln in r["stderr"].splitlines() if " = " in ln]
            row = {
                "table": t,
                "depth": depth,
                "score": score,
                "wall_s": r["wall"],
                "code": r["code"],
                "line": said[-1] if said else "",
                "depth_mis_s": base["wall"],
                "front_s": front["wall"],
                "front_code": front["code"],
            }
            rows.append(row)
            ended = "" if front["code"] == 0 else f" (stopped, exit {front['code']})"
            print(
                f"  {t:8s} tree --best {score} D={depth}: {r['wall']:6.2f} s, exit {r['code']}; "
                f"depth vs µ {base['wall']:.2f} s (x{r['wall'] / base['wall']:.1f}); the ROC "
                f"front {front['wall']:.2f} s{ended}; {row['line'].replace('dagger: ', '')}",
                flush=True,
            )
    return rows


def bench_roc_limit(tables, limits=LIMITS, depth=3) -> list[dict]:
    """The ROC front at ``depth`` under ``--time-limit`` (one process each): its points,
    the proven ones and the largest gap, from its JSON."""
    rows = []
    env = _env()
    for t in (t for t in tables if t in ROC_TABLES):
        limit = limits[t]
        cmd = dagger_cmd(t, depth, "false-positives")
        cmd += ["--y", "false-negatives", "--time-limit", f"{limit}s", "-q", "--format", "json"]
        r = procs.launch(cmd, limit + 120, env)
        doc = json.loads(r["stdout"]) if r["stdout"].strip().startswith("{") else {}
        pts = doc.get("points", [])
        row = {
            "table": t,
            "depth": depth,
            "limit_s": limit,
            "wall_s": r["wall"],
            "code": r["code"],
            "status": doc.get("status", "exact"),
            "points": len(pts),
            "proven": sum(1 for p in pts if p.get("proven", True)),
            "gap": max((p.get("gap", 0) for p in pts), default=0),
        }
        rows.append(row)
        print(
            f"  {t:8s} FP vs FN D={depth} within {limit} s: {r['wall']:.1f} s, exit {r['code']}, "
            f"{row['status']}: {row['proven']} of {row['points']} points proven, the largest "
            f"gap {row['gap']}",
            flush=True,
        )
    return rows
