"""Writing fronts: text tables, CSV and JSON, deterministic byte for byte.

Average depth is written with Python's shortest round-trip float representation, so
``total_path_length / rows`` can be recovered exactly.
"""

from __future__ import annotations

import json

from .text import abbreviate, stats_text, table_doc, table_line

FORMATS = ("text", "csv", "json")


def value_text(v) -> str:
    """A value as written in CSV files: floats in their shortest round-trip form."""
    return repr(float(v)) if isinstance(v, float) else str(v)


def front_csv(front) -> str:
    cols = front.columns()
    lines = [",".join(cols)]
    for rec in front.records():
        lines.append(",".join(value_text(rec[c]) for c in cols))
    return "\n".join(lines) + "\n"


def front_json(
    front, *, table=None, stats=None, engine=None, queries=None, greedy=None, max_depth=None
) -> str:
    doc = {}
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
    return json.dumps(doc, indent=2) + "\n"


def front_text(front, *, table=None, stats=None, queries=None, max_depth=None) -> str:
    cols = front.columns()
    recs = front.records()
    cells = [[c for c in cols]] + [[_cell_text(c, r[c]) for c in cols] for r in recs]
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
    if stats is not None:
        out.append(stats_text(stats))
    return "\n".join(out) + "\n"


def _cell_text(column: str, v) -> str:
    if isinstance(v, float):
        return f"{v:.4f}"
    if column == "trees":  # counts can have many thousands of digits
        return abbreviate(v)
    return str(v)


def queries_text(queries: dict) -> list[str]:
    out = []
    for q in queries.values():
        value = "no tree" if q["value"] is None else str(q["value"])
        out.append(
            f"{q['function']}({q['bound']}) = {value}: least {q['of']} among trees with "
            f"{q['given']} <= {q['bound']}"
        )
    return out
