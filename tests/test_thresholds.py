"""Threshold splits: numeric columns as binary attributes ``col<=t``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable
from dagger_cli.data.thresholds import (
    NO,
    YES,
    Threshold,
    between,
    candidate_thresholds,
    parse_spec,
    threshold_columns,
)
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree
from tests.conftest import needs_mirror

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False).map(lambda v: round(v, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(finite, min_size=1, max_size=40))
def test_all_is_one_threshold_between_each_pair_of_consecutive_values(values):
    ts = candidate_thresholds(values, "all")
    distinct = sorted(set(values))
    assert len(ts) == len(distinct) - 1
    for t, a, b in zip(ts, distinct, distinct[1:]):
        assert a < t < b
        assert abs(t - (a + b) / 2) <= (b - a) * 1e-3  # the midpoint, shortly written


@settings(max_examples=200, deadline=None)
@given(st.lists(finite, min_size=1, max_size=40), st.integers(1, 12))
def test_k_picks_at_most_k_of_the_midpoints_at_quantiles(values, k):
    every = candidate_thresholds(values, "all")
    some = candidate_thresholds(values, k)
    assert len(some) <= k and set(some) <= set(every) and some == sorted(some)
    if len(every) <= k:
        assert some == every
    else:  # the k-th chosen split is the one leaving closest to k·n/(K+1) rows below
        xs = np.array(values)
        below = [(xs <= t).sum() for t in every]
        for j in range(1, k + 1):
            ideal = j * len(values) / (k + 1)
            best = min(range(len(every)), key=lambda i: (abs(below[i] - ideal), i))
            assert every[best] in some
    assert candidate_thresholds(values, k) == some  # deterministic


def test_short_midpoints():
    assert between(30, 45) == 37.5
    assert between(0.1, 0.2) == 0.15
    assert between(1, 2) == 1.5
    assert between(2.0, np.nextafter(2.0, 3)) == 2.0  # no float between: the lower value
    assert Threshold("age", 37.5).name == "age<=37.5"
    assert Threshold("n", 3.0).branch(NO) == "n > 3"


def test_spec_parsing():
    assert parse_spec("all") == "all" and parse_spec("7") == 7 and parse_spec(None) is None
    for bad in ("0", "-1", "some", 0, True, 2.5):
        with pytest.raises(InputError, match="thresholds must be"):
            parse_spec(bad)


cell = st.one_of(finite.map(repr), st.sampled_from(["?", ""]))


@settings(max_examples=100, deadline=None)
@given(st.lists(cell, min_size=2, max_size=30), st.sampled_from(["all", 1, 3]))
def test_threshold_attributes_against_a_direct_evaluation(column, spec):
    decision = ["a"] * len(column)
    header, cols, splits, notes = threshold_columns(["x", "d"], [column, decision], spec, ["d"])
    assert header[-1] == "d" and cols[-1] == decision
    numbers = [float(v) for v in column if v not in ("?", "")]
    if not numbers or len(set(numbers)) < 2:  # nothing to split: the column stays
        assert header == ["x", "d"] and cols[0] == column and not splits
        return
    assert list(splits) == header[:-1]
    for name, values in zip(header[:-1], cols[:-1]):
        split = splits[name]
        assert split.column == "x" and name == f"x<={split.text}"
        for raw, value in zip(column, values):
            if raw in ("?", ""):
                assert value == raw
            else:
                assert value == (YES if float(raw) <= split.threshold else NO)
                assert split.value_of(raw) == value


def test_bins_and_thresholds_exclude_each_other(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x,d\n1,a\n2,b\n3,a\n")
    with pytest.raises(InputError, match="not both"):
        DecisionTable.from_csv(path, bins=2, thresholds="all")
    res = CliRunner().invoke(main, ["relate", str(path), "--bins", "2", "--thresholds", "all"])
    assert res.exit_code == 2 and "not both" in res.output and "Traceback" not in res.output
    res = CliRunner().invoke(main, ["relate", str(path), "--thresholds", "zero"])
    assert res.exit_code == 2 and "thresholds must be" in res.output


SMALL = "age,color,d\n30,red,a\n45,blue,b\n50,red,b\n20,blue,a\n33,red,b\n"


def test_trees_print_the_column_and_threshold(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text(SMALL)
    res = CliRunner().invoke(
        main, ["tree", str(path), "--thresholds", "all", "--max-misclassifications", "0", "-q"]
    )
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[1:] == ["age <= 31.5: a  [a: 2]", "age > 31.5: b  [b: 3]"]
    res = CliRunner().invoke(
        main,
        ["tree", str(path), "--thresholds", "all", "--max-y", "0", "-q", "--format", "json"],
    )
    doc = json.loads(res.output)["tree"]
    assert (doc["attribute"], doc["threshold"]) == ("age", 31.5)
    assert list(doc["children"]) == ["<= 31.5", "> 31.5"]
    res = CliRunner().invoke(main, ["prepare", str(path), "--thresholds", "1"])
    assert res.stdout.splitlines()[0] == "age<=31.5,color,d"


def _route_json(node, record):
    """Route a raw record through an exported JSON tree (independent of dagger's routing)."""
    while "children" in node:
        raw = record[node["attribute"]]
        if "threshold" in node:
            key = ("<= " if float(raw) <= node["threshold"] else "> ") + (
                next(iter(node["children"]))[3:]
            )
        else:
            key = raw
        if key not in node["children"]:
            break
        node = node["children"][key]
    return node


def test_predictions_on_raw_numbers_equal_routing_through_the_exported_tree():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(3)
    n = 60
    df = pd.DataFrame(
        {
            "a": rng.normal(size=n).round(2),
            "b": rng.integers(0, 30, size=n),
            "c": rng.choice(["u", "v", "w"], size=n),
        }
    )
    df["d"] = np.where((df.a > 0.2) & (df.c != "w") | (df.b < 7), "p", "q")
    table = DecisionTable.from_dataframe(df, thresholds=3, duplicates="keep")
    assert set(table.splits) == {a for a in table.attributes if "<=" in a}
    rel = relate(table)
    tree = extract_tree(rel, len(rel.front) - 1)
    fresh = pd.DataFrame(
        {
            "a": rng.normal(size=200).round(3),
            "b": rng.integers(-5, 40, size=200),
            "c": rng.choice(["u", "v", "w"], size=200),
        }
    )
    doc = tree.to_dict()["tree"]
    records = fresh.astype(str).to_dict("records")
    expected = []
    for rec in records:
        expected.append(_route_json(doc, rec)["decision"])
    assert tree.predict(fresh) == expected
    # On the training rows the tree's own costs agree with a re-evaluation.
    assert tree.costs(df)["misclassifications"] == tree.costs()["misclassifications"]


@needs_mirror
def test_registered_datasets_take_thresholds_through_the_recipe():
    from dagger_cli.data.datasets import load_table

    zoo = load_table("zoo", thresholds="all")
    assert zoo.ordered["legs"].thresholds == (1, 3, 4.5, 5.5, 7)
    zoo = zoo.binarized()
    legs = [a for a in zoo.attributes if a.startswith("legs")]
    assert legs == ["legs<=1", "legs<=3", "legs<=4.5", "legs<=5.5", "legs<=7"]
    assert all(zoo.splits[a].column == "legs" for a in legs)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.floats(allow_nan=False, allow_infinity=False, width=64)
        | st.floats(-1e6, 1e6).map(lambda v: round(v, 6))
        | st.integers(-(10**9), 10**9).map(float),
        min_size=2,
        max_size=60,
        unique=True,
    )
)
def test_the_compiled_thresholds_are_between_s(values):
    # The compiled midpoints (every column's thresholds) against the Python oracle, on
    # neighbouring values of any size, neighbouring floats included.
    from dagger_cli.data.csv import midpoints
    from dagger_cli.data.thresholds import ROUNDING, between

    xs = np.unique(np.array(values, dtype=np.float64))
    xs = np.unique(np.concatenate([xs, np.nextafter(xs, np.inf)]))
    xs = xs[np.isfinite(xs)]
    lo, hi = xs[:-1], xs[1:]
    got = np.array(midpoints(lo, hi, ROUNDING), dtype=np.float64)
    want = [between(float(a), float(b)) for a, b in zip(lo, hi)]
    assert got.tolist() == want
    assert np.signbit(got).tolist() == np.signbit(np.array(want, dtype=np.float64)).tolist()
