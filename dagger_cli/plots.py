"""Plots of computed Pareto fronts (the paper's Figs. 5-10).

This module only *draws* fronts that :mod:`dagger_cli.fronts` has computed; it never
computes a tree, a cost or a front itself.

Three views are available (``kind``):

``"lambda"``
    The front as computed: its x cost on the horizontal axis and its y cost on the
    vertical one. For the default pair this is total path length against the number
    of misclassifications, as in the paper's Figs. 5-8.
``"average-depth"``
    Average depth (total path length divided by the number of rows) on the
    horizontal axis against the other cost, as in Fig. 9. Needs total path length to
    be one of the two costs.
``"inverse"``
    The average-depth view with its axes swapped: the other cost on the horizontal
    axis and average depth on the vertical one, as in Fig. 10. For a pair without
    total path length it is the lambda view with its axes swapped.

Every view shows the Pareto points as markers and, faintly, the step function they
define: "least vertical value among trees whose horizontal value is at most t". In
the lambda and average-depth views of a front whose x cost is on the horizontal axis
this is the paper's F (least y with x <= n); when the front's y cost is on the
horizontal axis (the inverse view) it is G (least x with y <= m). The step runs to
the right edge of the axes, so for any t between two Pareto points the drawn value is
that of the left one, exactly as F and G behave.

matplotlib is imported inside the functions only, and figures are built with
:class:`matplotlib.figure.Figure` directly rather than through ``pyplot``: no backend
is selected or switched, nothing is registered in pyplot's global figure list, and
the module works headless (no display needed) without calling ``matplotlib.use``.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Sequence

import numpy as np

from .costs import COSTS, DEFAULT_X, DEFAULT_Y, ROC, Cost, get_cost
from .errors import InputError

#: Figure size in inches (matplotlib's default 6.4 x 4.8).
FIGSIZE = (6.4, 4.8)
#: Resolution of PNG output.
PNG_DPI = 150
#: Output formats :func:`save_figure` accepts, by file extension.
FORMATS = ("png", "svg", "pdf")
#: Views :func:`plot_front` can draw.
KINDS = ("lambda", "average-depth", "inverse", "roc")


def _mean_label(cost: Cost) -> str:
    """Axis label of a cost's per-row mean (average depth for total path length)."""
    return cost.mean_label or f"{cost.label} per row"


AVERAGE_DEPTH_LABEL = _mean_label(COSTS["total-path-length"])
PARETO_LABEL = "pareto points"
#: Label (and gid) of the points of a front found within a time limit that are not proven
#: Pareto-optimal (open red circles; the proven ones stay :data:`PARETO_LABEL`'s).
UNPROVEN_LABEL = "best found, not proven"
F_LABEL = "F (least y with x ≤ n)"
G_LABEL = "G (least x with y ≤ m)"
#: Where an edge's value label sits in a tree drawing, from the parent (0) to the child (1).
EDGE_LABEL_AT = 0.4
#: gid of the step line, so callers and tests can find it among the axes' lines.
STEP_GID = "step function"

_EXTRA_MARKERS = ("s", "^", "D", "v", "P", "X", "*", "<", ">")
# Fixed salt so that SVG element ids (and therefore the whole file) do not change
# from one save to the next.
_SVG_HASHSALT = "dagger"
_METADATA = {
    "png": {"Software": None},
    "svg": {"Date": None},
    "pdf": {"CreationDate": None},
}


class PlotError(InputError, ValueError):
    """A plot request that cannot be honoured (bad view for the costs, bad format).

    It is a :class:`ValueError` for Python callers and an
    :class:`~dagger_cli.errors.InputError` so that the CLI reports it as a user error.
    """


def _is_size_like(cost) -> bool:
    """True for costs of the tree's shape (no misclassification term in leaves)."""
    return cost.leaf_mis == 0


def _base_index(front) -> int:
    """Index of the base point: the single-leaf tree.

    The single-leaf tree has the least value of every size-like cost (depth, total
    path length, nodes, leaves), so it is the first point of the front when the x
    cost is size-like, and the last one when only the y cost is.
    """
    if _is_size_like(front.x_cost) or not _is_size_like(front.y_cost):
        return 0
    return len(front) - 1


def _build_title(table_name, n_attributes, n_rows) -> str:
    """``"name (A attributes and R rows)"``, with only the parts that are known."""
    counts = []
    if n_attributes is not None:
        counts.append(f"{n_attributes} attribute{'' if n_attributes == 1 else 's'}")
    if n_rows is not None:
        counts.append(f"{n_rows} row{'' if n_rows == 1 else 's'}")
    count_text = " and ".join(counts)
    if table_name:
        return f"{table_name} ({count_text})" if count_text else str(table_name)
    return count_text


def roc_rates(fp, fn, classes: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The false and true positive rates of trees with false positives ``fp`` and false
    negatives ``fn`` (``classes``: the positive and the negative rows, or their weight).

    >>> [r.tolist() for r in roc_rates([0, 2], [3, 1], (4, 8))]
    [[0.0, 0.25], [0.25, 0.75]]
    """
    positives, negatives = (max(int(v), 1) for v in classes)
    fp, fn = np.asarray(fp, dtype=float), np.asarray(fn, dtype=float)
    return fp / negatives, 1.0 - fn / positives


def _view(front, kind: str, classes: tuple[int, int] | None = None):
    """How ``kind`` maps the front's (x, y) onto the axes (``classes``: the positive and
    negative rows, or their weight, for the ROC view).

    Returns
    -------
    transform : callable
        ``transform(xs, ys) -> (horizontal, vertical)`` as float arrays, for the
        front's points and for overlays given in the front's cost units.
    xlabel, ylabel : str
        Axis labels.
    x_integer, y_integer : bool
        Whether each axis carries an integer cost.
    front_x_horizontal : bool
        Whether the front's x cost is on the horizontal axis (so the step is F).
    """
    if kind not in KINDS:
        raise PlotError(f"unknown plot kind {kind!r}; expected one of: {', '.join(KINDS)}")
    cx, cy = front.x_cost, front.y_cost

    if kind == "roc":
        if {cx.name, cy.name} != ROC or classes is None:
            raise PlotError(
                "the ROC view needs a front of false-positives against false-negatives "
                f"(this one is {cx.name} against {cy.name})"
            )
        fp_is_x = cx.name == "false-positives"

        def rates(xs, ys):
            return roc_rates(*((xs, ys) if fp_is_x else (ys, xs)), classes)

        return rates, "False positive rate", "True positive rate", False, False, fp_is_x

    if kind == "lambda":

        def transform(xs, ys):
            return np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)

        return transform, cx.label, cy.label, True, True, True

    # The cost with a per-row mean (total path length: average depth), if any.
    averaged = [c for c in (cx, cy) if c.mean_column is not None]
    has_tpl = bool(averaged)
    if kind == "average-depth" and not has_tpl:
        raise PlotError(
            f"the average-depth plot needs total-path-length as one of the two costs, "
            f"but this front is {cx.name} against {cy.name}; use kind 'lambda' or 'inverse'"
        )
    if not has_tpl:  # inverse without total path length: swap the axes

        def transform(xs, ys):
            return np.asarray(ys, dtype=float), np.asarray(xs, dtype=float)

        return transform, cy.label, cx.label, True, True, False

    if front.n_rows <= 0:
        raise PlotError(f"cannot compute the average depth of a table with {front.n_rows} rows")
    n_rows = float(front.n_rows)
    tpl_is_x = averaged[0] is cx
    other = cy if tpl_is_x else cx
    mean_label = _mean_label(averaged[0])

    def average_and_other(xs, ys):
        xs = np.asarray(xs, dtype=float)
        ys = np.asarray(ys, dtype=float)
        return (xs / n_rows, ys) if tpl_is_x else (ys / n_rows, xs)

    if kind == "average-depth":
        return average_and_other, mean_label, other.label, False, True, tpl_is_x

    def swapped(xs, ys):
        avg, oth = average_and_other(xs, ys)
        return oth, avg

    return swapped, other.label, mean_label, True, False, not tpl_is_x


def check_view(kind: str, x: str, y: str) -> None:
    """Refuse a view the costs ``x``, ``y`` cannot have, before any front is computed.

    Raises the :class:`PlotError` that :func:`plot_front` would raise for such a front.
    """
    if kind not in KINDS:
        raise PlotError(f"unknown plot kind {kind!r}; expected one of: {', '.join(KINDS)}")
    if kind == "roc" and {get_cost(x).name, get_cost(y).name} != ROC:
        raise PlotError(
            f"the ROC view needs --x false-positives --y false-negatives (or the other way "
            f"round), not {x} against {y}"
        )
    if kind == "average-depth" and all(get_cost(c).mean_column is None for c in (x, y)):
        raise PlotError(
            f"the average-depth plot needs total-path-length as one of the two costs, "
            f"but this front is {x} against {y}; use kind 'lambda' or 'inverse'"
        )


def _weighted_label(label: str, mis_label: str | None, units: dict[str, int] | None) -> str:
    """An axis label with what a weighted table's costs count (unchanged unweighted)."""
    for name, unit in (units or {}).items():
        if unit != 1 and label == COSTS[name].label:
            label = f"{label} (units of 1/{unit:,})"
    plain = COSTS["misclassifications"].label
    return label if mis_label is None else label.replace(plain, mis_label)


def _step_label(front, xlabel: str, ylabel: str, front_x_horizontal: bool) -> str:
    """The step line's legend: the paper's F or G for its pair, else in the axes' words.

    The step is "least vertical value among trees whose horizontal value is at most t". F
    and G name it in the front's x and y, which for Λ vs µ are the axes' costs; for another
    pair (say depth against average depth, depth on the vertical axis) "least x with
    y <= m" would read as the wrong way round, so the label names the axes instead.
    """
    if (front.x_cost.name, front.y_cost.name) == (DEFAULT_X, DEFAULT_Y):
        return F_LABEL if front_x_horizontal else G_LABEL
    return f"least {ylabel.lower()} with {xlabel.lower()} ≤ t"


def _limits(values: np.ndarray, integer: bool) -> tuple[float, float] | None:
    """Axis limits around ``values`` with a 5 % margin (at least 1 on integer axes)."""
    if values.size == 0:
        return None
    lo, hi = float(values.min()), float(values.max())
    span = hi - lo
    pad = 0.05 * span
    if integer:
        pad = max(pad, 1.0 if span == 0 else 0.5)
    elif pad == 0:
        pad = max(0.05 * abs(hi), 0.05)
    return lo - pad, hi + pad


def plot_front(
    front,
    *,
    kind: str = "lambda",
    drop_base: bool = False,
    title: str | None = None,
    table_name: str | None = None,
    n_rows: int | None = None,
    n_attributes: int | None = None,
    ax=None,
    extra: Iterable[tuple[str, Sequence[float], Sequence[float]]] | None = None,
    max_depth: int | None = None,
    mis_label: str | None = None,
    units: dict[str, int] | None = None,
    classes: tuple[int, int] | None = None,
):
    """Draw a computed Pareto front.

    Parameters
    ----------
    front : dagger_cli.fronts.Front
        The front to draw; it is not modified.
    kind : {"lambda", "average-depth", "inverse"}
        The view (see the module docstring): the front's own axes (Figs. 5-8),
        average depth against the other cost (Fig. 9), or the other cost against
        average depth (Fig. 10). Without total path length among the costs,
        ``"inverse"`` swaps the front's axes and ``"average-depth"`` is an error.
    drop_base : bool
        Leave out the base point, the single-leaf tree (for example (0, 67) of
        lymphography in Fig. 5), whose extreme value squeezes the rest of the plot.
        It is the first point of the front when the front's x cost is a size-like
        cost (depth, total path length, nodes, leaves) and the last one when only
        the y cost is. The step function then starts at the next point.
    title : str, optional
        Axes title. When None it is built from ``table_name``, ``n_attributes`` and
        ``n_rows`` like the paper's captions: ``"lymphography (18 attributes and 148
        rows)"``, with only the known parts; when none of the three is given, or
        ``title`` is an empty string, the axes get no title.
    table_name : str, optional
        Name of the table, for the default title.
    n_rows : int, optional
        Row count shown in the default title; defaults to ``front.n_rows``. The
        average depth is always computed with ``front.n_rows``, the row count of the
        table the front was computed on.
    n_attributes : int, optional
        Attribute count shown in the default title.
    max_depth : int, optional
        The depth cap the front is over, shown in the default title
        (``"..., trees of depth <= 3"``).
    mis_label : str, optional
        What the cost misclassifications counts when the rows are weighted or the
        errors priced (:func:`dagger_cli.text.weighting_text`), in its axis labels.
    classes : (int, int), optional
        The positive and the negative rows (or their weight) of a front of false positives
        against false negatives, for ``kind="roc"``: the true positive rate against the
        false positive rate, the step the greatest rate within each false positive rate.
    units : dict, optional
        Units per row of weight 1 of the costs that count rows, when not 1
        (:func:`dagger_cli.text.cost_units`), said in their axis labels.
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; a new figure of 6.4 x 4.8 inches is created when None.
    extra : iterable of (label, xs, ys), optional
        Overlays, for instance the costs of trees built by greedy heuristics. ``xs``
        and ``ys`` are in the front's own cost units (its x cost and y cost) and are
        transformed like the front (divided by the row count, swapped) for the
        chosen view. Each overlay gets its own marker and a legend entry.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes (``ax.figure`` when ``ax`` was given).

    Raises
    ------
    PlotError
        (a ValueError) for an unknown ``kind``, for ``"average-depth"`` on a front
        without total path length, or for an overlay whose xs and ys differ in length.

    Notes
    -----
    The Pareto points are one ``Line2D`` with markers only (gid and label
    ``"pareto points"``); of a front found within a time limit, the points not proven are
    another (gid and label :data:`UNPROVEN_LABEL`, open circles). The step function is one
    ``Line2D`` drawn with
    ``drawstyle="steps-post"`` (gid :data:`STEP_GID`, label :data:`F_LABEL` or
    :data:`G_LABEL`) whose data are the Pareto points in horizontal order followed by
    one point at the right edge of the axes with the last vertical value.
    """
    from matplotlib.ticker import MaxNLocator

    transform, xlabel, ylabel, x_integer, y_integer, front_x_horizontal = _view(
        front, kind, classes
    )
    xlabel, ylabel = (_weighted_label(label, mis_label, units) for label in (xlabel, ylabel))

    xs, ys = np.asarray(front.x), np.asarray(front.y)
    # A front found within a time limit: its points not proven are drawn apart.
    proven = np.ones(len(front), dtype=bool)
    if getattr(front, "proven", None) is not None:
        proven = np.asarray(front.proven, dtype=bool)
    if drop_base and len(front):
        keep = np.ones(len(front), dtype=bool)
        keep[_base_index(front)] = False
        xs, ys, proven = xs[keep], ys[keep], proven[keep]
    px, py = transform(xs, ys)
    order = np.argsort(px, kind="stable")
    px, py, proven = px[order], py[order], proven[order]

    overlays = []
    for i, item in enumerate(extra or ()):
        label, ex_given, ey_given = item
        ex, ey = np.asarray(ex_given), np.asarray(ey_given)
        if ex.shape != ey.shape:
            raise PlotError(
                f"overlay {label!r}: xs and ys differ in length ({ex.size} and {ey.size})"
            )
        hx, hy = transform(ex.ravel(), ey.ravel())
        overlays.append((str(label), hx, hy, _EXTRA_MARKERS[i % len(_EXTRA_MARKERS)]))

    if ax is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=FIGSIZE, layout="constrained")
        ax = fig.add_subplot()
    else:
        fig = ax.figure

    all_h = np.concatenate([px] + [o[1] for o in overlays])
    all_v = np.concatenate([py] + [o[2] for o in overlays])
    xlim = _limits(all_h, x_integer)
    ylim = _limits(all_v, y_integer)

    if px.size and xlim is not None:  # xlim is None only without any point
        right = xlim[1]
        step_x = np.append(px, right)
        step_y = np.append(py, py[-1])
        ax.step(
            step_x,
            step_y,
            where="post",
            color="C0",
            alpha=0.35,
            linewidth=1.2,
            label=(
                "greatest true positive rate within a false positive rate"
                if kind == "roc"
                else _step_label(front, xlabel, ylabel, front_x_horizontal)
            ),
            gid=STEP_GID,
            zorder=1,
        )
    marker_size = 4 if px.size <= 200 else 2
    ax.plot(
        px[proven],
        py[proven],
        linestyle="none",
        marker="o",
        markersize=marker_size,
        color="C0",
        label=PARETO_LABEL,
        gid=PARETO_LABEL,
        zorder=3,
    )
    if not proven.all():
        ax.plot(
            px[~proven],
            py[~proven],
            linestyle="none",
            marker="o",
            markersize=marker_size + 2,
            color="C3",
            markerfacecolor="none",
            label=UNPROVEN_LABEL,
            gid=UNPROVEN_LABEL,
            zorder=3,
        )
    for i, (label, hx, hy, marker) in enumerate(overlays):
        ax.plot(
            hx,
            hy,
            linestyle="none",
            marker=marker,
            markersize=6,
            color=f"C{i + 1}",
            markerfacecolor="none",
            label=label,
            gid=f"extra: {label}",
            zorder=4,
        )

    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if x_integer:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if y_integer:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if title is None:
        if table_name is None and n_attributes is None and n_rows is None:
            title = ""  # nothing to name
        else:
            title = _build_title(
                table_name, n_attributes, front.n_rows if n_rows is None else n_rows
            )
        if max_depth is not None:
            title += f"{', ' if title else ''}trees of depth <= {max_depth}"
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.2)
    # Fronts descend from the upper left, so the upper right corner is free.
    ax.legend(loc="lower right" if kind == "roc" else "upper right", fontsize="small")
    return fig


def front_grid(panels: Sequence[tuple], *, title: str | None = None, ncols: int = 4):
    """Several fronts side by side, one axes per front (``dagger study --plot``).

    Parameters
    ----------
    panels : sequence of (Front, str)
        Each front with its axes title, drawn with :func:`plot_front` in the lambda view.
    title : str, optional
        Title of the whole figure.
    ncols : int
        Axes per row (fewer when there are fewer fronts).

    Returns
    -------
    matplotlib.figure.Figure
    """
    from matplotlib.figure import Figure

    n = max(1, len(panels))
    cols = min(ncols, n)
    rows = -(-n // cols)
    fig = Figure(figsize=(4.0 * cols, 3.2 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for ax, (front, name) in zip(axes.flat, panels):
        plot_front(front, ax=ax, title=name)
        ax.title.set_fontsize("small")
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    if title:
        fig.suptitle(title)
    return fig


def _format_of(path) -> str:
    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if ext not in FORMATS:
        shown = f"'.{ext}'" if ext else "no extension"
        raise PlotError(
            f"cannot save a figure as {os.fspath(path)!r} ({shown}); "
            f"the file name must end in one of: {', '.join('.' + f for f in FORMATS)}"
        )
    return ext


def save_figure(fig, path) -> None:
    """Write ``fig`` to ``path`` atomically, then close it.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, as returned by :func:`plot_front`.
    path : str or os.PathLike
        Destination; its extension (``.png``, ``.svg`` or ``.pdf``, any case) picks
        the format. Its folder must exist.

    Raises
    ------
    PlotError
        (a ValueError) when the extension is not one of the allowed formats; no file
        is written.

    Notes
    -----
    The figure is rendered in memory, then written with
    :func:`dagger_cli.safeio.atomic_write` (a temporary file renamed over ``path``, symlinks
    followed, FIFOs and devices written directly), so ``path`` is never left half-written
    and no temporary file survives an error. Output is
    deterministic where matplotlib allows it: no date or software version in the
    metadata, and a fixed ``svg.hashsalt`` so SVG ids repeat. PNGs are written at
    150 dpi. The figure is closed (released from pyplot, if pyplot manages it) even
    when writing fails.
    """
    try:
        fmt = _format_of(path)
        data = figure_bytes(fig, fmt)
    finally:
        _close(fig)
    from .safeio import write_file

    write_file(path, data)


def figure_bytes(fig, fmt: str) -> bytes:
    """The figure as a ``fmt`` file's bytes (png, svg or pdf), deterministic."""
    import matplotlib

    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": _SVG_HASHSALT}):
        fig.savefig(buf, format=fmt, dpi=PNG_DPI if fmt == "png" else None, metadata=_METADATA[fmt])
    return buf.getvalue()


def _close(fig) -> None:
    """Release ``fig`` from pyplot if pyplot manages it (figures from plot_front aren't)."""
    manager = getattr(getattr(fig, "canvas", None), "manager", None)
    if manager is not None:
        import matplotlib.pyplot as plt

        plt.close(fig)


def draw_tree(tree, *, title: str | None = None):
    """Draw a decision tree (:class:`dagger_cli.trees.Tree`); leaves colored by decision.

    Leaves are laid out left to right in the tree's value order, every split centered
    over its children; readable up to a few dozen leaves (the figure grows with them).
    Returns a :class:`matplotlib.figure.Figure` (save it with :func:`save_figure`).
    """
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    from .text import leaf_counts_text

    cmap = colormaps["tab10"]
    decisions = list(tree.decision_values)
    at, edges = tree.layout()
    pos = {k: (x, -depth) for k, (x, depth) in at.items()}
    n_leaves = 1 + int(max(x for x, _ in pos.values()))
    depth = -min(y for _, y in pos.values())
    fig = Figure(figsize=(max(6.4, 1.25 * n_leaves), max(3.0, 1.3 * (depth + 1))))
    ax = fig.add_subplot()
    ax.set_axis_off()
    for parent, child, value in edges:
        (x0, y0), (x1, y1) = pos[id(parent)], pos[id(child)]
        ax.plot([x0, x1], [y0, y1], color="0.6", lw=1, zorder=1)
        # Nearer the parent than the child: a leaf's box (two lines, decision and counts) is
        # taller than a split's, and a label at the middle of the edge ran into it. A label
        # of an edge going left ends at the edge, one going right starts there: siblings'
        # labels (``<= 4.9``, ``> 4.9``) grow apart, never into each other.
        side = "center" if abs(x1 - x0) < 1e-9 else ("right" if x1 < x0 else "left")
        ax.text(
            x0 + EDGE_LABEL_AT * (x1 - x0),
            y0 + EDGE_LABEL_AT * (y1 - y0),
            str(value),
            fontsize=8,
            ha=side,
            va="center",
            gid="edge",
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none"},
            zorder=2,
        )

    def draw(node):
        x, y = pos[id(node)]
        if node.is_leaf:
            # The decision's color lightened on white, opaque: edges end under the box, and a
            # see-through box (alpha) let them cross the leaf's text.
            rgb = np.asarray(cmap(decisions.index(node.decision) % 10)[:3])
            color = tuple(0.45 + 0.55 * rgb)
            counts = leaf_counts_text(node.counts, decisions)
            ax.text(
                x,
                y,
                f"{node.decision}\n[{counts}]",
                ha="center",
                va="center",
                fontsize=8,
                gid="leaf",
                bbox={"boxstyle": "round,pad=0.3", "fc": color, "ec": "0.3"},
                zorder=3,
            )
        else:
            ax.text(
                x,
                y,
                tree.node_label(node),
                ha="center",
                va="center",
                fontsize=9,
                gid="split",
                bbox={"boxstyle": "square,pad=0.3", "fc": "0.93", "ec": "0.3"},
                zorder=3,
            )
            for _, child in node.children:
                draw(child)

    draw(tree.root)
    ax.set_xlim(-0.7, n_leaves - 0.3)
    ax.set_ylim(-depth - 0.6, 0.6)
    if title:
        ax.set_title(title, fontsize=10)
    return fig


#: Colors of the training and held-out curves of :func:`plot_validation`.
TRAIN_COLOR = "tab:blue"
HELDOUT_COLOR = "tab:orange"


def plot_validation(results, *, title: str | None = None):
    """Training and held-out error rates along the front, every fold and their mean.

    Parameters
    ----------
    results : list of dagger_cli.validate.FoldResult
        As :func:`dagger_cli.validate.validate` returns them.
    title : str, optional
        Axes title.

    Each fold is drawn thin and faint as the step function of its front (the tree F gives
    for each budget of x), its training error rate in blue and its held-out error rate in
    orange; the folds' means (:func:`dagger_cli.validate.mean_curves`) are drawn thick. The
    horizontal axis is average depth for total path length, else the x cost itself.
    Returns a :class:`matplotlib.figure.Figure` (save it with :func:`save_figure`).
    """
    from matplotlib.figure import Figure

    from .validate import error_curves, mean_curves, rate_label

    fig = Figure(figsize=FIGSIZE)
    ax = fig.add_subplot()
    for r in results:
        x, train, held = error_curves(r)
        ax.step(x, train, where="post", color=TRAIN_COLOR, lw=0.8, alpha=0.35)
        ax.step(x, held, where="post", color=HELDOUT_COLOR, lw=0.8, alpha=0.35)
    if results:
        grid, train, held = mean_curves(results)
        many = len(results) > 1
        ax.step(
            grid,
            train,
            where="post",
            color=TRAIN_COLOR,
            lw=2,
            label="training error" + (" (mean of folds)" if many else ""),
            gid="train-mean",
        )
        ax.step(
            grid,
            held,
            where="post",
            color=HELDOUT_COLOR,
            lw=2,
            label="held-out error" + (" (mean of folds)" if many else ""),
            gid="heldout-mean",
        )
        best = int(np.argmin(held))
        ax.plot(
            [grid[best]],
            [held[best]],
            "o",
            color=HELDOUT_COLOR,
            label=f"least held-out error {held[best]:.3f} at {grid[best]:.3g}",
        )
        front = results[0].front
        cost = front.x_cost
        ax.set_xlabel(_mean_label(cost) if cost.mean_column is not None else cost.label)
    ax.set_ylabel(rate_label(results))
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    if title:
        ax.set_title(title, fontsize=10)
    return fig
