"""Weighted rows, class weights and price matrices (issue 38): every front against an
independent brute force over every tree and every labelling of its leaves
(tests/oracle.py), a row of weight k against k copies of it, every extracted tree
re-evaluated on the rows by tests/evaluate.py's router, exact fractions, clear errors."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree
from dagger_cli.weights import Weighting, balanced, exact

try:  # tests/ as a package or as a rootdir-inserted directory
    from .evaluate import route
    from .oracle import (
        COST_PAIRS,
        DECISION_COSTS,
        DECISION_INDEX,
        pareto_front,
        project,
        weighted_cost_vectors,
    )
    from .strategies import tables
    from .test_ordered import mixed_frames
except ImportError:  # pragma: no cover
    from evaluate import route
    from oracle import (
        COST_PAIRS,
        DECISION_COSTS,
        DECISION_INDEX,
        pareto_front,
        project,
        weighted_cost_vectors,
    )
    from strategies import tables
    from test_ordered import mixed_frames

COLUMN = {
    "depth": "depth",
    "total-path-length": "total_path_length",
    "nodes": "nodes",
    "leaves": "leaves",
    "misclassifications": "misclassifications",
}


@st.composite
def weighted_tables(draw, priced: bool):
    t = draw(tables(max_rows=6, max_attributes=3, max_values=3, max_decisions=3))
    weights = draw(st.lists(st.integers(1, 4), min_size=t.n_rows, max_size=t.n_rows))
    labels = sorted(set(t.decisions))
    prices = None
    if priced:
        prices = {
            c: {d: draw(st.integers(0, 3)) if c != d else draw(st.integers(0, 1)) for d in labels}
            for c in labels
        }
    return t, weights, prices


def weighted(t, weights, prices) -> DecisionTable:
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    dv = table.decision_values
    matrix = None if prices is None else [[prices[c][d] for d in dv] for c in dv]
    return table.weighted(weights, prices=matrix)


def reevaluate(tree, t, weights, prices) -> dict:
    """Costs of an extracted tree on the rows, each row routed by tests/evaluate.py and
    counted ``weights[i]`` times; a leaf's decision priced by ``prices``."""
    header = [f"f{i + 1}" for i in range(t.n_attributes)] + ["d"]
    data = tree.to_dict()["tree"]
    total = mis = 0
    for i, rec in enumerate(t.records()):
        leaf, depth, _ = route(data, header, rec)
        total += weights[i] * depth
        c, d = rec[-1], str(leaf["decision"])
        mis += weights[i] * (int(c != d) if prices is None else prices[c][d])
    return {"total_path_length": total, "misclassifications": mis}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    pair=st.sampled_from(COST_PAIRS),
    cap=st.sampled_from([None, 1, 2, 3]),
)
def test_fronts_equal_the_brute_force(data, pair, cap):
    """Fast and baseline engines against every tree and every leaf labelling; every
    extracted tree re-evaluates to its point on the weighted rows."""
    t, weights, prices = data
    x, y = pair
    want = pareto_front(
        project(weighted_cost_vectors(t.rows, t.decisions, weights, prices, cap), x, y)
    )
    table = weighted(t, weights, prices)
    for engine in ("fast", "baseline"):
        rel = relate(table, x, y, max_depth=cap, engine=engine)
        got = list(zip(rel.front.x.tolist(), rel.front.y.tolist()))
        assert got == want, engine
    for k in range(len(rel.front)):
        rel = relate(table, x, y, max_depth=cap)
        tree = extract_tree(rel, k)
        costs = tree.costs()
        assert (costs[COLUMN[x]], costs[COLUMN[y]]) == want[k]
        again = reevaluate(tree, t, weights, prices)
        for name in (x, y):
            if COLUMN[name] in again:
                assert again[COLUMN[name]] == costs[COLUMN[name]]


@settings(max_examples=60, deadline=None)
@given(
    t=tables(max_rows=7, max_attributes=3, max_values=3, max_decisions=3),
    k=st.data(),
    pair=st.sampled_from(COST_PAIRS),
    cap=st.sampled_from([None, 2]),
)
def test_a_row_of_weight_k_is_k_copies(t, k, pair, cap):
    weights = k.draw(st.lists(st.integers(1, 4), min_size=t.n_rows, max_size=t.n_rows))
    rows = [r for r, w in zip(t.rows, weights) for _ in range(w)]
    decs = [d for d, w in zip(t.decisions, weights) for _ in range(w)]
    copies = DecisionTable.from_rows(rows, decs)
    once = DecisionTable.from_rows(list(t.rows), list(t.decisions)).weighted(weights)
    a = relate(copies, *pair, max_depth=cap)
    b = relate(once, *pair, max_depth=cap)
    assert a.front.x.tolist() == b.front.x.tolist()
    assert a.front.y.tolist() == b.front.y.tolist()


def test_fractions_are_exact_on_one_scale():
    """Decimal weights are read as exact fractions and scaled by their common
    denominator: weights 0.5, 1.5 are 1, 3 in halves, never a rounded float."""
    t = DecisionTable.from_rows([(0,), (1,), (1,)], ["a", "b", "a"])
    half = t.weighted(["0.5", "1.5", "0.25"])
    assert half.weighting.scale == 4
    assert half.weighting.rows.tolist() == [2, 6, 1]
    assert exact("0.1", "w") + exact("0.2", "w") == Fraction(3, 10)
    whole = t.weighted([2, 6, 1])
    a, b = relate(half), relate(whole)
    assert a.front.y.tolist() == b.front.y.tolist()


def test_class_weights_are_row_weights():
    """scikit-learn's meaning: a class weight multiplies its rows' weights; "balanced"
    gives n / (classes x rows of the class)."""
    t = DecisionTable.from_rows([(0,), (1,), (1,), (2,)], ["a", "b", "b", "b"])
    assert balanced(t.decisions, 2) == [Fraction(2), Fraction(2, 3)]
    by_class = t.weighted(class_weight={"a": 3})
    by_row = t.weighted([3, 1, 1, 1])
    assert by_class.weighting.rows.tolist() == by_row.weighting.rows.tolist()
    b = t.weighted(class_weight="balanced")
    assert b.weighting.scale == 3 and b.weighting.rows.tolist() == [6, 2, 2, 2]


def test_a_price_matrix_chooses_the_leaf():
    """A leaf takes the decision of least price, the first in decision order on a tie."""
    w = Weighting.make(None, decisions=[0, 1, 1], n_classes=2, prices=[[0, 5], [1, 0]])
    assert w.leaf(np.array([1, 2])) == (0, 2)  # deciding a costs 2, b costs 5
    tie = Weighting.make(None, decisions=[0, 1], n_classes=2)
    assert tie.leaf(np.array([1, 1])) == (0, 1)


@pytest.mark.parametrize(
    "weights, message",
    [
        ([1, 0, 1], "row 2: weight 0 is not positive"),
        ([1, -2, 1], "row 2: weight -2 is not positive"),
        ([1, "x", 1], "row 2: weight: 'x' is not a number"),
        ([1, float("nan"), 1], "row 2: weight: nan is not a finite number"),
        ([1, "1e-12", 1], "need a common denominator above"),
    ],
)
def test_bad_weights_are_named(weights, message):
    t = DecisionTable.from_rows([(0,), (1,), (1,)], ["a", "b", "a"])
    with pytest.raises(InputError, match=message.replace("(", r"\(")):
        t.weighted(weights)


TABLE = "a,b,w,y\n0,0,1,no\n0,1,3,yes\n1,0,1,yes\n1,1,2,no\n1,1,1,yes\n0,0,2,no\n"


def run(args, tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(TABLE)
    return CliRunner().invoke(main, [args[0], str(path), *args[1:]])


def test_cli_weight_column_equals_repeated_rows(tmp_path):
    rows = [line.split(",") for line in TABLE.strip().splitlines()[1:]]
    repeated = "a,b,y\n" + "".join(f"{a},{b},{y}\n" for a, b, w, y in rows for _ in range(int(w)))
    (tmp_path / "r.csv").write_text(repeated)
    a = CliRunner().invoke(main, ["relate", str(tmp_path / "r.csv"), "--format", "csv"])
    b = run(["relate", "--weight", "w", "--format", "csv"], tmp_path)
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert a.stdout.splitlines() == b.stdout.splitlines()


def test_cli_weight_as_the_last_column_leaves_the_decision_before_it(tmp_path):
    """With the weights (or a dropped column) last and no --decision, the decision is the
    column before it (the weight column is never the decision), and the note says so."""
    rows = [line.split(",") for line in TABLE.strip().splitlines()]
    (tmp_path / "last.csv").write_text("".join(f"{a},{b},{y},{w}\n" for a, b, w, y in rows))
    a = run(["relate", "--weight", "w", "--format", "csv"], tmp_path)
    b = CliRunner().invoke(
        main, ["relate", str(tmp_path / "last.csv"), "--weight", "w", "--format", "csv"]
    )
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert a.stdout == b.stdout
    assert "decision column: 'y' (the last of 4 columns left after --drop and --weight" in b.stderr
    # and a dropped last column the same
    c = CliRunner().invoke(
        main, ["relate", str(tmp_path / "last.csv"), "--drop", "w", "--format", "csv"]
    )
    assert c.exit_code == 0, c.output
    assert "decision column: 'y' (the last of 4 columns left after" in c.stderr


def test_cli_says_what_misclassifications_count(tmp_path):
    res = run(["relate", "--weight", "w"], tmp_path)
    assert res.exit_code == 0, res.output
    assert "weighted misclassifications" in res.output


def test_cli_cost_matrix(tmp_path):
    (tmp_path / "p.csv").write_text("true,no,yes\nno,0,1\nyes,5,0\n")
    res = run(
        ["relate", "--drop", "w", "--cost-matrix", str(tmp_path / "p.csv"), "--format", "csv"],
        tmp_path,
    )
    assert res.exit_code == 0, res.output
    t = DecisionTable.from_csv(tmp_path / "t.csv", drop=["w"])
    want = relate(t.weighted(prices=[[0, 1], [5, 0]]))
    got = [line.split(",") for line in res.stdout.strip().splitlines()[1:]]
    header = res.stdout.splitlines()[0].split(",")
    ys = [int(r[header.index("misclassifications")]) for r in got]
    assert ys == want.front.y.tolist()


@pytest.mark.parametrize(
    "matrix, message",
    [
        ("true,no,maybe\nno,0,1\nyes,1,0\n", "line 1, column 3: 'maybe' is not a class"),
        ("true,no,yes\nno,0,1\n", "no price for predicting 'no' on a row of class 'yes'"),
        ("true,no,yes\nno,0,x\nyes,1,0\n", "line 2, column 3: 'x' is not a number"),
        ("true,no,yes\nno,0,-1\nyes,1,0\n", "a price is negative"),
    ],
)
def test_cli_bad_cost_matrix(tmp_path, matrix, message):
    (tmp_path / "p.csv").write_text(matrix)
    res = run(["relate", "--cost-matrix", str(tmp_path / "p.csv")], tmp_path)
    assert res.exit_code == 2
    assert message in res.output
    assert "Traceback" not in res.output


def test_cli_bad_weight_names_the_line(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("a,w,y\n0,1,no\n1,0,yes\n")
    res = CliRunner().invoke(main, ["relate", str(path), "--weight", "w"])
    assert res.exit_code == 2
    assert "line 3: weight '0' is not positive" in res.output
    res = CliRunner().invoke(main, ["relate", str(path), "--weight", "nope"])
    assert res.exit_code == 2 and "no column named 'nope'" in res.output


def test_cli_class_weight(tmp_path):
    a = run(["relate", "--drop", "w", "--class-weight", "yes=2", "--format", "csv"], tmp_path)
    assert a.exit_code == 0, a.output
    t = DecisionTable.from_csv(tmp_path / "t.csv", drop=["w"])
    want = relate(t.weighted(class_weight={"yes": 2}))
    header = a.stdout.splitlines()[0].split(",")
    lines = a.stdout.strip().splitlines()[1:]
    ys = [int(r.split(",")[header.index("misclassifications")]) for r in lines]
    assert ys == want.front.y.tolist()
    bad = run(["relate", "--drop", "w", "--class-weight", "maybe=2"], tmp_path)
    assert bad.exit_code == 2 and "no such class" in bad.output


@settings(max_examples=60, deadline=None)
@given(data=weighted_tables(priced=False) | weighted_tables(priced=True))
def test_greedy_trees_count_the_weights(data):
    """Every greedy tree's costs are those of its tree re-evaluated on the weighted rows,
    and none is below the exact front (a greedy tree is one of the trees)."""
    from dagger_cli.greedy import greedy_trees
    from dagger_cli.trees import Tree

    t, weights, prices = data
    table = weighted(t, weights, prices)
    front = relate(table)
    for costs, build in greedy_trees(table):
        again = reevaluate(Tree.for_table(table, build()), t, weights, prices)
        assert again["total_path_length"] == costs["total_path_length"]
        assert again["misclassifications"] == costs["misclassifications"]
        best = [y for x, y in zip(front.front.x, front.front.y) if x <= costs["total_path_length"]]
        assert costs["misclassifications"] >= min(best)


@settings(max_examples=40, deadline=None)
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    cap=st.sampled_from([None, 2]),
)
def test_greedy_points_of_false_positives_and_negatives(data, cap):
    """--greedy on a front of false positives against false negatives: every heuristic's
    point is a greedy tree's (re-evaluated on the weighted rows) and none is below the
    exact front."""
    from dagger_cli.greedy import greedy_points, greedy_trees
    from dagger_cli.trees import Tree

    t, weights, prices = data
    table = weighted(t, weights, prices)
    table = table.weighted(positive=table.decision_values[-1])
    x, y = "false-positives", "false-negatives"
    front = relate(table, x, y, max_depth=cap).front
    trees = set()
    for _, build in greedy_trees(table, max_depth=cap):
        costs = Tree.for_table(table, build()).costs()
        trees.add((costs["false_positives"], costs["false_negatives"]))
    for px, py in greedy_points(table, x, y, max_depth=cap).values():
        for p in zip(px.tolist(), py.tolist()):
            assert p in trees
            assert any(a <= p[0] and b <= p[1] for a, b in front.points())


@pytest.mark.parametrize(
    "command, message",
    [
        (["rules"], "decision rules"),
    ],
)
def test_what_does_not_read_weights_says_so(tmp_path, command, message):
    res = run([command[0], "--weight", "w", *command[1:]], tmp_path)
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


def test_weights_with_merged_rows_are_refused(tmp_path):
    res = run(["relate", "--weight", "w", "--duplicates", "merge"], tmp_path)
    assert res.exit_code == 2 and "--duplicates keep" in res.output


@pytest.mark.parametrize(
    "extra", [[], ["--thresholds", "1"], ["--thresholds", "2", "--max-depth", "2"]]
)
def test_cli_weights_place_quantile_thresholds_as_copies_would(tmp_path, extra):
    """Under --thresholds K the quantiles are of the weighted rows: a row of weight k
    places them as k copies of it do, so the fronts are equal."""
    rows = [
        (1, 1, "a"),
        (2, 1, "a"),
        (3, 1, "b"),
        (4, 5, "b"),
        (5, 1, "a"),
        (6, 2, "b"),
        (7, 1, "a"),
    ]
    (tmp_path / "w.csv").write_text("x,w,y\n" + "".join(f"{x},{w},{y}\n" for x, w, y in rows))
    copies = "".join(f"{x},{y}\n" for x, w, y in rows for _ in range(w))
    (tmp_path / "c.csv").write_text("x,y\n" + copies)
    a = CliRunner().invoke(main, ["relate", str(tmp_path / "c.csv"), "-q", *extra])
    b = CliRunner().invoke(main, ["relate", str(tmp_path / "w.csv"), "--weight", "w", "-q", *extra])
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert a.stdout.splitlines()[1:] == b.stdout.splitlines()[1:]


def leaves_of(node):
    if node.is_leaf:
        return [node]
    return [leaf for _, child in node.children for leaf in leaves_of(child)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    pair=st.sampled_from([p for p in COST_PAIRS if "misclassifications" in p]),
    cap=st.sampled_from([None, 1, 2]),
    k=st.integers(1, 4),
    plain=st.booleans(),
)
def test_min_leaf_fronts_equal_the_brute_force(data, pair, cap, k, plain):
    """The fronts over the trees whose every leaf holds k rows or more: fast (an infeasible
    price on small leaves) and baseline (no leaf there) against the brute force; every
    extracted tree's leaves hold k rows."""
    t, weights, prices = data
    if plain:
        weights, prices = [1] * t.n_rows, None
    x, y = pair
    want = pareto_front(
        project(weighted_cost_vectors(t.rows, t.decisions, weights, prices, cap, k), x, y)
    )
    table = weighted(t, None if plain else weights, prices).weighted(min_leaf=k)
    for engine in ("fast", "baseline"):
        rel = relate(table, x, y, max_depth=cap, engine=engine)
        got = list(zip(rel.front.x.tolist(), rel.front.y.tolist()))
        assert got == want, engine
    rel = relate(table, x, y, max_depth=cap)
    for i in range(len(rel.front)):
        tree = extract_tree(rel, i)
        rows = [int(np.sum(leaf.counts)) for leaf in leaves_of(tree.root)]
        assert tree.costs()[COLUMN[y]] == want[i][1]
        if plain and len(rows) > 1:
            assert min(rows) >= k


@settings(max_examples=40, deadline=None)
@given(t=tables(max_rows=8, max_attributes=3, max_values=3, max_decisions=3), k=st.integers(2, 4))
def test_greedy_trees_respect_the_min_leaf(t, k):
    from dagger_cli.greedy import greedy_trees

    table = DecisionTable.from_rows(list(t.rows), list(t.decisions)).weighted(min_leaf=k)
    for _, build in greedy_trees(table):
        assert min(sum(leaf.counts) for leaf in leaves_of(build())) >= min(k, t.n_rows)


def test_cli_min_leaf(tmp_path):
    res = run(["relate", "--drop", "w", "--min-leaf", "2", "--format", "json", "-q"], tmp_path)
    assert res.exit_code == 0, res.output
    import json

    doc = json.loads(res.stdout)
    assert doc["table"]["min_leaf"] == 2
    t = DecisionTable.from_csv(tmp_path / "t.csv", drop=["w"])
    want = relate(t.weighted(min_leaf=2))
    assert [p["misclassifications"] for p in doc["points"]] == want.front.y.tolist()
    bad = run(["relate", "--min-leaf", "2", "--x", "depth", "--y", "nodes"], tmp_path)
    assert (
        bad.exit_code == 2
        and "needs misclassifications, false positives or false negatives" in bad.output
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    df=mixed_frames(max_rows=30, max_numeric=3, max_nominal=1, max_value=10),
    depth=st.integers(1, 3),
    data=st.data(),
)
def test_the_ordered_solver_reads_weights_as_repeated_rows(df, depth, data):
    """Numeric columns under a depth cap with integer weights and class weights: the
    ordered solver (on the rows repeated by weight) equals the DAG engine on the binary
    expansion of the weighted table, every pair with misclassifications, trees included."""
    table = DecisionTable.from_dataframe(df, thresholds="all")
    if not table.ordered:
        return
    w = data.draw(st.lists(st.integers(1, 3), min_size=table.n_rows, max_size=table.n_rows))
    cw = data.draw(st.none() | st.just({table.decision_values[0]: 2}))
    weighted_table = table.weighted(w, class_weight=cw)
    binary = weighted_table.binarized()
    for x in ("depth", "total-path-length", "nodes", "leaves"):
        rel = relate(weighted_table, x, "misclassifications", max_depth=depth)
        dag = relate(binary, x, "misclassifications", max_depth=depth)
        assert rel.engine == "ordered" and dag.engine == "fast"
        assert rel.front.points() == dag.front.points(), x
        for k in range(len(rel.front)):
            costs = extract_tree(rel, k).costs()
            assert (costs[COLUMN[x]], costs["misclassifications"]) == rel.front.points()[k]


DECISION_PAIRS = [
    (x, y) for x in DECISION_COSTS for y in DECISION_COSTS if x != y and "false" in x + y
]
COLUMN.update({"false-positives": "false_positives", "false-negatives": "false_negatives"})


def decision_project(vectors, x, y):
    return {(v[DECISION_INDEX[x]], v[DECISION_INDEX[y]]) for v in vectors}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    pair=st.sampled_from(DECISION_PAIRS),
    cap=st.sampled_from([None, 1, 2]),
    which=st.integers(0, 2),
)
def test_false_positives_and_negatives_equal_the_brute_force(data, pair, cap, which):
    """A leaf with a choice of two decisions: every front with false positives or
    negatives, fast and baseline, against every tree and every leaf labelling; every
    extracted tree re-evaluates to its point on the weighted rows."""
    t, weights, prices = data
    labels = sorted(set(t.decisions))
    positive = labels[which % len(labels)]
    if len(labels) < 2:
        return
    x, y = pair
    vectors = weighted_cost_vectors(t.rows, t.decisions, weights, prices, cap, positive=positive)
    want = pareto_front(decision_project(vectors, x, y))
    table = weighted(t, weights, prices).weighted(positive=positive)
    for engine in ("fast", "baseline"):
        rel = relate(table, x, y, max_depth=cap, engine=engine)
        got = list(zip(rel.front.x.tolist(), rel.front.y.tolist()))
        assert got == want, engine
    rel = relate(table, x, y, max_depth=cap)
    for k in range(len(rel.front)):
        tree = extract_tree(rel, k)
        costs = tree.costs()
        assert (costs[COLUMN[x]], costs[COLUMN[y]]) == want[k]
        again = reevaluate(tree, t, weights, prices)
        header = [f"f{i + 1}" for i in range(t.n_attributes)] + ["d"]
        fp = fn = 0
        for i, rec in enumerate(t.records()):
            leaf, _, _ = route(tree.to_dict()["tree"], header, rec)
            said, true = str(leaf["decision"]), rec[-1]
            fp += weights[i] * (said == positive and true != positive)
            fn += weights[i] * (said != positive and true == positive)
        assert (fp, fn) == (costs["false_positives"], costs["false_negatives"])
        assert again["misclassifications"] == costs["misclassifications"]


def test_false_positives_need_a_positive_class(tmp_path):
    """A two-class table's second class by default, said in the output; more classes need
    --positive; an unknown class is named."""
    res = run(
        ["relate", "--drop", "w", "--x", "false-positives", "--y", "false-negatives"], tmp_path
    )
    assert res.exit_code == 0, res.output
    assert "positive class 'yes'" in res.output
    three = tmp_path / "three.csv"
    three.write_text("a,y\n0,p\n1,q\n2,r\n")
    bad = CliRunner().invoke(main, ["relate", str(three), "--y", "false-negatives"])
    assert bad.exit_code == 2 and "give --positive CLASS" in bad.output
    ok = CliRunner().invoke(
        main, ["relate", str(three), "--y", "false-negatives", "--positive", "q"]
    )
    assert ok.exit_code == 0, ok.output
    nope = CliRunner().invoke(
        main, ["relate", str(three), "--y", "false-negatives", "--positive", "z"]
    )
    assert nope.exit_code == 2 and "no class 'z'" in nope.output


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(priced=False),
    cap=st.sampled_from([None, 1, 2]),
    score=st.sampled_from(["f1", "balanced-accuracy"]),
)
def test_the_best_score_is_the_best_over_every_tree(data, cap, score):
    """The point of the greatest F1 (balanced accuracy) on the FP-FN front has the
    greatest score over every tree and every leaf labelling."""
    from dagger_cli.scores import balanced_accuracy, best_point, f1

    t, weights, _ = data
    labels = sorted(set(t.decisions))
    if len(labels) < 2:
        return
    positive = labels[-1]
    vectors = weighted_cost_vectors(t.rows, t.decisions, weights, None, cap, positive=positive)
    positives = sum(w for w, d in zip(weights, t.decisions) if d == positive)
    negatives = sum(weights) - positives

    def value(fp, fn):
        tp = positives - fn
        return f1(tp, fp, fn) if score == "f1" else balanced_accuracy(tp, fp, fn, negatives)

    want = max(value(v[DECISION_INDEX["false-positives"]], v[-1]) for v in vectors)
    table = weighted(t, weights, None).weighted(positive=positive)
    rel = relate(table, "false-positives", "false-negatives", max_depth=cap)
    k, line = best_point(rel, score)
    assert value(int(rel.front.x[k]), int(rel.front.y[k])) == want
    assert str(want) in line


def test_cli_best_f1(tmp_path):
    res = run(["tree", "--drop", "w", "--best", "f1", "--max-depth", "1"], tmp_path)
    assert res.exit_code == 0, res.output
    assert "F1 = 0.666667 (2/3)" in res.output and "false_positives=1" in res.stdout


def test_the_roc_view_draws_the_rates(tmp_path):
    """--kind roc: each point at (FP / negatives, 1 - FN / positives); other pairs refused."""
    import matplotlib

    matplotlib.use("Agg")
    from dagger_cli.plots import PARETO_LABEL, PlotError, plot_front
    from dagger_cli.scores import class_split

    t = DecisionTable.from_csv(
        tmp_path / "t.csv" if (tmp_path / "t.csv").exists() else _t(tmp_path)
    )
    table = t.weighted(positive="yes")
    rel = relate(table, "false-positives", "false-negatives", max_depth=1)
    pos, neg = class_split(rel.table)
    fig = plot_front(rel.front, kind="roc", classes=(pos, neg))
    (line,) = [ln for ln in fig.axes[0].lines if ln.get_gid() == PARETO_LABEL]
    want = sorted((fp / neg, 1 - fn / pos) for fp, fn in rel.front.points())
    got = sorted(zip(line.get_xdata(), line.get_ydata()))
    assert np.allclose(np.array(got), np.array(want))
    with pytest.raises(PlotError, match="ROC view"):
        plot_front(relate(table).front, kind="roc", classes=(pos, neg))
    res = run(
        ["relate", "--drop", "w", "--plot", str(tmp_path / "p.png"), "--kind", "roc"], tmp_path
    )
    assert res.exit_code == 2 and "the ROC view needs" in res.output


def _t(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(TABLE)
    return path


def test_class_weights_beyond_the_limit_say_what_to_do():
    """Balanced class weights on very unequal classes need a huge exact scale: the message
    says to round the class weights (not "fewer decimals" of weights the user never gave)."""
    decisions = ["a"] * 4320 + ["b"] * 2 + ["c"] * 328 + ["d"] * 4266 + ["e"] * 4043
    t = DecisionTable.from_rows([(i % 7,) for i in range(len(decisions))], decisions)
    with pytest.raises(InputError, match="give rounded ones instead"):
        t.weighted(class_weight="balanced")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    y=st.sampled_from(["false-positives", "false-negatives"]),
    cap=st.sampled_from([None, 1, 2]),
    which=st.integers(0, 2),
    k=st.integers(2, 4),
)
def test_min_leaf_with_false_positives_equals_the_brute_force(data, y, cap, which, k):
    """Misclassifications against false positives (negatives) under a minimum leaf size:
    a leaf of fewer rows costs the infeasible price whichever of its two decisions it
    takes (Dag.leaf_choices), so no front point uses one; fast and baseline against the
    brute force, which never builds such a leaf."""
    t, weights, prices = data
    labels = sorted(set(t.decisions))
    if len(labels) < 2:
        return
    positive = labels[which % len(labels)]
    vectors = weighted_cost_vectors(t.rows, t.decisions, weights, prices, cap, k, positive=positive)
    want = pareto_front(decision_project(vectors, "misclassifications", y))
    table = weighted(t, weights, prices).weighted(positive=positive, min_leaf=k)
    for engine in ("fast", "baseline"):
        rel = relate(table, "misclassifications", y, max_depth=cap, engine=engine)
        assert rel.front.points() == want, engine


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=weighted_tables(priced=False) | weighted_tables(priced=True),
    pair=st.sampled_from(
        [
            ("false-positives", "false-negatives"),
            ("false-negatives", "false-positives"),
            ("depth", "false-negatives"),
            ("total-path-length", "false-positives"),
            ("false-positives", "nodes"),
        ]
    ),
    cap=st.sampled_from([None, 1, 2]),
    which=st.integers(0, 2),
    k=st.integers(2, 4),
)
def test_min_leaf_without_misclassifications_equals_the_brute_force(data, pair, cap, which, k):
    """False positives or negatives price a leaf of fewer rows as misclassifications do
    (the infeasible price in all three), so they carry a minimum leaf size without
    misclassifications beside them: the ROC front, depth against false negatives, ...;
    fast and baseline against the brute force, and every tree re-evaluates to its point
    with every leaf of k rows or more (the whole table aside)."""
    t, weights, prices = data
    labels = sorted(set(t.decisions))
    if len(labels) < 2:
        return
    positive = labels[which % len(labels)]
    x, y = pair
    vectors = weighted_cost_vectors(t.rows, t.decisions, weights, prices, cap, k, positive=positive)
    want = pareto_front(decision_project(vectors, x, y))
    table = weighted(t, weights, prices).weighted(positive=positive, min_leaf=k)
    for engine in ("fast", "baseline"):
        rel = relate(table, x, y, max_depth=cap, engine=engine)
        assert rel.front.points() == want, engine
    rel = relate(table, x, y, max_depth=cap)
    for i, point in enumerate(want):
        tree = extract_tree(rel, i)
        costs = tree.costs()
        assert (costs[COLUMN[x]], costs[COLUMN[y]]) == point
        rows = [leaf.rows for leaf in leaves_of(tree.root)]
        if set(weights) == {1} and len(rows) > 1:
            assert min(rows) >= k
