"""The optimal-decision-tree benchmark suite (``odt-*``): registry, fetching, and the
least misclassifications per depth that STreeD gives (shared/datasets/odt/README.md)."""

from __future__ import annotations

import hashlib

import pytest

from dagger_cli.data import datasets
from dagger_cli.data.datasets import REGISTRY, fetch, load_table
from dagger_cli.engine import relate
from dagger_cli.trees import tree_for
from tests.conftest import ODT_MIRROR, needs_odt_mirror

ODT = sorted(n for n, ds in REGISTRY.items() if ds.suite == "odt")

#: table: (rows, 0/1 features, least misclassifications at depth 1, 2, 3, 4), from the
#: README of the benchmark's copy (STreeD, pystreed 1.4.0; MurTree's README for d = 4).
EXPECTED = {
    "anneal": (812, 93, (151, 137, 112, 91)),
    "australian-credit": (653, 125, (89, 87, 73, 56)),
    "diabetes": (768, 112, (196, 177, 162, 137)),
    "german-credit": (1000, 112, (290, 267, 236, 204)),
    "heart-cleveland": (296, 95, (69, 60, 41, 25)),
    "hepatitis": (137, 68, (19, 16, 10, 3)),
    "kr-vs-kp": (3196, 73, (1012, 418, 198, 144)),
    "primary-tumor": (336, 31, (70, 58, 46, 34)),
    "soybean": (630, 50, (92, 55, 29, 14)),
    "tic-tac-toe": (958, 27, (288, 282, 216, 137)),
    "vote": (435, 48, (19, 17, 12, 5)),
    "vehicle": (846, 252, (189, 75, 26, 12)),
}


def test_suite_has_the_twelve_tables():
    assert ODT == sorted(f"odt-{t}" for t in EXPECTED)
    for name in ODT:
        ds = REGISTRY[name]
        table = name.removeprefix("odt-")
        assert ds.url == f"{datasets.ODT_BASE_URL}/{table}.txt"
        assert ds.url.startswith("https://raw.githubusercontent.com/MurTree/murtree-data/main/DL/")
        assert ds.columns[0] == ds.decision == "label"
        assert ds.columns[1:] == tuple(f"f{j}" for j in range(1, ds.n_columns))
        assert (ds.rows, ds.n_attributes) == EXPECTED[table][:2]
        assert sum(ds.class_counts.values()) == ds.rows
        assert ds.duplicates == "keep" and ds.prepared_shape == (ds.rows, ds.n_columns)


@needs_odt_mirror
@pytest.mark.parametrize("name", ODT)
def test_checksum_matches_mirror(name):
    ds = REGISTRY[name]
    assert datasets.file_sha256(ODT_MIRROR / ds.filename) == ds.sha256
    # the files are already normalized: the plain checksum is the same
    assert hashlib.sha256((ODT_MIRROR / ds.filename).read_bytes()).hexdigest() == ds.sha256


@needs_odt_mirror
def test_fetch_suite_from_mirror_and_load(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from dagger_cli.cli import main

    r = CliRunner().invoke(main, ["fetch", "--suite", "odt", "--data-home", str(tmp_path)])
    assert r.exit_code == 0, r.stderr
    assert r.stdout.count("\n") == 12
    assert sorted(p.name for p in (tmp_path / "odt").iterdir()) == sorted(
        f"{t}.txt" for t in EXPECTED
    )
    t = load_table("odt-primary-tumor", data_home=tmp_path)
    # equal rows are kept (215 distinct feature rows of 336), columns read well
    assert (t.n_rows, t.n_attributes) == (336, 31)
    assert t.decision_name == "label" and t.attributes[:2] == ("f1", "f2")
    # a corrupted mirror copy is refused
    bad = tmp_path / "mirror"
    bad.mkdir()
    (bad / "vote.txt").write_text("1 0 1\n")
    with pytest.raises(datasets.DownloadError, match="checksum mismatch"):
        fetch("odt-vote", data_home=tmp_path / "other", mirror=bad.as_uri())
    assert not (tmp_path / "other" / "odt" / "vote.txt").exists()
    r = CliRunner().invoke(main, ["fetch", "--suite", "odt", "zoo"])
    assert r.exit_code == 2


@needs_odt_mirror
def test_hepatitis_depths_one_and_two():
    """A quick check of the benchmark's values (the rest are slow)."""
    t = load_table("odt-hepatitis")
    rel = relate(t, "depth", "misclassifications", max_depth=2)
    assert rel.front.points() == [(0, 26), (1, 19), (2, 16)]


#: The cap each table is tested at: 4 on every table (the depth-two layer makes it a few
#: seconds at most, vehicle's 252 features included). `make bench` checks D = 5 too.
TEST_DEPTH = {t: 4 for t in EXPECTED}


@pytest.mark.slow
@needs_odt_mirror
@pytest.mark.parametrize("table", sorted(EXPECTED))
def test_least_misclassifications_per_depth(table):
    """The capped front of depth vs misclassifications gives STreeD's optimum at each
    depth d <= D, and the tree behind its last point has depth <= D and its costs."""
    t = load_table(f"odt-{table}")
    depth = TEST_DEPTH[table]
    rel = relate(t, "depth", "misclassifications", max_depth=depth)
    want = EXPECTED[table][2][:depth]
    got = tuple(rel.front.least_y(d) for d in range(1, depth + 1))
    assert got == want
    tree = tree_for(rel, max_y=want[-1])
    c = tree.costs(t.to_dataframe())
    assert c["depth"] <= depth and c["misclassifications"] == want[-1]
