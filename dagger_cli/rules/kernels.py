"""The decision-rule fronts' kernels (compiled, :mod:`dagger_cli._core`, ``core/rules.cpp``)
and the structures they read.

A rule for row r that reaches the DAG node v (a subtable holding r) costs
(length, coverage, misclassifications) = (level of v, rows of v, rows of v whose decision
is not r's). :func:`pair_fronts` turns those candidates, node by node, into every row's
Pareto front of two of the three costs in one pass over the candidate nodes' rows.

The kernel reads and writes the arrays of four named tuples, built once by the driver
(:mod:`dagger_cli.rules`): :class:`RuleNodes` (the DAG's nodes), :class:`Candidates` (the
candidate nodes in groups), :class:`RowState` (each row's best so far) and
:class:`Emitted` (the front points, grown by the driver on MUST_GROW).
"""

from __future__ import annotations

from collections import namedtuple

from .. import _core
from ..engine.kernels import Status

#: What :func:`pair_fronts` returns (:class:`~dagger_cli.engine.kernels.Status`).
DONE, BUDGET_SPENT, MUST_GROW = Status.DONE, Status.BUDGET_SPENT, Status.MUST_GROW

#: ``counters`` of :func:`pair_fronts`: the next group, the points emitted so far, the
#: room the emitted points need (after MUST_GROW), the row visits done.
C_GROUP, C_EMIT, C_NEED, C_WORK = 0, 1, 2, 3
N_COUNTERS = 4

#: The unordered cost pairs, by the cost the candidates are grouped on: by length
#: (level ascending) tracking the most coverage or the least misclassifications, or by
#: coverage (size descending) tracking the least misclassifications.
LENGTH_COVERAGE, LENGTH_MIS, COVERAGE_MIS = 0, 1, 2

#: The DAG's nodes as the kernel reads them: first row (int64), rows, level,
#: misclassifications (int32), the row pool and every row's decision (int32).
RuleNodes = namedtuple("RuleNodes", "start size level mis row_pool dec")
#: The candidate nodes (int64) grouped by the first cost (``gstart``: group bounds), the
#: cost pair's mode, each node's row of ``counts`` (its class counts, int32, -1: pure)
#: and the misclassification bound.
Candidates = namedtuple("Candidates", "order gstart mode cidx counts max_mis")
#: Per row: the best tracked cost so far (``cur``), the group's best (tracked cost, tie
#: cost, node (-1: row not in the group), misclassifications) and the group's rows.
RowState = namedtuple("RowState", "cur g_k1 g_k2 g_node g_mis touched")
#: The front points found (int32): row, node, misclassifications.
Emitted = namedtuple("Emitted", "row node mis")


def class_counts(nodes, node_start, node_size, row_pool, dec, n_dec):
    """Rows per decision of each node of ``nodes`` (one row of the result per node)."""
    return _core.rules_class_counts(nodes, node_start, node_size, row_pool, dec, n_dec)


def discoverers(n_nodes, node_bundle_start, bundle_attr, bundle_edge_start, edge_child):
    """Per node, the first parent in node order and the attribute of that edge (-1 for
    the root).

    Discovery is breadth-first and numbers nodes in the order it finds them, processing
    parents in node order, so the first parent of a node is the one that discovered it:
    its level is the node's minus one, and following these parents up to the root
    gives a shortest path (a least-length conjunction) to every node."""
    return _core.rules_discoverers(
        n_nodes, node_bundle_start, bundle_attr, bundle_edge_start, edge_child
    )


def pair_fronts(
    nodes: RuleNodes,
    candidates: Candidates,
    state: RowState,
    emitted: Emitted,
    counters,
    budget: int,
) -> int:
    """Every row's Pareto front of one cost pair, from the candidate nodes grouped by the
    first cost of the pair (groups in order of that cost, best first).

    Within a group, each row keeps its best candidate by (tracked cost, tie cost, node)
    (smaller is better: coverage enters negated); after the group, a row whose best
    beats every earlier group's on the tracked cost gets a front point (its row, node
    and misclassifications appended to ``emitted``). A candidate of a later group is
    worse on the grouping cost, so this is exactly the Pareto front, listed best grouping
    cost first, and among equal points the tie rule picks the least tie cost, then the
    smallest node. Candidates with more than ``max_mis`` misclassifications are skipped.

    Resumable: returns BUDGET_SPENT after a group once ``budget`` row visits are done,
    MUST_GROW (room needed in ``counters[C_NEED]``) when a group's points do not fit in
    ``emitted`` (that group is redone on the next call), DONE at the end."""
    return _core.rules_pair_fronts(nodes, candidates, state, emitted, counters, budget)
