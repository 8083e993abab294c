"""The depth-two layer on weighted rows (issue 38): row weights, class weights, a price
matrix and a minimum leaf size read from the counts of the rows' classes of (decision,
weight) (``dagger_cli.engine.kernels.depth_two.weighted_leaves``).

The oracle is the weighted DAG without the layer (``depth_two=False``, itself checked
against a brute force in test_weights.py): the same fronts and the same trees, ties
included, for every cost pair the layer serves, on 0/1 tables with two classes (the
specialised pair loop), on tables of more values and classes (the generic one) and with
an attribute of many values (counted row by row); and on tiny tables the brute force of
tests/oracle.py over every tree and every labelling of its leaves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.engine.dag import D2_MAX_CLASSES, depth_two_serves
from dagger_cli.trees import extract_tree
from tests.evaluate import route
from tests.oracle import COST_PAIRS, pareto_front, project, weighted_cost_vectors

SLOW = [HealthCheck.too_slow]
COLUMN = {"total-path-length": "total_path_length"}
KINDS = ("uniform", "rows", "class", "prices", "min-leaf", "all")


@st.composite
def weighted_tables(draw, binary: bool, many: bool = False):
    """A random table of up to 50 rows (``binary``: 0/1 attributes, two decisions), with
    ``many`` an attribute of up to 30 values, weighted by one of :data:`KINDS`: every row
    the same weight, rows of weight 1-4, class weights, a price matrix, a minimum leaf
    size, or all of them. Returns the table, its rows' weights and prices (for the
    re-evaluation of trees; None: 1 a wrong decision) and its minimum leaf size."""
    m = draw(st.integers(2, 6))
    n = draw(st.integers(2, 50))
    values = 2 if binary else draw(st.integers(2, 4))
    decisions = 2 if binary else draw(st.integers(2, 3))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    X = rng.integers(0, values, size=(n, m))
    if many:
        X[:, rng.integers(0, m)] = rng.integers(0, 30, size=n)
    if draw(st.booleans()):  # a structured decision with noise: longer fronts
        y = (X[:, 0] + X[:, -1] * X[:, m // 2]) % decisions
        flip = rng.random(n) < 0.15
        y[flip] = rng.integers(0, decisions, size=int(flip.sum()))
    else:
        y = rng.integers(0, decisions, size=n)
    t = DecisionTable.from_rows(X.tolist(), y.tolist())
    k = len(t.decision_values)
    kind = draw(st.sampled_from(KINDS))
    weights = [1] * n
    class_weight = prices = None
    min_leaf = 1
    if kind in ("uniform",):
        weights = [draw(st.integers(2, 5))] * n
    if kind in ("rows", "all"):
        weights = rng.integers(1, 5, size=n).tolist()
    if kind in ("class", "all"):
        class_weight = {v: int(rng.integers(1, 4)) for v in t.decision_values}
    if kind in ("prices", "all"):
        prices = rng.integers(0, 4, size=(k, k))
        prices[np.eye(k, dtype=bool)] = rng.integers(0, 2, size=k)
        prices = prices.tolist()
    if kind in ("min-leaf", "all"):
        min_leaf = draw(st.integers(2, 6))
    table = t.weighted(weights, class_weight=class_weight, prices=prices)
    if min_leaf > 1:
        table = table.weighted(min_leaf=min_leaf)
    row_weights = [
        w * (1 if class_weight is None else class_weight[t.decision_values[d]])
        for w, d in zip(weights, t.decisions.tolist())
    ]
    return table, row_weights, prices, min_leaf


def served(table, min_leaf):
    """The cost pairs the layer serves on ``table`` (a minimum leaf size needs
    misclassifications among the two)."""
    pairs = [p for p in COST_PAIRS if min_leaf == 1 or "misclassifications" in p]
    return [p for p in pairs if depth_two_serves(table, COSTS[p[0]], COSTS[p[1]])]


def reevaluate(tree, table, weights, prices) -> dict:
    """An extracted tree's weighted costs on the table's rows, each row routed by
    tests/evaluate.py and counted ``weights[i]`` times, a leaf's decision priced."""
    header, records = table.to_records()
    data = tree.to_dict()["tree"]
    code = {v: k for k, v in enumerate(table.decision_values)}
    total = mis = 0
    for i, rec in enumerate(records):
        leaf, depth, _ = route(data, header, rec)
        c, d = code[rec[-1]], code[leaf["decision"]]
        total += weights[i] * depth
        mis += weights[i] * (int(c != d) if prices is None else prices[c][d])
    return {"total_path_length": total, "misclassifications": mis}


def same(table, x, y, depth, weights, prices, **bounds):
    """Layer on and off: the same front, the same trees; every tree of depth <= D,
    re-evaluating to its point."""
    on = relate(table, x, y, max_depth=depth, depth_two=True, **bounds)
    off = relate(table, x, y, max_depth=depth, depth_two=False, **bounds)
    assert off.stats.depth_two is None
    if depth < table.n_attributes:
        assert on.stats.depth_two is not None
    assert on.front.points() == off.front.points()
    for k, (px, py) in enumerate(on.front.points()):
        a = extract_tree(on, k)
        assert a.root.to_dict() == extract_tree(off, k).root.to_dict(), k
        costs = a.costs()
        assert (costs[COLUMN.get(x, x)], costs[COLUMN.get(y, y)]) == (px, py)
        assert costs["depth"] <= depth
        again = reevaluate(a, table, weights, prices)
        for name in (x, y):
            if COLUMN.get(name, name) in again:
                assert again[COLUMN.get(name, name)] == costs[COLUMN.get(name, name)]
    return on


@pytest.mark.parametrize("shape", ["binary", "generic", "many-values"])
@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
@given(data=st.data(), depth=st.integers(2, 4))
def test_weighted_layer_equals_the_dag(shape, data, depth):
    """Every cost pair the layer serves: layer on and off agree, trees included."""
    table, weights, prices, min_leaf = data.draw(
        weighted_tables(binary=shape == "binary", many=shape == "many-values")
    )
    for x, y in served(table, min_leaf):
        same(table, x, y, depth, weights, prices)


@settings(max_examples=25, deadline=None, suppress_health_check=SLOW)
@given(data=st.data(), depth=st.integers(2, 3), pair=st.sampled_from(COST_PAIRS))
def test_weighted_layer_within_bounds(data, depth, pair):
    """Bounds on x and y pushed into the layer (its fronts trimmed by the subtables'
    weights) keep the same points as the DAG's."""
    table, weights, prices, min_leaf = data.draw(weighted_tables(binary=data.draw(st.booleans())))
    x, y = pair
    if (x, y) not in served(table, min_leaf):
        return
    full = relate(table, x, y, max_depth=depth, depth_two=False).front
    k = data.draw(st.integers(0, len(full) - 1))
    bound = data.draw(st.sampled_from(["max_x", "max_y"]))
    value = int(full.x[k]) if bound == "max_x" else int(full.y[k])
    same(table, x, y, depth, weights, prices, **{bound: value})


@st.composite
def tiny(draw):
    m = draw(st.integers(3, 4))
    n = draw(st.integers(2, 7))
    values = draw(st.integers(2, 3))
    decisions = draw(st.integers(2, 3))
    rows = [tuple(draw(st.integers(0, values - 1)) for _ in range(m)) for _ in range(n)]
    decs = [str(draw(st.integers(0, decisions - 1))) for _ in range(n)]
    weights = draw(st.lists(st.integers(1, 4), min_size=n, max_size=n))
    labels = sorted(set(decs))
    prices = None
    if draw(st.booleans()):
        prices = {c: {d: draw(st.integers(0, 3)) for d in labels} for c in labels}
    return rows, decs, weights, prices, draw(st.sampled_from([1, 1, 2, 3]))


@settings(max_examples=80, deadline=None, suppress_health_check=SLOW)
@given(data=tiny(), pair=st.sampled_from(COST_PAIRS), depth=st.integers(2, 3))
def test_weighted_layer_equals_the_brute_force(data, pair, depth):
    """Tiny tables: the layer's front against every tree and every labelling of its
    leaves (tests/oracle.py), weights, prices and a minimum leaf size."""
    rows, decs, weights, prices, k = data
    x, y = pair
    if k > 1 and "misclassifications" not in pair:
        return
    t = DecisionTable.from_rows([list(r) for r in rows], decs)
    dv = t.decision_values
    matrix = None if prices is None else [[prices[c][d] for d in dv] for c in dv]
    table = t.weighted(weights, prices=matrix)
    if k > 1:
        table = table.weighted(min_leaf=k)
    want = pareto_front(project(weighted_cost_vectors(rows, decs, weights, prices, depth, k), x, y))
    rel = relate(table, x, y, max_depth=depth, depth_two=True)
    if depth < len(rows[0]):
        assert rel.stats.depth_two is not None
    assert rel.front.points() == want


def test_the_layer_serves_what_it_reads_exactly():
    """Row costs with weights, class weights, prices, a minimum leaf size: served; false
    positives and negatives (a leaf of two points) and rows of more than
    D2_MAX_CLASSES (decision, weight) pairs: the DAG's last levels, the same front."""
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, size=(150, 6)).tolist()
    y = rng.integers(0, 2, size=150).tolist()
    t = DecisionTable.from_rows(X, y)
    few = t.weighted([2] * 150, prices=[[0, 1], [3, 0]]).weighted(min_leaf=3)
    rel = relate(few, "depth", "misclassifications", max_depth=3)
    assert rel.stats.depth_two
    fp = relate(few.weighted(positive="1"), "false-negatives", "misclassifications", max_depth=3)
    assert fp.stats.depth_two is None
    many = t.weighted(list(range(1, 151)))
    assert not depth_two_serves(many, COSTS["depth"], COSTS["misclassifications"])
    off = relate(many, "depth", "misclassifications", max_depth=3)
    assert off.stats.depth_two is None
    assert D2_MAX_CLASSES < 150
    forced = relate(many, "depth", "misclassifications", max_depth=3, depth_two=True)
    assert forced.stats.depth_two is None and forced.front.points() == off.front.points()


def test_weight_two_on_every_row_doubles_the_row_costs():
    """Weight 2 on every row: the layer's fronts are the unweighted ones with the costs
    that count rows doubled, on both pair loops."""
    for values, decisions in ((2, 2), (3, 3)):
        rng = np.random.default_rng(values)
        X = rng.integers(0, values, size=(120, 9)).tolist()
        y = rng.integers(0, decisions, size=120).tolist()
        t = DecisionTable.from_rows(X, y)
        for x, yc in (("depth", "misclassifications"), ("total-path-length", "misclassifications")):
            a = relate(t, x, yc, max_depth=3)
            b = relate(t.weighted([2] * 120), x, yc, max_depth=3)
            assert a.stats.depth_two and b.stats.depth_two
            sx = 2 if x == "total-path-length" else 1
            assert b.front.points() == [(sx * p, 2 * q) for p, q in a.front.points()]
