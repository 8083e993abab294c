"""A minimum leaf size read by the ordered solver (issue 38): depth against
misclassifications, a split only where each child holds at least K rows. Under it a subset
of rows may need more errors than the rows it lies in, so the kernel's bounds read only a
containing side's value. The oracles: the DAG engine on the binary expansion (which the
brute force of tests/oracle.py checks) and the brute force itself on small tables; every
extracted tree re-evaluates to its point and keeps K rows in each leaf."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    """The rows of each leaf of an extracted tree."""
    out = []

    def walk(node):
        if node.is_leaf:
            out.append(int(node.size))
        for child in node.children.values() if node.children else ():
            walk(child)

    walk(tree.root)
    return out


def _check(table, depth: int, k: int) -> None:
    """The ordered solver's depth front under --min-leaf k equals the DAG engine's on the
    binary expansion, and each point's tree costs it."""
    limited = table.weighted(min_leaf=k) if table.weighting is None else table
    rel = relate(limited, "depth", MIS, max_depth=depth)
    assert rel.engine == "ordered"
    want = relate(limited.binarized(), "depth", MIS, max_depth=depth)
    assert _points(rel) == _points(want)
    for i, (px, py) in enumerate(_points(rel)):
        costs = extract_tree(rel, i).costs()
        assert (costs["depth"], costs[MIS]) == (px, py)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=30, max_numeric=2, max_nominal=1, max_value=10),
    depth=st.integers(1, 4),
    k=st.integers(2, 6),
)
def test_the_depth_front_under_a_min_leaf_equals_the_dag_engine(df, depth, k):
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    _check(table, depth, k)


@pytest.mark.parametrize("seed", range(24))
def test_many_codes_and_classes_under_a_min_leaf_equal_the_dag_engine(seed):
    """Tables of 40-120 rows, many codes, 2 to 11 classes and a nominal column at times:
    the depth-two pass by lanes and row by row, nominal groups too small, deep searches."""
    rng = np.random.default_rng(3800 + seed)
    n = int(rng.integers(40, 120))
    df = _coded_frame(rng, n, (2, 3, 9, 11)[seed % 4], 2, 140, 9, "abc" if seed % 3 == 0 else "")
    table = DecisionTable.from_dataframe(df, thresholds="all")
    _check(table, 3 if seed % 2 else 4, int(rng.integers(2, 12)))


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
    """The ordered solver reads a minimum leaf size for depth against misclassifications;
    whole fronts of total path length, nodes or
    leaves against misclassifications go to the binary expansion, with the reason said."""
    from dagger_cli.engine.ordered import why_not

    df = pd.DataFrame({"a": np.arange(40) / 2, "b": np.arange(40) % 7, "d": list("pq") * 20})
    table = DecisionTable.from_dataframe(df, thresholds="all").weighted(min_leaf=3)
    assert reads_min_leaf(table, Query("depth", MIS, max_depth=2))
    assert not reads_min_leaf(table, Query("total-path-length", MIS, max_depth=2))
    text = why_not(table, Query("total-path-length", MIS, max_depth=2))
    assert "minimum leaf size" in text and "depth against misclassifications only" in text
    assert relate(table, "depth", MIS, max_depth=2).engine == "ordered"
    with pytest.warns(Warning, match="minimum leaf size"):
        assert relate(table, "total-path-length", MIS, max_depth=2).engine != "ordered"


def test_one_thread_or_two_give_the_same_front_and_trees_under_a_min_leaf(monkeypatch):
    """The root's team of threads runs the relaxed searches too: the same front and trees
    on one thread as on two."""
    rng = np.random.default_rng(3850)
    df = _coded_frame(rng, 160, 3, 3, 200, 11, "")
    table = DecisionTable.from_dataframe(df, thresholds="all").weighted(min_leaf=7)
    runs = []
    for count in (1, 2):
        monkeypatch.setenv("DAGGER_THREADS", str(count))
        rel = relate(table, "depth", MIS, max_depth=4)
        assert rel.engine == "ordered"
        runs.append((_points(rel), [extract_tree(rel, i).to_text() for i in range(len(rel.front))]))
    assert runs[0] == runs[1]
