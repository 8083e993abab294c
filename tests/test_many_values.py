"""Attributes with many values (an identifier, a free text, a number read as nominal) in
the depth-two layer: its memory goes by the rows and the present values, never by a
product of two attributes' numbers of values, and the memory ceiling holds.

The layer counts a pair of *small* attributes (at most ``D2_MANY_VALUES`` present
values) from bitsets and any pair with a larger one row by row
(``dagger_cli.engine.kernels.depth_two._d2_front``); the answers are checked against the
baseline engine and the slow path (every subtable built), trees included.
"""

from __future__ import annotations

import re
import subprocess
import sys
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import build_dag, compute_fronts, relate
from dagger_cli.errors import LimitError
from dagger_cli.text import size_text
from dagger_cli.trees import extract_tree
from tests.evaluate import check_valid_tree, evaluate_tree
from tests.test_depth_two import KEY, _same, random_tables


def identifier_table(n: int, seed: int = 1, fine: bool = False) -> DecisionTable:
    """``id`` (one value per row), three small nominal columns and a noisy label that
    depends on them; with ``fine`` also a column of about n / 3 values (a number read as
    nominal), so that two large attributes meet."""
    rng = np.random.default_rng(seed)
    a, b, c = rng.integers(0, 3, n), rng.integers(0, 4, n), rng.integers(0, 2, n)
    label = (a + b * c + (rng.random(n) < 0.2)) % 3
    cols = [np.arange(n), a, b, c]
    if fine:
        cols.append(rng.integers(0, max(n // 3, 2), n))
    rows = np.stack(cols, axis=1).tolist()
    return DecisionTable.from_rows(rows, label.tolist(), duplicates="keep", name=f"id{seed}")


PAIRS = [
    ("total-path-length", "misclassifications"),
    ("depth", "misclassifications"),
    ("leaves", "misclassifications"),
    ("misclassifications", "nodes"),
]


@pytest.mark.parametrize("fine", [False, True], ids=["id", "id+fine"])
@pytest.mark.parametrize("depth", [2, 3])
@pytest.mark.parametrize("x,y", PAIRS)
def test_identifier_column_fast_equals_baseline(x, y, depth, fine):
    """The fast engine (depth-two layer, large attributes row by row) gives the
    baseline's front, and every point's tree has that point's costs."""
    t = identifier_table(240, seed=depth, fine=fine)
    fast = relate(t, x, y, max_depth=depth)
    assert fast.stats.depth_two
    base = relate(t, x, y, max_depth=depth, engine="baseline")
    assert fast.front.points() == base.front.points()
    header, records = t.to_records()
    for k, (px, py) in enumerate(fast.front.points()):
        tree = extract_tree(fast, k).root.to_dict()
        check_valid_tree(tree, header, records)
        c = evaluate_tree(tree, header, records)
        assert (c[KEY.get(x, x)], c[KEY.get(y, y)]) == (px, py)
        assert c["depth"] <= depth


@pytest.mark.parametrize("many", [1, 2, 3])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), depth=st.integers(2, 4), pair=st.sampled_from(PAIRS))
def test_large_attribute_path_equals_slow_path(many, data, depth, pair):
    """With the threshold lowered, most attributes take the row-by-row path: the same
    fronts and trees (ties included) as the slow path."""
    t = data.draw(random_tables(False))
    with patch("dagger_cli.engine.dag.D2_MANY_VALUES", many):
        _same(t, *pair, depth)


def test_a_failed_allocation_is_never_an_answer():
    """A piece whose arrays cannot be allocated (a piece of a parallel loop cannot raise:
    it stops, and the kernel returns OUT_OF_MEMORY) makes the run stop with a LimitError,
    not a front of garbage."""
    t = identifier_table(60)
    dag = build_dag(t, max_depth=2, depth2=True)
    # A table that claims an attribute of 2**50 values: the piece's workspace (2**53
    # bytes and more) cannot be allocated, and without a ceiling nothing refuses it first.
    nvals = dag.table_arrays.nvals.copy()
    nvals[0] = 2**50
    dag.table_arrays = dag.table_arrays._replace(nvals=nvals)
    x, y = COSTS["total-path-length"], COSTS["misclassifications"]
    with pytest.raises(LimitError, match="out of memory"):
        compute_fronts(dag, x, y, max_memory=None)


def test_the_layer_refuses_before_it_allocates():
    """Under a ceiling too small for one subtable's arrays the layer says so (exit 3's
    LimitError), naming the phase, the ceiling and what one subtable needs."""
    t = identifier_table(20_000)
    dag = build_dag(t, max_depth=2, depth2=True)
    x, y = COSTS["total-path-length"], COSTS["misclassifications"]
    ceiling = dag.nbytes() + 1  # no room left for a thread's arrays
    with pytest.raises(LimitError) as err:
        compute_fronts(dag, x, y, max_memory=ceiling)
    text = str(err.value)
    assert f"the depth-two fronts need more than {size_text(ceiling)} (--max-memory)" in text
    assert "one subtable's arrays need" in text


def test_ceiling_holds_on_an_identifier_column(tmp_path):
    """``dagger relate`` on 20,000 rows with an identifier column and a small
    --max-memory: exit 3 with the limit message, no traceback."""
    rng = np.random.default_rng(5)
    n = 20_000
    lines = ["id,color,size,shape,label"]
    for i, (a, b, c, d) in enumerate(rng.integers(0, [3, 4, 2, 2], size=(n, 4))):
        lines.append(f"{i},{'rgb'[a]},{'SMLX'[b]},{'ox'[c]},{'yn'[(a + b + c + d) % 2]}")
    path = tmp_path / "ids.csv"
    path.write_text("\n".join(lines) + "\n")
    cmd = [sys.executable, "-m", "dagger_cli.cli", "relate", str(path), "--max-depth", "2"]
    for ceiling in ("1M", "5M"):
        r = subprocess.run([*cmd, "-q", "--max-memory", ceiling], capture_output=True, text=True)
        assert r.returncode == 3, r.stderr
        assert "Traceback" not in r.stderr
        assert re.search(rf"needs? more than {ceiling[0]} MiB \(--max-memory\)", r.stderr)
    assert r.stdout == ""
    ok = subprocess.run([*cmd, "-q", "--format", "csv"], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    base = subprocess.run(
        [*cmd, "-q", "--format", "csv", "--engine", "baseline"], capture_output=True, text=True
    )
    assert ok.stdout == base.stdout and ok.stdout.count("\n") == 3


def test_the_fronts_kernel_sizes_its_pieces_against_the_ceiling():
    """The fronts kernel's pieces (children's points gathered, scratch) count against
    --max-memory too: with no room beside the DAG and the point pool it stops with the
    limit message before it allocates, instead of passing the ceiling."""
    t = identifier_table(60)
    dag = build_dag(t)
    x, y = COSTS["total-path-length"], COSTS["misclassifications"]
    with pytest.raises(LimitError, match="the fronts need more than .* one batch of subtables"):
        compute_fronts(dag, x, y, max_memory=dag.nbytes() + 1)
    assert len(compute_fronts(dag, x, y, max_memory=None).front(0)[0]) >= 2
