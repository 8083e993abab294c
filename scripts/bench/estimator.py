"""The estimator section (issue 13): ``DaggerTreeClassifier.fit`` on breast cancer (569 x 30
numeric) at the issue's two settings: median wall time after a warm-up fit, the CPU time of
all threads, the front's size and the training errors beside CART's at the same depth.

    python -m scripts.bench run --only sklearn [--runs 5]
"""

from __future__ import annotations

import time

from . import machine, procs, verdict

NAME = "sklearn"
OUTPUT = "sklearn.json"
HELP = "DaggerTreeClassifier.fit on breast cancer (issue 13)"

#: The estimator's speed targets (issue 13): (parameters, seconds) on breast cancer.
TARGETS = [
    ({"max_depth": 3, "thresholds": 16}, 5.0),
    ({"max_depth": 2, "thresholds": "all"}, 10.0),
]


def add_arguments(group) -> None:
    """The estimator section has no options of its own (``--runs``)."""


def bench_sklearn(runs: int) -> list[dict]:
    """DaggerTreeClassifier.fit on breast cancer, the issue's two settings: median wall time
    of ``runs`` fits after one warm-up fit (the compiled kernels loaded)."""
    try:
        from sklearn.datasets import load_breast_cancer
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:
        print("sklearn bench: scikit-learn is not installed (pip install dagger-cli[sklearn])")
        return []
    from dagger_cli.sklearn import DaggerTreeClassifier

    X, y = load_breast_cancer(return_X_y=True)
    load = machine.load_average()[0]
    print(
        f"DaggerTreeClassifier.fit on breast cancer ({X.shape[0]} x {X.shape[1]} numeric), "
        f"median of {runs} (load average {load:.1f} on {machine.cores()} cores; CPU time "
        "counts every thread):",
        flush=True,
    )
    DaggerTreeClassifier(max_depth=1, thresholds=2).fit(X, y)  # warm: load the kernels
    out = []
    for params, target in TARGETS:
        cpu0 = time.process_time()
        t, clf = procs.median_time(lambda p=params: DaggerTreeClassifier(**p).fit(X, y), runs)
        cpu = (time.process_time() - cpu0) / runs  # all threads: the work, whatever the load
        errors = int((clf.predict(X) != y).sum())
        cart = DecisionTreeClassifier(max_depth=params["max_depth"], random_state=0).fit(X, y)
        cart_errors = int((cart.predict(X) != y).sum())
        ok = verdict.within(t, target)
        row = {
            "params": params,
            "seconds": t,
            "cpu_seconds": cpu,
            "attributes": clf.table_.n_attributes,
            "front": len(clf.front_),
            "errors": errors,
            "cart_errors": cart_errors,
            "target_s": target,
            "met": ok,
        }
        out.append(row)
        print(
            f"  {params}: {t:.2f} s ({cpu:.2f} s of CPU), {row['attributes']} threshold "
            f"attributes, {row['front']} front points; training errors {errors} "
            f"(CART {cart_errors}); [{verdict.met(ok)}] <= {target:.0f} s",
            flush=True,
        )
    return out


def run(args) -> dict:
    record = machine.Record()
    result = {**record.done(), "fits": bench_sklearn(args.runs)}
    machine.write_json(args.out, OUTPUT, result)
    return result
