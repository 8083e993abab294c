"""Hostile tables through the Python API: never a crash, never a wrong answer.

Hypothesis draws DataFrames, arrays and CSV files meant to break the readers, the
preprocessing, the compiled core and the estimator: no row, one row, one column, NaN and
infinities, huge and negative numbers, -0.0, integers beyond 2**53, thousands of distinct
values, empty and odd strings, missing markers, separators and quotes, invalid UTF-8. Each
must give a table or a :class:`~dagger_cli.errors.DaggerError` (the estimator: a
``ValueError`` or a ``LimitError``), never another exception, and never a crash of the
process (run under the sanitizers by ``make sanitize``, a crash is any bad memory access). A
small table's front is checked against the baseline engine, the slow oracle, and the tree of
its last point against that point's costs.

The budget is ``DAGGER_FUZZ_EXAMPLES`` examples per test (a few dozen in ``make test``;
``make fuzz`` runs thousands). ``CORPUS`` keeps the interesting cases as regression tests:
each runs every time, whatever the budget.
"""

from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import dagger_cli
from dagger_cli.data.table import DecisionTable
from dagger_cli.errors import DaggerError, LimitError
from dagger_cli.trees import UnseenValueWarning, extract_tree


def event(text: str) -> None:
    """Hypothesis' ``event`` (counted by ``--hypothesis-show-statistics``), also callable
    from the corpus' plain tests."""
    from hypothesis import currently_in_test_context
    from hypothesis import event as record

    if currently_in_test_context():
        record(text)


#: Examples per fuzz test.
EXAMPLES = int(os.environ.get("DAGGER_FUZZ_EXAMPLES", "40"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    database=None,  # the budget, not replays of past failures: those belong in CORPUS
)
#: The most subtables a fuzzed table may make (a LimitError beyond: an answer too).
MAX_SUBTABLES = 20_000
#: Tables this small are checked against the baseline engine.
SMALL_ROWS, SMALL_ATTRIBUTES = 10, 6

HOSTILE_FLOATS = (
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1e308,
    -1e308,
    5e-324,
    float("nan"),
    float("inf"),
    float("-inf"),
    2.0**53,
    2.0**53 + 2,
    1.0 + 1e-12,
)
HOSTILE_TEXT = ("", " ", "?", "NA", "nan", "None", "1e999", "-0", "0x10", "é", "a,b", '"', "\t")

floats = st.one_of(st.sampled_from(HOSTILE_FLOATS), st.floats(allow_nan=True, width=64))
integers = st.one_of(st.integers(-(2**63), 2**63 - 1), st.integers(-3, 3))
texts = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=4))
cells = st.one_of(floats, integers, texts, st.none())


@st.composite
def frames(draw) -> pd.DataFrame:
    """A DataFrame of 0..12 rows (sometimes hundreds with thousands of values), 0..4
    attribute columns of one kind each (floats, integers, text, anything), and a decision
    column of a few labels, some missing."""
    many = draw(st.integers(0, 9)) == 0
    n = draw(st.integers(200, 400)) if many else draw(st.integers(0, 12))
    m = draw(st.integers(0, 4))
    columns = {}
    for j in range(m):
        kind = draw(st.sampled_from(["floats", "integers", "texts", "cells", "distinct"]))
        if kind == "distinct":  # every row its own value
            seed = draw(st.integers(0, 2**32 - 1))
            values = list(
                np.random.default_rng(seed).normal(size=n) * 10.0 ** draw(st.integers(-5, 300))
            )
        else:
            strategy = {"floats": floats, "integers": integers, "texts": texts, "cells": cells}[
                kind
            ]
            pool = draw(st.lists(strategy, min_size=1, max_size=6))
            values = (
                [pool[draw(st.integers(0, len(pool) - 1))] for _ in range(n)]
                if not many
                else [pool[i % len(pool)] for i in range(n)]
            )
        columns[f"c{j}"] = pd.Series(values, dtype=object)
    labels = draw(st.lists(st.sampled_from(["a", "b", "c", "1", "2"]), min_size=1, max_size=3))
    if draw(st.integers(0, 9)) == 0:  # a missing decision now and then
        labels.append(None)
    columns["d"] = pd.Series([labels[i % len(labels)] for i in range(n)], dtype=object)
    if draw(st.booleans()):
        rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
        columns["d"] = pd.Series(rng.permutation(columns["d"].to_numpy(copy=True)), dtype=object)
    return pd.DataFrame(columns)


def _check_answer(table, x: str, y: str, cap: int | None) -> None:
    """A front or a DaggerError; on a small table the baseline engine's front, and the
    tree of the last point has that point's costs."""
    try:
        rel = dagger_cli.relate(table, x, y, max_depth=cap, max_subtables=MAX_SUBTABLES)
    except DaggerError as err:
        event(f"relate: {type(err).__name__}")
        return
    front = rel.front
    assert len(front) >= 1
    assert (np.diff(front.x) > 0).all() and (np.diff(front.y) < 0).all()
    binary = table.binarized() if getattr(table, "ordered", None) else table
    if table.n_rows <= SMALL_ROWS and binary.n_attributes <= SMALL_ATTRIBUTES:
        oracle = dagger_cli.relate(table, x, y, max_depth=cap, engine="baseline")
        assert oracle.front.points() == front.points()
        event("checked against the baseline engine")
    if rel.keeps_trees:
        tree = extract_tree(rel, len(front) - 1)
        costs = tree.costs()
        assert (costs[front.x_cost.column], costs[front.y_cost.column]) == front.points()[-1]
        if cap is not None:
            assert costs["depth"] <= cap


@FUZZ
@given(
    frames(),
    st.sampled_from([None, "all", 2]),
    st.sampled_from([None, "value", "mode"]),
    st.sampled_from([None, 1, 2, 3]),
    st.sampled_from(
        [
            ("total-path-length", "misclassifications"),
            ("depth", "misclassifications"),
            ("leaves", "total-path-length"),
        ]
    ),
)
def test_hostile_frames_answer_or_say_why(df, thresholds, missing, cap, pair):
    try:
        table = DecisionTable.from_dataframe(df, thresholds=thresholds, missing=missing)
    except DaggerError as err:
        assert str(err)  # a message to print
        event(f"table: {type(err).__name__}")
        return
    event(
        f"table of {'no row' if table.n_rows == 0 else 'one row' if table.n_rows == 1 else 'rows'}"
    )
    _check_answer(table, *pair, cap)


@st.composite
def arrays(draw):
    """A numeric X (NaN, huge, negative, tiny, repeated) and labels y."""
    n = draw(st.integers(1, 30))
    m = draw(st.integers(1, 3))
    pool = draw(
        st.lists(
            st.one_of(st.sampled_from(HOSTILE_FLOATS), st.floats(-1e6, 1e6)), min_size=1, max_size=8
        )
    )
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n * m, max_size=n * m))
    X = np.array([pool[k] for k in picks], dtype=np.float64).reshape(n, m)
    y = np.array(draw(st.lists(st.sampled_from([0, 1, 2]), min_size=n, max_size=n)))
    return X, y


@FUZZ
@given(arrays(), st.sampled_from([None, "all", 3]), st.sampled_from([1, 2]))
def test_the_estimator_on_hostile_arrays(data, thresholds, depth):
    from sklearn.exceptions import DataConversionWarning

    from dagger_cli.sklearn import DaggerTreeClassifier

    X, y = data
    clf = DaggerTreeClassifier(max_depth=depth, thresholds=thresholds, max_subtables=MAX_SUBTABLES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataConversionWarning)
        try:
            clf.fit(X, y)
        except (ValueError, LimitError) as err:
            assert str(err)
            event(f"fit: {type(err).__name__}")
            return
    event("fitted")
    assert np.isfinite(X[~np.isnan(X)]).all()  # infinity is refused
    errors = int((clf.predict(X) != y).sum())
    assert errors == int(clf.front_.y[clf.front_index_])  # exact on the training rows
    assert clf.get_depth() <= depth
    try:
        exported = clf.to_sklearn()
    except ValueError as err:  # values that are one float32 number, or beyond float32
        assert "float32" in str(err)
        return
    if np.all(np.abs(X[~np.isnan(X)]) < 3e38):  # scikit-learn refuses what float32 cannot hold
        assert list(exported.predict(X)) == list(clf.predict(X))


#: Cells of CSV files: numbers, missing markers, quotes, separators and line ends inside a
#: cell, a NUL, a byte-order mark.
CSV_CELLS = st.sampled_from(
    ["a", "b", "1", "2.5", "-1e308", "1e999", "nan", "?", "", " ", '"', '"a,b"', "\x00", "é"]
    + ["\ufeff", ",", ";", "\n", "\r\n", "\\", "-0", "99999999999999999999"]
)


@st.composite
def csv_files(draw) -> bytes:
    """A header and rows of cells joined by one separator (sometimes rows of other lengths),
    then now and then a few bytes of junk (invalid UTF-8 among them) somewhere."""
    sep = draw(st.sampled_from([",", ";", "\t", "|"]))
    m = draw(st.integers(2, 5))
    n = draw(st.integers(0, 10))
    lines = [sep.join(f"h{j}" for j in range(m))]
    for _ in range(n):
        width = m if draw(st.integers(0, 9)) else draw(st.integers(1, m + 1))
        cells = draw(st.lists(CSV_CELLS, min_size=width, max_size=width))
        if draw(st.integers(0, 9)):  # a decision, mostly
            cells[-1] = draw(st.sampled_from(["a", "b", "1"]))
        lines.append(sep.join(cells))
    data = draw(st.sampled_from(["\n", "\r\n"])).join(lines).encode("utf-8")
    if draw(st.integers(0, 3)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return data


@FUZZ
@given(csv_files(), st.sampled_from([None, "all"]))
def test_hostile_csv_files_answer_or_say_why(tmp_path_factory, data, thresholds):
    path = tmp_path_factory.mktemp("fuzz") / "t.csv"
    path.write_bytes(data)
    try:
        table = DecisionTable.from_csv(path, thresholds=thresholds)
    except DaggerError as err:
        assert str(err)
        event(f"csv: {type(err).__name__}")
        return
    event("csv: a table")
    _check_answer(table, "total-path-length", "misclassifications", None)


def _frame(**columns) -> pd.DataFrame:
    return pd.DataFrame({k: pd.Series(v, dtype=object) for k, v in columns.items()})


#: The interesting cases, kept: each is a table that once made (or could make) trouble.
CORPUS = {
    "no rows": _frame(a=[], d=[]),
    "no attribute": _frame(d=["a", "b", "a"]),
    "one row": _frame(a=[1.0], d=["a"]),
    "one column, all missing": _frame(a=[None, float("nan")], d=["a", "b"]),
    "decisions all missing": _frame(a=[1, 2], d=[None, None]),
    "infinities": _frame(
        a=[float("inf"), float("-inf"), 0.0, float("nan")], d=["a", "b", "a", "b"]
    ),
    "huge and tiny": _frame(a=[1e308, -1e308, 5e-324, -0.0, 0.0], d=["a", "b", "a", "b", "a"]),
    "beyond 2**53": _frame(a=[2**53, 2**53 + 1, 2**63 - 1, -(2**63)], d=["a", "b", "a", "b"]),
    "one float32 number": _frame(a=[1.0, 1.0 + 1e-12] * 3, d=["a", "b"] * 3),
    "many values": _frame(a=[float(i) for i in range(500)], d=["a", "b", "c", "d"] * 125),
    "odd strings": _frame(a=["", " ", "?", "a,b", '"', "é", "\t", "nan"], d=list("abababab")),
}


@pytest.mark.parametrize("name", sorted(CORPUS))
@pytest.mark.parametrize("thresholds", [None, "all"])
@pytest.mark.parametrize("cap", [None, 2])
def test_the_corpus(name, thresholds, cap):
    try:
        table = DecisionTable.from_dataframe(CORPUS[name], thresholds=thresholds)
    except DaggerError as err:
        assert str(err)
        return
    _check_answer(table, "total-path-length", "misclassifications", cap)
    _check_answer(table, "depth", "misclassifications", cap)


def test_the_corpus_through_the_estimator():
    from dagger_cli.sklearn import DaggerTreeClassifier

    for name, df in CORPUS.items():
        X, y = df.drop(columns="d"), df["d"]
        if X.shape[1] == 0 or not len(y) or y.isna().any():
            continue
        numeric = X.apply(lambda c: c.map(lambda v: isinstance(v, (int, float)))).all().all()
        if not numeric or X.map(lambda v: isinstance(v, float) and math.isinf(v)).any().any():
            continue
        X = X.astype(np.float64)
        clf = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(X, y.astype(str))
        errors = int((clf.predict(X) != y.astype(str)).sum())
        assert errors == int(clf.front_.y[clf.front_index_]), name
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnseenValueWarning)
            try:
                exported = clf.to_sklearn()
            except ValueError as err:
                assert "float32" in str(err), name
                continue
        if (X.abs() < 3e38).all().all():
            assert list(exported.predict(X)) == list(clf.predict(X)), name
