"""Fronts, trees and relations display themselves in notebooks (``_repr_html_``): checked on
what the HTML says (points, rows, boxes, labels), parsed as XML, not on pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import dagger_cli
from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable, example_table
from dagger_cli.fronts import Front
from dagger_cli.notebook import MAX_ROWS
from dagger_cli.output import front_text
from dagger_cli.trees import extract_tree

SVG = "{http://www.w3.org/2000/svg}"


def _parse(html: str) -> ET.Element:
    """The HTML as XML (every tag closed, every text escaped), or a failure."""
    return ET.fromstring(html)


def _random_table(seed: int, rows: int = 40, attributes: int = 5) -> DecisionTable:
    rng = np.random.default_rng(seed)
    cells = rng.integers(0, 3, (rows, attributes)).tolist()
    return DecisionTable.from_rows(cells, rng.integers(0, 3, rows).tolist(), name=f"r{seed}")


def test_a_front_is_its_staircase_and_its_table():
    table = _random_table(1)
    rel = dagger_cli.relate(table)
    front = rel.front
    doc = _parse(front._repr_html_())
    svg = doc.find(f".//{SVG}svg")
    assert svg is not None
    titles = [c.find(f"{SVG}title").text for c in svg.iter(f"{SVG}circle")]
    assert titles == [f"({x}, {y})" for x, y in front.points()]
    # The table says what `dagger relate` prints, cell for cell.
    printed = [line.split() for line in front_text(front).splitlines()]
    assert [th.text for th in doc.iter("th")] == printed[0]
    cells = [[td.text for td in tr.iter("td")] for tr in doc.find(".//tbody")]
    assert cells == printed[1:]


def test_a_long_front_shows_its_ends():
    n = 3 * MAX_ROWS
    front = Front(
        COSTS["total-path-length"], COSTS["misclassifications"], np.arange(n), n - np.arange(n), 7
    )
    doc = _parse(front._repr_html_())
    rows = [[td.text or "" for td in tr.iter("td")] for tr in doc.find(".//tbody")]
    half = MAX_ROWS // 2
    assert len(rows) == MAX_ROWS + 1
    assert rows[half][0] == f"… {n - MAX_ROWS} more"
    assert rows[0][0] == "0" and rows[-1][0] == str(n - 1)
    assert len(list(doc.iter(f"{SVG}circle"))) == n  # the plot shows every point


def test_an_empty_front_says_so():
    empty = Front(COSTS["depth"], COSTS["misclassifications"], [], [], 3)
    assert "0 Pareto-optimal point(s)" in _parse(empty._repr_html_()).find("p").text


def test_a_tree_is_drawn_box_by_box():
    rel = dagger_cli.relate(_random_table(2), max_depth=3)
    tree = extract_tree(rel, len(rel.front) - 1)
    doc = _parse(tree._repr_html_())
    assert doc.find("p").text == tree.summary()
    svg = doc.find(f"{SVG}svg")
    nodes, leaves, splits, edge_labels = [], 0, [], []
    stack = [tree.root]
    while stack:
        node = stack.pop()
        nodes.append(node)
        if node.is_leaf:
            leaves += 1
        else:
            splits.append(tree.node_label(node))
            edge_labels += [str(v) for v, _ in tree.branches(node)]
            stack.extend(c for _, c in node.children)
    rects = list(svg.iter(f"{SVG}rect"))
    assert len(rects) == len(nodes) == tree.costs()["nodes"]
    assert sum("rx" in r.attrib for r in rects) == leaves  # leaves are rounded
    texts = ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]
    assert sorted(t for t in texts if t in splits) == sorted(splits)
    assert len(list(svg.iter(f"{SVG}line"))) == len(nodes) - 1
    lines = svg.find(f"{SVG}g")
    assert lines is not None
    labels = [t.text for t in svg.findall(f"{SVG}g/{SVG}text")]
    assert sorted(labels) == sorted(edge_labels)


def test_a_threshold_tree_labels_its_edges_with_the_tests():
    pytest.importorskip("sklearn")
    from sklearn.datasets import load_iris

    from dagger_cli.sklearn import DaggerTreeClassifier

    X, y = load_iris(return_X_y=True, as_frame=True)
    tree = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(X, y).tree_
    labels = [t.text for t in _parse(tree._repr_html_()).findall(f"{SVG}svg/{SVG}g/{SVG}text")]
    assert labels == ["<= 2.45", "<= 1.65", "> 1.65", "> 2.45"]


def test_a_relation_names_its_table_and_its_state():
    rel = dagger_cli.relate(example_table())
    doc = _parse(rel._repr_html_())
    assert doc.find("p/b").text == "paper-fig4: 4 rows, 3 attributes"
    assert len(list(doc.iter(f"{SVG}circle"))) == len(rel.front)
    capped = dagger_cli.relate(example_table(), "depth", "misclassifications", max_depth=1)
    assert "over the trees of depth <= 1" in "".join(_parse(capped._repr_html_()).itertext())


def test_the_html_is_the_same_bytes_every_time():
    table = _random_table(3)
    a, b = dagger_cli.relate(table), dagger_cli.relate(table)
    assert a._repr_html_() == b._repr_html_()
    assert extract_tree(a, 0)._repr_html_() == extract_tree(b, 0)._repr_html_()


def test_names_are_escaped():
    table = DecisionTable.from_rows(
        [["x"], ["y"], ["x"], ["y"]], ["<", ">", "<", ">"], ["<b>&"], name="a<b"
    )
    rel = dagger_cli.relate(table)
    tree = extract_tree(rel, len(rel.front) - 1)
    assert "<b>&" in "".join(_parse(tree._repr_html_()).itertext())
    assert "a<b" in "".join(_parse(rel._repr_html_()).itertext())


def test_the_tutorial_runs_top_to_bottom(tmp_path, monkeypatch):
    """docs/tutorial.ipynb, committed without outputs, runs cell by cell as a kernel runs it;
    every result it shows is the object's own HTML."""
    pytest.importorskip("sklearn")
    from scripts.notebook import executed, page, read_notebook, run_notebook

    nb = read_notebook(Path(__file__).resolve().parents[1] / "docs" / "tutorial.ipynb")
    monkeypatch.chdir(tmp_path)
    outputs = run_notebook(nb, "tutorial")
    code = [out for cell, out in zip(nb["cells"], outputs) if cell["cell_type"] == "code"]
    assert code and all(code)  # every code cell shows something
    results = [o for out in code for o in out if o["output_type"] == "execute_result"]
    for result in results:
        _parse(result["data"]["text/html"])
    assert "paper-fig4: 4 rows, 3 attributes" in results[0]["data"]["text/html"]
    assert (tmp_path / "iris-report.html").stat().st_size > 0
    again = executed(nb, outputs)
    assert [c.get("outputs") for c in again["cells"] if c["cell_type"] == "code"] == code
    text = page(nb, outputs)
    assert text.count("```python") == len(code)


def test_a_notebook_with_outputs_or_another_format_is_refused(tmp_path):
    import json

    from scripts.notebook import read_notebook

    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps({"nbformat": 3, "cells": []}))
    with pytest.raises(ValueError, match="not a version 4 notebook"):
        read_notebook(path)
    cell = {"cell_type": "code", "source": "1", "outputs": [{"output_type": "stream"}]}
    path.write_text(json.dumps({"nbformat": 4, "cells": [cell]}))
    with pytest.raises(ValueError, match="clear them"):
        read_notebook(path)
