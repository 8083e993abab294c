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
from scripts.bench import firstcall, machine, procs
from tests.conftest import REPO

SCRIPTS = REPO / "scripts"


def test_every_section_is_reachable():
    names = [s.NAME for s in cli.SECTIONS]
    assert names == [
        "uci", "scaling", "odt", "bounds", "sorting", "read",
        "sklearn", "load", "rules", "num", "study", "firstcall",
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
