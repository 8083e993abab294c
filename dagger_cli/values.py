"""Cell values as dagger compares them: strings, missing markers, numbers, value order.

The one home of the value parsing shared by the table builder (:mod:`dagger_cli.data.table`), the
discretizer (:mod:`dagger_cli.data.discretize`) and tree evaluation (:mod:`dagger_cli.trees`), so
none of them imports another for it and the rules cannot drift apart.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

import numpy as np

#: Cells that mean "no value" (compared after stripping blanks).
MISSING_MARKERS = frozenset({"?", "", "NA", "N/A", "NaN", "nan"})
#: The label a missing value gets under ``missing="value"``.
MISSING_LABEL = "?"


def parse_number(text: str) -> float | None:
    """``text`` as a number (inf included), or None if it is not one (or is NaN).

    >>> parse_number("2.5"), parse_number("-inf"), parse_number("NaN"), parse_number("x")
    (2.5, -inf, None, None)
    """
    try:
        value = float(text)
    except ValueError:
        return None
    return None if math.isnan(value) else value


def finite_numbers(texts: Sequence[str]) -> np.ndarray | None:
    """``texts`` as float64 when every one is a finite number as :func:`parse_number`
    reads it (``float``'s reading, in one compiled pass), else None.

    >>> finite_numbers(["1", " 2.5", "1_000"]).tolist(), finite_numbers(["1", "inf"])
    ([1.0, 2.5, 1000.0], None)
    """
    try:
        out = np.array(texts, dtype=object).astype(np.float64)
    except (ValueError, TypeError, OverflowError):
        return None
    return out if np.isfinite(out).all() else None


#: A number written with a decimal comma: digits, one comma, digits (no point, no sign
#: but a leading one): ``3,14``, ``-0,5``. (``1,000`` is one too: where the separator is
#: not a comma, a comma inside a number is a decimal comma.)
DECIMAL_COMMA = re.compile(r"[+-]?[0-9]+,[0-9]+")


def comma_decimal(text: str) -> str | None:
    """``text`` with its decimal comma made a point, if it is a number written so.

    >>> comma_decimal("3,14"), comma_decimal("-0,5"), comma_decimal("3.14"), comma_decimal("a,b")
    ('3.14', '-0.5', None, None)
    """
    return text.replace(",", ".") if DECIMAL_COMMA.fullmatch(text) else None


#: A column is numeric "but for a few cells" when its cells that are not numbers are at
#: most this share of its present cells (one in twenty).
STRAY_SHARE = 0.05


def present_numbers(cells: Sequence[str]) -> np.ndarray | None:
    """The present cells of a column (missing markers left out) as float64 when there is
    one and every one is a finite number, else None.

    >>> present_numbers(["1", "?", "2.5"]).tolist(), present_numbers(["1", "x"])
    ([1.0, 2.5], None)
    """
    if MISSING_MARKERS.isdisjoint(cells):  # the common case: no copy of the column
        present = cells
    else:
        present = [text for text in cells if text not in MISSING_MARKERS]
    return finite_numbers(present) if len(present) else None


class ColumnNumbers:
    """:func:`present_numbers` of columns, each column read once while this is held (a
    column is known by its identity, and kept so that its identity stays its own): a
    table's builder asks for a numeric column's numbers in three checks, and a column of a
    hundred thousand cells takes 50 ms to read.

    >>> numbers, col = ColumnNumbers(), ["1", "2"]
    >>> numbers(col) is numbers(col), numbers(["x"])
    (True, None)
    """

    def __init__(self) -> None:
        self._read: dict[int, tuple[Sequence[str], np.ndarray | None]] = {}

    def __call__(self, cells: Sequence[str]) -> np.ndarray | None:
        hit = self._read.get(id(cells))
        if hit is None or hit[0] is not cells:
            hit = self._read[id(cells)] = (cells, present_numbers(cells))
        return hit[1]


def numeric_column(
    cells: Sequence[str], numbers: ColumnNumbers | None = None
) -> tuple[int, list[int]]:
    """How many present cells of a column are finite numbers, and the positions of the
    present cells that are not (missing markers are neither). ``numbers``: where a
    column's numbers are read once for all the checks.

    >>> numeric_column(["1", "2.5", "?", "abc", "3"])
    (3, [3])
    """
    read = (numbers or present_numbers)(cells)
    if read is not None:  # the common case, in one pass
        return len(read), []
    count = 0
    stray = []
    for i, text in enumerate(cells):
        if text in MISSING_MARKERS:
            continue
        value = parse_number(text)
        if value is None or math.isinf(value):
            stray.append(i)
        else:
            count += 1
    return count, stray


def mostly_numeric(numbers: int, stray: Sequence[int]) -> bool:
    """Whether a column with ``numbers`` number cells and the ``stray`` other present cells
    is numeric but for a few cells (:data:`STRAY_SHARE`), at least two numbers.

    >>> mostly_numeric(40, [7]), mostly_numeric(10, [7]), mostly_numeric(40, [])
    (True, False, False)
    """
    return numbers >= 2 and 0 < len(stray) <= STRAY_SHARE * (numbers + len(stray))


def value_order(values: Iterable[str]) -> list[str]:
    """Sort distinct string values: numerically if all are numbers, else as strings.

    >>> value_order(["10", "9", "1.5"])
    ['1.5', '9', '10']
    >>> value_order(["b", "a", "10"])
    ['10', 'a', 'b']
    """
    distinct = set(values)
    numbers = {v: parse_number(v) for v in distinct}
    if distinct and all(n is not None for n in numbers.values()):
        return sorted(distinct, key=lambda v: (numbers[v], v))
    return sorted(distinct)


def cell_text(value) -> str:
    """A cell of any Python or numpy type as the string dagger compares.

    None and NaN become the empty string (a missing marker), integral floats lose their
    ``.0`` (so a column pandas read as floats matches the CSV text), anything else is
    ``str`` without surrounding blanks.

    >>> cell_text(3.0), cell_text(float("nan")), cell_text(" a "), cell_text(None)
    ('3', '', 'a', '')
    """
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value).strip()
