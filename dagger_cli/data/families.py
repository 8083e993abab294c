"""Classic families of decision tables (``dagger example``).

``sorting(n)`` is the table of sorting n distinct elements by pairwise comparisons: one
row per order of the elements (n! rows), one attribute ``xi<xj`` per pair i < j (value 1
when the comparison holds, else 0) and the order itself as the decision. Every row has
its own decision, so a tree without misclassification (``--exact-only``) is a comparison
sort; its total path length is the sum over the n! inputs of the comparisons made, which
Knuth tabulates (TAOCP vol. 3, section 5.3.1): 16, 112, 832, 6896, 62416 for n = 3..7.
"""

from __future__ import annotations

import math
from itertools import combinations, permutations

from ..errors import InputError

#: The largest n ``sorting`` accepts: 9! = 362,880 rows is still a table one can write;
#: the DAG of n = 8 already has hundreds of millions of subtables (see the README).
SORTING_MAX = 9


def sorting_header(n: int) -> list[str]:
    """Column names: the comparisons ``xi<xj`` (i < j), then the decision ``order``."""
    return [f"x{i + 1}<x{j + 1}" for i, j in combinations(range(n), 2)] + ["order"]


def sorting_records(n: int) -> list[list[str]]:
    """The rows of :func:`sorting`, orders in lexicographic order of the ranks."""
    _check_n(n)
    pairs = list(combinations(range(n), 2))
    out = []
    for ranks in permutations(range(n)):  # ranks[i]: position of x_{i+1} in sorted order
        cells = ["1" if ranks[i] < ranks[j] else "0" for i, j in pairs]
        order = sorted(range(n), key=ranks.__getitem__)
        cells.append("<".join(f"x{k + 1}" for k in order))
        out.append(cells)
    return out


def sorting_csv(n: int) -> str:
    """The sorting table as CSV text (header line first)."""
    lines = [",".join(sorting_header(n))]
    lines.extend(",".join(r) for r in sorting_records(n))
    return "\n".join(lines) + "\n"


def sorting(n: int):
    """The decision table of sorting ``n`` distinct elements (a :class:`DecisionTable`).

    >>> t = sorting(3)
    >>> t.n_rows, t.n_attributes, t.attributes
    (6, 3, ('x1<x2', 'x1<x3', 'x2<x3'))
    """
    from .recipe import Recipe
    from .table import from_columns

    header = sorting_header(n)
    recs = sorting_records(n)
    columns = [[r[j] for r in recs] for j in range(len(header))]
    return from_columns(
        header,
        columns,
        Recipe(decision="order"),
        name=f"sorting{n}",
        source=f"sorting {n}",
        lines=None,
    )


def _check_n(n: int) -> None:
    if not 2 <= n <= SORTING_MAX:
        raise InputError(
            f"sorting N needs 2 <= N <= {SORTING_MAX} (got {n}): N = {n} would have "
            f"{math.factorial(max(n, 0)):,} rows"
            if n > SORTING_MAX
            else f"sorting N needs 2 <= N <= {SORTING_MAX} (got {n}): nothing to sort"
        )


__all__ = ["sorting", "sorting_csv", "sorting_header", "sorting_records", "SORTING_MAX"]
