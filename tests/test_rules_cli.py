"""`dagger rules` through click's CliRunner: stdout and stderr apart, exit codes, -o safety."""

from __future__ import annotations

import csv
import io
import json
import os

import pytest
from click.testing import CliRunner

import dagger_cli.rules as rules_lib
from dagger_cli.cli import main
from dagger_cli.data.table import DecisionTable
from dagger_cli.rules import rules

# Rows 2 and 3 are equal with different decisions (kept by default, merged with
# --duplicates merge).
TABLE = 'a,b,c,d\n0,1,0,x\n1,0,0,y\n1,1,1,y\n1,1,1,x\n0,0,1,x\n0,1,1,"y,z"\n'


def invoke(*args):
    result = CliRunner().invoke(main, ["rules", *[str(a) for a in args]])
    assert "Traceback" not in result.stdout + result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text(TABLE)
    return tmp_path


@pytest.fixture
def no_engine(monkeypatch):
    """Fail the test if the rules are computed: the checks must come first."""

    def refuse(*args, **kwargs):
        raise AssertionError("the rules were computed before the outputs were checked")

    monkeypatch.setattr(rules_lib, "rules", refuse)
    monkeypatch.setattr(rules_lib, "build_dag", refuse)


def lib_table(duplicates="keep"):
    return DecisionTable.from_csv("t.csv", duplicates=duplicates)


def test_summary_on_stdout_report_on_stderr(here):
    r = invoke("t.csv")
    assert r.exit_code == 0
    assert r.stdout.startswith(
        "t: 6 rows (1 equal to an earlier row, each counted), 3 attributes; Pareto fronts of "
        "length vs coverage"
    )
    assert "best length, then coverage" in r.stdout and "best coverage, then length" in r.stdout
    assert "kept 1 row(s) equal to an earlier row on every attribute" in r.stderr
    assert "Pareto" not in r.stderr
    q = invoke("t.csv", "-q")
    assert q.stderr == "" and q.stdout == r.stdout
    merged = invoke("t.csv", "--duplicates", "merge")
    assert merged.stdout.startswith("t: 5 rows (merged from 6 rows read; 1 of them outvoted")
    assert "merged 1 equal row(s): 6 -> 5 rows" in merged.stderr


def test_csv_matches_the_library_and_is_quoted(here):
    r = invoke("t.csv", "--format", "csv", "-q")
    assert r.exit_code == 0
    lines = list(csv.DictReader(io.StringIO(r.stdout)))
    assert list(lines[0]) == ["row", "length", "coverage", "misclassifications", "rule"]
    res = rules(lib_table())
    assert [x["row"] for x in lines if not x["rule"]] == ["2", "3"]  # no exact rule
    lines = [x for x in lines if x["rule"]]
    assert len(lines) == len(res)
    got = [(int(x["row"]), int(x["length"]), int(x["coverage"]), x["rule"]) for x in lines]
    want = [(r_, f.length, f.coverage, f.text) for r_ in range(res.n_rows) for f in res.front(r_)]
    assert got == want
    assert any(x["rule"].endswith("-> y,z") for x in lines)  # a comma, quoted by csv


def test_output_file_same_bytes_every_run(here):
    r = invoke("t.csv", "-o", "r.csv", "--x", "coverage", "--y", "misclassifications")
    assert r.exit_code == 0 and "wrote" in r.stderr and "r.csv" in r.stderr
    first = (here / "r.csv").read_bytes()
    invoke("t.csv", "-o", "r.csv", "--x", "coverage", "--y", "misclassifications", "-q")
    assert (here / "r.csv").read_bytes() == first
    shown = invoke("t.csv", "--format", "csv", "--x", "coverage", "--y", "misclassifications")
    assert shown.stdout.encode() == first


def test_one_row_in_full_and_a_conflict(here):
    r = invoke("t.csv", "--duplicates", "keep", "--row", "0", "-q")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0].startswith("t, row 0 (decision x): ")
    assert "length  coverage  misclassifications  rule" in r.stdout
    c = invoke("t.csv", "--duplicates", "keep", "--row", "2", "-q")
    assert c.exit_code == 0
    assert "no exact rule: an equal row (same attribute values) has another decision" in c.stdout
    lines = invoke("t.csv", "--duplicates", "keep", "--row", "2", "--format", "csv").stdout
    assert lines.splitlines() == ["row,length,coverage,misclassifications,rule", "2,,,,"]
    summary = invoke("t.csv", "--duplicates", "keep", "-q").stdout
    assert (
        "rows without a rule: 2 (rows 2, 3, 0-based as `dagger prepare` writes them); 2 of them "
        "have an equal row with another decision" in summary
    )
    approx = invoke("t.csv", "--duplicates", "keep", "--row", "2", "--y", "misclassifications")
    assert "true -> y" in approx.stdout


def test_json(here):
    r = invoke("t.csv", "--format", "json", "--stats", "-q", "--max-length", "1")
    doc = json.loads(r.stdout)
    assert doc["table"] == {
        "name": "t",
        "rows": 6,
        "attributes": 3,
        "duplicates": "keep",
        "equal_rows": 1,
        "unclassifiable_rows": 1,
    }
    assert (doc["x"], doc["y"], doc["max_length"], doc["max_misclassifications"]) == (
        "length",
        "coverage",
        1,
        0,
    )
    assert len(doc["fronts"]) == 6 and doc["stats"]["max_depth"] == 1
    assert all(rule["length"] <= 1 for f in doc["fronts"] for rule in f["rules"])
    assert [s["name"] for s in doc["systems"]] == [
        "best length, then coverage",
        "best coverage, then length",
    ]


def test_optimize(here):
    r = invoke(
        "t.csv", "--optimize", "coverage,length", "-o", "o.csv", "-q", "--duplicates", "merge"
    )
    assert r.exit_code == 0
    assert "sequential optimisation" in r.stdout and "totally optimal for (coverage, length)" in (
        r.stdout
    )
    lines = list(csv.DictReader(io.StringIO((here / "o.csv").read_text())))
    res = rules(lib_table("merge"), "coverage", "length")
    assert [(int(x["row"]), int(x["coverage"])) for x in lines] == [
        (k, res.front(k)[0].coverage) for k in range(5)
    ]
    bad = invoke("t.csv", "--optimize", "length,depth")
    assert bad.exit_code == 2 and "unknown rule cost 'depth'" in bad.stderr


def test_compare_tree(here):
    r = invoke("t.csv", "--compare-tree", "-q")
    assert r.exit_code == 0 and "the tree's rules (least misclassifications" in r.stdout
    one = invoke("t.csv", "--compare-tree", "--row", "1", "--tree-max-depth", "1", "-q")
    assert "the tree's rule: length" in one.stdout
    doc = json.loads(invoke("t.csv", "--compare-tree", "--format", "json", "-q").stdout)
    # Rows 2 and 3 (equal, with different decisions) have no exact rule.
    assert doc["tree_comparison"]["summary"]["rows"] == 4


@pytest.mark.parametrize(
    "args,message",
    [
        (["--x", "length", "--y", "length"], "--x and --y must differ"),
        (["--row", "9"], "--row 9: the prepared table has rows 0 to 5"),
        (["--compare-tree", "--y", "misclassifications"], "needs the fronts of length vs coverage"),
        (["--tree-max-depth", "2"], "--tree-max-depth is the depth cap of --compare-tree"),
        (["--compare-tree", "--optimize", "length"], "not --optimize"),
        (["--max-length", "-1"], "-1 is not in the range x>=0"),
    ],
)
def test_bad_options(here, args, message):
    r = invoke("t.csv", *args)
    assert r.exit_code == 2 and message in r.stderr and r.stdout == ""


def test_bad_table(here):
    r = invoke("nope.csv")
    assert r.exit_code == 2 and "nope.csv" in r.stderr


@pytest.mark.parametrize(
    "path,message",
    [
        ("r.txt", "unknown format ('.txt')"),
        ("t.csv", "is an input of this command"),
        ("missing/r.csv", "does not exist (dagger creates no folder for a file)"),
        (".", "is a directory"),
    ],
)
def test_outputs_refused_before_the_work(here, no_engine, path, message):
    before = sorted(os.listdir(here))
    r = invoke("t.csv", "-o", path)
    assert r.exit_code == 2 and message in r.stderr
    assert sorted(os.listdir(here)) == before


def test_limits(here):
    r = invoke("t.csv", "--max-subtables", "1")
    assert r.exit_code == 3 and "--max-subtables" in r.stderr and "--max-length" in r.stderr
    m = invoke("t.csv", "--max-memory", "1K")
    assert m.exit_code == 3 and "--max-memory" in m.stderr


def test_the_rules_pass_stops_at_the_memory_ceiling(here, monkeypatch):
    """Past the DAG, the pass's own arrays (the candidates' class counts, per-row state)
    are checked against --max-memory before they are made."""
    build = rules_lib.build_dag

    def unbounded(*args, **kwargs):  # the DAG phase within any ceiling
        return build(*args, **{**kwargs, "max_memory": None})

    monkeypatch.setattr(rules_lib, "build_dag", unbounded)
    r = invoke("t.csv", "--max-memory", "1K", "--duplicates", "keep")
    assert r.exit_code == 3
    assert "the rules need more than" in r.stderr and "class counts" in r.stderr


def test_write_error(here):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    r = invoke("t.csv", "-o", "/dev/full", "-q")
    assert r.exit_code == 5 and "/dev/full" in r.stderr


def test_threshold_attributes_read_as_comparisons(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "n.csv").write_text("age,c\n20,a\n30,a\n40,b\n50,b\n")
    r = invoke("n.csv", "--thresholds", "all", "--format", "csv", "-q")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1:] == [
        "0,1,2,0,age <= 35 -> a",
        "1,1,2,0,age <= 35 -> a",
        "2,1,2,0,age > 35 -> b",
        "3,1,2,0,age > 35 -> b",
    ]


def test_compare_tree_limits_name_its_own_cap(here):
    r = invoke("t.csv", "--compare-tree", "--max-length", "1", "-q")
    assert r.exit_code == 0 and "among trees of depth <= 1" in r.stdout
    # The rules' DAG within 1 step fits in 8 subtables, the tree's whole DAG does not.
    big = invoke(
        "t.csv",
        "--compare-tree",
        "--max-length",
        "1",
        "--tree-max-depth",
        "3",
        "--max-subtables",
        "8",
    )
    assert big.exit_code == 3
    assert "dagger: error: the tree of --compare-tree: the DAG has more than 8" in big.stderr
    assert "--tree-max-depth" in big.stderr
    small = invoke("t.csv", "--max-length", "2", "--max-subtables", "3")
    assert small.exit_code == 3 and "Try a lower --max-length than 2" in small.stderr
