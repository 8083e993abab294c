"""--exact-only: the front over trees without avoidable misclassifications.

On a merged table (no equal rows) these are exactly the trees with µ = 0, so the brute
force is the set of all trees' cost vectors filtered to µ = 0.
"""

import pytest
from hypothesis import given, settings

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from tests.oracle import COST_INDEX, COST_PAIRS, all_cost_vectors, pareto_front
from tests.strategies import mixed_tables

PAIRS = [p for p in COST_PAIRS if "misclassifications" not in p]


@pytest.mark.parametrize("x, y", PAIRS)
@settings(max_examples=40, deadline=None)
@given(data=mixed_tables())
def test_exact_only_matches_bruteforce(x, y, data):
    # merged: µ = 0 trees exist
    t = DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates="merge")
    vecs = {
        v
        for v in all_cost_vectors(t.rows(), t.decision_labels())
        if v[COST_INDEX["misclassifications"]] == 0
    }
    expect = pareto_front([(v[COST_INDEX[x]], v[COST_INDEX[y]]) for v in vecs])
    for engine in ("fast", "baseline"):
        assert relate(t, x, y, engine=engine, exact_only=True).front.points() == expect, engine
