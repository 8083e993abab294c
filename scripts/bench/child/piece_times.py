"""The time of each piece of the depth searches on a numeric table, on one thread: prints
``{"pieces": {depth: [seconds, ...]}}`` (the pieces in the order they ran) as JSON.

    python scripts/bench/child/piece_times.py TABLE DEPTH

TABLE: a ConTree table, registered as ``num-TABLE``.
"""

import json
import sys
import time

from dagger_cli.data.datasets import load_table
from dagger_cli.engine import relate
from dagger_cli.engine.kernels import ordered as k


def main(table: str, depth: int) -> None:
    real = k.best_piece
    times: dict[int, list[float]] = {}

    def timed(*args):
        t0 = time.perf_counter()
        out = real(*args)
        times.setdefault(args[3].depth, []).append(time.perf_counter() - t0)
        return out

    k.best_piece = timed
    relate(load_table("num-" + table), "depth", "misclassifications", max_depth=depth)
    print(json.dumps({"pieces": times}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
