"""The fast engine against the plain baseline on tables bigger than the brute force can
enumerate, and its growth paths (its independence of the number of threads:
tests/test_threads.py).

The brute-force tests (test_bruteforce.py) cover every tree on tiny tables; these tables
are big enough for the kernels' batches, parallel pieces, prefetching and array growth
to matter, where the slow, obviously correct baseline is still quick.
"""

from __future__ import annotations

import numpy as np
import pytest

from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import build_dag, compute_fronts, relate


def random_table(m, n, values, decisions, seed, structured=False, duplicates="keep"):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, size=(n, m))
    if structured:
        y = (X[:, 0] + X[:, 1] * X[:, 2]) % decisions
        flip = rng.random(n) < 0.1
        y[flip] = rng.integers(0, decisions, size=int(flip.sum()))
    else:
        y = rng.integers(0, decisions, size=n)
    return DecisionTable.from_rows(X.tolist(), y.tolist(), name=f"t{seed}", duplicates=duplicates)


MEDIUM = [
    (7, 60, 2, 2, 1, False),
    (6, 80, 3, 3, 2, True),
    (5, 120, 4, 2, 3, False),
    (8, 40, 2, 3, 4, True),
]


@pytest.mark.parametrize("m,n,values,decisions,seed,structured", MEDIUM)
def test_fast_equals_baseline_on_medium_tables(m, n, values, decisions, seed, structured):
    table = random_table(m, n, values, decisions, seed, structured)
    fast = relate(table)
    base = relate(table, engine="baseline")
    assert fast.front.points() == base.front.points()
    assert fast.stats == base.stats
    # Big enough that some fronts are computed in parallel pieces (>= 32 equal-size nodes).
    assert np.bincount(fast.dag.node_size).max() >= 32


@pytest.mark.parametrize(
    "x,y",
    [
        ("depth", "misclassifications"),
        ("nodes", "leaves"),
        ("misclassifications", "total-path-length"),
    ],
)
def test_fast_equals_baseline_other_pairs(x, y):
    table = random_table(6, 70, 3, 3, 7, True)
    assert (
        relate(table, x, y).front.points() == relate(table, x, y, engine="baseline").front.points()
    )
    assert (
        relate(table, x, y, exact_only=True).front.points()
        == relate(table, x, y, engine="baseline", exact_only=True).front.points()
    )


def _arrays(table):
    dag = build_dag(table)
    store = compute_fronts(dag, COSTS["total-path-length"], COSTS["misclassifications"])
    arrays = {
        k: getattr(dag, k)
        for k in (
            "node_start",
            "node_size",
            "node_mis",
            "node_major",
            "node_bundle_start",
            "row_pool",
            "bundle_attr",
            "bundle_edge_start",
            "edge_child",
        )
    }
    arrays.update(fref=store.fref, fxy=store.fxy, fch=store.fch)
    return arrays


def test_batch_buffers_grow_for_many_values():
    # One attribute with 20,000 distinct values: the root alone has more children than
    # the batch buffers first hold (they must grow before the batch runs).
    n = 20_000
    rng = np.random.default_rng(5)
    rows = [[i, int(rng.integers(0, 3))] for i in range(n)]
    decisions = rng.integers(0, 2, size=n).tolist()
    table = DecisionTable.from_rows(rows, decisions, name="wide")
    fast = relate(table)
    assert fast.front.points() == relate(table, engine="baseline").front.points()
    # Splitting on the identifier leaves every row alone: µ = 0 at total path length n.
    assert fast.front.points()[-1] == (n, 0)


def test_rows_of_every_subtable_are_its_rows():
    """Each node's rows, as the kernel wrote them, are exactly the rows that agree with
    one path's conditions: check every child against its parent filtered by the value."""
    table = random_table(6, 90, 3, 2, 13)
    dag = build_dag(table)
    codes = table.codes
    for b in range(dag.bundle_attr.size):
        a = dag.bundle_attr[b]
        # the parent of bundle b
        parent = np.searchsorted(dag.node_bundle_start, b, side="right") - 1
        prow = dag.rows(parent)
        kids = dag.children(b)
        assert sum(dag.node_size[c] for c in kids) == prow.size
        for c in kids:
            rows = dag.rows(int(c))
            v = codes[a, rows[0]]
            np.testing.assert_array_equal(rows, prow[codes[a, prow] == v])


@pytest.mark.parametrize("use_mmap", [True, False])
def test_growable_arrays_keep_contents(use_mmap):
    from dagger_cli.engine import GrowableArrays

    arrays = GrowableArrays({"a": (4, np.int64), "b": (3, np.int32)}, use_mmap=use_mmap)
    arrays["a"][:4] = [5, 6, 7, 8]
    arrays["b"][:] = 0
    arrays.grow("a", 1000, 4)
    assert arrays["a"].size >= 1000
    assert arrays["a"][:4].tolist() == [5, 6, 7, 8]
    arrays["a"][999] = 1
    arrays.grow("a", 10, 4)  # no shrinking
    assert arrays["a"][999] == 1
    assert arrays.nbytes() == arrays["a"].nbytes + arrays["b"].nbytes


def test_same_dag_with_and_without_memory_maps(monkeypatch):
    import dagger_cli.engine.memory as engine

    table = random_table(8, 100, 2, 3, 17, True)
    with_maps = _arrays(table)
    monkeypatch.setattr(engine, "_MMAP", False)
    without = _arrays(table)
    for k in with_maps:
        np.testing.assert_array_equal(with_maps[k], without[k], err_msg=k)


def test_ctrl_c_stops_a_long_run_cleanly(tmp_path):
    """SIGINT while the parallel kernels run: exit 130, a message, no output file."""
    import os
    import signal
    import subprocess
    import sys
    import time

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(300, 20))
    y = rng.integers(0, 3, size=300)
    csv = tmp_path / "big.csv"
    lines = [",".join([f"a{j}" for j in range(20)] + ["d"])]
    lines += [",".join(map(str, row)) + f",{d}" for row, d in zip(X.tolist(), y.tolist())]
    csv.write_text("\n".join(lines) + "\n")
    out = tmp_path / "front.csv"
    exe = [sys.executable, "-c", "from dagger_cli.cli import main; main()"]
    proc = subprocess.Popen(
        [*exe, "relate", str(csv), "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    # Progress lines start after about 2 s of work: interrupt at the first one.
    deadline = time.monotonic() + 120
    seen = ""
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        seen += line
        if line.startswith(("subtables:", "fronts:")) or not line:
            break
    assert proc.poll() is None, f"the run ended before it could be interrupted:\n{seen}"
    os.kill(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, seen + err
    assert "interrupted; nothing was written" in err
    assert "Traceback" not in err
    assert not out.exists()
    assert not list(tmp_path.glob("*.tmp*"))
