"""``DaggerTreeClassifier(max_depth=DEPTH, thresholds="all").fit`` on a numeric file (the
class first), after a small fit that loads the kernels; prints the fit's seconds, its
training errors and the solver it chose, as JSON.

    python scripts/bench/child/num_estimator.py FILE DEPTH
"""

import json
import sys
import time

import numpy as np

from dagger_cli.sklearn import DaggerTreeClassifier


def main(path: str, depth: int) -> None:
    data = np.loadtxt(path, ndmin=2)
    y, X = data[:, 0].astype(np.int64), data[:, 1:]
    DaggerTreeClassifier(max_depth=1, thresholds="all").fit(X[:50], y[:50])  # kernels loaded
    t1 = time.perf_counter()
    clf = DaggerTreeClassifier(max_depth=depth, thresholds="all").fit(X, y)
    fit_s = time.perf_counter() - t1
    errors = int((clf.predict(X) != y).sum())
    print(json.dumps({"fit_s": fit_s, "errors": errors, "solver": clf.solver_}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
