"""dagger's solver alone on a numeric table: the table loaded, the kernels warm (one call
first), then RUNS timed calls; prints their median and the front, as JSON.

    python scripts/bench/child/num_solver.py TABLE DEPTH X RUNS

TABLE: a ConTree table, registered as ``num-TABLE``.
"""

import json
import statistics
import sys
import time

from dagger_cli.data.datasets import load_table
from dagger_cli.engine import relate


def main(table: str, depth: int, x: str, runs: int) -> None:
    t = load_table("num-" + table)
    relate(t, x, "misclassifications", max_depth=1)
    times = []
    for _ in range(runs):
        t1 = time.perf_counter()
        rel = relate(t, x, "misclassifications", max_depth=depth)
        times.append(time.perf_counter() - t1)
    print(json.dumps({"solver_s": statistics.median(times), "points": rel.front.points()}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]))
