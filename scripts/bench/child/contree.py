"""ConTree as its users run it: numpy, pycontree, the file, one fit per depth; prints the fit
times and each fit's training misclassifications as JSON. Nothing of dagger is imported.

    python scripts/bench/child/contree.py FILE DEPTH,...

FILE: ConTree's format, the class first, then the numeric features.
"""

import json
import sys
import time

import numpy as np
from pycontree import ConTree


def main(path: str, depths: str) -> None:
    data = np.loadtxt(path, ndmin=2)
    y, X = data[:, 0].astype(np.int64), data[:, 1:]
    fits, mis = [], []
    for d in map(int, depths.split(",")):
        t1 = time.perf_counter()
        model = ConTree(max_depth=d)
        model.fit(X, y)
        fits.append(time.perf_counter() - t1)
        mis.append(int((model.predict(X) != y).sum()))
    print(json.dumps({"fit_s": fits, "mis": mis}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
