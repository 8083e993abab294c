"""Row weights read by the ordered solver's kernels (issue 38): a row of weight k counts as
k rows in every class count, subtable size and bound. The oracle is the same solver on the
rows repeated by their weights (:func:`dagger_cli.engine.ordered.expanded`): the fronts
are equal, and every extracted tree re-evaluates on the repeated rows (routed by its
thresholds, :meth:`dagger_cli.trees.Tree.costs`) to its point."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.engine.ordered import expanded, reads_weights
from dagger_cli.trees import extract_tree
from tests.conftest import needs_num_mirror

try:  # tests/ as a package or as a rootdir-inserted directory
    from .test_ordered import mixed_frames
except ImportError:  # pragma: no cover
    from test_ordered import mixed_frames

COLUMN = {
    "depth": "depth",
    "total-path-length": "total_path_length",
    "nodes": "nodes",
    "leaves": "leaves",
}
NUM_TABLES = ("bank", "raisin", "rice", "wilt", "segment", "page")


def _repeated(df: pd.DataFrame, table) -> pd.DataFrame:
    """The rows of ``df`` repeated by the table's weights (in the weighting's units)."""
    return df.loc[df.index.repeat(table.weighting.rows)].reset_index(drop=True)


def _coded_frame(rng, n: int, classes: int, cols: int, top: int, step: int, nominal: str):
    """``n`` rows of ``cols`` numeric columns of many codes (0..top-1, halved), a nominal
    column of the values ``nominal`` (none if empty) and ``classes`` classes, each row's
    by its x0 (in steps of ``step``) for 70 % of them, at random otherwise."""
    df = pd.DataFrame({f"x{j}": rng.integers(0, top, size=n) / 2 for j in range(cols)})
    if nominal:
        df["c"] = rng.choice(list(nominal), size=n)
    rule = (df["x0"] // step).astype(int) % classes
    noise = rng.integers(0, classes, size=n)
    df["d"] = [f"k{r if u < 0.7 else e}" for r, e, u in zip(rule, noise, rng.random(n))]
    return df


def _points(rel) -> list[tuple[int, int]]:
    return list(zip(rel.front.x.tolist(), rel.front.y.tolist()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=40, max_numeric=3, max_nominal=1, max_value=12),
    depth=st.integers(1, 4),
    data=st.data(),
)
def test_weighted_fronts_equal_the_repeated_rows(df, depth, data):
    """Random integer weights (and a class weight): the ordered solver reading the weights
    gives the fronts of the rows repeated by them, for depth, total path length, nodes and
    leaves against misclassifications; each tree re-evaluates to its point."""
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    most = data.draw(st.sampled_from([2, 4, 9]))
    w = data.draw(st.lists(st.integers(1, most), min_size=table.n_rows, max_size=table.n_rows))
    cw = data.draw(st.none() | st.just({table.decision_values[0]: 3}))
    weighted = table.weighted(w, class_weight=cw)
    assert reads_weights(weighted)
    copies = expanded(weighted)
    on_rows = _repeated(df, weighted)
    for x in COLUMN:
        rel = relate(weighted, x, "misclassifications", max_depth=depth)
        want = relate(copies, x, "misclassifications", max_depth=depth)
        assert rel.engine == "ordered" and want.engine == "ordered"
        assert _points(rel) == _points(want), x
        for k, (px, py) in enumerate(_points(rel)):
            tree = extract_tree(rel, k)
            for costs in (tree.costs(), tree.costs(on_rows)):
                assert (costs[COLUMN[x]], costs["misclassifications"]) == (px, py), x


#: A factor that makes every x range of a front longer than the kernels' table of the least
#: y at each x (``YLIM_DENSE``, 2^21 entries): their lookups then search the front instead.
LARGE = 10**6


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=24, max_numeric=2, max_nominal=1, max_value=12),
    depth=st.integers(2, 3),
    data=st.data(),
)
def test_weights_in_large_units_scale_the_fronts(df, depth, data):
    """Weights times 10^6 (x ranges of millions: the least y at each x searched in the
    front, not tabled) give the fronts of the same weights, each cost that counts rows
    times 10^6: total path length and false positives against false negatives, whose
    kernels read the weights; each tree re-evaluates to its point."""
    table = DecisionTable.from_dataframe(df, thresholds="all")
    labels = table.decision_values
    if not table.ordered or len(labels) < 2:
        return
    w = data.draw(st.lists(st.integers(1, 3), min_size=table.n_rows, max_size=table.n_rows))
    small = table.weighted(w, positive=labels[-1])
    large = table.weighted([LARGE * v for v in w], positive=labels[-1])
    assert large.weighting.scale == 1
    pairs = [("total-path-length", "misclassifications")]
    if len(labels) == 2:
        pairs.append(("false-positives", "false-negatives"))
    for x, y in pairs:
        rel = relate(large, x, y, max_depth=depth)
        want = relate(small, x, y, max_depth=depth)
        assert rel.engine == "ordered" and want.engine == "ordered"
        assert _points(rel) == [(LARGE * a, LARGE * b) for a, b in _points(want)], (x, y)
        column = {"total-path-length": "total_path_length"}.get(x, x.replace("-", "_"))
        for k, (px, py) in enumerate(_points(rel)):
            costs = extract_tree(rel, k).costs()
            assert (costs[column], costs[y.replace("-", "_")]) == (px, py)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(df=mixed_frames(max_rows=12, max_numeric=2, max_nominal=0, max_value=6), data=st.data())
def test_weight_one_is_the_unweighted_table(df, data):
    """Every row at weight 1 (the weighted kernels' path) gives the unweighted fronts."""
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    ones = table.weighted([1] * table.n_rows)
    for x in ("depth", "total-path-length"):
        a = relate(table, x, "misclassifications", max_depth=3)
        b = relate(ones, x, "misclassifications", max_depth=3)
        assert _points(a) == _points(b)


def test_a_min_leaf_is_read_by_both_kernels_with_weights():
    """A minimum leaf size on weighted rows: total path length (the fronts kernel) and
    depth (the depth search) against misclassifications both stay with the kernels, and
    equal the DAG engine's on the binary expansion."""
    df = pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0, 4.0], "d": ["a", "b", "a", "b", "b"]})
    table = DecisionTable.from_dataframe(df, thresholds="all")
    small = table.weighted([1, 2, 1, 2, 1], min_leaf=2)
    assert reads_weights(small)
    for x in ("total-path-length", "depth"):
        rel = relate(small, x, "misclassifications", max_depth=2)
        assert rel.engine == "ordered"
        want = relate(small.binarized(), x, "misclassifications", max_depth=2)
        assert _points(rel) == _points(want)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=30, max_numeric=2, max_nominal=1, max_value=10),
    depth=st.integers(1, 3),
    data=st.data(),
)
def test_priced_fronts_equal_the_dag_engine(df, depth, data):
    """A price matrix (diagonal prices too) with row weights: the ordered solver's fronts
    equal the DAG engine's on the binary expansion, for depth, total path length, nodes
    and leaves against (priced) misclassifications; each tree costs its point."""
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    n, c = table.n_rows, len(table.decision_values)
    w = data.draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    prices = data.draw(
        st.lists(st.lists(st.integers(0, 5), min_size=c, max_size=c), min_size=c, max_size=c)
    )
    priced = table.weighted(w, prices=prices)
    assert reads_weights(priced)
    binary = priced.binarized()
    for x in COLUMN:
        rel = relate(priced, x, "misclassifications", max_depth=depth)
        want = relate(binary, x, "misclassifications", max_depth=depth)
        assert rel.engine == "ordered" and want.engine == "fast"
        assert _points(rel) == _points(want), x
        for k, (px, py) in enumerate(_points(rel)):
            costs = extract_tree(rel, k).costs()
            assert (costs[COLUMN[x]], costs["misclassifications"]) == (px, py), x


@pytest.mark.parametrize("seed", range(8))
def test_priced_many_codes_and_classes_equal_the_dag_engine(seed):
    """Prices on tables of many codes and up to 11 classes (each side swept row by row,
    priced), against the DAG engine on the binary expansion."""
    rng = np.random.default_rng(1000 + seed)
    n = int(rng.integers(40, 90))
    df = _coded_frame(rng, n, (2, 3, 9, 11)[seed % 4], 2, 140, 9, "ab" if seed % 3 == 0 else "")
    table = DecisionTable.from_dataframe(df, thresholds="all")
    c = len(table.decision_values)
    prices = rng.integers(0, 4, size=(c, c))
    np.fill_diagonal(prices, rng.integers(0, 2, size=c))
    priced = table.weighted(rng.integers(1, 5, size=n).tolist(), prices=prices.tolist())
    binary = priced.binarized()
    for x, depth in (("depth", 3), ("total-path-length", 2), ("leaves", 3)):
        rel = relate(priced, x, "misclassifications", max_depth=depth)
        assert rel.engine == "ordered"
        assert _points(rel) == _points(relate(binary, x, "misclassifications", max_depth=depth))
        for k, (px, py) in enumerate(_points(rel)):
            costs = extract_tree(rel, k).costs()
            assert (costs[COLUMN[x]], costs["misclassifications"]) == (px, py), x


def _num(name: str):
    from dagger_cli.data.datasets import load_table

    return load_table(f"num-{name}", thresholds="all", duplicates="keep")


def _random_weights(table, seed: int = 38):
    rng = np.random.default_rng(seed)
    return table.weighted(rng.integers(1, 4, size=table.n_rows).tolist())


@needs_num_mirror
@pytest.mark.slow
@pytest.mark.parametrize("name", NUM_TABLES)
def test_num_tables_at_depth_three_equal_the_repeated_rows(name):
    """The six shared numeric tables, rows weighing 1..3 at random: depth vs
    misclassifications at depth <= 3 equals the run on the repeated rows, and the trees
    re-evaluate to their points."""
    weighted = _random_weights(_num(name))
    rel = relate(weighted, "depth", max_depth=3)
    want = relate(expanded(weighted), "depth", max_depth=3)
    assert rel.engine == "ordered"
    assert _points(rel) == _points(want)
    for k, (px, py) in enumerate(_points(rel)):
        costs = extract_tree(rel, k).costs()
        assert (costs["depth"], costs["misclassifications"]) == (px, py)


@needs_num_mirror
@pytest.mark.slow
def test_threads_and_time_limit_read_the_weights_alike():
    """One thread or the default, the same bytes; a time limit that is not reached gives
    the exact front (its points proven)."""
    code = (
        "import numpy as np, sys\n"
        "from dagger_cli.data.datasets import load_table\n"
        "from dagger_cli.engine import relate\n"
        "t = load_table('num-raisin', thresholds='all', duplicates='keep')\n"
        "w = np.random.default_rng(38).integers(1, 4, size=t.n_rows).tolist()\n"
        "t = t.weighted(w)\n"
        "for x in ('depth', 'total-path-length'):\n"
        "    r = relate(t, x, max_depth=3 if x == 'depth' else 2)\n"
        "    print(x, r.front.x.tolist(), r.front.y.tolist())\n"
    )
    outs = []
    for threads in ("1", None):
        env = dict(os.environ)
        env.pop("DAGGER_THREADS", None)
        if threads is not None:
            env["DAGGER_THREADS"] = threads
        res = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        outs.append(res.stdout)
    assert outs[0] == outs[1] and outs[0]
    from dagger_cli.engine import Query, solve

    weighted = _random_weights(_num("raisin"))
    exact = relate(weighted, "depth", max_depth=3)
    timed = solve(weighted, Query("depth", max_depth=3, time_limit=3600))
    assert _points(timed) == _points(exact)
    assert timed.front.proven is None or all(timed.front.proven)  # None: exact


def test_sample_weight_on_numeric_columns_is_repeated_rows():
    """The estimator's sample_weight on numeric X: the ordered solver reads it, and the
    front is the one of the rows repeated."""
    from dagger_cli.sklearn import DaggerTreeClassifier

    rng = np.random.default_rng(3)
    X = rng.integers(0, 9, size=(40, 3)).astype(float)
    y = (X[:, 0] + rng.integers(0, 3, size=40) > 5).astype(int)
    w = rng.integers(1, 4, size=40)
    a = DaggerTreeClassifier(max_depth=3, thresholds="all").fit(X, y, sample_weight=w)
    b = DaggerTreeClassifier(max_depth=3, thresholds="all").fit(
        np.repeat(X, w, axis=0), np.repeat(y, w)
    )
    assert a.solver_ == "ordered"
    assert a.front_.points() == b.front_.points()
    assert (a.predict(X) == b.predict(X)).all()


@pytest.mark.parametrize("seed", range(12))
def test_many_codes_and_many_classes_equal_the_repeated_rows(seed):
    """Tables the small ones miss: more than 64 codes in a column (the depth-two pass of
    the depth search, not the counts per pair of codes) and more than 8 classes (each side
    swept row by row instead of by lanes), rows weighing 1..6."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(60, 140))
    df = _coded_frame(rng, n, (2, 3, 9, 11)[seed % 4], 3, 150, 7, "abc" if seed % 3 == 0 else "")
    table = DecisionTable.from_dataframe(df, thresholds="all")
    weighted = table.weighted(rng.integers(1, 7, size=n).tolist())
    copies = expanded(weighted)
    on_rows = _repeated(df, weighted)
    for x, depth in (("depth", 3), ("total-path-length", 2), ("leaves", 3)):
        rel = relate(weighted, x, "misclassifications", max_depth=depth)
        want = relate(copies, x, "misclassifications", max_depth=depth)
        assert rel.engine == "ordered"
        assert _points(rel) == _points(want), x
        for k, (px, py) in enumerate(_points(rel)):
            costs = extract_tree(rel, k).costs(on_rows)
            assert (costs[COLUMN[x]], costs["misclassifications"]) == (px, py), x
