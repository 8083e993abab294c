"""What the readers say about the input (issue 26, "what a new user met"): numbers written
with decimal commas or with a stray word, identifier-like and memorising attributes among
the prepared ones, shell-quoted hints, one note per column of the file."""

from __future__ import annotations

import numpy as np
import pytest

from dagger_cli.data import csv as csvfast
from dagger_cli.data.table import DecisionTable
from dagger_cli.errors import InputError


def numbers_table(n=40, seed=0, sep=",", comma=False):
    """A header and ``n`` rows: two numeric columns (x, z), a nominal one, a decision."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 1000, n) / 10
    z = rng.integers(0, 50, n)
    rows = [sep.join(["x", "z", "c", "d"])]
    for a, b in zip(x, z):
        text = f"{a:.1f}".replace(".", ",") if comma else f"{a:.1f}"
        rows.append(sep.join([text, str(b), "uv"[int(b) % 2], "yn"[int(a > 50)]]))
    return rows


def read(tmp_path, rows, name="t.csv", **kw):
    path = tmp_path / name
    path.write_text("\n".join(rows) + "\n")
    return DecisionTable.from_csv(path, **kw)


def notes(table):
    return "\n".join(table.report.lines())


@pytest.mark.parametrize("sep", [";", "\t", "|"])
def test_decimal_commas_are_numbers_where_the_separator_is_not_a_comma(tmp_path, sep):
    t = read(tmp_path, numbers_table(sep=sep, comma=True), thresholds=4)
    assert "x" in t.ordered  # numbers: one ordered attribute split by thresholds
    assert "read decimal commas as numbers in column(s) 'x'" in notes(t)
    plain = read(tmp_path, numbers_table(sep=sep), name="p.csv", thresholds=4)
    assert t.attributes == plain.attributes and t.values == plain.values


def test_decimal_commas_in_a_comma_file_stay_text(tmp_path):
    rows = ["x,d", '"1,5",y', '"2,5",n', '"3,5",y']
    t = read(tmp_path, rows, thresholds=4)
    assert t.attributes == ("x",) and t.values[0] == ("1,5", "2,5", "3,5")
    assert "decimal commas" not in notes(t)


def test_columnar_reader_hands_decimal_commas_over(tmp_path, monkeypatch):
    monkeypatch.setenv(csvfast.ENV_READER, "columnar")
    t = read(tmp_path, numbers_table(sep=";", comma=True))
    assert "read decimal commas as numbers" in notes(t)
    assert all("," not in v for v in t.values[0])


def test_a_stray_word_in_a_numeric_column(tmp_path):
    """One word among 40 numbers: read as missing under --thresholds, the warning naming
    the column, its line and value, and what happens to it."""
    rows = numbers_table()
    rows[17] = "unknown" + rows[17][rows[17].index(",") :]
    t = read(tmp_path, rows, thresholds=4)
    assert "x" in t.ordered
    text = notes(t)
    assert (
        "warning: column 'x' is numeric but for 1 cell(s) that are not numbers "
        "(line 18 'unknown'); --thresholds reads them as missing values, filled like its "
        "other missing values (--missing mode)"
    ) in text
    assert "filled 1 missing value(s) of 'x'" in text
    with pytest.raises(InputError, match="line 18, column 'x': 'unknown' is not a number"):
        read(tmp_path, rows, thresholds=4, missing="error")
    binned = read(tmp_path, rows, bins=3)
    assert "--bins reads them as missing values" in notes(binned)
    # Without --thresholds or --bins every column is nominal: nothing to say.
    assert "not numbers" not in notes(read(tmp_path, rows))


def test_a_column_with_many_words_stays_nominal_and_says_why(tmp_path):
    rows = numbers_table(n=20)
    for k in (3, 5, 7, 9):
        rows[k] = "n/a?" + rows[k][rows[k].index(",") :]
    t = read(tmp_path, rows, thresholds=4)
    assert "x" in t.attributes
    assert (
        "warning: column 'x' is not numeric: 4 of its 20 present cells are not numbers "
        "(line 4 'n/a?', line 6 'n/a?', line 8 'n/a?', ...), so --thresholds leaves it nominal"
    ) in notes(t)


def test_one_filled_line_per_column_of_the_file(tmp_path):
    """Missing values of a numeric column under --thresholds: one line for the column, not
    one per threshold attribute (issue 26: 32 lines for penguins)."""
    rows = numbers_table()
    for k in (2, 9, 30):
        rows[k] = "?" + rows[k][rows[k].index(",") :]
    t = read(tmp_path, rows, thresholds=8)
    filled = [ln for ln in t.report.lines() if ln.startswith("filled")]
    assert len(filled) == 1
    # the median of the column's numbers, not an interval's label (nor, where the numbers
    # are all distinct, the smallest of them)
    present = sorted(float(r.split(",")[0]) for r in rows[1:] if not r.startswith("?"))
    median = present[(len(present) - 1) // 2]
    assert filled[0].startswith("filled 3 missing value(s) of 'x' with '")
    assert float(filled[0].split("'")[3]) == median
    assert "the median of its numbers" in filled[0]


def test_decision_note_counts_the_columns_of_the_file(tmp_path):
    t = read(tmp_path, numbers_table(), thresholds=8)
    assert t.n_attributes == 3 and t.n_tests > 8
    assert "decision column: 'd' (the last of 4 columns;" in notes(t)


def test_identifier_warning_on_prepared_attributes_only(tmp_path):
    """A column of distinct numbers is an identifier when nominal, not once it is made
    threshold splits; the hint is quoted for a shell."""
    rng = np.random.default_rng(1)
    rows = ["Patient ID,weight,d"] + [
        f"{i},{w:.3f},{'yn'[int(w > 0.5)]}" for i, w in enumerate(rng.random(60))
    ]
    nominal = notes(read(tmp_path, rows))
    # Numbers: a measurement or an identifier, the warning cannot tell; it offers both.
    assert "column 'weight' has a distinct value in more than 90% of its 60 rows" in nominal
    assert "If it is a measurement, --thresholds all|K reads it as numbers" in nominal
    assert "if an identifier, --drop 'Patient ID'" in nominal
    prepared = notes(read(tmp_path, rows, thresholds=4, drop=["Patient ID"]))
    assert "identifier" not in prepared and "distinct value" not in prepared


@pytest.mark.parametrize("reader", ["python", "columnar"])
def test_an_attribute_that_memorises_the_rows(tmp_path, monkeypatch, reader):
    """311 names for 400 rows, the same label for a name: a split on it alone classifies
    every row (issue 26: no warning below the identifier's 90 %)."""
    monkeypatch.setenv(csvfast.ENV_READER, reader)
    rng = np.random.default_rng(0)
    ids = rng.permutation(np.r_[np.arange(311), rng.integers(0, 311, 89)])
    label = rng.integers(0, 2, 311)
    rows = ["Full Name,sex,d"] + [
        f"N {i},{'mf'[k % 2]},{'ab'[label[i]]}" for k, i in enumerate(ids)
    ]
    text = notes(read(tmp_path, rows))
    assert (
        "warning: column 'Full Name' has 311 values for 400 rows: a split on it alone "
        "classifies 400 of them"
    ) in text
    assert "Drop it with --drop 'Full Name'" in text
    assert "'sex'" not in text


def test_a_text_identifier_is_advised_to_be_dropped_only(tmp_path):
    rows = ["name,a,d"] + [f"n{i}x,{i % 2},{(i // 2) % 2}" for i in range(40)]
    text = notes(read(tmp_path, rows))
    assert "column 'name' has a distinct value in more than 90% of its 40 rows" in text
    assert "looks like an identifier" in text and "Drop it with --drop name" in text
    assert "--thresholds" not in text.split("'name'")[1].split("warning")[0]


def test_missing_value_under_thresholds_names_the_median(tmp_path):
    from dagger_cli.errors import InputError

    rows = ["x,d", "1,a", "?,b", "3,a", "4,b"]
    with pytest.raises(InputError, match=r"--missing mode \(the column's median\)"):
        read(tmp_path, rows, thresholds="all", missing="value")


def test_rows_without_a_decision_are_counted_named_and_may_be_dropped(tmp_path):
    from click.testing import CliRunner

    from dagger_cli.cli import main

    rows = ["a,b,d"] + [f"{i % 3},{i % 2},{'' if i % 4 == 1 else 'xy'[i % 2]}" for i in range(30)]
    (tmp_path / "t.csv").write_text("\n".join(rows) + "\n")
    r = CliRunner().invoke(main, ["relate", str(tmp_path / "t.csv")])
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    assert "8 of 30 row(s) have no decision" in r.stderr
    assert "line 3, line 7, line 11, line 15, line 19, ..." in r.stderr
    assert "--drop-unlabeled" in r.stderr
    r = CliRunner().invoke(main, ["relate", str(tmp_path / "t.csv"), "--drop-unlabeled"])
    assert r.exit_code == 0, r.stderr
    assert "dropped 8 row(s) without a decision (--drop-unlabeled; line(s) 3, 7, 11" in r.stderr
    assert r.stdout.startswith("t: 22 rows")
    kept = [row for row in rows[1:] if not row.endswith(",")]
    (tmp_path / "k.csv").write_text("\n".join([rows[0], *kept]) + "\n")
    same = CliRunner().invoke(main, ["relate", str(tmp_path / "k.csv"), "-q"])
    assert r.stdout.split("\n", 1)[1] == same.stdout.split("\n", 1)[1]


@pytest.mark.parametrize("reader", ["python", "columnar"])
def test_a_decision_of_many_numbers_is_warned_about(tmp_path, monkeypatch, reader):
    monkeypatch.setenv(csvfast.ENV_READER, reader)
    rng = np.random.default_rng(2)
    rows = ["a,b,price"] + [f"{i % 3},{i % 5},{rng.integers(100, 999)}" for i in range(300)]
    text = notes(read(tmp_path, rows))
    assert "the decision column 'price' (the last column) holds" in text
    assert "--decision COL" in text
    few = ["a,b,grade"] + [f"{i % 3},{i % 5},{i % 4}" for i in range(300)]
    assert "distinct numbers, each a class" not in notes(read(tmp_path, few, name="f.csv"))
