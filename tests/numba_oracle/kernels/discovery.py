"""Discovery of the DAG Δ(T): the resumable kernel :func:`discover` and its helpers.

Breadth-first from the whole table, in batches of nodes. A subtable is a set of rows; it is
identified by two 64-bit sums of random per-row keys, so a child's identity is known
after one pass over the parent's rows (accumulate the keys per attribute value) without
materialising its rows; the second key's low bits are 1, so its sum also counts the
rows. Only a new child has its rows written. A node keeps the attributes that may still
be non-constant (its discoverer's non-constant ones minus the split attribute: a
child's set is a subset of any parent's). Batches of nodes run in three phases: key
sums in parallel, hash-table lookups and numbering in node order, rows of new children
in parallel, so the numbering never depends on the threads.

Random accesses (hash slots) are prefetched ahead of use
(:func:`~dagger_cli.engine.kernels.common._prefetch`) so that their cache misses overlap.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from .bounds import _expands
from .common import (
    BUDGET_SPENT,
    DONE,
    MUST_GROW,
    OUT_OF_MEMORY,
    PIECES,
    TOO_MANY_NODES,
    _prefetch,
)

#: The discovery kernel's arguments, by group (numba takes named tuples of arrays).
#: The table, read only: row-major codes, values per attribute, decisions and their
#: number, the two row keys, the mask of key2's row-count bits, each row's distinct-row id;
#: and the codes attribute-major (attribute a's column at ``cc[a * rows:]``; depth-two layer).
TableArrays = namedtuple("TableArrays", "rc nvals dec n_dec key1 key2 cmask rclass cc")
#: One entry per node (node_bundle_start: one more).
NodeArrays = namedtuple(
    "NodeArrays",
    "node_start node_size node_attr_start node_attr_len node_mis node_major node_split "
    "node_level node_bundle_start",
)
#: The pools the nodes point into: rows, candidate attributes, bundles and edges (CSR).
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
#: Nodes of one discovery batch at most, and its row x attribute visits (about).
BATCH_NODES = 65536
BATCH_WORK = 1_000_000


#: Nodes ahead whose hash slots are prefetched in phase B.
LOOKAHEAD = 4


# The subtable hash table: open addressing, linear probing, 16-byte slots in one uint64
# array: ht[2p] is the key2 sum (never 0: its low bits count the rows), ht[2p + 1] the
# high half of the key1 sum over the node number. 0 marks an empty slot.
LOW32 = np.uint64(0xFFFFFFFF)
HIGH32 = np.uint64(0xFFFFFFFF00000000)


@njit(cache=True)
def _ht_slot(h1, mask):
    return (h1 >> np.uint64(32)) & mask


@njit(cache=True)
def _ht_insert(ht, h1, h2, node):
    mask = np.uint64(ht.size // 2 - 1)
    p = _ht_slot(h1, mask)
    while ht[2 * p] != 0:
        p = (p + np.uint64(1)) & mask
    ht[2 * p] = h2
    ht[2 * p + 1] = (h1 & HIGH32) | np.uint64(node)


@njit(cache=True)
def rehash(ht, new_slots):
    """A bigger table (``new_slots``, a power of two) with the same entries."""
    out = np.zeros(2 * new_slots, dtype=np.uint64)
    for p in range(ht.size // 2):
        if ht[2 * p] != 0:
            w = ht[2 * p + 1]
            _ht_insert(out, w & HIGH32, ht[2 * p], np.int64(w & LOW32))
    return out


@njit(cache=True)
def _scan_node(
    i,
    t,
    rc,
    m,
    nvals,
    dec,
    n_dec,
    key1,
    key2,
    cmask,
    node_start,
    node_size,
    node_attr_start,
    node_attr_len,
    node_mis,
    node_major,
    node_split,
    rclass,
    expand,
    row_pool,
    attr_pool,
    b_k,
    b_qoff,
    b_voff,
    q_attr,
    q_nv,
    v_val,
    v_h1,
    v_h2,
    hh,
    dcount,
    off,
    cand,
):
    """Phase A for node ``i`` (slot ``t`` of the batch): its leaf (most common decision,
    smallest on a tie; misclassified rows), whether some attribute splits it (its rows
    are not all equal: ``rclass`` numbers the distinct attribute rows) and, if impure
    and ``expand`` (it is above the depth cap), the key sums of every child of every
    non-constant candidate attribute, in attribute then value order. Touches only node
    ``i``'s entries and slot ``t``'s buffer ranges, so nodes can run in parallel."""
    s = node_start[i]
    n = node_size[i]
    rows = row_pool[s : s + n]
    dcount[:] = 0
    for r in rows:
        dcount[dec[r]] += 1
    best = 0
    for d in range(n_dec):
        if dcount[d] > dcount[best]:
            best = d
    mis = n - dcount[best]
    node_major[i] = best
    node_mis[i] = mis
    split = 0
    if mis > 0:
        c0 = rclass[rows[0]]
        for r in rows:
            if rclass[r] != c0:
                split = 1
                break
    node_split[i] = split
    k = 0
    if split and expand:
        # One pass over the rows accumulates, for every candidate attribute and value,
        # both key sums (key2's low bits count the rows). A row's keys are loaded once
        # and the attributes' accumulators are independent.
        # cand and off are unsigned: no negative-index wrap-around code in the innermost loop.
        a0 = node_attr_start[i]
        nc = node_attr_len[i]
        tot = 0
        for q in range(nc):
            cand[q] = np.uint64(attr_pool[a0 + q])
            off[q] = np.uint64(tot)
            tot += nvals[attr_pool[a0 + q]]
        um = np.uint64(m)
        one = np.uint64(1)
        for r in rows:
            k1 = key1[r]
            k2 = key2[r]
            base = np.uint64(r) * um
            for q in range(nc):
                j = (off[q] + np.uint64(rc[base + cand[q]])) << one
                hh[j] += k1
                hh[j + one] += k2
        qo = b_qoff[t]
        vo = b_voff[t]
        for q in range(nc):
            a = np.int64(cand[q])
            o = np.int64(off[q])
            present = 0
            for j in range(o, o + nvals[a]):
                if hh[2 * j + 1] & cmask:
                    present += 1
            if present > 1:
                q_attr[qo + k] = a
                q_nv[qo + k] = present
                k += 1
                for j in range(o, o + nvals[a]):
                    if hh[2 * j + 1] & cmask:
                        v_val[vo] = j - o
                        v_h1[vo] = hh[2 * j]
                        v_h2[vo] = hh[2 * j + 1]
                        vo += 1
        for j in range(2 * tot):
            hh[j] = 0
    b_k[t] = k


@njit(cache=True)
def _fill_rows(
    g, rc, m, node_start, node_size, row_pool, p_node, p_attr, p_val, p_child, p_grp, fillpos
):
    """Phase C for group ``g`` of new children (same parent and attribute): one pass over
    the parent's rows writes each row into the new child of its value, if any."""
    g0 = p_grp[g]
    g1 = p_grp[g + 1]
    i = p_node[g0]
    a = p_attr[g0]
    for p in range(g0, g1):
        fillpos[p_val[p]] = node_start[p_child[p]]
    s = node_start[i]
    for r in row_pool[s : s + node_size[i]]:
        v = rc[r * m + a]
        f = fillpos[v]
        if f >= 0:
            row_pool[f] = r
            fillpos[v] = f + 1
    for p in range(g0, g1):
        fillpos[p_val[p]] = -1


@njit(cache=True, parallel=True)
def discover(table, nodes, dag, batch, ht, counters, needs, budget, max_nodes, max_level, limits):
    """Discover Δ(T) breadth-first from node ``counters[C_CUR]`` on, in batches of nodes.

    What the kernel reads and owns comes in named groups: ``table``
    (:class:`TableArrays`, read only), ``nodes`` (:class:`NodeArrays`, one entry per node),
    ``dag`` (:class:`DagPools`: rows, candidate attributes, bundles, edges), ``batch``
    (:class:`BatchBuffers`, one batch's scratch), the hash table ``ht`` and the
    ``counters`` (indices ``C_*``); ``needs`` (indices ``N_*``) says what must grow.

    Each batch runs three phases: (A, parallel) every node's leaf and its children's key
    sums; (B, serial, in node order) children looked up in the hash table, new ones
    numbered and given room, bundles and edges written; (C, parallel) the new children's
    rows written. Node numbers and row order do not depend on the number of threads.

    A node's level (``node_level``, the root's 0) is the level of the node that discovered
    it plus one: breadth-first, that is its least depth in any tree. Only nodes of level
    below ``max_level`` (the depth cap, else larger than any level) that can be split
    within the bounds ``limits`` are expanded (:func:`_expands`); the others get their
    leaf only.

    Returns DONE, BUDGET_SPENT, MUST_GROW (sizes in ``needs``; phase B resumes where it
    stopped), TOO_MANY_NODES (more than ``max_nodes`` subtables) or OUT_OF_MEMORY (a
    piece failed to allocate its arrays).
    ``rc`` is the table row-major (row r's attribute a at ``rc[r * m + a]``)."""
    rc, nvals, dec, n_dec, key1, key2, cmask, rclass, _ = table
    (
        node_start,
        node_size,
        node_attr_start,
        node_attr_len,
        node_mis,
        node_major,
        node_split,
        node_level,
        node_bundle_start,
    ) = nodes
    row_pool, attr_pool, bundle_attr, bundle_edge_start, edge_child = dag
    (
        b_k,
        b_qoff,
        b_voff,
        q_attr,
        q_nv,
        v_val,
        v_h1,
        v_h2,
        p_node,
        p_attr,
        p_val,
        p_child,
        p_grp,
    ) = batch
    m = nvals.size
    maxv = 1
    total = 0
    for a in range(m):
        total += nvals[a]
        if nvals[a] > maxv:
            maxv = nvals[a]
    mask = np.uint64(ht.size // 2 - 1)
    work = 0
    while True:
        if counters[C_PHASE] == 0:
            # Choose the batch: nodes from C_CUR, bounded by the buffers and the work.
            lo = counters[C_CUR]
            if lo >= counters[C_NODES]:
                return DONE
            if work >= budget:
                return BUDGET_SPENT
            hi = lo
            qt = 0
            vt = 0
            wk = 0
            while hi < counters[C_NODES] and hi - lo < b_k.size:
                grow = _expands(node_level[hi], node_size[hi], max_level, limits)
                nc = node_attr_len[hi] if grow else 0
                vs = 0
                a0 = node_attr_start[hi]
                for q in range(nc):
                    vs += nvals[attr_pool[a0 + q]]
                if qt + nc > q_attr.size or vt + vs > v_val.size:
                    if hi == lo:
                        needs[N_QBUF] = nc
                        needs[N_VBUF] = vs
                        return MUST_GROW
                    break
                b_qoff[hi - lo] = qt
                b_voff[hi - lo] = vt
                qt += nc
                vt += vs
                wk += node_size[hi] * (nc + 1)
                hi += 1
                if wk >= BATCH_WORK:
                    break
            bn = hi - lo
            pieces = min(bn, PIECES)
            # A node no piece scanned (its allocation failed: numba drops an exception
            # raised in a parallel loop) must not pass for a scanned one.
            b_k[:bn] = -1
            for pa in prange(pieces):
                hh = np.zeros(2 * total, dtype=np.uint64)
                dcount = np.zeros(max(n_dec, 1), dtype=np.int64)
                off = np.zeros(max(m, 1), dtype=np.uint64)
                cand = np.zeros(max(m, 1), dtype=np.uint64)
                for ta in range(pa, bn, pieces):
                    _scan_node(
                        lo + ta,
                        ta,
                        rc,
                        m,
                        nvals,
                        dec,
                        n_dec,
                        key1,
                        key2,
                        cmask,
                        node_start,
                        node_size,
                        node_attr_start,
                        node_attr_len,
                        node_mis,
                        node_major,
                        node_split,
                        rclass,
                        _expands(node_level[lo + ta], node_size[lo + ta], max_level, limits),
                        row_pool,
                        attr_pool,
                        b_k,
                        b_qoff,
                        b_voff,
                        q_attr,
                        q_nv,
                        v_val,
                        v_h1,
                        v_h2,
                        hh,
                        dcount,
                        off,
                        cand,
                    )
            for ta in range(bn):
                if b_k[ta] < 0:
                    return OUT_OF_MEMORY
            work += wk
            counters[C_BHI] = hi
            counters[C_BPOS] = lo
            counters[C_PEND] = 0
            counters[C_PHASE] = 1
        lo = counters[C_CUR]
        hi = counters[C_BHI]
        while counters[C_BPOS] < hi:
            i = counters[C_BPOS]
            t = i - lo
            k = b_k[t]
            nb = counters[C_BUNDLES]
            node_bundle_start[i] = nb
            if k == 0:
                counters[C_TERMINAL] += 1
                node_bundle_start[i + 1] = nb
                counters[C_BPOS] = i + 1
                continue
            n = node_size[i]
            qo = b_qoff[t]
            new_max = 0
            for q in range(k):
                new_max += q_nv[qo + q]
            # Worst-case room for this node, checked before anything is written.
            need_nodes = counters[C_NODES] + new_max
            grow = False
            if need_nodes > node_size.size:
                needs[N_NODES] = need_nodes
                grow = True
            if counters[C_ROWS] + n * k > row_pool.size:
                needs[N_ROWS] = counters[C_ROWS] + n * k
                grow = True
            if counters[C_ATTRS] + new_max * k > attr_pool.size:
                needs[N_ATTRS] = counters[C_ATTRS] + new_max * k
                grow = True
            if nb + k > bundle_attr.size:
                needs[N_BUNDLES] = nb + k
                grow = True
            if counters[C_EDGES] + new_max > edge_child.size:
                needs[N_EDGES] = counters[C_EDGES] + new_max
                grow = True
            if 2 * need_nodes > ht.size // 2:
                needs[N_HASH] = 2 * need_nodes
                grow = True
            if counters[C_PEND] + new_max > p_node.size:
                needs[N_PEND] = counters[C_PEND] + new_max
                grow = True
            if grow:
                return MUST_GROW
            ne = counters[C_EDGES]
            vo = b_voff[t]
            pend = counters[C_PEND]
            # Start loading the hash slots of a node a few places ahead.
            ta = t + LOOKAHEAD
            if ta < hi - lo:
                for e in range(b_voff[ta], b_voff[ta + 1]):
                    _prefetch(ht, 2 * _ht_slot(v_h1[e], mask))
            for q in range(k):
                a = q_attr[qo + q]
                bundle_attr[nb] = a
                bundle_edge_start[nb] = ne
                for e in range(vo, vo + q_nv[qo + q]):
                    h1 = v_h1[e]
                    h2 = v_h2[e]
                    tag = h1 & HIGH32
                    p = _ht_slot(h1, mask)
                    found = -1
                    while ht[2 * p] != 0:
                        if ht[2 * p] == h2 and (ht[2 * p + 1] & HIGH32) == tag:
                            found = np.int64(ht[2 * p + 1] & LOW32)
                            break
                        p = (p + np.uint64(1)) & mask
                    if found < 0:
                        found = counters[C_NODES]
                        if found >= max_nodes:
                            return TOO_MANY_NODES
                        counters[C_NODES] = found + 1
                        node_level[found] = node_level[i] + 1
                        ht[2 * p] = h2
                        ht[2 * p + 1] = tag | np.uint64(found)
                        size = np.int64(h2 & cmask)
                        node_start[found] = counters[C_ROWS]
                        node_size[found] = size
                        counters[C_ROWS] += size
                        # Candidate attributes of the child: this node's non-constant ones but a.
                        node_attr_start[found] = counters[C_ATTRS]
                        node_attr_len[found] = k - 1
                        w = counters[C_ATTRS]
                        for q2 in range(k):
                            if q2 != q:
                                attr_pool[w] = q_attr[qo + q2]
                                w += 1
                        counters[C_ATTRS] = w
                        p_node[pend] = i
                        p_attr[pend] = a
                        p_val[pend] = v_val[e]
                        p_child[pend] = found
                        pend += 1
                    edge_child[ne] = found
                    ne += 1
                vo += q_nv[qo + q]
                nb += 1
                bundle_edge_start[nb] = ne
            counters[C_PEND] = pend
            counters[C_BUNDLES] = nb
            counters[C_EDGES] = ne
            node_bundle_start[i + 1] = nb
            counters[C_BPOS] = i + 1
        # Phase C: rows of the batch's new children, one pass per (parent, attribute).
        pend = counters[C_PEND]
        ng = 0
        for p in range(pend):
            if p == 0 or p_node[p] != p_node[p - 1] or p_attr[p] != p_attr[p - 1]:
                p_grp[ng] = p
                ng += 1
                work += node_size[p_node[p]]
        p_grp[ng] = pend
        pieces = min(ng, PIECES)
        filled = np.zeros(max(pieces, 1), dtype=np.uint8)
        for pc in prange(pieces):
            fillpos = np.full(maxv, -1, dtype=np.int64)
            for gc in range(pc, ng, pieces):
                _fill_rows(
                    gc,
                    rc,
                    m,
                    node_start,
                    node_size,
                    row_pool,
                    p_node,
                    p_attr,
                    p_val,
                    p_child,
                    p_grp,
                    fillpos,
                )
            filled[pc] = 1
        for pc in range(pieces):
            if filled[pc] == 0:
                return OUT_OF_MEMORY
        counters[C_PEND] = 0
        counters[C_CUR] = hi
        counters[C_PHASE] = 0
