"""The depth-two layer: under a cap D >= 2 the last two levels are solved from class
counts (``dagger_cli.fast._d2_front``) instead of built subtables.

Checked against the slow path (``depth_two=False``: every subtable within D splits
built, itself checked against the baseline and a brute force in test_depth_cap.py):
the same fronts and the same trees, point by point, for every ordered cost pair, on
0/1 tables with two classes (the specialised pair loop) and on tables with more values
and classes (the generic one)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree
from tests.evaluate import check_valid_tree, evaluate_tree
from tests.oracle import COST_PAIRS
from tests.test_fast_engine import random_table

SLOW = [HealthCheck.too_slow]
KEY = {"total-path-length": "total_path_length"}


@st.composite
def random_tables(draw, binary: bool):
    """Random tables of up to 60 rows and 7 attributes; ``binary``: 0/1 attributes and
    two decisions, else up to 4 values and 3 decisions."""
    m = draw(st.integers(1, 7))
    n = draw(st.integers(1, 60))
    values = 2 if binary else draw(st.integers(2, 4))
    decisions = 2 if binary else draw(st.integers(2, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, size=(n, m))
    if draw(st.booleans()):  # a structured decision with noise: longer fronts
        y = (X[:, 0] + X[:, -1] * X[:, m // 2]) % decisions
        flip = rng.random(n) < 0.15
        y[flip] = rng.integers(0, decisions, size=int(flip.sum()))
    else:
        y = rng.integers(0, decisions, size=n)
    dup = draw(st.sampled_from(["keep", "merge"]))
    return DecisionTable.from_rows(X.tolist(), y.tolist(), duplicates=dup, name=f"r{seed}")


def _same(t, x, y, depth):
    fast = relate(t, x, y, max_depth=depth, depth_two=True)
    slow = relate(t, x, y, max_depth=depth, depth_two=False)
    assert fast.front.points() == slow.front.points()
    header, records = t.to_records()
    for k, (px, py) in enumerate(fast.front.points()):
        a = extract_tree(fast, k).root.to_dict()
        assert a == extract_tree(slow, k).root.to_dict(), k
        check_valid_tree(a, header, records)
        c = evaluate_tree(a, header, records)
        assert (c[KEY.get(x, x)], c[KEY.get(y, y)]) == (px, py)
        assert c["depth"] <= depth
    return fast


@pytest.mark.parametrize("x,y", COST_PAIRS, ids=[f"{x}-vs-{y}" for x, y in COST_PAIRS])
@pytest.mark.parametrize("binary", [True, False], ids=["binary", "generic"])
@settings(max_examples=12, deadline=None, suppress_health_check=SLOW)
@given(data=st.data(), depth=st.integers(2, 4))
def test_depth_two_equals_slow_path(x, y, binary, data, depth):
    """Same fronts, same trees (ties included), trees of depth <= D with their points."""
    t = data.draw(random_tables(binary))
    _same(t, x, y, depth)


@pytest.mark.parametrize("depth", [2, 3, 4])
@pytest.mark.parametrize(
    "m,n,values,decisions,seed", [(12, 300, 2, 2, 7), (9, 200, 3, 3, 8), (10, 250, 2, 4, 9)]
)
def test_depth_two_on_wider_tables(m, n, values, decisions, seed, depth):
    """Wider tables: several words of bitsets, many pairs; the layer does the work."""
    t = random_table(m, n, values, decisions, seed, structured=True)
    for x, y in (("depth", "misclassifications"), ("total-path-length", "misclassifications")):
        rel = _same(t, x, y, depth)
        assert rel.stats.depth_two and rel.stats.depth_two > 0
        # Only the subtables within D - 2 splits were built.
        assert (
            rel.stats.subtables < relate(t, x, y, max_depth=depth, depth_two=False).stats.subtables
        )


def test_depth_two_chosen_automatically_by_depth_and_width():
    """Deeper than 4 the layer runs only on wide tables (where the last levels explode);
    either way the same front."""
    narrow = random_table(6, 80, 2, 2, 3, structured=True)
    rel = relate(narrow, "depth", "misclassifications", max_depth=5)
    assert rel.stats.depth_two is None
    forced = relate(narrow, "depth", "misclassifications", max_depth=5, depth_two=True)
    assert forced.stats.depth_two and forced.front.points() == rel.front.points()
    assert relate(narrow, "depth", "misclassifications", max_depth=4).stats.depth_two
    wide = random_table(26, 60, 2, 2, 4, structured=True)
    assert relate(wide, "depth", "misclassifications", max_depth=5).stats.depth_two
    with pytest.raises(InputError):
        relate(narrow, max_depth=3, depth_two="yes")


def test_depth_two_not_used_below_two_or_with_exact_only():
    # merged: an exact tree (no avoidable misclassification) of depth 3 exists
    t = random_table(6, 80, 2, 2, 3, structured=True, duplicates="merge")
    assert relate(t, "depth", "misclassifications", max_depth=1).stats.depth_two is None
    rel = relate(t, "depth", "misclassifications", max_depth=3, exact_only=True)
    assert rel.stats.depth_two is None
    assert relate(t, "depth", "misclassifications", max_depth=3).stats.depth_two
