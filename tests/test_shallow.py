"""The column-sweep solver for shallow trees over threshold attributes against the DAG engine."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.engine.shallow import ShallowSolver, applies

pd = pytest.importorskip("pandas")

X_COSTS = {
    "total-path-length": "total_path_length",
    "depth": "depth",
    "nodes": "nodes",
    "leaves": "leaves",
}


def _check(df, spec, depth, x):
    table = DecisionTable.from_dataframe(df, thresholds=spec, duplicates="keep")
    if not applies(table, depth):
        return False
    solver = ShallowSolver(table, x)
    front = solver.front(depth)
    engine = relate(table, x, "misclassifications", max_depth=depth)
    assert front.points() == engine.front.points()
    for point in front.points():
        tree = solver.tree(depth, point)
        costs = tree.costs()
        assert (costs[X_COSTS[x]], costs["misclassifications"]) == point
        assert costs["depth"] <= depth
        assert tree.costs(df)["misclassifications"] == point[1]  # re-evaluated on raw rows
    return True


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 40),
    st.integers(1, 3),
    st.integers(2, 3),
    st.integers(0, 2**32 - 1),
    st.sampled_from(["all", 1, 2]),
)
def test_same_front_and_trees_as_the_engine_on_random_tables(n, m, classes, seed, spec):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"c{j}": rng.integers(0, 6, size=n) for j in range(m)})
    df["d"] = rng.integers(0, classes, size=n).astype(str)
    for depth, x in itertools.product((1, 2, 3), X_COSTS):
        _check(df, spec, depth, x)


def test_same_front_on_iris():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True, as_frame=True)
    df = X.assign(d=y.astype(str))
    for depth, x in itertools.product((0, 1, 2, 3), X_COSTS):
        assert _check(df, 2, depth, x)
    assert _check(df, "all", 2, "total-path-length")


def test_applies_only_to_threshold_tables_and_shallow_caps():
    df = pd.DataFrame({"a": [1, 2, 3, 4], "b": list("xyxy"), "d": list("ppqq")})
    mixed = DecisionTable.from_dataframe(df, thresholds="all")
    numeric = DecisionTable.from_dataframe(df.drop(columns="b"), thresholds="all")
    assert not applies(mixed, 2) and applies(numeric, 3)
    assert not applies(numeric, 4) and not applies(numeric, None)
