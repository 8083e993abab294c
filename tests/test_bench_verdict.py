"""The benchmark's verdicts (``scripts.bench.verdict``) on made-up figures: each target met
just inside its limit and not met just outside, and the texts the sections print. The odt
and bounds verdicts are tested with their sections (test_bench_odt.py, test_bench_bounds.py)."""

from __future__ import annotations

import math

import pytest

from scripts.bench import verdict
from scripts.bench.verdict import Verdict


def test_marks_and_lines():
    assert Verdict(True, "a").line() == "  [met] a"
    assert Verdict(False, "b").line() == "  [NOT MET] b"
    assert Verdict(None, "c").line() == "  [info] c"
    assert Verdict(True, "a", {"n": 1}).as_dict() == {"ok": True, "text": "a", "n": 1}
    assert verdict.met(True) == "met" and verdict.met(False) == "NOT MET"


def uci_row(name, speedup=None, process=None, peak=300.0):
    row = {"table": name}
    if speedup is not None:
        row["speedup"] = speedup
    if process is not None:
        row.update(process_s=process, process_peak_mib=peak)
    return row


def test_uci_targets():
    rows = [
        uci_row("zoo", 100, 0.5),
        uci_row("lymphography", 20, 0.6),
        uci_row("nursery", 19.9, 0.9),
        uci_row("mushroom", 74, 1.5, peak=501),
    ]
    vs = verdict.uci_verdicts(rows)
    assert [v.ok for v in vs] == [True, False, True, True, True, False]
    assert vs[0].text == "lymphography: fast engine x20 the baseline (>= x20)"
    assert vs[3].text == "mushroom whole process 1.50 s (<= 1.5 s)"
    assert vs[4].text == "the four tables' processes together 3.50 s (<= 4 s)"
    assert vs[5].text == "largest peak RSS of those processes 501 MiB (<= 500 MiB)"
    # zoo has no speed-up target; without the four processes, no total
    assert verdict.uci_verdicts([uci_row("zoo", 3, 0.7)]) == []
    rows[3]["process_s"] = 1.51
    assert not verdict.uci_verdicts(rows)[3].ok


def test_scaling_target_only_near_the_point():
    near = {"kind": "random", "m": 18, "n": 300, "subtables": 1_371_531, "edges": 30_771_284}
    far = dict(near, subtables=645_250, edges=12_083_150)
    (v,) = verdict.scaling_verdicts(
        [dict(near, t=10.0, peak_mib=2048), dict(far, t=99, peak_mib=1)]
    )
    assert v.ok and v.text.startswith("random 18x300: 1,371,531 subtables, 30,771,284 edges in")
    (v,) = verdict.scaling_verdicts([dict(near, t=10.01, peak_mib=600)])
    assert not v.ok


def test_sorting_against_knuth():
    from scripts.bench.sorting import sorting_verdicts

    assert verdict.sorting_check(5, 832, 7) == " (known)"
    assert verdict.sorting_check(5, 832, 8) == " WRONG"
    assert verdict.sorting_check(9, 1, 1) == ""
    ok = {"n": 7, "code": 0, "wall_s": 60.0, "peak_mib": 2585}
    assert [v.ok for v in sorting_verdicts([ok, dict(ok, n=6)])] == [True]
    assert not sorting_verdicts([dict(ok, wall_s=60.5)])[0].ok
    assert sorting_verdicts([dict(ok, code=3)]) == []  # stopped: no figure to judge
    natural = {"natural_code": 0, "natural_wall_s": 30.0, "natural_peak_mib": 8000}
    assert [v.ok for v in sorting_verdicts([dict(ok, **natural)])] == [True, True]
    late = dict(ok, **dict(natural, natural_wall_s=31))
    assert [v.ok for v in sorting_verdicts([late])] == [True, False]
    eight = dict(ok, n=8, **dict(natural, natural_wall_s=500))
    (v,) = sorting_verdicts([eight])
    assert v.ok and "(<= 600 s, <= 8 GiB; issue 45)" in v.text
    assert not sorting_verdicts([dict(eight, natural_peak_mib=8200)])[0].ok
    assert verdict.sorting_check(8, 620160, 16) == " (known)"


def test_load_read_study():
    v = verdict.load_verdict({"process_s": 0.9, "engine_s": 1.1})
    assert v.ok and v.text == (
        "busy: default / one thread = x0.90 whole process, x1.10 engine (<= 1.1 under load)"
    )
    assert not verdict.load_verdict({"process_s": 0.9, "engine_s": 1.17}).ok
    size = 100 * 2**20
    in_time, in_memory = verdict.read_verdicts(10.0, 300.0, size)
    assert in_time.ok and in_memory.ok
    in_time, in_memory = verdict.read_verdicts(10.1, 300.5, size)
    assert not in_time.ok and not in_memory.ok and in_memory.mark == "NOT MET"
    v = verdict.study_verdict(1.7, 2)
    assert v.ok and v.text == "dagger study x1.70 the separate processes on 2 cores (>= x1.7)"
    assert not verdict.study_verdict(1.69, 2).ok


def num_row(table, dagger, contree, exact=True):
    return {"table": table, "dagger_s": dagger, "contree_s": contree, "exact": exact}


def test_num_verdicts():
    assert verdict.num_exact([201, 100, 23], [201, 100, 23], [201, 100, 23])
    assert verdict.num_exact([201, 100, 23], None, [201, 100, 23])  # ConTree not installed
    assert not verdict.num_exact([201, 100, 24], None, [201, 100, 23])
    assert not verdict.num_exact([201, 100, 23], [201, 100, 22], None)
    assert not verdict.num_exact(None, None, None)  # dagger did not finish
    rows = [num_row("bank", 0.7, 1.2), num_row("rice", 6.4, 17.4), num_row("page", 5.0, 4.8)]
    s = verdict.num_depth_summary(rows)
    assert s.ok is None and s.text == (
        "whole processes over the 3 tables: dagger 12.10 s, ConTree 23.40 s (x1.93); "
        "dagger faster on 2 of 3 (bank, rice); exact on 3 of 3"
    )
    assert verdict.num_tpl_ok(0, 60.0, 2048) and not verdict.num_tpl_ok(0, 60.1, 100)
    assert not verdict.num_tpl_ok("timeout", 10.0, 100)
    out = {
        "depth3": rows[:2] + [num_row("page", 5.0, 4.8, exact=False)],
        "tpl3": [{"table": "bank", "ok": True}, {"table": "rice", "ok": False}],
        "estimator": {"fit_s": 0.5},
        "large": {
            "rows": 100_000,
            "all": {"code": "timeout", "peak_mib": 286.0},
            "16": {"code": 0, "peak_mib": 196.0},
        },
    }
    vs = verdict.num_verdicts(out)
    assert [v.ok for v in vs] == [False, False, True, True]
    assert "on 2 of the 3 tables" in vs[0].text
    assert vs[1].text.endswith("on 1 of the 2 tables (not: rice)")
    assert vs[2].text == "the estimator on bank at depth 3: 0.50 s (<= 1 s)"
    assert vs[3].text == (
        "100,000 rows x 10 numeric columns at depth 3 within 2 GiB: --thresholds all 286 MiB, "
        "--thresholds 16 196 MiB"
    )
    out["large"]["16"]["code"] = 3  # stopped by --max-memory: not met
    out["estimator"] = None
    vs = verdict.num_verdicts(out)
    assert not vs[2].ok and "failed" in vs[2].text and not vs[3].ok
    assert verdict.num_verdicts({}) == []


@pytest.mark.parametrize(
    ("first", "warm", "ok"),
    [(1.75, 0.5, True), (1.76, 0.5, False), (1.0, 0.0, True), (61.0, 0.05, False)],
)
def test_first_call_target(first, warm, ok):
    v = verdict.first_call_verdict({"label": "relate zoo", "first_s": first, "warm_s": warm})
    assert v.ok is ok
    limit = 1.5 * warm + 1
    assert v.text.startswith(f"relate zoo: first call {first:.2f} s, warm {warm:.2f} s")
    assert v.text.endswith(f"(<= 1.5 x warm + 1 s = {limit:.2f} s)")


def test_bounds_ratio_of_an_instant_query():
    case = {
        "queries": {
            "whole": {"bounds": {}, "points": [(0, 2), (1, 1)], "engine_s": 0.5},
            "least_y": {"bounds": {"least_y": True}, "points": [(1, 1)], "engine_s": 0.0},
        }
    }
    assert verdict.check_bounds(case) is True
    assert math.isinf(case["queries"]["least_y"]["ratio"])


def anytime_run(wall=10.5, limit=10.0, code=6, points=3, bound=True, table="rice", depth=4):
    return {
        "table": table,
        "wall": wall,
        "limit": limit,
        "depth": depth,
        "code": code,
        "points": points,
        "bound": bound,
    }


def test_anytime_answered_and_within():
    assert verdict.anytime_answered(anytime_run())
    assert verdict.anytime_answered(anytime_run(code=0))  # finished: the exact front
    for bad in (dict(code="timeout"), dict(code=2), dict(points=0), dict(bound=False)):
        assert not verdict.anytime_answered(anytime_run(**bad)), bad
    assert verdict.anytime_within(anytime_run(wall=11.0))
    assert not verdict.anytime_within(anytime_run(wall=11.01))
    assert not verdict.anytime_within(anytime_run(wall=3.0, code="timeout"))
    assert verdict.anytime_within(anytime_run(wall=2.0, limit=1.0))
    assert not verdict.anytime_within(anytime_run(wall=2.01, limit=1.0))


def limit_row(busy_over, alone_over=0.4, answered=True):
    def side(over):
        return {"over": over, "over_max": over + 0.3, "answered": answered}

    return {
        "table": "segment",
        "limit": 3.0,
        "depth": 4,
        "alone": side(alone_over),
        "busy": side(busy_over),
    }


def test_anytime_limit_target():
    v = verdict.anytime_limit_verdict(limit_row(1.0))
    assert v.ok and v.text == (
        "segment --time-limit 3s at D = 4: over the limit beside a busy neighbour +1.00 s "
        "(median; max +1.30 s), alone +0.40 s (<= 1 s beside the neighbour)"
    )
    assert v.data == {"table": "segment", "limit": 3.0}
    assert not verdict.anytime_limit_verdict(limit_row(1.01)).ok
    # over the limit alone does not count; the busy neighbour's median does
    assert verdict.anytime_limit_verdict(limit_row(0.9, alone_over=1.5)).ok
    v = verdict.anytime_limit_verdict(limit_row(0.1, answered=False))
    assert not v.ok and "a run did not answer" in v.text


def test_anytime_within_targets():
    runs = [anytime_run(10.8, table="bank"), anytime_run(10.95, table="rice", code=0)]
    v = verdict.anytime_within_verdict(runs, "the 2 numeric tables")
    assert v.ok and v.text == (
        "--time-limit 10s at D = 4 on the 2 numeric tables: a front and a bound within the time "
        "on 2 of 2 (slowest rice 10.95 s) (<= 11 s)"
    )
    runs.append(anytime_run(11.2, table="page"))
    runs.append(anytime_run(4.0, table="wilt", code=3))  # out of memory: no answer
    v = verdict.anytime_within_verdict(runs, "the 4 numeric tables")
    assert not v.ok and v.data["not"] == ["page", "wilt"]
    assert "on 2 of 4 (slowest page 11.20 s); not: page, wilt (<= 11 s)" in v.text
    one = anytime_run(1.9, limit=1.0, table="30,000 x 12")
    v = verdict.anytime_within_verdict([one], "a generated table of 30,000 x 12")
    assert v.ok and v.text == (
        "--time-limit 1s at D = 4 on a generated table of 30,000 x 12: 1.90 s, exit 6, "
        "a front and a bound (<= 2 s)"
    )
    v = verdict.anytime_within_verdict([dict(one, code="timeout")], "x")
    assert not v.ok and "exit timeout, NO answer" in v.text


def test_anytime_exact_and_all_verdicts():
    row = {"case": "relate num-raisin --x depth --max-depth 2", "same": True, "codes": [0, 0]}
    v = verdict.anytime_exact_verdict(row)
    assert v.ok and v.text == (
        "relate num-raisin --x depth --max-depth 2 --format csv: --time-limit 1h gives the same "
        "bytes as no limit (yes; exits 0, 0)"
    )
    assert not verdict.anytime_exact_verdict(dict(row, same=False)).ok
    assert not verdict.anytime_exact_verdict(dict(row, codes=[0, 6])).ok  # stopped: not exact
    out = {
        "limits": [limit_row(0.5), limit_row(1.5)],
        "six": [anytime_run(table="bank"), anytime_run(table="page")],
        "large": [anytime_run(1.8, limit=1.0, table="big"), anytime_run(12.0, table="big")],
        "exact": [row],
    }
    assert [v.ok for v in verdict.anytime_verdicts(out)] == [True, False, True, True, False, True]
    assert verdict.anytime_verdicts({}) == []


def test_the_report_within_twice_the_front():
    from scripts.bench.report import report_verdict

    row = {"case": "bank, depth <= 3", "points": 180, "front_s": 1.0, "report_s": 2.0}
    assert report_verdict({**row, "ratio": 2.0}).ok
    assert not report_verdict({**row, "ratio": 2.01}).ok
    assert report_verdict({**row, "ratio": 2.0}).text == (
        "bank, depth <= 3: the report of 180 points in 2.00 s, x2.00 the front's 1.00 s "
        "(target <= x2)"
    )


def test_total_path_length_on_the_long_table_against_depth(monkeypatch, tmp_path):
    """The ``tpl-long`` part: one table per size written, depth vs µ then Λ vs µ on it, the
    ratio of their walls against x3 (just inside met, just outside not), and issue 39's
    verdict line from it."""
    from scripts.bench import num

    walls = iter([1.0, 3.0, 2.0, 6.02])  # (depth, Λ) per size
    launched = []

    def launch(cmd, limit, env):
        launched.append(cmd)
        out = "total_path_length  average_depth  misclassifications\n0 0.0 9\n3 1.0 4\n"
        return {"wall": next(walls), "peak_mib": 60.0, "code": 0, "stdout": out}

    monkeypatch.setattr(num.procs, "launch", launch)
    rows = num.bench_tpl_long(60.0, sizes=(40, 50))
    assert [r["ok"] for r in rows] == [True, False]
    assert ["--x" in c for c in launched] == [True, False, True, False]
    vs = num.deep_verdicts({"tpl_long": rows})
    assert [v.ok for v in vs] == [True, False]
    assert vs[1].text == (
        "total path length vs misclassifications at D = 3 on 50 rows (issue 39's long table) "
        "within x3 of depth vs misclassifications: 6.02 s against 2.00 s, x3.0"
    )


def test_depth_five_checked_as_far_as_it_can_be(monkeypatch):
    """The ``depth5`` part (issue 40): bank, raisin and wilt only; a table is exact when its
    least errors at depths 1..3 equal ConTree's and the tree of least errors re-evaluates
    to the front's least errors, within target when it ends in 10 minutes and 2 GiB; the
    verdict names the tables that fail either."""
    from scripts.bench import num
    from scripts.bench.verdict import CONTREE_OPTIMA

    def front(table, d4, d5):
        d1, d2, d3 = CONTREE_OPTIMA[table]
        rows = [(0, d1 + 50), (1, d1), (2, d2), (3, d3), (4, d4), (5, d5)]
        return "depth  misclassifications\n" + "".join(f"{x} {y}\n" for x, y in rows)

    runs = {
        "bank": (0.3, front("bank", 0, 0)),
        "raisin": (30.0, front("raisin", 80, 70).replace("\n2 109\n", "\n2 108\n")),
        "wilt": (601.0, front("wilt", 50, 23)),
    }
    launched = []

    def launch(cmd, limit, env):
        table = cmd[cmd.index("relate") + 1].removeprefix("num-")
        launched.append(table)
        wall, out = runs[table]
        return {"wall": wall, "peak_mib": 80.0, "code": 0, "stdout": out}

    monkeypatch.setattr(num.procs, "launch", launch)
    monkeypatch.setattr(num, "tree_errors", lambda t, d, limit, env: {"bank": 0}.get(t, 70))
    rows = num.bench_depth5(["bank", "rice", "raisin", "wilt"], 900.0)
    assert launched == ["bank", "raisin", "wilt"]
    assert [r["least_by_depth"][1:] for r in rows][0] == [201, 100, 23, 0, 0]
    assert [r["exact"] for r in rows] == [True, False, False]  # raisin d = 2; wilt's tree
    assert [r["within_target"] for r in rows] == [True, True, False]
    (v,) = num.deep_verdicts({"depth5": rows})
    assert not v.ok
    assert v.text == (
        "depth 5 within 10 minutes and 2 GiB on 2 of 3 tables (bank 0.3 s, raisin 30.0 s, "
        "wilt 601.0 s), depths 1..3 equal to ConTree's and the tree re-evaluated on 1 "
        "(NOT: raisin, wilt)"
    )
