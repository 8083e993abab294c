"""The cost algebra of decision trees.

Every cost ``c`` dagger knows is computed bottom-up over a tree by the same rule:

* a leaf of a subtable with ``n`` rows, ``mis`` of which are not of its most common
  decision, costs ``leaf_const + leaf_mis * mis``;
* a split node of a subtable with ``n`` rows costs
  ``split_const + split_rows * n + COMBINE(costs of its children)``, where
  ``COMBINE`` is ``max`` or ``sum``.

Both rules are monotone in the children's costs, so keeping only the Pareto-optimal
points of every subtable is exact (a dominated child point can only give a dominated
parent point). A new cost is one :class:`Cost` entry in :data:`COSTS`: the engines, tree
evaluation (:func:`evaluate`), the greedy sweeps, the outputs and the plots all derive what
they need from these entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
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
    #: the column of this cost divided by the table's rows, written next to it (or None)
    mean_column: str | None = None
    #: axis label of that per-row mean
    mean_label: str | None = None

    def params(self) -> tuple[int, int, int, int, int]:
        """The five integers the kernels need."""
        return (self.combine, self.leaf_const, self.leaf_mis, self.split_const, self.split_rows)

    def leaf(self, mis: int) -> int:
        """The cost of a leaf whose subtable has ``mis`` rows not of its decision."""
        return self.leaf_const + self.leaf_mis * mis

    def split(self, n: int, children: Iterable[int]) -> int:
        """The cost of a split node of a subtable with ``n`` rows, from its children's costs.

        >>> COSTS["depth"].split(5, [0, 2]), COSTS["total-path-length"].split(5, [0, 2])
        (3, 7)
        """
        kids = list(children)
        combined = (max(kids) if kids else 0) if self.combine == MAX else sum(kids)
        return self.split_const + self.split_rows * n + combined


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
            mean_column="average_depth",
            mean_label="Average depth",
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


def summary_costs(x: str = DEFAULT_X, y: str = DEFAULT_Y) -> list[Cost]:
    """Every cost, the pair ``x``, ``y`` first and then the others in :data:`COSTS` order.

    The order of the costs in summaries (a tree's costs in JSON and text, the CLI's line).

    >>> [c.name for c in summary_costs()]
    ['total-path-length', 'misclassifications', 'depth', 'nodes', 'leaves']
    """
    first = [get_cost(x), get_cost(y)]
    return first + [c for c in COSTS.values() if c not in first]


def cost_record(values: Mapping[str, int], n_rows: int, x: str = DEFAULT_X, y: str = DEFAULT_Y):
    """``{column: value}`` for the costs in ``values`` (by name), in :func:`summary_costs`
    order, each per-row mean (average depth) next to its cost (0.0 for a table without rows).

    >>> cost_record({"misclassifications": 1, "total-path-length": 6}, 4)
    {'total_path_length': 6, 'average_depth': 1.5, 'misclassifications': 1}
    """
    out: dict[str, int | float] = {}
    for c in summary_costs(x, y):
        if c.name not in values:
            continue
        v = values[c.name]
        out[c.column] = v
        if c.mean_column is not None:
            out[c.mean_column] = v / n_rows if n_rows else 0.0
    return out


def evaluate(cost: Cost, node) -> int:
    """``cost`` of a tree, bottom-up by the cost's rule.

    ``node`` is any tree node with ``is_leaf``, ``rows`` (its rows, or their weight),
    ``mis`` (what its leaf misclassifies: rows, weight or price) and ``children`` (pairs
    ``(value, child)``), as :class:`dagger_cli.trees.TreeNode`.
    """
    if node.is_leaf:
        return cost.leaf(node.mis)
    return cost.split(node.rows, [evaluate(cost, c) for _, c in node.children])
