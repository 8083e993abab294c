"""One warm DAG + fronts of a table, timed in this fresh process: a first ``relate`` loads
the compiled kernels, then one timed run; prints the seconds and the thread counts the
kernel calls ran with, as JSON.

    python scripts/bench/child/load_engine.py TABLE
"""

import json
import sys
import time

from dagger_cli.costs import COSTS
from dagger_cli.data.datasets import load_table
from dagger_cli.engine import build_dag, compute_fronts, relate, threads


def main(name: str) -> None:
    table = load_table(name)
    relate(table)
    threads.CALLS.clear()
    t0 = time.perf_counter()
    dag = build_dag(table)
    t1 = time.perf_counter()
    compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
    t2 = time.perf_counter()
    figures = {
        "dag_s": t1 - t0,
        "fronts_s": t2 - t1,
        "engine_s": t2 - t0,
        "calls_by_threads": dict(sorted(threads.CALLS.items())),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1])
