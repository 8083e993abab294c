"""The bounds section of the benchmark (``scripts.bench.bounds``, issue 17): the bounds read off
the whole front (its child, ``child/bounds_case.py``), the exactness check (a wrong bounded
answer must stop the benchmark), its options, and one real run on a tiny case, whose output's
shape is checked (no timing is)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from scripts.bench import bounds, procs, verdict
from scripts.bench.child.bounds_case import bounds_of
from tests.conftest import REPO, needs_mirror

FRONT = [(0, 26), (1, 19), (2, 16), (3, 10), (4, 3)]


def test_bounds_of_reads_the_front():
    b = bounds_of(FRONT)
    assert list(b) == [k for k, _ in bounds.QUERIES]
    assert b["whole"] == {}
    assert b["max_y_median"] == {"max_y": 16} and b["max_y_least"] == {"max_y": 3}
    assert b["max_x_median"] == {"max_x": 2} and b["max_x_second"] == {"max_x": 1}
    assert b["least_y"] == {"least_y": True}
    # an even number of points: the lower median, a point's own value
    b = bounds_of([(0, 9), (2, 5), (3, 4), (7, 1)])
    assert b["max_y_median"] == {"max_y": 4} and b["max_x_median"] == {"max_x": 2}
    # one point: no second point to bound x by
    assert "max_x_second" not in bounds_of([(0, 0)])


def test_expected_answer_is_the_front_restricted():
    assert verdict.expected_answer(FRONT, {}) == FRONT
    assert verdict.expected_answer(FRONT, {"max_y": 16}) == FRONT[2:]
    assert verdict.expected_answer(FRONT, {"max_x": 1}) == FRONT[:2]
    assert verdict.expected_answer(FRONT, {"max_x": 3, "max_y": 19}) == FRONT[1:4]
    assert verdict.expected_answer(FRONT, {"least_y": True}) == [(4, 3)]
    assert verdict.expected_answer([[0, 1]], {"max_y": 0}) == []  # JSON gives lists


def measured(points_of, seconds_of):
    """A child's output for FRONT with made-up answers and engine seconds per query."""
    queries = {
        key: {
            "bounds": kwargs,
            "points": points_of.get(key, verdict.expected_answer(FRONT, kwargs)),
            "subtables": 100,
            "stored": 300,
            "engine_s": seconds_of.get(key, 1.0),
        }
        for key, kwargs in bounds_of(FRONT).items()
    }
    return {"rows": 10, "attributes": 4, "first_s": 2.0, "queries": queries}


def test_check_bounds_ratios_and_a_wrong_answer():
    case = {"table": "zoo", "x": "depth", "cap": 4, "wall": 3.0, "peak_mib": 200.0}
    case.update(measured({}, {"whole": 2.0, "least_y": 0.5}))
    assert verdict.check_bounds(case) is True
    q = case["queries"]
    assert q["whole"]["ratio"] == 1.0 and q["least_y"]["ratio"] == 4.0
    assert q["max_x_second"]["ratio"] == 2.0
    assert bounds.bounds_summary([case])["least_y"] == {"median_ratio": 4.0, "cases": 1}
    # a point missing from a bounded answer
    case.update(measured({"max_y_median": [(2, 16), (4, 3)]}, {}))
    assert verdict.check_bounds(case) is False
    assert not case["queries"]["max_y_median"]["exact"]
    text = bounds.bounds_lines(case)
    assert text.count("!!! NOT EXACT") == 1 and text.count(" exact") == 5
    assert text.splitlines()[0].startswith("zoo depth vs µ, D = 4 (10 rows, 4 attributes")


def test_a_wrong_answer_fails_loudly(monkeypatch, tmp_path, capsys):
    """The section reports every case, writes its file, then exits non-zero."""
    child = measured({"least_y": [(3, 10)]}, {})

    def fake_launch(cmd, limit):
        assert cmd[:2] == procs.child("bounds_case")
        assert cmd[2:] == ["zoo", "total-path-length", "None", "1"]
        return {"code": 0, "wall": 1.0, "peak_mib": 99.0, "stdout": json.dumps(child)}

    monkeypatch.setattr(procs, "launch", fake_launch)
    args = argparse.Namespace(
        bounds_cases=[("zoo", "total-path-length", None)],
        bounds_runs=1,
        bounds_timeout=5.0,
        out=tmp_path,
    )
    with pytest.raises(SystemExit, match="NOT EXACT.*zoo Λ vs µ, uncapped: least_y"):
        bounds.run(args)
    saved = json.loads((tmp_path / "bench-bounds.json").read_text())["bounds"]
    assert saved["not_exact"] == ["zoo Λ vs µ, uncapped: least_y"]
    assert "!!! NOT EXACT" in capsys.readouterr().out


def test_a_failed_case_is_reported_and_left_out(monkeypatch, tmp_path, capsys):
    def fake_launch(cmd, limit):
        return {"code": "timeout", "wall": limit, "peak_mib": 99.0, "stdout": "", "stderr": ""}

    monkeypatch.setattr(procs, "launch", fake_launch)
    out = bounds.bench_bounds([("mushroom", "depth", 3)], 1, 2.0)
    assert out["cases"][0]["failed"] == "timeout" and out["summary"] == {}
    assert "mushroom depth vs µ, D = 3: FAILED (timeout, 2 s)" in capsys.readouterr().out
    assert "| mushroom depth vs µ, D = 3 | failed |" in out["markdown"]


def test_case_option_parsing():
    assert bounds.parse_cases("mushroom:tpl, odt-vehicle:depth:4,nursery") == [
        ("mushroom", "total-path-length", None),
        ("odt-vehicle", "depth", 4),
        ("nursery", "total-path-length", None),
    ]
    assert bounds.parse_cases("zoo:nodes:none") == [("zoo", "nodes", None)]
    for bad, why in [
        ("zo:tpl", "unknown table 'zo'"),
        ("zoo:size", "unknown cost 'size'"),
        ("zoo:mu", "x must differ from y"),
        ("zoo:depth:0", "depth cap >= 1"),
        ("zoo:depth:x", "depth cap >= 1"),
        (" , ", "expected cases"),
    ]:
        with pytest.raises(argparse.ArgumentTypeError, match=why):
            bounds.parse_cases(bad)
    assert bounds.rounds("3") == 3
    for bad in ("0", "-1", "x", ""):
        with pytest.raises(argparse.ArgumentTypeError, match="rounds >= 1"):
            bounds.rounds(bad)


@needs_mirror
def test_the_section_on_a_tiny_case(tmp_path):
    """``--only bounds`` for real on zoo, depth vs µ at D = 2, one round."""
    cmd = [sys.executable, "-m", "scripts.bench", "run", "--only", "bounds", "--bounds-runs", "1"]
    cmd += ["--bounds-cases", "zoo:depth:2", "--out", str(tmp_path)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=REPO)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines.pop(0).startswith("## bounds (")
    assert lines[0].startswith("bounds: 1 case(s), each in a fresh process") and "load" in lines[0]
    assert lines[1].startswith("zoo depth vs µ, D = 2 (59 rows, 16 attributes; process")
    assert sum(line.endswith("  exact") for line in lines) == len(bounds.QUERIES)
    assert any(line.startswith("bounds done: load average (1, 5, 15 min)") for line in lines)
    assert any(line.startswith("median ratio whole / bounded") for line in lines)
    out = json.loads((tmp_path / "bench-bounds.json").read_text())["bounds"]
    assert out["runs"] == 1 and out["not_exact"] == [] and len(out["cases"]) == 1
    case = out["cases"][0]
    assert (case["table"], case["x"], case["cap"], case["exact"]) == ("zoo", "depth", 2, True)
    q = case["queries"]
    assert list(q) == [k for k, _ in bounds.QUERIES]
    whole = [tuple(p) for p in q["whole"]["points"]]
    assert len(whole) >= 2 and whole[0][0] == 0  # the single leaf: depth 0
    for r in q.values():
        assert len(r["seconds"]) == 1 and r["engine_s"] == r["seconds"][0] > 0
        assert [tuple(p) for p in r["points"]] == verdict.expected_answer(whole, r["bounds"])
        assert r["subtables"] >= 1 and r["stored"] >= len(r["points"])
        assert r["ratio"] > 0
    assert q["least_y"]["points"] == [list(whole[-1])]
    assert set(out["summary"]) == {k for k, _ in bounds.QUERIES[1:]}
    assert out["markdown"].splitlines()[-1].startswith("| median whole / bounded |")
