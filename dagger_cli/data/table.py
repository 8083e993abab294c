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
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import InputError
from ..values import (
    MISSING_LABEL,
    MISSING_MARKERS,
    ColumnNumbers,
    comma_decimal,
    mostly_numeric,
    numeric_column,
    parse_number,
    present_numbers,
    value_order,
)
from ..values import cell_text as _cell
from .compression import stem
from .discretize import discretize, numeric_values, wide_columns
from .recipe import DUPLICATES_CHOICES, MISSING_CHOICES, Recipe
from .report import (
    PreprocessReport,
    decision_note,
    default_decision,
    identifier_like,
    identifier_notes,
    memorising,
    memorising_notes,
    numeric_decision_notes,
    wide_notes,
)
from .thresholds import NO, YES, Ordered, binary_codes, ordered_columns

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
        ``{attribute: Threshold}`` for binary attributes ``col<=t`` made from numeric
        columns (:meth:`binarized`, the estimator's tables); empty otherwise.
    ordered : dict
        ``{attribute: Ordered}`` for the numeric columns that ``thresholds`` made ordered
        attributes (:mod:`dagger_cli.data.thresholds`): their codes are intervals between
        thresholds, and a split tests ``col <= t``; empty otherwise.
    fills : dict
        ``{column: text}``: what a missing value of a column reads as when a tree routes a
        new row (:meth:`dagger_cli.trees.Tree.predict`, ``dagger validate``): the value its
        missing training cells were filled with, whether the training rows had any or not
        (``missing="mode"``: a numeric column's median, as the raw number, another
        column's most common value; ``missing="value"``: ``?``). A column without an entry
        (``missing="error"``) stops such a row at the split, as an unseen value does.
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
    ordered: dict = field(default_factory=dict)
    #: row weights and prices (:class:`dagger_cli.weights.Weighting`); None: every row
    #: counts once and a wrong decision costs 1
    weighting: Any = None
    fills: dict = field(default_factory=dict)

    @property
    def n_rows(self) -> int:
        return int(self.decisions.shape[0])

    @property
    def weight_total(self) -> int:
        """The rows' total weight in the weighting's units (the rows, unweighted): the
        ``n`` of the whole table in every cost, and what average depth divides by."""
        if self.weighting is None:
            return self.n_rows
        return int(self.weighting.rows.sum())

    def weighted(
        self,
        weights=None,
        *,
        class_weight=None,
        prices=None,
        where=None,
        min_leaf=None,
        positive=None,
    ) -> DecisionTable:
        """This table with row weights (one per row, positive), class weights (a mapping
        class -> weight, or "balanced"), a price matrix (rows: true class, columns:
        predicted class, in decision order), a minimum leaf size (rows) and the positive
        class of false positives and negatives (a class label): see
        :mod:`dagger_cli.weights`. All None: the table itself; ``min_leaf`` or ``positive``
        alone keep the table's weights and prices."""
        from ..weights import Weighting, check_min_leaf, parse_class_weight

        pos = None if positive is None else self.class_code(positive)
        if weights is None and class_weight is None and prices is None:
            if min_leaf is None and positive is None:
                return self
            base = self.weighting or Weighting.make(
                None, decisions=self.decisions, n_classes=len(self.decision_values)
            )
            if min_leaf is not None:
                base = replace(base, min_leaf=check_min_leaf(min_leaf))
            if pos is not None:
                base = replace(base, positive=pos)
            return replace(self, weighting=base)
        cw = parse_class_weight(class_weight, self.decision_values, self.decisions)
        w = Weighting.make(
            weights,
            decisions=self.decisions,
            n_classes=len(self.decision_values),
            class_weight=cw,
            prices=prices,
            where=where,
            min_leaf=1 if min_leaf is None else min_leaf,
        )
        return replace(self, weighting=w if pos is None else replace(w, positive=pos))

    def class_code(self, label) -> int:
        """The code of the class ``label`` (its text as the table reads it)."""
        known = [str(v) for v in self.decision_values]
        if str(label) not in known:
            raise InputError(
                f"no class {label!r} in the decision column {self.decision_name!r}; the "
                f"classes are: {', '.join(known)}"
            )
        return known.index(str(label))

    @property
    def n_attributes(self) -> int:
        return len(self.attributes)

    @property
    def n_tests(self) -> int:
        """Binary attributes of :meth:`binarized`: an ordered attribute counts its
        thresholds (no tree is deeper than this, nor than the attributes if none is
        ordered)."""
        return sum(
            len(self.ordered[a].thresholds) if a in self.ordered else 1 for a in self.attributes
        )

    def binarized(self, max_bytes: int | None = None) -> DecisionTable:
        """The same table with every ordered attribute as its binary attributes ``col<=t``
        (one per threshold, in place, thresholds ascending; ``splits`` names them): what
        the engines that know only nominal attributes read. The same trees: a split
        ``col <= t`` is the split of the binary attribute ``col<=t``.

        Raises :class:`LimitError` when the binary codes would take more than
        ``max_bytes``."""
        if not self.ordered:
            return self
        need = self.n_tests * self.n_rows * 4
        if max_bytes is not None and need > max_bytes:
            from ..errors import LimitError

            raise LimitError(
                f"this query needs the numeric columns as {self.n_tests:,} binary attributes "
                f"({need / 2**20:,.0f} MiB, more than {max_bytes / 2**20:,.0f} MiB); give a "
                "depth cap (--max-depth D: the ordered solver needs no such expansion) or "
                "fewer thresholds (--thresholds K)"
            )
        attributes: list[str] = []
        values: list[tuple] = []
        codes: list[np.ndarray] = []
        splits = dict(self.splits)
        for j, a in enumerate(self.attributes):
            attr = self.ordered.get(a)
            if attr is None:
                attributes.append(a)
                values.append(self.values[j])
                codes.append(self.codes[j])
                continue
            names, bits = binary_codes(attr, self.codes[j])
            for k, (name, row) in enumerate(zip(names, bits)):
                attributes.append(name)
                values.append((NO, YES))
                codes.append(row)
                splits[name] = attr.split(k)
        clash = sorted({a for a in attributes if attributes.count(a) > 1})
        if clash:
            raise InputError(
                f"threshold attribute name(s) {', '.join(map(repr, clash))} equal another "
                "column's name; rename that column"
            )
        return replace(
            self,
            attributes=tuple(attributes),
            values=tuple(values),
            codes=np.array(codes, dtype=np.int32).reshape(len(codes), self.n_rows),
            splits=splits,
            ordered={},
        )

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
            The preprocessing (:class:`dagger_cli.data.recipe.Recipe`); unset fields take the
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
        sep: str | None = None,
        **options: Any,
    ) -> DecisionTable:
        """Read a table whose first line is a header (comma-separated unless detected).

        Parameters
        ----------
        path : str or path-like
        recipe : Recipe, optional
            The preprocessing, as in :meth:`from_dataframe`.
        name : str, optional
            A label for titles and messages (default: the file's stem).
        header : sequence of str, optional
            Column names of a file without a header line.
        sep : str, optional
            The field separator; by default it is detected among ``,`` ``;`` tab ``|``
            (:func:`detect_separator`; a file whose header has one column is refused).
        **options
            Recipe fields, replacing the recipe's: ``bins=3`` is ``recipe=Recipe(bins=3)``.
        """
        recipe = Recipe.of(recipe, **options)
        path = Path(path)
        fast = _read_columnar(path, recipe, name, header, sep)
        if fast is not None:
            return fast
        names, columns, lines, sep_note = read_csv(path, header=header, sep=sep)
        table = from_columns(
            names, columns, recipe, name=name or stem(path), source=str(path), lines=lines
        )
        return _with_note(table, sep_note)


#: Bytes read from the start of a file to detect its separator and header (columnar reader).
HEAD_BYTES = 2**20


def _read_columnar(path, recipe: Recipe, name, header, sep):
    """The table from :mod:`dagger_cli.data.csv` (large files), or None for the Python reader.

    The separator and the header come from the file's first lines, as the Python reader
    finds them; they must all be in the first :data:`HEAD_BYTES` bytes.
    """
    from . import csv as columnar
    from .compression import compression

    recipe = recipe.resolved()
    if header is not None or not columnar.handles(recipe) or not columnar.wanted(path):
        return None
    if compression(path) is not None:
        return None  # the Python reader decompresses it
    try:
        with open(path, "rb") as fh:
            raw = fh.read(HEAD_BYTES + 1)
        head = raw[:HEAD_BYTES].decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None
    lines = head.splitlines()
    if len(raw) > HEAD_BYTES:
        lines = lines[:-1]  # the last one may be cut
        if len(lines) < 200:
            return None
    if not lines or not lines[0].strip():
        return None
    delimiter, note = detect_separator("\n".join(lines), str(path), sep)
    names = next(csv.reader([lines[0]], delimiter=delimiter))
    fields = columnar.read_table(
        path,
        names,
        delimiter=delimiter,
        decision=recipe.decision,
        drop=tuple(recipe.drop or ()),
        name=name or stem(path),
        missing=recipe.missing,
        duplicates=recipe.duplicates,
    )
    if fields is None:
        return None
    table = DecisionTable(**fields)
    if recipe.duplicates == "keep":
        table = with_kept_duplicates(table)
    return _with_note(table, note)


def _with_note(table: DecisionTable, note: str | tuple | None) -> DecisionTable:
    """``table`` with ``note`` (one, several or None) first among its report's notes."""
    first = (note,) if isinstance(note, str) else tuple(note or ())
    if not first:
        return table
    report = replace(table.report, notes=(*first, *table.report.notes))
    return replace(table, report=report)


def read_csv(path, header: Sequence[str] | None = None, sep: str | None = None):
    """A CSV file's (names, columns, line numbers of the data rows, notes: the separator
    detected, the decimal commas read as numbers (:func:`decimal_commas`)), or a clear
    InputError; the separator is ``sep`` or detected (:func:`detect_separator`)."""
    from .compression import read_text

    path = Path(path)
    try:
        text = read_text(path)
    except FileNotFoundError:
        raise InputError(
            f"{path}: no such file. Give a CSV path or a registered dataset name "
            "(see `dagger datasets`)."
        ) from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a CSV file") from None
    except OSError as err:
        raise InputError(f"{path}: cannot read ({err.strerror})") from None
    delimiter, note = detect_separator(text, str(path), sep)
    names, columns, lines = parse_csv_text(text, str(path), header=header, delimiter=delimiter)
    columns, comma_note = decimal_commas(names, columns, delimiter)
    notes = tuple(n for n in (note, comma_note) if n is not None)
    return names, columns, lines, notes


def parse_csv_text(
    text: str, source: str, header: Sequence[str] | None = None, delimiter: str = ","
):
    """Split CSV text into (names, columns, line numbers of the data rows)."""
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
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
    recipe; its unset fields take :data:`dagger_cli.data.recipe.DEFAULTS`. ``lines`` are the
    data rows' line numbers in the source file, for messages (None: row numbers).
    """
    if not header:
        raise InputError(f"{source}: no columns")
    recipe = recipe.resolved()
    defaulted = recipe.decision is None
    drop = recipe.drop or ()
    decision: str = (
        default_decision(header, drop, recipe.weight)
        if recipe.decision is None
        else recipe.decision
    )
    bins = recipe.bins
    thresholds = recipe.thresholds
    for col in [decision, *drop]:
        if col not in header:
            raise InputError(
                f"{source}: no column named {col!r}; the columns are: {', '.join(header)}"
            )
    if decision in drop:
        raise InputError(f"{source}: the decision column {decision!r} cannot be dropped")
    weight_cells = None
    if recipe.weight is not None:
        weight_cells = _weight_column(header, columns, recipe, decision, source)
        drop = (*drop, recipe.weight)
    skip = (decision, *drop)
    keep = [j for j, h in enumerate(header) if h != decision and h not in drop]
    check_attributes(source, header, decision, drop, keep)
    ordered: dict[str, Ordered] = {}
    numbers = ColumnNumbers()  # each numeric column read once, for every check below
    filled_numbers: dict = {}
    median_rows: dict = {}
    # The decision column's note counts the file's columns, not the generated ones.
    notes = [decision_note(header, decision, defaulted)]
    if recipe.drop_unlabeled:
        columns, lines, note = _drop_unlabeled(columns, header.index(decision), lines)
        notes += [note] if note else []
        if weight_cells is not None:  # the weights of the rows kept
            weight_cells = list(columns[header.index(recipe.weight)])
    notes += numeric_decision_notes(decision, set(columns[header.index(decision)]), defaulted)
    if thresholds is not None or bins is not None:
        option = "--thresholds" if thresholds is not None else "--bins"
        columns, stray = stray_cells(
            header,
            columns,
            skip=skip,
            lines=lines,
            source=source,
            option=option,
            missing=recipe.missing,
            numbers=numbers,
        )
        notes += stray
        if recipe.missing == "mode":
            columns, filled_numbers, median_rows = fill_numbers(
                header, columns, skip=skip, numbers=numbers
            )
    raw = columns
    if thresholds is not None:
        qw = _quantile_weights(header, columns, recipe, decision, weight_cells, lines, source)
        columns, ordered, made = ordered_columns(
            header, columns, thresholds, skip=skip, weights=qw, numbers=numbers
        )
    elif bins is not None:
        columns, made = discretize(header, columns, bins, skip=skip)
    else:
        made = []
    # A missing value at prediction reads as the median: a threshold split's raw number,
    # an interval column's label of it.
    fills = {
        name: (raw if name in ordered else columns)[header.index(name)][i]
        for name, i in median_rows.items()
    }
    # Identifier-like and memorising attributes among the prepared ones (a threshold or an
    # interval column never is one).
    n_rows = len(columns[0]) if columns else 0
    ids = identifier_like(header, columns, skip=(*skip, *ordered))
    if thresholds is None and bins is None:
        made = wide_notes(wide_columns(header, columns, skip=(*skip, *ids)))
    notes += made
    notes += identifier_notes(
        ids, n_rows, numeric=[c for c in ids if numeric_values(columns[header.index(c)])]
    )
    dec_col = columns[header.index(decision)]
    notes += memorising_notes(
        memorising(header, columns, dec_col, skip=(*skip, *ids, *ordered)), n_rows
    )
    table = _build(
        name=name,
        source=source,
        attributes=[header[j] for j in keep],
        columns=[columns[j] for j in keep],
        decision_name=decision,
        decision=columns[header.index(decision)],
        decision_lines=lines,
        missing=recipe.missing,
        duplicates=recipe.duplicates,
        dropped=tuple(d for d in header if d in drop and d != recipe.weight),
        notes=tuple(notes),
        ordered=ordered,
        filled=filled_numbers,
        fills=fills,
    )
    return _weigh(table, recipe, weight_cells, lines, source)


def _weight_column(header, columns, recipe: Recipe, decision: str, source: str) -> list:
    """The cells of the recipe's weight column, checked to be one that can hold weights."""
    w = recipe.weight
    if w not in header:
        raise InputError(
            f"{source}: no column named {w!r} for the row weights; the columns are: "
            f"{', '.join(header)}"
        )
    if w == decision:
        raise InputError(f"{source}: the decision column {w!r} cannot be the weight column")
    if w in (recipe.drop or ()):
        raise InputError(f"{source}: the weight column {w!r} is also dropped (--drop)")
    if recipe.duplicates == "merge":
        raise InputError(
            f"{source}: row weights (column {w!r}) and merged equal rows (--duplicates "
            "merge) do not go together: a merged row would need a weight; use --duplicates "
            "keep (the weights then count the equal rows)"
        )
    return list(columns[header.index(w)])


def _row_names(source: str, lines):
    """Row i's name in a message: its file's line, or its row number."""

    def name(i: int) -> str:
        return f"{source}, line {lines[i]}" if lines else f"{source}, row {i + 1}"

    return name


def _quantile_weights(header, columns, recipe, decision, cells, lines, source):
    """Each row's weight (row weight times class weight, as floats) for the quantiles of
    ``--thresholds K``, so that a row of weight k places them as k copies of it would;
    None unweighted."""
    if cells is None and recipe.class_weight is None:
        return None
    from ..weights import Weighting, parse_class_weight

    dec = list(columns[header.index(decision)])
    labels = value_order(dec)
    rank = {v: k for k, v in enumerate(labels)}
    codes = [rank[v] for v in dec]
    cw = parse_class_weight(recipe.class_weight, labels, codes)
    where = _row_names(source, lines)
    w = Weighting.make(cells, decisions=codes, n_classes=len(labels), class_weight=cw, where=where)
    return w.rows.astype(np.float64)


def _weigh(table: DecisionTable, recipe: Recipe, cells, lines, source: str) -> DecisionTable:
    """``table`` with the recipe's row weights (``cells``, the weight column's), class
    weights and price matrix (:meth:`DecisionTable.weighted`), and a note saying so."""
    if (
        cells is None
        and recipe.class_weight is None
        and recipe.cost_matrix is None
        and recipe.min_leaf is None
        and recipe.positive is None
    ):
        return table
    from ..weights import read_cost_matrix

    prices = None
    if recipe.cost_matrix is not None:
        prices = read_cost_matrix(recipe.cost_matrix, table.decision_values)

    out = table.weighted(
        cells,
        class_weight=recipe.class_weight,
        prices=prices,
        where=_row_names(source, lines),
        min_leaf=recipe.min_leaf,
        positive=recipe.positive,
    )
    w = out.weighting
    if w.plain:
        return out
    said = [f"column {recipe.weight!r}"] if recipe.weight else []
    if recipe.class_weight is not None:
        said.append(f"class weights {recipe.class_weight}")
    if recipe.cost_matrix is not None:
        said.append(f"prices from {recipe.cost_matrix}")
    unit = "" if w.unit == 1 else f"; costs count in units of 1/{w.unit:,} of a row of weight 1"
    note = (
        f"weighted by {', '.join(said)}: the cost misclassifications is the "
        f"{w.label} ({out.weight_total / w.scale:,g} rows' weight in all{unit})"
    )
    return _with_note(out, note)


def _drop_unlabeled(columns, j: int, lines):
    """The columns (and line numbers) without the rows whose decision (column ``j``) is
    missing, and the note that says so (None: there were none)."""
    gone = [i for i, v in enumerate(columns[j]) if v in MISSING_MARKERS]
    if not gone:
        return columns, lines, None
    out = set(gone)
    keep = [i for i in range(len(columns[j])) if i not in out]
    shown = ", ".join(str(lines[i] if lines else i + 1) for i in gone[:5])
    shown += ", ..." if len(gone) > 5 else ""
    where = "line(s)" if lines else "row(s)"
    note = f"dropped {len(gone):,} row(s) without a decision (--drop-unlabeled; {where} {shown})"
    columns = [[col[i] for i in keep] for col in columns]
    return columns, None if lines is None else [lines[i] for i in keep], note


def fill_numbers(header, columns, *, skip, numbers=None) -> tuple[list, dict, dict]:
    """Fill each numeric column's missing cells with its median: the lower middle of its
    present numbers (so the fill is one of the column's own numbers, written as in the
    file). What ``--missing mode`` does to a numeric column that ``--thresholds`` or
    ``--bins`` splits (its most common value would be an arbitrary number where the
    numbers are all distinct); the estimator fills the same way
    (:class:`dagger_cli.sklearn.DaggerTreeClassifier`). Returns the columns,
    ``{column: (cells filled, the median's text)}`` and ``{column: the median's row}`` for
    every numeric column, holes or not (what a missing value reads as at prediction).
    ``numbers``: a :class:`dagger_cli.values.ColumnNumbers`, where the columns' numbers are
    read once for all the builder's checks.

    >>> cols, filled, rows = fill_numbers(["x", "d"], [["3", "?", "1", "10"], list("abab")],
    ...                                   skip=["d"])
    >>> cols[0], filled, rows
    (['3', '3', '1', '10'], {'x': (1, '3')}, {'x': 0})
    """

    out = list(columns)
    filled = {}
    rows = {}
    for j, (name, col) in enumerate(zip(header, columns)):
        if name in skip:
            continue
        read = (numbers or present_numbers)(col)
        if read is None:
            continue
        # The lower middle of the present numbers, the first row on a tie.
        holes = (
            [] if len(read) == len(col) else [i for i, v in enumerate(col) if v in MISSING_MARKERS]
        )
        at = np.arange(len(col), dtype=np.int64)
        if holes:
            at = np.delete(at, holes)
        order = np.lexsort((at, read))
        row = rows[name] = int(at[order[(len(at) - 1) // 2]])
        if not holes:
            continue
        fixed = list(col)
        for i in holes:
            fixed[i] = col[row]
        out[j] = fixed
        filled[name] = (len(holes), col[row])
    return out, filled, rows


# ---------------------------------------------------------------------- honest input
#: Field separators tried, in this order of preference, when none is given.
SEPARATORS = (",", ";", "\t", "|")
_SEP_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe", " ": "space"}


def stray_cells(header, columns, *, skip, lines, source, option, missing, numbers=None):
    """Numeric columns with a few cells that are not numbers (a stray word, a typo):
    those cells become missing values, each column's warning naming its lines and values
    (for ``option``, ``--thresholds`` or ``--bins``, which read only numeric columns); with
    ``missing="error"`` the first one is refused instead. A column with more such cells
    (but at least half numbers) stays nominal, and a warning says why. Returns the columns
    and the warnings.

    "A few" is :func:`dagger_cli.values.mostly_numeric`: at most one present cell in
    twenty. Reading them as missing (filled by ``--missing``, kept as ``?`` with
    ``--missing value``) keeps the column's numbers as numbers, as a careful user fixing
    the cell would; the warning says which cells so that they can be fixed at the source.
    """
    out = list(columns)
    notes = []

    def where(i):
        return f"line {lines[i]}" if lines else f"row {i + 1}"

    for j, (name, col) in enumerate(zip(header, columns)):
        if name in skip:
            continue
        count, stray = numeric_column(col, numbers)
        infinite = [i for i in stray if parse_number(col[i]) is not None]
        if infinite:
            words = [i for i in stray if i not in infinite]
            if count + len(infinite) >= 2 and (
                not words or mostly_numeric(count + len(infinite), words)
            ):
                i = infinite[0]
                raise InputError(
                    f"{source}, {where(i)}, column {name!r}: {col[i]!r} is infinite "
                    f"({len(infinite)} such cell(s) in this column), in a column of numbers "
                    f"that {option} splits, and no threshold can order infinity: replace it "
                    "with a finite number, or empty the cell (a missing value, filled under "
                    "--missing mode)"
                )
        if not stray or count < 2:
            continue
        shown = ", ".join(f"{where(i)} {col[i]!r}" for i in stray[:3])
        shown += ", ..." if len(stray) > 3 else ""
        if mostly_numeric(count, stray):
            if missing == "error":
                i = stray[0]
                raise InputError(
                    f"{source}, {where(i)}, column {name!r}: {col[i]!r} is not a number, in a "
                    f"column of {count} numbers ({option} reads numeric columns); fix the "
                    "cell, or use --missing mode or --missing value to read it as missing"
                )
            fixed = list(col)
            for i in stray:
                fixed[i] = ""
            out[j] = fixed
            how = (
                "kept apart as a value '?' (--missing value)"
                if missing == "value"
                else "filled like its other missing values (--missing mode)"
            )
            notes.append(
                f"warning: column {name!r} is numeric but for {len(stray)} cell(s) that are "
                f"not numbers ({shown}); {option} reads them as missing values, {how}"
            )
        elif count >= len(stray):
            notes.append(
                f"warning: column {name!r} is not numeric: {len(stray)} of its "
                f"{count + len(stray)} present cells are not numbers ({shown}), so {option} "
                "leaves it nominal (one branch per value)"
            )
    return out, notes


def decimal_commas(header, columns, delimiter: str):
    """Where the field separator is not a comma, the columns whose every present cell is
    a number, some written with a decimal comma (``3,14``): read as numbers, the commas
    made points. Returns the columns and a note naming them (None: none).

    >>> columns, note = decimal_commas(["a", "b"], [["3,5", "1", "?"], ["x", "2,5"]], ";")
    >>> columns
    [['3.5', '1', '?'], ['x', '2,5']]
    >>> note
    "read decimal commas as numbers in column(s) 'a' (3,5 -> 3.5; the separator is semicolon)"
    """
    if delimiter == ",":
        return columns, None
    out = list(columns)
    changed = []
    example = ""
    for j, (name, col) in enumerate(zip(header, columns)):
        fixed = []
        seen = False
        for text in col:
            dot = comma_decimal(text)
            if dot is not None:
                if not seen:
                    first = (text, dot)
                seen = True
                fixed.append(dot)
            elif text in MISSING_MARKERS or parse_number(text) is not None:
                fixed.append(text)
            else:
                break
        else:
            if seen:
                out[j] = fixed
                changed.append(name)
                example = example or f"{first[0]} -> {first[1]}"
    if not changed:
        return columns, None
    return out, (
        f"read decimal commas as numbers in column(s) {', '.join(map(repr, changed))} "
        f"({example}; the separator is {separator_name(delimiter)})"
    )


def check_attributes(source, header, decision, drop, keep) -> None:
    """A table needs at least one attribute besides its decision column."""
    if keep:
        return
    dropped = f" after dropping {', '.join(map(repr, drop))}" if drop else ""
    raise InputError(
        f"{source}: no attribute column{dropped}: the only column is the decision "
        f"{decision!r} (columns: {', '.join(map(repr, header))}). A decision table needs "
        f"attributes to split on; if the file is not comma-separated, name its separator "
        f"with --sep"
    )


def separator_name(sep: str) -> str:
    return _SEP_NAMES.get(sep, repr(sep))


def parse_separator(text: str) -> str:
    """``--sep`` as one character: ``,`` ``;`` ``|``, ``tab`` or ``\\t`` for a tab, ..."""
    names = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|", "space": " "}
    sep = names.get(text.lower(), text) if len(text) != 1 else text
    if len(sep) != 1 or sep in '"\r\n':
        raise InputError(
            f"--sep {text!r}: expected one character (e.g. ';', '|', or tab as 'tab' or '\\t')"
        )
    return sep


def _fields(line: str, sep: str) -> int:
    try:
        return len(next(csv.reader([line], delimiter=sep)))
    except (csv.Error, StopIteration):
        return 0


def detect_separator(text: str, source: str, sep: str | None = None) -> tuple[str, str | None]:
    """The field separator of a CSV file's text, and a report line when it is not a comma.

    With ``sep`` given, the header must have more than one column with it. Otherwise the
    candidates ``,`` ``;`` tab ``|`` are tried on the first lines: the comma when it splits
    the header, else the candidate giving every sampled line the same number of fields, the
    most of them (a ``;`` file whose numbers have decimal commas is read with ``;``).

    Raises
    ------
    InputError
        When the header has a single column (whatever the separator), naming the likely
        separator when one splits the header.
    """
    sample = [ln for ln in text.splitlines()[:200] if ln.strip()][:50]
    if not sample:
        return sep or ",", None
    head = sample[0]
    if sep is not None:
        if _fields(head, sep) > 1:
            return sep, None
        other = [c for c in SEPARATORS if c != sep and _fields(head, c) > 1]
        hint = (
            f"; it looks {separator_name(other[0])}-separated (--sep "
            f"{'tab' if other[0] == chr(9) else other[0]!r})"
            if other
            else ""
        )
        raise InputError(
            f"{source}, line 1: the header has a single column with the separator "
            f"{separator_name(sep)} ({head[:60]!r}){hint}"
        )
    counts = {c: [_fields(ln, c) for ln in sample] for c in SEPARATORS}
    if counts[","][0] > 1:
        return ",", None
    regular = [c for c in SEPARATORS if counts[c][0] > 1 and len(set(counts[c])) == 1]
    split = regular or [c for c in SEPARATORS if counts[c][0] > 1]
    if not split:
        raise InputError(
            f"{source}, line 1: the header has a single column ({head[:60]!r}); a decision "
            f"table needs attribute columns and a decision column, separated by a comma (or "
            f"; tab |, detected). Name another separator with --sep"
        )
    best = max(split, key=lambda c: (counts[c][0], -SEPARATORS.index(c)))
    return best, (
        f"read as {separator_name(best)}-separated ({counts[best][0]} columns; detected from "
        f"the header, --sep to choose)"
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
    ordered=None,
    filled=None,
    fills=None,
):
    ordered = {a: o for a, o in (ordered or {}).items() if a in attributes}
    fills = {a: f for a, f in (fills or {}).items() if a in attributes}
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

    unlabeled = [i for i, d in enumerate(decision) if d in MISSING_MARKERS]
    if unlabeled:
        shown = ", ".join(where(i) for i in unlabeled[:5])
        shown += ", ..." if len(unlabeled) > 5 else ""
        raise InputError(
            f"{source}: {len(unlabeled):,} of {n:,} row(s) have no decision (a missing value "
            f"in the decision column {decision_name!r}: {shown}); every row needs one. Fill "
            "them in, or give --drop-unlabeled to leave those rows out"
        )

    medians = {a: f for a, f in (filled or {}).items() if a in attributes}
    filled = {}
    columns = [list(c) for c in columns]
    for j, col in enumerate(columns):
        holes = (
            []
            if MISSING_MARKERS.isdisjoint(col)
            else [i for i, v in enumerate(col) if v in MISSING_MARKERS]
        )
        attribute = attributes[j]
        if attribute not in fills and attribute not in ordered and missing != "error":
            # What a missing value reads as at prediction, holes in training or not.
            present = Counter(v for v in col if v not in MISSING_MARKERS)
            if missing == "value":
                fills[attribute] = MISSING_LABEL
            elif present:
                fills[attribute] = _most_common(present)
        if not holes:
            continue
        if missing == "error":
            i = holes[0]
            raise InputError(
                f"{source}, {where(i)}, column {attributes[j]!r}: missing value {col[i]!r} "
                f"({len(holes)} in this column); "
                "use --missing mode or --missing value to accept them"
            )
        if missing == "value" and attributes[j] in ordered:
            raise InputError(
                f"{source}, {where(holes[0])}, column {attributes[j]!r}: missing value "
                f"{col[holes[0]]!r} ({len(holes)} in this column) in a numeric column split by "
                "thresholds; --missing value keeps a missing value as a value of its own, "
                "which a threshold cannot order: use --missing mode (the column's median) "
                "or fill the column in"
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
        attr = ordered.get(attributes[j])
        filled[attributes[j]] = (len(holes), fill if attr is None else attr.labels()[int(fill)])

    rows_read = n
    merged = conflicting = outvoted = 0
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
                best = max(counts.values())
                if len(counts) > 1:
                    conflicting += 1
                    outvoted += len(members) - best
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
        attr = ordered.get(attributes[j])
        if attr is not None:  # the cells are the interval codes
            codes[j] = np.array(col, dtype=np.int32)
            values.append(attr.labels())
            continue
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
        outvoted_rows=outvoted,
        filled={**medians, **filled},
        medians=tuple(medians),
        dropped=tuple(dropped),
        notes=tuple(notes),
        duplicates=duplicates,
    )
    table = DecisionTable(
        name=name,
        attributes=tuple(attributes),
        decision_name=decision_name,
        values=tuple(values),
        codes=codes,
        decision_values=tuple(dec_order),
        decisions=dec_codes,
        report=report,
        ordered=ordered,
        fills=fills,
    )
    return with_kept_duplicates(table) if duplicates == "keep" else table


def with_kept_duplicates(table: DecisionTable) -> DecisionTable:
    """``table`` with its report counting the rows it kept that equal an earlier row on
    every attribute (under ``duplicates="keep"``: every count is of the rows read, and the
    summary says so; :func:`dagger_cli.data.report.equal_rows`)."""
    from .report import equal_rows

    report = table.report
    equal, conflicting, unavoidable = equal_rows(table.codes, table.decisions)
    if not equal:
        return replace(table, report=replace(report, duplicates="keep"))
    kept = replace(
        report,
        duplicates="keep",
        equal_rows=equal,
        conflicting_groups=conflicting,
        unavoidable_rows=unavoidable,
    )
    return replace(table, report=kept)


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
