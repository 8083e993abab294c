"""STreeD as its users run it: numpy, pystreed, the file, one fit per depth; prints the fit
times and each fit's training misclassifications as JSON. Nothing of dagger is imported
(its imports would slow STreeD's start-up, which is part of its whole-process time).

    python scripts/bench/child/streed.py FILE DEPTH,...

FILE: the odt benchmark's format, the class first, then the binary features.
"""

import json
import sys
import time

t0 = time.perf_counter()

import numpy as np  # noqa: E402
from pystreed import STreeDClassifier  # noqa: E402


def main(path: str, depths: str) -> None:
    data = np.loadtxt(path, dtype=np.int64, ndmin=2)
    y, X = data[:, 0], data[:, 1:]
    fits, mis = [], []
    for d in map(int, depths.split(",")):
        t1 = time.perf_counter()
        model = STreeDClassifier(max_depth=d, cost_complexity=0, min_leaf_node_size=1)
        model.fit(X, y)
        fits.append(time.perf_counter() - t1)
        mis.append(int((model.predict(X) != y).sum()))
    print(json.dumps({"fit_s": fits, "mis": mis, "in_process_s": time.perf_counter() - t0}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
