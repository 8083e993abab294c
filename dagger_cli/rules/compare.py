"""The rules of a tree's leaves against each row's Pareto-optimal rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError

#: No such rule (a row without a rule within the bounds, or no front point qualifies).
NONE = -1


@dataclass(eq=False)
class TreeComparison:
    """Per row: the tree's rule (the path its row follows, as a conjunction) and the
    row's best rules of :func:`dagger_cli.rules.rules` (a length vs coverage front).

    Arrays, one entry per row of the table (:data:`NONE`, -1, where undefined):

    - ``tree_length``, ``tree_coverage``, ``tree_misclassifications``: the tree's rule
      for the row (the leaf's depth, its rows, those of them not of the row's decision);
    - ``shortest``, ``most_coverage``: the row's least length and most coverage of a
      rule (the ends of its front);
    - ``length_at_coverage``: the least length of a rule of the row covering at least as
      many rows as the tree's; ``coverage_at_length``: the most coverage of a rule no
      longer than the tree's;
    - ``optimal``: the tree's rule obeys the front's bound on misclassifications and no
      rule of the row is as short and as covering, one of the two strictly.
    """

    rules: Any
    tree_length: np.ndarray
    tree_coverage: np.ndarray
    tree_misclassifications: np.ndarray
    shortest: np.ndarray
    most_coverage: np.ndarray
    length_at_coverage: np.ndarray
    coverage_at_length: np.ndarray
    optimal: np.ndarray

    def summary(self) -> dict:
        """Averages over the rows that have a rule (``rows``) and whose tree rule is within
        the fronts' bound on misclassifications (``within_bound``): a tree rule past the
        bound is no rule of the fronts, so it is not compared with them."""
        has = self.shortest != NONE
        n = int(has.sum())
        bound = self.rules.max_misclassifications
        within = has & (
            self.tree_misclassifications <= (bound if bound is not None else np.iinfo(np.int64).max)
        )

        def avg(a, mask=within):
            return float(a[mask].mean()) if mask.any() else None

        lac = within & (self.length_at_coverage != NONE)
        cal = within & (self.coverage_at_length != NONE)
        return {
            "rows": n,
            "tree_length": avg(self.tree_length),
            "shortest_length": avg(self.shortest),
            "tree_coverage": avg(self.tree_coverage),
            "most_coverage": avg(self.most_coverage),
            "tree_misclassifications": avg(self.tree_misclassifications),
            "within_bound": int(within.sum()),
            "pareto_optimal": int((within & self.optimal).sum()),
            "length_saved": avg(self.tree_length - self.length_at_coverage, lac),
            "coverage_gained": avg(self.coverage_at_length - self.tree_coverage, cal),
        }


def tree_rules(tree, table) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row of ``table``: the length, coverage and misclassifications of the rule
    the tree's path for that row makes (its conditions, then the row's decision)."""
    index = {a: j for j, a in enumerate(table.attributes)}
    n = table.n_rows
    length = np.zeros(n, np.int64)
    coverage = np.zeros(n, np.int64)
    mis = np.zeros(n, np.int64)
    if tuple(tree.decision_values) != tuple(table.decision_values):
        raise InputError(
            "the tree was made for another table: its decisions are "
            f"{list(tree.decision_values)}, the table's {list(table.decision_values)}"
        )
    for r in range(n):
        node, depth = tree.root, 0
        while not node.is_leaf:
            a = index.get(node.attribute)
            if a is None:
                raise InputError(
                    f"the tree splits on {node.attribute!r}, which is no attribute of the table"
                )
            value = table.values[a][int(table.codes[a, r])]
            child = dict(node.children).get(value)
            if child is None:
                raise InputError(
                    f"row {r}: the tree has no branch {node.attribute}={value}; "
                    "it was made for another table"
                )
            node, depth = child, depth + 1
        length[r] = depth
        coverage[r] = node.rows
        mis[r] = node.rows - node.counts[int(table.decisions[r])]
    return length, coverage, mis


def compare_tree(tree, rules) -> TreeComparison:
    """Compare the rules of ``tree``'s leaves with the optimal rules of ``rules``.

    Parameters
    ----------
    tree : dagger_cli.trees.Tree
        A tree for ``rules.table`` (e.g. from :func:`dagger_cli.extract_tree`).
    rules : RuleFronts
        Rule fronts of length vs coverage (either order), e.g. ``dagger_cli.rules(table)``.

    Returns
    -------
    TreeComparison
    """
    if {rules.x, rules.y} != {"length", "coverage"}:
        raise InputError(
            f"comparing a tree needs rule fronts of length vs coverage, not {rules.x} vs {rules.y}"
        )
    table = rules.table
    length, coverage, mis = tree_rules(tree, table)
    n = table.n_rows
    out = {
        k: np.full(n, NONE, np.int64)
        for k in ("shortest", "most_coverage", "length_at_coverage", "coverage_at_length")
    }
    optimal = np.zeros(n, bool)
    bound = rules.max_misclassifications
    for r in range(n):
        a, b = int(rules.front_start[r]), int(rules.front_start[r + 1])
        if a == b:
            continue
        lens = rules.point_length[a:b].astype(np.int64)
        covs = rules.point_coverage[a:b].astype(np.int64)
        out["shortest"][r] = lens.min()
        out["most_coverage"][r] = covs.max()
        ok = covs >= coverage[r]
        if ok.any():
            out["length_at_coverage"][r] = lens[ok].min()
        ok = lens <= length[r]
        if ok.any():
            out["coverage_at_length"][r] = covs[ok].max()
        dominated = ((lens <= length[r]) & (covs >= coverage[r])) & (
            (lens < length[r]) | (covs > coverage[r])
        )
        optimal[r] = (bound is None or mis[r] <= bound) and not dominated.any()
    return TreeComparison(rules, length, coverage, mis, optimal=optimal, **out)
