"""`dagger tree` computes only what its one point needs when depth is one of the costs:
a bound on depth becomes the depth cap (F(N) with x = depth), and the least depth within
a bound on the other cost is found by raising the cap one level at a time (G(K) with
x = depth). The answer is the whole front's (exact), on tables too wide for the whole
DAG."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from dagger_cli.cli import main
from dagger_cli.engine import relate
from tests.conftest import needs_odt_mirror
from tests.test_fast_engine import random_table


def _table_csv(tmp_path, seed):
    t = random_table(6, 70, 2, 2, seed, structured=True)
    df = t.to_dataframe()
    path = tmp_path / f"t{seed}.csv"
    df.to_csv(path, index=False)
    return t, path, df.columns[-1]


def _tree(path, decision, *args):
    r = CliRunner().invoke(
        main,
        [
            "tree",
            str(path),
            "--decision",
            decision,
            "--duplicates",
            "keep",
            "-q",
            "--format",
            "json",
            *args,
        ],
    )
    assert r.exit_code == 0, r.output
    return json.loads(r.output)["costs"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_depth_queries_match_the_whole_front(tmp_path, seed):
    t, path, decision = _table_csv(tmp_path, seed)
    full = relate(t, "depth", "misclassifications").front
    mirror = relate(t, "misclassifications", "depth").front
    for n in range(0, 5):
        c = _tree(path, decision, "--x", "depth", "--max-x", str(n))
        assert c["depth"] <= n and c["misclassifications"] == full.least_y(n)
        c = _tree(path, decision, "--x", "misclassifications", "--y", "depth", "--max-y", str(n))
        assert c["depth"] <= n and c["misclassifications"] == mirror.least_x(n)
    for k in sorted(set(full.y.tolist())):
        c = _tree(path, decision, "--x", "depth", "--max-y", str(k))
        assert c["misclassifications"] <= k and c["depth"] == full.least_x(k)
        c = _tree(path, decision, "--x", "misclassifications", "--y", "depth", "--max-x", str(k))
        assert c["misclassifications"] <= k and c["depth"] == mirror.least_y(k)


def test_impossible_depth_query_still_says_so(tmp_path):
    """Equal rows with different decisions: no tree has 0 misclassifications, at any depth."""
    path = tmp_path / "c.csv"
    path.write_text("a,b,d\n0,0,x\n0,0,y\n1,0,x\n1,1,y\n")
    r = CliRunner().invoke(
        main, ["tree", str(path), "--duplicates", "keep", "-q", "--x", "depth", "--max-y", "0"]
    )
    assert r.exit_code == 2 and "no tree has misclassifications <= 0" in r.output


def _vehicle_tree(*query):
    """The costs of ``dagger tree odt-vehicle --x depth QUERY`` within 300 MiB."""
    args = ["tree", "odt-vehicle", "--x", "depth", *query, "-q", "--max-memory", "300M"]
    r = CliRunner().invoke(main, [*args, "--format", "json"])
    assert r.exit_code == 0, r.output
    c = json.loads(r.output)["costs"]
    return c["depth"], c["misclassifications"]


@needs_odt_mirror
def test_depth_query_on_a_wide_table_needs_no_whole_dag():
    """252 attributes: the whole DAG would pass 300 MiB (exit 3); the query's cap does not."""
    assert _vehicle_tree("--max-x", "3") == (3, 26)
    assert _vehicle_tree("--max-y", "75") == (2, 75)
