"""`dagger validate`: stratified folds, held-out errors along the front, reproducibility."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.costs import COSTS
from dagger_cli.fronts import Front
from dagger_cli.validate import FoldResult, mean_curves, stratified_folds


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.sampled_from("abc"), min_size=2, max_size=60), st.integers(2, 6), st.integers(0, 9)
)
def test_folds_are_stratified_balanced_and_seeded(labels, k, seed):
    if k > len(labels):
        return
    fold = stratified_folds(labels, k, seed)
    assert fold.shape == (len(labels),) and set(fold.tolist()) <= set(range(k))
    sizes = np.bincount(fold, minlength=k)
    assert sizes.max() - sizes.min() <= 1
    for v in set(labels):
        per = np.bincount(fold[np.array(labels) == v], minlength=k)
        assert per.max() - per.min() <= 1  # each decision spread evenly
    assert (stratified_folds(labels, k, seed) == fold).all()


def test_fold_errors():
    from dagger_cli.errors import InputError

    with pytest.raises(InputError, match="at most 3 folds"):
        stratified_folds("abc", 4)
    with pytest.raises(InputError, match="at least 2"):
        stratified_folds("abc", 1)


def _table(tmp_path, n=90, seed=5, name="t.csv"):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(2)
    b = rng.integers(0, 20, size=n)
    c = rng.choice(["u", "v", "w"], size=n)
    d = np.where((a > 0) & (c != "w") | (b < 4), "p", "q")
    d = np.where(rng.random(n) < 0.15, np.where(d == "p", "q", "p"), d)
    path = tmp_path / name
    lines = ["a,b,c,d"] + [f"{x},{y},{z},{w}" for x, y, z, w in zip(a, b, c, d)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _run(args):
    res = CliRunner().invoke(main, ["validate", *args])
    assert res.exit_code == 0, res.output
    return res


def test_seeded_split_is_reproducible_byte_for_byte(tmp_path):
    path = _table(tmp_path)
    outs = []
    for run in range(2):
        out, png = tmp_path / f"v{run}.csv", tmp_path / f"v{run}.png"
        _run(
            [
                str(path),
                "--thresholds",
                "3",
                "--folds",
                "3",
                "--seed",
                "4",
                "-q",
                "-o",
                str(out),
                "--plot",
                str(png),
            ]
        )
        outs.append((out.read_bytes(), png.read_bytes()))
    assert outs[0] == outs[1]
    other = tmp_path / "other.csv"
    _run([str(path), "--thresholds", "3", "--folds", "3", "--seed", "5", "-q", "-o", str(other)])
    assert other.read_bytes() != outs[0][0]  # the seed matters
    rows = list(csv.DictReader(io.StringIO(outs[0][0].decode())))
    assert list(rows[0]) == [
        "fold",
        "total_path_length",
        "average_depth",
        "misclassifications",
        "train_rows",
        "heldout_rows",
        "heldout_errors",
    ]
    assert {r["fold"] for r in rows} == {"1", "2", "3"}
    assert sum(int(r["heldout_rows"]) for r in rows if r["total_path_length"] == "0") == 90


def test_heldout_errors_match_the_estimator_trained_on_the_same_rows(tmp_path):
    """An independent path to the same numbers: the scikit-learn estimator, trained on each
    fold's training rows with max_x = the point's x, predicting the held-out rows."""
    pytest.importorskip("sklearn")
    pd = pytest.importorskip("pandas")
    from dagger_cli.sklearn import DaggerTreeClassifier

    path = _table(tmp_path)
    res = _run([str(path), "--thresholds", "3", "--folds", "3", "--seed", "2", "-q"])
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    df = pd.read_csv(path)
    fold = stratified_folds(df["d"].astype(str).tolist(), 3, 2)
    for k in range(3):
        train, test = df[fold != k], df[fold == k]
        mine = [r for r in rows if r["fold"] == str(k + 1)]
        for r in mine:
            clf = DaggerTreeClassifier(
                max_depth=None, thresholds=3, max_x=int(r["total_path_length"])
            ).fit(train[["a", "b", "c"]], train["d"])
            assert [int(v) for v in (r["total_path_length"], r["misclassifications"])] == list(
                clf.front_.points()[clf.front_index_]
            )
            errors = int((clf.predict(test[["a", "b", "c"]]) != test["d"]).sum())
            assert int(r["heldout_errors"]) == errors
            assert int(r["heldout_rows"]) == len(test) and int(r["train_rows"]) == len(train)


def test_a_test_file(tmp_path):
    path = _table(tmp_path)
    test = _table(tmp_path, n=40, seed=9, name="test.csv")  # another sample, same columns
    res = _run([str(path), "--thresholds", "2", "--test", str(test), "-q"])
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert {r["fold"] for r in rows} == {"test"}
    assert all(r["heldout_rows"] == "40" and r["train_rows"] == "90" for r in rows)
    assert rows[0]["total_path_length"] == "0"  # the single leaf: the training majority
    labels = [line.split(",")[-1] for line in test.read_text().split()[1:]]
    train = [line.split(",")[-1] for line in path.read_text().split()[1:]]
    major = max(sorted(set(train)), key=train.count)
    assert int(rows[0]["heldout_errors"]) == sum(v != major for v in labels)


def test_usage_errors(tmp_path):
    path = _table(tmp_path)
    for args in ([], ["--folds", "3", "--test", str(path)], ["--folds", "500"]):
        res = CliRunner().invoke(main, ["validate", str(path), *args])
        assert res.exit_code == 2 and "Traceback" not in res.output, res.output
    res = CliRunner().invoke(main, ["validate", str(path), "--bins", "2", "--test", str(path)])
    assert res.exit_code == 2 and "--thresholds" in res.output


def _result(xs, ys, errs, train_rows, held_rows, fold="1"):
    front = Front(COSTS["total-path-length"], COSTS["misclassifications"], xs, ys, train_rows)
    return FoldResult(fold, front, train_rows, held_rows, np.array(errs))


def test_mean_curves_average_the_step_functions():
    a = _result([0, 10], [5, 1], [3, 2], 10, 5)  # x: 0, 1.0
    b = _result([0, 5, 20], [4, 2, 0], [2, 2, 1], 10, 5)  # x: 0, 0.5, 2.0
    grid, train, held = mean_curves([a, b])
    assert grid.tolist() == [0.0, 0.5, 1.0, 2.0]
    assert np.allclose(train, [(0.5 + 0.4) / 2, (0.5 + 0.2) / 2, (0.1 + 0.2) / 2, (0.1 + 0) / 2])
    assert np.allclose(held, [(0.6 + 0.4) / 2, (0.6 + 0.4) / 2, (0.4 + 0.4) / 2, (0.4 + 0.2) / 2])


def _holed(tmp_path, name, n, seed, holes):
    """A table like :func:`_table` with missing cells: the first ``holes`` rows miss every
    attribute, and a few more miss one."""
    path = _table(tmp_path, n=n, seed=seed, name=name)
    lines = path.read_text().split("\n")
    for i in range(1, holes + 1):
        lines[i] = ",,," + lines[i].split(",")[-1]
    for i, col in ((holes + 3, 0), (holes + 5, 2), (holes + 8, 0)):
        cells = lines[i].split(",")
        cells[col] = "?"
        lines[i] = ",".join(cells)
    path.write_text("\n".join(lines))
    return path


def test_missing_values_at_prediction_read_as_the_estimator_reads_them(tmp_path):
    """``validate --test`` and the estimator fill a held-out missing value alike (the
    training part's fill: a numeric column's median, another's most common value), even
    in a column whose training rows had none (``b``): the same held-out errors."""
    pytest.importorskip("sklearn")
    pd = pytest.importorskip("pandas")
    from dagger_cli.sklearn import DaggerTreeClassifier

    train = _holed(tmp_path, "train.csv", 90, 5, 0)
    test = _holed(tmp_path, "test.csv", 60, 9, 12)
    res = _run([str(train), "--test", str(test), "--thresholds", "all", "--max-depth", "2"])
    assert "missing value" not in res.stderr  # filled, not stopped
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    dtrain = pd.read_csv(train, na_values=["?"])
    dtest = pd.read_csv(test, na_values=["?"])
    assert dtest.isna().all(axis=1).sum() == 0 and dtest[["a", "b", "c"]].isna().all(axis=1).sum()
    assert not dtrain["b"].isna().any() and dtest["b"].isna().any()
    for r in rows:
        clf = DaggerTreeClassifier(
            max_depth=2, thresholds="all", max_x=int(r["total_path_length"])
        ).fit(dtrain[["a", "b", "c"]], dtrain["d"])
        assert [int(r["total_path_length"]), int(r["misclassifications"])] == list(
            clf.front_.points()[clf.front_index_]
        )
        errors = int((clf.predict(dtest[["a", "b", "c"]]) != dtest["d"]).sum())
        assert int(r["heldout_errors"]) == errors
        # The tree's own predict on the raw columns: the same reading.
        raw = dtest[["a", "b", "c"]].astype(object).where(dtest[["a", "b", "c"]].notna(), "")
        assert (np.array(clf.tree_.predict(raw)) == clf.predict(dtest[["a", "b", "c"]])).all()


def test_values_that_stop_rows_are_said_once_per_column(tmp_path):
    train = _table(tmp_path, n=90, seed=5, name="train.csv")
    test = _table(tmp_path, n=40, seed=9, name="test.csv")
    lines = test.read_text().split("\n")
    for i in (1, 4, 9):
        cells = lines[i].split(",")
        cells[2] = "zz"  # a category no training row had
        lines[i] = ",".join(cells)
    test.write_text("\n".join(lines))
    for args in (["--test", str(test)], ["--folds", "3"]):
        source = test if args[0] == "--folds" else train
        if args[0] == "--folds":
            args = [*args, "--seed", "1"]
        res = _run([str(source), *args, "--thresholds", "4", "--max-depth", "3"])
        warned = [ln for ln in res.stderr.splitlines() if "warning:" in ln and "column" in ln]
        stops = [ln for ln in warned if "no training row of a split on it had" in ln]
        assert len(stops) == 1, res.stderr
        assert stops[0].startswith("dagger: warning: column 'c': ")
        assert "held-out row(s)" in stops[0] and "never saw" not in res.stderr
