"""Tests of dagger_cli.plots on the plotted data (artists, labels), not on pixels."""

from __future__ import annotations

import os

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.ticker import MaxNLocator  # noqa: E402

from dagger_cli.costs import COSTS  # noqa: E402
from dagger_cli.errors import InputError  # noqa: E402
from dagger_cli.fronts import Front  # noqa: E402
from dagger_cli.plots import (  # noqa: E402
    AVERAGE_DEPTH_LABEL,
    F_LABEL,
    G_LABEL,
    PARETO_LABEL,
    STEP_GID,
    plot_front,
    save_figure,
)

TPL, MIS = COSTS["total-path-length"], COSTS["misclassifications"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture
def front():
    # A small lymphography-like front: base point (0, 67) then a descending staircase.
    return Front(
        TPL, MIS, np.array([0, 148, 200, 290, 400]), np.array([67, 20, 9, 3, 0]), n_rows=148
    )


def _line(ax, gid):
    lines = [ln for ln in ax.get_lines() if ln.get_gid() == gid]
    assert len(lines) == 1, f"expected one line with gid {gid!r}, found {len(lines)}"
    return lines[0]


def _points(ax):
    ln = _line(ax, PARETO_LABEL)
    assert ln.get_linestyle() == "None"
    assert ln.get_marker() not in (None, "None", "", " ")
    return np.asarray(ln.get_xdata(), dtype=float), np.asarray(ln.get_ydata(), dtype=float)


def _integer_ticks(axis):
    loc = axis.get_major_locator()
    return isinstance(loc, MaxNLocator) and bool(getattr(loc, "_integer", False))


def _step_value(step, t):
    """Value of a steps-post line at horizontal position t."""
    xs = np.asarray(step.get_xdata(), dtype=float)
    ys = np.asarray(step.get_ydata(), dtype=float)
    k = int(np.searchsorted(xs, t, side="right")) - 1
    return None if k < 0 else ys[k]


def test_lambda_markers_are_the_front_points(front):
    fig = plot_front(front)
    ax = fig.axes[0]
    x, y = _points(ax)
    np.testing.assert_array_equal(x, front.x)
    np.testing.assert_array_equal(y, front.y)
    assert _line(ax, PARETO_LABEL).get_label() == PARETO_LABEL
    assert ax.get_xlabel() == "Total path length"
    assert ax.get_ylabel() == "No of misclassifications"
    assert _integer_ticks(ax.xaxis)
    assert _integer_ticks(ax.yaxis)
    assert ax.get_title() == ""


def test_step_line_is_F_and_reaches_right_edge(front):
    ax = plot_front(front).axes[0]
    step = _line(ax, STEP_GID)
    assert step.get_drawstyle() == "steps-post"
    assert step.get_label() == F_LABEL
    assert 0.2 <= step.get_alpha() <= 0.5
    for n in range(0, 421):
        assert _step_value(step, n) == front.least_y(n), n
    # Between two Pareto x-values F is the y of the left one.
    assert _step_value(step, 250) == 9
    assert step.get_xdata()[-1] == pytest.approx(ax.get_xlim()[1])
    assert step.get_ydata()[-1] == front.y[-1]


def test_drop_base_removes_first_point(front):
    ax = plot_front(front, drop_base=True).axes[0]
    x, y = _points(ax)
    np.testing.assert_array_equal(x, front.x[1:])
    np.testing.assert_array_equal(y, front.y[1:])
    step = _line(ax, STEP_GID)
    assert step.get_xdata()[0] == front.x[1]
    assert 67 not in step.get_ydata()


def test_drop_base_when_size_cost_is_y():
    # Misclassifications on x, total path length on y: the single leaf is the last point.
    fr = Front(MIS, TPL, np.array([0, 3, 20]), np.array([400, 290, 0]), n_rows=148)
    x, y = _points(plot_front(fr, drop_base=True).axes[0])
    np.testing.assert_array_equal(x, [0, 3])
    np.testing.assert_array_equal(y, [400, 290])


def test_average_depth_divides_by_rows(front):
    ax = plot_front(front, kind="average-depth", drop_base=True).axes[0]
    x, y = _points(ax)
    np.testing.assert_allclose(x, front.x[1:] / 148)
    np.testing.assert_array_equal(y, front.y[1:])
    assert ax.get_xlabel() == AVERAGE_DEPTH_LABEL == "Average depth"
    assert ax.get_ylabel() == "No of misclassifications"
    assert not _integer_ticks(ax.xaxis)
    assert _integer_ticks(ax.yaxis)
    step = _line(ax, STEP_GID)
    for n in range(148, 421, 7):
        assert _step_value(step, n / 148) == front.least_y(n)


def test_average_depth_uses_front_rows_not_title_rows(front):
    ax = plot_front(front, kind="average-depth", n_rows=1000, table_name="t").axes[0]
    np.testing.assert_allclose(_points(ax)[0], front.x / 148)
    assert ax.get_title() == "t (1000 rows)"


def test_average_depth_needs_total_path_length():
    fr = Front(COSTS["depth"], MIS, np.array([0, 1]), np.array([5, 0]), n_rows=10)
    with pytest.raises(ValueError, match="total-path-length"):
        plot_front(fr, kind="average-depth")
    with pytest.raises(InputError):  # reported as a user error by the CLI
        plot_front(fr, kind="average-depth")


def test_unknown_kind(front):
    with pytest.raises(ValueError, match="lambda"):
        plot_front(front, kind="pie")


def test_inverse_swaps_axes(front):
    ax = plot_front(front, kind="inverse", drop_base=True).axes[0]
    x, y = _points(ax)
    # Horizontal: misclassifications ascending; vertical: average depth.
    np.testing.assert_array_equal(x, front.y[1:][::-1])
    np.testing.assert_allclose(y, front.x[1:][::-1] / 148)
    assert ax.get_xlabel() == "No of misclassifications"
    assert ax.get_ylabel() == "Average depth"
    assert _integer_ticks(ax.xaxis)
    step = _line(ax, STEP_GID)
    assert step.get_label() == G_LABEL
    for m in range(0, 70):
        g = front.least_x(m)
        if m >= 67:  # only the dropped base point qualifies beyond the last plotted one
            g = front.x[1]
        assert _step_value(step, m) == pytest.approx(g / 148), m


def test_inverse_without_total_path_length():
    fr = Front(COSTS["nodes"], MIS, np.array([1, 3, 7]), np.array([9, 4, 0]), n_rows=30)
    ax = plot_front(fr, kind="inverse").axes[0]
    x, y = _points(ax)
    np.testing.assert_array_equal(x, [0, 4, 9])
    np.testing.assert_array_equal(y, [7, 3, 1])
    assert ax.get_xlabel() == MIS.label
    assert ax.get_ylabel() == "Number of nodes"
    lam = plot_front(fr).axes[0]
    assert (lam.get_xlabel(), lam.get_ylabel()) == ("Number of nodes", MIS.label)


def test_title(front):
    ax = plot_front(front, table_name="lymphography", n_attributes=18).axes[0]
    assert ax.get_title() == "lymphography (18 attributes and 148 rows)"
    ax = plot_front(front, title="custom", table_name="ignored").axes[0]
    assert ax.get_title() == "custom"
    ax = plot_front(front, table_name="lymphography", n_attributes=18, max_depth=3).axes[0]
    assert ax.get_title() == "lymphography (18 attributes and 148 rows), trees of depth <= 3"


def test_extra_overlays_in_legend(front):
    ax = plot_front(
        front,
        kind="average-depth",
        extra=[("greedy gini", [200, 296], [12, 5]), ("greedy entropy", [150], [30])],
    ).axes[0]
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"greedy gini", "greedy entropy", PARETO_LABEL, F_LABEL} <= set(texts)
    gini = _line(ax, "extra: greedy gini")
    np.testing.assert_allclose(gini.get_xdata(), [200 / 148, 296 / 148])
    np.testing.assert_array_equal(gini.get_ydata(), [12, 5])
    assert gini.get_linestyle() == "None"
    assert gini.get_marker() != _line(ax, "extra: greedy entropy").get_marker()
    with pytest.raises(ValueError):
        plot_front(front, extra=[("bad", [1, 2], [3])])


def test_draws_into_given_axes(front):
    fig, (a, b) = plt.subplots(1, 2)
    assert plot_front(front, ax=b) is fig
    assert not a.get_lines() and b.get_lines()


def test_single_point_and_empty_front():
    fr = Front(TPL, MIS, np.array([0]), np.array([0]), n_rows=5)
    ax = plot_front(fr).axes[0]
    assert _points(ax)[0].tolist() == [0]
    ax = plot_front(fr, drop_base=True).axes[0]
    assert _points(ax)[0].size == 0


@pytest.mark.parametrize(
    "ext,magic", [("png", b"\x89PNG\r\n\x1a\n"), ("svg", b"<?xml"), ("pdf", b"%PDF-")]
)
def test_save_figure_formats(front, tmp_path, ext, magic):
    path = tmp_path / f"front.{ext.upper() if ext == 'pdf' else ext}"
    save_figure(plot_front(front, table_name="lymphography", n_attributes=18), path)
    assert path.read_bytes().startswith(magic)
    assert os.listdir(tmp_path) == [path.name]  # no temporary file left behind


def test_save_figure_refuses_other_extensions(front, tmp_path):
    for name in ("front.txt", "front"):
        with pytest.raises(ValueError, match=r"\.png.*\.svg.*\.pdf"):
            save_figure(plot_front(front), tmp_path / name)
    assert os.listdir(tmp_path) == []


def test_save_figure_closes_pyplot_figures(front, tmp_path):
    fig, ax = plt.subplots()
    plot_front(front, ax=ax)
    save_figure(fig, tmp_path / "f.png")
    assert not plt.fignum_exists(fig.number)


def test_save_figure_replaces_existing_file(front, tmp_path):
    path = tmp_path / "f.svg"
    path.write_text("old")
    save_figure(plot_front(front), path)
    assert path.read_bytes().startswith(b"<?xml")


@pytest.mark.parametrize("ext", ["svg", "pdf", "png"])
def test_output_is_deterministic(front, tmp_path, ext):
    a, b = tmp_path / f"a.{ext}", tmp_path / f"b.{ext}"
    save_figure(plot_front(front, table_name="lymphography", n_attributes=18), a)
    save_figure(plot_front(front, table_name="lymphography", n_attributes=18), b)
    assert a.read_bytes() == b.read_bytes()


def test_module_does_not_import_pyplot_at_import_time():
    import subprocess
    import sys

    code = (
        "import sys, dagger_cli.plots, dagger_cli.fronts, dagger_cli.costs; "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("kind", ["lambda", "inverse"])
def test_points_not_proven_are_drawn_apart(kind):
    from dagger_cli.plots import UNPROVEN_LABEL

    best = Front(
        TPL,
        MIS,
        np.array([0, 148, 200, 290, 400]),
        np.array([67, 20, 9, 3, 0]),
        n_rows=148,
        proven=(True, True, False, True, False),
        gaps=(0, 0, 4, 0, 2),
    )
    ax = plot_front(best, kind=kind).axes[0]
    shown, open_ = _line(ax, PARETO_LABEL), _line(ax, UNPROVEN_LABEL)
    pairs = {(a, b) for a, b in zip(shown.get_xdata(), shown.get_ydata())}
    unproven = {(a, b) for a, b in zip(open_.get_xdata(), open_.get_ydata())}
    x, y = (0, 1) if kind == "lambda" else (1, 0)
    points = [(p[x], p[y]) for p in [(0, 67), (148, 20), (200, 9), (290, 3), (400, 0)]]
    if kind == "inverse":
        points = [(a, b / 148) for a, b in points]  # y against average depth
    assert unproven == {points[2], points[4]} and pairs == {points[0], points[1], points[3]}
    assert open_.get_markerfacecolor() == "none"
    assert UNPROVEN_LABEL in [t.get_text() for t in ax.get_legend().get_texts()]


def test_an_exact_front_has_no_unproven_points(front):
    from dagger_cli.plots import UNPROVEN_LABEL

    ax = plot_front(front).axes[0]
    assert not [ln for ln in ax.get_lines() if ln.get_gid() == UNPROVEN_LABEL]
