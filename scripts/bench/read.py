"""The reading section: a generated CSV file (``read-N.csv``: 20 categorical attributes of
2 to 30 values, 1 % ``?`` in one, a yes/no decision) read into a DecisionTable, each run a
fresh process: wall time, CPU time and peak RSS per reader (``DAGGER_CSV_READER``). Alone,
both readers (the Python one takes minutes on 5 M rows); in a full run, the columnar one.

    python -m scripts.bench run --only read [--read-rows 5000000] [--read-readers columnar]
"""

from __future__ import annotations

import os
import statistics
from pathlib import Path

import numpy as np

from . import machine, procs, verdict

NAME = "read"
OUTPUT = "read.json"
HELP = "reading a 5 M-row CSV file: the columnar reader (and the Python one)"


def add_arguments(group) -> None:
    group.add_argument("--read-rows", type=int, default=5_000_000, help="rows of the file")
    group.add_argument(
        "--read-readers",
        default=None,
        help="readers to time, of python,columnar (default: both when the section runs "
        "alone, else columnar: the python reader takes minutes on 5 M rows)",
    )


def make_read_csv(path: Path, rows: int, seed: int = 11) -> None:
    """A table of the kind users bring: 20 categorical attributes (2 to 30 values, some
    two-character, a few missing '?'), a yes/no decision; about 44 bytes a row."""
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
    reader (before, one run) and the columnar one (after), wall time and peak RSS."""
    path = out_dir / f"read-{rows}.csv"
    if not path.exists():
        print(f"generating {path} ...", flush=True)
        make_read_csv(path, rows)
    size = path.stat().st_size
    print(f"read: {path.name}, {rows:,} rows, {size / 2**20:.0f} MiB", flush=True)
    out: dict = {"rows": rows, "bytes": size}
    for reader in readers:
        env = dict(os.environ, DAGGER_CSV_READER=reader)
        n = runs if reader == "columnar" else 1
        res = [procs.launch(procs.child("read_csv", path), env=env) for _ in range(n)]
        if any(r["code"] for r in res):
            raise SystemExit(f"reading {path} failed:\n{res[0]['stderr']}")
        wall = statistics.median(r["wall"] for r in res)
        peak = max(r["peak_mib"] for r in res)
        out[reader] = {
            "wall_s": wall,
            "peak_mib": peak,
            "runs": len(res),
            "load_average": machine.load_average()[0],
            "result": res[0]["stdout"].strip(),
        }
        print(
            f"  {reader:8} reader: {wall:6.1f} s, peak RSS {peak:6.0f} MiB "
            f"({peak * 2**20 / size:.1f}x the file; {len(res)} run(s)); {res[0]['stdout'].strip()}",
            flush=True,
        )
    if "columnar" in out:
        col = out["columnar"]
        in_time, in_memory = verdict.read_verdicts(col["wall_s"], col["peak_mib"], size)
        out["verdicts"] = [in_time.as_dict(), in_memory.as_dict()]
        print(
            f"  target: within 10 s ({in_time.mark}) and 3x the file size in memory "
            f"({in_memory.mark})"
        )
    return out


def run(args) -> dict:
    record = machine.Record()
    if args.alone:
        readers, runs = args.read_readers or "python,columnar", args.runs
    else:
        readers, runs = args.read_readers or "columnar", min(args.runs, 3)
    result = {**bench_read(args.out, args.read_rows, runs, readers.split(",")), **record.done()}
    machine.write_json(args.out, OUTPUT, result)
    return result
