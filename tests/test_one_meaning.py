"""One meaning of ``--thresholds`` in every command, and counts that are the file's rows.

Every command that reads a numeric column under ``--thresholds all`` splits it by
``col <= t`` at the midpoints between its consecutive values: each is checked here against
one brute force, independent of dagger's preprocessing: the midpoints computed from the
raw numbers, every tree of depth <= D over the binary tests they make enumerated
(``tests.oracle``), every row of the file counted once (equal rows are not merged).
"""

from __future__ import annotations

import json
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
from dagger_cli.errors import CostWarning
from tests.oracle import COST_INDEX, capped_cost_vectors, pareto_front, project

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
MIS = "misclassifications"
TPL = "total-path-length"


@st.composite
def numeric_frames(draw, max_rows=8, max_columns=2, max_value=4):
    """Small tables of numeric columns (few distinct values: few midpoints, equal rows
    common, some made equal only by rounding), 2 or 3 classes."""
    n = draw(st.integers(2, max_rows))
    k = draw(st.integers(1, max_columns))
    data = {}
    for j in range(k):
        ints = draw(st.lists(st.integers(0, max_value), min_size=n, max_size=n))
        data[f"x{j}"] = [v * 1.5 for v in ints]
    data["d"] = draw(
        st.lists(st.sampled_from("pqr"[: draw(st.integers(2, 3))]), min_size=n, max_size=n)
    )
    return pd.DataFrame(data)


def midpoint_tests(df):
    """Every test ``col <= t`` at a midpoint between two consecutive distinct values of a
    numeric column: (column, t), columns in order, t ascending."""
    tests = []
    for col in df.columns[:-1]:
        values = sorted(set(df[col].tolist()))
        tests += [(col, (a + b) / 2) for a, b in zip(values, values[1:])]
    return tests


def brute_vectors(df, depth):
    """The cost vectors of every tree of depth <= ``depth`` over the midpoint tests, on
    every row of ``df`` (none merged)."""
    tests = midpoint_tests(df)
    rows = [tuple(int(r[c] <= t) for c, t in tests) for _, r in df.iterrows()]
    return capped_cost_vectors(rows, df["d"].tolist(), depth)


def brute_front(df, depth, x=TPL, y=MIS):
    return pareto_front(project(brute_vectors(df, depth), x, y))


def invoke(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.stdout + r.stderr
    return r


def _csv(tmp_path, df):
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    return path


@SETTINGS
@given(numeric_frames(), st.integers(1, 2), st.sampled_from([(TPL, MIS), ("depth", MIS)]))
def test_relate_equals_the_brute_force_over_every_midpoint(tmp_path, df, depth, pair):
    doc = json.loads(
        invoke(
            "relate",
            _csv(tmp_path, df),
            "--thresholds",
            "all",
            "--max-depth",
            depth,
            "--x",
            pair[0],
            "--y",
            pair[1],
            "--format",
            "json",
            "-q",
        ).stdout
    )
    x, y = (c.replace("-", "_") for c in pair)
    assert [(p[x], p[y]) for p in doc["points"]] == brute_front(df, depth, *pair)
    assert doc["table"]["rows"] == len(df)


@SETTINGS
@given(numeric_frames(), st.integers(1, 2))
def test_optimize_equals_the_brute_force_over_every_midpoint(tmp_path, df, depth):
    """optimize once split a numeric column into one branch per interval."""
    out = invoke(
        "optimize",
        _csv(tmp_path, df),
        "--thresholds",
        "all",
        "--max-depth",
        depth,
        "--order",
        f"{MIS},{TPL}",
        "--format",
        "json",
        "-q",
    ).stdout
    stages = json.loads(out)["stages"]
    vectors = brute_vectors(df, depth)
    least_mis = min(v[COST_INDEX[MIS]] for v in vectors)
    least_tpl = min(v[COST_INDEX[TPL]] for v in vectors if v[COST_INDEX[MIS]] == least_mis)
    assert [s["value"] for s in stages] == [least_mis, least_tpl]


@SETTINGS
@given(numeric_frames(), st.integers(1, 2))
def test_a_trees_counts_are_its_counts_on_the_files_rows(tmp_path, df, depth):
    """The tree `dagger tree` prints, applied to the rows of the file (pandas, raw
    numbers), makes exactly the misclassifications and path length it claims."""
    from dagger_cli.trees import extract_tree

    path = _csv(tmp_path, df)
    out = invoke(
        "tree",
        path,
        "--thresholds",
        "all",
        "--max-depth",
        depth,
        "--least-y",
        "--format",
        "json",
        "-q",
    ).stdout
    claimed = json.loads(out)["costs"]
    assert (claimed[TPL.replace("-", "_")], claimed[MIS]) == brute_front(df, depth)[-1]
    rel = relate(DecisionTable.from_csv(path, thresholds="all"), max_depth=depth)
    tree = extract_tree(rel, len(rel.front) - 1)
    raw = pd.read_csv(path, dtype=str)
    on_file = tree.costs(raw)
    assert (on_file[MIS], on_file[TPL.replace("-", "_")]) == (
        claimed[MIS],
        claimed["total_path_length"],
    )


@SETTINGS
@given(numeric_frames(max_rows=7), st.sampled_from([None, 1, 2]))
def test_a_rules_coverage_is_its_rows_in_the_file(tmp_path, df, max_length):
    from dagger_cli.rules import rules

    table = DecisionTable.from_csv(_csv(tmp_path, df), thresholds="all")
    res = rules(table, "length", MIS, max_length=max_length)
    splits = res.table.splits
    for r in range(len(df)):
        for rule in res.front(r):
            hit = np.ones(len(df), bool)
            for attr, value in rule.conditions:
                test = splits[attr]
                below = df[test.column].to_numpy() <= test.threshold
                hit &= below if value == "yes" else ~below
            assert hit[r] and rule.coverage == int(hit.sum())
            assert rule.misclassifications == int((df["d"][hit] != df["d"][r]).sum())


@SETTINGS
@given(numeric_frames(max_rows=8, max_columns=3), st.sampled_from([None, 1, 2]))
def test_greedy_trees_take_the_binary_expansions_splits(df, depth):
    """The greedy trees of a table with numeric columns kept whole are those of its
    binary expansion (the same splits, order and ties), and no greedy point is below
    the exact front."""
    from dagger_cli.greedy import compare, greedy_points

    table = DecisionTable.from_dataframe(df, thresholds="all")
    ordered = greedy_points(table, max_depth=depth)
    binary = greedy_points(table.binarized(), max_depth=depth)
    assert ordered.keys() == binary.keys()
    for name in ordered:
        assert [a.tolist() for a in ordered[name]] == [b.tolist() for b in binary[name]]
    front = relate(table, max_depth=depth if depth is not None else 99).front
    for name, row in compare(front, ordered).items():
        assert row["area"] >= 0, name
        if row["extra_x_at_min_y"] is not None:
            assert row["extra_x_at_min_y"] >= 0, name


def test_greedy_never_beats_the_front_under_thresholds(tmp_path):
    """wine under --thresholds 16 at depth 3: every heuristic once "beat" the exact front
    (extra x -158, area -4418) with its one-branch-per-interval splits."""
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(size=(120, 4)), 2)
    d = np.where(x[:, 0] + x[:, 1] * x[:, 2] > 0.3, "a", np.where(x[:, 3] > 0, "b", "c"))
    df = pd.DataFrame(x, columns=list("abcd")).assign(label=d)
    out = invoke(
        "relate",
        _csv(tmp_path, df),
        "--thresholds",
        "16",
        "--max-depth",
        "3",
        "--greedy",
        "--format",
        "json",
        "-q",
    ).stdout
    greedy = json.loads(out)["greedy"]
    assert len(greedy) == 8
    for name, row in greedy.items():
        assert row["area"] >= 0, name
        assert row["extra_x_at_min_y"] is None or row["extra_x_at_min_y"] >= 0, name


@SETTINGS
@given(numeric_frames(), st.integers(1, 2))
def test_the_estimator_equals_the_brute_force_over_every_midpoint(df, depth):
    pytest.importorskip("sklearn")
    from dagger_cli.sklearn import DaggerTreeClassifier

    clf = DaggerTreeClassifier(max_depth=depth, thresholds="all", alpha=0.01)
    clf.fit(df.drop(columns="d"), df["d"])
    assert clf.front_.points() == brute_front(df, depth)


@SETTINGS
@given(numeric_frames(max_rows=8), st.integers(1, 2))
def test_validate_trains_on_the_midpoints_of_each_folds_rows(tmp_path, df, depth):
    from dagger_cli.data.recipe import Recipe
    from dagger_cli.validate import read_raw, stratified_folds, validate

    path = _csv(tmp_path, df)
    raw = read_raw(path, Recipe(thresholds="all"))
    fold_of = stratified_folds(raw.columns[-1], 2, 0)
    if len(set(fold_of.tolist())) < 2:
        return
    for k, result in enumerate(validate(raw, folds=2, max_depth=depth)):
        train = df[fold_of != k].reset_index(drop=True)
        assert result.front.points() == brute_front(train, depth), k
        assert result.train_rows == len(train)


def test_a_study_takes_thresholds_and_gives_relates_curve(tmp_path):
    """Studies once split numeric columns on every distinct value, without a word."""
    pytest.importorskip("distributed")
    from dagger_cli.study import parse_study, run_study

    rng = np.random.default_rng(2)
    x = np.round(rng.random((60, 3)) * 5, 1)
    d = np.where(x[:, 0] > 2.5, "a", np.where(x[:, 1] + x[:, 2] > 5, "b", "c"))
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("uvw")).assign(d=d).to_csv(path, sep=";", index=False)
    study = tmp_path / "s.toml"
    study.write_text(
        f'tables = [{{path = "{path.name}", thresholds = "all", sep = ";"}}]\nmax_depth = [2]\n'
    )
    outcome = run_study(parse_study(study), tmp_path / "out", workers=1, progress=False)
    row = outcome.rows[0]
    assert row["status"] == "ok", row
    curve = pd.read_csv(tmp_path / "out" / row["curve"])
    table = DecisionTable.from_csv(path, thresholds="all", sep=";")
    front = relate(table, max_depth=2).front
    assert list(zip(curve["total_path_length"], curve["misclassifications"])) == front.points()


def test_a_study_refuses_a_bad_table_option_as_the_command_line_does(tmp_path):
    from dagger_cli.errors import InputError
    from dagger_cli.study import parse_study

    study = tmp_path / "s.toml"
    study.write_text('tables = [{path = "n.csv", thresholds = "some"}]\n')
    with pytest.raises(InputError, match=r"s.toml, line 1: tables: 'n.csv': thresholds must be"):
        parse_study(study)


def test_an_interrupt_during_the_clusters_shutdown_is_raised_after_it(monkeypatch):
    import os
    import signal

    from dagger_cli.engine.dask_setup import interrupt_after

    finished = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt_after():
            os.kill(os.getpid(), signal.SIGINT)
            finished.append(True)  # the shutdown goes on after the first Ctrl-C
    assert finished == [True]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_uncapped_query_on_many_thresholds_says_so_before_the_work():
    rng = np.random.default_rng(0)
    df = pd.DataFrame({"a": rng.random(30), "d": rng.integers(0, 2, 30)})
    table = DecisionTable.from_dataframe(df, thresholds="all")
    from dagger_cli.errors import LimitError

    with pytest.warns(CostWarning, match="29 binary attributes col<=t") as seen:
        with pytest.raises(LimitError):
            relate(table, max_subtables=10)  # stops early: only the warning matters here
    assert "--max-depth D" in str(seen[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        relate(table, max_depth=2)  # the ordered solver: no expansion, no warning
        relate(DecisionTable.from_dataframe(df, thresholds=8))  # 8 thresholds: small


# ------------------------------------------------- one reading of a table (issue 39)
def _engines_table(n=60, seed=4):
    """Cars: a numeric column with one stray word (``'rotary'``, as in R's mtcars
    variants), a categorical one, a decision that needs both."""
    rng = np.random.default_rng(seed)
    disp = rng.integers(70, 400, size=n).astype(object)
    gear = rng.choice(["3", "4", "5"], size=n)
    label = np.where((disp.astype(float) > 200) ^ (gear == "5"), "v", "s")
    label = np.where(rng.random(n) < 0.2, "s", label)
    disp[7] = "rotary"
    return pd.DataFrame({"disp": disp, "gear": gear, "engine": label})


def test_a_column_numeric_but_for_one_word_reads_alike_on_the_command_line_and_in_the_estimator(
    tmp_path,
):
    pytest.importorskip("sklearn")
    from dagger_cli.sklearn import DaggerTreeClassifier

    df = _engines_table()
    path = tmp_path / "cars.csv"
    df.to_csv(path, index=False)
    r = invoke("relate", path, "--thresholds", "all", "--max-depth", "2", "--format", "json")
    assert r.exit_code == 0
    warned = [ln for ln in r.stderr.splitlines() if "'disp' is numeric but for 1 cell" in ln]
    assert len(warned) == 1 and "line 9 'rotary'" in warned[0]
    front = json.loads(r.stdout)["points"]
    least = (front[-1]["total_path_length"], front[-1]["misclassifications"])
    X = pd.read_csv(path)[["disp", "gear"]]
    assert not pd.api.types.is_numeric_dtype(X["disp"])  # the word makes pandas read text
    with pytest.warns(UserWarning, match=r"'disp' is numeric but for 1 cell.*row 7 'rotary'"):
        clf = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(X, df["engine"])
    assert clf.front_.points()[clf.front_index_] == least
    assert "disp" in clf.table_.ordered  # split by thresholds, not a category per number
    # At prediction the word is a missing value too: filled with the median.
    filled = X.assign(disp=pd.to_numeric(X["disp"], errors="coerce").fillna(clf.fill_values_[0]))
    assert (clf.predict(X) == clf.predict(filled)).all()
    assert (np.array(clf.tree_.predict(X)) == clf.predict(X)).all()


@pytest.mark.parametrize("cell", ["inf", "-Infinity"])
def test_infinity_is_refused_alike_naming_the_column_and_the_row(tmp_path, cell):
    pytest.importorskip("sklearn")
    from dagger_cli.sklearn import DaggerTreeClassifier

    df = _engines_table()
    df.loc[7, "disp"] = cell
    path = tmp_path / "cars.csv"
    df.to_csv(path, index=False)
    for command in ("relate", "validate"):
        extra = ["--folds", "2"] if command == "validate" else []
        args = [command, str(path), "--thresholds", "4", "--max-depth", "2", *extra]
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and r.stdout == "" and "Traceback" not in r.stderr
        assert f"line 9, column 'disp': '{cell}' is infinite" in r.stderr
    X = pd.read_csv(path)[["disp", "gear"]]
    with pytest.raises(ValueError, match=r"column 'disp', row 7 .*is infinite"):
        DaggerTreeClassifier(max_depth=2).fit(X, df["engine"])
    numbers = np.array([[1.0, 2.0], [np.inf, 1.0], [3.0, 0.0]])
    with pytest.raises(ValueError, match=r"column 'x0', row 1 .*is infinite"):
        DaggerTreeClassifier(max_depth=2).fit(numbers, [0, 1, 0])
    fitted = DaggerTreeClassifier(max_depth=2).fit(numbers[[0, 2]], [0, 1])
    with pytest.raises(ValueError, match=r"row 1 .*is infinite"):
        fitted.predict(numbers)


def test_every_command_counts_a_tables_attributes_alike(tmp_path):
    """relate keeps numeric columns whole, rules and optimize read their binary tests:
    all say the same columns and thresholds (issue 39: 3 attributes in one, 99 in others)."""
    rng = np.random.default_rng(6)
    df = pd.DataFrame(
        {
            "x": rng.random(30).round(3),
            "y": rng.integers(0, 6, 30),
            "z": rng.choice(list("abc"), 30),
            "d": rng.choice(list("pq"), 30),
        }
    )
    path = _csv(tmp_path, df)
    thresholds = df["x"].nunique() - 1 + df["y"].nunique() - 1
    line = f"30 rows, 3 attributes ({thresholds} thresholds); "
    heads = []
    for command in (["relate"], ["rules"], ["optimize", "--order", "misclassifications,depth"]):
        r = invoke(*command, path, "--thresholds", "all", "-q")
        heads.append(r.stdout.splitlines()[0])
        assert line in heads[-1], heads[-1]
        doc = json.loads(
            invoke(*command, path, "--thresholds", "all", "-q", "--format", "json").stdout
        )
        table = doc["table"] if "table" in doc else doc
        assert (table["attributes"], table["thresholds"]) == (3, thresholds), command
