"""One point of the scaling series: a synthetic binary table's DAG and fronts, timed in this
fresh process; prints the figures (or the limit that stopped it) as JSON.

    python scripts/bench/child/scaling_point.py KIND M N
"""

import json
import sys
import time

import numpy as np

from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import build_dag, compute_fronts
from dagger_cli.errors import LimitError

#: The series stops a kind at the first table over this many subtables or this memory.
MAX_SUBTABLES = 8_000_000
MAX_MEMORY = 8 * 2**30


def synthetic(kind: str, m: int, n: int, seed: int) -> DecisionTable:
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


def main(kind: str, m: int, n: int) -> None:
    build_dag(synthetic("random", 6, 20, 1))  # load the compiled kernels first
    table = synthetic(kind, m, n, seed=m * 1000 + n)
    try:
        t0 = time.perf_counter()
        dag = build_dag(table, max_subtables=MAX_SUBTABLES, max_memory=MAX_MEMORY)
        t1 = time.perf_counter()
        compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
        t2 = time.perf_counter()
    except LimitError as e:
        print(json.dumps({"limit": str(e)}))
        return
    sizes = dag.node_size.astype(np.int64)
    figures = {
        "subtables": dag.stats.subtables,
        "edges": dag.stats.edges,
        "t_dag": t1 - t0,
        "t_fronts": t2 - t1,
        "t": t2 - t0,
        "rows_visited": int((sizes * (np.diff(dag.node_bundle_start) + 1)).sum()),
    }
    print(json.dumps(figures))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
