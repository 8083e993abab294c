"""The depth cap (``max_depth``): exact fronts over the trees of depth <= D.

The fast and baseline engines against an independent brute force that enumerates every
tree of depth <= D (tests/oracle.py), for every ordered cost pair, D = 0..3, with and
without ``exact_only``; extracted trees re-evaluated by routing rows (tests/evaluate.py);
pairs with x = depth against the uncapped front; thread-count independence.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree, tree_for
from tests.evaluate import check_valid_tree, evaluate_tree
from tests.oracle import COST_INDEX, COST_PAIRS, capped_cost_vectors, pareto_front
from tests.strategies import mixed_tables
from tests.test_fast_engine import random_table

SLOW = [HealthCheck.too_slow]
KEY = {"total-path-length": "total_path_length"}


def _table(data, duplicates):
    return DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates=duplicates)


def _brute(t, x, y, depth, exact_only=False):
    vecs = capped_cost_vectors(t.rows(), t.decision_labels(), depth, exact_only)
    return pareto_front([(v[COST_INDEX[x]], v[COST_INDEX[y]]) for v in vecs])


def _check_trees(rel, t, x, y, depth):
    header, records = t.to_records()
    for k, (px, py) in enumerate(rel.front.points()):
        tree = extract_tree(rel, k)
        d = tree.root.to_dict()
        check_valid_tree(d, header, records)
        c = evaluate_tree(d, header, records)
        assert (c[KEY.get(x, x)], c[KEY.get(y, y)]) == (px, py), (k, c, d)
        assert c["depth"] <= depth, (k, c, d)


@pytest.mark.parametrize("x,y", COST_PAIRS, ids=[f"{x}-vs-{y}" for x, y in COST_PAIRS])
@settings(max_examples=15, deadline=None, suppress_health_check=SLOW)
@given(
    data=mixed_tables(max_rows=8),
    depth=st.integers(0, 3),
    duplicates=st.sampled_from(["keep", "merge"]),
)
def test_capped_fronts_match_bruteforce(x, y, data, depth, duplicates):
    """fast == baseline == every tree of depth <= D enumerated; trees realise the points."""
    t = _table(data, duplicates)
    want = _brute(t, x, y, depth)
    fast = relate(t, x, y, max_depth=depth)
    assert fast.front.points() == want
    base = relate(t, x, y, engine="baseline", max_depth=depth)
    assert base.front.points() == want
    # Every subtable within D splits built (no depth-two layer): the baseline's DAG.
    slow = relate(t, x, y, max_depth=depth, depth_two=False)
    assert slow.front.points() == want
    s, b = slow.stats, base.stats
    assert (s.subtables, s.terminal, s.bundles, s.edges) == (
        b.subtables,
        b.terminal,
        b.bundles,
        b.edges,
    )
    _check_trees(fast, t, x, y, depth)


@pytest.mark.parametrize("x,y", COST_PAIRS, ids=[f"{x}-vs-{y}" for x, y in COST_PAIRS])
@settings(max_examples=15, deadline=None, suppress_health_check=SLOW)
@given(
    data=mixed_tables(max_rows=8),
    depth=st.integers(0, 3),
    duplicates=st.sampled_from(["keep", "merge"]),
)
def test_capped_exact_only_matches_bruteforce(x, y, data, depth, duplicates):
    """Exact trees only under a cap: the same, and a clear error when there is none."""
    t = _table(data, duplicates)
    want = _brute(t, x, y, depth, exact_only=True)
    for engine in ("fast", "baseline"):
        if not want:
            with pytest.raises(InputError, match="every tree of depth <= "):
                relate(t, x, y, engine=engine, max_depth=depth, exact_only=True)
            continue
        rel = relate(t, x, y, engine=engine, max_depth=depth, exact_only=True)
        assert rel.front.points() == want, engine
        if engine == "fast":
            _check_trees(rel, t, x, y, depth)


@pytest.mark.parametrize("y", ["total-path-length", "nodes", "leaves", "misclassifications"])
@settings(max_examples=30, deadline=None, suppress_health_check=SLOW)
@given(data=mixed_tables(max_rows=8), depth=st.integers(0, 4), exact=st.booleans())
def test_depth_x_is_uncapped_prefix(y, data, depth, exact):
    """With x = depth, the capped front is the uncapped front's points of depth <= D."""
    t = _table(data, "keep")
    full = relate(t, "depth", y, exact_only=exact).front.points()
    want = [p for p in full if p[0] <= depth]
    if not want:
        with pytest.raises(InputError):
            relate(t, "depth", y, exact_only=exact, max_depth=depth)
        return
    assert relate(t, "depth", y, exact_only=exact, max_depth=depth).front.points() == want
    # and its mirror image, with y = depth
    mirror = relate(t, y, "depth", exact_only=exact).front.points()
    assert relate(t, y, "depth", exact_only=exact, max_depth=depth).front.points() == [
        p for p in mirror if p[1] <= depth
    ]


MEDIUM = [(7, 60, 2, 2, 1, False), (6, 80, 3, 3, 2, True), (10, 200, 2, 2, 5, True)]


@pytest.mark.parametrize("m,n,values,decisions,seed,structured", MEDIUM)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_capped_fast_equals_baseline_on_medium_tables(
    m, n, values, decisions, seed, structured, depth
):
    table = random_table(m, n, values, decisions, seed, structured)
    for x, y in (("total-path-length", "misclassifications"), ("depth", "misclassifications")):
        fast = relate(table, x, y, max_depth=depth)
        base = relate(table, x, y, engine="baseline", max_depth=depth)
        assert fast.front.points() == base.front.points()
        s, b = relate(table, x, y, max_depth=depth, depth_two=False).stats, base.stats
        assert (s.subtables, s.terminal, s.bundles, s.edges) == (
            b.subtables,
            b.terminal,
            b.bundles,
            b.edges,
        )
        assert s.max_depth == depth and s.subproblems >= s.subtables
        for k in range(len(fast.front)):
            tree = extract_tree(fast, k)
            c = tree.costs(table.to_dataframe())
            assert (c[KEY.get(x, x)], c[KEY.get(y, y)]) == fast.front.points()[k]
            assert c["depth"] <= depth


def test_cap_at_least_attributes_is_uncapped():
    table = random_table(5, 60, 2, 2, 3, True)
    full = relate(table)
    for depth in (5, 6, 50):
        capped = relate(table, max_depth=depth)
        assert capped.front.points() == full.front.points()
        assert capped.stats == full.stats
        assert relate(table, engine="baseline", max_depth=depth).front.points() == (
            full.front.points()
        )


def test_depth_zero_is_the_leaf():
    table = random_table(4, 30, 2, 2, 4, False)
    rel = relate(table, "depth", "misclassifications", max_depth=0)
    mis = table.n_rows - int(np.bincount(table.decisions).max())
    assert rel.front.points() == [(0, mis)]
    assert rel.stats.subtables == 1 and rel.stats.bundles == 0
    assert tree_for(rel, max_y=mis).root.is_leaf


def test_bad_max_depth():
    table = random_table(3, 10, 2, 2, 5, False)
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(InputError, match="max_depth"):
            relate(table, max_depth=bad)
    with pytest.raises(InputError, match="paper engine"):
        relate(table, engine="paper", max_depth=2)


def test_capped_threads_independent(monkeypatch):
    from dagger_cli.engine import threads

    table = random_table(9, 300, 2, 2, 11, True)
    runs = []
    for count in (1, 2):
        monkeypatch.setenv("DAGGER_THREADS", str(count))
        threads.CALLS.clear()
        rel = relate(table, max_depth=3)
        assert set(threads.CALLS) == {count}  # every kernel call had that count
        runs.append((rel.front.points(), rel.stats, rel.store.fxy.tobytes()))
    assert runs[0] == runs[1]


def test_capped_greedy_trees_stay_within_the_cap():
    from dagger_cli.greedy import compare, greedy_points

    table = random_table(8, 120, 3, 2, 6, True)
    for depth in (1, 2):
        rel = relate(table, "depth", "misclassifications", max_depth=depth)
        points = greedy_points(table, "depth", "misclassifications", max_depth=depth)
        for xs, ys in points.values():
            assert xs.max() <= depth
            # no greedy tree of depth <= D beats the capped exact front
            for gx, gy in zip(xs, ys):
                assert rel.front.least_y(int(gx)) <= gy
        assert set(compare(rel.front, points)) == set(points)
