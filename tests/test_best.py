"""``tree --best`` by queries of the least priced misclassifications (dagger_cli/best.py).

The oracle is the scan of the exact front of false positives against false negatives
(:func:`dagger_cli.scores.best_point`, itself checked against a brute force over every tree
and every leaf labelling in test_weights.py), and on tiny tables that brute force directly:
the same score and the same false positives and negatives (the fewest false positives among
the trees of the greatest score), on nominal tables (the DAG engine, the depth-two layer)
and numeric ones (the ordered solver), weighted, priced, under a minimum leaf size, capped
or not; the tree re-evaluates to its figures row by row."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli import best as best_module
from dagger_cli.best import best_tree, priced
from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.scores import best_point, class_split, score_value
from dagger_cli.trees import extract_tree
from tests.evaluate import route
from tests.oracle import DECISION_INDEX, weighted_cost_vectors
from tests.test_depth_two_weights import weighted_tables
from tests.test_ordered import mixed_frames

SCORES = ("f1", "balanced-accuracy")


def least_of(cap):
    """The query best_tree asks: a tree of the least priced misclassifications within
    ``cap`` (the CLI's, in-process)."""

    def least(table):
        rel = relate(table, "depth", "misclassifications", max_depth=cap)
        return extract_tree(rel, len(rel.front) - 1)

    return least


def by_front(table, score, cap) -> tuple[int, int]:
    """The front's scan: the false positives and negatives of its point of greatest score."""
    rel = relate(table, "false-positives", "false-negatives", max_depth=cap)
    k, _ = best_point(rel, score)
    return int(rel.front.x[k]), int(rel.front.y[k])


def routed(tree, table, weights, df=None) -> tuple[int, int]:
    """A tree's false positives and negatives, each row routed (tests/evaluate.py; the
    tree's own predict on ``df`` for numeric columns) and counted ``weights[i]`` times."""
    positive = table.decision_values[table.weighting.positive]
    if df is None:
        header, records = table.to_records()
        data = tree.to_dict()["tree"]
        said = [route(data, header, rec)[0]["decision"] for rec in records]
        truth = [rec[-1] for rec in records]
    else:
        said = tree.predict(df.iloc[:, :-1])
        truth = [str(v) for v in df.iloc[:, -1]]
    fp = sum(w for w, s, t in zip(weights, said, truth) if s == str(positive) != t)
    fn = sum(w for w, s, t in zip(weights, said, truth) if t == str(positive) != s)
    return fp, fn


def check(table, score, cap, weights, df=None) -> None:
    found = best_tree(table, score, least_of(cap))
    assert found is not None
    tree, fp, fn = found
    assert (fp, fn) == by_front(table, score, cap)
    assert routed(tree, table, weights, df) == (fp, fn)
    costs = tree.costs()
    assert (costs["false_positives"], costs["false_negatives"]) == (fp, fn)
    if cap is not None:
        assert costs["depth"] <= cap
    # a leaf deciding a negative class decides the front's (decision_leaves')
    w = table.weighting
    stack = [tree.root]
    while stack:
        node = stack.pop()
        stack.extend(c for _, c in node.children)
        if node.is_leaf and node.decision != table.decision_values[w.positive]:
            counts = np.asarray(node.counts, dtype=np.int64)[None, :]
            pair = w.decision_leaves(counts)[0][0]
            assert table.decision_values.index(node.decision) in pair.tolist()


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(binary=False),
    cap=st.sampled_from([None, 1, 2, 3]),
    score=st.sampled_from(SCORES),
    which=st.integers(0, 2),
)
def test_the_best_tree_by_prices_is_the_fronts_on_nominal_tables(data, cap, score, which):
    """Weights, class weights, prices, a minimum leaf size; two or three classes, one of
    them positive against the rest."""
    table, weights, _, _ = data
    labels = list(table.decision_values)
    table = table.weighted(positive=labels[which % len(labels)])
    positives, negatives = class_split(table)
    if positives == 0 or negatives == 0:
        assert best_tree(table, score, least_of(cap)) is None
        return
    check(table, score, cap, weights)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=40, max_numeric=2, max_nominal=1, max_value=12),
    cap=st.integers(1, 3),
    k=st.integers(1, 4),
    score=st.sampled_from(SCORES),
)
def test_the_best_tree_by_prices_is_the_fronts_on_numeric_tables(df, cap, k, score):
    """Numeric columns kept whole (the ordered solver's depth search priced, against its
    ROC front), under a minimum leaf size too."""
    table = DecisionTable.from_dataframe(df, thresholds="all")
    labels = list(table.decision_values)
    if len(labels) < 2:
        return
    table = table.weighted(min_leaf=k, positive=labels[-1])
    check(table, score, cap, [1] * table.n_rows, df)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    cap=st.sampled_from([None, 1, 2]),
    score=st.sampled_from(SCORES),
)
def test_the_best_tree_by_prices_has_the_greatest_score_over_every_tree(seed, cap, score):
    """Tiny tables against the brute force of tests/oracle.py: the greatest score over every
    tree and every leaf labelling, and the fewest false positives among its trees."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    rows = rng.integers(0, 3, size=(n, 3)).tolist()
    decisions = rng.integers(0, 2, size=n).tolist()
    weights = rng.integers(1, 4, size=n).tolist()
    if len(set(decisions)) < 2:
        return
    t = DecisionTable.from_rows(rows, decisions)
    table = t.weighted(weights).weighted(positive=t.decision_values[-1])
    positive = int(t.decision_values[-1])
    vectors = weighted_cost_vectors(
        [tuple(r) for r in rows], decisions, weights, None, cap, positive=positive
    )
    positives, negatives = class_split(table)
    scored = {
        (v[DECISION_INDEX["false-positives"]], v[-1]): score_value(
            score, positives, negatives, v[DECISION_INDEX["false-positives"]], v[-1]
        )
        for v in vectors
    }
    top = max(scored.values())
    want = min(fp for (fp, fn), s in scored.items() if s == top)
    _, fp, fn = best_tree(table, score, least_of(cap))
    assert scored[(fp, fn)] == top and fp == want


def test_a_tie_takes_a_query_of_its_own():
    """Balanced classes make balanced accuracy the least FP + FN, a value many trees share:
    the first query's tree may have more false positives than the fewest, which the tie's
    query (prices M + 1 and M) finds."""
    calls = []
    rng = np.random.default_rng(7)
    X = rng.integers(0, 4, size=(60, 4))
    y = rng.permutation(np.repeat([0, 1], 30))  # 30 of each class
    t = DecisionTable.from_rows(X.tolist(), y.tolist()).weighted(positive="1")
    least = least_of(2)

    def spy(table):
        calls.append(table.weighting.prices.tolist())
        return least(table)

    _, fp, fn = best_tree(t, "balanced-accuracy", spy)
    assert (fp, fn) == by_front(t, "balanced-accuracy", 2)
    assert calls[0] == [[0, 1], [1, 0]]
    if fp >= 1 and len(calls) == 1:
        pytest.fail("a tree of FP + FN least with false positives took no tie query")


def test_priced_prices_each_error_once():
    """One class against the rest: FP priced in the positive column, FN in its row, a
    negative class decided as another negative free."""
    t = DecisionTable.from_rows([[0], [1], [2]], ["a", "b", "c"]).weighted(positive="b")
    assert priced(t, 3, 5).weighting.prices.tolist() == [[0, 3, 0], [5, 0, 5], [0, 3, 0]]


def _csv(tmp_path):
    rng = np.random.default_rng(38)
    x = rng.normal(size=(120, 3)).round(3)
    y = np.where(x[:, 0] + 0.5 * x[:, 1] + rng.normal(scale=0.7, size=120) > 0.6, "yes", "no")
    path = tmp_path / "t.csv"
    pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "y": y}).to_csv(path, index=False)
    return path


@pytest.mark.parametrize("score", SCORES)
def test_cli_best_by_prices_and_by_the_front_agree(tmp_path, monkeypatch, score):
    """The CLI's answer by prices, and the front's scan where the prices would not fit (the
    fallback, forced here): the same score line."""
    path = _csv(tmp_path)
    args = ["tree", str(path), "--thresholds", "all", "--max-depth", "2", "--best", score]
    fast = CliRunner().invoke(main, args)
    assert fast.exit_code == 0, fast.output
    monkeypatch.setattr(best_module, "_fits", lambda *a: False)
    slow = CliRunner().invoke(main, args)
    assert slow.exit_code == 0, slow.output
    line = [ln for ln in fast.stderr.splitlines() if " = " in ln]
    assert line and line == [ln for ln in slow.stderr.splitlines() if " = " in ln]
    value = Fraction(line[0].split("(")[1].split(")")[0])
    assert 0 < value <= 1


def test_cli_best_without_a_cap_scans_the_front(tmp_path, monkeypatch):
    """Without --max-depth the whole DAG answers either way: one front of FP against FN,
    no priced queries (and under a cap, the queries)."""
    import importlib

    tree_cli = importlib.import_module("dagger_cli.cli.tree")

    path = tmp_path / "t.csv"
    path.write_text("a,b,y\n0,0,no\n0,1,yes\n1,0,yes\n1,1,no\n1,1,yes\n0,0,no\n")
    asked = []
    real = tree_cli._best_by_prices
    monkeypatch.setattr(tree_cli, "_best_by_prices", lambda *a: asked.append(a) or real(*a))
    for cap, queries in (([], 0), (["--max-depth", "2"], 1)):
        res = CliRunner().invoke(main, ["tree", str(path), "--best", "f1", *cap])
        assert res.exit_code == 0, res.output
        assert "F1 = " in res.stderr and len(asked) == queries


def _lower_hull(points):
    """The vertices of the lower-left convex hull of a staircase (x up, y down)."""
    hull: list = []
    for p in sorted(points):
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 0:
                break
            hull.pop()
        hull.append(p)
    return hull


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(binary=False),
    cap=st.sampled_from([1, 2, 3]),
    which=st.integers(0, 2),
)
def test_the_hull_search_finds_every_vertex_and_bounds_every_tree(data, cap, which):
    """hull_search (no limit): each tree it finds is a point of the exact ROC front, every
    vertex of that front's convex hull is found, and its staircase is at or below the front
    at every point's x, either way round, meeting it at every point found."""
    from dagger_cli.best import Hull, hull_search
    from dagger_cli.engine.anytime import bound_at

    table, _, _, _ = data
    labels = list(table.decision_values)
    table = table.weighted(positive=labels[which % len(labels)])
    positives, negatives = class_split(table)
    hull = Hull()
    hull_search(table, least_of(cap), hull)
    if positives == 0 or negatives == 0:
        assert not hull.trees
        return
    rel = relate(table, "false-positives", "false-negatives", max_depth=cap)
    front = rel.front.points()
    found = {(fp, fn) for fp, fn, _ in hull.trees}
    assert found <= set(front)
    assert set(_lower_hull(front)) <= found | {(0, positives), (negatives, 0)}
    for tree_fp, tree_fn, tree in hull.trees:
        costs = tree.costs()
        assert (costs["false_positives"], costs["false_negatives"]) == (tree_fp, tree_fn)
    for swap, span in ((False, negatives), (True, positives)):
        stairs = hull.staircase(span, swap)
        for x, y in front:
            x, y = (y, x) if swap else (x, y)
            b = bound_at(stairs, x)
            assert b is not None and b <= y
        for x, y in found:
            x, y = (y, x) if swap else (x, y)
            assert bound_at(stairs, x) == y
    coarse = hull.staircase(negatives, most=3)  # a few steps: still below
    for x, y in front:
        b = bound_at(coarse, x)
        assert b is not None and b <= y


def test_an_roc_front_cut_short_keeps_its_supported_points_proven(monkeypatch):
    """Under a time limit that stops the ROC query itself, the supported points found by
    priced queries join the answer, proven, and their staircase leaves no larger gap than
    the answer without them; every invariant of an anytime answer holds."""
    from dagger_cli.engine import anytime
    from dagger_cli.engine.api import solve
    from dagger_cli.engine.progress import TimeLimitReached
    from dagger_cli.engine.query import Query
    from tests.test_anytime import check_answer

    rng = np.random.default_rng(3)
    x = rng.normal(size=(150, 3)).round(2)
    y = np.where(x[:, 0] + x[:, 1] * x[:, 2] + rng.normal(scale=0.8, size=150) > 0, "p", "n")
    df = pd.DataFrame({"a": x[:, 0], "b": x[:, 1], "c": x[:, 2], "y": y})
    table = DecisionTable.from_dataframe(df, thresholds="all").weighted(positive="p")
    query = Query("false-positives", "false-negatives", max_depth=3, time_limit=3600)

    def cut(tb, q):
        if q.max_depth == 3 and q.y_cost.reads_decision:
            raise TimeLimitReached  # the query itself
        return solve(tb, q)

    answers = {}
    for share in (0.25, 0.0):
        monkeypatch.setattr(anytime, "HULL_SHARE", share)
        rel = anytime.solve_within(table, query, cut)
        check_answer(table, query, rel)
        answers[share] = rel
    with_hull, without = answers[0.25], answers[0.0]
    exact = solve(table, query.exact).front.points()
    positives, negatives = class_split(table)
    hull = set(_lower_hull(exact)) - {(0, positives), (negatives, 0)}
    got = dict(zip(with_hull.front.points(), with_hull.proven.tolist()))
    assert hull and all(got.get(p) for p in hull)
    assert max(with_hull.front.gaps) <= max(without.front.gaps)
    assert int(np.count_nonzero(with_hull.proven)) > int(np.count_nonzero(without.proven))


def test_cli_best_within_a_time_limit(tmp_path, monkeypatch):
    """Under --time-limit the queries run within half of it: when they end, the answer is
    theirs and exact (exit 0, no note); when they do not, the front found in the time left
    answers (here small enough to end: the same score)."""
    from dagger_cli import best as best_mod
    from dagger_cli.engine.progress import TimeLimitReached

    path = _csv(tmp_path)
    args = ["tree", str(path), "--thresholds", "all", "--max-depth", "2", "--best", "f1"]
    plain = CliRunner().invoke(main, args)
    limited = CliRunner().invoke(main, [*args, "--time-limit", "1h"])
    assert plain.exit_code == limited.exit_code == 0, limited.output
    assert "not proven" not in limited.stderr
    line = [ln for ln in plain.stderr.splitlines() if " = " in ln]
    assert line and line == [ln for ln in limited.stderr.splitlines() if " = " in ln]

    def late(*a, **k):
        raise TimeLimitReached

    monkeypatch.setattr(best_mod, "best_tree", late)
    scanned = CliRunner().invoke(main, [*args, "--time-limit", "1h"])
    assert scanned.exit_code == 0, scanned.output
    assert line == [ln for ln in scanned.stderr.splitlines() if " = " in ln]
