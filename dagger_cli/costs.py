"""The cost algebra of decision trees.

Every cost ``c`` dagger knows is computed bottom-up over a tree by the same rule:

* a leaf of a subtable with ``n`` rows, ``mis`` of which are not of its most common
  decision, costs ``leaf_const + leaf_mis * mis``;
* a split node of a subtable with ``n`` rows costs
  ``split_const + split_rows * n + COMBINE(costs of its children)``, where
  ``COMBINE`` is ``max`` or ``sum``.

Both rules are monotone in the children's costs, so keeping only the Pareto-optimal
points of every subtable is exact (a dominated child point can only give a dominated
parent point). A new cost is one :class:`Cost` entry in :data:`COSTS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InputError

SUM, MAX = 0, 1


@dataclass(frozen=True)
class Cost:
    name: str  #: the name on the command line, e.g. ``total-path-length``
    column: str  #: the column name in CSV/JSON output
    label: str  #: axis label for plots
    combine: int  #: SUM or MAX
    leaf_const: int
    leaf_mis: int
    split_const: int
    split_rows: int
    description: str

    def params(self) -> tuple[int, int, int, int, int]:
        """The five integers the kernels need."""
        return (self.combine, self.leaf_const, self.leaf_mis, self.split_const, self.split_rows)


COSTS: dict[str, Cost] = {
    c.name: c
    for c in (
        Cost("depth", "depth", "Depth", MAX, 0, 0, 1, 0, "longest root-to-leaf path (edges)"),
        Cost(
            "total-path-length",
            "total_path_length",
            "Total path length",
            SUM,
            0,
            0,
            0,
            1,
            "sum over rows of the depth of the leaf each row reaches (average depth = this / rows)",
        ),
        Cost(
            "nodes", "nodes", "Number of nodes", SUM, 1, 0, 1, 0, "number of nodes, leaves included"
        ),
        Cost("leaves", "leaves", "Number of leaves", SUM, 1, 0, 0, 0, "number of leaves"),
        Cost(
            "misclassifications",
            "misclassifications",
            "No of misclassifications",
            SUM,
            0,
            1,
            0,
            0,
            "rows whose leaf decision differs from their own decision",
        ),
    )
}

DEFAULT_X = "total-path-length"
DEFAULT_Y = "misclassifications"


def get_cost(name: str) -> Cost:
    key = name.strip().lower().replace("_", "-")
    aliases = {
        "tpl": "total-path-length",
        "lambda": "total-path-length",
        "mu": "misclassifications",
        "misclassification": "misclassifications",
    }
    key = aliases.get(key, key)
    if key not in COSTS:
        raise InputError(f"unknown cost {name!r}; expected one of: {', '.join(COSTS)}")
    return COSTS[key]


def check_pair(x: str, y: str) -> tuple[Cost, Cost]:
    cx, cy = get_cost(x), get_cost(y)
    if cx.name == cy.name:
        raise InputError(f"the two costs must differ (both are {cx.name!r})")
    return cx, cy
