"""The command line, through click's CliRunner: stdout, stderr and exit codes."""

import csv
import io
import json

import pytest
from click.testing import CliRunner

from dagger_cli.cli import main
from tests.conftest import needs_mirror, needs_num_mirror, needs_odt_mirror


@pytest.fixture
def run():
    def _run(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return _run


def write(tmp_path, text, name="t.csv"):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


def test_example_text(run):
    r = run("relate", "--example")
    assert r.exit_code == 0
    lines = r.stdout.splitlines()
    assert lines[1].split() == ["total_path_length", "average_depth", "misclassifications"]
    assert [ln.split() for ln in lines[2:4]] == [["0", "0.0000", "2"], ["4", "1.0000", "0"]]


def test_example_csv_file_exact_columns(run, tmp_path):
    out = tmp_path / "curve.csv"
    r = run("relate", "--example", "-o", str(out), "--format", "csv")
    assert r.exit_code == 0
    assert (
        out.read_text() == "total_path_length,average_depth,misclassifications\n0,0.0,2\n4,1.0,0\n"
    )
    assert r.stdout == out.read_text()


def test_json_has_points_queries_and_stats(run):
    r = run("relate", "--example", "--format", "json", "--stats", "--max-misclassifications", "1")
    doc = json.loads(r.stdout)
    assert doc["points"] == [
        {"total_path_length": 4, "average_depth": 1.0, "misclassifications": 0}
    ]
    assert doc["queries"]["G"]["value"] == 4
    assert doc["stats"] == {
        "subtables": 7,
        "terminal": 4,
        "bundles": 5,
        "edges": 12,
        "subproblems": 7,
    }


def test_F_query_in_text(run):
    r = run("relate", "--example", "--max-total-path-length", "3")
    assert "F(3) = 2" in r.stdout
    assert len([ln for ln in r.stdout.splitlines() if ln.strip().startswith("4 ")]) == 0


def test_engines_same_output(run):
    outs = {
        e: run("relate", "--example", "--format", "csv", "--engine", e).stdout
        for e in ("fast", "baseline", "paper")
    }
    assert len(set(outs.values())) == 1


def test_csv_path_with_decision_and_drop(run, tmp_path):
    path = write(tmp_path, "id,d,a,b\n1,0,0,0\n2,1,0,1\n3,0,1,0\n4,1,1,1\n")
    r = run("relate", path, "--decision", "d", "--drop", "id", "--format", "csv")
    assert r.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert rows[0]["total_path_length"] == "0" and rows[0]["misclassifications"] == "2"
    assert rows[-1]["misclassifications"] == "0"
    assert "dropped column(s): id" in r.stderr


def test_preprocessing_reported_on_stderr(run, tmp_path):
    path = write(tmp_path, "a,b,d\n0,?,x\n0,1,y\n0,1,y\n")
    r = run("relate", path, "--duplicates", "merge")
    assert "filled 1 missing value(s) of 'b' with '1'" in r.stderr
    assert "merged 2 equal row(s): 3 -> 1 rows" in r.stderr
    # By default equal rows are kept, each counted, and the summary says so.
    r = run("relate", path)
    assert (
        "kept 2 row(s) equal to an earlier row on every attribute (1 group(s) with "
        "different decisions: every tree misclassifies at least 1 row(s))"
    ) in r.stderr
    assert r.stdout.startswith("t: 3 rows (2 equal to an earlier row, each counted)")


def test_one_decision_front_is_origin(run, tmp_path):
    r = run("relate", write(tmp_path, "a,d\n0,y\n1,y\n"), "--format", "csv")
    assert r.stdout.splitlines()[1:] == ["0,0.0,0"]


def test_single_row(run, tmp_path):
    r = run("relate", write(tmp_path, "a,b,d\n0,1,y\n"), "--format", "csv")
    assert r.exit_code == 0 and r.stdout.splitlines()[1:] == ["0,0.0,0"]


@pytest.mark.parametrize(
    "content, extra, message",
    [
        (None, [], "no such file"),
        ("a,d\n", [], "no rows"),
        ("a,d\n0,1\n", ["--decision", "zz"], "no column named 'zz'"),
        (
            "a,d\n0,?\n",
            [],
            "1 of 1 row(s) have no decision (a missing value in the decision column 'd': line 2)",
        ),
        ('a,d\n"0,1\n', [], "line"),
    ],
)
def test_bad_input_clear_error_no_traceback(run, tmp_path, content, extra, message):
    path = str(tmp_path / "missing.csv") if content is None else write(tmp_path, content)
    r = run("relate", path, *extra)
    assert r.exit_code == 2
    assert message in r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_no_table_and_no_example(run):
    r = run("relate")
    assert r.exit_code == 2 and "--example" in r.stderr


def test_paper_engine_refuses_large_table(run, tmp_path):
    rows = "\n".join(f"{i},{i % 7},{i % 2}" for i in range(1200))
    r = run("relate", write(tmp_path, "a,b,d\n" + rows + "\n"), "--engine", "paper")
    assert r.exit_code == 3 and "--engine fast" in r.stderr


def test_max_subtables_stops_with_message(run, tmp_path):
    rows = "\n".join(f"{i % 5},{i % 3},{i % 4},{i % 2}" for i in range(60))
    r = run("relate", write(tmp_path, "a,b,c,d\n" + rows + "\n"), "--max-subtables", "3")
    assert r.exit_code == 3 and "more than 3 subtables" in r.stderr
    assert "Try --max-depth D" in r.stderr


def test_limit_under_a_cap_suggests_a_lower_cap(run, tmp_path):
    rows = "\n".join(f"{i % 5},{i % 3},{i % 4},{i % 7},{i % 6},{i % 2}" for i in range(60))
    table = write(tmp_path, "a,b,c,e,f,d\n" + rows + "\n")
    r = run("relate", table, "--max-subtables", "3", "--max-depth", "3")
    assert r.exit_code == 3 and "Try a lower --max-depth than 3" in r.stderr


def test_output_not_half_written_on_error(run, tmp_path):
    out = tmp_path / "curve.csv"
    rows = "\n".join(f"{i % 5},{i % 3},{i % 4},{i % 2}" for i in range(60))
    run(
        "relate", write(tmp_path, "a,b,c,d\n" + rows + "\n"), "--max-subtables", "3", "-o", str(out)
    )
    assert not out.exists() and list(tmp_path.iterdir()) == [tmp_path / "t.csv"]


@needs_mirror
def test_relate_zoo_by_name(run):
    r = run("relate", "zoo", "--format", "csv")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1] == "0,0.0,40"


@needs_mirror
def test_prepare_and_relate_agree(run, tmp_path):
    out = tmp_path / "zoo.csv"
    assert run("prepare", "zoo", "-o", str(out)).exit_code == 0
    assert out.read_text().count("\n") == 60  # header + 59 rows
    a = run("relate", "zoo", "--format", "csv").stdout
    b = run("relate", str(out), "--format", "csv").stdout
    assert a == b


@needs_mirror
@needs_odt_mirror
@needs_num_mirror
def test_fetch_all_and_datasets(run, tmp_path):
    r = run("fetch", "--all", "--data-home", str(tmp_path))
    assert r.exit_code == 0 and r.stdout.count("\n") == 22, r.stderr
    r = run("datasets", "--data-home", str(tmp_path))
    assert all(" yes " in ln for ln in r.stdout.splitlines()[1:])


def test_fetch_offline_uncached_fails(run, tmp_path):
    r = run("fetch", "zoo", "--offline", "--data-home", str(tmp_path))
    assert r.exit_code == 4 and "Traceback" not in r.stderr


def test_greedy_comparison_and_overlay(run, tmp_path):
    png = tmp_path / "g.png"
    r = run("relate", "--example", "--greedy", "--plot", str(png))
    assert r.exit_code == 0 and "entropy" in r.stdout and png.exists()
    doc = json.loads(run("relate", "--example", "--greedy", "--format", "json").stdout)
    assert doc["greedy"]["entropy"]["area"] == 0


def test_pair_option_columns(run):
    r = run("relate", "--example", "--x", "depth", "--y", "misclassifications", "--format", "csv")
    assert r.stdout == "depth,misclassifications\n0,2\n1,0\n"
    r = run("relate", "--example", "--x", "depth", "--y", "depth")
    assert r.exit_code == 2 and "must differ" in r.stderr


def test_out_of_memory_is_a_message_not_a_traceback(run, monkeypatch):
    import dagger_cli.engine.dag as engine

    def no_memory(*args, **kwargs):
        raise MemoryError("cannot grow edge_child")

    monkeypatch.setattr(engine, "build_dag", no_memory)
    result = run("relate", "--example")
    assert result.exit_code == 3
    assert "out of memory; nothing was written" in result.stderr
    assert "--max-memory" in result.stderr
    assert "Traceback" not in result.stderr


def test_max_depth_option(run, tmp_path):
    r = run(
        "relate", "--example", "--x", "depth", "--max-depth", "0", "--format", "json", "--stats"
    )
    assert r.exit_code == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["points"] == [{"depth": 0, "misclassifications": 2}]
    assert doc["stats"]["max_depth"] == 0 and doc["stats"]["subtables"] == 1
    for bad in ("-1", "1.5", "x"):
        r = run("relate", "--example", "--max-depth", bad)
        assert r.exit_code == 2 and "--max-depth" in r.stderr, r.stderr
    r = run("relate", "--example", "--engine", "paper", "--max-depth", "1")
    assert r.exit_code == 2 and "paper engine" in r.stderr and "Traceback" not in r.stderr
    r = run("tree", "--example", "--x", "depth", "--max-depth", "1", "--max-y", "2", "-q")
    assert r.exit_code == 0 and "depth=" in r.stdout, r.stderr
    r = run("relate", "--example", "--max-depth", "1", "--trees", str(tmp_path / "t"), "-q")
    assert r.exit_code == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "t").iterdir())


ZOOISH = "a,b,c,d\n" + "".join(
    f"{i % 3},{i % 5},{(i * 7) % 4},{'xyz'[(i % 3 + i % 4) % 3]}\n" for i in range(40)
)


@pytest.mark.parametrize(
    "command,name",
    [
        (["relate", "--stats"], "f.csv"),
        (["relate", "--max-depth", "2", "--greedy"], "f.csv"),
        (["tree", "--least-y"], "t.txt"),
        (["tree", "--least-y", "--format", "json"], "t.json"),
        (["optimize", "--order", "misclassifications,depth"], "o.txt"),
        (["prepare"], "p.csv"),
        (["validate", "--folds", "2", "--max-depth", "2"], "v.csv"),
    ],
)
def test_output_to_stdout_is_the_file_byte_for_byte(tmp_path, command, name):
    """``-o -`` puts on stdout exactly what ``-o FILE`` writes, and nothing else (issue 26:
    ``relate -o -`` printed the CSV, then the text table)."""
    table = write(tmp_path, ZOOISH)
    path = tmp_path / name
    runner = CliRunner()
    to_file = runner.invoke(main, [command[0], table, *command[1:], "-o", str(path)])
    assert to_file.exit_code == 0, to_file.output
    piped = runner.invoke(main, [command[0], table, *command[1:], "-o", "-"])
    assert piped.exit_code == 0, piped.output
    assert piped.stdout_bytes == path.read_bytes()
    assert "wrote" not in piped.stderr


def test_output_to_stdout_and_another_format_refused(run, tmp_path):
    table = write(tmp_path, ZOOISH)
    r = CliRunner().invoke(main, ["relate", table, "-o", "-", "--format", "json"])
    assert r.exit_code == 2
    assert "-o - writes the front as CSV to stdout, and so would --format json" in r.stderr
    assert r.stdout == ""


@pytest.mark.parametrize(
    "args,message",
    [
        (["tree", "--example", "--point", "3"], "No such option '--point'"),
        (["relate", "--example", "--max-depth", "x"], "Invalid value for '--max-depth'"),
        (["frob"], "No such command 'frob'"),
        (["relate", "no-such-file.csv"], "no-such-file.csv: no such file"),
    ],
)
def test_one_error_style_for_click_and_dagger_errors(args, message):
    """Usage errors (click's) and dagger's own errors alike: ``dagger: error: ...`` on
    stderr, exit 2, nothing on stdout (issue 26: click printed ``Error: ...``)."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2
    assert r.stdout == ""
    first = r.stderr.splitlines()[0]
    assert first.startswith("dagger: error: ") and message in first
    assert "\nError:" not in "\n" + r.stderr


def test_warnings_are_dagger_lines_without_source(tmp_path):
    table = write(tmp_path, ZOOISH)
    r = CliRunner().invoke(main, ["validate", table, "--folds", "2", "--max-depth", "2", "-q"])
    assert r.exit_code == 0
    warned = [ln for ln in r.stderr.splitlines() if "no training row of a split" in ln]
    assert warned and all(ln.startswith("dagger: warning: ") for ln in warned)
    assert "validate.py" not in r.stderr


def test_memory_sizes_in_a_sensible_unit():
    """``--max-memory 1K``: the message says 1 KiB, not "0 MiB" (issue 26)."""
    r = CliRunner().invoke(main, ["relate", "--example", "--max-memory", "1K", "-q"])
    assert r.exit_code == 3
    assert "needs more than 1 KiB (--max-memory)" in r.stderr
    assert " 0 MiB" not in r.stderr


def test_prepare_quiet_and_validate_max_memory(tmp_path):
    """``prepare -q`` prints nothing on stderr; ``validate`` takes --max-memory (issue 26)."""
    table = write(tmp_path, ZOOISH)
    r = CliRunner().invoke(main, ["prepare", table, "-q"])
    assert r.exit_code == 0 and r.stderr == "" and r.stdout.startswith("a,b,c,d\n")
    r = CliRunner().invoke(main, ["validate", table, "--folds", "2", "--max-memory", "1K", "-q"])
    assert r.exit_code == 3
    assert "needs more than 1 KiB (--max-memory)" in r.stderr
