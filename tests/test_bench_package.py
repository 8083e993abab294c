"""The benchmark package (``scripts.bench``): its command line and sections, the one process
launcher, the child programs (real files that import nothing of the package), and the
first-call section on made-up launches and for real on a tiny command."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import pytest

from scripts.bench import __main__ as cli
from scripts.bench import anytime, firstcall, load, machine, num, procs
from tests.conftest import REPO

SCRIPTS = REPO / "scripts"


def test_every_section_is_reachable():
    names = [s.NAME for s in cli.SECTIONS]
    assert names == [
        "uci", "scaling", "odt", "bounds", "sorting", "read",
        "sklearn", "load", "rules", "num", "study", "firstcall", "anytime", "weights",
        "report", "cores",
    ]  # fmt: skip
    outputs = [s.OUTPUT for s in cli.SECTIONS]
    assert len(set(outputs)) == len(outputs) and "bench.json" not in outputs
    for s in cli.SECTIONS:
        assert callable(s.run) and s.HELP


def test_only_and_skip():
    parse = cli.build_parser().parse_args
    args = parse(["run"])
    assert cli.selected(args) == cli.SECTIONS
    args = parse(["run", "--only", "odt, bounds"])
    assert [s.NAME for s in cli.selected(args)] == ["odt", "bounds"]  # the full run's order
    args = parse(["run", "--skip", "study,sorting"])
    assert [s.NAME for s in cli.selected(args)] == [
        s.NAME for s in cli.SECTIONS if s.NAME not in ("study", "sorting")
    ]
    args = parse(["run", "--only", "num", "--skip", "num"])
    assert cli.selected(args) == []
    # every section's options on the one parser, their defaults
    assert args.odt_depths == [2, 3, 4, 5] and args.bounds_runs == 5 and args.runs == 5
    assert args.first_cases == firstcall.CASES and args.num_large_rows == 100_000
    assert args.anytime_limits == [1.0, 3.0, 10.0] and args.anytime_runs == 5
    assert args.anytime_tables == "segment,rice" and args.anytime_depth == 4
    args = parse(["run", "--only", "anytime", "--anytime-limits", "0.5, 2"])
    assert args.anytime_limits == [0.5, 2.0] and args.anytime_parts.split(",") == list(
        anytime.PARTS
    )


def test_an_unknown_section_is_refused(capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args(["run", "--only", "uci,odd"])
    assert "unknown section(s) odd; known: uci, scaling" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args([])  # a command is required


def test_sections_command():
    r = subprocess.run(
        [sys.executable, "-m", "scripts.bench", "sections"],
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert len(lines) == len(cli.SECTIONS)
    assert lines[2].startswith("odt ") and lines[2].endswith("(bench-odt.json)")


def test_the_launcher_reports_a_process():
    code = "import sys, time; time.sleep(0.2); print('out'); print('err', file=sys.stderr)"
    r = procs.launch([sys.executable, "-c", code])
    assert r["code"] == 0 and r["stdout"] == "out\n" and r["stderr"] == "err\n"
    assert 0.2 <= r["wall"] < 30 and r["peak_mib"] > 1 and r["cpu"] >= 0
    r = procs.launch([sys.executable, "-c", "raise SystemExit(3)"])
    assert r["code"] == 3
    r = procs.launch([sys.executable, "-c", "import time; time.sleep(30)"], limit=0.5)
    assert r["code"] == "timeout" and r["wall"] < 20 and procs.failure(r) == "timeout"
    with pytest.raises(SystemExit, match="failed"):
        procs.launch_ok([sys.executable, "-c", "raise SystemExit(1)"])


def test_repeat_stops_at_a_failure_or_a_slow_run():
    ok = [sys.executable, "-c", "print(1)"]
    done, fail = procs.repeat(ok, 3, 30, once_over=60)
    assert len(done) == 3 and fail is None
    done, fail = procs.repeat(ok, 3, 30, once_over=0)  # every run is slower than 0 s
    assert len(done) == 1 and fail is None
    bad = [sys.executable, "-c", "import sys; sys.exit('MemoryError: no')"]
    done, fail = procs.repeat(bad, 3, 30, once_over=60)
    assert done == [] and fail["failed"] == "memory" and "MemoryError" in fail["stderr"]


def test_failure_kinds():
    assert procs.failure({"code": "timeout", "stderr": ""}) == "timeout"
    err = "LimitError: the DAG needs more than 2,048 MiB (--max-memory): ..."
    assert procs.failure({"code": 1, "stderr": err}) == "memory"
    assert procs.failure({"code": "timeout", "stderr": err}) == "memory"
    assert procs.failure({"code": -9, "stderr": ""}) == "exit -9"


def test_machine():
    assert len(machine.load_average()) == 3
    assert machine.loads((1, 2.345, 0.5)) == "1.00 2.35 0.50"
    assert machine.load_text().startswith("load ")
    record = machine.Record().done()
    assert set(record) == {"started", "finished", "cores", "load_start", "load_end"}
    assert record["started"].endswith(" UTC")


def _imports(path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: a relative import in a child program"
            names.add((node.module or "").split(".")[0])
    return names


def test_child_programs_import_nothing_of_the_package():
    children = sorted((SCRIPTS / "bench" / "child").glob("*.py"))
    assert {p.stem for p in children} >= {"launcher", "streed", "contree", "first_call"}
    for path in children:
        assert "scripts" not in _imports(path), path.name
    child = SCRIPTS / "bench" / "child"
    assert _imports(child / "launcher.py") <= {"json", "resource", "subprocess", "sys", "time"}
    # the peers' processes: numpy and the peer, nothing of dagger
    assert "dagger_cli" not in _imports(child / "streed.py") | _imports(child / "contree.py")


def test_no_script_is_long():
    long = {}
    for path in SCRIPTS.rglob("*.py"):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > 600:
            long[str(path.relative_to(REPO))] = n
    assert not long, f"over 600 lines: {long}"


def fake_child(first, warm, files=12):
    def fake(cmd, limit, env):
        assert cmd[:2] == procs.child("first_call") and "NUMBA_CACHE_DIR" in env
        figures = {
            "import_s": 0.2,
            "first_s": first if fake.calls == 0 else 0.6,  # then the cache is filled
            "warm_s": warm,
            "same_output": True,
            "numba_loaded": True,
            "cache_files": files,
        }
        fake.calls += 1
        return {"code": 0, "wall": first + 1, "peak_mib": 200.0, "stdout": json.dumps(figures)}

    fake.calls = 0
    return fake


def test_first_call_section_on_made_up_launches(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(procs, "launch", fake_child(first=40.0, warm=0.05))
    monkeypatch.setattr(firstcall, "_fetch", lambda args: None)
    args = cli.build_parser().parse_args(["run", "--only", "firstcall", "--out", str(tmp_path)])
    args.first_cases = firstcall.parse_cases("relate zoo -q")
    out = firstcall.run(args)
    (case,) = out["cases"]
    assert case["label"] == "relate zoo -q" and case["args"] == ["relate", "zoo", "-q"]
    assert case["first_s"] == 40.0 and case["cached_first_s"] == 0.6
    assert case["ratio"] == pytest.approx(800) and case["difference_s"] == pytest.approx(39.95)
    assert [v["ok"] for v in out["verdicts"]] == [False]
    text = capsys.readouterr().out
    assert "caches empty; 12 kernel cache files written" in text
    assert "  [NOT MET] relate zoo -q: first call 40.00 s, warm 0.05 s" in text
    assert out["markdown"].splitlines()[2] == (
        "| relate zoo -q | 40.00 s | 0.050 s | ×800.0 | 39.95 s | 0.60 s | NOT MET |"
    )
    saved = json.loads((tmp_path / "first-call.json").read_text())
    assert saved["cases"][0]["first_s"] == 40.0
    # a compiled core: no kernel cache, a first call close to the warm one
    monkeypatch.setattr(procs, "launch", fake_child(first=1.2, warm=0.4, files=0))
    case = firstcall.measure_case("zoo", ["relate", "zoo"], 3, 1, 60)
    assert "no kernel cache written (numba loaded)" in firstcall.case_line(case)
    assert firstcall.markdown([case]).endswith("| met |")


def test_first_call_cases_option():
    cases = firstcall.parse_cases("relate zoo -q; relate 'my table.csv' --max-depth 3;")
    assert cases == [
        ("relate zoo -q", ["relate", "zoo", "-q"]),
        ("relate my table.csv --max-depth 3", ["relate", "my table.csv", "--max-depth", "3"]),
    ]


def test_the_first_call_child_for_real():
    """The child on a built-in example: both calls answer alike, the figures are there."""
    r = procs.launch(procs.child("first_call", 1, "relate", "--example", "-q"), limit=600)
    assert r["code"] == 0, r["stderr"]
    out = procs.last_json(r)
    assert out["code"] == 0 and out["same_output"] is True
    assert out["first_s"] > 0 and out["warm_s"] > 0 and out["import_s"] > 0
    if "NUMBA_CACHE_DIR" not in os.environ:
        assert out["cache_files"] is None  # the usual caches, not an emptied one
    assert out["output_tail"].strip()


def test_the_results_page_is_short_and_in_the_site():
    """docs/benchmarks.md holds the current figures (the log is benchmarks-history.md)."""
    page = (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert len(page.splitlines()) < 150
    assert "scripts/bench.py" not in page  # the commands are the package's
    nav = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    assert "benchmarks.md" in nav and "benchmarks-history.md" in nav
    for s in cli.SECTIONS:  # every section is on the page, with its file
        assert f"| `{s.NAME}` |" in page and f"`{s.OUTPUT}`" in page, s.NAME


# --------------------------------------------------------------------------- anytime
def anytime_doc(status="time_limit"):
    points = [
        {"total_path_length": 0, "misclassifications": 9, "proven": True, "gap": 0},
        {"total_path_length": 5, "misclassifications": 4, "proven": False, "gap": 4},
        {"total_path_length": 9, "misclassifications": 2, "proven": False, "gap": 2},
    ]
    doc = {"points": points, "status": status, "bound": points[:1]}
    return json.dumps(doc)


def test_what_an_anytime_answer_says():
    a = anytime.answer_of(anytime_doc())
    assert a == {
        "status": "time_limit",
        "points": 3,
        "proven": 1,
        "max_gap": 4,
        "bound": True,
        "bound_points": 1,
    }
    exact = json.dumps({"points": [{"depth": 0, "misclassifications": 3}]})
    a = anytime.answer_of(exact)  # finished: every point proven, the front its own bound
    assert a["status"] == "exact" and a["proven"] == a["points"] == 1 and a["bound"]
    assert a["max_gap"] == 0
    a = anytime.answer_of("Error: no such table\n")
    assert a["status"] is None and a["points"] == 0 and not a["bound"]
    assert anytime.span([3, 5, 4]) == "3-5" and anytime.span([2]) == "2" and anytime.span([]) == "-"
    cmd = anytime.command("num-rice", 4, 1.5, "depth", "--thresholds", "all")
    want = "relate num-rice --max-depth 4 --x depth --time-limit 1.5s -q --format json"
    assert cmd[1:] == want.split() + ["--thresholds", "all"]


class FakeBusy:
    """load.BusyNeighbours, made up: counts the runs beside it."""

    now = False
    entered = 0

    def __init__(self, n=None):
        assert n == 1

    def __enter__(self):
        FakeBusy.now = True
        FakeBusy.entered += 1
        return self

    def __exit__(self, *exc):
        FakeBusy.now = False


def fake_anytime_launch(alone_over, busy_extra):
    def fake(cmd, limit=None, env=None):
        assert env is not None and "DAGGER_NUM_MIRROR" in env
        out = {"peak_mib": 150.0, "cpu": 1.0, "stderr": ""}
        if "csv" in cmd:
            return {**out, "code": 0, "wall": 1.2, "stdout": "depth,misclassifications\n0,9\n"}
        assert cmd[0] == procs.DAGGER and "--time-limit" in cmd and limit is not None
        seconds = float(cmd[cmd.index("--time-limit") + 1].rstrip("s"))
        assert limit > seconds  # killed well after the limit, not at it
        wall = seconds + alone_over + (busy_extra if FakeBusy.now else 0.0)
        return {**out, "code": 6, "wall": wall, "stdout": anytime_doc()}

    return fake


def test_anytime_section_on_made_up_launches(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(procs, "launch", fake_anytime_launch(alone_over=0.4, busy_extra=0.8))
    monkeypatch.setattr(load, "BusyNeighbours", FakeBusy)
    monkeypatch.setattr(FakeBusy, "entered", 0)
    monkeypatch.setattr(num, "NUM_DIR", tmp_path)  # "the tables are there"
    argv = ["run", "--only", "anytime", "--out", str(tmp_path), "--anytime-tables", "rice",
            "--anytime-limits", "1,3", "--anytime-runs", "3", "--anytime-six", "bank,page",
            "--anytime-parts", "limits,six,large,exact", "--anytime-large-rows", "200"]  # fmt: skip
    out = anytime.run(cli.build_parser().parse_args(argv))
    assert FakeBusy.entered == 2 * 3  # each limit's runs beside the neighbour
    assert [(r["table"], r["limit"]) for r in out["limits"]] == [("rice", 1.0), ("rice", 3.0)]
    row = out["limits"][0]
    assert row["alone"]["over"] == pytest.approx(0.4) and row["busy"]["over"] == pytest.approx(1.2)
    assert len(row["runs"]["alone"]) == len(row["runs"]["busy"]) == 3
    assert row["busy"]["proven"] == [1] and row["busy"]["max_gap"] == [4]
    assert [r["table"] for r in out["six"]] == ["bank", "page"]
    assert [r["limit"] for r in out["large"]] == [1.0, 3.0, 10.0]  # each limit, and 10 s
    assert [r["same"] for r in out["exact"]] == [True, True]
    marks = [v["ok"] for v in out["verdicts"]]
    assert marks == [False, False, True, True, True, True, True, True]
    text = capsys.readouterr().out
    assert (
        "  [NOT MET] rice --time-limit 1s at D = 4: over the limit beside a busy neighbour " in text
    )
    lines = out["markdown"].splitlines()
    assert lines[2] == "| rice, 1 s | +0.40 s | +1.20 s (max +1.20) | 6 | 1 of 3 | 4 | NOT MET |"
    assert "| bank, 10 s | 10.40 s | 6 | 1 of 3 | 4 | met |" in lines
    saved = json.loads((tmp_path / "anytime.json").read_text())
    assert saved["limits"][1]["busy"]["wall"] == pytest.approx(4.2)
    assert saved["load_start"] and saved["finished"].endswith(" UTC")


def test_anytime_section_without_the_tables(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(num, "NUM_DIR", tmp_path / "none")
    args = cli.build_parser().parse_args(["run", "--only", "anytime", "--out", str(tmp_path)])
    assert anytime.run(args) == {}
    assert "skipped" in capsys.readouterr().out


def test_where_the_time_over_the_limit_goes():
    doc = {
        "launch": -0.60, "start": -0.55, "imported": -0.30, "table_start": -0.25,
        "table_end": -0.05, "deadline": 3.0, "noticed": 3.04, "answer": 3.05,
        "answered": 3.06, "returned": 3.06, "done": 3.08, "exited": 3.40,
    }  # fmt: skip
    b = anytime.breakdown(doc)
    steps = "interpreter,imports,command line,table read,deadline noticed,work stopped"
    assert list(b) == steps.split(",") + ["answer made", "output", "exit"]
    expected = [0.05, 0.25, 0.10, 0.20, 0.04, 0.01, 0.01, 0.02, 0.32]
    assert list(b.values()) == pytest.approx(expected)
    # finished before the limit: nothing was stopped
    done = dict(doc, noticed=None, answer=None, answered=None, done=1.0, returned=0.98)
    b = anytime.breakdown(done)
    assert "work stopped" not in b and b["output"] == pytest.approx(0.02)


def test_the_phases_child_for_real(tmp_path):
    """The phases child on a small numeric CSV file (finished long before its limit)."""
    path = tmp_path / "small.csv"
    rows = [f"{i % 7}.5,{(i * 3) % 5}.25,{int(i % 7 > 3)}" for i in range(40)]
    path.write_text("a,b,y\n" + "\n".join(rows) + "\n")
    args = ["relate", str(path), "--max-depth", "2", "--x", "depth", "--time-limit", "1h", "-q"]
    doc = anytime.phases_run(args, 3600.0, 600.0, dict(os.environ))
    assert "failed" not in doc, doc
    assert doc["code"] == 0 and doc["limit"] == 3600.0 and doc["noticed"] is None
    assert doc["launch"] < doc["start"] < doc["imported"] < 0 < doc["returned"] <= doc["done"]
    assert doc["imported"] < doc["table_start"] < doc["table_end"] <= 0
    assert doc["exited"] >= doc["done"] and doc["wall"] == pytest.approx(
        doc["exited"] - doc["launch"]
    )
    # Two attributes: depth 2 is no cap, so the depth-one front comes first, then the greedy
    # trees (dagger_cli.engine.anytime).
    assert [p["step"] for p in doc["phases"][:2]] == ["depth <= 1", "greedy trees"]
    assert doc["checks"] >= 0
    b = anytime.breakdown(doc)
    assert set(b) == {"interpreter", "imports", "command line", "table read", "output", "exit"}
    assert all(v >= 0 for v in b.values())
