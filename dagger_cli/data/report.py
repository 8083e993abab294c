"""What preprocessing changed (:class:`PreprocessReport`) and the notes it prints.

Both CSV readers (the Python one, :mod:`dagger_cli.data.table`, and the columnar one,
:mod:`dagger_cli.data.csv`) build the same report with the same notes: the decision column
(:func:`decision_note`) and the columns that look like identifiers (:func:`identifier_like`,
:func:`identifier_notes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: A column is identifier-like when its distinct values exceed this share of the rows...
IDENTIFIER_SHARE = 0.9
#: ... in a table of more than this many rows (in a tiny table every column may be distinct).
IDENTIFIER_MIN_ROWS = 20


@dataclass(frozen=True)
class PreprocessReport:
    """What preprocessing changed; printed on stderr by the CLI."""

    rows_read: int
    rows_after: int
    merged_rows: int = 0
    conflicting_groups: int = 0
    #: rows whose decision differs from the one their merged group kept (counted as
    #: misclassified by every tree: merging made them unclassifiable)
    outvoted_rows: int = 0
    filled: dict = field(default_factory=dict)  # column -> (count, fill value)
    dropped: tuple = ()
    notes: tuple = ()  # discretization notes and warnings

    def lines(self) -> list[str]:
        out = list(self.notes)
        if self.dropped:
            out.append(f"dropped column(s): {', '.join(self.dropped)}")
        for col, (count, value) in self.filled.items():
            out.append(f"filled {count} missing value(s) of '{col}' with '{value}'")
        if self.merged_rows:
            out.append(
                f"merged {self.merged_rows} equal row(s): "
                f"{self.rows_read} -> {self.rows_after} rows"
                + (
                    f" ({self.conflicting_groups} group(s) had different decisions;"
                    " each keeps its most common decision, so"
                    f" {self.outvoted_rows} row(s) read can be classified by no tree)"
                    if self.conflicting_groups
                    else ""
                )
            )
        return out


def decision_note(header, decision, defaulted: bool) -> str:
    """The report's line naming the decision column (and how it was chosen)."""
    if defaulted:
        return (
            f"decision column: {decision!r} (the last of {len(header)} columns; "
            f"--decision COL to choose another)"
        )
    return f"decision column: {decision!r}"


def identifier_like(header, columns, *, skip=()) -> list[str]:
    """Columns whose distinct values exceed :data:`IDENTIFIER_SHARE` of the rows (over
    :data:`IDENTIFIER_MIN_ROWS` rows): a tree splitting on one classifies every row without
    learning anything, so the front's "perfect" end would mean nothing."""
    out = []
    for name, col in zip(header, columns):
        n = len(col)
        if name in skip or n <= IDENTIFIER_MIN_ROWS:
            continue
        if len(set(col)) > IDENTIFIER_SHARE * n:
            out.append(name)
    return out


def identifier_notes(names, n_rows: int) -> list[str]:
    return [
        f"warning: column {c!r} looks like an identifier (more than "
        f"{IDENTIFIER_SHARE:.0%} of its {n_rows} values are distinct); a split on it "
        f"classifies every row without learning anything. Drop it with --drop {c}"
        for c in names
    ]
