"""Discrete decision tables and their preprocessing.

A :class:`DecisionTable` holds the conditional attributes as small integer codes
(column-major, one row of ``codes`` per attribute) and the decision of every row.
Values are compared as strings; codes follow :func:`value_order`, so the first
value of a column is the smallest one (numeric order when every value of the column
is a number, else string order).

Preprocessing follows the convention of the paper's authors (see the README):

1. drop the columns the user names (identifiers);
2. a missing value (``?``, empty, ``NA``, ``N/A``, ``NaN``, ``nan``) becomes the most common
   value of its attribute (the smallest such value on a tie);
3. equal rows (same values of all conditional attributes) are merged into one row that
   carries the most common decision of the group (the smallest decision on a tie).
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .discretize import discretize, wide_columns
from .errors import InputError
from .recipe import DUPLICATES_CHOICES, MISSING_CHOICES, Recipe
from .thresholds import threshold_columns
from .values import MISSING_LABEL, MISSING_MARKERS, parse_number, value_order
from .values import cell_text as _cell

# The names this module has always offered (the values now live in recipe.py, values.py).
MISSING_POLICIES = MISSING_CHOICES
DUPLICATE_POLICIES = DUPLICATES_CHOICES
__all__ = [
    "DecisionTable",
    "MISSING_LABEL",
    "MISSING_MARKERS",
    "PreprocessReport",
    "Recipe",
    "example_table",
    "from_columns",
    "parse_csv_text",
    "parse_number",
    "value_order",
]


@dataclass(frozen=True)
class PreprocessReport:
    """What preprocessing changed; printed on stderr by the CLI."""

    rows_read: int
    rows_after: int
    merged_rows: int = 0
    conflicting_groups: int = 0
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
                f"merged {self.merged_rows} equal row(s): {self.rows_read} -> {self.rows_after} rows"
                + (
                    f" ({self.conflicting_groups} group(s) had different decisions;"
                    " each keeps its most common decision)"
                    if self.conflicting_groups
                    else ""
                )
            )
        return out


@dataclass(frozen=True, eq=False)
class DecisionTable:
    """A discrete decision table ready for the engines.

    Attributes
    ----------
    name : str
        A label for titles and messages (file stem or dataset name).
    attributes : tuple of str
        Conditional attribute names, in column order.
    decision_name : str
        Name of the decision column.
    values : tuple of tuple of str
        ``values[i][c]`` is the label of code ``c`` of attribute ``i``.
    codes : ndarray of int32, shape (m, N)
        Column-major attribute codes.
    decision_values : tuple of str
        ``decision_values[c]`` is the label of decision code ``c`` (ascending decision order).
    decisions : ndarray of int32, shape (N,)
        Decision code of every row.
    report : PreprocessReport
    splits : dict
        ``{attribute: Threshold}`` for the binary attributes made from numeric columns by
        ``thresholds`` (:mod:`dagger_cli.thresholds`); empty otherwise.
    """

    name: str
    attributes: tuple
    decision_name: str
    values: tuple
    codes: np.ndarray
    decision_values: tuple
    decisions: np.ndarray
    report: PreprocessReport
    splits: dict = field(default_factory=dict)

    @property
    def n_rows(self) -> int:
        return int(self.decisions.shape[0])

    @property
    def n_attributes(self) -> int:
        return len(self.attributes)

    def rows(self) -> list[tuple]:
        """The rows as tuples of value labels (attributes only)."""
        cols = [[vals[c] for c in col] for vals, col in zip(self.values, self.codes)]
        return list(zip(*cols)) if cols else [() for _ in range(self.n_rows)]

    def decision_labels(self) -> list[str]:
        return [self.decision_values[c] for c in self.decisions]

    def to_records(self) -> tuple[list[str], list[list[str]]]:
        """Header and rows of the prepared table, decision column last."""
        header = list(self.attributes) + [self.decision_name]
        dec = self.decision_labels()
        return header, [list(r) + [d] for r, d in zip(self.rows(), dec)]

    def to_dataframe(self):
        import pandas as pd

        header, records = self.to_records()
        return pd.DataFrame(records, columns=header, dtype=str)

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_rows(
        cls,
        rows: Sequence[Sequence],
        decisions: Sequence,
        attributes: Sequence[str] | None = None,
        *,
        decision_name: str = "d",
        name: str = "table",
        recipe: Recipe | None = None,
        **options: Any,
    ) -> DecisionTable:
        """Build a table from rows of attribute values and a list of decisions.

        ``recipe`` (and the keyword ``options``, its fields: ``missing="value"`` is
        ``recipe=Recipe(missing="value")``) chooses the missing-value and duplicate policies;
        the decisions come apart from the rows, so a recipe that names columns (``decision``,
        ``drop``) or discretizes (``bins``, ``thresholds``) is refused rather than ignored.

        >>> t = DecisionTable.from_rows([(0, 0), (1, 0)], [0, 1])
        >>> t.n_rows, t.n_attributes, t.attributes
        (2, 2, ('f1', 'f2'))
        """
        recipe = Recipe.of(recipe, **options)
        named = [
            k for k in ("decision", "drop", "bins", "thresholds") if getattr(recipe, k) is not None
        ]
        if named:
            raise InputError(
                f"from_rows takes the decisions apart and applies no {', '.join(named)}; "
                "use DecisionTable.from_dataframe for a recipe with them"
            )
        recipe = recipe.resolved()
        rows = [[_cell(v) for v in r] for r in rows]
        m = len(rows[0]) if rows else (len(attributes) if attributes else 0)
        if attributes is None:
            attributes = [f"f{i + 1}" for i in range(m)]
        for i, r in enumerate(rows):
            if len(r) != m:
                raise InputError(f"row {i + 1} has {len(r)} values, expected {m}")
        columns = [[r[j] for r in rows] for j in range(m)]
        return _build(
            name=name,
            source=name,
            attributes=list(attributes),
            columns=columns,
            decision_name=decision_name,
            decision=[_cell(d) for d in decisions],
            decision_lines=None,
            missing=recipe.missing,
            duplicates=recipe.duplicates,
            dropped=(),
        )

    @classmethod
    def from_dataframe(
        cls, df, recipe: Recipe | None = None, *, name: str = "table", **options: Any
    ) -> DecisionTable:
        """Build a table from a pandas DataFrame (values compared as strings).

        Parameters
        ----------
        df : pandas.DataFrame
        recipe : Recipe, optional
            The preprocessing (:class:`dagger_cli.recipe.Recipe`); unset fields take the
            defaults (decision: the last column; missing values filled; equal rows merged).
        name : str
            A label for titles and messages.
        **options
            Recipe fields, replacing the recipe's: ``bins=3`` is ``recipe=Recipe(bins=3)``.
        """
        header = [str(c) for c in df.columns]
        columns = [[_cell(v) for v in df.iloc[:, j].tolist()] for j in range(df.shape[1])]
        return from_columns(
            header,
            columns,
            Recipe.of(recipe, **options),
            name=name,
            source="DataFrame",
            lines=None,
        )

    @classmethod
    def from_csv(
        cls,
        path,
        recipe: Recipe | None = None,
        *,
        name: str | None = None,
        header: Sequence[str] | None = None,
        **options: Any,
    ) -> DecisionTable:
        """Read a comma-separated table whose first line is a header.

        Parameters
        ----------
        path : str or path-like
        recipe : Recipe, optional
            The preprocessing, as in :meth:`from_dataframe`.
        name : str, optional
            A label for titles and messages (default: the file's stem).
        header : sequence of str, optional
            Column names of a file without a header line.
        **options
            Recipe fields, replacing the recipe's: ``bins=3`` is ``recipe=Recipe(bins=3)``.
        """
        recipe = Recipe.of(recipe, **options)
        path = Path(path)
        names, columns, lines = read_csv(path, header=header)
        return from_columns(
            names, columns, recipe, name=name or path.stem, source=str(path), lines=lines
        )


def read_csv(path, header: Sequence[str] | None = None):
    """A CSV file's (names, columns, line numbers of the data rows), or a clear InputError."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(
            f"{path}: no such file. Give a CSV path or a registered dataset name "
            "(see `dagger datasets`)."
        ) from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a CSV file") from None
    except UnicodeDecodeError as err:
        raise InputError(
            f"{path}: not a UTF-8 text file ({err.reason} at byte {err.start})"
        ) from None
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from None
    return parse_csv_text(text, str(path), header=header)


def parse_csv_text(text: str, source: str, header: Sequence[str] | None = None):
    """Split CSV text into (names, columns, line numbers of the data rows)."""
    reader = csv.reader(io.StringIO(text))
    records = []
    try:
        for rec in reader:
            if not rec or all(not c.strip() for c in rec):
                continue
            records.append((reader.line_num, [c.strip() for c in rec]))
    except csv.Error as err:
        raise InputError(f"{source}, line {reader.line_num}: unreadable CSV ({err})") from None
    if header is None:
        if not records:
            raise InputError(f"{source}: the file is empty; expected a header line and data rows")
        _, names = records[0]
        records = records[1:]
        if len(set(names)) != len(names):
            dup = [n for n, k in Counter(names).items() if k > 1]
            raise InputError(
                f"{source}, line 1: duplicate column name(s) {', '.join(map(repr, dup))}"
            )
    else:
        names = list(header)
    width = len(names)
    for line, rec in records:
        if len(rec) != width:
            raise InputError(
                f"{source}, line {line}: {len(rec)} fields, expected {width} (as in the header)"
            )
    columns = [[rec[j] for _, rec in records] for j in range(width)]
    return names, columns, [line for line, _ in records]


def from_columns(
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    recipe: Recipe,
    *,
    name: str,
    source: str,
    lines: Sequence[int] | None,
) -> DecisionTable:
    """The table of a header and column-major string cells, prepared by ``recipe``.

    Every builder (a CSV file, a DataFrame, a registered dataset) ends here, with the whole
    recipe; its unset fields take :data:`dagger_cli.recipe.DEFAULTS`. ``lines`` are the
    data rows' line numbers in the source file, for messages (None: row numbers).
    """
    if not header:
        raise InputError(f"{source}: no columns")
    recipe = recipe.resolved()
    decision = header[-1] if recipe.decision is None else recipe.decision
    drop = recipe.drop or ()
    bins = recipe.bins
    thresholds = recipe.thresholds
    for col in [decision, *drop]:
        if col not in header:
            raise InputError(
                f"{source}: no column named {col!r}; the columns are: {', '.join(header)}"
            )
    if decision in drop:
        raise InputError(f"{source}: the decision column {decision!r} cannot be dropped")
    skip = (decision, *drop)
    splits: dict = {}
    if thresholds is not None:
        header, columns, splits, notes = threshold_columns(header, columns, thresholds, skip=skip)
    elif bins is not None:
        columns, notes = discretize(header, columns, bins, skip=skip)
    else:
        notes = [
            f"warning: column {col!r} has {k} distinct numbers; each is a value of its own. "
            f"Use --bins K (K intervals) or --thresholds all|K (binary splits col<=t)."
            for col, k in wide_columns(header, columns, skip=skip)
        ]
    keep = [j for j, h in enumerate(header) if h != decision and h not in drop]
    return _build(
        name=name,
        source=source,
        attributes=[header[j] for j in keep],
        columns=[columns[j] for j in keep],
        decision_name=decision,
        decision=columns[header.index(decision)],
        decision_lines=lines,
        missing=recipe.missing,
        duplicates=recipe.duplicates,
        dropped=tuple(d for d in header if d in drop),
        notes=tuple(notes),
        splits=splits,
    )


def _build(
    *,
    name,
    source,
    attributes,
    columns,
    decision_name,
    decision,
    decision_lines,
    missing,
    duplicates,
    dropped,
    notes=(),
    splits=None,
):
    if missing not in MISSING_POLICIES:
        raise InputError(
            f"unknown missing-value policy {missing!r}; expected one of {MISSING_POLICIES}"
        )
    if duplicates not in DUPLICATE_POLICIES:
        raise InputError(
            f"unknown duplicates policy {duplicates!r}; expected one of {DUPLICATE_POLICIES}"
        )
    n = len(decision)
    if n == 0:
        raise InputError(f"{source}: the table has no rows")

    def where(i):
        return f"line {decision_lines[i]}" if decision_lines else f"row {i + 1}"

    for i, d in enumerate(decision):
        if d in MISSING_MARKERS:
            raise InputError(
                f"{source}, {where(i)}: missing value {d!r} in the decision column "
                f"{decision_name!r}; every row needs a decision (remove the row or fill it in)"
            )

    filled = {}
    columns = [list(c) for c in columns]
    for j, col in enumerate(columns):
        holes = [i for i, v in enumerate(col) if v in MISSING_MARKERS]
        if not holes:
            continue
        if missing == "error":
            i = holes[0]
            raise InputError(
                f"{source}, {where(i)}, column {attributes[j]!r}: missing value {col[i]!r} "
                f"({len(holes)} in this column); use --missing mode or --missing value to accept them"
            )
        if missing == "value":
            for i in holes:
                col[i] = MISSING_LABEL
            continue
        present = Counter(v for v in col if v not in MISSING_MARKERS)
        if not present:
            raise InputError(
                f"{source}, column {attributes[j]!r}: every value is missing, so there is no most "
                f"common value to fill in; drop the column with --drop {attributes[j]!r}"
            )
        fill = _most_common(present)
        for i in holes:
            col[i] = fill
        filled[attributes[j]] = (len(holes), fill)

    rows_read = n
    merged = conflicting = 0
    dec_order = value_order(decision)
    dec_rank = {v: k for k, v in enumerate(dec_order)}
    if duplicates == "merge" and n:
        keys = list(zip(*columns)) if columns else [()] * n
        groups: dict = {}
        for i, key in enumerate(keys):
            groups.setdefault(key, []).append(i)
        if len(groups) < n:
            new_cols = [[] for _ in columns]
            new_dec = []
            for key, members in groups.items():
                counts = Counter(decision[i] for i in members)
                if len(counts) > 1:
                    conflicting += 1
                best = max(counts.values())
                d = min((v for v, c in counts.items() if c == best), key=dec_rank.__getitem__)
                for j, v in enumerate(key):
                    new_cols[j].append(v)
                new_dec.append(d)
            merged = n - len(groups)
            columns, decision = new_cols, new_dec
            dec_order = value_order(decision)
            dec_rank = {v: k for k, v in enumerate(dec_order)}
    n = len(decision)

    m = len(columns)
    codes = np.empty((m, n), dtype=np.int32)
    values = []
    for j, col in enumerate(columns):
        order = value_order(col)
        rank = {v: k for k, v in enumerate(order)}
        codes[j] = [rank[v] for v in col]
        values.append(tuple(order))
    dec_codes = np.fromiter((dec_rank[d] for d in decision), dtype=np.int32, count=n)
    report = PreprocessReport(
        rows_read=rows_read,
        rows_after=n,
        merged_rows=merged,
        conflicting_groups=conflicting,
        filled=filled,
        dropped=tuple(dropped),
        notes=tuple(notes),
    )
    return DecisionTable(
        name=name,
        attributes=tuple(attributes),
        decision_name=decision_name,
        values=tuple(values),
        codes=codes,
        decision_values=tuple(dec_order),
        decisions=dec_codes,
        report=report,
        splits={a: splits[a] for a in attributes if a in splits} if splits else {},
    )


def _most_common(counter: Counter) -> str:
    best = max(counter.values())
    return value_order(v for v, c in counter.items() if c == best)[0]


def example_table() -> DecisionTable:
    """The decision table of the paper's Fig. 4 (front: (0, 2), (4, 0))."""
    return DecisionTable.from_rows(
        [(0, 0, 1), (1, 0, 1), (2, 1, 0), (3, 1, 0)],
        [0, 1, 0, 1],
        attributes=["f1", "f2", "f3"],
        decision_name="d",
        name="paper-fig4",
    )
