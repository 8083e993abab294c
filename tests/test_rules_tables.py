"""Rule fronts on the registered tables against the brute force, on a sample of rows."""

from __future__ import annotations

import numpy as np
import pytest
import rules_oracle as oracle
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli.data.datasets import load_table
from dagger_cli.data.table import DecisionTable
from dagger_cli.rules import rules
from tests.conftest import needs_mirror, needs_odt_mirror

COSTS = ("length", "coverage", "misclassifications")
PAIRS = [(a, b) for a in COSTS for b in COSTS if a != b]


@settings(max_examples=80, deadline=None)
@given(tables(max_rows=8, max_attributes=4), st.sampled_from(PAIRS), st.sampled_from([None, 1]))
def test_the_numpy_brute_force_is_the_plain_one(t, pair, max_length):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    codes = table.codes.T
    rows = [tuple(int(c) for c in row) for row in codes]
    decs = [int(d) for d in table.decisions]
    max_mis = None if "misclassifications" in pair else 0
    for r in range(table.n_rows):
        assert oracle.front_np(codes, table.decisions, r, *pair, max_length, max_mis) == (
            oracle.front(rows, decs, r, *pair, max_length, max_mis)
        )


def sample(n, k, seed=24):
    return sorted(np.random.default_rng(seed).choice(n, size=min(k, n), replace=False).tolist())


def check_rows(table, pair, max_length, rows, max_mis=None):
    res = rules(table, *pair, max_length=max_length, max_misclassifications=max_mis)
    bound = max_mis if max_mis is not None else (None if "misclassifications" in pair else 0)
    third = next(c for c in COSTS if c not in pair)
    codes = table.codes.T
    index = {a: j for j, a in enumerate(table.attributes)}
    wrong_of = table.decisions
    for r in rows:
        want = oracle.front_np(codes, table.decisions, r, *pair, max_length, bound)
        got = [(f.cost(pair[0]), f.cost(pair[1]), f.cost(third)) for f in res.front(r)]
        assert got == want, (table.name, r, got, want)
        for f in res.front(r):
            attrs = [index[a] for a, _ in f.conditions]
            match = np.all(codes[:, attrs] == codes[r, attrs], axis=1)
            assert f.length == len(attrs) and f.coverage == int(match.sum())
            assert f.misclassifications == int((wrong_of[match] != wrong_of[r]).sum())
    return res


UCI_CASES = [
    # (table, max_length, rows sampled): every subset of the sampled rows' values
    ("zoo", None, 4),
    ("nursery", None, 6),
    ("lymphography", 3, 6),
    ("mushroom", 3, 4),
]


@pytest.mark.slow
@needs_mirror
@pytest.mark.parametrize("name,max_length,k", UCI_CASES)
@pytest.mark.parametrize("pair", [("length", "coverage"), ("coverage", "misclassifications")])
def test_uci_tables(name, max_length, k, pair):
    table = load_table(name)
    res = check_rows(table, pair, max_length, sample(table.n_rows, k))
    assert res.has_rule().any()


@pytest.mark.slow
@needs_mirror
def test_length_vs_misclassifications_on_zoo():
    table = load_table("zoo")
    check_rows(table, ("misclassifications", "length"), None, sample(table.n_rows, 4))
    check_rows(table, ("length", "coverage"), 2, sample(table.n_rows, 4), max_mis=3)


ODT_CASES = [
    ("odt-tic-tac-toe", 3),
    ("odt-hepatitis", 2),
    ("odt-vote", 2),
    ("odt-primary-tumor", 2),
]


@pytest.mark.slow
@needs_odt_mirror
@pytest.mark.parametrize("name,max_length", ODT_CASES)
def test_odt_tables(name, max_length):
    table = load_table(name)
    rows = sample(table.n_rows, 3)
    res = check_rows(table, ("length", "coverage"), max_length, rows)
    check_rows(table, ("length", "misclassifications"), max_length, rows)
    # Equal rows are kept in this suite: a row with an equal row of another decision has
    # no exact rule, and the others do have one without a cap.
    if res.conflict.any():
        r = int(np.flatnonzero(res.conflict)[0])
        assert res.front(r) == [] and "another decision" in res.no_rule_reason(r)


@pytest.mark.slow
@needs_mirror
def test_every_written_rule_reevaluated_on_mushroom():
    """All rows: each rule of the CSV, read back and re-evaluated on the table."""
    import csv
    import io

    from dagger_cli.rules.output import rules_csv

    table = load_table("mushroom")
    res = rules(table)
    codes = table.codes.T
    index = {a: j for j, a in enumerate(table.attributes)}
    lines = list(csv.DictReader(io.StringIO(rules_csv(res))))
    assert len(lines) == len(res) and res.has_rule().all()
    seen = set()
    for line in lines:
        r = int(line["row"])
        seen.add(r)
        conds, decision = line["rule"].split(" -> ")
        pairs = [c.split("=", 1) for c in conds.split(" & ")] if conds != "true" else []
        attrs = [index[a] for a, _ in pairs]
        values = [table.values[index[a]].index(v) for a, v in pairs]
        assert np.array_equal(codes[r, attrs], values)
        match = np.all(codes[:, attrs] == values, axis=1)
        assert int(line["length"]) == len(attrs)
        assert int(line["coverage"]) == int(match.sum())
        assert set(table.decisions[match].tolist()) == {int(table.decisions[r])}
        assert decision == table.decision_values[int(table.decisions[r])]
    assert seen == set(range(table.n_rows))
