"""Anytime fronts (``--time-limit``, dagger_cli.engine.anytime): stopped at every stage,
the answer's points are real trees of exactly their costs, the points marked proven are on
the exact front, the bound is below every tree; a limit long enough gives the exact answer,
byte for byte."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine.anytime import solve_within
from dagger_cli.engine.api import solve
from dagger_cli.engine.progress import TimeLimitReached
from dagger_cli.engine.query import Query, parse_duration
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree
from tests.strategies import tables

SETTINGS = settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
PAIRS = [
    ("total-path-length", "misclassifications"),
    ("depth", "misclassifications"),
    ("nodes", "misclassifications"),
    ("misclassifications", "leaves"),
    ("depth", "total-path-length"),
]


def stopped_after(calls: int):
    """An exact solver that reaches the time limit at its ``calls``-th call."""
    seen = [0]

    def exact(table, query):
        seen[0] += 1
        if seen[0] > calls:
            raise TimeLimitReached
        return solve(table, query)

    return exact


def check_answer(table, query, rel):
    """Every invariant of an anytime answer against the exact one."""
    exact = solve(table, query.exact).front
    cx, cy = rel.front.x_cost, rel.front.y_cost
    # Every point is a real tree of exactly its costs.
    for k, (x, y) in enumerate(rel.front.points()):
        costs = extract_tree(rel, k).costs()
        assert (costs[cx.column], costs[cy.column]) == (x, y)
    # A proven point is on the exact front.
    proven = rel.proven if rel.proven is not None else np.ones(len(rel.front), bool)
    for ok, p in zip(proven.tolist(), rel.front.points()):
        if ok:
            assert p in exact.points(), p
    # The bound is at or below every exact point (hence every tree).
    if rel.bound is not None:
        bx, by = rel.bound
        for x, y in exact.points():
            assert ((bx <= x) & (by <= y)).any(), (x, y)
        gaps = rel.front.gaps
        for (x, y), gap in zip(rel.front.points(), gaps):
            below = by[bx <= x]
            assert gap == (y - below.min() if below.size else y)
    return exact


@SETTINGS
@given(
    tables(max_rows=9, max_attributes=4, max_values=3),
    st.sampled_from(PAIRS),
    st.sampled_from([None, 2, 3]),
    st.integers(0, 5),
)
def test_stopped_at_any_stage_the_answer_holds(t, pair, cap, calls):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    query = Query(*pair, max_depth=cap, time_limit=60)
    rel = solve_within(table, query, stopped_after(calls))
    exact = check_answer(table, query, rel)
    if rel.status == "exact":
        assert rel.front.points() == exact.points()


@SETTINGS
@given(st.data(), st.sampled_from(PAIRS[:3]), st.integers(1, 3), st.integers(0, 4))
def test_numeric_columns_under_a_cap(data, pair, cap, calls):
    n = data.draw(st.integers(3, 10))
    df = pd.DataFrame(
        {
            "a": data.draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)),
            "b": data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)),
            "d": data.draw(st.lists(st.sampled_from("xyz"), min_size=n, max_size=n)),
        }
    )
    table = DecisionTable.from_dataframe(df, thresholds="all")
    query = Query(*pair, max_depth=cap, time_limit=60)
    check_answer(table, query, solve_within(table, query, stopped_after(calls)))


def test_a_limit_long_enough_is_the_exact_answer_byte_for_byte(tmp_path):
    rng = np.random.default_rng(3)
    x = np.round(rng.random((80, 4)) * 9, 1)
    d = np.where(x[:, 0] + x[:, 1] > 9, "a", np.where(x[:, 2] > 4.5, "b", "c"))
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("pqrs")).assign(d=d).to_csv(path, index=False)
    args = ["relate", str(path), "--thresholds", "all", "--max-depth", "2", "-q"]
    for fmt in ("text", "csv", "json"):
        plain = CliRunner().invoke(main, [*args, "--format", fmt])
        limited = CliRunner().invoke(main, [*args, "--format", fmt, "--time-limit", "1h"])
        assert plain.exit_code == limited.exit_code == 0
        assert limited.stdout == plain.stdout


def test_cut_short_the_outputs_say_so_and_the_exit_status_is_6(tmp_path):
    rng = np.random.default_rng(4)
    x = np.round(rng.random((120, 5)) * 9, 2)
    d = np.where(x[:, 0] * x[:, 1] > 20, "a", np.where(x[:, 2] > 4.5, "b", "c"))
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("pqrst")).assign(d=d).to_csv(path, index=False)
    args = ["relate", str(path), "--thresholds", "all", "--max-depth", "4", "--time-limit", "0"]
    r = CliRunner().invoke(main, [*args, "--format", "json", "-q"])
    assert r.exit_code == 6, r.stderr
    doc = json.loads(r.stdout)
    assert doc["status"] == "time_limit" and doc["bound"]
    assert {"proven", "gap"} <= set(doc["points"][0])
    assert doc["points"][0]["proven"]  # the single leaf: the only tree of depth 0
    csv = CliRunner().invoke(main, [*args, "--format", "csv", "-q"]).stdout.splitlines()
    assert csv[0].startswith("# time_limit: stopped at the 0 s limit:")
    assert csv[1].startswith("# bound: no tree is below the staircase")
    header = next(line for line in csv if not line.startswith("#"))
    assert header.endswith(",proven,gap")
    text = CliRunner().invoke(main, args)
    assert text.exit_code == 6 and "point(s) proven" in text.stdout


def test_the_limit_is_checked_as_it_is_read():
    assert parse_duration("90s") == 90 and parse_duration("5m") == 300
    for bad in ("soon", "-1s", "1 day", True):
        with pytest.raises(InputError, match="time limit"):
            parse_duration(bad)
    with pytest.raises(InputError, match="--count"):
        Query(count=True, time_limit=5)
    r = CliRunner().invoke(main, ["relate", "--example", "--time-limit", "soon"])
    assert r.exit_code == 2 and "duration such as 90s" in r.stderr


def test_a_study_task_stopped_at_its_limit_keeps_its_curve_and_is_run_again(tmp_path):
    pytest.importorskip("distributed")
    from dagger_cli.study import parse_study, read_curve, run_study

    rng = np.random.default_rng(6)
    x = np.round(rng.random((150, 5)) * 9, 2)
    d = np.where(x[:, 0] * x[:, 1] > 20, "a", np.where(x[:, 2] > 4.5, "b", "c"))
    pd.DataFrame(x, columns=list("pqrst")).assign(d=d).to_csv(tmp_path / "n.csv", index=False)
    study = tmp_path / "s.toml"
    study.write_text(
        'tables = [{path = "n.csv", thresholds = "all"}]\nmax_depth = [4]\ntime_limit = "0s"\n'
    )
    outcome = run_study(parse_study(study), tmp_path / "out", workers=1, progress=False)
    (row,) = outcome.rows
    assert row["status"] == "time_limit" and outcome.failed == 0
    assert row["proven"].endswith(f"/{row['points']}")
    curve = tmp_path / "out" / row["curve"]
    assert curve.read_text().startswith("# time_limit: stopped at the 0 s limit")
    assert len(read_curve(curve, row["x"], row["y"], int(row["rows"]))) == int(row["points"])
    assert not curve.with_suffix(".json").exists()  # no sidecar: not up to date
    again = run_study(parse_study(study), tmp_path / "out", workers=1, progress=False)
    assert again.rows[0]["status"] == "time_limit"  # run again, not skipped


def test_the_estimator_says_whether_its_tree_is_proven():
    pytest.importorskip("sklearn")
    from dagger_cli.sklearn import DaggerTreeClassifier

    rng = np.random.default_rng(8)
    X = np.round(rng.random((200, 6)) * 9, 2)
    y = (X[:, 0] * X[:, 1] > 20).astype(int) ^ (X[:, 2] > 7)
    quick = DaggerTreeClassifier(max_depth=4, thresholds="all", time_limit=0).fit(X, y)
    assert not quick.optimal_ and quick.gap_ > 0
    assert (quick.predict(X) == y).mean() > 0.5  # a real tree (the greedy ones at once)
    slow = DaggerTreeClassifier(max_depth=2, thresholds="all", time_limit="1h").fit(X, y)
    exact = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(X, y)
    assert slow.optimal_ and slow.gap_ == 0 and exact.optimal_
    assert slow.tree_.to_text() == exact.tree_.to_text()


def test_the_report_draws_the_bound_under_the_best_front(tmp_path):
    from tests.test_report import page_data

    rng = np.random.default_rng(4)
    x = np.round(rng.random((120, 5)) * 9, 2)
    d = np.where(x[:, 0] * x[:, 1] > 20, "a", np.where(x[:, 2] > 4.5, "b", "c"))
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("pqrst")).assign(d=d).to_csv(path, index=False)
    page = tmp_path / "r.html"
    args = ["relate", str(path), "--thresholds", "all", "--max-depth", "4", "-q"]
    r = CliRunner().invoke(main, [*args, "--time-limit", "0", "--report", str(page)])
    assert r.exit_code == 6
    (section,) = page_data(page.read_text(encoding="utf-8"))["sections"]
    names = [t["name"] for t in section["figure"]["data"]]
    assert names[0] == "best front found (open: not proven)"
    assert "proven bound (no tree below)" in names and names[-1] == "selected"
    bound = next(t for t in section["figure"]["data"] if t["name"].startswith("proven bound"))
    assert bound["y"][-1] <= min(section["figure"]["data"][0]["y"])


def test_validate_folds_within_a_time_limit(tmp_path):
    rng = np.random.default_rng(9)
    x = np.round(rng.random((150, 5)) * 9, 2)
    d = np.where(x[:, 0] * x[:, 1] > 20, "a", np.where(x[:, 2] > 4.5, "b", "c"))
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("pqrst")).assign(d=d).to_csv(path, index=False)
    args = ["validate", str(path), "--thresholds", "all", "--max-depth", "4", "--folds", "2"]
    r = CliRunner().invoke(main, [*args, "--time-limit", "0"])
    assert r.exit_code == 6 and "best found in time" in r.stderr
    rows = pd.read_csv(__import__("io").StringIO(r.stdout))
    assert {"proven", "gap", "heldout_errors"} <= set(rows.columns)
    exact = CliRunner().invoke(main, [*args[:-2], "--max-depth", "1", "--folds", "2"])
    limited = CliRunner().invoke(
        main, [*args[:-2], "--max-depth", "1", "--folds", "2", "--time-limit", "1h"]
    )
    assert exact.exit_code == limited.exit_code == 0 and exact.stdout == limited.stdout


def test_stopped_while_the_least_misclassifications_tree_is_made_the_value_still_bounds(
    monkeypatch,
):
    """The least misclassifications within the cap is proven when its search ends, even if
    the limit passes while its tree is made: the bound has it, and the answer holds."""
    import dagger_cli.engine.anytime as anytime

    def late(*args):
        raise TimeLimitReached

    monkeypatch.setattr(anytime, "_add_least_tree", late)
    df = pd.DataFrame({"a": [0, 1, 2, 3, 4, 5, 6, 7], "b": [1, 0, 1, 0, 0, 1, 1, 0]})
    df["d"] = ["x", "x", "y", "y", "x", "y", "x", "y"]
    table = DecisionTable.from_dataframe(df, thresholds="all")
    query = Query("total-path-length", "misclassifications", max_depth=4, time_limit=60)
    rel = solve_within(table, query, solve)  # the least µ is searched after depth <= 2
    assert rel.status == "time_limit"
    check_answer(table, query, rel)
    least = int(solve(table, query.exact).front.y.min())
    bx, by = rel.bound
    assert least in by.tolist()


def test_the_ordered_trees_are_made_within_the_limit():
    """A tree of the ordered solver is searched again on its subtables: in worker threads
    that the time limit stops, like the search itself."""
    import time

    from dagger_cli.engine.progress import deadline

    rng = np.random.default_rng(3)
    df = pd.DataFrame(rng.integers(0, 40, size=(200, 3)), columns=["a", "b", "c"])
    df["d"] = rng.integers(0, 2, 200).astype(str)
    table = DecisionTable.from_dataframe(df, thresholds="all")
    rel = solve(table, Query("depth", "misclassifications", max_depth=3))
    with deadline(time.perf_counter() - 1), pytest.raises(TimeLimitReached):
        extract_tree(rel, len(rel.front) - 1)
    assert extract_tree(rel, len(rel.front) - 1).costs()["depth"] <= 3  # no limit: made


def test_the_progress_says_the_current_gap(monkeypatch):
    """While it runs, the progress tells what the answer would be if it stopped now: its
    points, how many are proven and the largest gap."""
    import io

    import dagger_cli.engine.anytime as anytime

    log = io.StringIO()
    real = anytime.Progress
    monkeypatch.setattr(anytime, "Progress", lambda on: real(on, after=0.0, stream=log))
    df = pd.DataFrame({"a": [0, 1, 2, 3, 4, 5, 6, 7], "b": [1, 0, 1, 0, 0, 1, 1, 0]})
    df["d"] = ["x", "x", "y", "y", "x", "y", "x", "y"]
    table = DecisionTable.from_dataframe(df, thresholds="all")
    query = Query("total-path-length", "misclassifications", max_depth=4, time_limit=60)
    solve_within(table, replace(query, progress=True), solve)
    lines = [ln for ln in log.getvalue().splitlines() if ln.startswith("anytime")]
    assert lines and all("proven, the largest gap" in ln for ln in lines), log.getvalue()
    assert all("/s," not in ln for ln in lines)  # no rate of depth caps per second


@pytest.mark.parametrize("name", ["t.txt", "t.json", "t.dot", "t.svg"])
def test_a_tree_file_of_a_tree_not_proven_says_so(tmp_path, name):
    rng = np.random.default_rng(9)
    x = np.round(rng.random((150, 5)) * 9, 2)
    d = np.where(x[:, 0] * x[:, 1] > 20, "a", np.where(x[:, 2] > 4.5, "b", "c"))
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("pqrst")).assign(d=d).to_csv(path, index=False)
    out = tmp_path / name
    args = ["tree", str(path), "--thresholds", "all", "--max-depth", "4", "--least-y", "-q"]
    r = CliRunner().invoke(main, [*args, "--time-limit", "0", "-o", str(out)])
    assert r.exit_code == 6 and r.stdout == ""
    text = out.read_text()
    if name.endswith(".json"):
        doc = json.loads(text)
        assert doc["proven"] is False and doc["gap"] > 0 and doc["status"] != "exact"
        assert "tree" in doc  # the tree itself, unchanged
    elif name.endswith(".svg"):  # the title (its text in a comment, "--" written "- -")
        assert "<!-- not proven optimal: the best tree found within - -time-limit 0s" in text
    else:
        assert "not proven optimal: the best tree found within --time-limit 0s (gap" in text
    if name.endswith(".txt"):
        assert text.splitlines()[0].startswith("# total_path_length=")
        assert text.splitlines()[1].startswith("# not proven optimal")
    # A limit long enough: the file is the exact run's, byte for byte, with no note.
    exact, limited = tmp_path / f"e.{name}", tmp_path / f"l.{name}"
    shallow = [*args[:5], "2", *args[6:]]
    assert CliRunner().invoke(main, [*shallow, "-o", str(exact)]).exit_code == 0
    r = CliRunner().invoke(main, [*shallow, "--time-limit", "1h", "-o", str(limited)])
    assert r.exit_code == 0 and limited.read_bytes() == exact.read_bytes()
    assert "not proven" not in limited.read_text()


def test_the_best_f1_tree_cut_short_says_so_and_exits_6(tmp_path):
    """tree --best under a limit that cuts the front short: the tree and its F1, a note
    that it is not proven (in the file too), exit 6; a limit long enough: the exact run's
    bytes, no note, exit 0."""
    rng = np.random.default_rng(9)
    x = np.round(rng.random((150, 5)) * 9, 2)
    d = np.where(x[:, 0] * x[:, 1] > 20, "a", "b")
    path = tmp_path / "n.csv"
    pd.DataFrame(x, columns=list("pqrst")).assign(d=d).to_csv(path, index=False)
    args = ["tree", str(path), "--thresholds", "all", "--max-depth", "3", "--best", "f1"]
    out = tmp_path / "t.txt"
    r = CliRunner().invoke(main, [*args, "--time-limit", "0", "-o", str(out)])
    assert r.exit_code == 6, r.stderr
    assert "F1 = " in r.stderr and "this tree is not proven optimal" in r.stderr
    lines = out.read_text().splitlines()
    assert lines[1].startswith("# not proven optimal: the greatest F1 among the trees found")
    shallow = [*args[:5], "1", *args[6:]]
    exact, limited = tmp_path / "e.txt", tmp_path / "l.txt"
    assert CliRunner().invoke(main, [*shallow, "-o", str(exact)]).exit_code == 0
    r = CliRunner().invoke(main, [*shallow, "--time-limit", "1h", "-o", str(limited)])
    assert r.exit_code == 0 and limited.read_bytes() == exact.read_bytes()


@SETTINGS
@given(tables(max_rows=12, max_attributes=5, max_values=3), st.sampled_from(PAIRS))
def test_without_a_cap_a_long_limit_gives_the_exact_front_all_proven(t, pair):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    query = Query(*pair, time_limit=3600)
    rel = solve(table, query)
    exact = solve(table, query.exact)
    assert rel.status == "exact" and rel.proven is None
    assert rel.front.points() == exact.front.points()


@SETTINGS
@given(tables(max_rows=9, max_attributes=4, max_values=3), st.sampled_from(PAIRS))
def test_without_a_cap_the_depth_one_front_comes_first(t, pair):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    query = Query(*pair, time_limit=60)
    rel = solve_within(table, query, stopped_after(1))  # stopped after the depth-one front
    one = solve(table, Query(*pair, max_depth=1)).front
    for x, y in one.points():  # each depth-one point is in the answer, or beaten there
        assert any(a <= x and b <= y for a, b in rel.front.points())
    check_answer(table, query, rel)


def test_without_a_cap_the_query_itself_is_tried_before_each_deeper_front():
    """Before each capped front (depth 2, 3, ...) the query is tried for the time spent so
    far: the first try that ends is the answer, and the deepening stops there; tries that
    do not end count in the deepening's share."""
    from dagger_cli.engine.anytime import _deepen

    capped, tries = [], []

    def attempt(seconds):
        tries.append(seconds)
        return "the query's relation" if len(tries) == 3 else None

    assert _deepen(capped.append, 10, 1e9, 0.01, attempt) == "the query's relation"
    assert capped == [2, 3] and len(tries) == 3 and tries[0] >= 0.01
    capped.clear()
    assert _deepen(capped.append, 10, 1e9, 0.01, lambda s: None) is None
    assert capped == list(range(2, 10))

    def slow(seconds):
        time.sleep(0.05)
        return None

    capped.clear()
    assert _deepen(capped.append, 10, 0.12, 0.01, slow) is None
    assert len(capped) <= 2  # the tries' time spent the share


def test_cli_without_a_cap_a_long_limit_is_the_exact_answer_exit_0(tmp_path):
    rng = np.random.default_rng(5)
    x = rng.integers(0, 3, size=(60, 6))
    d = np.where(x[:, 0] + x[:, 1] > 2, "a", np.where(x[:, 2] > 0, "b", "c"))
    path = tmp_path / "t.csv"
    pd.DataFrame(x, columns=list("pqrstu")).assign(d=d).to_csv(path, index=False)
    for fmt in ("text", "csv", "json"):
        args = ["relate", str(path), "-q", "--format", fmt]
        plain = CliRunner().invoke(main, args)
        limited = CliRunner().invoke(main, [*args, "--time-limit", "1h"])
        assert plain.exit_code == limited.exit_code == 0, limited.stderr
        assert limited.stdout == plain.stdout
    doc = json.loads(limited.stdout)
    assert len(doc["points"]) > 3 and doc.get("status", "exact") == "exact"
    assert all(p.get("proven", True) for p in doc["points"])


@st.composite
def _weighted(draw):
    """A small table with some of: row weights, a price matrix, a minimum leaf size, a
    positive class (for false positives and negatives)."""
    t = draw(tables(max_rows=9, max_attributes=4, max_values=3, max_decisions=3))
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    n, dv = table.n_rows, table.decision_values
    weights = draw(st.none() | st.lists(st.integers(1, 4), min_size=n, max_size=n))
    prices = None
    if draw(st.booleans()):
        prices = [[draw(st.integers(0, 3)) if c != d else 0 for d in dv] for c in dv]
    min_leaf = draw(st.sampled_from([None, None, 2, 3]))
    positive = draw(st.none() | st.sampled_from(dv))
    return table.weighted(weights, prices=prices, min_leaf=min_leaf, positive=positive)


WEIGHTED_PAIRS = [
    *PAIRS[:4],
    ("false-positives", "false-negatives"),
    ("depth", "false-negatives"),
    ("false-positives", "misclassifications"),
]


@SETTINGS
@given(_weighted(), st.sampled_from(WEIGHTED_PAIRS), st.sampled_from([None, 2, 3]))
def test_weights_prices_and_decisions_stopped_at_any_stage(table, pair, cap):
    # Weighted rows, prices, a minimum leaf size, false positives and negatives: stopped at
    # every stage the answer's points are real trees, the proven ones exact, the bound
    # below every tree; not stopped, the exact answer.
    w = table.weighting
    reads = any(c.startswith("false") for c in pair)
    if reads and (w is None or w.positive is None):
        table = table.weighted(positive=table.decision_values[0])
    if (
        table.weighting is not None
        and table.weighting.min_leaf > 1
        and "misclassifications" not in pair
    ):
        pair = (pair[0], "misclassifications")
    query = Query(*pair, max_depth=cap, time_limit=60)
    for calls in range(6):
        rel = solve_within(table, query, stopped_after(calls))
        exact = check_answer(table, query, rel)
        if rel.status == "exact":
            assert rel.front.points() == exact.points()
            break
    else:
        raise AssertionError("never finished")


@SETTINGS
@given(
    tables(max_rows=10, max_attributes=4, max_values=3, max_decisions=3),
    st.sampled_from(PAIRS),
    st.booleans(),
)
def test_the_relaxed_bound_is_below_every_tree_and_rises_to_the_front(t, pair, weigh):
    # relaxed_bound(d): below every point of the exact front over all trees (each a tree's
    # costs), at every d; at d = the number of attributes (no tree is deeper) it is the
    # exact front itself, and it never falls as d grows.
    from dagger_cli.engine.anytime import bound_at, relaxed_bound

    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    if weigh:
        table = table.weighted([1 + i % 3 for i in range(table.n_rows)])
    query = Query(*pair)
    exact = solve(table, query).front.points()
    last = None
    for d in range(1, table.n_attributes + 1):
        bx, by = relaxed_bound(table, query, d)
        for x, y in exact:
            b = bound_at((bx, by), x)
            assert b is not None and b <= y, (d, x, y, b)
        if last is not None:
            for x in set(bx.tolist()) | set(last[0].tolist()):
                lo, hi = bound_at(last, x), bound_at((bx, by), x)
                assert lo is None or (hi is not None and hi >= lo)
        last = (bx, by)
    assert list(zip(last[0].tolist(), last[1].tolist())) == exact


def _stopped_at_depth(table, query, depth, relax, monkeypatch):
    """The anytime answer without a cap, stopped once the front capped at ``depth`` is
    done (the relaxed bound on or off)."""
    import dagger_cli.engine.anytime as anytime

    def exact_solve(tb, q):
        if q.max_depth is None or q.max_depth > depth:
            raise TimeLimitReached
        return solve(tb, q)

    with monkeypatch.context() as m:
        m.setattr(anytime, "DEEPEN_SHARE", 1e9)  # deepen while it may
        if not relax:
            m.setattr(anytime, "relaxed_bound", lambda *a: None)
        return solve_within(table, query, exact_solve)


def test_without_a_cap_the_relaxed_bound_proves_more(monkeypatch):
    # Stopped after the fronts capped at depth 2 of a 6-attribute table with many equal
    # rows, total path length against misclassifications: every point the bound proves is
    # on the exact front, the relaxed bound proves each point the corner alone did and
    # more, and its gaps are no larger.
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 2, size=(200, 6)).tolist()  # equal rows: floors below the cap
    decisions = [str(int(r[0] + r[1] + rng.integers(0, 2) > 2)) for r in rows]
    table = DecisionTable.from_rows(rows, decisions)
    query = Query("total-path-length", "misclassifications", time_limit=3600)
    plain = _stopped_at_depth(table, query, 2, False, monkeypatch)
    relaxed = _stopped_at_depth(table, query, 2, True, monkeypatch)
    check_answer(table, query, plain)
    check_answer(table, query, relaxed)
    assert plain.front.points() == relaxed.front.points()
    assert all(b or not a for a, b in zip(plain.proven, relaxed.proven))
    assert sum(relaxed.proven) > sum(plain.proven)
    assert all(r <= p for r, p in zip(relaxed.front.gaps, plain.front.gaps))


@pytest.mark.parametrize("seed", range(6))
def test_the_relaxed_bound_on_numeric_columns(seed):
    # Numeric columns split by thresholds (the DAG of their binary tests): the relaxed
    # bound is below every point of the exact front at every depth.
    from dagger_cli.engine.anytime import bound_at, relaxed_bound

    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 30))
    df = pd.DataFrame(
        {
            "a": rng.integers(0, 6, n),
            "b": rng.normal(size=n).round(1),
            "y": rng.choice(list("pq"), n),
        }
    )
    table = DecisionTable.from_dataframe(df, thresholds="all")
    for pair in PAIRS[:2]:
        query = Query(*pair)
        exact = solve(table, query).front.points()
        for d in (1, 2, 3):
            bound = relaxed_bound(table, query, d)
            assert all((b := bound_at(bound, x)) is not None and b <= y for x, y in exact)
