"""`dagger validate` with row weights, class weights and prices (issue 38): the held-out
errors are the weighted (priced) sum over the held-out rows in the training front's units,
checked against the estimator trained on each fold's rows with scikit-learn's own balanced
class weights, and a row of weight k against k copies of it."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli import validate as val
from dagger_cli.cli import main
from dagger_cli.data.recipe import Recipe


def _table(tmp_path, n=60, seed=3, name="t.csv", decimals=False):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 4, size=n)
    b = rng.integers(0, 3, size=n)
    d = np.where((a > 1) ^ (b == 0), "p", "q")
    d = np.where(rng.random(n) < 0.2, np.where(d == "p", "q", "p"), d)
    d = np.where(rng.random(n) < 0.15, "r", d)
    w = rng.integers(1, 5, size=n)
    cells = [f"{v / 2}" if decimals else str(v) for v in w]
    path = tmp_path / name
    lines = ["a,b,w,d"] + [f"{x},{y},{z},{c}" for x, y, z, c in zip(a, b, cells, d)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _rows(res):
    assert res.exit_code == 0, res.output
    return list(csv.DictReader(io.StringIO(res.stdout)))


@pytest.mark.parametrize("class_weight", [None, "balanced", "p=3"])
def test_weighted_heldout_errors_match_an_independent_path(tmp_path, class_weight):
    """An independent path to the same numbers: each fold's training rows as a table
    weighted by their weights and class weights (``balanced`` by scikit-learn's
    compute_class_weight on those rows), its front, and each point's tree routing the
    held-out rows, whose errors weigh by the same class weights."""
    pytest.importorskip("sklearn")
    pd = pytest.importorskip("pandas")
    from sklearn.utils.class_weight import compute_class_weight

    from dagger_cli.data.table import DecisionTable
    from dagger_cli.engine import relate
    from dagger_cli.trees import extract_trees

    path = _table(tmp_path)
    extra = [] if class_weight is None else ["--class-weight", class_weight]
    res = CliRunner().invoke(
        main,
        ["validate", str(path), "--weight", "w", "--folds", "3", "--max-depth", "2", "-q", *extra],
    )
    rows = _rows(res)
    df = pd.read_csv(path, dtype=str)
    fold = val.stratified_folds(df["d"].tolist(), 3, 0)
    for k in range(3):
        train, test = df[fold != k], df[fold == k]
        classes = np.array(sorted(set(train["d"])))
        if class_weight == "balanced":
            got = compute_class_weight("balanced", classes=classes, y=train["d"].to_numpy())
            cw = {c: Fraction(v).limit_denominator(10**6) for c, v in zip(classes, got)}
        elif class_weight is None:
            cw = {}
        else:
            cw = {"p": Fraction(3)}
        table = DecisionTable.from_rows(
            [(a, b) for a, b in zip(train["a"], train["b"])], list(train["d"])
        ).weighted([Fraction(w) for w in train["w"]], class_weight=cw or None)
        rel = relate(table, "total-path-length", "misclassifications", max_depth=2)
        trees = extract_trees(rel, range(len(rel.front)))
        mine = [r for r in rows if r["fold"] == str(k + 1)]
        assert [(int(r["total_path_length"]), int(r["misclassifications"])) for r in mine] == (
            rel.front.points()
        )
        unit = table.weighting.unit
        weight = [Fraction(w) * cw.get(c, 1) for w, c in zip(test["w"], test["d"])]
        for r, tree in zip(mine, trees):
            assert int(r["units"]) == unit
            wrong = Fraction(0)
            for (a, b, c), w in zip(zip(test["a"], test["b"], test["d"]), weight):
                wrong += w * (_decide(tree.root, {"f1": a, "f2": b}) != c)
            assert Fraction(r["heldout_errors"]) == wrong * unit
            assert Fraction(r["heldout_weight"]) == sum(weight, Fraction(0)) * unit
            assert Fraction(r["train_weight"]) == Fraction(
                table.weight_total * unit, table.weighting.scale
            )
            assert int(r["heldout_rows"]) == len(test) and int(r["train_rows"]) == len(train)


def _decide(node, row: dict) -> str:
    """The decision a tree takes for ``row``: down the branches of its values, stopping at
    a split that has no branch for one (its node's decision, as documented)."""
    while not node.is_leaf:
        branches = {str(v): child for v, child in node.children}
        if row[node.attribute] not in branches:
            break
        node = branches[row[node.attribute]]
    return str(node.decision)


def test_prices_weigh_the_heldout_errors(tmp_path):
    """A price matrix: each held-out row costs its weight times the price of the decision
    its tree takes; --test trains on all of the table."""
    path = _table(tmp_path)
    test = _table(tmp_path, n=30, seed=8, name="test.csv", decimals=True)
    prices = tmp_path / "p.csv"
    prices.write_text("true,p,q,r\np,0,1,2\nq,5,0,1\nr,1,1,0\n")
    res = CliRunner().invoke(
        main,
        [
            "validate",
            str(path),
            "--weight",
            "w",
            "--cost-matrix",
            str(prices),
            "--test",
            str(test),
            "--max-depth",
            "2",
            "-q",
        ],
    )
    rows = _rows(res)
    price = {
        ("p", "q"): 1,
        ("p", "r"): 2,
        ("q", "p"): 5,
        ("q", "r"): 1,
        ("r", "p"): 1,
        ("r", "q"): 1,
    }
    raw = val.read_raw(path, Recipe(weight="w", cost_matrix=str(prices), duplicates="keep"))
    table, front, trees = val.whole_front(raw, x="total-path-length", max_depth=2)
    assert [int(r["misclassifications"]) for r in rows] == front.y.tolist()
    import pandas as pd

    held = pd.read_csv(test, dtype={"d": str, "w": str})
    for r, tree in zip(rows, trees):
        said = [
            _decide(tree.root, {"a": str(a), "b": str(b)}) for a, b in zip(held["a"], held["b"])
        ]
        want = sum(
            (Fraction(w) * price.get((c, s), 0) for w, c, s in zip(held["w"], held["d"], said)),
            Fraction(0),
        )
        unit = int(r["units"])
        assert unit == table.weighting.unit
        assert Fraction(r["heldout_errors"]) == want * unit
        assert Fraction(r["heldout_weight"]) == sum(map(Fraction, held["w"])) * unit


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), cap=st.sampled_from([None, 2]))
def test_a_row_of_weight_k_validates_as_k_copies(tmp_path, data, cap):
    """Each fold of a weighted table against the same fold of the table with every row
    repeated by its weight (the copies kept together): the same training front, held-out
    errors and held-out weight (the copies' rows)."""
    n = data.draw(st.integers(4, 12))
    rows = [
        (
            data.draw(st.integers(0, 2)),
            data.draw(st.integers(0, 1)),
            data.draw(st.sampled_from("xy")),
        )
        for _ in range(n)
    ]
    weights = [data.draw(st.integers(1, 3)) for _ in range(n)]
    path = tmp_path / "w.csv"
    path.write_text(
        "a,b,w,d\n" + "".join(f"{a},{b},{w},{d}\n" for (a, b, d), w in zip(rows, weights))
    )
    copies = tmp_path / "c.csv"
    copies.write_text(
        "a,b,d\n"
        + "".join(f"{a},{b},{d}\n" for (a, b, d), w in zip(rows, weights) for _ in range(w))
    )
    one = val.read_raw(path, Recipe(weight="w", duplicates="keep"))
    many = val.read_raw(copies, Recipe(duplicates="keep"))
    fold = val.stratified_folds([d for *_, d in rows], 2, 0)
    if len(set(fold.tolist())) < 2:
        return
    first = np.cumsum([0, *weights])
    opts = dict(
        x="total-path-length", max_depth=cap, max_subtables=None, max_memory="auto", time_limit=None
    )
    labels = val._labels(one)
    for k in range(2):
        train = np.flatnonzero(fold != k).tolist()
        test = np.flatnonzero(fold == k).tolist()
        if not test or not train:
            continue

        def spread(idx):
            return [j for i in idx for j in range(first[i], first[i + 1])]

        a = val._fold(one, train, test, "w", pricing=val.Pricing.of(one, labels), **opts)
        b = val._fold(many, spread(train), spread(test), "c", **opts)
        assert a.front.points() == b.front.points()
        assert a.heldout_errors.tolist() == b.heldout_errors.tolist()
        assert a.heldout_weight == b.heldout_rows and a.train_weight == b.train_rows
        assert a.units == 1


def test_cli_says_what_the_numbers_are(tmp_path):
    """The CSV's extra columns and the plot's axis say what the held-out errors count."""
    path = _table(tmp_path)
    res = CliRunner().invoke(
        main,
        [
            "validate",
            str(path),
            "--weight",
            "w",
            "--folds",
            "2",
            "-q",
            "--plot",
            str(tmp_path / "v.png"),
            "--max-depth",
            "1",
        ],
    )
    rows = _rows(res)
    assert {"train_weight", "heldout_weight", "units"} <= set(rows[0])
    from dagger_cli.validate import rate_label

    raw = val.read_raw(path, Recipe(weight="w", duplicates="keep"))
    results = val.validate(raw, folds=2, max_depth=1)
    assert rate_label(results) == "error rate (weighted misclassifications / weight)"
    plain = CliRunner().invoke(main, ["validate", str(path), "--drop", "w", "--folds", "2", "-q"])
    assert "units" not in plain.stdout.splitlines()[0]
