"""The preprocessing recipe: validated once, layered over a dataset's own, never dropped.

The ``--bins`` tests are the issue's case: a registered dataset used to lose the option on its
way to the table builder (``dagger prepare zoo --bins 2`` kept the six values of ``legs``).
"""

import csv
import io
import re

import pytest
from click.testing import CliRunner

from dagger_cli.cli import main
from dagger_cli.data.datasets import REGISTRY, load_dataframe, load_table, resolve_table
from dagger_cli.data.discretize import numeric_values
from dagger_cli.data.recipe import DEFAULTS, DUPLICATES_CHOICES, FIELDS, MISSING_CHOICES, Recipe
from dagger_cli.data.table import DecisionTable
from dagger_cli.errors import InputError
from tests.conftest import needs_mirror

INTERVAL = re.compile(r"^\[[^,\]]+, [^,\]]+[)\]]$")


# --------------------------------------------------------------------------- the value itself
@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"missing": "drop"}, "unknown missing-value policy 'drop'; expected one of: mode, value"),
        ({"duplicates": "first"}, "unknown duplicates policy 'first'; expected one of: merge"),
        ({"bins": 1}, "number of bins must be an integer of at least 2, got 1"),
        ({"bins": True}, "got True"),
        ({"bins": "3"}, "got '3'"),
        ({"decision": 3}, "decision column must be a name, got 3"),
        ({"drop": ["a", 2]}, "columns to drop must be names, got 2"),
    ],
)
def test_bad_recipe_is_refused_with_a_clear_message(kwargs, message):
    with pytest.raises(InputError, match=re.escape(message)):
        Recipe(**kwargs)


def test_recipe_normalizes_drop_and_is_hashable():
    assert Recipe(drop=["a", "b"]).drop == ("a", "b")
    assert Recipe(drop="a").drop == ("a",)
    assert Recipe(drop=[]).drop == ()
    assert hash(Recipe(drop=["a"])) == hash(Recipe(drop=("a",)))
    assert FIELDS == {
        "decision",
        "drop",
        "missing",
        "duplicates",
        "bins",
        "thresholds",
        "weight",
        "class_weight",
        "cost_matrix",
        "min_leaf",
    }


def test_user_fields_win_where_set():
    base = Recipe(decision="type", drop=("animal_name",), missing="mode", duplicates="merge")
    got = Recipe(bins=2, duplicates="keep").over(base)
    assert got == Recipe(
        decision="type", drop=("animal_name",), missing="mode", duplicates="keep", bins=2
    )
    # An explicit empty drop is a choice (drop nothing), not "unset".
    assert Recipe(drop=()).over(base).drop == ()
    assert Recipe().over(base) == base
    assert Recipe().resolved() == DEFAULTS
    # Missing values filled; equal rows kept, so that counts are of the rows read.
    assert (DEFAULTS.missing, DEFAULTS.duplicates) == (MISSING_CHOICES[0], "keep")
    assert set(DUPLICATES_CHOICES) == {"merge", "keep"}


def test_keyword_options_build_the_same_recipe():
    assert Recipe.of(Recipe(bins=3), missing="value", drop=None) == Recipe(bins=3, missing="value")
    recipe, rest = Recipe.split(Recipe(bins=3), {"bins": 4, "data_home": "x", "decision": None})
    assert recipe == Recipe(bins=4) and rest == {"data_home": "x"}
    with pytest.raises(TypeError, match="unknown preprocessing option"):
        Recipe.of(bin=3)


def test_cli_choices_come_from_the_recipe():
    helps = CliRunner().invoke(main, ["prepare", "-h"]).stdout
    assert f"[{'|'.join(MISSING_CHOICES)}]" in helps
    assert f"[{'|'.join(DUPLICATES_CHOICES)}]" in helps


# --------------------------------------------------------------------------- builders
def test_csv_and_dataframe_take_the_recipe_whole(tmp_path):
    import pandas as pd

    path = tmp_path / "t.csv"
    path.write_text("id,x,d\n1,1,a\n2,2,a\n3,3,b\n4,4,b\n5,?,b\n")
    recipe = Recipe(drop=["id"], bins=2, missing="value")
    by_recipe = DecisionTable.from_csv(path, recipe)
    by_keywords = DecisionTable.from_csv(path, drop=["id"], bins=2, missing="value")
    by_frame = DecisionTable.from_dataframe(pd.read_csv(path, dtype=str), recipe=recipe)
    for t in (by_recipe, by_keywords, by_frame):
        assert t.attributes == ("x",)
        assert t.values[0] == ("?", "[1, 3)", "[3, 4]")
    # Keywords replace the recipe's fields.
    assert DecisionTable.from_csv(path, recipe, missing="mode").values[0] == ("[1, 3)", "[3, 4]")


def test_from_rows_refuses_what_it_cannot_apply():
    with pytest.raises(InputError, match="from_rows takes the decisions apart and applies no bins"):
        DecisionTable.from_rows([(0,), (1,)], [0, 1], bins=2)
    t = DecisionTable.from_rows([(0,), (0,)], [0, 1], recipe=Recipe(duplicates="keep"))
    assert t.n_rows == 2


# --------------------------------------------------------------------------- --bins everywhere
def _expected_binned(df, recipe, bins):
    """Attribute columns that are numeric with more than ``bins`` distinct values."""
    out = set()
    for col in df.columns:
        if col == recipe.decision or col in recipe.drop:
            continue
        numbers = numeric_values([v.strip() for v in df[col]])
        if numbers is not None and len(set(numbers)) > bins:
            out.add(col)
    return out


def _check_binned(table, plain, expected, bins):
    """``expected`` columns hold at most ``bins`` interval labels; the others are untouched."""
    assert table.attributes == plain.attributes
    for attr, values, before in zip(table.attributes, table.values, plain.values):
        if attr in expected:
            assert len(values) <= bins and all(INTERVAL.match(v) for v in values), (attr, values)
        else:
            assert values == before, attr


@needs_mirror
@pytest.mark.parametrize("name", sorted(REGISTRY))
def test_bins_apply_to_every_registered_dataset(name, tmp_path):
    ds = REGISTRY[name]
    df = load_dataframe(name)
    expected = _expected_binned(df, ds.recipe, 2)
    plain = load_table(name)
    via_load = load_table(name, Recipe(bins=2))
    via_resolve = resolve_table(name, Recipe(bins=2))
    via_keyword = load_table(name, bins=2)
    for table in (via_load, via_resolve, via_keyword):
        _check_binned(table, plain, expected, 2)
        # The dataset's own recipe still applies under the user's.
        assert table.decision_name == ds.decision
        assert not set(ds.drop) & set(table.attributes)
    assert {n.split("'")[1] for n in via_load.report.notes if "->" in n} == expected
    # The same table as a CSV file, through the same builder, gives the same rows.
    path = tmp_path / f"{name}.csv"
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(df.columns)
        writer.writerows(df.itertuples(index=False))
    from_file = DecisionTable.from_csv(path, Recipe(bins=2).over(ds.recipe), name=name)
    assert from_file.to_records() == via_load.to_records()


@needs_mirror
def test_some_registered_dataset_has_a_column_to_bin():
    """The per-dataset test above would pass vacuously if no column were numeric and wide."""
    expected = {n: _expected_binned(load_dataframe(n), REGISTRY[n].recipe, 2) for n in REGISTRY}
    assert expected["zoo"] == {"legs"}
    assert len(expected["lymphography"]) > 5


@needs_mirror
def test_prepare_zoo_bins_legs():
    """The issue's case, through the command line."""
    r = CliRunner().invoke(main, ["prepare", "zoo", "--bins", "2"], catch_exceptions=False)
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert {row["legs"] for row in rows} == {"[0, 4)", "[4, 8]"}
    assert "animal_name" not in rows[0] and list(rows[0])[-1] == "type"
    assert "'legs': 6 distinct numbers -> 2 equal-frequency bins" in r.stderr


def test_prepare_csv_bins(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("x,d\n" + "".join(f"{i},{i % 2}\n" for i in range(10)))
    r = CliRunner().invoke(main, ["prepare", str(path), "--bins", "3"], catch_exceptions=False)
    assert r.exit_code == 0
    assert {line.rsplit(",", 1)[0] for line in r.stdout.splitlines()[1:]} == {
        '"[0, 3)"',
        '"[3, 7)"',
        '"[7, 9]"',
    }


def test_example_refuses_table_options():
    r = CliRunner().invoke(main, ["relate", "--example", "--bins", "2"])
    assert r.exit_code == 2 and "apply to a TABLE" in r.stderr
    assert "Traceback" not in r.output
