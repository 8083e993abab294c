"""The fronts kernel :func:`fronts` (compiled: :mod:`dagger_cli._core`, ``core/fronts.cpp``
and ``core/front_store.hpp``): every subproblem's Pareto front over the DAG Δ(T), and the
structures it reads.

In order of increasing subtable size: a child is a strict subset of its parent, so that
order is topological, and nodes of one size are independent (computed in parallel
pieces). A bundle's front is the Pareto-filtered combination of its children's fronts,
one child at a time; a node's front is the Pareto filter of its leaf point and its
bundles' fronts (``node_front`` and ``pareto_into`` of ``core/front_store.hpp``, shared
with the depth-two layer). Every stored point keeps the local index of the bundle that
made it (-1: the leaf), which is all tree extraction needs. Batches are appended to the
shared point pool in entry order (``store``): the same bytes for any thread count.

Bounds (exact: no point of the front is lost, no tag changes): the front is kept sorted
as it grows; a bundle whose best possible point is dominated by it is skipped, and
inside a bundle a partial combination whose best completion is dominated is dropped;
``max_x``, ``max_y`` keep the points within what a subproblem, at least its level deep,
has left of them; ``least_y`` keeps only the point of least y (see
:func:`dagger_cli.engine.dag.compute_fronts`).

Ties: among equal candidate points the first listed wins: the leaf, then bundles in
attribute (column) order; inside a bundle, children in value order.

The kernel reads the arrays of three named tuples the driver builds
(:func:`dagger_cli.engine.dag.compute_fronts`): :class:`FrontOrder` (which subproblems,
in which order), :class:`DagArrays` (the DAG) and :class:`FrontPool` (the point pool it
appends to, grown by the driver on MUST_GROW), and the cost pair's parameter vector.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ... import _core
from . import NO_CAP, PIECES, Status

#: What the kernels return (:class:`~dagger_cli.engine.kernels.Status`).
DONE, BUDGET_SPENT, MUST_GROW, TOO_MANY_NODES, FRONT_TOO_LONG, OUT_OF_MEMORY = tuple(Status)
__all__ = ["NO_CAP", "PIECES"]  # re-exported for the drivers

#: Entries of one batch at most, and its output slots (points) at most.
CHUNK_NODES = 4096
CHUNK_ENTRIES = 1 << 21

#: The subproblems in the kernel's order: entry k is node ``node[k]`` (int64) at remaining
#: depth ``r[k]`` (0: its leaf only; NO_CAP uncapped). With ``capped``, node i's
#: subproblems are ``sub_start[i] + r`` for r = 0 .. its count - 1, its children's taken at
#: r - 1 (or their top one), and those marked in ``ready`` (uint8, one per subproblem)
#: already have their fronts (the depth-two layer); uncapped, node i has the one
#: subproblem i (``sub_start`` and ``ready`` unused).
FrontOrder = namedtuple("FrontOrder", "node r sub_start ready capped")
#: The DAG's arrays the kernels read, with the dtypes of
#: :class:`~dagger_cli.engine.structures.Dag`'s fields of the same names: node_start,
#: node_bundle_start, bundle_edge_start int64; node_size, node_mis, node_level,
#: edge_child, row_pool int32; node_split int8; node_weight int32, the ``n`` of the split
#: costs (:attr:`~dagger_cli.engine.structures.Dag.weights`).
DagArrays = namedtuple(
    "DagArrays",
    "node_start node_size node_mis node_split node_level node_bundle_start "
    "bundle_edge_start edge_child row_pool node_weight",
)
#: The point pool: subproblem s's front is points ``fref[2s] .. fref[2s] + fref[2s + 1]``,
#: point k being ``(fxy[2k], fxy[2k + 1])`` with tag ``fch[k]`` (flat views of the
#: engine's two-column arrays; int64, tags int32); ``counters`` (int64): [0] the next
#: entry of the order, [1] the points used; ``needs`` (int64): [0] the points the pool
#: must hold after MUST_GROW, the bytes a piece wanted after OUT_OF_MEMORY (0: an
#: allocation failed).
FrontPool = namedtuple("FrontPool", "fref fxy fch counters needs")


def dag_arrays(dag) -> DagArrays:
    """The kernels' view of a :class:`~dagger_cli.engine.structures.Dag`."""
    return DagArrays._make(
        dag.weights if name == "node_weight" else getattr(dag, name) for name in DagArrays._fields
    )


def fronts(
    order: FrontOrder,
    dag: DagArrays,
    params: np.ndarray,
    pool: FrontPool,
    n_attributes: int,
    allow: int,
    budget: int,
) -> int:
    """The fronts of the subproblems ``pool.counters[0]:`` of ``order``, appended to
    ``pool``.

    ``params`` (int64) is the cost pair's parameter vector: x's
    :meth:`~dagger_cli.costs.Cost.params` (combine, leaf_const, leaf_mis, split_const,
    split_rows), y's, then exact_only (1: only trees whose impure leaves cannot be
    split), max_x, max_y (INF: none) and least_y (1: each subproblem's point of least y
    only). ``allow``: the bytes each parallel piece may allocate (every array of a piece
    is sized against it before it is made).

    A chunk holds subproblems of nodes of one size s, each with an output slot of
    2s + m + 2 points (a front's points have distinct x and distinct y, and one of the
    two costs takes at most 2s + m + 1 values on s rows). Returns DONE, BUDGET_SPENT
    (after ``budget`` units of work: edges and points), MUST_GROW (the pool must hold
    ``needs[0]`` points), FRONT_TOO_LONG (a front longer than its bound: a bug) or
    OUT_OF_MEMORY (a piece's arrays would take more than ``allow`` bytes, ``needs[0]`` of
    them, or failed to allocate)."""
    return _core.fronts_run(order, dag, params, pool, n_attributes, allow, budget)


def splittable(node_level: np.ndarray, node_size: np.ndarray, limits: np.ndarray) -> np.ndarray:
    """Per node, whether a tree within the bounds ``limits`` can split it: what discovery
    decides (its split and each of its level's ancestors' add at least split_const +
    split_rows * n to a cost, and below it every tree costs at least leaf_const), the
    depth cap aside. ``limits`` (int64, :func:`dagger_cli.engine.dag._limits`): per cost
    x then y, its bound (INF: none), split_const, split_rows, leaf_const."""
    return _core.fronts_splittable(node_level, node_size, limits).view(np.bool_)
