"""Discovery of the DAG Δ(T): the resumable kernel :func:`discover` (compiled,
:mod:`dagger_cli._core`, ``core/discovery.cpp``), the structures it reads and the hash
table's helpers.

Breadth-first from the whole table, in batches of nodes. A subtable is a set of rows; it is
identified by two 64-bit sums of random per-row keys, so a child's identity is known
after one pass over the parent's rows (accumulate the keys per attribute value) without
materialising its rows; the second key's low bits are 1, so its sum also counts the
rows. Only a new child has its rows written. A node keeps the attributes that may still
be non-constant (its discoverer's non-constant ones minus the split attribute: a
child's set is a subset of any parent's). Batches of nodes run in three phases: key
sums in parallel, hash-table lookups and numbering in node order, rows of new children
in parallel, so the numbering never depends on the threads. Random accesses (hash slots)
are prefetched ahead of use so that their cache misses overlap.

The driver is :func:`dagger_cli.engine.dag.build_dag`: it builds the named tuples below
once, grows their arrays when the kernel returns MUST_GROW and calls it again.
"""

from __future__ import annotations

from collections import namedtuple

from ... import _core
from . import NO_CAP, PIECES

__all__ = ["NO_CAP", "PIECES"]  # re-exported for the drivers

#: The discovery kernel's arguments, by group (named tuples of arrays).
#: The table, read only: row-major codes (uint8 or int32), values per attribute (int64),
#: decisions (int32) and their number, the two row keys (uint64), the mask of key2's
#: row-count bits (a numpy uint64), each row's distinct-row id (int32); and the codes
#: attribute-major (attribute a's column at ``cc[a * rows:]``; depth-two layer).
TableArrays = namedtuple("TableArrays", "rc nvals dec n_dec key1 key2 cmask rclass cc")
#: One entry per node (node_bundle_start: one more): first row (int64), rows (int32),
#: first candidate attribute (int64), candidate attributes, misclassifications, most
#: common decision (int32), whether some attribute splits it (int8), level (int32),
#: first bundle (int64).
NodeArrays = namedtuple(
    "NodeArrays",
    "node_start node_size node_attr_start node_attr_len node_mis node_major node_split "
    "node_level node_bundle_start",
)
#: The pools the nodes point into: rows (int32), candidate attributes (int16 or int32),
#: bundles (attribute int32, first edge int64) and edges (child int32), CSR.
DagPools = namedtuple("DagPools", "row_pool attr_pool bundle_attr bundle_edge_start edge_child")
#: One batch's buffers: per node (b_*), per candidate attribute (q_*), per child (v_*),
#: per new child whose rows phase C writes (p_*).
BatchBuffers = namedtuple(
    "BatchBuffers",
    "b_k b_qoff b_voff q_attr q_nv v_val v_h1 v_h2 p_node p_attr p_val p_child p_grp",
)


# Indices into the discovery counters array.
(
    C_NODES,
    C_CUR,
    C_ROWS,
    C_ATTRS,
    C_BUNDLES,
    C_EDGES,
    C_TERMINAL,
    C_PHASE,
    C_BHI,
    C_BPOS,
    C_PEND,
    N_COUNTERS,
) = range(12)
# Indices into the needs array returned when something must grow.
N_NODES, N_ROWS, N_ATTRS, N_BUNDLES, N_EDGES, N_HASH, N_QBUF, N_VBUF, N_PEND, N_NEEDS = range(10)
#: Nodes of one discovery batch at most (the size of the driver's per-node batch buffers);
#: a batch also stops after about a million row x attribute visits.
BATCH_NODES = 65536


def discover(table, nodes, dag, batch, ht, counters, needs, budget, max_nodes, max_level, limits):
    """Discover Δ(T) breadth-first from node ``counters[C_CUR]`` on, in batches of nodes.

    What the kernel reads and owns comes in named groups: ``table``
    (:class:`TableArrays`, read only), ``nodes`` (:class:`NodeArrays`, one entry per node),
    ``dag`` (:class:`DagPools`: rows, candidate attributes, bundles, edges), ``batch``
    (:class:`BatchBuffers`, one batch's scratch), the hash table ``ht`` (uint64, two
    entries a slot, a power of two of slots: :func:`ht_insert`) and the ``counters``
    (int64, indices ``C_*``); ``needs`` (int64, indices ``N_*``) says what must grow.

    Each batch runs three phases: (A, parallel) every node's leaf and its children's key
    sums; (B, serial, in node order) children looked up in the hash table, new ones
    numbered and given room, bundles and edges written; (C, parallel) the new children's
    rows written. Node numbers and row order do not depend on the number of threads.

    A node's level (``node_level``, the root's 0) is the level of the node that discovered
    it plus one: breadth-first, that is its least depth in any tree. Only nodes of level
    below ``max_level`` (the depth cap, else larger than any level) that can be split
    within the bounds ``limits`` (8 int64: :func:`dagger_cli.engine.dag._limits`) are
    expanded; the others get their leaf only.

    Returns DONE, BUDGET_SPENT (after a batch, once ``budget`` units of work are done),
    MUST_GROW (sizes in ``needs``; phase B resumes where it stopped), TOO_MANY_NODES (more
    than ``max_nodes`` subtables) or OUT_OF_MEMORY (a piece failed to allocate its
    scratch). ``rc`` is the table row-major (row r's attribute a at ``rc[r * m + a]``)."""
    return _core.discovery_discover(
        table, nodes, dag, batch, ht, counters, needs, budget, max_nodes, max_level, limits
    )


def ht_insert(ht, h1, h2, node) -> None:
    """Insert the subtable of key sums ``(h1, h2)`` as node ``node`` into the hash table
    ``ht`` (in place: open addressing, linear probing from slot ``h1 >> 32``; slot p is
    ``ht[2p]`` = h2, never 0, and ``ht[2p + 1]`` = the high half of h1 over the node)."""
    _core.discovery_ht_insert(ht, h1, h2, node)


def rehash(ht, new_slots):
    """A bigger hash table (``new_slots``, a power of two) with the same entries."""
    return _core.discovery_rehash(ht, int(new_slots))
