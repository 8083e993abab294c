"""Decision rules on the DAG Δ(T): every row's Pareto front of rule costs.

>>> from dagger_cli.data.table import example_table
>>> res = rules(example_table())
>>> [r.text for r in res.front(0)]
['f1=0 -> 0']
>>> res.points(2)
[(1, 1)]

A rule for row r of the prepared table is a conjunction of r's own attribute values
``(f1 = r_f1) & ... & (fk = r_fk) -> d(r)``: its length is k, its coverage the number
of rows (of the prepared table: a merged row counts once) that match its conditions,
its misclassifications those of them whose decision is not d(r). An exact rule has none.

Why the DAG holds every rule, and why the node's level is the least length:

* the rows matching a conjunction are the subtable reached from the whole table by
  splitting on its attributes one at a time, r's value each time. A condition on an
  attribute constant in the current subtable changes nothing, so dropping it gives a
  shorter rule with the same rows: the rules worth having are paths of Δ(T), whose
  bundles split only on non-constant attributes;
* conversely every path from the root to a node v that holds r follows r's values (each
  node on it is a superset of v, so holds r): a path of length k to v is a rule of
  length k for every row of v, and the least length of a rule reaching v is the
  length of a shortest path, v's breadth-first level (``Dag.node_level``);
* discovery does not expand pure subtables (nor those at the depth cap). A rule below
  a pure node w is dominated by w's own (fewer conditions, more rows, no error), and a
  node first reached through a pure one is reached by a shortest path anyway.

So row r's front is the Pareto front of the points (level(v), size(v), mis_r(v)) over
the nodes v that hold r, and the rule behind a point is the path of first parents
(:func:`kernels.discoverers`) from v up to the root. Under ``max_length`` L the DAG is
built with the depth cap L (``build_dag(..., max_depth=L)``): exactly the nodes
reachable within L steps, with the same levels. The work is one pass over the rows of
the candidate nodes (pure ones only for exact rules), with no enumeration of subsets.
"""

from __future__ import annotations

import sys
import time
import types
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..data.report import row_groups
from ..engine import threads
from ..engine.dag import BUDGET, build_dag
from ..engine.memory import memory_ceiling
from ..engine.progress import Progress
from ..errors import InputError, LimitError
from ..text import size_text
from . import kernels as k
from .compare import TreeComparison, compare_tree
from .optimize import RuleOptimum, RuleStage, check_order

#: The rule costs: length (fewer conditions is better), coverage (more rows is better)
#: and misclassifications (fewer is better).
COSTS = ("length", "coverage", "misclassifications")
#: The cost listed first in each unordered pair's natural order, and its kernel mode.
_MODES = {
    ("length", "coverage"): k.LENGTH_COVERAGE,
    ("length", "misclassifications"): k.LENGTH_MIS,
    ("coverage", "misclassifications"): k.COVERAGE_MIS,
}


def check_costs(x: str, y: str) -> tuple[str, str]:
    """Two different rule costs (``length``, ``coverage``, ``misclassifications``)."""
    for c in (x, y):
        if c not in COSTS:
            raise InputError(f"unknown rule cost {c!r}; expected one of {', '.join(COSTS)}")
    if x == y:
        raise InputError(f"the two costs must differ (both are {x!r})")
    return x, y


def _orient(cost: str, values: np.ndarray) -> np.ndarray:
    """The cost as a quantity to minimise (coverage negated)."""
    return -values if cost == "coverage" else values


@dataclass(frozen=True)
class Rule:
    """One Pareto-optimal rule of a row: its costs and its conditions.

    ``conditions`` are ``(attribute, value)`` pairs in column order; ``text`` is the
    rule as written in the outputs, e.g. ``odor=n & spore-print-color=k -> e`` (``true
    -> e`` for the empty rule)."""

    row: int
    length: int
    coverage: int
    misclassifications: int
    conditions: tuple
    decision: str
    text: str

    def cost(self, name: str) -> int:
        return int(getattr(self, name))

    def as_dict(self) -> dict:
        return {
            "row": self.row,
            "length": self.length,
            "coverage": self.coverage,
            "misclassifications": self.misclassifications,
            "conditions": [list(c) for c in self.conditions],
            "decision": self.decision,
            "rule": self.text,
        }


@dataclass(frozen=True)
class System:
    """A system of rules (one rule per row that has one) and its average costs."""

    name: str
    rows: int
    length: float
    coverage: float
    misclassifications: float
    #: the bound on x of a system of :meth:`RuleFronts.system_front` (None otherwise)
    bound: int | None = None

    def as_dict(self) -> dict:
        out = {
            "name": self.name,
            "rows": self.rows,
            "average_length": self.length,
            "average_coverage": self.coverage,
            "average_misclassifications": self.misclassifications,
        }
        if self.bound is not None:
            out["bound"] = self.bound
        return out


@dataclass(eq=False)
class RuleFronts:
    """Result of :func:`rules`: every row's Pareto front of rules, cost ``x`` vs ``y``.

    Row ``r``'s points are ``front_start[r]:front_start[r + 1]`` of the ``point_*``
    arrays, listed from x's best value on (least length, most coverage, least
    misclassifications), so y improves along the front: the first point is the rule
    of least x, best y among those; the last, of best y, least x among those. A row
    with an empty front has no rule within the bounds (``no_rule_reason``).

    Ties (equal x and y): the rule with the best third cost wins, then the node found
    first by the breadth-first discovery; the conditions are the path of first parents
    to that node (see :mod:`dagger_cli.rules`). Same input, same rules.
    """

    table: Any
    x: str
    y: str
    max_length: int | None
    #: None: any number of misclassifications
    max_misclassifications: int | None
    front_start: np.ndarray
    point_node: np.ndarray
    point_length: np.ndarray
    point_coverage: np.ndarray
    point_mis: np.ndarray
    #: per row, whether an equal row (same attribute values) has another decision
    conflict: np.ndarray
    stats: Any
    seconds: float = 0.0
    #: ``"exact"``; ``"time_limit"`` or ``"interrupted"``: cut short by
    #: :func:`~dagger_cli.rules.anytime.rules_within` (``max_length``: what was searched)
    status: str = "exact"
    time_limit: float | None = None
    parent: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)
    parent_attr: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int32), repr=False)
    _paths: dict = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ queries
    @property
    def n_rows(self) -> int:
        return int(self.front_start.size - 1)

    @property
    def exact(self) -> bool:
        return self.max_misclassifications == 0

    def __len__(self) -> int:
        """The number of points of all rows' fronts."""
        return int(self.front_start[-1])

    def _check_row(self, row: int) -> int:
        if isinstance(row, bool) or not isinstance(row, (int, np.integer)):
            raise InputError(f"a row is an integer, got {row!r}")
        if not 0 <= row < self.n_rows:
            raise InputError(
                f"no row {row}; the prepared table has rows 0 to {self.n_rows - 1} "
                "(0-based, as `dagger prepare` writes them)"
            )
        return int(row)

    def cost_values(self, cost: str) -> np.ndarray:
        """Every point's value of ``cost`` (in point order)."""
        return {
            "length": self.point_length,
            "coverage": self.point_coverage,
            "misclassifications": self.point_mis,
        }[cost]

    def points(self, row: int) -> list[tuple[int, int]]:
        """Row ``row``'s front as (x, y) pairs."""
        row = self._check_row(row)
        a, b = int(self.front_start[row]), int(self.front_start[row + 1])
        xs, ys = self.cost_values(self.x), self.cost_values(self.y)
        return [(int(xs[i]), int(ys[i])) for i in range(a, b)]

    def front(self, row: int) -> list[Rule]:
        """Row ``row``'s Pareto-optimal rules, in front order."""
        row = self._check_row(row)
        a, b = int(self.front_start[row]), int(self.front_start[row + 1])
        return [self.rule(i) for i in range(a, b)]

    def rule(self, point: int) -> Rule:
        """The rule behind point ``point`` (an index into the ``point_*`` arrays)."""
        row = int(np.searchsorted(self.front_start, point, side="right")) - 1
        attrs = self._path(int(self.point_node[point]))
        return make_rule(
            self.table,
            row,
            attrs,
            int(self.point_coverage[point]),
            int(self.point_mis[point]),
        )

    def _path(self, node: int) -> tuple:
        attrs = self._paths.get(node)
        if attrs is None:
            out = []
            v = node
            while self.parent[v] >= 0:
                out.append(int(self.parent_attr[v]))
                v = int(self.parent[v])
            attrs = self._paths[node] = tuple(sorted(out))
        return attrs

    def has_rule(self) -> np.ndarray:
        """Per row, whether it has a rule within the bounds."""
        return self.front_start[1:] > self.front_start[:-1]

    def no_rule_reason(self, row: int) -> str | None:
        """Why row ``row`` has no rule (None if it has one)."""
        row = self._check_row(row)
        if self.front_start[row + 1] > self.front_start[row]:
            return None
        if self.conflict[row] and self.exact:
            return "no exact rule: an equal row (same attribute values) has another decision"
        what = "exact rule" if self.exact else "rule"
        bounds = []
        if self.max_length is not None:
            bounds.append(f"length <= {self.max_length}")
        if self.max_misclassifications not in (None, 0):
            bounds.append(f"misclassifications <= {self.max_misclassifications}")
        return f"no {what} with {' and '.join(bounds)}" if bounds else f"no {what}"

    # ------------------------------------------------------------------ systems
    def _ends(self, last: bool) -> np.ndarray:
        has = self.has_rule()
        idx = self.front_start[1:] - 1 if last else self.front_start[:-1]
        return idx[has]

    def _system(self, name: str, idx: np.ndarray, bound: int | None = None) -> System:
        n = int(idx.size)

        def avg(a):
            return float(a[idx].mean()) if n else 0.0

        return System(
            name, n, avg(self.point_length), avg(self.point_coverage), avg(self.point_mis), bound
        )

    def sequential(self, first: str | None = None) -> System:
        """The system of each row's rule of best ``first`` (x by default, or y), best
        other cost among those: the first (last) point of every row's front."""
        first = self.x if first is None else first
        if first not in (self.x, self.y):
            raise InputError(f"{first!r} is not one of the costs {self.x}, {self.y}")
        other = self.y if first == self.x else self.x
        return self._system(f"best {first}, then {other}", self._ends(last=first == self.y))

    def systems(self) -> list[System]:
        """The two sequential systems: best x then y, and best y then x (for length vs
        coverage: every row's shortest rule, and its most covering one)."""
        return [self.sequential(self.x), self.sequential(self.y)]

    def system_front(self) -> list[System]:
        """Systems under a common bound t on x, for every value t of x on some front:
        each row takes its rule of best y among its rules with x at least as good as t
        (the least x among those), or its rule of best x if it has none within t.

        From the system of best x (then y) to that of best y (then x); each row's choice
        moves along its own front as t loosens, so the average x worsens and the average
        y improves: no point dominates another. Equal consecutive points are listed once
        (the tightest bound). This is not the Pareto front of all systems (rows could
        trade with each other), only the one-bound family; rows without a rule are left
        out of every system."""
        has = self.has_rule()
        start = self.front_start[:-1][has]
        n = int(start.size)
        if n == 0:
            return []
        lens = self.point_length.astype(np.int64)
        covs = self.point_coverage.astype(np.int64)
        miss = self.point_mis.astype(np.int64)
        key = _orient(self.x, self.cost_values(self.x).astype(np.int64))
        base = np.array([lens[start].sum(), covs[start].sum(), miss[start].sum()], np.int64)
        # Events: a row moves from point i - 1 to point i of its front once t reaches
        # x_i, which is worse than x_{i-1}, hence than the tightest bound t0.
        moves = np.ones(len(self), dtype=bool)
        moves[start] = False
        step = np.flatnonzero(moves)
        step = step[np.argsort(key[step], kind="stable")]
        deltas = np.stack(
            [lens[step] - lens[step - 1], covs[step] - covs[step - 1], miss[step] - miss[step - 1]]
        )
        sums = base[:, None] + np.cumsum(deltas, axis=1)
        keys = key[step]

        def shown(t):  # back from the minimised quantity to the cost's value
            return int(-t if self.x == "coverage" else t)

        def system(total, t):
            return System("bound", n, *(float(v) / n for v in total[:3]), bound=shown(t))

        out = [system(base, key[start].min())]
        for j in np.flatnonzero(np.r_[keys[1:] != keys[:-1], True]) if step.size else ():
            s = system(sums[:, j], keys[j])
            prev = out[-1]
            if (prev.length, prev.coverage, prev.misclassifications) != (
                s.length,
                s.coverage,
                s.misclassifications,
            ):
                out.append(s)
        return out


def make_rule(table, row: int, attrs: Sequence[int], coverage: int, mis: int) -> Rule:
    """The rule of row ``row`` with conditions on the attributes ``attrs`` (column
    order), its coverage and misclassifications as given."""
    conditions = tuple(
        (table.attributes[a], table.values[a][int(table.codes[a, row])]) for a in attrs
    )
    decision = table.decision_values[int(table.decisions[row])]
    splits = getattr(table, "splits", None) or {}
    parts = [splits[a].branch(v) if a in splits else f"{a}={v}" for a, v in conditions]
    text = f"{' & '.join(parts) if parts else 'true'} -> {decision}"
    return Rule(row, len(attrs), coverage, mis, conditions, decision, text)


def conflicts(table) -> np.ndarray:
    """Per row, whether an equal row (same attribute values) has another decision."""
    n = table.n_rows
    if n == 0:
        return np.zeros(0, dtype=bool)
    if table.n_attributes:
        group = row_groups(table.codes)
    else:
        group = np.zeros(n, dtype=np.int64)
    dec = table.decisions.astype(np.int64)
    lo = np.full(int(group.max()) + 1, np.iinfo(np.int64).max)
    hi = np.full(int(group.max()) + 1, -1)
    np.minimum.at(lo, group, dec)
    np.maximum.at(hi, group, dec)
    return lo[group] != hi[group]


def _check_bound(name: str, value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise InputError(f"{name} must be an integer >= 0, got {value!r}")
    return int(value)


def effective_mis_bound(x: str, y: str, max_misclassifications: int | None) -> int | None:
    """The bound on misclassifications the rules obey: as given, else none when
    misclassifications is one of the costs, else 0 (exact rules)."""
    if max_misclassifications is not None:
        return max_misclassifications
    return None if "misclassifications" in (x, y) else 0


def rules(
    table,
    x: str = "length",
    y: str = "coverage",
    *,
    max_length: int | None = None,
    max_misclassifications: int | None = None,
    max_subtables: int | None = None,
    max_memory="auto",
    progress: bool = False,
) -> RuleFronts:
    """Every row's Pareto front of decision rules, cost ``x`` against cost ``y``.

    Parameters
    ----------
    table : DecisionTable
        The prepared table (rows as `dagger prepare` writes them, 0-based).
    x, y : str
        Two different costs of ``length`` (minimised), ``coverage`` (maximised) and
        ``misclassifications`` (minimised).
    max_length : int, optional
        Only rules of at most this many conditions (the DAG is built with that depth
        cap).
    max_misclassifications : int, optional
        Only rules with at most this many misclassifications. By default 0 (exact
        rules) unless misclassifications is ``x`` or ``y`` (then any rule).
    max_subtables, max_memory, progress
        As for :func:`dagger_cli.relate`.

    Returns
    -------
    RuleFronts
    """
    from ..weights import refuse

    refuse(table, "decision rules (dagger rules)")
    x, y = check_costs(x, y)
    max_length = _check_bound("max_length", max_length)
    max_mis = effective_mis_bound(
        x, y, _check_bound("max_misclassifications", max_misclassifications)
    )
    with _Run(table, max_length, max_subtables, max_memory, progress) as run:
        return run.fronts(x, y, max_mis)


def optimize_rules(
    table,
    order,
    *,
    max_length: int | None = None,
    max_misclassifications: int | None = None,
    max_subtables: int | None = None,
    max_memory="auto",
    progress: bool = False,
) -> RuleOptimum:
    """Sequential optimisation of every row's rule: the best value of each cost of
    ``order`` in turn (least length, most coverage, least misclassifications) among the
    rules the costs before left.

    Parameters
    ----------
    table : DecisionTable
    order : str or list of str
        One to three rule costs, first first (``"length,coverage"``). The costs not
        named follow in the order length, coverage, misclassifications (the fronts' tie
        rule), so the rule of each row is determined by the order alone.
    max_length, max_misclassifications, max_subtables, max_memory, progress
        As for :func:`rules` (exact rules unless misclassifications is in ``order`` or
        ``max_misclassifications`` is given).

    Returns
    -------
    RuleOptimum
        ``stages`` (cost, its average over the rows of each row's rule), the fronts of
        the first two costs (each row's first point is its rule) and, for total
        optimality, each row's best value of every later cost alone.
    """
    from ..weights import refuse

    refuse(table, "decision rules (dagger rules)")
    names = check_order(order, COSTS)
    full = names + tuple(c for c in COSTS if c not in names)
    max_length = _check_bound("max_length", max_length)
    given = _check_bound("max_misclassifications", max_misclassifications)
    max_mis = given if given is not None else (None if "misclassifications" in names else 0)
    with _Run(table, max_length, max_subtables, max_memory, progress) as run:
        fronts = run.fronts(full[0], full[1], max_mis)
        best = {full[1]: _ends_value(fronts, full[1], last=True)}
        if len(names) == 3:
            other = run.fronts(full[2], full[0], max_mis)
            best[full[2]] = _ends_value(other, full[2], last=False)
    idx = fronts.front_start[:-1][fronts.has_rule()]
    stages = [
        RuleStage(c, float(fronts.cost_values(c)[idx].mean()) if idx.size else 0.0) for c in names
    ]
    return RuleOptimum(names, fronts, stages, best)


def _ends_value(fronts: RuleFronts, cost: str, last: bool) -> np.ndarray:
    """Each row's value of ``cost`` at the first (last) point of its front (rows with a
    rule only)."""
    return fronts.cost_values(cost)[fronts._ends(last)].astype(np.int64)


class _Run:
    """One DAG for one or more rule fronts; limits and progress as for ``relate``."""

    def __init__(self, table, max_length, max_subtables, max_memory, progress):
        self.max_length = max_length
        self.max_subtables = max_subtables
        self.ceiling, self.which = memory_ceiling(max_memory)
        # A numeric column split by thresholds: its conditions are the tests col <= t.
        self.table = table.binarized(max_bytes=self.ceiling)
        self.progress = Progress(progress)
        self.t0 = time.perf_counter()
        self.dag: Any = None
        self.parent = self.parent_attr = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.progress.close()
        self.dag = None

    def _limit(self, err: LimitError) -> LimitError:
        text = str(err).replace("(--max-memory)", f"({self.which})")
        cap = self.max_length
        if cap is None:
            text = text.rstrip() + " Try --max-length L (rules of at most L conditions)."
        elif 0 < cap < self.table.n_attributes:
            text = text.rstrip() + f" Try a lower --max-length than {cap}."
        return LimitError(text)

    def _build(self):
        table, cap = self.table, self.max_length
        if cap is not None and cap >= table.n_attributes:
            cap = None  # no rule is longer than the number of attributes
        try:
            self.dag = build_dag(
                table,
                max_subtables=self.max_subtables,
                max_memory=self.ceiling,
                progress=self.progress,
                max_depth=cap,
                special=False,
            )
        except LimitError as err:
            raise self._limit(err) from None
        dag = self.dag
        self.parent, self.parent_attr = k.discoverers(
            dag.node_size.size,
            dag.node_bundle_start,
            dag.bundle_attr,
            dag.bundle_edge_start,
            dag.edge_child,
        )

    def fronts(self, x: str, y: str, max_mis: int | None) -> RuleFronts:
        if self.dag is None:
            self._build()
        try:
            return self._fronts(x, y, max_mis)
        except LimitError as err:
            raise self._limit(err) from None

    def _fronts(self, x: str, y: str, max_mis: int | None) -> RuleFronts:
        table, dag, prog, ceiling = self.table, self.dag, self.progress, self.ceiling
        pair = (x, y) if (x, y) in _MODES else (y, x)
        mode = _MODES[pair]
        n = table.n_rows
        bound = n if max_mis is None else max_mis
        cand = np.flatnonzero(dag.node_mis <= bound)
        if pair[0] == "length":
            order = cand[np.argsort(dag.node_level[cand], kind="stable")]
            gkey = dag.node_level[order]
        else:
            order = cand[np.argsort(-dag.node_size[cand].astype(np.int64), kind="stable")]
            gkey = dag.node_size[order]
        order = order.astype(np.int64)
        if order.size:
            gstart = np.flatnonzero(np.r_[True, gkey[1:] != gkey[:-1], True]).astype(np.int64)
        else:
            gstart = np.zeros(1, np.int64)
        dec = np.ascontiguousarray(table.decisions, dtype=np.int32)
        impure = order[dag.node_mis[order] > 0]
        cidx = np.full(dag.node_size.size, -1, np.int64)
        cidx[impure] = np.arange(impure.size)
        # Everything the pass allocates, checked before it is made: the class counts of the
        # impure candidates, six arrays per row, the first room for the points.
        n_dec = max(len(table.decision_values), 1)
        room = max(4 * n, 1024)
        need = dag.nbytes() + cidx.nbytes + 4 * impure.size * n_dec + 44 * n + 12 * room
        if ceiling is not None and need > ceiling:
            raise LimitError(
                f"the rules need more than {size_text(ceiling)} (--max-memory): "
                f"{size_text(need)} for the DAG of {dag.node_size.size:,} subtables and "
                f"the class counts of {impure.size:,} candidate subtables."
            )
        counts = threads.run(
            k.class_counts,
            impure,
            dag.node_start,
            dag.node_size,
            dag.row_pool,
            dec,
            n_dec,
        )
        state = k.RowState(
            cur=np.full(n, np.iinfo(np.int64).max, np.int64),  # best tracked cost so far
            g_k1=np.zeros(n, np.int64),  # the group's best, tracked cost
            g_k2=np.zeros(n, np.int64),  # its tie cost
            g_node=np.full(n, -1, np.int64),  # its node (-1: row not in the group)
            g_mis=np.zeros(n, np.int32),
            touched=np.zeros(n, np.int64),  # the group's rows
        )
        rule_nodes = k.RuleNodes(
            dag.node_start, dag.node_size, dag.node_level, dag.node_mis, dag.row_pool, dec
        )
        candidates = k.Candidates(order, gstart, mode, cidx, counts, bound)
        emitted = k.Emitted(*(np.zeros(room, np.int32) for _ in range(3)))
        counters = np.zeros(k.N_COUNTERS, np.int64)
        total = int(dag.node_size[order].sum())
        while True:
            status = threads.run(
                k.pair_fronts, rule_nodes, candidates, state, emitted, counters, BUDGET
            )
            if status == k.MUST_GROW:
                need = max(int(counters[k.C_NEED]), 2 * emitted.row.size)
                used = int(counters[k.C_EMIT])
                emitted = k.Emitted(*(_grown(a, need, used) for a in emitted))
            used_bytes = (
                dag.nbytes() + counts.nbytes + 3 * emitted.row.nbytes + sum(a.nbytes for a in state)
            )
            if ceiling is not None and used_bytes > ceiling:
                raise LimitError(
                    f"the rules need more than {size_text(ceiling)} (--max-memory): "
                    f"{size_text(used_bytes)} after {int(counters[k.C_EMIT]):,} "
                    "Pareto points."
                )
            prog.update("rules", int(counters[k.C_WORK]), total, unit="row visits")
            if status == k.DONE:
                break
        m = int(counters[k.C_EMIT])
        rows_of = emitted.row[:m]
        perm = np.argsort(rows_of, kind="stable")
        rows_sorted = rows_of[perm]
        front_start = np.searchsorted(rows_sorted, np.arange(n + 1)).astype(np.int64)
        if pair != (x, y):  # the kernel lists the natural order: reverse each row's front
            pos = np.arange(m)
            perm = perm[front_start[rows_sorted] + front_start[rows_sorted + 1] - 1 - pos]
        nodes = emitted.node[:m][perm]
        return RuleFronts(
            table=table,
            x=x,
            y=y,
            max_length=self.max_length,
            max_misclassifications=max_mis,
            front_start=front_start,
            point_node=nodes,
            point_length=dag.node_level[nodes].astype(np.int32),
            point_coverage=dag.node_size[nodes].astype(np.int32),
            point_mis=emitted.mis[:m][perm],
            conflict=conflicts(table),
            stats=dag.stats,
            seconds=time.perf_counter() - self.t0,
            parent=self.parent,
            parent_attr=self.parent_attr,
        )


def _grown(a: np.ndarray, need: int, used: int) -> np.ndarray:
    out = np.zeros(need, a.dtype)
    out[:used] = a[:used]
    return out


__all__ = [
    "COSTS",
    "Rule",
    "RuleFronts",
    "RuleOptimum",
    "RuleStage",
    "System",
    "TreeComparison",
    "check_costs",
    "compare_tree",
    "optimize_rules",
    "rules",
]


class _CallableModule(types.ModuleType):
    """``dagger_cli.rules(table, ...)`` calls :func:`rules`: this package and its function
    share the name, and importing the package makes the package ``dagger_cli.rules``."""

    def __call__(self, *args, **kwargs):
        return rules(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
