"""Writing fronts: text tables, CSV and JSON, deterministic byte for byte.

Average depth is written with Python's shortest round-trip float representation, so
``total_path_length / rows`` can be recovered exactly.
"""

from __future__ import annotations

import json

import numpy as np

from .text import front_cell, stats_text, table_doc, table_line

FORMATS = ("text", "csv", "json")


def value_text(v) -> str:
    """A value as written in CSV files: floats in their shortest round-trip form, booleans
    ``true``/``false``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    return repr(float(v)) if isinstance(v, float) else str(v)


def front_csv(front, relation=None) -> str:
    """The front as CSV; a front found within a time limit (``relation``'s status) starts
    with comment lines: how it stopped, and the proven bound's points (no tree is below
    their staircase)."""
    cols = front.columns()
    lines = [f"# {line}" for line in anytime_lines(relation, csv=True)]
    lines.append(",".join(cols))
    for rec in front.records():
        lines.append(",".join(value_text(rec[c]) for c in cols))
    return "\n".join(lines) + "\n"


def anytime_lines(relation, csv: bool = False) -> list[str]:
    """What an answer found within a time limit says about itself (none for an exact
    one): how it stopped, with the points proven and the largest gap, and (``csv``) the
    bound's points."""
    if relation is None or relation.status == "exact":
        return []
    lines = [f"{relation.status}: {anytime_summary(relation)}"]
    if csv and relation.bound is not None:
        front = relation.front
        lines.append(
            f"bound: no tree is below the staircase of these points "
            f"({front.x_cost.column},{front.y_cost.column})"
        )
        lines += [f"{x},{y}" for x, y in zip(*(a.tolist() for a in relation.bound))]
    return lines


def front_json(
    front,
    *,
    table=None,
    stats=None,
    engine=None,
    queries=None,
    greedy=None,
    max_depth=None,
    relation=None,
) -> str:
    doc: dict = {}
    if table is not None:
        doc["table"] = table_doc(table)
    doc["x"] = front.x_cost.name
    doc["y"] = front.y_cost.name
    if max_depth is not None:
        doc["max_depth"] = max_depth
    doc["points"] = front.records()
    if queries:
        doc["queries"] = queries
    if stats is not None:
        doc["stats"] = stats.as_dict()
    if engine is not None:
        doc["engine"] = engine
    if greedy is not None:
        doc["greedy"] = greedy
    if relation is not None and relation.status != "exact":
        doc["status"] = relation.status
        doc["summary"] = anytime_lines(relation)[0]
        if relation.bound is not None:
            bx, by = (a.tolist() for a in relation.bound)
            doc["bound"] = [
                {front.x_cost.column: x, front.y_cost.column: y} for x, y in zip(bx, by)
            ]
    return json.dumps(doc, indent=2) + "\n"


def front_text(
    front, *, table=None, stats=None, queries=None, max_depth=None, relation=None
) -> str:
    cols = front.columns()
    recs = front.records()
    cells = [[c for c in cols]] + [[front_cell(c, r[c]) for c in cols] for r in recs]
    widths = [max(len(row[j]) for row in cells) for j in range(len(cols))]
    out = []
    if table is not None:
        out.append(
            f"{table_line(table)}; {len(front)} Pareto-optimal point(s) of {front.x_cost.name} vs "
            f"{front.y_cost.name}"
            + ("" if max_depth is None else f" over the trees of depth <= {max_depth}")
        )
    for row in cells:
        out.append("  ".join(v.rjust(w) for v, w in zip(row, widths)))
    for line in queries_text(queries or {}):
        out.append(line)
    out += anytime_lines(relation)
    if stats is not None:
        out.append(stats_text(stats))
    return "\n".join(out) + "\n"


def queries_text(queries: dict) -> list[str]:
    out = []
    for q in queries.values():
        value = "no tree" if q["value"] is None else str(q["value"])
        out.append(
            f"{q['function']}({q['bound']}) = {value}: least {q['of']} among trees with "
            f"{q['given']} <= {q['bound']}"
        )
    return out


def anytime_summary(relation) -> str | None:
    """One line on an anytime answer: how it stopped, the points proven, the largest gap
    (None for an exact relation)."""
    if relation.status == "exact":
        return None
    q = relation.query
    front = relation.front
    proven = relation.proven if relation.proven is not None else np.ones(len(front), bool)
    why = (
        f"stopped at the {_seconds(q.time_limit)} limit"
        if relation.status == "time_limit"
        else "interrupted (Ctrl-C)"
    )
    text = f"{why}: {int(proven.sum())} of {len(front)} point(s) proven"
    g = np.array(front.gaps or (), dtype=np.int64)
    if g.size and g.max() > 0:
        k = int(np.argmax(g))
        text += (
            f"; the largest gap {int(g[k])} {front.y_cost.name} at {front.x_cost.name} "
            f"{int(front.x[k])}"
        )
    return text + " (the points proven are on the exact front; the bound is below every tree)"


def _seconds(s: float) -> str:
    return f"{s:g} s"
