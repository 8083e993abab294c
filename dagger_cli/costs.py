"""The cost algebra of decision trees.

Every cost ``c`` dagger knows is computed bottom-up over a tree by the same rule:

* a leaf of a subtable with ``n`` rows, ``mis`` of which are not of its most common
  decision, costs ``leaf_const + leaf_mis * mis``;
* a split node of a subtable with ``n`` rows costs
  ``split_const + split_rows * n + COMBINE(costs of its children)``, where
  ``COMBINE`` is ``max`` or ``sum``.

A leaf may also read its decision: against a positive class, deciding it makes the leaf's
other rows false positives, deciding another class makes its positive rows false negatives
(``leaf_fp * FP + leaf_fn * FN``). Such a leaf has a choice of two decisions, the positive
class and the heaviest other one, so its front has up to two points (the engines read
them per subtable, :meth:`dagger_cli.weights.Weighting.decision_leaves`); with weights, ``n``
and the counts are the rows' weights (:mod:`dagger_cli.weights`).

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
    #: a leaf's false positives / false negatives against a positive class, times these
    leaf_fp: int = 0
    leaf_fn: int = 0

    @property
    def reads_decision(self) -> bool:
        """Whether a leaf's cost depends on which decision it takes (false positives or
        negatives): such a cost needs a positive class, and a leaf has two points."""
        return bool(self.leaf_fp or self.leaf_fn)

    @property
    def reads_errors(self) -> bool:
        """Whether a leaf's cost reads its wrong rows (misclassifications, false positives
        or negatives): such a cost carries the infeasible price of a leaf smaller than a
        minimum leaf size (:attr:`dagger_cli.weights.Weighting.infeasible`)."""
        return bool(self.leaf_mis or self.reads_decision)

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
        Cost(
            "false-positives",
            "false_positives",
            "False positives",
            SUM,
            0,
            0,
            0,
            0,
            "rows not of the positive class in leaves deciding it (--positive)",
            leaf_fp=1,
        ),
        Cost(
            "false-negatives",
            "false_negatives",
            "False negatives",
            SUM,
            0,
            0,
            0,
            0,
            "rows of the positive class in leaves deciding another class (--positive)",
            leaf_fn=1,
        ),
    )
}
#: The costs every tree of every table has (the others need a positive class).
ROW_COSTS = tuple(name for name, c in COSTS.items() if not c.reads_decision)
#: False positives against false negatives (either way round): the pair of the trees' ROC
#: front, whose leaves take a choice of decision.
ROC = frozenset({"false-positives", "false-negatives"})

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

    >>> [c.name for c in summary_costs()][:5]
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
        if values.get(c.name) is None:
            continue
        v = values[c.name]
        out[c.column] = v
        if c.mean_column is not None:
            out[c.mean_column] = v / n_rows if n_rows else 0.0
    return out


def evaluate(cost: Cost, node) -> int | None:
    """``cost`` of a tree, bottom-up by the cost's rule (None for a cost that reads the
    leaves' decisions when the tree has no positive class: its leaves' ``fp`` are None).

    ``node`` is any tree node with ``is_leaf``, ``rows`` (its rows, or their weight),
    ``mis`` (what its leaf misclassifies: rows, weight or price), ``fp`` and ``fn`` (its
    leaf's false positives and negatives, or None) and ``children`` (pairs ``(value,
    child)``), as :class:`dagger_cli.trees.TreeNode`.
    """
    if node.is_leaf:
        value = cost.leaf(node.mis)
        if cost.reads_decision:
            if node.fp is None:
                return None
            value += cost.leaf_fp * node.fp + cost.leaf_fn * node.fn
        return value
    kids = [evaluate(cost, c) for _, c in node.children]
    known = [k for k in kids if k is not None]
    if len(known) < len(kids):
        return None
    return cost.split(node.rows, known)
