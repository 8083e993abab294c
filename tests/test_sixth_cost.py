"""A sixth cost is one entry in ``costs.COSTS``: everything else derives from the entries.

The fixture registers ``internal-nodes`` (leaf 0, split 1 + sum: the number of split nodes)
and the tests run it through both engines (against the brute-force oracle, which knows
nothing of it: internal nodes = nodes - leaves), tree extraction and evaluation, the greedy
comparison and the CSV/JSON outputs.
"""

import json
import random

import numpy as np
import pytest

from dagger_cli import costs
from dagger_cli.costs import COSTS, SUM, Cost
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.greedy import (
    CRITERIA,
    compare,
    comparison_text,
    greedy_depth_sweep,
    greedy_points,
    greedy_sweep,
)
from dagger_cli.output import front_csv, front_json
from dagger_cli.trees import extract_tree
from tests.oracle import COST_INDEX, all_cost_vectors, pareto_front

NAME, COLUMN = "internal-nodes", "internal_nodes"
PAIRS = [
    (NAME, "misclassifications"),
    ("misclassifications", NAME),
    (NAME, "total-path-length"),
    ("depth", NAME),
]


@pytest.fixture
def internal_nodes(monkeypatch):
    cost = Cost(NAME, COLUMN, "Internal nodes", SUM, 0, 0, 1, 0, "split nodes")
    monkeypatch.setitem(costs.COSTS, NAME, cost)
    return cost


def _tables(count=25, seed=12):
    """Small random tables (repeated rows kept, so some subtables cannot be split)."""
    rnd = random.Random(seed)
    out = []
    for k in range(count):
        n, m = rnd.randint(2, 7), rnd.randint(1, 3)
        rows = [tuple(rnd.randrange(3) for _ in range(m)) for _ in range(n)]
        decisions = [rnd.randrange(3) for _ in range(n)]
        out.append(DecisionTable.from_rows(rows, decisions, name=f"r{k}", duplicates="keep"))
    return out


def _brute(table, x, y):
    """The oracle's front, with internal nodes computed as nodes - leaves."""

    def value(vec, name):
        if name == NAME:
            return vec[COST_INDEX["nodes"]] - vec[COST_INDEX["leaves"]]
        return vec[COST_INDEX[name]]

    vectors = all_cost_vectors(table.rows(), table.decision_labels())
    return pareto_front({(value(v, x), value(v, y)) for v in vectors})


def _splits_and_misses(node):
    """Internal nodes and misclassifications of a tree, counted directly."""
    if node.is_leaf:
        return 0, node.rows - max(node.counts)
    parts = [_splits_and_misses(c) for _, c in node.children]
    return 1 + sum(p[0] for p in parts), sum(p[1] for p in parts)


def test_the_fixture_adds_a_cost(internal_nodes):
    assert list(COSTS)[-1] == NAME and len(COSTS) == len(costs.ROW_COSTS) + 2 + 1


@pytest.mark.parametrize("engine", ["fast", "baseline"])
def test_relate_with_a_sixth_cost_matches_the_brute_force(internal_nodes, engine):
    splitting = 0
    for table in _tables():
        for x, y in PAIRS:
            rel = relate(table, x, y, engine=engine)
            assert rel.front.points() == _brute(table, x, y), (table.name, x, y)
            splitting += len(rel.front) > 1
    assert splitting > 20  # the fronts are not all single leaves


def test_trees_of_a_sixth_cost(internal_nodes):
    seen = 0
    for table in _tables():
        rel = relate(table, NAME, "misclassifications")
        for k, (a, b) in enumerate(rel.front.points()):
            tree = extract_tree(rel, k)
            assert _splits_and_misses(tree.root) == (a, b)
            c = tree.costs()
            assert (c[COLUMN], c["misclassifications"]) == (a, b)
            assert c[COLUMN] == c["nodes"] - c["leaves"]
            assert tree.costs(table.to_dataframe()) == c
            assert json.loads(tree.to_json())["costs"][COLUMN] == a
            assert f"{COLUMN}={a}" in tree.to_text().splitlines()[0]
            seen += a > 0
    assert seen > 10


def test_greedy_comparison_with_a_sixth_cost(internal_nodes):
    for table in _tables(count=10):
        rel = relate(table, NAME, "misclassifications")
        points = greedy_points(table, NAME, "misclassifications")
        for crit in CRITERIA:
            trees = [t for _, t in greedy_sweep(table, crit)]
            by_depth = [t for _, t in greedy_depth_sweep(table, crit)]
            for name, swept in ((crit, trees), (f"{crit}/depth", by_depth)):
                want = pareto_front({_splits_and_misses(t) for t in swept})
                gx, gy = points[name]
                assert list(zip(gx.tolist(), gy.tolist())) == want, (table.name, name)
                # No greedy tree is better than the exact front.
                for a, b in want:
                    assert rel.front.least_y(a) <= b
        result = compare(rel.front, points)
        assert set(result) == set(points)
        assert all(r["area"] >= 0 for r in result.values())
        assert f"x = {NAME}, y = misclassifications" in comparison_text(rel.front, points)


def test_outputs_with_a_sixth_cost(internal_nodes):
    table = DecisionTable.from_rows([(0, 0, 1), (1, 0, 1), (2, 1, 0), (3, 1, 0)], [0, 1, 0, 1])
    rel = relate(table, NAME, "total-path-length", exact_only=True)
    text = front_csv(rel.front)
    lines = text.splitlines()
    assert lines[0] == "internal_nodes,total_path_length,average_depth"
    pts = rel.front.points()
    assert [tuple(map(float, ln.split(","))) for ln in lines[1:]] == [
        (a, b, b / table.n_rows) for a, b in pts
    ]
    doc = json.loads(front_json(rel.front, table=table))
    assert doc["x"] == NAME and doc["points"][0][COLUMN] == pts[0][0]
    assert np.array_equal(rel.front.x, [a for a, _ in pts])
