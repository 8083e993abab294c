"""One case of the bounds section in this fresh process: the whole front once (it also loads
the cached kernels, and gives the bounds), each bounded query once more (its own kernels
loaded), then RUNS rounds timing every query in turn, so a change of the machine's load hits
them alike. Prints per query the engine seconds (``rel.seconds``) of the timed runs, the
answer, subtables and stored front points, as JSON.

    python scripts/bench/child/bounds_case.py TABLE X CAP|None RUNS
"""

import json
import statistics
import sys

from dagger_cli.data.datasets import load_table
from dagger_cli.engine import relate

#: y of every case.
Y = "misclassifications"


def bounds_of(points) -> dict:
    """Each query's keyword arguments for ``relate``, read off the whole front (``points``
    by x rising, y falling), in the order a round runs them: K1 and N1 are the lower
    medians of its y and x values (a point's own values), N2 the second point's x. A front
    of one point has no second point: that query is left out."""
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    out = {
        "whole": {},
        "max_y_median": {"max_y": statistics.median_low(ys)},
        "max_y_least": {"max_y": ys[-1]},
        "max_x_median": {"max_x": statistics.median_low(xs)},
        "max_x_second": {"max_x": xs[1]} if len(xs) > 1 else None,
        "least_y": {"least_y": True},
    }
    return {k: v for k, v in out.items() if v is not None}


def main(table: str, x: str, cap: int | None, runs: int) -> None:
    t = load_table(table)

    def call(kwargs):
        return relate(t, x, Y, max_depth=cap, **kwargs)

    first = call({})
    queries = bounds_of(first.front.points())
    out = {"rows": t.n_rows, "attributes": t.n_attributes, "first_s": first.seconds}
    del first
    res = {}
    for key, kwargs in queries.items():
        rel = call(kwargs)
        res[key] = {
            "bounds": kwargs,
            "points": rel.front.points(),
            "subtables": int(rel.stats.subtables),
            "stored": int(rel.store.fxy.shape[0]) if rel.store is not None else None,
            "warm_s": rel.seconds,
            "seconds": [],
        }
        del rel
    for _ in range(runs):
        for key, kwargs in queries.items():
            rel = call(kwargs)
            if rel.front.points() != res[key]["points"]:  # the engine is deterministic
                raise SystemExit(f"{table} {x} D={cap} {key}: the answer changed between runs")
            res[key]["seconds"].append(rel.seconds)
            del rel
    for r in res.values():
        r["engine_s"] = statistics.median(r["seconds"])
    print(json.dumps({**out, "queries": res}))


if __name__ == "__main__":
    table, x, cap, runs = sys.argv[1:5]
    main(table, x, None if cap == "None" else int(cap), int(runs))
