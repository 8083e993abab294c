"""One capped front of an odt table, computed RUNS times in this fresh process: prints the
first call's seconds (it also loads the cached kernels), the median of the others (engine
seconds, kernels warm; the first one's when RUNS is 1) and the front, as JSON. A call over
ONCE_OVER seconds is not repeated.

    python scripts/bench/child/odt_front.py TABLE X DEPTH ENGINE RUNS MAX_MEMORY ONCE_OVER
"""

import json
import statistics
import sys
import time

from dagger_cli.data.datasets import load_table
from dagger_cli.engine import relate


def main(table: str, x: str, depth: int, engine: str, runs: int, max_memory: str, once_over: float):
    t = load_table(f"odt-{table}")
    times = []
    for _ in range(runs):
        t1 = time.perf_counter()
        rel = relate(
            t, x, "misclassifications", engine=engine, max_depth=depth, max_memory=max_memory
        )
        times.append(time.perf_counter() - t1)
        if times[-1] > once_over:
            break
    figures = {
        "first_s": times[0],
        "engine_s": statistics.median(times[1:] or times),
        "calls": len(times),
        "points": rel.front.points(),
        "least_mis": int(rel.front.y[-1]),
        "stats": rel.stats.as_dict(),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    a = sys.argv[1:]
    main(a[0], a[1], int(a[2]), a[3], int(a[4]), a[5], float(a[6]))
