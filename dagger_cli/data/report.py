"""What preprocessing changed (:class:`PreprocessReport`) and the notes it prints.

Both CSV readers (the Python one, :mod:`dagger_cli.data.table`, and the columnar one,
:mod:`dagger_cli.data.csv`) build the same report with the same notes: the decision column
(:func:`decision_note`) and the columns that look like identifiers (:func:`identifier_like`,
:func:`identifier_notes`).
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

import numpy as np

#: A column is identifier-like when its distinct values exceed this share of the rows...
IDENTIFIER_SHARE = 0.9
#: ... in a table of more than this many rows (in a tiny table every column may be distinct).
IDENTIFIER_MIN_ROWS = 20
#: A nominal attribute *memorises* the rows when it has more distinct values than this share
#: of the rows (but is no identifier) ...
MEMORISE_SHARE = 0.5
#: ... and a split on it alone misclassifies at most this share of them.
MEMORISE_ERRORS = 0.05


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
    #: the numeric columns of ``filled`` filled with their median (not their mode)
    medians: tuple = ()
    #: the policy for equal rows that was applied: "merge" or "keep"
    duplicates: str = "merge"
    #: kept rows equal on every attribute to an earlier row ("keep"), and how many rows
    #: every tree misclassifies because of them (in each group of equal rows, those not of
    #: the group's most common decision)
    equal_rows: int = 0
    unavoidable_rows: int = 0
    dropped: tuple = ()
    notes: tuple = ()  # discretization notes and warnings

    def lines(self) -> list[str]:
        out = list(self.notes)
        if self.dropped:
            out.append(f"dropped column(s): {', '.join(self.dropped)}")
        for col, (count, value) in self.filled.items():
            if value is None:  # a numeric column's threshold attributes, one line for all
                out.append(
                    f"filled {count} missing value(s) of '{col}': each of its threshold "
                    "attributes takes its more common side there (as a middle value would)"
                )
            elif col in self.medians:
                out.append(
                    f"filled {count} missing value(s) of '{col}' with '{value}', the median of "
                    "its numbers (a numeric column split by --thresholds or --bins)"
                )
            else:
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
        if self.equal_rows:
            out.append(
                f"kept {self.equal_rows} row(s) equal to an earlier row on every attribute"
                + (
                    f" ({self.conflicting_groups} group(s) with different decisions: every "
                    f"tree misclassifies at least {self.unavoidable_rows} row(s))"
                    if self.conflicting_groups
                    else ""
                )
                + "; every count is of the rows read (--duplicates merge merges equal rows "
                "into one with their most common decision, as the paper does)"
            )
        return out


def row_groups(codes) -> np.ndarray:
    """Per row, the rank of its attribute row among the distinct ones in lexicographic
    order (``codes``: attribute-major, non-negative): ``np.unique(codes.T, axis=0,
    return_inverse=True)[1]``, without its sort of whole rows (35 s on 5 M rows of 20
    attributes): each attribute joins a number per row, renumbered in order whenever the
    next one would pass 62 bits.

    >>> row_groups(np.array([[1, 0, 1, 0], [2, 2, 2, 0]])).tolist()
    [2, 1, 2, 0]
    """
    codes = np.asarray(codes)
    n = codes.shape[1] if codes.ndim == 2 else 0
    gid = np.zeros(n, dtype=np.int64)
    top = 1
    for column in codes:
        width = int(column.max()) + 1 if n else 1
        if top * width >= 1 << 62:
            _, gid = np.unique(gid, return_inverse=True)
            top = int(gid.max()) + 1
        gid = gid * width + column.astype(np.int64)
        top *= width
    return np.unique(gid, return_inverse=True)[1].reshape(-1).astype(np.int64)


def equal_rows(codes, decisions) -> tuple[int, int, int]:
    """Of a table's rows (``codes``: attribute-major, ``decisions``): how many equal an
    earlier row on every attribute, in how many groups of equal rows the decisions differ,
    and how many rows every tree misclassifies for it (in each group, those not of its
    most common decision).

    >>> equal_rows(np.array([[0, 0, 1, 0]]), np.array([0, 1, 0, 1]))
    (2, 1, 1)
    """
    codes = np.asarray(codes)
    n = int(np.asarray(decisions).shape[0])
    if n == 0:
        return 0, 0, 0
    gid = row_groups(codes) if codes.size else np.zeros(n, dtype=np.int64)
    groups = int(gid.max()) + 1
    if groups == n:
        return 0, 0, 0
    dec = np.asarray(decisions, dtype=np.int64)
    k = int(dec.max()) + 1
    per = np.bincount(gid * k + dec, minlength=groups * k).reshape(groups, k)
    size = per.sum(axis=1)
    conflicting = int(((per > 0).sum(axis=1) > 1).sum())
    return n - groups, conflicting, int((size - per.max(axis=1)).sum())


def default_decision(header, drop=(), weight: str | None = None) -> str:
    """The decision column when none is given: the last column that is neither dropped
    (``--drop``) nor the weight column (``--weight``); the last column when every one is.

    >>> default_decision(["a", "b", "d"]), default_decision(["a", "d", "w"], (), "w")
    ('d', 'd')
    >>> default_decision(["a", "d", "id", "w"], ["id"], "w")
    'd'
    """
    left = [h for h in header if h not in drop and h != weight]
    return left[-1] if left else header[-1]


def decision_note(header, decision, defaulted: bool) -> str:
    """The report's line naming the decision column (and how it was chosen)."""
    if defaulted:
        where = f"the last of {len(header)} columns"
        if decision != header[-1]:
            where += " left after --drop and --weight"
        return f"decision column: {decision!r} ({where}; --decision COL to choose another)"
    return f"decision column: {decision!r}"


#: A decision column of numbers with more distinct values than this gets a warning: a
#: numeric target (a price, an age) more likely than classes.
NUMERIC_DECISION_CLASSES = 20


def numeric_decision_notes(decision: str, values, defaulted: bool) -> list[str]:
    """A warning when the decision column's distinct ``values`` are many numbers.

    >>> numeric_decision_notes("mpg", [str(v) for v in range(30)], True)[0][:72]
    "warning: the decision column 'mpg' (the last column) holds 30 distinct n"
    """
    from ..values import MISSING_MARKERS, parse_number

    present = [v for v in values if v not in MISSING_MARKERS]
    if len(present) <= NUMERIC_DECISION_CLASSES or any(parse_number(v) is None for v in present):
        return []
    how = " (the last column)" if defaulted else ""
    return [
        f"warning: the decision column {decision!r}{how} holds {len(present):,} distinct "
        "numbers, each a class of its own: dagger classifies, and a tree misclassifies every "
        "row whose number it does not give exactly. If that is not the decision, --decision "
        "COL names the column that is"
    ]


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


def drop_hint(column: str) -> str:
    """The option that drops ``column``, quoted for a shell (it may hold blanks).

    >>> drop_hint("id"), drop_hint("Patient ID")
    ('--drop id', "--drop 'Patient ID'")
    """
    return f"--drop {shlex.quote(column)}"


def identifier_notes(names, n_rows: int, numeric=()) -> list[str]:
    """The warnings about the columns :func:`identifier_like` found; a ``numeric`` one (its
    cells all numbers: a measurement, a price, more likely than a key) is advised
    ``--thresholds``, which reads it as numbers split by ``col<=t``.

    >>> print(identifier_notes(["price"], 100, numeric=["price"])[0])  # doctest: +ELLIPSIS
    warning: column 'price' has a distinct value in more than 90% of its 100 rows, each \
a value of its own: a split on it classifies every row without learning anything. If it \
is a measurement, --thresholds all|K reads it as numbers ...; if an identifier, --drop price
    """
    out = []
    for c in names:
        head = (
            f"warning: column {c!r} has a distinct value in more than {IDENTIFIER_SHARE:.0%} "
            f"of its {n_rows} rows"
        )
        if c in numeric:
            out.append(
                f"{head}, each a value of its own: a split on it classifies every row without "
                "learning anything. If it is a measurement, --thresholds all|K reads it as "
                "numbers split by col<=t (or --bins K into intervals); if an identifier, "
                f"{drop_hint(c)}"
            )
        else:
            out.append(
                f"{head} (it looks like an identifier): a split on it classifies every row "
                f"without learning anything. Drop it with {drop_hint(c)}"
            )
    return out


def wide_notes(wide) -> list[str]:
    """The warnings about numeric columns read as many nominal values (``(name, k)``)."""
    return [
        f"warning: column {col!r} has {k} distinct numbers; each is a value of its own. "
        f"Use --bins K (K intervals) or --thresholds all|K (binary splits col<=t)."
        for col, k in wide
    ]


def split_errors(cells, decisions) -> int:
    """Rows that the split on one attribute into leaves misclassifies (``cells`` its
    values, ``decisions`` the rows' decisions: labels or codes).

    >>> split_errors(["a", "a", "b", "b"], [0, 1, 1, 1])
    1
    """
    _, v = np.unique(np.asarray(cells), return_inverse=True)
    _, d = np.unique(np.asarray(decisions), return_inverse=True)
    classes = int(d.max(initial=0)) + 1
    counts = np.bincount(
        v.astype(np.int64) * classes + d, minlength=(int(v.max(initial=0)) + 1) * classes
    )
    return int(len(v) - counts.reshape(-1, classes).max(axis=1).sum())


def memorising(header, columns, decisions, *, skip=()) -> list[tuple[str, int, int]]:
    """Attributes with many values (more than :data:`MEMORISE_SHARE` of the rows, over
    :data:`IDENTIFIER_MIN_ROWS` rows) whose split alone classifies nearly every row (at
    most :data:`MEMORISE_ERRORS` of them wrong): ``(name, values, errors)``. Such a split
    sits at the front's low-error end and memorises the rows (a name, a free text, a fine
    number read as nominal) rather than learning a rule."""
    n = len(decisions)
    out: list[tuple[str, int, int]] = []
    if n <= IDENTIFIER_MIN_ROWS:
        return out
    for name, col in zip(header, columns):
        if name in skip:
            continue
        k = len(np.unique(np.asarray(col)))
        if k <= MEMORISE_SHARE * n:
            continue
        errors = split_errors(col, decisions)
        if errors <= MEMORISE_ERRORS * n:
            out.append((name, k, errors))
    return out


def memorising_notes(found, n_rows: int) -> list[str]:
    return [
        f"warning: column {c!r} has {k} values for {n_rows} rows: a split on it alone "
        f"classifies {n_rows - e} of them, by memorising the rows rather than learning a "
        f"rule, so the front's low-error end may mean little. Drop it with {drop_hint(c)}, "
        "or group its values"
        for c, k, e in found
    ]
