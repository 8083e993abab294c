"""Optimal trees behind Pareto points: exact costs, validity, formats, CLI."""

import json

import pytest
from click.testing import CliRunner

from dagger_cli.cli import main
from dagger_cli.data.table import example_table
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree, tree_for
from tests.conftest import needs_mirror
from tests.evaluate import check_valid_tree, evaluate_tree


def _check_all_points(rel, every=1, stride=1):
    header, records = rel.table.to_records()
    last = len(rel.front) - 1
    for k, (x, y) in enumerate(rel.front.points()):
        if k % stride and k != last:
            continue
        tree = extract_tree(rel, k)
        assert (tree.costs()["total_path_length"], tree.costs()["misclassifications"]) == (x, y)
        if k % every and k != len(rel.front) - 1:
            continue
        d = tree.to_dict()["tree"]
        check_valid_tree(d, header, records)
        got = evaluate_tree(d, header, records)
        assert (got["total_path_length"], got["misclassifications"]) == (x, y), k


def test_example_trees():
    rel = relate(example_table())
    _check_all_points(rel)
    assert extract_tree(rel, 0).root.is_leaf
    assert extract_tree(rel, 1).root.attribute == "f1"  # first attribute in column order


@needs_mirror
@pytest.mark.parametrize(
    "name, every, stride",
    [
        ("zoo", 1, 1),
        ("lymphography", 1, 1),
        ("mushroom", 1, 1),
        pytest.param("nursery", 300, 10, marks=pytest.mark.slow),
    ],
)
def test_every_point_of_uci_tables(name, every, stride):
    """Every point's tree has exactly its (Λ, µ) and the independent evaluator agrees. For
    time, nursery (1498 points, ~30 ms per tree) checks every 10th point and the last, and
    re-evaluates every 300th row by row; the other tables check every point."""
    from dagger_cli.data.datasets import load_table

    _check_all_points(relate(load_table(name)), every, stride)


def test_tree_for_F_and_G():
    rel = relate(example_table())
    assert tree_for(rel, max_y=0).costs()["total_path_length"] == 4
    assert tree_for(rel, max_x=3).costs()["misclassifications"] == 2
    with pytest.raises(InputError):
        tree_for(rel, max_x=1, max_y=1)


def test_predict_and_costs_on_dataframe():
    t = example_table()
    tree = tree_for(relate(t), max_y=0)
    df = t.to_dataframe()
    assert tree.predict(df) == t.decision_labels()
    assert tree.costs(df) == tree.costs()


def test_other_pair_tree():
    t = example_table()
    rel = relate(t, "depth", "misclassifications")
    tree = tree_for(rel, max_y=0)
    assert tree.costs()["depth"] == 1


def test_json_contract_and_determinism():
    rel = relate(example_table())
    a = extract_tree(rel, 1).to_json()
    b = extract_tree(relate(example_table()), 1).to_json()
    assert a == b
    doc = json.loads(a)
    assert doc["costs"]["total_path_length"] == 4 and doc["costs"]["misclassifications"] == 0
    assert doc["tree"]["attribute"] == "f1"
    assert doc["tree"]["children"]["2"] == {"decision": "0", "rows": 1}


def test_text_and_dot_formats():
    tree = tree_for(relate(example_table()), max_y=0)
    text = tree.to_text()
    assert "f1 = 3: 1  [1: 1]" in text
    dot = tree.to_dot()
    assert dot.startswith("digraph tree {") and dot.count("->") == 4


def test_cli_tree_formats_and_drawing(tmp_path):
    runner = CliRunner()
    r = runner.invoke(main, ["tree", "--example", "--max-misclassifications", "0"])
    assert r.exit_code == 0 and "f1 = 0: 0" in r.stdout
    png = tmp_path / "t.png"
    r = runner.invoke(main, ["tree", "--example", "--max-misclassifications", "0", "-o", str(png)])
    assert r.exit_code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    r = runner.invoke(main, ["tree", "--example"])
    assert r.exit_code == 2 and "exactly one query" in r.stderr


def test_draw_tree_leaves_colored_by_decision():
    from dagger_cli.plots import draw_tree

    fig = draw_tree(tree_for(relate(example_table()), max_y=0))
    leaves = [t for t in fig.axes[0].texts if t.get_gid() == "leaf"]
    assert len(leaves) == 4
    colors = {t.get_text().split()[0]: t.get_bbox_patch().get_facecolor() for t in leaves}
    assert colors["0"] != colors["1"]


def test_relate_trees_dir(tmp_path):
    r = CliRunner().invoke(main, ["relate", "--example", "--trees", str(tmp_path / "trees")])
    assert r.exit_code == 0
    files = sorted(p.name for p in (tmp_path / "trees").iterdir())
    assert files == [
        "point-0-total_path_length-0-misclassifications-2.json",
        "point-0-total_path_length-0-misclassifications-2.txt",
        "point-1-total_path_length-4-misclassifications-0.json",
        "point-1-total_path_length-4-misclassifications-0.txt",
    ]


def test_extraction_needs_fast_engine():
    with pytest.raises(InputError, match="fast engine"):
        extract_tree(relate(example_table(), engine="baseline"), 0)
