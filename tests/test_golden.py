"""Golden curves: the stored fronts in ``datasets/curves`` and the figures of the paper.

Every ``datasets/curves/<name>.csv`` is recomputed from the registered dataset ``<name>``
and compared byte for byte (add a case by adding a file; regenerate with ``make curves``
after a deliberate change). Each stored curve is also checked on its own (header, order,
average depth, base point), and the base points against the ones the paper's Figs. 5-8 show.
"""

from __future__ import annotations

import csv
import difflib
import io
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from dagger_cli.data.datasets import get_dataset, load_table
from dagger_cli.engine import relate
from dagger_cli.output import front_csv

try:
    from tests.conftest import needs_mirror
except ImportError:  # pytest run without the repository root on sys.path
    from conftest import needs_mirror

REPO = Path(__file__).resolve().parents[1]
CURVES = REPO / "datasets" / "curves"
HEADER = "total_path_length,average_depth,misclassifications"
#: Tables with more rows than this take a second or more: marked slow.
SLOW_ROWS = 1000

#: (rows of the prepared table, misclassifications of the single-leaf tree) as in the paper's
#: Figs. 5-8; zoo's 59 rows are the 101 of the file with equal rows merged (Fig. 7 starts at 40).
PAPER_BASE_POINTS = {
    "lymphography": (148, 67),
    "mushroom": (8124, 3916),
    "zoo": (59, 40),
    "nursery": (12960, 8640),
}

#: The paper's Figs. 5-10: table, plot kind, base point left out.
PAPER_FIGURES = {
    "fig5": ("lymphography", "lambda", False),
    "fig6": ("mushroom", "lambda", False),
    "fig7": ("zoo", "lambda", False),
    "fig8": ("nursery", "lambda", False),
    "fig9": ("lymphography", "average-depth", True),
    "fig10": ("mushroom", "inverse", True),
}


def _case(path: Path):
    slow = get_dataset(path.stem).rows > SLOW_ROWS
    return pytest.param(path, id=path.stem, marks=[pytest.mark.slow] if slow else [])


CASES = [_case(p) for p in sorted(CURVES.glob("*.csv"))]


def _read(path: Path):
    """(header line, rows as (Λ, average depth text, µ))."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert text.endswith("\n") and "\r" not in text, f"{path.name}: expected \\n line ends"
    recs = list(csv.reader(io.StringIO(text)))
    return lines[0], [(int(a), d, int(m)) for a, d, m in recs[1:]]


def test_the_paper_tables_have_golden_curves():
    assert {p.stem for p in CURVES.glob("*.csv")} >= set(PAPER_BASE_POINTS)


@needs_mirror
@pytest.mark.parametrize("path", CASES)
def test_curve_matches_golden_file(path):
    table = load_table(path.stem)
    got = front_csv(relate(table).front)
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(
            difflib.unified_diff(
                want.splitlines(True),
                got.splitlines(True),
                f"stored {path.name}",
                "recomputed",
                n=1,
            )
        )
        pytest.fail(
            f"the recomputed curve of {path.stem} differs from {path} (run `make curves` "
            f"if the change is intended):\n{diff[:3000]}"
        )
    # First point: the single-leaf tree, which misclassifies every row not of the majority.
    majority = int(np.bincount(table.decisions).max())
    assert want.split("\n")[1] == f"0,0.0,{table.n_rows - majority}"
    assert table.n_rows == get_dataset(path.stem).prepared_shape[0]


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in sorted(CURVES.glob("*.csv"))])
def test_stored_curve_invariants(path):
    header, rows = _read(path)
    assert header == HEADER
    assert len(rows) >= 1
    n_rows = get_dataset(path.stem).prepared_shape[0]
    tpl = [r[0] for r in rows]
    mis = [r[2] for r in rows]
    # A Pareto front: Λ strictly ascending and µ strictly descending (so nothing dominated).
    assert all(a < b for a, b in zip(tpl, tpl[1:])), "total path length not ascending"
    assert all(a > b for a, b in zip(mis, mis[1:])), "misclassifications not strictly descending"
    for a, depth, _ in rows:
        assert depth == repr(a / n_rows), f"average depth {depth} != {a}/{n_rows}"
    # The single-leaf tree is first (Λ = 0) and, equal rows being merged, some tree is exact.
    assert rows[0][:2] == (0, "0.0")
    assert mis[-1] == 0
    # Λ ≥ rows once the root splits: every point but the first has average depth ≥ 1.
    assert all(a >= n_rows for a in tpl[1:])


@pytest.mark.parametrize("name", sorted(PAPER_BASE_POINTS))
def test_base_points_of_the_paper(name):
    n_rows, base_mis = PAPER_BASE_POINTS[name]
    _, rows = _read(CURVES / f"{name}.csv")
    assert (rows[0][0], rows[0][2]) == (0, base_mis)
    assert get_dataset(name).prepared_shape[0] == n_rows


# ---------------------------------------------------------------- make figures


def _make_dry_run(*targets, out):
    """The commands `make` would run for ``targets`` (nothing is executed)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    args = ["make", "-n", "--no-print-directory", f"OUT={out}"]
    dagger = Path(sys.executable).with_name("dagger")
    if dagger.exists():  # the dagger of the running tests, wherever its venv is
        args.append(f"DAGGER={shlex.quote(str(dagger))}")
    proc = subprocess.run([*args, *targets], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return [ln for ln in proc.stdout.splitlines() if " relate " in ln]


def test_make_figures_draws_the_paper_figures(tmp_path):
    lines = _make_dry_run("figures", out=tmp_path)
    depth = [ln for ln in lines if "/fig-depth-" in ln]
    assert len(lines) == len(PAPER_FIGURES) + 4 and len(depth) == 4
    assert all("--x depth --y total-path-length --exact-only" in ln for ln in depth)
    for fig, (table, kind, drop_base) in PAPER_FIGURES.items():
        [line] = [ln for ln in lines if f"--plot {tmp_path}/{fig}.png" in ln]
        words = line.split()
        assert words[words.index("relate") + 1] == table
        assert words[words.index("--kind") + 1] == kind
        assert ("--drop-base" in words) == drop_base
        assert words[words.index("-o") + 1] == f"{tmp_path}/{fig}.csv"


@needs_mirror
def test_make_figure_recipe_runs_for_fig7(tmp_path):
    [line] = _make_dry_run("fig7", out=tmp_path)
    proc = subprocess.run(line, shell=True, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    png = tmp_path / "fig7.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "fig7.csv").read_bytes() == (CURVES / "zoo.csv").read_bytes()
