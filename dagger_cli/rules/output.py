"""CSV, JSON and text of rule fronts, sequential optima and tree comparisons."""

from __future__ import annotations

import csv
import io
import json

from ..text import table_doc, table_line

#: The CSV columns of a rule (one line per Pareto point, or per row's chosen rule).
CSV_COLUMNS = ("row", "length", "coverage", "misclassifications", "rule")


def _avg(v: float) -> str:
    return f"{v:.4f}"


def _what(fronts) -> str:
    bound = fronts.max_misclassifications
    kind = (
        "exact rules"
        if bound == 0
        else "all rules"
        if bound is None
        else f"rules with at most {bound} misclassification(s)"
    )
    if fronts.max_length is not None:
        kind += f" of length <= {fronts.max_length}"
    return kind


def rules_csv(fronts, rows=None, first_only: bool = False) -> str:
    """One line per point of every row's front (``rows``: only those), rows ascending,
    each front in order; a row without a rule gets one line with empty costs and rule.
    With ``first_only``, each row's first point alone (a sequential optimum)."""
    buf = io.StringIO()
    if fronts.status != "exact":  # cut short by a time limit: what it is, as comments
        from .anytime import stop_line

        buf.write(f"# {fronts.status}: {stop_line(fronts)}\n")
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for r in range(fronts.n_rows) if rows is None else rows:
        a, b = int(fronts.front_start[r]), int(fronts.front_start[r + 1])
        if a == b:
            w.writerow([r, "", "", "", ""])
            continue
        for i in range(a, a + 1 if first_only else b):
            rule = fronts.rule(i)
            w.writerow([r, rule.length, rule.coverage, rule.misclassifications, rule.text])
    return buf.getvalue()


def _row_doc(fronts, r: int, first_only: bool = False) -> dict:
    table = fronts.table
    doc = {"row": r, "decision": table.decision_values[int(table.decisions[r])]}
    rules = fronts.front(r)
    if first_only:
        rules = rules[:1]
    doc["rules"] = [rule.as_dict() for rule in rules]
    reason = fronts.no_rule_reason(r)
    if reason is not None:
        doc["no_rule"] = reason
    return doc


def rules_json(fronts, *, rows=None, stats=None, comparison=None) -> str:
    """The whole result: the fronts (of ``rows``, else every row), the systems, the
    one-bound system front, optionally the DAG's statistics and a tree comparison."""
    doc = {
        "table": table_doc(fronts.table),
        "x": fronts.x,
        "y": fronts.y,
        "max_length": fronts.max_length,
        "max_misclassifications": fronts.max_misclassifications,
        "rows_with_rule": int(fronts.has_rule().sum()),
        "points": len(fronts),
        "systems": [s.as_dict() for s in fronts.systems()],
        "system_front": [s.as_dict() for s in fronts.system_front()],
        "fronts": [_row_doc(fronts, r) for r in (range(fronts.n_rows) if rows is None else rows)],
    }
    if fronts.status != "exact":
        from .anytime import proven, stop_line

        doc["status"] = fronts.status
        doc["time_limit"] = fronts.time_limit
        doc["proven"] = proven(fronts)
        doc["stopped"] = stop_line(fronts)
    if stats is not None:
        doc["stats"] = stats.as_dict()
    if comparison is not None:
        doc["tree_comparison"] = comparison_doc(comparison, rows)
    return json.dumps(doc, indent=2) + "\n"


def _grid(cells: list[list[str]], left: tuple = ()) -> list[str]:
    """Columns right-aligned, except those of ``left`` and the last (a rule)."""
    widths = [max(len(r[j]) for r in cells) for j in range(len(cells[0]))]
    out = []
    for r in cells:
        parts = [
            v.ljust(w) if j in left else v if j == len(r) - 1 else v.rjust(w)
            for j, (v, w) in enumerate(zip(r, widths))
        ]
        out.append("  ".join(parts).rstrip())
    return out


def _systems_lines(fronts) -> list[str]:
    cells = [["system", "rows", "avg length", "avg coverage", "avg misclassifications", ""]]
    for s in fronts.systems():
        cells.append(
            [
                s.name,
                f"{s.rows:,}",
                _avg(s.length),
                _avg(s.coverage),
                _avg(s.misclassifications),
                "",
            ]
        )
    lines = _grid(cells, left=(0,))
    front = fronts.system_front()
    if front:
        better = {"length": "<=", "coverage": ">=", "misclassifications": "<="}[fronts.x]
        lines.append(
            f"systems under a common bound on {fronts.x} (each row: its best {fronts.y} among "
            f"its rules with {fronts.x} {better} bound, else its best {fronts.x}):"
        )
        cells = [["bound", "avg length", "avg coverage", "avg misclassifications", ""]]
        for s in front:
            cells.append(
                [str(s.bound), _avg(s.length), _avg(s.coverage), _avg(s.misclassifications), ""]
            )
        lines += _grid(cells)
    return lines


def rules_text(fronts, *, stats=None) -> str:
    """The summary: how many rows have a rule, the systems, the one-bound front."""
    t = fronts.table
    has = fronts.has_rule()
    sizes = (fronts.front_start[1:] - fronts.front_start[:-1])[has]
    lines = [
        f"{table_line(t)}; Pareto fronts of "
        f"{fronts.x} vs {fronts.y} over {_what(fronts)}, for every row"
    ]
    span = f" ({sizes.min()} to {sizes.max()} per row)" if sizes.size else ""
    lines.append(
        f"rows with a rule: {int(has.sum()):,} of {t.n_rows:,}; "
        f"{len(fronts):,} Pareto-optimal rule(s){span}"
    )
    missing = [r for r in range(t.n_rows) if not has[r]]
    if missing:
        shown = ", ".join(str(r) for r in missing[:10]) + (", ..." if len(missing) > 10 else "")
        conflict = int(fronts.conflict[~has].sum()) if fronts.exact else 0
        why = f"; {conflict} of them have an equal row with another decision" if conflict else ""
        lines.append(
            f"rows without a rule: {len(missing):,} (row{'s' if len(missing) > 1 else ''} "
            f"{shown}, 0-based as `dagger prepare` writes them){why}; --row K says why"
        )
    lines += _systems_lines(fronts)
    if fronts.status != "exact":
        from .anytime import stop_line

        lines.append(f"{fronts.status}: {stop_line(fronts)}")
    if stats is not None:
        lines.append(stats_line(stats))
    return "\n".join(lines) + "\n"


def stats_line(stats) -> str:
    cap = f" within {stats.max_depth} steps" if stats.max_depth is not None else ""
    return (
        f"DAG{cap}: {stats.subtables:,} subtables ({stats.terminal:,} terminal), "
        f"{stats.bundles:,} bundles, {stats.edges:,} edges"
    )


def row_text(fronts, r: int, first_only: bool = False, comparison=None) -> str:
    """One row's rules in full (``first_only``: its first one)."""
    t = fronts.table
    decision = t.decision_values[int(t.decisions[r])]
    rules = fronts.front(r)
    if first_only:
        rules = rules[:1]
    head = f"{t.name}, row {r} (decision {decision}): "
    reason = fronts.no_rule_reason(r)
    if reason is not None:
        lines = [head + reason]
    else:
        what = "rule of the order" if first_only else "Pareto-optimal rule(s)"
        lines = [f"{head}{len(rules)} {what}, {fronts.x} vs {fronts.y}, {_what(fronts)}"]
        cells = [["length", "coverage", "misclassifications", "rule"]]
        for rule in rules:
            cells.append(
                [str(rule.length), str(rule.coverage), str(rule.misclassifications), rule.text]
            )
        lines += _grid(cells)
    if comparison is not None:
        lines.append(
            f"the tree's rule: length {comparison.tree_length[r]}, coverage "
            f"{comparison.tree_coverage[r]}, misclassifications "
            f"{comparison.tree_misclassifications[r]}; "
            + ("Pareto-optimal" if comparison.optimal[r] else "not Pareto-optimal")
        )
    return "\n".join(lines) + "\n"


def optimum_text(opt) -> str:
    t = opt.table
    f = opt.fronts
    lines = [f"{table_line(t)}; sequential optimisation of each row's rule over {_what(f)}"]
    has = int(f.has_rule().sum())
    lines.append(f"rows with a rule: {has:,} of {t.n_rows:,}")
    cells = [["stage", "cost", "average", ""]]
    for j, s in enumerate(opt.stages):
        cells.append([str(j + 1), s.cost, _avg(s.average), ""])
    lines += _grid(cells, left=(1,))
    for rec in opt.total_optimality:
        lines.append(
            f"totally optimal for ({opt.order[0]}, {rec['cost']}): {rec['totally_optimal']:,} "
            f"of {rec['rows']:,} rows (their rule also has their best {rec['cost']})"
        )
    return "\n".join(lines) + "\n"


def optimum_json(opt, rows=None, stats=None) -> str:
    f = opt.fronts
    doc = {
        "table": table_doc(opt.table),
        "order": list(opt.order),
        "max_length": f.max_length,
        "max_misclassifications": f.max_misclassifications,
        "rows_with_rule": int(f.has_rule().sum()),
        "stages": [s.as_dict() for s in opt.stages],
        "total_optimality": opt.total_optimality,
        "rules": [_row_doc(f, r, True) for r in (range(f.n_rows) if rows is None else rows)],
    }
    if stats is not None:
        doc["stats"] = stats.as_dict()
    return json.dumps(doc, indent=2) + "\n"


def comparison_doc(c, rows=None) -> dict:
    keys = (
        "tree_length",
        "tree_coverage",
        "tree_misclassifications",
        "shortest",
        "most_coverage",
        "length_at_coverage",
        "coverage_at_length",
    )
    per_row = [
        {"row": r, **{k: int(getattr(c, k)[r]) for k in keys}, "optimal": bool(c.optimal[r])}
        for r in (range(c.tree_length.size) if rows is None else rows)
    ]
    return {"summary": c.summary(), "rows": per_row}


def comparison_text(c, tree_what: str) -> str:
    s = c.summary()

    def v(key):
        return "-" if s[key] is None else _avg(s[key])

    lines = [
        f"the tree's rules ({tree_what}) against the optimal rules: of {s['rows']:,} rows with "
        f"a rule, {s['within_bound']:,} have a tree rule within the bound on "
        f"misclassifications, {s['pareto_optimal']:,} of them Pareto-optimal; over those "
        f"{s['within_bound']:,}:",
        f"average length: tree {v('tree_length')}, shortest rule {v('shortest_length')}; "
        f"average coverage: tree {v('tree_coverage')}, most covering rule {v('most_coverage')}",
        f"at the tree's coverage a rule is shorter by {v('length_saved')} on average; "
        f"at the tree's length it covers {v('coverage_gained')} more rows on average",
    ]
    return "\n".join(lines) + "\n"
