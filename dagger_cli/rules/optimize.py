"""Sequential optimisation of decision rules, every row on its own (as ``dagger
optimize`` does for trees): the least (most, for coverage) value of each cost in turn
among the rules the costs before left."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InputError


@dataclass(frozen=True)
class RuleStage:
    """One stage: ``cost`` and its average over the rows of the rules left after it."""

    cost: str
    average: float

    def as_dict(self) -> dict:
        return {"cost": self.cost, "average": self.average}


@dataclass(eq=False)
class RuleOptimum:
    """Result of :func:`optimize_rules`.

    ``fronts`` are the rule fronts of the first two costs: each row's first point is its
    rule of the order (the third cost is the fronts' tie rule). ``best`` holds, per later
    cost, every row's best value of that cost alone (for total optimality).
    """

    order: tuple
    fronts: Any
    stages: list
    best: dict

    @property
    def table(self):
        return self.fronts.table

    def chosen(self) -> np.ndarray:
        """The point index of each row's rule (rows with a rule only)."""
        f = self.fronts
        return f.front_start[:-1][f.has_rule()]

    def rule(self, row: int):
        """Row ``row``'s rule of the order (None if it has none)."""
        f = self.fronts.front(row)
        return f[0] if f else None

    @property
    def total_optimality(self) -> list[dict]:
        """For each later cost: the rows whose rule also has that cost's best value."""
        out = []
        idx = self.chosen()
        for cost in self.order[1:]:
            final = self.fronts.cost_values(cost)[idx].astype(np.int64)
            out.append(
                {
                    "cost": cost,
                    "rows": int(idx.size),
                    "totally_optimal": int((final == self.best[cost]).sum()),
                }
            )
        return out


def check_order(order, costs) -> tuple:
    """Cost names (a list or ``"a,b"``) -> a tuple of one to three distinct rule costs."""
    if isinstance(order, str):
        order = order.split(",")
    names = tuple(s.strip() for s in order)
    if not names or any(not s for s in names) or len(names) > len(costs):
        raise InputError(
            "--optimize needs one to three rule costs separated by commas, e.g. length,coverage"
        )
    for s in names:
        if s not in costs:
            raise InputError(f"unknown rule cost {s!r}; expected one of {', '.join(costs)}")
    if len(set(names)) < len(names):
        raise InputError(f"--optimize names a cost twice: {','.join(names)}")
    return names
