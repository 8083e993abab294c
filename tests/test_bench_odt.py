"""The odt section of the benchmark (``scripts.bench.odt``) and its verdicts
(``scripts.bench.verdict``): the options, the exactness check and issue 17's verdict against
STreeD, on made-up measurements (no process is launched, nothing is timed)."""

from __future__ import annotations

import argparse

import pytest

from scripts.bench import odt, procs, verdict


def dagger(wall, engine=0.5, points=None, peak=300.0):
    return {"engine_s": engine, "wall": wall, "peak_mib": peak, "points": points or []}


def streed(wall, fits=0.1, depths=(1, 2, 3, 4), mis=None):
    return {"depths": list(depths), "wall": wall, "fit_s": fits, "mis": mis or [], "peak_mib": 9}


def failed(why, wall=120.0, **extra):
    return {"failed": why, "wall": wall, "peak_mib": 100.0, "stderr": "", **extra}


def rows_at(cap, pairs):
    """Rows of the 12 tables with dagger's and STreeD's whole-process seconds at ``cap``."""
    return [
        {"table": t, f"depth_D{cap}": d, f"streed_D{cap}": s}
        for t, (d, s) in zip(verdict.ODT_TABLES, pairs)
    ]


def test_least_per_depth_reads_the_front():
    front = [(0, 26), (1, 19), (2, 16), (3, 10), (4, 3)]
    assert verdict.least_per_depth(front, 4) == [19, 16, 10, 3]
    # a depth without its own point takes the best of the shallower ones
    assert verdict.least_per_depth([(0, 9), (2, 4)], 3) == [9, 4, 4]


def test_check_exact_against_readme_and_streed():
    front = [(0, 26), (1, 19), (2, 16), (3, 10), (4, 3), (5, 1)]
    r = {"points": front}
    verdict.check_exact(r, "hepatitis", 5, {5: 1})
    assert r["exact"] is True and r["expected"] == [19, 16, 10, 3, 1]
    r = {"points": front}
    verdict.check_exact(r, "hepatitis", 5, {})  # STreeD at 5 did not finish
    assert r["exact"] is None and r["unchecked"] == [5]
    r = {"points": [(0, 26), (1, 19), (2, 16), (3, 11), (4, 3)]}
    verdict.check_exact(r, "hepatitis", 4, {3: 11})  # STreeD never overrides the README
    assert r["exact"] is False and r["mismatch"] == [3]
    r = failed("memory")
    verdict.check_exact(r, "hepatitis", 4, {})
    assert "exact" not in r


def test_check_row_flags_streed_and_dagger():
    row = {
        "table": "vote",
        "depth_D4": dagger(1.0, points=[(0, 168), (1, 19), (2, 17), (3, 12), (4, 5)]),
        "streed_D4": streed(2.0, mis=[19, 17, 12, 6]),  # d = 4 differs from the README
        "depth_D5": dagger(3.0, points=[(0, 168), (1, 19), (2, 17), (3, 12), (4, 5), (5, 2)]),
        "streed_D5": streed(4.0, depths=[5], mis=[3]),
    }
    verdict.check_row(row, [4, 5])
    assert row["streed_D4"]["exact"] is False and row["streed_D5"]["exact"] is None
    assert row["depth_D4"]["exact"] is True
    assert row["depth_D5"]["exact"] is False and row["depth_D5"]["mismatch"] == [5]
    assert "!!! MISMATCH at D=5" in odt.odt_lines(dict(row, rows=435, features=48), [4, 5], [])


def test_streed_depths():
    assert verdict.streed_depths(4) == [1, 2, 3, 4]
    assert verdict.streed_depths(5) == [5]


def test_verdict_met_needs_the_total_and_nine_wins():
    # dagger faster on 9 tables by 1 s, slower on 3 by 0.5 s: met
    pairs = [(dagger(1.0), streed(2.0))] * 9 + [(dagger(2.5), streed(2.0))] * 3
    c = verdict.compare_streed(rows_at(4, pairs), 4)
    assert c["needed"] == 9 and len(c["wins"]) == 9 and c["met"]
    assert c["dagger_s"] == pytest.approx(16.5) and c["streed_s"] == pytest.approx(24.0)
    # 8 wins only: not met, though faster in total
    pairs = [(dagger(1.0), streed(2.0))] * 8 + [(dagger(2.1), streed(2.0))] * 4
    c = verdict.compare_streed(rows_at(4, pairs), 4)
    assert len(c["wins"]) == 8 and c["dagger_s"] < c["streed_s"] and not c["met"]
    # 11 wins but one table much slower: not met in total
    pairs = [(dagger(1.0), streed(1.5))] * 11 + [(dagger(30.0), streed(2.0))]
    c = verdict.compare_streed(rows_at(4, pairs), 4)
    assert len(c["wins"]) == 11 and not c["met"]


def test_verdict_with_timeouts_and_failures():
    good = [(dagger(1.0), streed(2.0))] * 11
    # STreeD stopped at the limit counts at its wall time: dagger still wins there
    c = verdict.compare_streed(rows_at(5, good + [(dagger(60.0), failed("timeout"))]), 5)
    assert c["met"] and c["streed_timed_out"] == [verdict.ODT_TABLES[-1]]
    assert c["streed_s"] == pytest.approx(22 + 120)
    assert "(counted at the limit)" in verdict.compare_text(c)
    # dagger stopped (time or memory): never met, whatever the rest
    for why in ("timeout", "memory"):
        c = verdict.compare_streed(rows_at(5, good + [(failed(why), streed(50.0))]), 5)
        assert not c["met"] and c["dagger_failed"] == [verdict.ODT_TABLES[-1]]
        assert "dagger did not finish on vehicle" in verdict.compare_text(c)
    # a STreeD crash leaves the table unjudged: not met
    c = verdict.compare_streed(rows_at(5, good + [(dagger(1.0), failed("exit 1", 0.5))]), 5)
    assert not c["met"] and c["streed_failed"] == ["vehicle"]
    # STreeD not run at all: no verdict
    assert verdict.compare_streed([{"table": "vote", "depth_D4": dagger(1.0)}], 4) is None


def test_subset_needs_the_same_share():
    c = verdict.compare_streed(rows_at(4, [(dagger(1.0), streed(2.0))] * 2), 4)
    assert c["needed"] == 2 and c["met"]
    assert "a subset" in verdict.compare_text(c)


def test_verdicts_and_markdown():
    rows = rows_at(4, [(dagger(1.0, engine=0.4), streed(2.0, fits=0.3))] * 2)
    for row in rows:
        row["depth_D4"]["exact"] = True
        row["depth_D4"]["points"] = [(0, 1)]
        row["tpl_D4"] = dagger(5.5, engine=4.9)
    rows[1]["tpl_D4"] = dagger(1.0, engine=5.1)
    verdicts = verdict.odt_verdicts(rows, [4], [4])
    oks = [v.ok for v in verdicts]
    assert oks == [True, True, None, False, False, None]
    assert "(not: australian-credit)" in verdicts[3].text
    assert "(not: anneal)" in verdicts[4].text
    md = odt.odt_markdown(rows, [4], [4]).splitlines()
    assert md[0].startswith("| table | depth vs µ, D=4 | STreeD d=1..4: fits / process |")
    assert md[-1] == "| total | 0.80 / 2.00 | 0.60 / 4.00 |  |"


def test_failure_kinds():
    assert procs.failure({"code": "timeout", "stderr": ""}) == "timeout"
    err = "LimitError: the DAG needs more than 2,048 MiB (--max-memory): ..."
    assert procs.failure({"code": 1, "stderr": err}) == "memory"
    assert procs.failure({"code": "timeout", "stderr": err}) == "memory"
    assert procs.failure({"code": -9, "stderr": ""}) == "exit -9"


def test_option_parsing():
    assert odt.caps("5,2,4,4") == [2, 4, 5]
    assert odt.table_names("vote, hepatitis") == ["vote", "hepatitis"]
    for bad in ("0,2", "x", ""):
        with pytest.raises(argparse.ArgumentTypeError):
            odt.caps(bad)
    with pytest.raises(argparse.ArgumentTypeError, match="unknown table"):
        odt.table_names("vote,votes")


def test_markdown_at_depth_five_and_the_baseline():
    rows = rows_at(5, [(dagger(3.0, engine=2.0), failed("timeout", 300.0))])
    rows[0]["baseline_tpl_D3"] = dagger(9.0, engine=8.5)
    md = odt.odt_markdown(rows, [5], []).splitlines()
    assert md[0] == (
        "| table | depth vs µ, D=5 | STreeD d=5: fit / process | baseline Λ vs µ, D=3 |"
    )
    assert md[2] == "| anneal | 2.00 / 3.00 (300 MiB) | timed out (300 s) | 8.50 |"
    # STreeD stopped at the limit: its total is a lower bound
    assert md[-1] == "| total | 2.00 / 3.00 | 0.00+ / 300.00+ |  |"


def test_lower_bound_mark_only_where_judged():
    # STreeD timed out where dagger failed too: that table is not in the totals, no "+"
    pairs = [(dagger(1.0), streed(2.0)), (failed("memory", 5.0), failed("timeout"))]
    text = verdict.compare_text(verdict.compare_streed(rows_at(5, pairs), 5))
    assert "on the 1 table timed on both sides 1.0 s against 2.0 s, faster on 1" in text
    pairs[0] = (dagger(1.0), failed("timeout"))
    text = verdict.compare_text(verdict.compare_streed(rows_at(5, pairs), 5))
    assert "1.0 s against 120.0+ s" in text
