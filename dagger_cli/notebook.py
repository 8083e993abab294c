"""How fronts, trees and relations display themselves in Jupyter: HTML with inline SVG.

:class:`~dagger_cli.fronts.Front`, :class:`~dagger_cli.trees.Tree` and
:class:`~dagger_cli.engine.structures.Relation` have a ``_repr_html_`` that calls this module:
a front is its staircase (an SVG plot) beside its table, a tree is drawn as
:func:`dagger_cli.plots.draw_tree` draws it (the same layout, :meth:`dagger_cli.trees.Tree.layout`).
No library draws them (no matplotlib, no JavaScript): the HTML is a string, the same
bytes for the same object, and a notebook saved with it shows it anywhere. A part of the
base layer: it reads the objects it is given and imports nothing of the package but
:mod:`dagger_cli.text`.
"""

from __future__ import annotations

from html import escape

from .text import front_cell

#: The most rows of a front's table shown: the first and last half of them, and a row that
#: says how many are left out between.
MAX_ROWS = 20
#: The leaves' colors by decision (matplotlib's tab10, lightened as the tree figures are).
PALETTE = (
    "#8cb6d8",
    "#ffbc85",
    "#8fce8f",
    "#e9898a",
    "#c6b0da",
    "#c4a49e",
    "#f1b3dd",
    "#bfbfbf",
    "#dcdc84",
    "#80d9e4",
)
_STYLE = "font-family: sans-serif; font-size: 12px"


def table_html(columns: list[str], rows: list[list[str]]) -> str:
    """An HTML table, its cells escaped, numbers right-aligned.

    >>> table_html(["a"], [["<x>"]])[-69:]
    '<tr><td style="text-align: right">&lt;x&gt;</td></tr></tbody></table>'
    """
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    cell = '<td style="text-align: right">{}</td>'
    body = "".join("<tr>" + "".join(cell.format(escape(v)) for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def staircase_svg(
    xs: list[int], ys: list[int], xlabel: str, ylabel: str, width: int = 320, height: int = 220
) -> str:
    """A Pareto front as a staircase: its points, joined by the steps between them (each
    point holds its y until the next point's x)."""
    left, right, top, bottom = 56, 14, 12, 40
    x0, x1 = min(xs), max(xs)
    y0, y1 = min(ys), max(ys)
    sx = (width - left - right) / ((x1 - x0) or 1)
    sy = (height - top - bottom) / ((y1 - y0) or 1)

    def px(x):
        return left + (x - x0) * sx if x1 > x0 else (left + width - right) / 2

    def py(y):
        return height - bottom - (y - y0) * sy if y1 > y0 else (top + height - bottom) / 2

    steps = []
    for k, (x, y) in enumerate(zip(xs, ys)):
        if k:
            steps.append(f"{px(x):.1f},{py(ys[k - 1]):.1f}")
        steps.append(f"{px(x):.1f},{py(y):.1f}")
    dots = "".join(
        f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3"><title>({x}, {y})</title></circle>'
        for x, y in zip(xs, ys)
    )
    base, edge = height - bottom, left
    ticks = (
        f'<text x="{left}" y="{base + 14}" text-anchor="start">{x0}</text>'
        f'<text x="{width - right}" y="{base + 14}" text-anchor="end">{x1}</text>'
        f'<text x="{edge - 4}" y="{base}" text-anchor="end">{y0}</text>'
        f'<text x="{edge - 4}" y="{top + 8}" text-anchor="end">{y1}</text>'
    )
    labels = (
        f'<text x="{(left + width - right) / 2:.1f}" y="{height - 6}" '
        f'text-anchor="middle">{escape(xlabel)}</text>'
        f'<text transform="translate(14,{(top + base) / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle">{escape(ylabel)}</text>'
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'style="{_STYLE}">'
        f'<path d="M{edge},{top} V{base} H{width - right}" fill="none" stroke="#888"/>'
        f'<polyline points="{" ".join(steps)}" fill="none" stroke="#1f77b4"/>'
        f'<g fill="#1f77b4">{dots}</g><g fill="#333">{ticks}{labels}</g></svg>'
    )


def front_html(front) -> str:
    """A :class:`~dagger_cli.fronts.Front` as HTML: its staircase beside its table."""
    columns = front.columns()
    records = front.records()
    rows = [[front_cell(c, r[c]) for c in columns] for r in records]
    if len(rows) > MAX_ROWS:
        half = MAX_ROWS // 2
        gap = [f"… {len(rows) - 2 * half} more"] + [""] * (len(columns) - 1)
        rows = rows[:half] + [gap] + rows[-half:]
    name = f"{front.x_cost.name} vs {front.y_cost.name}"
    head = f"<p>{len(front):,} Pareto-optimal point(s) of {escape(name)}</p>"
    if not len(front):
        return f"<div>{head}</div>"
    plot = staircase_svg(
        front.x.tolist(), front.y.tolist(), front.x_cost.column, front.y_cost.column
    )
    return (
        f'<div>{head}<div style="display: flex; gap: 1.5em; align-items: flex-start">'
        f"{plot}{table_html(columns, rows)}</div></div>"
    )


def tree_svg(tree, leaf_width: int = 96, level_height: int = 72) -> str:
    """A :class:`~dagger_cli.trees.Tree` drawn as SVG: splits in grey boxes, leaves colored
    by decision with their class counts, edges labelled with their values."""
    pos, edges = tree.layout()
    n_leaves = 1 + max(x for x, _ in pos.values())
    depth = max(d for _, d in pos.values())
    width, height = int(leaf_width * n_leaves + 20), int(level_height * depth + 60)

    def at(node):
        x, d = pos[id(node)]
        return 10 + leaf_width * (x + 0.5), 24 + level_height * d

    lines, labels, boxes = [], [], []
    for parent, child, value in edges:
        (ax, ay), (bx, by) = at(parent), at(child)
        lines.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}"/>')
        lx, ly = ax + 0.4 * (bx - ax), ay + 0.4 * (by - ay)
        anchor = "middle" if bx == ax else ("end" if bx < ax else "start")
        labels.append(
            f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="{anchor}" '
            f'style="paint-order: stroke" stroke="white" stroke-width="3">{escape(str(value))}'
            "</text>"
        )
    from .text import leaf_counts_text

    decisions = list(tree.decision_values)
    stack = [tree.root]
    while stack:
        node = stack.pop()
        x, y = at(node)
        if node.is_leaf:
            color = PALETTE[decisions.index(node.decision) % len(PALETTE)]
            counts = leaf_counts_text(node.counts, decisions)
            text = [str(node.decision), f"[{counts}]"]
            style = f'fill="{color}" stroke="#4d4d4d" rx="5"'
        else:
            text = [tree.node_label(node)]
            style = 'fill="#ededed" stroke="#4d4d4d"'
            stack.extend(child for _, child in node.children)
        w = 14 + 7 * max(len(t) for t in text)
        h = 8 + 14 * len(text)
        body = "".join(
            f'<tspan x="{x:.1f}" dy="{0 if k == 0 else 14}">{escape(t)}</tspan>'
            for k, t in enumerate(text)
        )
        boxes.append(
            f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w}" height="{h}" {style}/>'
            f'<text x="{x:.1f}" y="{y - h / 2 + 15:.1f}" text-anchor="middle">{body}</text>'
        )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'style="{_STYLE}"><g stroke="#999">{"".join(lines)}</g>'
        f'<g fill="#333">{"".join(labels)}</g>{"".join(boxes)}</svg>'
    )


def tree_html(tree) -> str:
    """A :class:`~dagger_cli.trees.Tree` as HTML: its costs on its table, then its drawing."""
    return f"<div><p>{escape(tree.summary())}</p>{tree_svg(tree)}</div>"


__all__ = ["front_html", "staircase_svg", "table_html", "tree_html", "tree_svg"]
