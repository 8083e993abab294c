"""The interactive report (``--report``): a self-contained page, its data, its safety.

The page is read here as text and as its embedded JSON; ``tests/test_browser.py`` loads it
in a real browser.
"""

import json
import os
import re
import shlex

import numpy as np
import pytest
from click.testing import CliRunner

from dagger_cli import engine
from dagger_cli.cli import main
from dagger_cli.costs import get_cost
from dagger_cli.fronts import Front
from dagger_cli.report import (
    MAX_TREES,
    picked_points,
    report_html,
    section_of,
    tree_data,
)
from tests.conftest import needs_mirror

TABLE = "a,b,c,d\n0,1,0,x\n1,0,0,y\n1,1,1,y\n0,0,1,x\n0,1,1,z\n1,0,1,x\n"


def invoke(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def page_data(text: str) -> dict:
    m = re.search(r'<script type="application/json" id="dagger-data">(.*?)</script>', text, re.S)
    assert m, "no data in the page"
    return json.loads(m.group(1))


def table_rows(text: str, sid: str = "s0") -> list[dict]:
    """The points table's rows as {column: cell text}."""
    m = re.search(rf'<table class="points" id="{sid}-points">(.*?)</table>', text, re.S)
    assert m
    heads = re.findall(r"<th[^>]*>(.*?)</th>", m.group(1))
    rows = []
    for tr in re.findall(r"<tr data-point[^>]*>(.*?)</tr>", m.group(1)):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr)
        rows.append(dict(zip(heads, cells)))
    return rows


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.csv").write_text(TABLE)
    return tmp_path


def assert_self_contained(text: str) -> None:
    """Nothing the page loads comes from elsewhere: no external script, style, font or
    image, and a policy that forbids fetching anything."""
    assert not re.search(r"<script[^>]*\ssrc=", text)
    assert not re.search(r"<link\b", text)
    assert not re.search(r"<(img|iframe|source|video|audio)\b[^>]*\ssrc=[\"']?https?:", text)
    assert "@import" not in text.split("<script", 1)[0]  # the page's own styles
    assert "default-src 'none'" in text and "connect-src 'none'" in text


# ------------------------------------------------------------------ relate --report
def test_relate_report_has_every_point_its_tree_and_the_summary(here):
    r = invoke("relate", "t.csv", "--report", "r.html", "--count", "-q")
    assert r.exit_code == 0, r.output
    text = (here / "r.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    rel = engine.relate(_table(here), count=True)
    rows = table_rows(text)
    assert [(int(row["total_path_length"]), int(row["misclassifications"])) for row in rows] == (
        rel.front.points()
    )
    assert [row["trees"] for row in rows] == [f"{c:,}" for c in rel.front.counts]
    data = page_data(text)
    (sec,) = data["sections"]
    assert sec["points"] == [list(p) for p in rel.front.points()]
    from dagger_cli.trees import extract_tree

    for k in range(len(rel.front)):
        assert sec["trees"][str(k)] == tree_data(extract_tree(rel, k))
    assert "<dt>rows</dt><dd>6</dd>" in text and "<dt>attributes</dt><dd>3</dd>" in text
    assert "decision column: &#x27;d&#x27;" in text  # the preprocessing report
    # the chart: the front as a step line, its hover text with the costs
    trace = sec["figure"]["data"][0]
    assert trace["x"] == rel.front.x.tolist() and trace["line"]["shape"] == "hv"
    assert "%{x}" in trace["hovertemplate"] and "%{y}" in trace["hovertemplate"]
    assert "plotly_click" in text


def _table(folder):
    from dagger_cli.data.table import DecisionTable

    return DecisionTable.from_csv(str(folder / "t.csv"))


def test_tree_data_has_class_counts_per_leaf_and_the_costs(here):
    from dagger_cli.trees import extract_tree

    rel = engine.relate(_table(here))
    tree = extract_tree(rel, len(rel.front) - 1)
    data = tree_data(tree)
    assert dict(data["costs"]) == {
        k: round(v, 6) if isinstance(v, float) else v for k, v in tree.costs().items()
    }

    def leaves(node):
        if "k" not in node:
            return [node]
        return [leaf for _, child in node["k"] for leaf in leaves(child)]

    found = leaves(data["root"])
    assert sum(leaf["n"] for leaf in found) == 6
    assert all(sum(leaf["c"]) == leaf["n"] for leaf in found)
    assert all(leaf["d"] in ("x", "y", "z") for leaf in found)


def test_the_same_run_writes_the_same_bytes(here):
    for name in ("a.html", "b.html"):
        assert invoke("relate", "t.csv", "--greedy", "--report", name, "-q").exit_code == 0
    assert (here / "a.html").read_bytes() == (here / "b.html").read_bytes()


def test_greedy_points_are_overlaid_and_compared(here):
    assert invoke("relate", "t.csv", "--greedy", "--report", "r.html", "-q").exit_code == 0
    text = (here / "r.html").read_text(encoding="utf-8")
    names = [t["name"] for t in page_data(text)["sections"][0]["figure"]["data"]]
    assert names[0] == "exact front" and "entropy" in names and names[-1] == "selected"
    assert "Greedy heuristics against the exact front" in text


def test_bounds_show_only_their_points_with_the_right_trees(here):
    rel = engine.relate(_table(here))
    bound = int(rel.front.y[1])
    r = invoke("relate", "t.csv", "--max-y", bound, "--report", "r.html", "-q")
    assert r.exit_code == 0
    sec = page_data((here / "r.html").read_text(encoding="utf-8"))["sections"][0]
    kept = [p for p in rel.front.points() if p[1] <= bound]
    assert sec["points"] == [list(p) for p in kept]
    assert sec["trees"]["0"]["costs"][0] == ["total_path_length", kept[0][0]]


def test_an_engine_without_trees_says_so(here):
    r = invoke("relate", "t.csv", "--engine", "baseline", "--report", "r.html", "-q")
    assert r.exit_code == 0
    text = (here / "r.html").read_text(encoding="utf-8")
    assert "the trees need the fast engine" in text
    assert page_data(text)["sections"][0]["trees"] == {}


def test_a_long_front_carries_a_capped_number_of_trees_and_says_so():
    n = 1000
    front = Front(
        get_cost("total-path-length"),
        get_cost("misclassifications"),
        np.arange(n),
        np.arange(n)[::-1],
        n_rows=10,
    )
    asked = []

    class Stub:
        def costs(self):
            return {"total_path_length": 0}

        def node_label(self, node):
            return "a"

        def branches(self, node):
            return []

        class root:
            rows, counts, decision, is_leaf = 1, (1,), "x", True

    def tree_of(k):
        asked.append(k)
        return Stub()

    sec = section_of("long", front, tree_of, ["x"])
    assert len(sec.trees) == MAX_TREES == len(asked)
    assert asked[0] == 0 and asked[-1] == n - 1
    assert f"{n:,} points" in sec.note and f"trees of {MAX_TREES}" in sec.note
    text = report_html("long", None, [sec])
    assert len(table_rows(text)) == n  # every point is still a row
    assert picked_points(3, 10) == [0, 1, 2]


# ------------------------------------------------------------------ the output's safety
@pytest.mark.parametrize(
    "args",
    [
        ("--report", "r.png"),  # not a page
        ("--report", "t.csv"),  # the input
        ("--report", "missing/r.html"),  # no such folder
        ("-o", "c.html", "--report", "c.html"),  # bad -o; and the same file twice
    ],
)
def test_a_bad_report_path_is_refused_before_any_work(here, monkeypatch, args):
    def refuse(*a, **k):
        raise AssertionError("the engine ran before the outputs were checked")

    monkeypatch.setattr(engine, "relate", refuse)
    r = invoke("relate", "t.csv", *args)
    assert r.exit_code == 2
    assert sorted(os.listdir(here)) == ["t.csv"]


def test_the_same_path_for_two_outputs_is_refused(here):
    r = invoke("relate", "t.csv", "--plot", "r.html", "--report", "r.html")
    assert r.exit_code == 2


def test_a_report_through_a_symlink_updates_its_target(here):
    (here / "real.html").write_text("old\n")
    os.symlink("real.html", here / "link.html")
    assert invoke("relate", "t.csv", "--report", "link.html", "-q").exit_code == 0
    assert (here / "link.html").is_symlink()
    assert (here / "real.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_failed_page_leaves_no_page_but_the_front_csv_written_first(here, monkeypatch):
    import dagger_cli.report as report

    def broken(*a, **k):
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(report, "_figure", broken)
    with pytest.raises(RuntimeError):
        invoke("relate", "t.csv", "-o", "c.csv", "--plot", "--report", "r.html", "-q")
    # The answer is written before the page (which can take long), the figure with the page.
    assert sorted(os.listdir(here)) == ["c.csv", "t.csv"]
    assert (here / "c.csv").read_text() == invoke("relate", "t.csv", "-o", "-", "-q").stdout


@needs_mirror
def test_zoo_report_lists_every_point(here):
    r = invoke("relate", "zoo", "--report", "zoo.html", "-q")
    assert r.exit_code == 0
    from dagger_cli.data.datasets import load_table

    rel = engine.relate(load_table("zoo"))
    rows = table_rows((here / "zoo.html").read_text(encoding="utf-8"))
    assert [(int(x["total_path_length"]), int(x["misclassifications"])) for x in rows] == (
        rel.front.points()
    )


# ------------------------------------------------------------------ validate --report
def test_validate_report_adds_the_heldout_error_along_the_front(here):
    rows = ["a,b,c,d"] + [f"{i % 2},{i % 3},{i % 5},{'xy'[(i * 7) % 3 == 0]}" for i in range(40)]
    (here / "v.csv").write_text("\n".join(rows) + "\n")
    r = invoke("validate", "v.csv", "--folds", "3", "--report", "v.html", "-o", "v.out.csv", "-q")
    assert r.exit_code == 0, r.output
    text = (here / "v.html").read_text(encoding="utf-8")
    assert_self_contained(text)
    (sec,) = page_data(text)["sections"]
    cells = table_rows(text)
    assert len(cells) == len(sec["points"]) == len(sec["trees"])
    label = "held-out error rate (mean of 3 folds)"
    assert all(0 <= float(c[label]) <= 1 for c in cells)
    names = [t["name"] for t in sec["heldout"]["data"]]
    assert names[:2] == ["training (mean)", "held-out (mean)"] and len(names) == 5
    again = invoke("validate", "v.csv", "--folds", "3", "--report", "w.html", "-q")
    assert again.exit_code == 0
    assert (here / "w.html").read_bytes() == (here / "v.html").read_bytes()


def test_validate_reports_hint_gives_the_page_trees(here):
    (here / "my shop.csv").write_text(SHAPED)
    options = ["--decision", "label", "--drop", "id", "--drop", "noise", "--sep", ";"]
    options += ["--thresholds", "all", "--max-depth", "2"]
    r = invoke("validate", "my shop.csv", *options, "--folds", "2", "--report", "v.html", "-q")
    assert r.exit_code == 0, r.output
    (sec,) = page_data((here / "v.html").read_text(encoding="utf-8"))["sections"]
    assert "--duplicates keep" in sec["command"]  # validate keeps equal rows: so does the hint
    assert_the_hint_gives_every_tree(sec)


def test_validate_report_path_is_checked_first(here):
    r = invoke("validate", "t.csv", "--folds", "2", "--report", "t.csv")
    assert r.exit_code == 2 and "input" in r.stderr
    assert (here / "t.csv").read_text() == TABLE


# ------------------------------------------------------------------ study --report
def test_study_report_has_a_page_per_table_and_an_index(here):
    pytest.importorskip("distributed")
    from tests.test_study import read_results, run_cli

    (here / "study.toml").write_text(
        'tables = ["t.csv"]\n'
        'pairs = [["total-path-length", "misclassifications"], ["depth", "misclassifications"]]\n'
    )
    out = here / "out"
    r = run_cli("study", "study.toml", "-o", out, "--workers", "1", "-q")
    assert r.exit_code == 0, r.output
    # Asked for a report, the tasks run again: the first run kept no trees.
    r = run_cli("study", "study.toml", "-o", out, "--workers", "1", "-q", "--report")
    assert r.exit_code == 0, r.output
    assert {row["status"] for row in read_results(out)} == {"ok"}
    assert sorted(p.name for p in (out / "report").iterdir()) == ["index.html", "t.html"]
    index = (out / "report" / "index.html").read_text(encoding="utf-8")
    assert index.count('href="t.html#s') == 2 and "<script" not in index
    page = (out / "report" / "t.html").read_text(encoding="utf-8")
    assert_self_contained(page)
    secs = page_data(page)["sections"]
    assert [s["x"] for s in secs] == ["total_path_length", "depth"]
    from dagger_cli.trees import extract_tree

    table = _table(here)
    for sec, x in zip(secs, ("total-path-length", "depth")):
        rel = engine.relate(table, x, "misclassifications")
        assert sec["points"] == [list(p) for p in rel.front.points()]
        assert sec["trees"] == {
            str(k): tree_data(extract_tree(rel, k)) for k in range(len(rel.front))
        }
        assert_the_hint_gives_every_tree(sec)  # the command a point without its tree names
    first = page.encode()
    # A third run finds everything current, trees included, and writes the same page.
    r = run_cli("study", "study.toml", "-o", out, "--workers", "1", "-q", "--report")
    assert r.exit_code == 0, r.output
    assert {row["status"] for row in read_results(out)} == {"skipped"}
    assert (out / "report" / "t.html").read_bytes() == first


def test_a_point_without_its_tree_in_the_page_names_the_command_that_prints_it(here):
    r = invoke("relate", "t.csv", "--x", "depth", "--max-depth", "2", "--report", "r.html", "-q")
    assert r.exit_code == 0
    sec = page_data((here / "r.html").read_text(encoding="utf-8"))["sections"][0]
    assert sec["command"] == (
        "dagger tree t.csv --x depth --y misclassifications --max-depth 2 --max-y {y}"
    )


def test_numeric_columns_report_their_threshold_splits(here):
    rows = ["age,w,c", "21,1.5,a", "35,2.5,b", "40,1.0,a", "52,3.5,b", "60,0.5,a", "33,2.0,b"]
    (here / "n.csv").write_text("\n".join(rows) + "\n")
    r = invoke("relate", "n.csv", "--thresholds", "all", "--max-depth", "2", "--report", "n.html")
    assert r.exit_code == 0, r.output
    sec = page_data((here / "n.html").read_text(encoding="utf-8"))["sections"][0]
    assert len(sec["trees"]) == len(sec["points"])
    root = sec["trees"][str(len(sec["points"]) - 1)]["root"]
    assert root["a"] in ("age", "w") and [e for e, _ in root["k"]][0].startswith("<= ")


# ------------------------------------------------------------ the hint's command line
def _page_tree_text(sec: dict, tree: dict) -> str:
    """A page's tree as ``dagger tree`` prints it (the page's own text view, in Python)."""

    def counts(node):
        return ", ".join(f"{d}: {n}" for d, n in zip(sec["decisions"], node["c"]) if n)

    def walk(node, indent, out):
        for edge, child in node["k"]:
            test = f"{node['a']} {edge}" if edge[:1] in "<>" else f"{node['a']} = {edge}"
            head = "|   " * indent + test
            if "k" in child:
                out.append(head)
                walk(child, indent + 1, out)
            else:
                out.append(f"{head}: {child['d']}  [{counts(child)}]")
        return out

    root = tree["root"]
    if "k" not in root:
        return f"{root['d']}  [{counts(root)}]\n"
    return "\n".join(walk(root, 0, [])) + "\n"


def assert_the_hint_gives_every_tree(sec: dict) -> None:
    """The section's command, run as printed for each point, prints the page's tree."""
    assert len(sec["trees"]) == len(sec["points"])
    for k, (x, y) in enumerate(sec["points"]):
        args = shlex.split(sec["command"].replace("{y}", str(y)))
        assert args[:2] == ["dagger", "tree"]
        r = invoke(*args[1:])
        assert r.exit_code == 0, r.output
        head, _, body = r.stdout.partition("\n")
        costs = dict(kv.split("=") for kv in head.removeprefix("# ").split(", "))
        assert (int(costs[sec["x"]]), int(costs[sec["y"]])) == (x, y)
        assert body == _page_tree_text(sec, sec["trees"][str(k)])


SHAPED = (
    "id;size;colour;label;noise\n"
    "1;3,5;red;yes;a\n2;1,0;blue;no;b\n3;2,5;red;yes;c\n4;?;green;no;d\n5;4,0;blue;yes;e\n"
    "6;0,5;red;no;f\n7;3,0;green;yes;g\n8;1,5;blue;no;h\n9;2,0;red;no;i\n10;4,5;green;yes;j\n"
    "11;3,5;red;no;k\n12;2,5;blue;yes;l\n"
)


def test_the_hinted_command_run_as_printed_gives_the_page_tree_of_every_point(here):
    # A table whose front depends on every table option: the decision is not the last
    # column, two columns are dropped, a numeric column (decimal commas, one missing cell)
    # is split by thresholds, and the separator is given.
    (here / "my shop.csv").write_text(SHAPED)
    table_options = ["--decision", "label", "--drop", "id", "--drop", "noise"]
    table_options += ["--thresholds", "all", "--missing", "mode", "--sep", ";"]
    r = invoke("relate", "my shop.csv", *table_options, "--report", "r.html", "-q")
    assert r.exit_code == 0, r.output
    sec = page_data((here / "r.html").read_text(encoding="utf-8"))["sections"][0]
    words = shlex.split(sec["command"])
    assert words[:3] == ["dagger", "tree", "my shop.csv"]
    for option in ("--decision", "--drop", "--thresholds", "--missing", "--sep"):
        assert option in words
    assert len(sec["points"]) > 2
    assert_the_hint_gives_every_tree(sec)
    # The hint without the table options (as it was) reads another table: its trees differ.
    bare = [invoke("tree", "my shop.csv", "--max-y", y, "-q") for _, y in sec["points"]]
    assert any(
        b.stdout.partition("\n")[2] != _page_tree_text(sec, sec["trees"][str(k)])
        for k, b in enumerate(bare)
    )


@pytest.mark.parametrize(
    "recipe",
    [
        dict(decision="the label", drop=("a b", "c"), missing="value", duplicates="merge", bins=3),
        dict(thresholds="all", missing="error"),
        dict(thresholds=7, duplicates="keep", drop_unlabeled=True),
        dict(weight="w t", class_weight="yes=2,no=0.5", cost_matrix="my prices.csv"),
        dict(class_weight="balanced", min_leaf=3, positive="a b"),
    ],
)
def test_the_hint_carries_every_recipe_field_and_the_query(here, monkeypatch, recipe):
    from dagger_cli.cli import common
    from dagger_cli.data.recipe import Recipe
    from dagger_cli.data.table import example_table
    from dagger_cli.engine import api
    from dagger_cli.engine.query import Query
    from dagger_cli.errors import InputError
    from dagger_cli.report import tree_command

    seen = []

    def load(self, quiet=False):
        seen.append(self)
        return example_table()

    def solve(table, query):
        seen.append(query)
        raise InputError("stop here")

    monkeypatch.setattr(common.Source, "load", load)
    monkeypatch.setattr(api, "solve", solve)
    query = Query(
        "nodes",
        "misclassifications",
        max_depth=4,
        exact_only=True,
        max_memory="3G",
        max_subtables=9,
    )
    command = tree_command("a table.csv", Recipe(**recipe), query, sep="\t")
    r = invoke(*shlex.split(command.replace("{y}", "5"))[1:])
    assert r.exit_code == 2 and "stop here" in r.stderr
    source, got = seen[:2]  # (tree tries the query again after an InputError)
    assert (source.table, source.recipe, source.sep) == ("a table.csv", Recipe(**recipe), "\t")
    for name in ("x", "y", "max_depth", "exact_only", "max_memory", "max_subtables"):
        assert getattr(got, name) == getattr(query, name), name
    assert got.max_y == 5


def test_the_hint_tests_set_every_recipe_field():
    """A new field of the recipe (a new table option) needs a value in the test above."""
    from dagger_cli.data.recipe import FIELDS

    params = test_the_hint_carries_every_recipe_field_and_the_query.pytestmark[0].args[1]
    assert set().union(*params) == FIELDS


def test_a_front_of_false_positives_and_negatives_has_its_roc_chart(here):
    # Weighted rows, 'y' the positive class: the ROC chart's points are each front point's
    # false positive rate (of the negatives' weight) and true positive rate (of the
    # positives'), clickable to their trees; another pair of costs has none.
    (here / "w.csv").write_text("a,b,w,d\n0,1,2,x\n1,0,1,y\n1,1,3,y\n0,0,1,x\n0,1,1,y\n1,0,2,x\n")
    base = ["relate", "w.csv", "--weight", "w", "--positive", "y", "-q"]
    invoke(*base, "--x", "false-positives", "--y", "false-negatives", "--report", "roc.html")
    text = (here / "roc.html").read_text()
    sec = page_data(text)["sections"][0]
    assert 'id="s0-roc"' in text and "ROC curve" in text
    positives, negatives = 1 + 3 + 1, 2 + 1 + 2
    curve = sec["roc"]["data"][0]
    want = sorted(
        (fp / negatives, 1 - fn / positives, k) for k, (fp, fn) in enumerate(sec["points"])
    )
    got = sorted(zip(curve["x"], curve["y"], [c[0] for c in curve["customdata"]]))
    assert len(got) == len(want) >= 2
    for g, w in zip(got, want):
        assert g == pytest.approx(w)
    invoke(*base, "--report", "plain.html")
    plain = (here / "plain.html").read_text()
    assert page_data(plain)["sections"][0]["roc"] is None and 'id="s0-roc"' not in plain
