"""Counting trees and staged optimisation with weighted rows, class weights, prices, a
minimum leaf size and false positives or negatives (issue 38): every count and every
stage against an independent brute force over every tree
(:func:`tests.oracle.weighted_cost_vector_counts`), a row of weight k against k copies of
it, and the final tree of ``optimize`` re-evaluated on the weighted rows."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.engine.counting import optimize
from dagger_cli.errors import InputError

try:  # tests/ as a package or as a rootdir-inserted directory
    from .oracle import (
        COST_INDEX,
        COST_PAIRS,
        COSTS,
        DECISION_COSTS,
        DECISION_INDEX,
        pareto_front,
        staged_brute,
        weighted_cost_vector_counts,
    )
    from .strategies import tables
    from .test_weights import reevaluate, weighted, weighted_tables
except ImportError:  # pragma: no cover
    from oracle import (
        COST_INDEX,
        COST_PAIRS,
        COSTS,
        DECISION_COSTS,
        DECISION_INDEX,
        pareto_front,
        staged_brute,
        weighted_cost_vector_counts,
    )
    from strategies import tables
    from test_weights import reevaluate, weighted, weighted_tables

SLOW = [HealthCheck.too_slow]
DECISION_PAIRS = [
    (x, y) for x in DECISION_COSTS for y in DECISION_COSTS if x != y and "false" in x + y
]


def brute_counts(vc: Counter, x: str, y: str, index=COST_INDEX):
    """The Pareto front of (x, y) over the trees counted in ``vc`` and the trees at each
    of its points."""
    proj: Counter = Counter()
    for v, k in vc.items():
        proj[(v[index[x]], v[index[y]])] += k
    front = pareto_front(proj)
    return front, [proj[p] for p in front]


def capped(vc: Counter, cap) -> Counter:
    return vc if cap is None else Counter({v: k for v, k in vc.items() if v[0] <= cap})


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    pair=st.sampled_from(COST_PAIRS),
    cap=st.sampled_from([None, 1, 2]),
    k=st.integers(1, 3),
    exact=st.booleans(),
)
def test_weighted_counts_equal_the_brute_force(data, pair, cap, k, exact):
    """relate --count with weights and prices (and a minimum leaf size where
    misclassifications is a cost, or exact trees only): the trees at every point."""
    t, weights, prices = data
    x, y = pair
    k = k if "misclassifications" in pair else 1
    exact = exact and k == 1
    vc = weighted_cost_vector_counts(
        t.rows, t.decisions, weights, prices, cap, min_leaf=k, exact_only=exact
    )
    table = weighted(t, weights, prices).weighted(min_leaf=k)
    if not vc:
        with pytest.raises(InputError):
            relate(table, x, y, max_depth=cap, count=True, exact_only=exact)
        return
    front, counts = brute_counts(vc, x, y)
    rel = relate(table, x, y, max_depth=cap, count=True, exact_only=exact)
    assert rel.front.points() == front
    assert list(rel.front.counts) == counts


@settings(max_examples=120, deadline=None, suppress_health_check=SLOW)
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    pair=st.sampled_from(DECISION_PAIRS),
    cap=st.sampled_from([None, 1, 2]),
    which=st.integers(0, 2),
    k=st.integers(1, 3),
)
def test_false_positive_counts_equal_the_brute_force(data, pair, cap, which, k):
    """A leaf with a choice of two decisions: each tree counted once per labelling of its
    leaves by those choices that is at the point, under a minimum leaf size too (a leaf of
    fewer rows is priced in false positives and negatives as in misclassifications)."""
    t, weights, prices = data
    labels = sorted(set(t.decisions))
    if len(labels) < 2:
        return
    positive = labels[which % len(labels)]
    x, y = pair
    vc = weighted_cost_vector_counts(
        t.rows, t.decisions, weights, prices, cap, min_leaf=k, positive=positive
    )
    front, counts = brute_counts(vc, x, y, DECISION_INDEX)
    table = weighted(t, weights, prices).weighted(positive=positive, min_leaf=k)
    rel = relate(table, x, y, max_depth=cap, count=True)
    assert rel.front.points() == front
    assert list(rel.front.counts) == counts


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(
    t=tables(max_rows=6, max_attributes=3, max_values=3, max_decisions=3),
    data=st.data(),
    pair=st.sampled_from(COST_PAIRS),
    cap=st.sampled_from([None, 2]),
)
def test_counts_of_a_row_of_weight_k_are_those_of_k_copies(t, data, pair, cap):
    weights = data.draw(st.lists(st.integers(1, 3), min_size=t.n_rows, max_size=t.n_rows))
    rows = [r for r, w in zip(t.rows, weights) for _ in range(w)]
    decs = [d for d, w in zip(t.decisions, weights) for _ in range(w)]
    copies = DecisionTable.from_rows(rows, decs)
    once = DecisionTable.from_rows(list(t.rows), list(t.decisions)).weighted(weights)
    a = relate(copies, *pair, max_depth=cap, count=True)
    b = relate(once, *pair, max_depth=cap, count=True)
    assert a.front.points() == b.front.points()
    assert a.front.counts == b.front.counts


ORDERS = st.permutations(COSTS).flatmap(
    lambda p: st.integers(1, len(p)).map(lambda k: tuple(p[:k]))
)


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    order=ORDERS,
    cap=st.sampled_from([None, 1, 2]),
    k=st.integers(1, 3),
    exact=st.booleans(),
)
def test_weighted_stages_equal_filtering_every_tree(data, order, cap, k, exact):
    """optimize with weights, prices and a minimum leaf size (or exact trees only): every
    stage's least value and trees left against filtering every tree; the final tree
    re-evaluates to the stages on the weighted rows, and its leaves hold k rows."""
    t, weights, prices = data
    exact = exact and k == 1
    vc = capped(
        weighted_cost_vector_counts(
            t.rows, t.decisions, weights, prices, min_leaf=k, exact_only=exact
        ),
        cap,
    )
    table = weighted(t, weights, prices).weighted(min_leaf=k)
    if not vc:
        with pytest.raises(InputError, match="no tree has depth"):
            optimize(table, list(order), exact_only=exact, max_depth=cap)
        return
    res = optimize(table, list(order), exact_only=exact, max_depth=cap)
    assert [(s.value, s.trees) for s in res.stages] == staged_brute(vc, order)
    for rec in res.total_optimality:
        assert rec["least"] == min(v[COST_INDEX[rec["cost"]]] for v in vc)
    costs = res.tree.costs()
    for s in res.stages:
        assert costs[s.cost.replace("-", "_")] == s.value
    again = reevaluate(res.tree, t, weights, prices)
    for name, value in again.items():
        assert costs[name] == value
    if res.tree.root.children:
        reached = Counter(id(_leaf_of(res.tree.root, table, i)) for i in range(table.n_rows))
        assert min(reached.values()) >= k


def _leaf_of(root, table, i: int):
    """The leaf row ``i`` of ``table`` reaches."""
    names = list(table.attributes)
    node = root
    while not node.is_leaf:
        a = names.index(node.attribute)
        value = table.values[a][int(table.codes[a][i])]
        node = next(c for v, c in node.children if v == value)
    return node


@settings(max_examples=60, deadline=None, suppress_health_check=SLOW)
@given(
    t=tables(max_rows=6, max_attributes=3, max_values=3, max_decisions=3),
    data=st.data(),
    order=ORDERS,
    cap=st.sampled_from([None, 2]),
)
def test_stages_of_a_row_of_weight_k_are_those_of_k_copies(t, data, order, cap):
    weights = data.draw(st.lists(st.integers(1, 3), min_size=t.n_rows, max_size=t.n_rows))
    rows = [r for r, w in zip(t.rows, weights) for _ in range(w)]
    decs = [d for d, w in zip(t.decisions, weights) for _ in range(w)]
    copies = DecisionTable.from_rows(rows, decs)
    once = DecisionTable.from_rows(list(t.rows), list(t.decisions)).weighted(weights)
    a = optimize(copies, list(order), max_depth=cap)
    b = optimize(once, list(order), max_depth=cap)
    assert [(s.value, s.trees) for s in a.stages] == [(s.value, s.trees) for s in b.stages]
    assert a.tree.costs() == b.tree.costs()


def test_optimize_refuses_min_leaf_with_exact_trees():
    t = DecisionTable.from_rows([(0,), (1,)], ["a", "b"]).weighted(min_leaf=2)
    with pytest.raises(InputError, match="--min-leaf and --exact-only"):
        optimize(t, "misclassifications", exact_only=True)


DECISION_ORDERS = st.permutations(DECISION_COSTS).flatmap(
    lambda p: st.integers(1, 4).map(lambda k: tuple(p[:k]))
)


def staged(vc: Counter, order) -> list:
    """Filter the (tree, labelling) pairs stage by stage (tests/oracle.py's staged_brute
    over vectors with false positives and negatives)."""
    left = dict(vc)
    out = []
    for name in order:
        i = DECISION_INDEX[name]
        best = min(v[i] for v in left)
        left = {v: k for v, k in left.items() if v[i] == best}
        out.append((best, sum(left.values())))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=SLOW)
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    order=DECISION_ORDERS,
    cap=st.sampled_from([None, 1, 2]),
    which=st.integers(0, 2),
    k=st.integers(1, 3),
)
def test_stages_with_false_positives_equal_filtering_every_labelling(data, order, cap, which, k):
    """Stages of false positives or negatives: a leaf takes either of its two decisions,
    and the trees left are the (tree, labelling) pairs left; the final tree's leaves take
    the decisions that reach the stages, under a minimum leaf size too, without
    misclassifications before them (a leaf of fewer rows is priced in them too)."""
    t, weights, prices = data
    labels = sorted(set(t.decisions))
    if len(labels) < 2:
        return
    positive = labels[which % len(labels)]
    names = list(order)
    decides = [n for n in names if "false" in n]
    table = weighted(t, weights, prices).weighted(positive=positive, min_leaf=k)
    vc = capped(
        weighted_cost_vector_counts(
            t.rows, t.decisions, weights, prices, min_leaf=k, positive=positive
        ),
        cap,
    )
    if not decides:  # one decision per leaf (its least price): trees, not labellings
        vc = capped(
            weighted_cost_vector_counts(t.rows, t.decisions, weights, prices, min_leaf=k), cap
        )
    res = optimize(table, names, max_depth=cap)
    want = staged(vc, names) if decides else staged_brute(vc, names)
    assert [(s.value, s.trees) for s in res.stages] == want
    for rec in res.total_optimality:
        assert rec["least"] == min(v[DECISION_INDEX[rec["cost"]]] for v in vc)
    costs = res.tree.costs()
    for s in res.stages:
        assert costs[s.cost.replace("-", "_")] == s.value
    again = reevaluate(res.tree, t, weights, prices)
    assert again["misclassifications"] == costs["misclassifications"]


def test_optimize_false_positives_need_a_positive_class():
    t = DecisionTable.from_rows([(0,), (1,), (2,)], ["a", "b", "c"])
    with pytest.raises(InputError, match="give --positive CLASS"):
        optimize(t, "false-positives")
    with pytest.raises(InputError, match="--exact-only with false positives"):
        optimize(t.weighted(positive="a"), "false-positives", exact_only=True)
