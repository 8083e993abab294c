"""Equal-frequency discretization and the detection of wide numeric columns."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dagger_cli.data.discretize import (
    cut_points,
    discretize,
    interval_labels,
    numeric_values,
    wide_columns,
)
from dagger_cli.data.table import MISSING_MARKERS, DecisionTable
from dagger_cli.errors import InputError


def test_numeric_detection_skips_missing_markers():
    assert numeric_values(["1", "?", "", "NA", "-2.5e3"]) == [1.0, -2500.0]
    assert numeric_values(["1", "two"]) is None
    assert numeric_values(["?", ""]) is None  # nothing present: not numeric
    assert numeric_values(["1", "inf"]) is None  # cannot bound an interval


def test_equal_frequency_cuts_and_labels():
    values = [str(v) for v in [7.0, 1.5, 2, 3.2, 4, 5, 6, 1.0]]
    (col,), notes = discretize(["x"], [values], 2)
    assert col == ["[4, 7]", "[1, 4)", "[1, 4)", "[1, 4)", "[4, 7]", "[4, 7]", "[4, 7]", "[1, 4)"]
    assert notes == ["'x': 8 distinct numbers -> 2 equal-frequency bins"]
    assert Counter(col) == {"[1, 4)": 4, "[4, 7]": 4}
    # Ideal cuts after 2.5 and 7.5 values go to the earlier place: bins of 2, 3, 2, 3.
    assert cut_points(list(range(10)), 4) == [0, 2, 5, 7]


def test_labels_show_the_interval_with_six_significant_digits():
    assert interval_labels([1.5, 3.2], 7.0) == ["[1.5, 3.2)", "[3.2, 7]"]
    assert interval_labels([1 / 3, 2 / 3], 1.0) == ["[0.333333, 0.666667)", "[0.666667, 1]"]
    # Cut points that would print alike get more digits instead of merging two bins.
    assert interval_labels([1.0000001, 1.0000002], 2) == [
        "[1.0000001, 1.0000002)",
        "[1.0000002, 2]",
    ]
    assert interval_labels([-0.0, 1e6], 2.5e6) == ["[0, 1e+06)", "[1e+06, 2.5e+06]"]


def test_missing_values_stay_missing_and_decision_is_skipped():
    x = ["1", "?", "2", "", "3", "4", "NA", "5"]
    d = ["1", "2", "3", "4", "5", "6", "7", "8"]  # numeric and wide, but the decision
    (cx, cd), notes = discretize(["x", "d"], [x, d], 2, skip=("d",))
    assert [v for v in cx if v in MISSING_MARKERS] == ["?", "", "NA"]
    assert [cx[i] for i in (1, 3, 6)] == ["?", "", "NA"]
    assert cd == d and len(notes) == 1
    assert x == ["1", "?", "2", "", "3", "4", "NA", "5"]  # input untouched


def test_columns_left_alone():
    header = ["word", "few", "mixed"]
    columns = [["a", "b", "c", "d"], ["1", "2", "1", "2"], ["1", "2", "x", "3"]]
    out, notes = discretize(header, columns, 2)
    assert out == columns and notes == []
    # Three distinct values are not more than three bins.
    out, notes = discretize(["x"], [["1", "2", "3", "3"]], 3)
    assert out == [["1", "2", "3", "3"]] and notes == []


def test_ties_merge_cut_points_into_fewer_bins():
    # Six of eight values equal the minimum: no cut can split them, so only two bins remain.
    assert cut_points([1, 1, 1, 1, 1, 1, 2, 3], 4) == [1, 2]
    (col,), notes = discretize(["x"], [["1"] * 6 + ["2", "3"]], 2)
    assert set(col) == {"[1, 2)", "[2, 3]"}
    (col,), notes = discretize(["x"], [["1"] * 6 + ["2", "3", "4"]], 3)
    assert col == ["[1, 2)"] * 6 + ["[2, 4]"] * 3
    assert "-> 2 equal-frequency bins (not 3" in notes[0]


def test_last_bin_may_be_a_single_value():
    (col,), _ = discretize(["x"], [["1", "2", "3", "9", "9", "9", "9", "9"]], 2)
    assert col == ["[1, 9)"] * 3 + ["[9, 9]"] * 5


def test_bad_arguments():
    for bins in (1, 0, 2.5, True):
        with pytest.raises(InputError, match="at least 2"):
            discretize(["x"], [["1", "2", "3"]], bins)
    with pytest.raises(InputError, match="2 column names for 1 columns"):
        discretize(["x", "y"], [["1"]], 2)


def test_discretized_columns_build_a_table():
    n = 40
    header = ["age", "colour", "d"]
    columns = [
        [str(18 + (i * 7) % 50) for i in range(n)],
        ["red", "blue"] * (n // 2),
        [str(i % 2) for i in range(n)],
    ]
    out, _ = discretize(header, columns, 4, skip=("d",))
    t = DecisionTable.from_rows(list(zip(out[0], out[1])), out[2], attributes=header[:2])
    assert len(t.values[0]) == 4 and t.values[1] == ("blue", "red")


def test_wide_columns_rule():
    n = 100
    header = ["id", "small", "word", "d"]
    columns = [
        [str(i) for i in range(n)],
        [str(i % 20) for i in range(n)],
        [f"w{i}" for i in range(n)],
        [str(i) for i in range(n)],
    ]
    assert wide_columns(header, columns, skip=("d",)) == [("id", 100)]
    assert wide_columns(header, columns, threshold=19, skip=("d",)) == [("id", 100), ("small", 20)]
    assert wide_columns(header, columns) == [("id", 100), ("d", 100)]
    # "1" and "1.0" are the same number.
    assert wide_columns(["x"], [["1", "1.0", "2"]], threshold=1) == [("x", 2)]


numbers = st.one_of(
    st.integers(-1000, 1000).map(str),
    st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False).map(repr),
)


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.one_of(numbers, st.sampled_from(["?", ""])), min_size=1, max_size=60),
    bins=st.integers(2, 8),
)
def test_properties(values, bins):
    (col,), notes = discretize(["x"], [values], bins)
    present = [float(v) for v in values if v not in MISSING_MARKERS]
    distinct = len(set(present))
    # Missing markers are untouched, and columns with few distinct values too.
    assert [c for c, v in zip(col, values) if v in MISSING_MARKERS] == [
        v for v in values if v in MISSING_MARKERS
    ]
    if distinct <= bins:
        assert col == values and notes == []
        return
    bounds = cut_points(present, bins)
    labels = interval_labels(bounds, max(present))
    assert 2 <= len(bounds) <= bins and bounds == sorted(set(bounds))
    assert len(set(labels)) == len(labels)  # distinct bins never share a label
    index = {label: i for i, label in enumerate(labels)}
    pairs = [(float(v), index[c]) for c, v in zip(col, values) if v not in MISSING_MARKERS]
    for x, i in pairs:
        # Each value lies in its interval (the last one closed at the maximum).
        assert bounds[i] <= x
        assert x < bounds[i + 1] if i + 1 < len(bounds) else x <= max(present)
    # Bins are ordered like the values, and no bin is empty.
    assert all(i <= j for (x, i), (y, j) in zip(sorted(pairs), sorted(pairs)[1:]))
    assert {i for _, i in pairs} == set(range(len(bounds)))


@settings(max_examples=100, deadline=None)
@given(n=st.integers(3, 200), bins=st.integers(2, 10))
def test_distinct_values_give_balanced_bins(n, bins):
    if n <= bins:
        return
    (col,), _ = discretize(["x"], [[str(i) for i in range(n)]], bins)
    sizes = Counter(col).values()
    assert len(sizes) == bins
    assert all(abs(s - n / bins) <= 1 for s in sizes)
