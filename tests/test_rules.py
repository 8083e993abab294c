"""Decision rules (`dagger_cli.rules`) against the brute force of `tests/rules_oracle.py`."""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest
import rules_oracle as oracle
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli.data.table import DecisionTable, example_table
from dagger_cli.errors import InputError
from dagger_cli.rules import COSTS, rules

PAIRS = [(a, b) for a in COSTS for b in COSTS if a != b]
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plain(table):
    """The prepared table as the oracle reads it: rows of codes, decision codes."""
    rows = [tuple(int(c) for c in table.codes[:, i]) for i in range(table.n_rows)]
    return rows, [int(d) for d in table.decisions]


def third_of(x, y):
    return next(c for c in COSTS if c not in (x, y))


def check_result(res, max_length=None, max_mis=None):
    """Every row's front equals the brute force's, with the tie rule's third cost, and
    every rule re-evaluated on the table has the promised costs."""
    table = res.table
    rows, decs = plain(table)
    index = {a: j for j, a in enumerate(table.attributes)}
    third = third_of(res.x, res.y)
    for r in range(table.n_rows):
        want = oracle.front(rows, decs, r, res.x, res.y, max_length, max_mis)
        got = [(f.cost(res.x), f.cost(res.y), f.cost(third)) for f in res.front(r)]
        assert got == want, (r, got, want)
        for f in res.front(r):
            attrs = [index[a] for a, _ in f.conditions]
            assert attrs == sorted(attrs)
            assert oracle.evaluate(rows, decs, r, attrs) == (
                f.length,
                f.coverage,
                f.misclassifications,
            )
            assert all(table.values[index[a]][rows[r][index[a]]] == v for a, v in f.conditions)
            assert f.decision == table.decision_values[decs[r]]


@SETTINGS
@given(
    tables(max_rows=8, max_attributes=4),
    st.sampled_from(PAIRS),
    st.sampled_from([None, 0, 1, 2]),
    st.sampled_from(["merge", "keep"]),
)
def test_fronts_match_the_brute_force(t, pair, max_length, duplicates):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates=duplicates)
    res = rules(table, *pair, max_length=max_length)
    max_mis = None if "misclassifications" in pair else 0
    check_result(res, max_length, max_mis)


@SETTINGS
@given(
    tables(max_rows=8, max_attributes=4),
    st.sampled_from(PAIRS),
    st.integers(0, 3),
    st.sampled_from([None, 1]),
)
def test_a_bound_on_misclassifications(t, pair, max_mis, max_length):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    res = rules(table, *pair, max_misclassifications=max_mis, max_length=max_length)
    check_result(res, max_length, max_mis)


def test_the_paper_table():
    res = rules(example_table())
    assert [res.points(r) for r in range(4)] == [[(1, 1)]] * 4
    assert [r.text for r in res.front(0)] == ["f1=0 -> 0"]
    approx = rules(example_table(), "coverage", "misclassifications")
    assert approx.points(0) == [(4, 2), (2, 1), (1, 0)]
    assert [r.text for r in approx.front(0)] == ["true -> 0", "f2=0 -> 0", "f1=0 -> 0"]


def test_conflicting_rows_have_no_exact_rule():
    table = DecisionTable.from_rows(
        [(0, 0), (0, 0), (1, 0), (1, 1)], ["a", "b", "a", "b"], duplicates="keep"
    )
    res = rules(table)
    assert res.front(0) == [] and res.front(1) == []
    assert "another decision" in res.no_rule_reason(0)
    assert res.no_rule_reason(2) is None
    assert res.points(3) == [(1, 1)]
    assert res.sequential().rows == 2
    approx = rules(table, "length", "misclassifications")
    assert approx.points(0) == [(0, 2), (1, 1)]


def test_no_rule_within_the_length():
    table = DecisionTable.from_rows([(0, 0), (0, 1), (1, 0), (1, 1)], ["a", "b", "b", "a"])
    res = rules(table, max_length=1)
    assert all(res.front(r) == [] for r in range(4))
    assert res.no_rule_reason(0) == "no exact rule with length <= 1"
    assert rules(table, max_length=2).points(0) == [(2, 1)]
    assert res.systems()[0].rows == 0 and res.system_front() == []


def test_bad_arguments():
    t = example_table()
    with pytest.raises(InputError, match="unknown rule cost 'depth'"):
        rules(t, "depth", "coverage")
    with pytest.raises(InputError, match="must differ"):
        rules(t, "length", "length")
    with pytest.raises(InputError, match="max_length must be an integer >= 0"):
        rules(t, max_length=-1)
    with pytest.raises(InputError, match="no row 4; the prepared table has rows 0 to 3"):
        rules(t).front(4)


@SETTINGS
@given(tables(max_rows=8, max_attributes=4), st.sampled_from(PAIRS))
def test_systems(t, pair):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    res = rules(table, *pair)
    rows, decs = plain(table)
    have = [r for r in range(table.n_rows) if res.front(r)]
    first = [res.front(r)[0] for r in have]
    last = [res.front(r)[-1] for r in have]
    for system, chosen in zip(res.systems(), (first, last)):
        assert system.rows == len(have)
        if have:
            assert system.length == pytest.approx(np.mean([f.length for f in chosen]))
            assert system.coverage == pytest.approx(np.mean([f.coverage for f in chosen]))
    # The one-bound family: by brute force over every bound.
    sign = oracle.SIGN[res.x]
    bounds = sorted({sign * f.cost(res.x) for r in have for f in res.front(r)})
    want = []
    for t_ in bounds:
        picks = []
        for r in have:
            within = [f for f in res.front(r) if sign * f.cost(res.x) <= t_]
            picks.append(within[-1] if within else res.front(r)[0])
        point = (
            sign * t_,
            np.mean([f.length for f in picks]),
            np.mean([f.coverage for f in picks]),
            np.mean([f.misclassifications for f in picks]),
        )
        if not want or want[-1][1:] != point[1:]:
            want.append(point)
    got = [(s.bound, s.length, s.coverage, s.misclassifications) for s in res.system_front()]
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g[0] == w[0] and g[1:] == pytest.approx(w[1:])


def test_same_input_same_rules():
    table = DecisionTable.from_rows(
        [(0, 1, 2), (1, 1, 0), (0, 0, 1), (2, 1, 1), (1, 0, 2)], ["x", "y", "x", "y", "x"]
    )
    a = rules(table, "coverage", "misclassifications")
    b = rules(table, "coverage", "misclassifications")
    assert [r.text for r in a.front(0)] == [r.text for r in b.front(0)]
    assert np.array_equal(a.point_node, b.point_node)


def test_ties_go_to_the_best_third_cost():
    # Row 0's rules f1=0 and f2=0 both have length 1 and coverage 2; f1=0 has no error.
    table = DecisionTable.from_rows([(0, 0), (0, 1), (1, 0), (1, 1)], ["a", "a", "b", "b"])
    res = rules(table, max_misclassifications=1)
    assert [(r.text, r.misclassifications) for r in res.front(0)] == [("f1=0 -> a", 0)]
    res = rules(table, "length", "misclassifications")
    assert [r.text for r in res.front(0)] == ["true -> a", "f1=0 -> a"]
    # Equal (coverage, misclassifications): the shorter rule.
    res = rules(table, "coverage", "misclassifications")
    assert [(r.text, r.coverage) for r in res.front(0)] == [("true -> a", 4), ("f1=0 -> a", 2)]


ORDERS = [o for n in (1, 2, 3) for o in permutations(COSTS, n)]


@SETTINGS
@given(
    tables(max_rows=8, max_attributes=4),
    st.sampled_from(ORDERS),
    st.sampled_from([None, 1]),
    st.sampled_from([None, 1]),
)
def test_sequential_optimisation(t, order, max_length, max_mis):
    from dagger_cli.rules import optimize_rules

    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    opt = optimize_rules(
        table, ",".join(order), max_length=max_length, max_misclassifications=max_mis
    )
    rows, decs = plain(table)
    bound = max_mis if max_mis is not None else (None if "misclassifications" in order else 0)
    full = list(order) + [c for c in COSTS if c not in order]
    col = {"length": 1, "coverage": 2, "misclassifications": 3}
    chosen, best = [], {c: [] for c in order}
    for r in range(table.n_rows):
        cands = [
            c for c in oracle.row_rules(rows, decs, r, max_length) if bound is None or c[3] <= bound
        ]
        rule = opt.rule(r)
        if not cands:
            assert rule is None
            continue
        want = min(tuple(oracle.SIGN[c] * cand[col[c]] for c in full) for cand in cands)
        assert tuple(oracle.SIGN[c] * rule.cost(c) for c in full) == want
        assert oracle.evaluate(
            rows, decs, r, [table.attributes.index(a) for a, _ in rule.conditions]
        ) == (
            rule.length,
            rule.coverage,
            rule.misclassifications,
        )
        chosen.append(rule)
        for c in order:
            best[c].append(min(oracle.SIGN[c] * cand[col[c]] for cand in cands) * oracle.SIGN[c])
    for stage, c in zip(opt.stages, order):
        assert stage.cost == c
        if chosen:
            assert stage.average == pytest.approx(np.mean([f.cost(c) for f in chosen]))
    for rec in opt.total_optimality:
        c = rec["cost"]
        assert rec["rows"] == len(chosen)
        assert rec["totally_optimal"] == sum(f.cost(c) == b for f, b in zip(chosen, best[c]))


def test_bad_orders():
    from dagger_cli.rules import optimize_rules

    t = example_table()
    for order, message in [
        ("", "one to three rule costs"),
        ("length,depth", "unknown rule cost 'depth'"),
        ("length,length", "names a cost twice"),
    ]:
        with pytest.raises(InputError, match=message):
            optimize_rules(t, order)


def tree_path(tree, table, r):
    """The attributes of row r's path in ``tree`` (walked on the table's labels)."""
    node, attrs = tree.root, []
    while not node.is_leaf:
        a = table.attributes.index(node.attribute)
        attrs.append(a)
        node = dict(node.children)[table.values[a][int(table.codes[a, r])]]
    return sorted(attrs)


@SETTINGS
@given(tables(max_rows=8, max_attributes=4, nontrivial=True), st.integers(0, 3))
def test_compare_tree(t, point):
    from dagger_cli import extract_tree, relate
    from dagger_cli.rules import compare_tree

    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    rel = relate(table)
    tree = extract_tree(rel, min(point, len(rel.front) - 1))
    res = rules(table)
    cmp = compare_tree(tree, res)
    rows, decs = plain(table)
    for r in range(table.n_rows):
        length, cov, mis = oracle.evaluate(rows, decs, r, tree_path(tree, table, r))
        assert (cmp.tree_length[r], cmp.tree_coverage[r], cmp.tree_misclassifications[r]) == (
            length,
            cov,
            mis,
        )
        exact = [c for c in oracle.row_rules(rows, decs, r) if c[3] == 0]
        if not exact:
            assert cmp.shortest[r] == -1
            continue
        assert cmp.shortest[r] == min(c[1] for c in exact)
        assert cmp.most_coverage[r] == max(c[2] for c in exact)
        at_cov = [c[1] for c in exact if c[2] >= cov]
        assert cmp.length_at_coverage[r] == (min(at_cov) if at_cov else -1)
        at_len = [c[2] for c in exact if c[1] <= length]
        assert cmp.coverage_at_length[r] == (max(at_len) if at_len else -1)
        dominated = any(
            c[1] <= length and c[2] >= cov and (c[1], c[2]) != (length, cov) for c in exact
        )
        assert bool(cmp.optimal[r]) == (mis == 0 and not dominated)
    s = cmp.summary()
    has = cmp.shortest >= 0
    assert s["rows"] == int(has.sum())
    # The averages compare only the tree rules within the fronts' bound (exact rules: no
    # misclassification), and there a rule covers at least as many rows at the same length.
    within = has & (cmp.tree_misclassifications == 0)
    assert s["within_bound"] == int(within.sum())
    if within.any():
        assert s["tree_length"] == pytest.approx(cmp.tree_length[within].mean())
        assert s["coverage_gained"] >= 0 and s["length_saved"] >= 0
    else:
        assert s["tree_length"] is None and s["coverage_gained"] is None


def test_compare_tree_refuses_other_fronts_and_tables():
    from dagger_cli import extract_tree, relate
    from dagger_cli.rules import compare_tree

    t = example_table()
    tree = extract_tree(relate(t), 1)
    with pytest.raises(InputError, match="length vs coverage"):
        compare_tree(tree, rules(t, "length", "misclassifications"))
    other = DecisionTable.from_rows([(0,), (1,)], ["x", "y"])
    with pytest.raises(InputError, match="another table"):
        compare_tree(tree, rules(other))


def test_same_rules_with_one_or_two_threads(monkeypatch):
    table = DecisionTable.from_rows(
        [(i % 3, i % 5, (i * 7) % 4, i % 2) for i in range(40)],
        [str(i * i % 7 % 3) for i in range(40)],
    )
    from dagger_cli.engine import threads

    got = []
    for n in ("1", "2"):
        monkeypatch.setenv("DAGGER_THREADS", n)
        threads.CALLS.clear()
        res = rules(table, "coverage", "misclassifications", max_misclassifications=5)
        assert set(threads.CALLS) == {int(n)}  # the kernels really ran with n threads
        got.append([r.text for i in range(table.n_rows) for r in res.front(i)])
    assert got[0] == got[1] and len(got[0]) > table.n_rows


def test_imports_point_down():
    """The engine never loads the rules; the rules never load click."""
    import subprocess
    import sys

    code = (
        "import sys, dagger_cli.engine, dagger_cli.data.table, dagger_cli.trees\n"
        "assert 'dagger_cli.rules' not in sys.modules\n"
        "import dagger_cli.rules\n"
        "assert 'click' not in sys.modules, 'click'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
