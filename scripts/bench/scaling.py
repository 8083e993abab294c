"""The scaling section (issue 7): a synthetic series, each table in a fresh process (median of
``--runs``, one run above 15 s): random binary tables, and structured ones (attributes are
noisy copies of 6 hidden factors), 10-24 attributes and 100-400 rows; a kind stops after a
point slower than ``--max-seconds`` or at 8 million subtables. Time and peak memory against
subtables and edges go to ``scaling.png``.

    python -m scripts.bench run --only scaling [--runs 5] [--max-seconds 60]
"""

from __future__ import annotations

import json
import statistics

from . import machine, procs, verdict

NAME = "scaling"
OUTPUT = "scaling.json"
HELP = "synthetic tables of 10-24 attributes: time and memory against the DAG's size"

SERIES = [
    ("random", m, n)
    for m, n in [(10, 100), (12, 200), (14, 200), (16, 300), (18, 300), (20, 300), (22, 300)]
] + [
    ("structured", m, n)
    for m, n in [(10, 100), (14, 200), (16, 300), (18, 300), (20, 300), (22, 400), (24, 400)]
]
#: A point slower than this is run once.
ONCE_OVER_S = 15


def add_arguments(group) -> None:
    group.add_argument(
        "--max-seconds",
        type=float,
        default=60.0,
        help="stop a kind after a slower point (default 60)",
    )


def bench_scaling(out_dir, max_seconds, runs) -> list[dict]:
    """Each table in a fresh process (engine time measured inside it, peak RSS of the whole
    process); the median of ``runs`` runs, one run for points slower than 15 s."""
    results = []
    stopped = set()
    for kind, m, n in SERIES:
        if kind in stopped:
            continue
        cmd = procs.child("scaling_point", kind, m, n)
        first = procs.launch_ok(cmd)
        point = json.loads(first["stdout"])
        if "limit" in point:
            print(f"{kind:<10} m={m:>2} n={n:>3}: stopped, {point['limit']}")
            stopped.add(kind)
            continue
        res = [dict(point, peak_mib=first["peak_mib"])]
        for _ in range(runs - 1 if point["t"] < ONCE_OVER_S else 0):
            more = procs.launch_ok(cmd)
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
    plot(results, out_dir)
    return results


def plot(results, out_dir) -> None:
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


def run(args) -> dict:
    record = machine.Record()
    print(f"scaling: each point a fresh process, median of {args.runs}; {machine.load_text()}")
    results = bench_scaling(args.out, args.max_seconds, args.runs)
    verdicts = verdict.scaling_verdicts(results)
    if verdicts:
        print("targets (issue 7):")
        print("\n".join(v.line() for v in verdicts))
    result = {**record.done(), "points": results, "verdicts": [v.as_dict() for v in verdicts]}
    machine.write_json(args.out, OUTPUT, result)
    print(f"wrote {args.out / 'scaling.png'}")
    return result
