"""The trees of many points in one pass (``extract_trees``: reports, ``--trees``) against
the trees found one by one (``extract_tree``, the walk or the search per point: the
oracle), tree for tree."""

from __future__ import annotations

import os

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


#: Examples of the ties test (``DAGGER_ONEPASS_EXAMPLES``; thousands on demand: about one
#: table in 150 had a tie that the one pass broke otherwise before it bounded each root's
#: search as the one by one does).
TIES_EXAMPLES = int(os.environ.get("DAGGER_ONEPASS_EXAMPLES", "60"))


@st.composite
def tied_frames(draw, max_rows=150):
    """Tables of many ties: numeric columns of few values (thresholds whose sides differ by
    a row or two), rows maybe drawn from a small pool (duplicates), maybe a nominal column,
    2 or 3 classes; rows enough that the searches skip thresholds under their bounds. Drawn
    from a generator of a drawn seed (hypothesis's own sizes favour tables too small to
    have such ties)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n = int(rng.integers(10, max_rows + 1))
    k_num = int(rng.integers(1, 4))
    cells = rng.integers(0, int(rng.integers(2, 26)), size=(n, k_num))
    if rng.random() < 0.5:  # duplicates: the rows of half of them, repeated
        cells = cells[rng.integers(0, max(n // 2, 1), size=n)]
    data: dict = {f"x{j}": cells[:, j] / 2 for j in range(k_num)}
    if rng.random() < 0.5:
        data["c"] = rng.choice(list("abc"), size=n)
    data["d"] = rng.choice(list("pqr"[: int(rng.integers(2, 4))]), size=n)
    return pd.DataFrame(data)


def one_pass_is_one_by_one(rel):
    """The ordered solver's one-pass trees of every point, of the front's ends and of half of
    its points backwards equal its trees one by one (the oracle: ``rel.extractor(x, y)``)."""
    front = rel.front
    xy = [(int(front.x[k]), int(front.y[k])) for k in range(len(front))]
    many = rel.extractor.trees(xy)  # first: the one by one after it, then before
    one = {p: rel.extractor(*p) for p in xy}
    for some, trees in ((xy, many), ([xy[0], xy[-1]], None), (xy[::-2], None)):
        for p, tree in zip(some, trees or rel.extractor.trees(some)):
            assert tree.to_text() == one[p].to_text(), f"point {p}"
            assert tree.to_dict() == one[p].to_dict()


@settings(max_examples=TIES_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    tied_frames(),
    st.sampled_from([3, 4, 2]),  # depth 3 first: below depth 2, no search has a bound
    st.sampled_from(PAIRS + [("misclassifications", "total-path-length")]),
)
def test_the_ordered_one_pass_equals_one_by_one_on_ties(df, depth, pair):
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    rel = relate(table, *pair, max_depth=depth)
    assert rel.engine == "ordered"
    one_pass_is_one_by_one(rel)
    same_trees(rel, list(range(len(rel.front))))  # and through extract_trees


def test_a_tie_the_search_breaks_by_its_bound():
    # 50 rows of one numeric column: the point (79, 21) of total path length vs
    # misclassifications is a tree of depth 2 (SHALLOWER at depth 3) whose first split
    # differs with the search's bound: x <= 1.5 bounded to the point itself, as `dagger
    # tree` looks it up, x <= 2.5 bounded by both points' costs (79, 25), as the one pass
    # once looked the two points up together.
    from dagger_cli.engine.kernels import ordered as k

    x = "01353110323310132321453511230311133122203551510213"
    d = "pqpqqqrpqrqqqqprqqrqqqpqqrrqpppqrqrrrrqqrrrrrqqrqq"
    df = pd.DataFrame({"x": [int(c) for c in x], "d": list(d)})
    rel = relate(DecisionTable.from_dataframe(df, thresholds="all"), max_depth=3)
    ex = rel.extractor
    assert [(int(a), int(b)) for a, b in zip(rel.front.x, rel.front.y)] == [(0, 25), (79, 21)]
    assert ex.root[(79, 21)][0] == k.SHALLOWER
    rows = np.arange(50, dtype=np.int64)
    roots = {}
    for box in ((79, 21), (79, 25)):
        fx, fy, fk, fa, fc = ex._fronts(rows, 2, *box)
        h = int(np.flatnonzero((fx == 79) & (fy == 21))[0])
        roots[box] = (int(fk[h]), int(fa[h]), int(fc[h]))
    # the tie this test is about (if the search ever breaks it alike under both bounds,
    # this example no longer tests anything: find another)
    assert roots[(79, 21)] != roots[(79, 25)]
    one_pass_is_one_by_one(rel)
    same_trees(rel, [0, 1])


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
