"""The ordered solver (numeric columns kept whole, dagger_cli.engine.ordered) against the
brute force over every tree of the columns' binary expansion, against the DAG engine on
that expansion, and against ConTree's optima on its benchmark tables."""

from __future__ import annotations

import threading
import warnings

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.errors import InputError, LimitError
from dagger_cli.trees import extract_tree
from tests.conftest import needs_num_mirror
from tests.oracle import (
    COST_PAIRS,
    DECISION_INDEX,
    capped_cost_vectors,
    pareto_front,
    project,
    weighted_cost_vectors,
)

MIS = "misclassifications"


@st.composite
def mixed_frames(draw, max_rows=8, max_numeric=2, max_nominal=1, max_value=6):
    """Small tables of numeric columns (few distinct values, so thresholds are few and
    rows collide) and nominal ones, with 1..3 classes."""
    n = draw(st.integers(1, max_rows))
    k_num = draw(st.integers(1, max_numeric))
    k_nom = draw(st.integers(0, max_nominal))
    ints = st.integers(0, max_value)
    data = {}
    for j in range(k_num):
        data[f"x{j}"] = [v / 2 for v in draw(st.lists(ints, min_size=n, max_size=n))]
    for j in range(k_nom):
        data[f"c{j}"] = draw(st.lists(st.sampled_from("abc"), min_size=n, max_size=n))
    data["d"] = draw(
        st.lists(st.sampled_from("pqr"[: draw(st.integers(1, 3))]), min_size=n, max_size=n)
    )
    return pd.DataFrame(data)


@st.composite
def noisy_frames(draw):
    """Tables of 10 to 24 rows, two numeric columns of few values and random classes (2 or
    3): no shallow tree separates them, so their fronts are long."""
    n = draw(st.integers(10, 24))
    ints = st.lists(st.integers(0, 4), min_size=n, max_size=n)
    classes = "pqr"[: draw(st.integers(2, 3))]
    return pd.DataFrame(
        {
            "x0": draw(ints),
            "x1": [v / 2 for v in draw(ints)],
            "d": draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n)),
        }
    )


def _table(df, spec="all", duplicates="keep"):
    return DecisionTable.from_dataframe(df, thresholds=spec, duplicates=duplicates)


def _binary_rows(table):
    """The rows (tuples of codes) and decisions of ``table``'s binary expansion."""
    binary = table.binarized()
    rows = [
        tuple(int(binary.codes[a, i]) for a in range(binary.n_attributes))
        for i in range(binary.n_rows)
    ]
    return rows, [int(d) for d in binary.decisions]


def _brute(table, x, y, depth):
    """The front over every tree of depth <= ``depth`` of the binary expansion."""
    vectors = capped_cost_vectors(*_binary_rows(table), depth)
    return pareto_front(project(vectors, x, y))


def _decision_case(table, depth, data):
    """A positive class and row weights (all 1, or 1..3) drawn for ``table``: the table so
    weighted, and the costs of every tree of depth <= ``depth`` of its binary expansion
    with every labelling of its leaves (the brute force)."""
    labels = list(table.decision_values)
    positive = data.draw(st.integers(0, len(labels) - 1))
    n = table.n_rows
    weights = data.draw(
        st.one_of(st.just([1] * n), st.lists(st.integers(1, 3), min_size=n, max_size=n))
    )
    weighted = table.weighted(np.array(weights), positive=labels[positive])
    rows, decisions = _binary_rows(table)
    return weighted, weighted_cost_vectors(rows, decisions, weights, None, depth, positive=positive)


def _decision_front(vectors, x, y):
    """The brute force's front of the costs x and y (either may read a leaf's decision)."""
    return pareto_front({(v[DECISION_INDEX[x]], v[DECISION_INDEX[y]]) for v in vectors})


def _check_trees(rel, depth):
    """Every point's tree has the point's costs on the table and depth <= the cap."""
    front = rel.front
    for k in range(len(front)):
        costs = extract_tree(rel, k).costs()
        got = (costs[front.x_cost.column], costs[front.y_cost.column])
        assert got == (int(front.x[k]), int(front.y[k]))
        assert costs["depth"] <= depth


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_frames(), st.integers(0, 3), st.sampled_from(["all", 1, 2]), st.data())
def test_every_pair_equals_the_brute_force_over_the_binary_expansion(df, depth, spec, data):
    table = _table(df, spec)
    if not table.ordered:
        return
    pairs = data.draw(st.lists(st.sampled_from(COST_PAIRS), min_size=1, max_size=4, unique=True))
    for x, y in pairs:
        rel = relate(table, x, y, max_depth=depth)
        assert rel.engine == "ordered"
        assert rel.front.points() == _brute(table, x, y, depth), (x, y)
        _check_trees(rel, depth)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mixed_frames(max_rows=60, max_numeric=3, max_nominal=2, max_value=14),
    st.integers(1, 4),
    st.sampled_from(["all", 3]),
    st.sampled_from(["keep", "merge"]),
)
def test_larger_tables_equal_the_dag_engine_on_the_binary_expansion(df, depth, spec, dup):
    table = _table(df, spec, dup)
    if not table.ordered:
        return
    binary = table.binarized()
    for x in ("depth", "total-path-length", "nodes", "leaves"):
        rel = relate(table, x, MIS, max_depth=depth)
        dag = relate(binary, x, MIS, max_depth=depth)
        assert rel.engine == "ordered" and dag.engine == "fast"
        assert rel.front.points() == dag.front.points(), x
    _check_trees(rel, depth)


ROC = ("false-positives", "false-negatives")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(noisy_frames(), st.integers(1, 3), st.sampled_from(["all", 2]), st.data())
def test_false_positives_against_negatives_equal_the_brute_force(df, depth, spec, data):
    """The ROC front (either way round), one class against the others, rows weighted or
    not: the ordered solver's leaves of two points against the brute force over every tree
    of the binary expansion and every labelling of its leaves; each tree re-evaluates."""
    table = _table(df, spec)
    if not table.ordered or len(table.decision_values) < 2:
        return
    weighted, vectors = _decision_case(table, depth, data)
    for x, y in (ROC, ROC[::-1]):
        rel = relate(weighted, x, y, max_depth=depth)
        assert rel.engine == "ordered"
        want = _decision_front(vectors, x, y)
        assert rel.front.points() == want, (x, y)
        _check_trees(rel, depth)


#: Every pair of false positives or negatives and another cost, either way round.
DECISION_PAIRS = [
    (a, b)
    for one in ROC
    for other in ("depth", "total-path-length", "nodes", "leaves", MIS)
    for a, b in ((one, other), (other, one))
]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(noisy_frames(), st.integers(1, 3), st.sampled_from(["all", 2]), st.data())
def test_false_positives_or_negatives_against_another_cost_equal_the_brute_force(
    df, depth, spec, data
):
    """One of false positives or negatives against depth, total path length, nodes, leaves
    (the leaf alone, deciding what makes the first 0) or misclassifications (two classes:
    read off the ROC front), rows weighted or not, against the brute force over every tree
    and every labelling of its leaves; each tree re-evaluates to its point."""
    table = _table(df, spec)
    if not table.ordered or len(table.decision_values) != 2:
        return
    weighted, vectors = _decision_case(table, depth, data)
    for x, y in data.draw(st.lists(st.sampled_from(DECISION_PAIRS), min_size=1, max_size=3)):
        rel = relate(weighted, x, y, max_depth=depth)
        assert rel.engine == "ordered"
        want = _decision_front(vectors, x, y)
        assert rel.front.points() == want, (x, y)
        _check_trees(rel, depth)
        # bounds on either cost (pushed into the ROC search as bounds on both of its costs)
        mx, my = want[len(want) // 2]
        bounded = relate(weighted, x, y, max_depth=depth, max_x=mx, max_y=my).front.points()
        assert bounded == [(a, b) for a, b in want if a <= mx and b <= my], (x, y)


def test_false_negatives_against_misclassifications_of_three_classes_go_to_the_dag():
    """Misclassifications are not false positives plus negatives with three classes: the
    ordered solver says so (the query goes to the binary expansion)."""
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "d": ["p", "q", "r", "p"]})
    table = _table(df).weighted(positive="p")
    rel = relate(table.binarized(), "false-negatives", MIS, max_depth=2)
    with pytest.raises(InputError, match="two classes without prices"):
        relate(table, "false-negatives", MIS, max_depth=2, engine="ordered")
    assert relate(table, "false-negatives", MIS, max_depth=2).front.points() == rel.front.points()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(30, 120), st.integers(2, 3), st.integers(0, 2**32 - 1), st.integers(1, 3))
def test_false_positives_against_negatives_equal_the_dag_engine(n, classes, seed, depth):
    """Longer tables, where neighbouring thresholds bound each other: the ROC front equals
    the DAG engine's on the binary expansion."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"a": rng.integers(0, 12, n), "b": rng.integers(0, 9, n) / 4})
    df["d"] = np.where(df.a + 3 * df.b > 12, "y", "n")
    flip = rng.random(n) < 0.3
    df.loc[flip, "d"] = rng.choice(["n", "y", "m"][:classes], int(flip.sum()))
    _check_roc_against_the_dag_engine(_table(df), depth)


def _check_roc_against_the_dag_engine(table, depth: int) -> None:
    """The ROC front of ``table`` (its last class positive) equals the DAG engine's on the
    binary expansion, and each tree re-evaluates to its point."""
    labels = list(table.decision_values)
    if not table.ordered or len(labels) < 2:
        return
    rel = relate(table.weighted(positive=labels[-1]), *ROC, max_depth=depth)
    dag = relate(table.binarized().weighted(positive=labels[-1]), *ROC, max_depth=depth)
    assert rel.engine == "ordered" and dag.engine == "fast"
    assert rel.front.points() == dag.front.points()
    _check_trees(rel, depth)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(100, 400), st.integers(0, 2**32 - 1), st.integers(3, 4))
def test_the_roc_fronts_neighbour_bounds_agree_with_the_dag_engine(n, seed, depth):
    """Three attributes of many codes at depth 3 and 4, where the ROC search moves its
    neighbours' bounds by the rows between per class (the interval shrink and the screens at
    depth >= 3): the front equals the DAG engine's on the binary expansion. (Halving either
    move makes some of these tables' fronts wrong.)"""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame(
        {"a": rng.integers(0, 15, n), "b": rng.integers(0, 11, n) / 4, "c": rng.integers(0, 6, n)}
    )
    df["d"] = np.where(df.a + 3 * df.b - df.c > 12, "y", "n")
    flip = rng.random(n) < 0.25
    df.loc[flip, "d"] = rng.choice(["n", "y"], int(flip.sum()))
    _check_roc_against_the_dag_engine(_table(df), depth)


def test_the_bounds_and_swapped_pairs_restrict_the_same_front():
    rng = np.random.default_rng(3)
    df = pd.DataFrame({"a": rng.integers(0, 30, 80), "b": rng.normal(size=80).round(2)})
    df["d"] = np.where(df.a + 10 * df.b > 12, "y", "n")
    df.loc[rng.choice(80, 9, replace=False), "d"] = "m"
    table = _table(df)
    whole = relate(table, "total-path-length", MIS, max_depth=3)
    pts = whole.front.points()
    assert len(pts) > 3
    assert relate(table, "total-path-length", MIS, max_depth=3, max_y=pts[2][1]).front.points() == [
        p for p in pts if p[1] <= pts[2][1]
    ]
    assert relate(table, "total-path-length", MIS, max_depth=3, least_y=True).front.points() == [
        pts[-1]
    ]
    swapped = relate(table, MIS, "total-path-length", max_depth=3)
    assert swapped.front.points() == sorted((y, x) for x, y in pts)
    _check_trees(swapped, 3)


def test_a_side_lacking_a_nominal_value_is_bounded_with_the_leaf_it_would_need():
    """A side's tree that takes the rows between two thresholds may lack a nominal split's
    child for a row's value and then needs a new leaf: a neighbour's bounds move nodes and
    leaves by one per row there (found by a weighted search: the third row weighs 2)."""
    x2 = [0, 0, 1, 1] + [0] * 17 + [1, 0.5]
    c0 = ["a", "a", "c", "a"] + ["a"] * 17 + ["a", "b"]
    d = ["p", "p", "p", "q"] + ["p"] * 17 + ["q", "q"]
    df = pd.DataFrame({"x0": 0.0, "x1": 0.0, "x2": x2, "c0": c0, "d": d})
    table = DecisionTable.from_dataframe(df, thresholds="all")
    weighted = table.weighted([1, 1, 2] + [1] * 20)
    for x in ("nodes", "leaves"):
        rel = relate(weighted, x, MIS, max_depth=2)
        dag = relate(weighted.binarized(), x, MIS, max_depth=2)
        assert rel.engine == "ordered" and dag.engine != "ordered"
        assert rel.front.points() == dag.front.points(), x
        assert len(rel.front) == 4


def test_no_misclassifications_in_the_pair_is_the_leaf():
    df = pd.DataFrame({"a": [1, 2, 3, 4], "d": list("xyxy")})
    rel = relate(_table(df), "depth", "nodes", max_depth=2)
    assert rel.front.points() == [(0, 1)]
    assert extract_tree(rel, 0).root.is_leaf


def test_what_it_does_not_answer_goes_to_the_binary_expansion():
    df = pd.DataFrame({"a": [1, 2, 3, 4, 5], "b": list("xyxyy"), "d": list("ppqqp")})
    table = _table(df)
    uncapped = relate(table)
    assert uncapped.engine == "fast" and "a<=1.5" in uncapped.table.attributes
    exact = relate(table, "depth", "total-path-length", max_depth=3, exact_only=True)
    assert exact.engine == "fast"
    assert relate(table, max_depth=2, count=True).front.counts is not None
    assert relate(table, max_depth=2, engine="baseline").front.points() == (
        relate(table, max_depth=2).front.points()
    )
    with pytest.raises(InputError, match="needs a depth cap"):
        relate(table, engine="ordered")
    with pytest.raises(InputError, match="no numeric column"):
        relate(_table(df[["b", "d"]]), max_depth=2, engine="ordered")


def test_a_capped_query_the_ordered_solver_turns_down_warns_of_the_expansion():
    """False negatives against misclassifications on three classes (one positive) under a
    cap on many thresholds go to the binary expansion: the warning says why and what makes
    it small; fewer thresholds, or the ordered solver's own queries (the same pair on two
    classes, depth or total path length, with a minimum leaf size too), say nothing."""
    from dagger_cli.errors import CostWarning

    df = pd.DataFrame({"a": np.arange(40) / 2, "b": np.arange(40) % 7, "d": list("pq") * 20})
    three = df.assign(d=list("pqr") * 13 + ["p"])
    table = _table(three).weighted(min_leaf=3, positive="q")
    with pytest.warns(CostWarning, match=r"two classes without prices.*--thresholds K") as seen:
        rel = relate(table, "false-negatives", MIS, max_depth=2)
    assert rel.engine == "fast" and "45 binary attributes" in str(seen[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        few = _table(three, 3).weighted(min_leaf=3, positive="q")
        relate(few, "false-negatives", MIS, max_depth=2)
        two = _table(df).weighted(min_leaf=3, positive="q")
        for x in ("depth", "total-path-length", "false-negatives"):
            assert relate(two, x, MIS, max_depth=2).engine == "ordered"
        relate(_table(df), "depth", MIS, max_depth=2)


def test_weights_too_fine_for_the_kernels_are_said_with_their_sum_and_the_way_out():
    """Balanced class weights on classes of 19 and 11 rows need units the kernels' limit
    does not hold in all: why_not gives their sum and what keeps them in."""
    from dagger_cli.engine.kernels import ordered as k
    from dagger_cli.engine.ordered import why_not
    from dagger_cli.engine.query import Query

    df = pd.DataFrame({"a": np.arange(30) / 2, "d": ["p"] * 19 + ["q"] * 11})
    table = _table(df).weighted([100_000] * 30, class_weight="balanced")
    assert int(table.weighting.rows.sum()) > k.WEIGHT_LIMIT
    text = why_not(table, Query("depth", MIS, max_depth=2))
    assert f"{int(table.weighting.rows.sum()):,}" in text and "--class-weight CLASS=W" in text
    assert relate(table, "depth", MIS, max_depth=2).engine == "fast"


def test_staged_optimisation_on_many_thresholds_warns_of_the_expansion(tmp_path):
    """dagger optimize builds the DAG of the binary expansion (counting): said before the
    work, with the advice, on many thresholds; not on few."""
    df = pd.DataFrame({"a": np.arange(30) / 2, "d": list("pqq") * 10})
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    args = ["optimize", str(path), "--max-depth", "1", "--order", "misclassifications,depth"]
    run = CliRunner().invoke(main, [*args, "--thresholds", "all"])
    assert run.exit_code == 0, run.output
    assert "counting trees and staged optimisation" in run.stderr
    assert "29 binary attributes col<=t" in run.stderr and "--thresholds K" in run.stderr
    run = CliRunner().invoke(main, [*args, "--thresholds", "4"])
    assert run.exit_code == 0 and "binary attributes" not in run.stderr


def test_the_memory_ceiling_holds_before_any_work():
    df = pd.DataFrame({"a": range(50), "d": ["p", "q"] * 25})
    with pytest.raises(LimitError, match="workspace needs"):
        relate(_table(df), max_depth=3, max_memory="1K")


def test_ctrl_c_stops_the_worker(monkeypatch):
    """An interrupt in the waiting thread sets the abort flag; the kernel returns at its
    next split and the interrupt goes on, with no thread left behind."""
    from dagger_cli.engine import ordered
    from dagger_cli.engine.progress import Progress

    rng = np.random.default_rng(0)
    df = pd.DataFrame({f"a{j}": rng.normal(size=3000).round(3) for j in range(4)})
    df["d"] = rng.integers(0, 2, 3000).astype(str)
    table = _table(df)

    def interrupt(self, *args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "update", interrupt)
    with pytest.raises(KeyboardInterrupt):
        relate(table, "total-path-length", MIS, max_depth=4)
    assert not [t for t in threading.enumerate() if t.name == "dagger-ordered"]
    assert ordered.applies(
        table, type("Q", (), {"max_depth": 2, "exact_only": False, "count": False})()
    )


#: ConTree's least misclassifications per depth on its benchmark (shared/datasets/num).
CONTREE = {
    "bank": (201, 100, 23),
    "raisin": (122, 109, 94),
    "rice": (271, 257, 243),
    "wilt": (261, 138, 88),
    "segment": (1650, 990, 278),
    "page": (372, 253, 168),
}


@needs_num_mirror
@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CONTREE))
def test_contree_optima_on_its_benchmark(name):
    from dagger_cli.data.datasets import load_table

    table = load_table(f"num-{name}")
    depth = 3 if name in ("bank", "raisin", "segment") else 2
    rel = relate(table, "depth", MIS, max_depth=depth)
    best = dict(rel.front.points())
    least = [min(v for d, v in best.items() if d <= k) for k in range(1, depth + 1)]
    assert least == list(CONTREE[name][:depth])
    _check_trees(rel, depth)


@needs_num_mirror
@pytest.mark.slow
def test_depth_two_fronts_equal_the_dag_engine_on_bank():
    from dagger_cli.data.datasets import load_table

    table = load_table("num-bank")
    binary = table.binarized()
    for x in ("depth", "nodes", "total-path-length"):
        assert relate(table, x, MIS, max_depth=2).front.points() == (
            relate(binary, x, MIS, max_depth=2).front.points()
        )


def test_cli_relate_and_tree_on_a_numeric_csv(tmp_path):
    rng = np.random.default_rng(5)
    df = pd.DataFrame({"age": rng.integers(18, 80, 200), "score": rng.normal(size=200).round(2)})
    df["colour"] = rng.choice(["red", "blue"], 200)
    df["d"] = np.where((df.age > 40) & (df.score > 0), "yes", "no")
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    run = CliRunner().invoke(
        main,
        [
            "relate",
            str(path),
            "--thresholds",
            "all",
            "--max-depth",
            "2",
            "--x",
            "depth",
            "-q",
            "--stats",
        ],
    )
    assert run.exit_code == 0, run.output
    lines = run.stdout.splitlines()
    assert lines[-1].startswith("ordered solver: ")
    assert lines[-2].split() == ["2", "0"]  # depth 2 classifies every row
    run = CliRunner().invoke(
        main, ["tree", str(path), "--thresholds", "all", "--max-depth", "2", "--max-y", "0", "-q"]
    )
    assert run.exit_code == 0, run.output
    assert "age <= " in run.stdout and "score > " in run.stdout


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mixed_frames(max_rows=60, max_numeric=3, max_nominal=2, max_value=14),
    st.integers(2, 4),
    st.sampled_from(["all", 3]),
)
def test_depth_two_from_counts_equals_the_pass_per_split(df, depth, spec):
    """The depth-two trees from class counts per pair of attributes (few codes) against
    the pass per root split (forced by a limit of 0 codes): the same depth front."""
    from dagger_cli.engine import ordered

    table = _table(df, spec)
    if not table.ordered:
        return
    counted = relate(table, "depth", MIS, max_depth=depth).front.points()
    saved = ordered.COUNTS_MAX_CODES
    try:
        ordered.COUNTS_MAX_CODES = 0
        passed = relate(table, "depth", MIS, max_depth=depth)
    finally:
        ordered.COUNTS_MAX_CODES = saved
    assert counted == passed.front.points()
    _check_trees(passed, depth)


@st.composite
def two_class_numbers(draw):
    """Tables of 2 to 80 rows, one to three numeric columns of many values and two classes
    (the depth-two sweep's tables), some with integer row weights."""
    n = draw(st.integers(2, 80))
    k = draw(st.integers(1, 3))
    numbers = st.lists(st.integers(0, 40), min_size=n, max_size=n)
    data = {f"x{j}": draw(numbers) for j in range(k)}
    data["d"] = draw(st.lists(st.sampled_from("pq"), min_size=n, max_size=n))
    weights = draw(st.none() | st.lists(st.integers(1, 4), min_size=n, max_size=n))
    return pd.DataFrame(data), weights


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_class_numbers(), st.integers(2, 4), st.sampled_from([0, 1]))
def test_the_depth_two_sweep_equals_the_search_over_splits(frame, depth, factor):
    """The depth-two trees of two classes from the sweep of every root split at once (at
    once: factor 0; after a few splits searched: 1) against the search alone (-1): the same
    depth front, and every point's tree of its costs."""
    from dagger_cli.engine import ordered

    df, weights = frame
    table = _table(df)
    if weights is not None:
        table = table.weighted(weights)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ordered, "COUNTS_MAX_CODES", 0)  # not the trees from class counts
        mp.setattr(ordered, "SWEEP_FACTOR", -1)
        searched = relate(table, "depth", MIS, max_depth=depth).front.points()
        mp.setattr(ordered, "SWEEP_FACTOR", factor)
        swept = relate(table, "depth", MIS, max_depth=depth)
        assert swept.front.points() == searched
        _check_trees(swept, depth)


def _best_split_errors(codes, kinds, dec, rows):
    """Independently: the least errors of one split into leaves of ``rows`` (a leaf's when
    no split beats it), over every threshold of an ordered column and every nominal one."""
    if rows.size == 0:
        return 0
    leaf = rows.size - np.bincount(dec[rows]).max()
    best = leaf
    for a in range(codes.shape[0]):
        vals = codes[a, rows]
        if kinds[a] == 1:
            groups = [vals <= t for t in np.unique(vals)[:-1]]
            groups = [(g, ~g) for g in groups]
        else:
            uniq = np.unique(vals)
            groups = [tuple(vals == v for v in uniq)] if uniq.size >= 2 else []
        for parts in groups:
            e = sum(int(p.sum() - np.bincount(dec[rows[p]]).max()) for p in parts if p.any())
            best = min(best, e)
    return best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mixed_frames(max_rows=40, max_numeric=3, max_nominal=2, max_value=12),
    st.sampled_from([2, 3, 5]),
    st.data(),
)
def test_the_depth_two_pass_equals_a_brute_force_per_side(df, classes, data):
    """The pass behind every depth-two search (both sides' best split of a root split,
    each side swept on its own, two classes on their own path, more in 16-bit lanes and in
    32-bit ones; or one side alone, the other getting its leaf) against the least errors of
    one split of each side counted directly."""
    n = len(df)
    df = df.assign(d=data.draw(st.lists(st.integers(0, classes - 1), min_size=n, max_size=n)))
    table = _table(df)
    if not table.ordered:
        return
    check_the_pass_per_side(table)


def check_the_pass_per_side(table, attributes: int | None = None) -> int:
    """At every threshold of the root's ordered attributes (the first ``attributes``),
    both sides and each alone (the other getting its leaf): the pass's errors against the
    least errors of one split of each side counted directly. Returns the checks made."""
    from dagger_cli.engine import ordered
    from dagger_cli.engine.kernels import ordered as k

    arrays = ordered._Arrays(table, 2, None)
    m = arrays.load(None)
    cb, cls = k._packed(arrays.buf, 0, 0, m, arrays.codes, arrays.dec)
    sa = np.empty_like(cb)
    checked = 0
    for a in np.flatnonzero(arrays.kinds == 1)[:attributes]:
        k._root_codes(arrays.buf, 0, 0, m, arrays.codes, a, sa)
        for t in np.unique(arrays.codes[a])[:-1]:
            left = np.flatnonzero(arrays.codes[a] <= t)
            right = np.flatnonzero(arrays.codes[a] > t)
            totL = np.bincount(arrays.dec[left], minlength=arrays.C).astype(np.int64)
            totR = np.bincount(arrays.dec[right], minlength=arrays.C).astype(np.int64)
            want = tuple(
                _best_split_errors(arrays.codes, arrays.kinds, arrays.dec, rows)
                for rows in (left, right)
            )
            leaves = (left.size - totL.max(), right.size - totR.max())
            for which, expect in (
                (k.BOTH, want),
                (k.LEFT, (want[0], leaves[1])),
                (k.RIGHT, (leaves[0], want[1])),
            ):
                args = (cb, cls, sa, t, arrays.kinds, arrays.C, left.size, totL, totR, which)
                for narrow in (True, False):  # the 16-bit walk and the 32-bit one
                    assert k._sides_d1p(*args, narrow=narrow) == expect, (a, t, which, narrow)
                checked += 1
    return checked


def test_the_root_steps_give_one_answer_however_many_run_at_once(monkeypatch):
    """The whole-front search's root steps (one per attribute, two at once in threads when
    there are cores and memory, each reading what the steps before it found so far): the
    same front and the same tree at every point with one thread, with two (two steps at
    once, really), when --max-memory leaves room for one workspace, and when the steps run
    last to first, each before the steps it reads from have found anything (the board's
    worst timing); the counts are the same whenever one step runs at a time in order."""
    from dagger_cli.engine import ordered, threads

    rng = np.random.default_rng(7)
    df = pd.DataFrame({f"a{j}": rng.normal(size=120).round(1) for j in range(3)})
    df["a3"] = df.a0  # a copy: its step finds a0's points again, a0's tree must stay
    df["d"] = np.where(df.a0 + rng.normal(scale=0.7, size=120) > df.a1, "p", "q")
    table = _table(df)
    need = ordered._Arrays(table, 3, None).need
    real = ordered._schedule
    slots = []

    def schedule(step, n, at_once, *args, **kw):
        slots.append(at_once)
        return real(step, n, at_once, *args, **kw)

    def last_to_first(step, n, at_once, results, merge_done, *args, **kw):
        # every step here starts from the first front (n <= LAG), so any order may run
        assert n <= ordered.LAG
        slots.append(1)
        for i in reversed(range(n)):
            kernel, call, _ = step(i, 0)
            results[i] = threads.run(kernel, *call)
        merge_done()

    def answer(count, max_memory=None, run=schedule):
        monkeypatch.setattr(ordered, "_schedule", run)
        monkeypatch.setenv("DAGGER_THREADS", str(count))
        threads.CALLS.clear()
        slots.clear()
        rel = relate(table, "total-path-length", MIS, max_depth=3, max_memory=max_memory)
        assert set(threads.CALLS) == {count}  # every kernel call had that count
        trees = [extract_tree(rel, k).to_text() for k in range(len(rel.front))]
        return (rel.front.points(), trees), rel.stats.as_dict(), max(slots)

    one, counts, at_once = answer(1)
    assert len(one[0]) >= 5 and at_once == 1
    assert answer(2)[::2] == (one, 2)
    assert answer(2, max_memory=need + need // 2) == (one, counts, 1)
    backwards = answer(1, run=last_to_first)
    assert backwards[0] == one
    # the later steps, run first, had nothing to read: they did more work
    assert backwards[1]["splits"] > counts["splits"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    mixed_frames(max_rows=70, max_numeric=3, max_nominal=1, max_value=14),
    st.integers(4, 7),
    st.integers(3, 4),
    st.data(),
)
def test_many_classes_equal_the_dag_engine_on_the_binary_expansion(df, classes, depth, data):
    """Four to seven classes, where a side's trees of L leaves are bounded by its rows less
    its L largest classes: the same fronts as the DAG engine on the binary expansion."""
    n = len(df)
    # classes from buckets of the first column (so few-leaf trees come near the bound),
    # some rows relabelled at random
    noise = data.draw(st.lists(st.integers(-1, classes - 1), min_size=n, max_size=n))
    rule = [int(v // 1.5) % classes for v in df["x0"]]
    labels = [r if e < 0 or e % 3 else e for r, e in zip(rule, noise)]
    table = _table(df.assign(d=[f"k{v}" for v in labels]))
    if not table.ordered:
        return
    binary = table.binarized()
    for x in ("total-path-length", "nodes", "leaves"):
        rel = relate(table, x, MIS, max_depth=depth)
        assert rel.front.points() == relate(binary, x, MIS, max_depth=depth).front.points(), x
    _check_trees(rel, depth)


@settings(max_examples=80, deadline=None)
@given(st.data(), st.integers(1, 8), st.integers(1, 6))
def test_the_class_count_bounds_are_each_side_less_its_largest_classes(data, classes, leaves):
    """The class-count bounds (``out[k, side, L - 1]``: a side's rows less its L largest
    class counts) at every threshold, against the counts sorted directly."""
    from dagger_cli.engine.kernels import ordered as k

    m = data.draw(st.integers(2, 40))
    dec = np.array(data.draw(st.lists(st.integers(0, classes - 1), min_size=m, max_size=m)))
    lst = np.array(data.draw(st.permutations(range(m))), dtype=np.int64)
    cuts = sorted(data.draw(st.sets(st.integers(1, m - 1), min_size=1)))
    pos = np.array(cuts + [0], dtype=np.int64)
    total = np.bincount(dec, minlength=classes).astype(np.int64)
    got = k._class_bounds(lst, dec, classes, total, pos, len(cuts), leaves)
    for j, p in enumerate(cuts):
        left = np.bincount(dec[lst[:p]], minlength=classes)
        for sd, (cnt, size) in enumerate(((left, p), (total - left, m - p))):
            largest = np.cumsum(np.sort(cnt)[::-1])
            want = [size - largest[min(L, classes - 1)] for L in range(leaves)]
            assert got[j, sd].tolist() == want, (p, sd)


_POINTS = st.lists(st.tuples(st.integers(-3, 12), st.integers(0, 8)), max_size=9)


@settings(max_examples=200, deadline=None)
@given(_POINTS, _POINTS, st.booleans(), st.booleans(), st.sampled_from([1, 2, 5, 4000]))
def test_the_fast_combine_and_merge_equal_sorting_every_candidate(a, b, comb, stair, spread):
    """The pairs' front (a table per x, when the x are few) and the front with new points
    merged in (one pass, when the front is a staircase) against sorting every candidate
    (:func:`_pareto`): the same points, in the same order, with the same provenance."""
    from dagger_cli.engine.kernels import ordered as k

    def arr(values):
        return np.array(values, dtype=np.int64)

    f = pareto_front(a) if stair else a
    ax, ay = arr([p[0] for p in f]), arr([p[1] for p in f])
    bx, by = arr([p[0] * spread for p in b]), arr([p[1] for p in b])
    pairs = [(max(x, u) if comb else x + u, y + v) for x, y in zip(ax, ay) for u, v in zip(bx, by)]
    z = np.zeros(len(pairs), dtype=np.int64)
    want = k._pareto(arr([p[0] for p in pairs]), arr([p[1] for p in pairs]), z, z, z, len(pairs))
    got = k._combine(ax, ay, bx, by, int(comb))
    assert [g.tolist() for g in got] == [w.tolist() for w in want[:2]]
    fk, fa, fc = arr(range(ax.size)), arr(range(100, 100 + ax.size)), arr(range(ax.size))
    new = np.full(bx.size, 1, dtype=np.int64)
    cat = [np.concatenate(pair) for pair in ((ax, bx), (ay, by), (fk, 7 * new), (fa, 8 * new))]
    cat.append(np.concatenate((fc, 9 * new)))
    want = k._pareto(*cat, cat[0].size)
    got = k._merge(ax, ay, fk, fa, fc, bx, by, 7, 8, 9)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]


def _staircase(x0: int, y0: int):
    """A staircase from (x0, y0): x strictly up, y strictly down, steps of 1-3."""
    steps = st.lists(st.tuples(st.integers(1, 3), st.integers(1, 3)), max_size=13)
    return steps.map(
        lambda ds: [
            (x0 + sum(d[0] for d in ds[:i]), y0 - sum(d[1] for d in ds[:i]))
            for i in range(len(ds) + 1)
        ]
    )


@settings(max_examples=150, deadline=None)
@given(
    st.integers(-6, 6).flatmap(lambda x: _staircase(x, 20)),
    st.integers(0, 4).flatmap(lambda x: _staircase(x, 40)),
    st.integers(-5, 8),
    st.integers(-4, 4),
)
def test_a_bound_eroded_by_the_siblings_lower_set_rules_out_only_what_it_may(w, sib, dx, dy):
    """A child's bound from its sibling's whole lower-bound set (``eroded``): a point it
    rules out would be weakly dominated by the working front beside every point of the
    set (sound); with at most 8 points in the set, exactly those points are ruled out;
    beyond, at least what the set's least corner rules out."""
    from dagger_cli.engine.kernels import ordered as k

    w, sib = pareto_front(w), pareto_front(sib)
    ex, ey = k._eroded(
        [p[0] for p in w], [p[1] for p in w], [p[0] for p in sib], [p[1] for p in sib], dx, dy
    )
    bound = list(zip(ex.tolist(), ey.tolist()))
    assert bound == pareto_front(bound)  # a staircase

    def under(x, y, front):
        return any(fx <= x and fy <= y for fx, fy in front)

    corner = (min(p[0] for p in sib), min(p[1] for p in sib))
    for cx in range(-60, 60):
        for cy in range(-60, 45):
            ruled_out = under(cx, cy, bound)
            each = all(under(cx + sx + dx, cy + sy + dy, w) for sx, sy in sib)
            assert not ruled_out or each, (cx, cy)
            if len(sib) <= 8:
                assert ruled_out == each, (cx, cy)
            if under(cx + corner[0] + dx, cy + corner[1] + dy, w):
                assert ruled_out, (cx, cy)


def test_the_rows_a_neighbours_points_let_the_pruner_skip_are_the_most_it_may():
    """``kmax`` (how many rows beside an evaluated threshold its lower-bound set skips):
    the largest k for which every point moved by (-k * alpha, -k) is weakly dominated by
    the working front, k at most the point's y, 0 when a point is not dominated unmoved
    (nothing is skipped either way), found by trying every k on 3,000 random staircases and
    sets (seeded; a hypothesis search of 200 examples let a wrong version pass)."""
    from dagger_cli.engine.kernels import ordered as k

    rng = np.random.default_rng(40)
    for _ in range(3000):
        n = int(rng.integers(1, 8))
        fx = np.cumsum(rng.integers(1, 4, n)) - int(rng.integers(0, 6))
        fy = 20 - np.cumsum(rng.integers(1, 4, n))
        front = list(zip(fx.tolist(), fy.tolist()))
        c = [(int(rng.integers(-10, 60)), int(rng.integers(-3, 30))) for _ in range(3)]
        c = c[: int(rng.integers(0, 4))]
        alpha = int(rng.integers(0, 4))

        def under(x, y, front=front):
            return any(qx <= x and qy <= y for qx, qy in front)

        def most(px, py, alpha=alpha, under=under):
            if not under(px, py):
                return -1
            best = 0
            while best < py and under(px - (best + 1) * alpha, py - best - 1):
                best += 1
            return best

        each = [most(*p) for p in c]
        want = max(min(each, default=np.iinfo(np.int64).max), 0)
        got = k._kmax([p[0] for p in c], [p[1] for p in c], fx, fy, alpha)
        assert got == want, (front, c, alpha)


def test_cli_a_small_memory_ceiling_stops_the_search_with_exit_3(tmp_path):
    """The issue "the ordered solver checks only its fixed workspace": every byte its
    search allocates counts against --max-memory (here the memo of a depth-4 search outgrows
    it, the workspace fits): exit 3 and a message of what was needed and what to try."""
    from dagger_cli.engine import ordered

    rng = np.random.default_rng(11)
    df = pd.DataFrame({f"x{j}": rng.normal(size=300).round(3) for j in range(3)})
    df["y"] = np.where(df.x0 + rng.normal(size=300) > 0, "p", "q")
    path = tmp_path / "big.csv"
    df.to_csv(path, index=False)
    need = ordered._Arrays(_table(df), 4, None).need
    args = ["relate", str(path), "--thresholds", "all", "--max-depth", "4", "--x", "depth", "-q"]
    run = CliRunner().invoke(main, [*args, "--max-memory", str(need + 4096)])
    assert run.exit_code == 3, run.output
    assert "the ordered solver needs more than" in run.stderr and "(--max-memory)" in run.stderr
    assert "its memo of" in run.stderr and "Try a lower --max-depth than 4" in run.stderr
    assert "--thresholds K" in run.stderr and "Traceback" not in run.stderr
    fixed = ordered._Arrays(_table(df), 4, None).fixed  # its arrays: refused before any work
    run = CliRunner().invoke(main, [*args, "--max-memory", str(fixed - 1)])
    assert run.exit_code == 3 and "workspace needs" in run.stderr
