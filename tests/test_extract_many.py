"""The trees of many points in one pass (``extract_trees``: reports, ``--trees``) against
the trees found one by one (``extract_tree``, the walk or the search per point: the
oracle), tree for tree."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree, extract_trees
from tests.strategies import tables
from tests.test_anytime import stopped_after
from tests.test_ordered import mixed_frames

PAIRS = [
    ("total-path-length", "misclassifications"),
    ("misclassifications", "nodes"),
    ("leaves", "misclassifications"),
    ("depth", "misclassifications"),
]


def same_trees(rel, points):
    """The one-pass trees equal the one-by-one trees (their text, JSON and costs)."""
    many = extract_trees(rel, points)
    assert len(many) == len(points)
    for k, tree in zip(points, many):
        one = extract_tree(rel, k)
        assert tree.to_text() == one.to_text()
        assert tree.to_dict() == one.to_dict()
        costs = tree.costs()
        front = rel.front
        assert (costs[front.x_cost.column], costs[front.y_cost.column]) == (
            int(front.x[k]),
            int(front.y[k]),
        )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_frames(max_rows=12, max_numeric=3), st.integers(1, 4), st.sampled_from(PAIRS))
def test_the_ordered_solver_one_pass_equals_one_by_one(df, depth, pair):
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    rel = relate(table, *pair, max_depth=depth)
    assert rel.engine == "ordered" or not table.ordered
    points = list(range(len(rel.front)))
    same_trees(rel, points)
    same_trees(rel, points[::-1][: max(1, len(points) // 2)])  # any order, any subset


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mixed_frames(max_rows=10, max_numeric=2, max_nominal=2),
    st.sampled_from([None, 1, 2, 3]),
    st.sampled_from(PAIRS),
)
def test_the_dag_engine_one_pass_equals_one_by_one(df, depth, pair):
    table = DecisionTable.from_dataframe(df, thresholds=2).binarized()
    rel = relate(table, *pair, max_depth=depth)
    same_trees(rel, list(range(len(rel.front))))


def test_a_long_numeric_front_and_a_point_out_of_range():
    rng = np.random.default_rng(7)
    n = 400
    x = rng.normal(size=(n, 3)).round(2)
    d = np.where(x[:, 0] + x[:, 1] * x[:, 2] + 0.4 * rng.normal(size=n) > 0, "p", "q")
    df = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "d": d})
    rel = relate(DecisionTable.from_dataframe(df, thresholds="all"), max_depth=3)
    assert len(rel.front) > 30  # long enough that points share subtrees
    same_trees(rel, list(range(len(rel.front))))
    with pytest.raises(InputError, match="no point"):
        extract_trees(rel, [0, len(rel.front)])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(max_rows=9, max_attributes=4, max_values=3), st.integers(0, 5))
def test_an_anytime_answer_gives_its_trees_in_one_pass(t, calls):
    from dagger_cli.engine.anytime import solve_within
    from dagger_cli.engine.query import Query

    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    rel = solve_within(table, Query(time_limit=60), stopped_after(calls))
    same_trees(rel, list(range(len(rel.front))))


def test_a_report_under_a_time_limit_keeps_the_trees_made_in_time(monkeypatch):
    import dagger_cli.trees as trees
    from dagger_cli.engine.progress import TimeLimitReached
    from dagger_cli.report import TREES_AT_ONCE, relation_section, tree_data

    rng = np.random.default_rng(8)
    n = 300
    x = rng.normal(size=(n, 3)).round(2)
    d = np.where(x[:, 0] + x[:, 1] * x[:, 2] + 0.4 * rng.normal(size=n) > 0, "p", "q")
    df = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "d": d})
    from dagger_cli.engine.api import solve
    from dagger_cli.engine.query import Query

    table = DecisionTable.from_dataframe(df, thresholds="all")
    rel = solve(table, Query(max_depth=3, time_limit=3600))
    assert rel.status == "exact" and len(rel.front) > TREES_AT_ONCE
    full = relation_section(rel)
    assert len(full.trees) == len(rel.front) and "time limit" not in full.note
    calls = []
    real = trees.extract_trees

    def late(relation, points, progress=None):
        calls.append(list(points))
        if len(calls) > 1:
            raise TimeLimitReached  # the limit passes during the second batch
        return real(relation, points, progress)

    monkeypatch.setattr(trees, "extract_trees", late)
    sec = relation_section(rel)
    first = calls[0]
    assert len(first) <= TREES_AT_ONCE and first[-1] - first[0] > len(rel.front) // 2  # spread
    assert sorted(sec.trees) == sorted(first)
    for k in first:
        assert sec.trees[k] == tree_data(extract_tree(rel, k))
    assert f"room for the trees of {len(first)} of the {len(rel.front)} points" in sec.note


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mixed_frames(max_rows=10, max_numeric=2, max_nominal=1),
    st.data(),
    st.sampled_from([None, 2, 3]),
    st.sampled_from(PAIRS[:3]),
)
def test_weighted_rows_one_pass_equals_one_by_one(df, data, depth, pair):
    weights = data.draw(st.lists(st.integers(1, 4), min_size=len(df), max_size=len(df)))
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if depth is None:
        table = table.binarized()
    rel = relate(table.weighted(weights), *pair, max_depth=depth)
    same_trees(rel, list(range(len(rel.front))))
