"""Equal-frequency discretization of numeric columns, for users' CSV files.

The engines work on discrete attributes, where every distinct value is a branch; a continuous
column with hundreds of distinct values makes huge DAGs and trees that memorize the data.
:func:`wide_columns` finds such columns (so the CLI can suggest ``--bins``), and
:func:`discretize` replaces each numeric column that has more than ``bins`` distinct values by
interval labels such as ``[1.5, 3.2)``.

Both are pure functions over a header and column-major lists of strings, the form
:func:`dagger_cli.data.table.parse_csv_text` returns; missing markers
(:data:`dagger_cli.values.MISSING_MARKERS`) are neither numbers nor values and stay as they are.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from ..errors import InputError
from ..values import MISSING_MARKERS, parse_number, present_numbers

#: A numeric column with more distinct values than this is reported by :func:`wide_columns`.
WIDE_THRESHOLD = 20
#: Labels use this many significant digits, more only where two cut points would look equal.
LABEL_DIGITS = 6


def _number(text: str) -> float | None:
    value = parse_number(text)
    # inf cannot bound an interval label; such a column is treated as nominal.
    return value if value is not None and math.isfinite(value) else None


def numeric_values(column: Sequence[str]) -> list[float] | None:
    """The numbers of a column without its missing values, or None if it is not numeric.

    A column is numeric when it has at least one present value and every present value parses
    as a finite number.

    >>> numeric_values(["1", "?", "2.5"])
    [1.0, 2.5]
    >>> numeric_values(["1", "x"]) is None
    True
    """
    numbers = present_numbers(column)
    return None if numbers is None else numbers.tolist()


def cut_points(values: Sequence[float], bins: int) -> list[float]:
    """Lower bounds of up to ``bins`` equal-frequency intervals over ``values``.

    The ``k``-th cut ideally falls after ``k * n / bins`` of the sorted values. Equal values
    must share an interval, so each cut moves to the nearest place where the value changes
    (the earlier one on a tie); cuts that land on the same place merge, so there may be fewer
    intervals than ``bins``. The first bound is the minimum; every bound is a data value.

    >>> cut_points([1, 2, 3, 4, 5, 6, 7, 8], 4)
    [1, 3, 5, 7]
    >>> cut_points([1, 1, 1, 1, 1, 1, 2, 3], 4)   # ties at the minimum: two intervals
    [1, 2]
    """
    xs = sorted(values)
    n = len(xs)
    if n == 0:
        return []
    # Positions where a new distinct value starts: the only places a cut may go.
    starts = [i for i in range(1, n) if xs[i - 1] < xs[i]]
    chosen = set()
    for k in range(1, bins):
        if not starts:
            break
        ideal = k * n / bins
        j = bisect_left(starts, ideal)
        candidates = [starts[i] for i in (j - 1, j) if 0 <= i < len(starts)]
        chosen.add(min(candidates, key=lambda c: (abs(c - ideal), c)))
    return [xs[0]] + [xs[c] for c in sorted(chosen)]


def _format_edges(edges: Sequence[float]) -> list[str]:
    """Format with LABEL_DIGITS significant digits, or more if distinct edges would collide."""
    distinct = sorted(set(edges))
    for digits in range(LABEL_DIGITS, 18):
        # "+ 0.0" turns -0.0 into 0.0, so a label never reads "-0".
        text = {e: format(e + 0.0, f".{digits}g") for e in distinct}
        if len(set(text.values())) == len(distinct):
            break
    return [text[e] for e in edges]


def interval_labels(bounds: Sequence[float], maximum: float) -> list[str]:
    """Labels of the intervals starting at ``bounds``; the last one is closed at ``maximum``.

    >>> interval_labels([1.5, 3.2], 7.0)
    ['[1.5, 3.2)', '[3.2, 7]']
    """
    text = _format_edges(list(bounds) + [maximum])
    labels = [f"[{text[i]}, {text[i + 1]})" for i in range(len(bounds) - 1)]
    labels.append(f"[{text[len(bounds) - 1]}, {text[-1]}]")
    return labels


def discretize(
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    bins: int,
    skip: Sequence[str] = (),
) -> tuple[list[list[str]], list[str]]:
    """Replace each numeric column with more than ``bins`` distinct values by interval labels.

    Parameters
    ----------
    header : sequence of str
        Column names.
    columns : sequence of sequence of str
        Column-major values (``columns[j][i]`` is row ``i`` of column ``header[j]``).
    bins : int
        Number of equal-frequency intervals per column, at least 2. Ties can make fewer
        (see :func:`cut_points`).
    skip : sequence of str
        Columns never touched, typically the decision column.

    Returns
    -------
    columns : list of list of str
        New columns; untouched ones are copies of the input. The input is not modified.
    notes : list of str
        One line per discretized column, for the user (stderr).

    Raises
    ------
    InputError
        If ``bins`` is less than 2 or the lengths of ``header`` and ``columns`` differ.

    Examples
    --------
    >>> cols, notes = discretize(["x", "d"], [["1", "2", "?", "3", "4"], list("aabbb")], 2,
    ...                          skip=["d"])
    >>> cols[0]
    ['[1, 3)', '[1, 3)', '?', '[3, 4]', '[3, 4]']
    >>> notes
    ["'x': 4 distinct numbers -> 2 equal-frequency bins"]
    """
    if isinstance(bins, bool) or not isinstance(bins, int) or bins < 2:
        raise InputError(f"the number of bins must be an integer of at least 2, got {bins!r}")
    if len(header) != len(columns):
        raise InputError(f"{len(header)} column names for {len(columns)} columns")
    skipped = set(skip)
    out, notes = [], []
    for name, column in zip(header, columns):
        numbers = None if name in skipped else numeric_values(column)
        if numbers is None or len(set(numbers)) <= bins:
            out.append(list(column))
            continue
        distinct = len(set(numbers))
        bounds = cut_points(numbers, bins)
        labels = interval_labels(bounds, max(numbers))
        new = []
        for text in column:
            if text in MISSING_MARKERS:
                new.append(text)
            else:
                # The value's interval is the last one whose lower bound it reaches.
                new.append(labels[bisect_right(bounds, float(text)) - 1])
        out.append(new)
        fewer = "" if len(bounds) == bins else f" (not {bins}: equal values share a bin)"
        notes.append(
            f"{name!r}: {distinct} distinct numbers -> {len(bounds)} equal-frequency bins{fewer}"
        )
    return out, notes


def wide_columns(
    header: Sequence[str],
    columns: Sequence[Sequence[str]],
    threshold: int = WIDE_THRESHOLD,
    skip: Sequence[str] = (),
) -> list[tuple[str, int]]:
    """Numeric columns with more than ``threshold`` distinct values, as ``(name, count)``.

    The rule is deliberately the count alone, not a share of the rows: the size of the DAG of
    subtables and the branching of trees grow with the number of distinct values, whatever the
    number of rows, so 50 distinct ages in 10 000 rows deserve ``--bins`` as much as 50 in 60.
    Non-numeric columns are never reported: their values are categories the user chose.

    >>> wide_columns(["age", "d"], [[str(i) for i in range(30)], ["y"] * 30])
    [('age', 30)]
    """
    skipped = set(skip)
    out = []
    for name, column in zip(header, columns):
        if name in skipped:
            continue
        numbers = numeric_values(column)
        if numbers is not None:
            distinct = len(set(numbers))
            if distinct > threshold:
                out.append((name, distinct))
    return out
