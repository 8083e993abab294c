"""The depth-two layer (compiled: :mod:`dagger_cli._core`, ``core/depth_two.cpp``): the
fronts of the last two levels of a depth cap from class counts.

:func:`d2_fronts` solves the subproblems (node, remaining depth 1 or 2) of the nodes at
level D - 2 without building their subtables: class counts per attribute value (r = 1)
and per pair of attribute values (r = 2), with the same trees, points and ties as
:func:`dagger_cli.engine.kernels.fronts.fronts` over the DAG (the leaf first, then
splits in attribute order; inside a branch its leaf, then its splits in attribute
order). A point's tag is the split attribute (column), -1 the leaf; tree extraction
recomputes a branch from its rows (:func:`dagger_cli.trees._front_r1`).

Memory goes by the rows and the present values, never by a product of two attributes'
numbers of values: an attribute with at most ``many`` present values in a subtable is
*small*, and pairs of small attributes are counted from bitsets over the rows (AND and
popcount), each pair's counts in one small array; a pair with a *large* attribute (an
identifier, a free text, a number read as nominal) is counted branch by branch from the
branch's rows, and a large attribute's branches keep no bitsets and no fixed slots. 0/1
tables with two classes take a specialised pair loop (two popcounts per pair and word,
over the attributes whose column differs from every earlier one and its complement).
Every array of a piece is sized against the piece's allowance of bytes before it is
made.

Weighted rows, class weights, prices and a minimum leaf size (:mod:`dagger_cli.weights`):
the layer counts the rows per class of (decision, weight) (:func:`weighted_leaves`) and
reads each leaf's weight, least price and rows from those counts, as
:meth:`~dagger_cli.weights.Weighting.terms` reads a subtable's.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ... import _core
from .fronts import DagArrays, FrontPool

#: The depth-two subproblems (int64): entry k is node ``node[k]`` at remaining depth
#: ``r[k]`` (1 or 2), subproblem ``sub[k]`` of the pool.
D2Entries = namedtuple("D2Entries", "node r sub")
#: How a leaf reads its rows' class counts when the rows are weighted or priced
#: (:mod:`dagger_cli.weights`): every row's class of counts ``cls`` (int32), one per
#: (decision, weight) pair of the table, a row of class k weighing ``unit[k]`` (int64) and
#: costing ``price[k * D + d]`` (int64, classes x decisions) when its leaf decides d; a
#: leaf of fewer than ``min_leaf`` rows costs ``infeasible``. Empty arrays: the plain
#: counts (rows per decision, a leaf misclassifying the rows not of its most common one).
D2Leaves = namedtuple("D2Leaves", "cls unit price min_leaf infeasible")
#: The plain counts.
PLAIN = D2Leaves(np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int64), 1, 0)


def weighted_leaves(weighting, decisions: np.ndarray, n_dec: int) -> D2Leaves:
    """The layer's leaves of a :class:`~dagger_cli.weights.Weighting`: one class of counts
    per (decision, weight) pair present, so that the counts the layer takes per class
    give each decision's weight exactly (:meth:`Weighting.leaf_prices`' prices, the tie
    rule aside: the layer keeps no decisions, tree extraction recomputes them).

    >>> from dagger_cli.weights import Weighting
    >>> w = Weighting.make([2, 2, 1], decisions=[0, 1, 1], n_classes=2)
    >>> lv = weighted_leaves(w, np.array([0, 1, 1]), 2)
    >>> lv.cls.tolist(), lv.unit.tolist(), lv.price.tolist()
    ([0, 2, 1], [2, 1, 2], [0, 2, 1, 0, 2, 0])
    """
    of, unit, cls = _classes(weighting, decisions)
    prices = weighting.prices
    if prices is None:
        prices = 1 - np.eye(n_dec, dtype=np.int64)
    price = unit[:, None] * np.asarray(prices, np.int64)[of]
    return D2Leaves(
        np.ascontiguousarray(cls.reshape(-1), dtype=np.int32),
        np.ascontiguousarray(unit, dtype=np.int64),
        np.ascontiguousarray(price.reshape(-1), dtype=np.int64),
        int(weighting.min_leaf),
        int(weighting.infeasible),
    )


def weighted_classes(weighting, decisions: np.ndarray) -> int:
    """How many classes of counts :func:`weighted_leaves` makes: the (decision, weight)
    pairs of the rows."""
    return int(_classes(weighting, decisions)[0].size)


def _classes(weighting, decisions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rows' (decision, weight) pairs, ascending: each pair's decision and weight, and
    every row's pair."""
    rows = weighting.rows.astype(np.int64)
    base = int(rows.max(initial=0)) + 1
    pairs, cls = np.unique(np.asarray(decisions, np.int64) * base + rows, return_inverse=True)
    return pairs // base, pairs % base, cls


def d2_fronts(
    entries: D2Entries,
    table,
    dag: DagArrays,
    params: np.ndarray,
    pool: FrontPool,
    n_attributes: int,
    many: int,
    allow: int,
    budget: int,
    leaves: D2Leaves = PLAIN,
) -> int:
    """The fronts of the depth-two subproblems ``pool.counters[0]:`` of ``entries``,
    appended to ``pool`` (as :func:`~dagger_cli.engine.kernels.fronts.fronts` does).

    ``table`` is the table as discovery reads it (``Dag.table_arrays``); the layer reads
    its fields ``rc`` (row-major codes, uint8 or int32), ``nvals`` (int64), ``dec``
    (int32) and ``n_dec``, by name; ``leaves`` how a leaf reads the counts (:data:`PLAIN`,
    or :func:`weighted_leaves`). ``params``: as
    for :func:`~dagger_cli.engine.kernels.fronts.fronts`. ``many``: the most present
    values of a small attribute; ``allow``: the bytes each parallel piece may allocate.

    Independent of each other and of the DAG's other fronts: batches are computed in
    parallel pieces, then copied in entry order (the same bytes for any thread count).
    Returns DONE, BUDGET_SPENT, MUST_GROW (``needs[0]`` points), FRONT_TOO_LONG or
    OUT_OF_MEMORY (``needs[0]`` the bytes a subproblem wanted; 0 when an allocation
    failed)."""
    return _core.depth_two_run(
        entries, table, leaves, dag, params, pool, n_attributes, many, allow, budget
    )
