"""A minimum leaf size read by the ordered solver (issue 38): misclassifications against
depth (the depth search), total path length, nodes or leaves (the fronts kernel), a split
only where each child holds at least K rows. Under it a subset of rows may need more errors
than the rows it lies in, so the kernels' bounds read no contained side's value, and a
containing side's only when every attribute is ordered (a nominal split may lack a child
for the rows between). The oracles: the DAG engine on the binary expansion (which the
brute force of tests/oracle.py checks) and the brute force itself on small tables; every
extracted tree re-evaluates to its point and keeps K rows in each leaf."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.engine.ordered import reads_min_leaf
from dagger_cli.engine.query import Query
from dagger_cli.trees import extract_tree

try:  # tests/ as a package or as a rootdir-inserted directory
    from .test_ordered import mixed_frames
    from .test_ordered_weights import _coded_frame
except ImportError:  # pragma: no cover
    from test_ordered import mixed_frames
    from test_ordered_weights import _coded_frame

MIS = "misclassifications"


def _points(rel) -> list[tuple[int, int]]:
    return list(zip(rel.front.x.tolist(), rel.front.y.tolist()))


def _leaf_sizes(tree) -> list[int]:
    """The rows of each leaf of an extracted tree (their weight when weighted)."""
    out = []

    def walk(node):
        if node.is_leaf:
            out.append(int(node.rows))
        for _, child in node.children:
            walk(child)

    walk(tree.root)
    return out


#: The costs the ordered solver pairs with misclassifications under a minimum leaf size.
XS = ("depth", "total-path-length", "nodes", "leaves")


def _check(table, depth: int, k: int, x: str = "depth") -> None:
    """The ordered solver's front of x against misclassifications under --min-leaf k
    equals the DAG engine's on the binary expansion, and each point's tree costs it and
    keeps k rows in each leaf."""
    limited = table.weighted(min_leaf=k) if table.weighting is None else table
    rel = relate(limited, x, MIS, max_depth=depth)
    assert rel.engine == "ordered"
    want = relate(limited.binarized(), x, MIS, max_depth=depth)
    assert _points(rel) == _points(want), x
    column = COSTS[x].column
    for i, (px, py) in enumerate(_points(rel)):
        tree = extract_tree(rel, i)
        costs = tree.costs()
        assert (costs[column], costs[MIS]) == (px, py), x
        # a split's leaves (the root alone may hold fewer; a weighted leaf's weight is not
        # its rows)
        if not tree.root.is_leaf and (limited.weighting.rows == 1).all():
            assert min(_leaf_sizes(tree)) >= limited.weighting.min_leaf


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=30, max_numeric=2, max_nominal=1, max_value=10),
    depth=st.integers(1, 4),
    k=st.integers(2, 6),
    x=st.sampled_from(XS),
)
def test_the_fronts_under_a_min_leaf_equal_the_dag_engine(df, depth, k, x):
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    _check(table, depth, k, x)


@pytest.mark.parametrize("seed", range(24))
def test_many_codes_and_classes_under_a_min_leaf_equal_the_dag_engine(seed):
    """Tables of 40-120 rows, many codes, 2 to 11 classes and a nominal column at times:
    the depth-two pass by lanes and row by row, nominal groups too small, deep searches."""
    rng = np.random.default_rng(3800 + seed)
    n = int(rng.integers(40, 120))
    df = _coded_frame(rng, n, (2, 3, 9, 11)[seed % 4], 2, 140, 9, "abc" if seed % 3 == 0 else "")
    table = DecisionTable.from_dataframe(df, thresholds="all")
    k = int(rng.integers(2, 12))
    _check(table, 3 if seed % 2 else 4, k)
    _check(table, 3, k, XS[1 + seed % 3])


@pytest.mark.parametrize("seed", range(60))
def test_a_nominal_value_of_few_rows_under_a_min_leaf_equals_the_dag_engine(seed):
    """A nominal column with a rare value: a side's tree that splits on it may have no
    allowed split once it takes the rows between it and a neighbour (their rare value's
    child would hold fewer than K), so no bound reads a containing side's value less the
    rows between. (The depth search read it before: seeds 6, 10 and 59 gave too many
    errors.)"""
    rng = np.random.default_rng(4000 + seed)
    n = int(rng.integers(20, 80))
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 40, n),
            "c": rng.choice(["p", "q", "r", "s"], n, p=[0.45, 0.45, 0.07, 0.03]),
            "b": rng.integers(0, 5, n),
        }
    )
    df["d"] = np.where((df.c == "p") ^ (rng.random(n) < 0.1), "y", "n")
    table = DecisionTable.from_dataframe(df, thresholds="all")
    k, depth = int(rng.integers(2, 5)), int(rng.integers(2, 4))
    _check(table, depth, k)
    _check(table, depth, k, XS[1 + seed % 3])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(40, 200),
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(2, 4),
    k=st.integers(2, 11),
    x=st.sampled_from(XS[1:]),
)
def test_numeric_columns_of_many_codes_under_a_min_leaf_equal_the_dag_engine(n, seed, depth, k, x):
    """Three numeric columns of many codes and 2 to 4 classes: the fronts kernel's
    depth-two pass (a side's best split with K rows each way), its screens' far sets and
    the seeds of a side that contains these rows, under K. (Reading the contained sides'
    bounds as without K makes some of these fronts wrong.)"""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {"a": rng.integers(0, 15, n), "b": rng.integers(0, 11, n) / 4, "c": rng.integers(0, 6, n)}
    )
    df["d"] = np.where(df.a + 3 * df.b - df.c > 12, "y", "n")
    flip = rng.random(n) < 0.25
    df.loc[flip, "d"] = rng.choice(["n", "y", "m", "z"][: int(rng.integers(2, 5))], int(flip.sum()))
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if len(table.decision_values) < 2:
        return
    _check(table, depth, k, x)


@pytest.mark.parametrize("seed", range(6))
def test_weights_and_prices_under_a_min_leaf_equal_the_dag_engine(seed):
    """Row weights and a price matrix with a minimum leaf size: rows, not weight, fill a
    leaf; each leaf costs its decision of least price."""
    rng = np.random.default_rng(3900 + seed)
    n = int(rng.integers(30, 80))
    df = _coded_frame(rng, n, (2, 3, 5)[seed % 3], 2, 60, 7, "ab" if seed % 2 else "")
    table = DecisionTable.from_dataframe(df, thresholds="all")
    c = len(table.decision_values)
    prices = rng.integers(0, 4, size=(c, c))
    np.fill_diagonal(prices, 0)
    weighted = table.weighted(
        rng.integers(1, 4, size=n).tolist(),
        prices=prices.tolist() if seed % 2 else None,
        min_leaf=int(rng.integers(2, 8)),
    )
    _check(weighted, 3, weighted.weighting.min_leaf)


def test_the_min_leaf_routes():
    """The ordered solver reads a minimum leaf size for misclassifications against depth,
    total path length, nodes or leaves; false negatives against misclassifications (read off
    the ROC front, whose leaves' choice of decision it reads without K) go to the binary
    expansion, with the reason said."""
    from dagger_cli.engine.ordered import why_not

    df = pd.DataFrame({"a": np.arange(40) / 2, "b": np.arange(40) % 7, "d": list("pq") * 20})
    table = DecisionTable.from_dataframe(df, thresholds="all").weighted(min_leaf=3)
    for x in XS:
        assert reads_min_leaf(table, Query(x, MIS, max_depth=2))
        assert relate(table, x, MIS, max_depth=2).engine == "ordered"
    roc = table.weighted(min_leaf=3, positive="q")
    query = Query("false-negatives", MIS, max_depth=2)
    assert not reads_min_leaf(roc, query)
    text = why_not(roc, query)
    assert "minimum leaf size" in text and "not with false positives or negatives" in text
    with pytest.warns(Warning, match="minimum leaf size"):
        rel = relate(roc, "false-negatives", MIS, max_depth=2)
    assert rel.engine != "ordered"


@pytest.mark.parametrize(("x", "depth"), [("depth", 4), ("total-path-length", 3)])
def test_one_thread_or_two_give_the_same_front_and_trees_under_a_min_leaf(monkeypatch, x, depth):
    """The root's team of threads runs the relaxed searches too (the depth search's, and
    the fronts kernel's relaxed fronts): the same front and trees on one thread as on two."""
    rng = np.random.default_rng(3850)
    df = _coded_frame(rng, 160, 3, 3, 200, 11, "")
    table = DecisionTable.from_dataframe(df, thresholds="all").weighted(min_leaf=7)
    runs = []
    for count in (1, 2):
        monkeypatch.setenv("DAGGER_THREADS", str(count))
        rel = relate(table, x, MIS, max_depth=depth)
        assert rel.engine == "ordered"
        runs.append((_points(rel), [extract_tree(rel, i).to_text() for i in range(len(rel.front))]))
    assert runs[0] == runs[1]
    assert len(runs[0][0]) > 2
