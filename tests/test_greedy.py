"""Greedy trees (dagger_cli.greedy): validity, costs, sweeps, and the comparison with the
exact front. Validity and costs are checked with the independent tests/evaluate.py."""

from __future__ import annotations

import random
from itertools import permutations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from dagger_cli.costs import COSTS, ROW_COSTS
from dagger_cli.data.table import DecisionTable, example_table
from dagger_cli.engine import relate
from dagger_cli.fronts import Front, pareto
from dagger_cli.greedy import (
    CRITERIA,
    choose_attribute,
    compare,
    comparison_text,
    greedy_depth_sweep,
    greedy_points,
    greedy_sweep,
    greedy_tree,
    sweep_costs,
)
from dagger_cli.trees import tree_costs

try:  # tests/ as a package or as a rootdir-inserted directory
    from .conftest import needs_mirror
    from .evaluate import check_valid_tree, evaluate_tree
    from .oracle import all_cost_vectors
    from .strategies import tables
except ImportError:  # pragma: no cover
    from conftest import needs_mirror
    from evaluate import check_valid_tree, evaluate_tree
    from oracle import all_cost_vectors
    from strategies import tables

COST_PAIRS = tuple(permutations(ROW_COSTS, 2))  # the 20 ordered pairs
LAMBDA, MU = "total-path-length", "misclassifications"


# =========================================================================== helpers
def shape(node):
    """Everything about a tree, as nested tuples (for equality)."""
    if node.is_leaf:
        return ("leaf", node.decision, node.counts)
    return (
        node.attribute,
        node.decision,
        node.counts,
        tuple((v, shape(c)) for v, c in node.children),
    )


def is_pruning(small, big) -> bool:
    """``small`` is ``big`` with some split nodes cut to leaves."""
    if small.counts != big.counts or small.decision != big.decision:
        return False
    if small.is_leaf:
        return True
    if big.is_leaf or small.attribute != big.attribute:
        return False
    return all(
        vs == vb and is_pruning(cs, cb)
        for (vs, cs), (vb, cb) in zip(small.children, big.children, strict=True)
    )


def nodes_of(node, depth=0):
    yield node, depth
    for _, c in node.children:
        yield from nodes_of(c, depth + 1)


def ratio(node):
    return (node.rows - max(node.counts)) / node.rows


def check_tree(table, root):
    """Valid per the independent checker, and tree_costs agrees with the evaluator."""
    header, records = table.to_records()
    check_valid_tree(root.to_dict(), header, records)
    mine = tree_costs(root, table.n_rows)
    theirs = evaluate_tree(root.to_dict(), header, records)
    assert {k: mine[k] for k in theirs} == theirs
    return mine


def build(t, duplicates="merge"):
    return DecisionTable.from_rows(t.rows, t.decisions, duplicates=duplicates)


def random_table(seed, n=12, m=4, values=3, decisions=3):
    rnd = random.Random(seed)
    arity = [rnd.randint(2, values) for _ in range(m)]
    rows = [tuple(rnd.randrange(a) for a in arity) for _ in range(n)]
    return DecisionTable.from_rows(rows, [rnd.randrange(decisions) for _ in range(n)])


def check_everything(table):
    """All the per-table properties of greedy trees and sweeps."""
    for crit in CRITERIA:
        full = greedy_tree(table, crit)
        check_tree(table, full)
        sweep = greedy_sweep(table, crit)
        ths = [th for th, _ in sweep]
        assert ths[0] == 0.0 and ths == sorted(set(ths))
        assert shape(sweep[0][1]) == shape(full)
        assert sweep[-1][1].is_leaf
        costs = [check_tree(table, tree) for _, tree in sweep]
        # the cheap cost computation agrees with the trees
        fast = sweep_costs(table, crit)
        assert [th for th, _ in fast] == ths
        for (_, c), mine in zip(fast, costs):
            assert c == {k: mine[k] for k in c}
        for i, (th, tree) in enumerate(sweep):
            # the threshold rule, node by node
            for node, _ in nodes_of(tree):
                if not node.is_leaf:
                    assert ratio(node) > th
            # greedy_tree with that threshold gives the same tree; so does any θ up to the next
            assert shape(greedy_tree(table, crit, threshold=th)) == shape(tree)
            if i + 1 < len(sweep):
                mid = (th + sweep[i + 1][0]) / 2
                assert shape(greedy_tree(table, crit, threshold=mid)) == shape(tree)
                nxt = sweep[i + 1][1]
                # monotone: a larger θ gives a pruning of the tree, strictly smaller
                assert is_pruning(nxt, tree) and shape(nxt) != shape(tree)
                assert costs[i + 1]["nodes"] < costs[i]["nodes"]
                for k in ("depth", "total_path_length", "leaves"):
                    assert costs[i + 1][k] <= costs[i][k]
                assert costs[i + 1]["misclassifications"] >= costs[i]["misclassifications"]
        assert shape(greedy_tree(table, crit, threshold=1.0)) == shape(sweep[-1][1])
        # depth caps
        dsweep = greedy_depth_sweep(table, crit)
        assert [d for d, _ in dsweep] == list(range(costs[0]["depth"] + 1))
        dfast = sweep_costs(table, crit, "depth")
        for (d, tree), (_, c) in zip(dsweep, dfast):
            mine = check_tree(table, tree)
            assert mine["depth"] == d
            assert c == {k: mine[k] for k in c}
            assert shape(greedy_tree(table, crit, max_depth=d)) == shape(tree)
            assert is_pruning(tree, full)
        assert shape(dsweep[-1][1]) == shape(full)
        # deterministic
        assert [shape(t) for _, t in greedy_sweep(table, crit)] == [shape(t) for _, t in sweep]


# =========================================================================== random tables
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(max_rows=12, max_attributes=4, max_values=3, max_decisions=3))
def test_greedy_trees_valid_and_swept(t):
    check_everything(build(t))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(max_rows=10, max_attributes=3, max_values=3, max_decisions=3))
def test_greedy_trees_with_duplicate_rows_kept(t):
    # equal rows with different decisions: nodes with no non-constant attribute stay leaves
    check_everything(build(t, duplicates="keep"))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(max_rows=7, max_attributes=3, max_values=3, max_decisions=3))
def test_greedy_cost_vectors_are_tree_cost_vectors(t):
    """Every swept tree's cost vector is one of some tree per the brute-force oracle."""
    table = build(t)
    header, records = table.to_records()
    vectors = all_cost_vectors([r[:-1] for r in records], [r[-1] for r in records])
    for crit in CRITERIA:
        for sweep in ("threshold", "depth"):
            for _, c in sweep_costs(table, crit, sweep):
                assert (
                    c["depth"],
                    c["total_path_length"],
                    c["nodes"],
                    c["leaves"],
                    c["misclassifications"],
                ) in vectors


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(max_rows=12, max_attributes=4, max_values=3, max_decisions=3))
def test_greedy_points_never_beat_the_front(t):
    table = build(t)
    front = relate(table).front
    pts = greedy_points(table)
    assert set(pts) == {c + s for c in CRITERIA for s in ("", "/depth")}
    for name, (x, y) in pts.items():
        assert x.size >= 1 and np.all(np.diff(x) > 0) and np.all(np.diff(y) < 0)
        for a, b in zip(x.tolist(), y.tolist()):
            assert front.least_y(a) <= b, (name, a, b, front.points())
    for r in compare(front, pts).values():
        assert r["area"] >= 0
        assert r["extra_x_at_min_y"] is None or r["extra_x_at_min_y"] >= 0
        assert 0 <= r["on_front"] <= r["points"]
        assert r["area_normalized"] is None or 0.0 <= r["area_normalized"] <= 1.0


# =========================================================================== fixed tables
def fixed_tables():
    return (
        [example_table()]
        + [random_table(s) for s in (1, 2, 3)]
        + [random_table(4, n=12, m=3, values=3, decisions=2)]
    )


@pytest.mark.parametrize("k", range(5))
def test_fixed_tables(k):
    check_everything(fixed_tables()[k])


@pytest.mark.parametrize("k", range(5))
def test_all_cost_pairs_never_beat_the_front(k):
    table = fixed_tables()[k]
    trees = [t for c in CRITERIA for _, t in greedy_sweep(table, c)]
    trees += [t for c in CRITERIA for _, t in greedy_depth_sweep(table, c)]
    costs = [tree_costs(t, table.n_rows) for t in trees]
    for x, y in COST_PAIRS:
        front = relate(table, x, y).front
        cx, cy = COSTS[x].column, COSTS[y].column
        for c in costs:
            assert front.least_y(c[cx]) <= c[cy], (x, y, c, front.points())
        pts = greedy_points(table, x, y)
        for gx, gy in pts.values():
            for a, b in zip(gx.tolist(), gy.tolist()):
                assert front.least_y(a) <= b
            # the points are exactly the Pareto filter of the swept trees' costs
        want = [
            (c[cx], c[cy])
            for _, t in greedy_sweep(table, "gini")
            for c in [tree_costs(t, table.n_rows)]
        ]
        wx, wy = np.array(want).T
        keep = pareto(wx, wy)
        assert pts["gini"][0].tolist() == wx[keep].tolist()
        assert pts["gini"][1].tolist() == wy[keep].tolist()
        for r in compare(front, pts).values():
            assert r["area"] >= 0


def test_example_table_by_hand():
    """Paper Fig. 4: f1 separates all four rows; f2 and f3 carry no information.
    Every criterion splits on f1 (ratio 1/2 for gain-ratio vs 0), which is the
    front's point (4, 0); the sweep then gives the leaf, (0, 2)."""
    t = example_table()
    front = relate(t).front
    for crit in CRITERIA:
        sweep = greedy_sweep(t, crit)
        assert [th for th, _ in sweep] == [0.0, 0.5]
        full = sweep[0][1]
        assert full.attribute == "f1" and all(c.is_leaf for _, c in full.children)
        assert [v for v, _ in full.children] == ["0", "1", "2", "3"]
        assert greedy_points(t)[crit][0].tolist() == [0, 4]
        assert greedy_points(t)[crit][1].tolist() == [2, 0]
        r = compare(front, greedy_points(t))[crit]
        assert r == {
            "points": 2,
            "on_front": 2,
            "extra_x_at_min_y": 0,
            "area": 0,
            "area_normalized": 0.0,
        }
        # depth caps: the leaf (d=0) and the full tree (d=1)
        assert [d for d, _ in greedy_depth_sweep(t, crit)] == [0, 1]


# =========================================================================== attribute choice
def cont(*attributes):
    """Contingency tables [attribute][value] = (rows of decision 0, rows of decision 1)."""
    v = max(len(a) for a in attributes)
    out = np.zeros((len(attributes), v, 2), dtype=np.int64)
    for i, a in enumerate(attributes):
        out[i, : len(a)] = a
    return out


# error vs entropy. Node: 5 rows of d=0, 3 of d=1.
#   f1: (5,2) (0,1)  error 2 + 0 = 2; entropy 7·H(2/7) = 7·0.8631 = 6.04 bits
#   f2: (2,0) (3,3)  error 0 + 3 = 3; entropy 0 + 6·H(1/2) = 6 bits
ERR_VS_ENT = cont([(5, 2), (0, 1)], [(2, 0), (3, 3)])
# entropy vs gini. Node: 2 rows of d=0, 5 of d=1.
#   f1: (0,1) (2,4)  entropy 6·H(1/3) = 5.51 bits; gini 6·(1 − 1/9 − 4/9) = 2.667
#   f2: (1,4) (1,1)  entropy 5·H(1/5) + 2 = 5.61 bits; gini 5·(8/25) + 2·(1/2) = 2.6
ENT_VS_GINI = cont([(0, 1), (2, 4)], [(1, 4), (1, 1)])
# entropy vs gain ratio. Node: 2 rows of each decision (n·H = 4 bits).
#   f1: (1,1) (1,0) (0,1)  entropy 2 bits, gain 2; split info 4·H(1/2,1/4,1/4) = 6; ratio 1/3
#   f2: (1,2) (1,0)        entropy 3·H(1/3) = 2.75, gain 1.25; split 4·H(1/4) = 3.25; ratio 0.384
ENT_VS_RATIO = cont([(1, 1), (1, 0), (0, 1)], [(1, 2), (1, 0)])


@pytest.mark.parametrize(
    "table, want, strict",
    [
        # error ties in ENT_VS_GINI (2 and 2) and ENT_VS_RATIO (1 and 1): the first attribute
        (ERR_VS_ENT, {"error": 0, "entropy": 1, "gini": 0, "gain-ratio": 0}, ("error", "entropy")),
        (ENT_VS_GINI, {"error": 0, "entropy": 0, "gini": 1, "gain-ratio": 0}, ("entropy", "gini")),
        (
            ENT_VS_RATIO,
            {"error": 0, "entropy": 0, "gini": 0, "gain-ratio": 1},
            ("entropy", "gain-ratio"),
        ),
    ],
)
def test_choose_attribute_by_hand(table, want, strict):
    assert {c: choose_attribute(table, c) for c in CRITERIA} == want
    # the same attributes listed the other way round: strict choices follow them
    for c in strict:
        assert choose_attribute(table[::-1], c) == 1 - want[c]


def test_choose_attribute_ties_and_constants():
    # equal scores: the first attribute; a constant attribute is never chosen
    same = cont([(1, 0), (0, 1)], [(1, 0), (0, 1)])
    assert {choose_attribute(same, c) for c in CRITERIA} == {0}
    const = cont([(1, 1), (0, 0)], [(0, 1), (1, 0)])
    assert {choose_attribute(const, c) for c in CRITERIA} == {1}
    assert choose_attribute(cont([(1, 1)], [(0, 0), (1, 1)]), "entropy") is None
    # the same partition with its values listed in another order ties exactly
    perm = cont([(3, 1), (1, 2), (0, 4)], [(0, 4), (3, 1), (1, 2)])
    assert {choose_attribute(perm, c) for c in CRITERIA} == {0}
    # error often ties where entropy does not. Node (4, 2):
    #   f1: (2,1) (2,1)  error 2, entropy 6·H(1/3) = 5.51 bits
    #   f2: (3,1) (1,1)  error 2, entropy 4·H(1/4) + 2 = 5.25 bits
    flat = cont([(2, 1), (2, 1)], [(3, 1), (1, 1)])
    assert choose_attribute(flat, "error") == 0
    assert choose_attribute(flat, "entropy") == 1


def test_root_choice_in_a_table():
    """The ERR_VS_ENT node as a real table (duplicate rows kept): error splits on f1,
    entropy on f2, and both trees are valid."""
    rows = [(0, 0)] * 2 + [(0, 1)] * 3 + [(0, 1)] * 2 + [(1, 1)]
    decisions = [0] * 5 + [1] * 3
    t = DecisionTable.from_rows(rows, decisions, duplicates="keep")
    by_error, by_entropy = greedy_tree(t, "error"), greedy_tree(t, "entropy")
    assert by_error.attribute == "f1" and by_entropy.attribute == "f2"
    for tree in (by_error, by_entropy):
        c = check_tree(t, tree)
        assert c["misclassifications"] == 2  # the (0, 1) rows: 3 of d=0, 2 of d=1
    # entropy: f2 = 0 is pure; f2 = 1 -> f1: (0,1) rows 3/2 -> leaf 0, (1,1) -> leaf 1
    assert [v for v, _ in by_entropy.children] == ["0", "1"]
    assert by_entropy.children[0][1].is_leaf
    assert by_entropy.children[1][1].attribute == "f1"
    assert tree_costs(by_entropy, t.n_rows)["total_path_length"] == 8 + 6


def test_unknown_criterion():
    from dagger_cli.errors import InputError

    with pytest.raises(InputError):
        greedy_tree(example_table(), "chi2")
    with pytest.raises(InputError):
        greedy_points(example_table(), "depth", "depth")


# =========================================================================== compare
def test_compare_by_hand():
    front = Front(COSTS[LAMBDA], COSTS[MU], [0, 4, 10], [5, 2, 0], 10)
    pts = {
        # a dominated extra point (7, 3) is filtered out
        "a": (np.array([0, 6, 7, 12]), np.array([5, 2, 3, 0])),
        "b": (np.array([4, 10]), np.array([3, 0])),
        "c": (np.array([0, 4]), np.array([5, 2])),
    }
    r = compare(front, pts)
    # a: X = 12; F_exact = 5 on [0,4), 2 on [4,10), 0 on [10,12);
    #    F_a     = 5 on [0,6), 2 on [6,12): differences 3·2 on [4,6) and 2·2 on [10,12)
    assert r["a"] == {
        "points": 3,
        "on_front": 1,
        "extra_x_at_min_y": 2,
        "area": 10,
        "area_normalized": 10 / (12 * 5),
    }
    # b: nothing before x = 4 -> charged front.y[0] = 5 (no difference); 3 − 2 on [4,10)
    assert r["b"] == {
        "points": 2,
        "on_front": 1,
        "extra_x_at_min_y": 0,
        "area": 6,
        "area_normalized": 6 / (10 * 5),
    }
    # c never reaches y = 0: no extra x; equal to the front on [0, 10)
    assert r["c"] == {
        "points": 2,
        "on_front": 2,
        "extra_x_at_min_y": None,
        "area": 0,
        "area_normalized": 0.0,
    }
    text = comparison_text(front, pts)
    lines = text.splitlines()
    assert "least y = 0 needs x >= 10" in lines[0]
    assert lines[1].split()[:2] == ["heuristic", "points"]
    row_a = next(line for line in lines if line.startswith("a "))
    assert row_a.split() == ["a", "3", "1", "2", "10", "0.1667"]
    row_c = next(line for line in lines if line.startswith("c "))
    assert row_c.split() == ["c", "2", "2", "never", "0", "0.0000"]


def test_compare_single_point_front():
    front = Front(COSTS[LAMBDA], COSTS[MU], [0], [0], 3)
    r = compare(front, {"g": (np.array([0]), np.array([0]))})["g"]
    assert r == {
        "points": 1,
        "on_front": 1,
        "extra_x_at_min_y": 0,
        "area": 0,
        "area_normalized": 0.0,
    }


# =========================================================================== UCI
@needs_mirror
def test_zoo_greedy_against_front():
    from dagger_cli.data.datasets import load_table

    table = load_table("zoo")
    front = relate(table).front
    pts = greedy_points(table)
    for gx, gy in pts.values():
        for a, b in zip(gx.tolist(), gy.tolist()):
            assert front.least_y(a) <= b
    full = check_tree(table, greedy_tree(table, "entropy"))
    assert full["misclassifications"] == 0
    assert full["total_path_length"] >= front.least_x(0)
    res = compare(front, pts)
    assert all(r["area"] >= 0 for r in res.values())
    assert res["entropy"]["extra_x_at_min_y"] == full["total_path_length"] - front.least_x(0)
