"""The decision-rule kernels (``core/rules.cpp``, :mod:`dagger_cli.rules.kernels`) on their
own, against independent slow paths and invariants: the rule chosen among equal points is
the smallest DAG node (the tie rule the kernel documents), the class counts are the nodes'
rows counted by numpy, each node's discoverer is its first parent in node order, the
resumable front kernel resumed in tiny work budgets and output arrays ends exactly as one
call does, and a wrong dtype is refused. The fronts themselves are checked against the
brute force in tests/test_rules.py, one thread against two there too."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli import _core
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine.dag import build_dag
from dagger_cli.rules import kernels as rk
from dagger_cli.rules import rules

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PAIRS = [
    ("length", "coverage"),
    ("coverage", "length"),
    ("length", "misclassifications"),
    ("coverage", "misclassifications"),
    ("misclassifications", "coverage"),
]


def _random_table(n=60, m=5, values=3, classes=3, seed=7):
    rng = np.random.default_rng(seed)
    rows = [tuple(int(v) for v in rng.integers(0, values, m)) for _ in range(n)]
    return DecisionTable.from_rows(rows, [str(v) for v in rng.integers(0, classes, n)])


def _check_tie_rule(table, pair, max_length, max_mis) -> int:
    """Each front point's rule is the DAG node of the least number among the nodes that
    hold the row with the point's three costs (length, coverage, misclassifications of
    the row's decision). Returns how many points had such a tie."""
    res = rules(table, *pair, max_length=max_length, max_misclassifications=max_mis)
    prepared = res.table
    cap = max_length if max_length is not None and max_length < prepared.n_attributes else None
    dag = build_dag(prepared, max_depth=cap, special=False)
    dec = prepared.decisions
    n_nodes = dag.node_size.size
    member = np.zeros((n_nodes, prepared.n_rows), bool)
    wrong = np.zeros((n_nodes, int(dec.max(initial=0)) + 1), np.int64)  # rows not of class c
    for v in range(n_nodes):
        rows = dag.rows(v)
        member[v, rows] = True
        wrong[v] = rows.size - np.bincount(dec[rows], minlength=wrong.shape[1])
    ties = 0
    for r in range(prepared.n_rows):
        for p in range(int(res.front_start[r]), int(res.front_start[r + 1])):
            node = int(res.point_node[p])
            triple = (int(res.point_length[p]), int(res.point_coverage[p]), int(res.point_mis[p]))
            assert member[node, r]
            assert (dag.node_level[node], dag.node_size[node], wrong[node, dec[r]]) == triple
            same = np.flatnonzero(
                member[:, r]
                & (dag.node_level == triple[0])
                & (dag.node_size == triple[1])
                & (wrong[:, dec[r]] == triple[2])
            )
            assert node == same.min(), (r, triple, node, same)
            ties += same.size > 1
    return ties


@SETTINGS
@given(
    tables(max_rows=12, max_attributes=4, max_values=4),
    st.sampled_from(PAIRS),
    st.sampled_from([None, 1, 2]),
    st.sampled_from([None, 0, 2]),
)
def test_equal_points_go_to_the_smallest_node(t, pair, max_length, max_mis):
    """The tie rule on small tables (the fronts: tests/test_rules.py's brute force)."""
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    _check_tie_rule(table, pair, max_length, max_mis)


@pytest.mark.parametrize("pair", PAIRS)
def test_equal_points_go_to_the_smallest_node_where_ties_abound(pair):
    """Every combination of five 0/1 attributes twice, two classes: every node of level L
    has 64 / 2**L rows, so the rule's text depends on the tie rule at many points."""
    rng = np.random.default_rng(2)
    rows = [tuple((i >> b) & 1 for b in range(5)) for i in range(32)] * 2
    decisions = [str(v) for v in rng.integers(0, 2, 64)]
    table = DecisionTable.from_rows(rows, decisions, duplicates="keep")
    ties = 0
    for max_length, max_mis in ((None, None), (2, 1), (1, None)):
        ties += _check_tie_rule(table, pair, max_length, max_mis)
    assert ties > 10


def test_class_counts_are_each_nodes_rows_per_decision():
    table = _random_table()
    d = build_dag(table)
    dec = table.decisions.astype(np.int32)
    nodes = np.flatnonzero(d.node_mis > 0).astype(np.int64)[::-1].copy()  # any order
    counts = _core.rules_class_counts(nodes, d.node_start, d.node_size, d.row_pool, dec, 3)
    assert counts.dtype == np.int32 and counts.shape == (nodes.size, 3)
    for k, v in enumerate(nodes):
        assert counts[k].tolist() == np.bincount(dec[d.rows(int(v))], minlength=3).tolist()


def test_each_nodes_discoverer_is_its_first_parent():
    """Per node the first parent in node order and that edge's attribute (-1 at the root):
    a parent one level up, so following them gives a shortest conjunction."""
    table = _random_table(40, 4, 3, 2, seed=3)
    d = build_dag(table)
    n = d.node_size.size
    args = (n, d.node_bundle_start, d.bundle_attr, d.bundle_edge_start, d.edge_child)
    parent, attr = rk.discoverers(*args)
    want_p, want_a = [-1] * n, [-1] * n
    for p in range(n):
        for b in d.bundles(p):
            for c in d.children(b).tolist():
                if c != 0 and want_p[c] < 0:
                    want_p[c], want_a[c] = p, int(d.bundle_attr[b])
    assert parent.dtype == attr.dtype == np.int32
    assert parent.tolist() == want_p and attr.tolist() == want_a
    assert all(d.node_level[c] == d.node_level[p] + 1 for c, p in enumerate(want_p) if c)


def _kernel_inputs(table):
    """What the driver passes :func:`pair_fronts` for (length, misclassifications)."""
    d = build_dag(table)
    order = np.argsort(d.node_level, kind="stable").astype(np.int64)
    key = d.node_level[order]
    gstart = np.flatnonzero(np.r_[True, key[1:] != key[:-1], True]).astype(np.int64)
    dec = table.decisions.astype(np.int32)
    impure = order[d.node_mis[order] > 0]
    cidx = np.full(d.node_size.size, -1, np.int64)
    cidx[impure] = np.arange(impure.size)
    counts = rk.class_counts(impure, d.node_start, d.node_size, d.row_pool, dec, 3)
    nodes = rk.RuleNodes(d.node_start, d.node_size, d.node_level, d.node_mis, d.row_pool, dec)
    return nodes, rk.Candidates(order, gstart, rk.LENGTH_MIS, cidx, counts, 3)


def _resumed(nodes, cand, n, budget, room):
    """:func:`pair_fronts` called as the driver does, from ``room`` output slots and
    ``budget`` row visits a call: the statuses, then every array of the final state, the
    points emitted and the counters."""
    state = rk.RowState(
        np.full(n, np.iinfo(np.int64).max, np.int64),
        np.zeros(n, np.int64),
        np.zeros(n, np.int64),
        np.full(n, -1, np.int64),
        np.zeros(n, np.int32),
        np.zeros(n, np.int64),
    )
    emitted = rk.Emitted(*(np.zeros(room, np.int32) for _ in range(3)))
    counters = np.zeros(rk.N_COUNTERS, np.int64)
    statuses = []
    for _ in range(100_000):
        status = rk.pair_fronts(nodes, cand, state, emitted, counters, budget)
        statuses.append(int(status))
        if status == rk.MUST_GROW:
            need, used = int(counters[rk.C_NEED]), int(counters[rk.C_EMIT])
            assert need > emitted.row.size
            grown = []
            for a in emitted:
                b = np.zeros(need, a.dtype)
                b[:used] = a[:used]
                grown.append(b)
            emitted = rk.Emitted(*grown)
        elif status == rk.DONE:
            break
        else:
            assert status == rk.BUDGET_SPENT
    used = int(counters[rk.C_EMIT])
    # the group and the points are the same however the calls went; the row visits and the
    # room last asked for are the calls' own (a group cut short by MUST_GROW is redone)
    final = [a.tolist() for a in state], [a[:used].tolist() for a in emitted]
    return statuses, final, counters[[rk.C_GROUP, rk.C_EMIT]].tolist()


def test_the_rules_kernel_resumed_in_tiny_steps_ends_as_one_call():
    """Budgets of a few row visits and output arrays of 4 points (every BUDGET_SPENT and
    MUST_GROW return): the final row state, the points emitted and the counters are those
    of one call with room for everything."""
    table = _random_table()
    nodes, cand = _kernel_inputs(table)
    n = table.n_rows
    statuses, whole, counters = _resumed(nodes, cand, n, 1 << 40, 100_000)
    assert statuses == [rk.DONE] and counters[1] > n
    for budget, room in ((1, 1), (10, 4), (37, 16), (200, 4)):
        got = _resumed(nodes, cand, n, budget, room)
        assert rk.MUST_GROW in got[0] and rk.BUDGET_SPENT in got[0], (budget, room)
        assert got[1:] == (whole, counters), (budget, room)


def test_a_wrong_dtype_is_refused_not_misread():
    with pytest.raises(TypeError):
        _core.rules_class_counts(
            np.zeros(1, np.int32),
            np.zeros(1, np.int64),
            np.zeros(1, np.int32),
            np.zeros(1, np.int32),
            np.zeros(1, np.int32),
            2,
        )
