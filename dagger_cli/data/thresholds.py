"""Numeric columns split by thresholds: one ordered attribute per column, or binary
attributes ``col<=t``.

The engines split a subtable on every value of an attribute. A numeric column with hundreds of
distinct values, taken as nominal, gives splits with hundreds of branches that memorize the
data; ``--bins K`` (:mod:`dagger_cli.data.discretize`) cuts it into K multiway intervals. Threshold
splits are the other classic answer, the one CART and every optimal-tree peer use: the column
becomes binary attributes ``col<=t`` (value ``yes`` when the number is at most ``t``, else
``no``), one per candidate threshold ``t``, and a tree tests ``age <= 37.5`` / ``age > 37.5``.

Candidates (:func:`candidate_thresholds`):

``"all"``
    Every midpoint between two consecutive distinct values of the column. Any binary split of
    the rows by ``value <= t`` equals the split at one of these, so an exact tree over them is
    at least as good on the training rows as any tree of threshold splits of the same shape
    (CART's included).
``K``
    At most K of those midpoints per column, at the quantiles ``k / (K + 1)`` of the rows
    (the midpoint whose split leaves closest to ``k·n / (K + 1)`` rows at or below it).

A midpoint is written with the fewest significant digits that move it by less than a
thousandth of the gap between its two values (``37.5``, ``0.15``, not
``0.15000000000000002``); that changes no split of the training rows.

The choice is deterministic (no randomness, ties to the smaller candidate).

A prepared table keeps such a column as **one ordered attribute** (:class:`Ordered`, made by
:func:`ordered_columns`): its codes 0..K are the intervals between its K thresholds, and a
split ``code <= j`` is the test ``col <= t_j``; the ``ordered`` solver sweeps them. The
engines that know only nominal attributes see the same column as K binary attributes
``col<=t`` (:func:`threshold_columns`, :meth:`dagger_cli.data.table.DecisionTable.binarized`):
the same trees. Every binary test is recorded as a :class:`Threshold` (column, threshold),
so trees print the original column (:class:`dagger_cli.trees.Tree`) and predict on raw
numbers. Missing values stay missing in
every binary attribute of their column and get the table's missing-value policy: under
``mode`` the filled values are consistent (``yes`` exactly from the column's median on).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import InputError
from ..values import MISSING_MARKERS, ColumnNumbers, parse_number, present_numbers

#: Value of ``col<=t`` when the number is at most t, and when it is larger.
YES = "yes"
NO = "no"
#: The gap fraction a written threshold may move away from the exact midpoint.
ROUNDING = 1e-3


@dataclass(frozen=True)
class Threshold:
    """The binary attribute ``column <= threshold`` made from a numeric column."""

    column: str
    threshold: float

    @property
    def text(self) -> str:
        """The threshold as written in names and trees (``37.5``, ``3``)."""
        return format_threshold(self.threshold)

    @property
    def name(self) -> str:
        """The attribute's name, e.g. ``age<=37.5``."""
        return f"{self.column}<={self.text}"

    def branch(self, value: str) -> str:
        """The condition of the branch with attribute value ``value``: ``age <= 37.5``."""
        op = "<=" if value == YES else ">"
        return f"{self.column} {op} {self.text}"

    def value_of(self, text: str) -> str | None:
        """The attribute's value for a raw cell (None if the cell is not a number)."""
        number = parse_number(text) if isinstance(text, str) else _float(text)
        if number is None:
            return None
        return YES if number <= self.threshold else NO


@dataclass(frozen=True)
class Ordered:
    """A numeric column as one ordered attribute: code k is the interval
    ``(t_{k-1}, t_k]`` between consecutive thresholds (code 0: ``<= t_0``, code K:
    ``> t_{K-1}``), and the split at code j is the test ``column <= t_j``.

    >>> o = Ordered("age", (30.5, 40.0))
    >>> o.labels(), o.codes_of(np.array([20.0, 30.5, 35.0, 50.0])).tolist(), o.split(1).name
    (('<=30.5', '(30.5, 40]', '>40'), [0, 0, 1, 2], 'age<=40')
    """

    column: str
    thresholds: tuple

    def split(self, code: int) -> Threshold:
        """The test ``column <= t`` that sends codes up to ``code`` to its ``<=`` branch."""
        return Threshold(self.column, float(self.thresholds[code]))

    def test_named(self, name: str) -> Threshold | None:
        """The test of one of this attribute's thresholds by its name (``age<=40``), or
        None.

        >>> Ordered("age", (30.5, 40.0)).test_named("age<=40")
        Threshold(column='age', threshold=40.0)
        """
        prefix = f"{self.column}<="
        if not name.startswith(prefix):
            return None
        try:
            t = float(name[len(prefix) :])
        except ValueError:
            return None
        j = int(np.searchsorted(np.asarray(self.thresholds, dtype=np.float64), t))
        if j < len(self.thresholds) and self.split(j).name == name:
            return self.split(j)
        return None

    def labels(self) -> IntervalLabels:
        """A label per code (its interval), for outputs: written when read, since a long
        column has a hundred thousand and most are never shown."""
        return IntervalLabels(self.thresholds)

    def codes_of(self, numbers: np.ndarray) -> np.ndarray:
        """The code of each number (the number of thresholds below it)."""
        cuts = np.asarray(self.thresholds, dtype=np.float64)
        return np.searchsorted(cuts, np.asarray(numbers, dtype=np.float64), side="left")


class IntervalLabels(Sequence[str]):
    """The labels of an ordered attribute's codes, each written when read: ``<=t_0``,
    ``(t_{k-1}, t_k]``, ``>t_{K-1}``. Equal to (and compares as) the tuple of them.

    >>> labels = IntervalLabels((30.5, 40.0))
    >>> len(labels), labels[1], labels[-1], labels[:2], labels == ('<=30.5', '(30.5, 40]', '>40')
    (3, '(30.5, 40]', '>40', ('<=30.5', '(30.5, 40]'), True)
    """

    __slots__ = ("_thresholds",)

    def __init__(self, thresholds: Sequence[float]) -> None:
        self._thresholds = tuple(thresholds)

    def __len__(self) -> int:
        return len(self._thresholds) + 1

    def __getitem__(self, k):
        if isinstance(k, slice):
            return tuple(self[j] for j in range(*k.indices(len(self))))
        n = len(self)
        j = int(k) + n if k < 0 else int(k)
        if not 0 <= j < n:
            raise IndexError(f"code {k} out of range for {n} intervals")
        ts = self._thresholds
        if j == 0:
            return f"<={format_threshold(ts[0])}"
        if j == n - 1:
            return f">{format_threshold(ts[-1])}"
        return f"({format_threshold(ts[j - 1])}, {format_threshold(ts[j])}]"

    def __eq__(self, other) -> bool:
        if isinstance(other, IntervalLabels):
            return self._thresholds == other._thresholds
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == len(self) and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):
        return IntervalLabels, (self._thresholds,)


def ordered_columns(
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    spec,
    skip: Sequence[str] = (),
    weights: Sequence[float] | None = None,
    numbers: ColumnNumbers | None = None,
) -> tuple[list[list[str]], dict[str, Ordered], list[str]]:
    """Turn each numeric column with at least two distinct values into an ordered attribute
    (at most K thresholds at the quantiles of its rows, or of their ``weights``; ``numbers``
    where the columns' numbers are read once for all the builder's checks).

    Returns the columns with such a column's numbers replaced by their codes as text
    (missing markers kept, for the table's missing-value policy), ``{column: Ordered}``,
    and one note per converted column.

    >>> cols, ordered, notes = ordered_columns(["x", "d"], [["1", "3", "?"], list("aab")],
    ...                                        "all", skip=["d"])
    >>> cols[0], ordered["x"]
    (['0', '1', '?'], Ordered(column='x', thresholds=(2.0,)))
    >>> notes
    ["'x': 2 distinct numbers -> 1 threshold(s)"]
    """
    spec = parse_spec(spec)
    skipped = set(skip)
    out: list[list[str]] = []
    ordered: dict[str, Ordered] = {}
    notes = []
    for name, column in zip(header, columns):
        read = None if name in skipped or spec is None else (numbers or present_numbers)(column)
        ts = []
        if read is not None:
            w = None
            if weights is not None:
                w = [x for x, v in zip(weights, column) if v not in MISSING_MARKERS]
            ts = candidate_thresholds(read, spec, w)
        if read is None or not ts:
            out.append(list(column))
            continue
        attr = Ordered(name, tuple(ts))
        codes = map(str, attr.codes_of(read).tolist())  # the present cells', in order
        if len(read) == len(column):  # nothing missing
            cells = list(codes)
        else:
            cells = list(column)
            present = [i for i, v in enumerate(column) if v not in MISSING_MARKERS]
            for i, c in zip(present, codes):
                cells[i] = c
        out.append(cells)
        ordered[name] = attr
        distinct = np.unique(read).size
        notes.append(f"{name!r}: {distinct} distinct numbers -> {len(ts)} threshold(s)")
    return out, ordered, notes


def binary_codes(attr: Ordered, codes: np.ndarray) -> tuple[list[str], np.ndarray]:
    """An ordered attribute's binary attributes: their names and, per threshold, the codes
    of ``col<=t`` (1: ``yes``, the row's number is at most t; value order ``(no, yes)``)."""
    K = len(attr.thresholds)
    names = [attr.split(j).name for j in range(K)]
    out = (codes[None, :] <= np.arange(K, dtype=codes.dtype)[:, None]).astype(np.int32)
    return names, out


def _float(value) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def format_threshold(t: float) -> str:
    """Shortest text that reads back as ``t``; integers without ``.0``.

    >>> format_threshold(37.5), format_threshold(3.0), format_threshold(-0.0)
    ('37.5', '3', '0')
    """
    t = float(t) + 0.0
    if t.is_integer() and abs(t) < 1e15:
        return str(int(t))
    return repr(t)


def parse_spec(spec) -> str | int | None:
    """``None``, ``"all"`` or a positive integer K (also as text, from the command line).

    >>> parse_spec("all"), parse_spec("16"), parse_spec(None)
    ('all', 16, None)
    """
    if spec is None or spec == "all":
        return spec
    if isinstance(spec, str) and spec.strip().isdigit():
        spec = int(spec)
    if isinstance(spec, (int, np.integer)) and not isinstance(spec, bool) and spec >= 1:
        return int(spec)
    raise InputError(f"thresholds must be 'all' or a positive integer K, got {spec!r}")


def between(a: float, b: float) -> float:
    """A short number t with a < t < b near their midpoint (see the module docstring).

    >>> between(30, 45), between(0.1, 0.2), between(1, 2)
    (37.5, 0.15, 1.5)
    """
    mid = a / 2 + b / 2
    tolerance = (b - a) * ROUNDING
    for digits in range(1, 18):
        t = float(f"{mid:.{digits}g}")
        if a < t < b and abs(t - mid) <= tolerance:
            return t + 0.0
    # a and b are neighbouring floats: no number lies between them; t = a splits them.
    return mid if a < mid < b else float(a)


def candidate_thresholds(
    values: Sequence[float] | np.ndarray, spec, weights: Sequence[float] | None = None
) -> list[float]:
    """The thresholds of one numeric column (its present values), ascending; at most K
    (``spec``) at the quantiles of its rows, or of their ``weights`` when given (a row of
    weight k counts as k copies of it).

    >>> candidate_thresholds([1, 2, 2, 3, 10], "all")
    [1.5, 2.5, 6.5]
    >>> candidate_thresholds([1, 2, 2, 3, 10], 1)   # the split closest to 5 / 2 rows below
    [2.5]
    >>> candidate_thresholds([4, 4], "all")
    []
    >>> candidate_thresholds([1, 2, 3], 1, weights=[1, 1, 4])  # 3 of 6 below 2.5
    [2.5]
    """
    spec = parse_spec(spec)
    if spec is None:
        return []
    xs = np.asarray(values, dtype=np.float64)
    distinct, inverse, counts = np.unique(xs, return_inverse=True, return_counts=True)
    n: float = xs.size
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        counts = np.bincount(inverse, weights=w, minlength=distinct.size)
        n = float(w.sum())
    if distinct.size < 2:
        return []
    if spec == "all" or distinct.size - 1 <= spec:
        chosen = np.arange(distinct.size - 1)
    else:
        below = np.cumsum(counts)[:-1]  # rows at or below each candidate split
        picks = {int(np.argmin(np.abs(below - k * n / (spec + 1)))) for k in range(1, spec + 1)}
        chosen = np.array(sorted(picks))
    from .csv import midpoints

    chosen = np.asarray(chosen, dtype=np.int64)
    return midpoints(distinct[chosen], distinct[chosen + 1], ROUNDING)  # between, compiled


def threshold_columns(
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    spec,
    skip: Sequence[str] = (),
) -> tuple[list[str], list[list[str]], dict[str, Threshold], list[str]]:
    """Replace each numeric column with at least two distinct values by threshold attributes.

    Parameters
    ----------
    header : sequence of str
        Column names.
    columns : sequence of sequence of str
        Column-major values, as :func:`dagger_cli.data.table.parse_csv_text` returns them.
    spec : "all" or int
        Which thresholds (see :func:`candidate_thresholds`).
    skip : sequence of str
        Columns never touched (the decision column, dropped columns).

    Returns
    -------
    header : list of str
        The new column names: a numeric column's place is taken by its ``col<=t`` columns,
        thresholds ascending; other columns keep their place.
    columns : list of list of str
        ``yes`` / ``no`` for threshold attributes (missing markers kept), copies otherwise.
    splits : dict
        ``{"col<=t": Threshold(col, t)}`` for every new attribute.
    notes : list of str
        One line per converted column, for the user (stderr).

    Examples
    --------
    >>> h, cols, splits, notes = threshold_columns(["x", "d"], [["1", "3", "?"], list("aab")],
    ...                                            "all", skip=["d"])
    >>> h, cols[0], splits["x<=2"]
    (['x<=2', 'd'], ['yes', 'no', '?'], Threshold(column='x', threshold=2.0))
    """
    spec = parse_spec(spec)
    skipped = set(skip)
    out_header: list[str] = []
    out_columns: list[list[str]] = []
    splits: dict[str, Threshold] = {}
    notes = []
    for name, column in zip(header, columns):
        numbers = None if name in skipped or spec is None else present_numbers(column)
        ts = candidate_thresholds(numbers, spec) if numbers is not None else []
        if numbers is None or not ts:
            out_header.append(name)
            out_columns.append(list(column))
            continue
        parsed = [None if v in MISSING_MARKERS else float(v) for v in column]
        for t in ts:
            split = Threshold(name, t)
            splits[split.name] = split
            out_header.append(split.name)
            out_columns.append(
                [v if x is None else (YES if x <= t else NO) for v, x in zip(column, parsed)]
            )
        distinct = np.unique(numbers).size
        notes.append(f"{name!r}: {distinct} distinct numbers -> {len(ts)} threshold split(s)")
    clash = sorted({h for h in out_header if out_header.count(h) > 1})
    if clash:
        raise InputError(
            f"threshold attribute name(s) {', '.join(map(repr, clash))} equal another "
            "column's name; rename that column"
        )
    return out_header, out_columns, splits, notes


__all__ = [
    "NO",
    "YES",
    "Ordered",
    "Threshold",
    "IntervalLabels",
    "binary_codes",
    "between",
    "candidate_thresholds",
    "format_threshold",
    "ordered_columns",
    "parse_spec",
    "threshold_columns",
]
