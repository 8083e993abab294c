"""``dagger rules --time-limit``: the fronts over the longest rules searched in time
(:mod:`dagger_cli.rules.anytime`), checked against the exact rules: a limit long enough
gives them byte for byte; a run cut short after the rules of length L is exactly the run
with ``--max-length L``, and with length as a cost its every point is on its row's exact
front."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

import dagger_cli.rules.anytime as anytime
from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable, example_table
from dagger_cli.engine.progress import TimeLimitReached
from dagger_cli.rules import rules
from dagger_cli.rules.output import rules_csv, rules_json

PAIRS = [("length", "coverage"), ("coverage", "length"), ("coverage", "misclassifications")]
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def points(fronts, r):
    a, b = int(fronts.front_start[r]), int(fronts.front_start[r + 1])
    return [
        (int(fronts.point_length[i]), int(fronts.point_coverage[i]), int(fronts.point_mis[i]))
        for i in range(a, b)
    ]


@SETTINGS
@given(tables(max_rows=8, max_attributes=4), st.sampled_from(PAIRS))
def test_a_long_limit_gives_the_exact_rules_byte_for_byte(t, pair):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    got = anytime.rules_within(table, *pair, 600.0)
    want = rules(table, *pair)
    assert got is not None and got.status == "exact"
    assert rules_csv(got) == rules_csv(want)
    assert rules_json(got) == rules_json(want)


@SETTINGS
@given(tables(max_rows=8, max_attributes=4), st.sampled_from(PAIRS), st.integers(1, 4), st.data())
def test_a_run_cut_short_is_the_capped_run_and_proven_with_length(monkeypatch, t, pair, stop, data):
    """The limit passes during the ``stop``-th run: the answer is the run before it, the
    rules of length <= stop - 2 (the runs are lengths 0, 1, ...), proven with length."""
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions))
    calls = []

    def limited(*args, **kwargs):
        calls.append(kwargs["max_length"])
        if len(calls) == stop:
            raise TimeLimitReached
        return rules(*args, **kwargs)

    monkeypatch.setattr(anytime, "rules", limited)
    got = anytime.rules_within(table, *pair, 600.0)
    if stop > len(calls):  # finished before the stop-th run: exact
        assert got is not None and got.status == "exact"
        return
    if stop == 1:
        assert got is None
        return
    assert got is not None and got.status == "time_limit" and got.time_limit == 600.0
    length = calls[-2]
    assert length == stop - 2 and got.max_length == length
    capped = rules(table, *pair, max_length=length)
    body = rules_csv(got).split("\n", 1)
    assert body[0].startswith("# time_limit: stopped at the 600 s limit")
    assert body[1] == rules_csv(capped)
    exact = rules(table, *pair)
    assert anytime.proven(got) == ("length" in pair)
    for r in range(table.n_rows):
        if anytime.proven(got):
            assert set(points(got, r)) <= set(points(exact, r))


def test_the_runs_stop_deepening_when_the_dag_is_whole(monkeypatch):
    """Two rows that differ in all six attributes: every split ends at depth 1, so the
    runs are lengths 0, 1 and 2 (which adds no subtable), then the uncapped run."""
    calls = []

    def counted(*args, **kwargs):
        calls.append(kwargs["max_length"])
        return rules(*args, **kwargs)

    monkeypatch.setattr(anytime, "rules", counted)
    table = DecisionTable.from_rows([(0,) * 6, (1,) * 6], ["x", "y"])
    got = anytime.rules_within(table, "length", "coverage", 600.0)
    assert got is not None and got.status == "exact"
    assert calls == [0, 1, 2, None]
    assert rules_csv(got) == rules_csv(rules(table))


def test_a_first_ctrl_c_returns_what_was_found(monkeypatch):
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(kwargs["max_length"])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return rules(*args, **kwargs)

    monkeypatch.setattr(anytime, "rules", interrupted)
    got = anytime.rules_within(example_table(), "length", "coverage", 600.0)
    assert got is not None and got.status == "interrupted" and got.max_length == 0
    assert anytime.stop_line(got).startswith("interrupted: every rule of at most 0")


def test_the_command_line(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text("a,b,c,d\n0,1,0,x\n1,0,0,y\n1,1,1,y\n0,0,1,x\n0,1,1,y\n")
    runner = CliRunner()
    exact = runner.invoke(main, ["rules", "t.csv", "--format", "csv", "-q"])
    limited = runner.invoke(
        main, ["rules", "t.csv", "--format", "csv", "-q", "--time-limit", "10m"]
    )
    assert exact.exit_code == limited.exit_code == 0
    assert exact.stdout == limited.stdout
    real = anytime.rules

    def limited_to_one(*args, **kwargs):
        if kwargs["max_length"] != 0:
            raise TimeLimitReached
        return real(*args, **kwargs)

    monkeypatch.setattr(anytime, "rules", limited_to_one)
    r = runner.invoke(main, ["rules", "t.csv", "--format", "json", "--time-limit", "10m"])
    assert r.exit_code == 6, r.output
    doc = json.loads(r.stdout)
    assert doc["status"] == "time_limit" and doc["proven"] is True and doc["max_length"] == 0
    assert "time_limit: stopped at the 600 s limit" in r.stderr
    r = runner.invoke(main, ["rules", "t.csv", "--time-limit", "10m", "-o", "out.csv"])
    assert r.exit_code == 6 and "of length <= 0" in r.stdout
    assert (tmp_path / "out.csv").read_text().startswith("# time_limit: ")
    lines = (tmp_path / "out.csv").read_text().splitlines()[2:]  # the comment, the header
    assert f"wrote {len(lines)} line(s) of rules" in r.stderr
    for extra in (["--optimize", "length,coverage"], ["--compare-tree"]):
        r = runner.invoke(main, ["rules", "t.csv", "--time-limit", "1m", *extra])
        assert r.exit_code == 2 and "--time-limit applies to the rules' fronts" in r.stderr


def test_a_bad_limit_is_refused():
    r = CliRunner().invoke(main, ["rules", "--example", "--time-limit", "soon"])
    assert r.exit_code == 2 and "--time-limit" in r.stderr
