"""Plain-text renderings shared by the engine and the writers (no package imports).

:func:`abbreviate` writes a count of trees for people, :func:`size_text` a number of
bytes, :func:`stats_text` the line of a DAG's statistics; :mod:`dagger_cli.output`
(fronts) and :mod:`dagger_cli.engine.counting` (staged optimisation) both print them.
"""

from __future__ import annotations

import math
from fractions import Fraction


def abbreviate(count: int, digits: int = 15) -> str:
    """A count for people: exact with thousands separators up to ``digits`` digits, else
    four significant digits and a power of ten.

    >>> abbreviate(2418647040), abbreviate(10**20 + 5 * 10**16)
    ('2,418,647,040', '1.001e+20')
    """
    if count < 10**digits:
        return f"{count:,}"
    e = int((count.bit_length() - 1) * math.log10(2))
    while 10 ** (e + 1) <= count:
        e += 1
    while 10**e > count:
        e -= 1
    lead = count // 10 ** (e - 4)  # five digits
    r = (lead + 5) // 10
    if r >= 10_000:
        r //= 10
        e += 1
    return f"{r // 1000}.{r % 1000:03d}e+{e}"


def size_text(nbytes: float) -> str:
    """A number of bytes for people, in the largest binary unit that keeps it at least 1
    (three significant digits below 100 of a unit).

    >>> size_text(1024), size_text(1536), size_text(300), size_text(5 * 2**30), size_text(0)
    ('1 KiB', '1.5 KiB', '300 bytes', '5 GiB', '0 bytes')
    """
    units = ("KiB", "MiB", "GiB", "TiB")
    if nbytes < 1024:
        return f"{nbytes:,.0f} bytes"
    value, unit = float(nbytes), "bytes"
    for u in units:
        if value < 1024:
            break
        value, unit = value / 1024, u
    text = f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
    return f"{text} {unit}"


def stats_text(stats) -> str:
    if hasattr(stats, "text"):  # a solver's own statistics (the ordered solver's)
        return stats.text()
    text = (
        f"DAG: {stats.subtables:,} subtables ({stats.terminal:,} terminal), "
        f"{stats.bundles:,} bundles, {stats.edges:,} edges"
    )
    if getattr(stats, "max_depth", None) is not None:
        text += f"; {stats.subproblems:,} subproblems (subtable, remaining depth)"
    if getattr(stats, "depth_two", None):
        text += (
            f", {stats.depth_two:,} of them solved by the depth-two layer "
            "(the last two levels, from class counts)"
        )
    if getattr(stats, "route", None):
        text += f" ({stats.route})"
    return text


def attribute_counts(table) -> tuple[int, int]:
    """The table's attributes as its columns, and the thresholds of its numeric columns:
    the same whether the numeric columns are kept whole (``ordered``: ``relate``, ``tree``)
    or read as their binary tests ``col<=t`` (``splits``: ``rules``, ``optimize``), so that
    every command counts one table alike."""
    ordered = getattr(table, "ordered", None) or {}
    splits = getattr(table, "splits", None) or {}
    plain = [a for a in table.attributes if a not in splits]
    columns = len(plain) + len({s.column for s in splits.values()})
    thresholds = len(splits) + sum(len(o.thresholds) for o in ordered.values())
    return columns, thresholds


def attributes_text(table) -> str:
    """``M attributes`` (`` (T thresholds)`` when numeric columns are split by them)."""
    columns, thresholds = attribute_counts(table)
    text = f"{columns} attributes"
    return text + (f" ({thresholds:,} thresholds)" if thresholds else "")


def table_doc(table) -> dict:
    """The table's summary in a JSON document: its name, rows and attributes (and the
    thresholds of its numeric columns), the rule that applied to equal rows, and how it
    changed the counts."""
    columns, thresholds = attribute_counts(table)
    doc = {"name": table.name, "rows": table.n_rows, "attributes": columns}
    if thresholds:
        doc["thresholds"] = thresholds
    report = getattr(table, "report", None)
    if report is None:
        return doc
    doc["duplicates"] = report.duplicates
    w = getattr(table, "weighting", None)
    if w is not None and w.min_leaf > 1:
        doc["min_leaf"] = w.min_leaf
    if w is not None and w.positive is not None:
        doc["positive"] = str(table.decision_values[w.positive])
    if w is not None and not w.plain:
        # What the cost misclassifications counts, and in what units: a value v of a
        # cost is v / units[cost] rows of weight 1 (total_weight is in rows, exact).
        doc["weighting"] = {
            "misclassifications": w.label,
            "units": cost_units(table),
            "total_weight": _fraction_text(Fraction(table.weight_total, w.scale)),
        }
    if report.equal_rows:
        # Kept: every count is of the rows read; some no tree can classify.
        doc["equal_rows"] = report.equal_rows
        doc["unclassifiable_rows"] = report.unavoidable_rows
    if report.merged_rows:
        # Misclassifications count merged rows: say what they were merged from, and how
        # many rows read no tree can classify (their decision lost their group's vote).
        doc["rows_read"] = report.rows_read
        doc["unclassifiable_rows"] = report.outvoted_rows
    return doc


def table_line(table) -> str:
    """``name: N rows (how equal rows counted), M attributes``: the head of a summary."""
    return (
        f"{table.name}: {table.n_rows} rows{merge_text(table)}, {attributes_text(table)}"
        + weighting_text(table)
    )


def weighting_text(table) -> str:
    """``; misclassifications are weighted ...`` when the table's rows carry weights or its
    errors prices (:mod:`dagger_cli.weights`): what the costs then count, and in what unit.

    >>> from dagger_cli.data.table import DecisionTable
    >>> t = DecisionTable.from_rows([(0,), (1,)], ["a", "b"]).weighted(["1.5", "1"])
    >>> weighting_text(t)  # doctest: +NORMALIZE_WHITESPACE
    '; total weight 2.5; misclassifications are weighted misclassifications;
    total path length and misclassifications count in units of 1/2 of a row of weight 1'
    """
    w = getattr(table, "weighting", None)
    if w is None:
        return ""
    leaf = "" if w.min_leaf == 1 else f"; every leaf holds at least {w.min_leaf} row(s)"
    if w.positive is not None:
        leaf += f"; positive class {str(table.decision_values[w.positive])!r}"
    if w.plain:
        return leaf
    text = leaf + (
        f"; total weight {_fraction_text(Fraction(table.weight_total, w.scale))}; "
        f"misclassifications are {w.label}"
    )
    units = cost_units(table)
    if units["total-path-length"] == units["misclassifications"] != 1:
        text += (
            "; total path length and misclassifications count in units of "
            f"1/{w.scale:,} of a row of weight 1"
        )
    else:
        for cost, unit in units.items():
            if unit != 1:
                text += f"; {cost.replace('-', ' ')} counts in units of 1/{unit:,}"
    return text


def cost_units(table) -> dict[str, int]:
    """Per cost that counts rows, its units per row of weight 1 (1 unweighted): total path
    length counts the row weights over their common denominator, misclassifications the
    prices over theirs too (:attr:`dagger_cli.weights.Weighting.unit`)."""
    w = getattr(table, "weighting", None)
    if w is None or w.plain:
        return {"total-path-length": 1, "misclassifications": 1}
    return {"total-path-length": w.scale, "misclassifications": w.unit}


def mis_label(table) -> str | None:
    """An axis label for the cost misclassifications of a weighted table (None: plain)."""
    w = getattr(table, "weighting", None)
    if w is None or w.plain:
        return None
    return w.label.capitalize()


def _fraction_text(x: Fraction) -> str:
    """An exact fraction as a decimal where it has one of at most 9 places, else ``p/q``."""
    if x.denominator == 1:
        return str(x.numerator)
    d = x.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    places = max(twos, fives)
    if d != 1 or places > 9:
        return f"{x.numerator}/{x.denominator}"
    q = x.numerator * 10**places // x.denominator
    return f"{q // 10**places}.{q % 10**places:0{places}d}"


def merge_text(table) -> str:
    """`` (merged from R rows read; K of them outvoted)`` when merging changed the rows,
    `` (K equal to an earlier row, each counted)`` when equal rows were kept.

    Misclassifications count the merged rows: a row whose decision lost its group's vote
    is misclassified by every tree, and the summary must say so.
    """
    report = getattr(table, "report", None)
    if report is not None and report.equal_rows:
        return f" ({report.equal_rows} equal to an earlier row, each counted)"
    if report is None or not report.merged_rows:
        return ""
    outvoted = getattr(report, "outvoted_rows", 0)
    lost = (
        f"; {outvoted} of them outvoted in their group, so no tree classifies them"
        if outvoted
        else ""
    )
    return f" (merged from {report.rows_read} rows read{lost})"


def front_cell(column: str, v) -> str:
    """A cell of a front's table (:meth:`dagger_cli.fronts.Front.records`) as text.

    >>> front_cell("average_depth", 1.5), front_cell("proven", True), front_cell("trees", 10**4)
    ('1.5000', 'yes', '10,000')
    """
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.4f}"
    if column == "trees":  # counts can have many thousands of digits
        return abbreviate(v)
    return str(v)


def leaf_counts_text(counts, decisions, sep: str = "/") -> str:
    """A leaf's rows per decision as a drawing shows them: ``3/0/1`` in decision order
    (joined by ``sep``), or for sparse counts (:class:`dagger_cli.trees.SparseCounts`)
    the decisions with rows, ``a: 3, c: 1``.

    >>> from dagger_cli.trees import SparseCounts
    >>> leaf_counts_text((3, 0, 1), "abc"), leaf_counts_text(SparseCounts(3, (0, 2), (3, 1)), "abc")
    ('3/0/1', 'a: 3, c: 1')
    """
    if hasattr(counts, "items"):  # SparseCounts (dagger_cli.trees)
        return ", ".join(f"{decisions[d]}: {k}" for d, k in counts.items())
    return sep.join(str(c) for c in counts)
