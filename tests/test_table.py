"""Decision tables: reading, preprocessing (the authors' convention), errors."""

import numpy as np
import pandas as pd
import pytest

from dagger_cli.data.table import DecisionTable, example_table, value_order
from dagger_cli.errors import InputError


def write(tmp_path, text, name="t.csv"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_value_order_numeric_then_string():
    assert value_order(["10", "9", "2"]) == ["2", "9", "10"]
    assert value_order(["b", "10", "a"]) == ["10", "a", "b"]


def test_example_table_shape():
    t = example_table()
    assert (t.n_rows, t.n_attributes) == (4, 3)
    assert t.decision_labels() == ["0", "1", "0", "1"]


def test_csv_default_decision_is_last_column(tmp_path):
    t = DecisionTable.from_csv(write(tmp_path, "a,b,cls\n1,x,yes\n2,y,no\n"))
    assert t.attributes == ("a", "b") and t.decision_name == "cls"
    assert t.decision_values == ("no", "yes")


def test_decision_and_drop_options(tmp_path):
    t = DecisionTable.from_csv(
        write(tmp_path, "id,cls,a\n1,p,0\n2,q,1\n"), decision="cls", drop=["id"]
    )
    assert t.attributes == ("a",)
    assert t.report.dropped == ("id",)


def test_missing_values_filled_with_mode(tmp_path):
    t = DecisionTable.from_csv(
        write(tmp_path, "a,b,d\n?,1,0\nx,,1\nx,1,0\ny,2,1\n"), duplicates="keep"
    )
    assert [r[0] for r in t.rows()] == ["x", "x", "x", "y"]
    assert t.report.filled == {"a": (1, "x"), "b": (1, "1")}


def test_missing_mode_tie_takes_smallest(tmp_path):
    t = DecisionTable.from_csv(write(tmp_path, "a,d\nb,0\na,1\nNA,0\n"), duplicates="keep")
    assert [r[0] for r in t.rows()] == ["b", "a", "a"]


def test_missing_value_policy_keeps_marker(tmp_path):
    t = DecisionTable.from_csv(write(tmp_path, "a,d\n?,0\nx,1\n"), missing="value")
    assert sorted(t.values[0]) == ["?", "x"]


def test_missing_error_policy_names_line_and_column(tmp_path):
    with pytest.raises(InputError, match=r"line 3, column 'a'"):
        DecisionTable.from_csv(write(tmp_path, "a,d\nx,0\n?,1\n"), missing="error")


def test_merge_equal_rows_most_common_then_smallest_decision(tmp_path):
    text = "a,b,d\n0,0,2\n0,0,1\n0,0,2\n1,1,3\n1,1,1\n2,2,5\n"
    t = DecisionTable.from_csv(write(tmp_path, text), duplicates="merge")
    assert t.n_rows == 3
    assert t.decision_labels() == ["2", "1", "5"]  # majority 2; tie 3 vs 1 -> 1 (numeric order)
    assert t.report.merged_rows == 3 and t.report.conflicting_groups == 2


def test_keep_duplicates(tmp_path):
    t = DecisionTable.from_csv(write(tmp_path, "a,d\n0,x\n0,y\n"), duplicates="keep")
    assert t.n_rows == 2


def test_dataframe_equals_csv(tmp_path):
    text = "a,b,d\n0,x,1\n1,y,0\n1,x,1\n"
    df = pd.read_csv(write(tmp_path, text), dtype=str)
    t1 = DecisionTable.from_dataframe(df)
    t2 = DecisionTable.from_csv(tmp_path / "t.csv")
    assert t1.rows() == t2.rows() and np.array_equal(t1.decisions, t2.decisions)


@pytest.mark.parametrize(
    "text, kwargs, message",
    [
        ("a,d\n", {}, "no rows"),
        ("", {}, "empty"),
        ("a,d\n0,1\n", {"decision": "zz"}, "no column named 'zz'"),
        ("a,d\n0,\n", {}, r"no decision \(a missing value in the decision column 'd': line 2\)"),
        ("a,d\n0,1,2\n", {}, "line 2: 3 fields, expected 2"),
        ("a,a,d\n0,1,2\n", {}, "duplicate column"),
        ("a,b,d\n?,1,0\n?,2,1\n", {}, "every value is missing"),
    ],
)
def test_bad_input_messages(tmp_path, text, kwargs, message):
    with pytest.raises(InputError, match=message):
        DecisionTable.from_csv(write(tmp_path, text), **kwargs)


def test_missing_file_message(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        DecisionTable.from_csv(tmp_path / "nope.csv")


def test_prepared_records_round_trip():
    header, records = example_table().to_records()
    assert header == ["f1", "f2", "f3", "d"]
    assert records[2] == ["2", "1", "0", "0"]
