"""Cell values as dagger compares them: strings, missing markers, numbers, value order.

The one home of the value parsing shared by the table builder (:mod:`dagger_cli.data.table`), the
discretizer (:mod:`dagger_cli.data.discretize`) and tree evaluation (:mod:`dagger_cli.trees`), so
none of them imports another for it and the rules cannot drift apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

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
