"""The fast engine: compiled kernels (numba) for the DAG Δ(T) and its Pareto fronts.

Two phases, each a resumable kernel that returns to Python every few million units of
work (so progress can be shown and Ctrl-C honoured) or when an array must grow:

1. **Discovery** (breadth-first, :func:`discover`). A subtable is a set of rows; it is
   identified by two 64-bit sums of random per-row keys, so a child's identity is known
   after one pass over the parent's rows (accumulate the keys per attribute value) without
   materialising its rows; the second key's low bits are 1, so its sum also counts the
   rows. Only a new child has its rows written. A node keeps the attributes that may still
   be non-constant (its discoverer's non-constant ones minus the split attribute: a
   child's set is a subset of any parent's). Batches of nodes run in three phases: key
   sums in parallel, hash-table lookups and numbering in node order, rows of new children
   in parallel, so the numbering never depends on the threads.
2. **Fronts** (:func:`fronts`), in order of increasing subtable size: a child is a strict
   subset of its parent, so that order is topological, and nodes of one size are
   independent (computed in parallel pieces). A bundle's front is the Pareto-filtered
   combination of its children's fronts, one child at a time; a node's front is the
   Pareto filter of its leaf point and its bundles' fronts. Every stored point keeps the
   local index of the bundle that made it (-1: the leaf), which is all tree extraction
   needs.

Random accesses (hash slots, children's fronts) are prefetched ahead of use
(:func:`_prefetch`, LLVM's prefetch intrinsic) so that their cache misses overlap.

Ties: among equal candidate points the first listed wins: the leaf, then bundles in
attribute (column) order; inside a bundle, children in value order.
"""

from __future__ import annotations

from collections import namedtuple

from . import threads

# The OpenMP waiting policy is read when numba loads its OpenMP layer (on the first
# parallel kernel), so its default is set here, before (see dagger_cli.threads).
threads.configure_openmp()

import numpy as np  # noqa: E402
from llvmlite import ir  # noqa: E402
from numba import njit, prange, types  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

threads.defer_scipy_blas()  # numba's first call would import scipy.linalg (0.2-0.3 s)

MAXK = 1
INF = np.iinfo(np.int64).max

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

# What the resumable kernels return (engine.Status names them on the Python side).
DONE, BUDGET_SPENT, MUST_GROW, TOO_MANY_NODES, FRONT_TOO_LONG = range(5)
#: The remaining depth of an uncapped subproblem ("infinite").
NO_CAP = 1 << 30

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
#: Independent pieces a parallel phase is cut into (interleaved, for balance).
PIECES = 16
#: Nodes ahead whose hash slots are prefetched in phase B.
LOOKAHEAD = 4


@njit(cache=True)
def _grow(a, need):
    """``a``, or a copy with room for ``need`` items (at least double) when it is shorter."""
    if need <= a.size:
        return a
    out = np.empty(max(need, 2 * a.size), dtype=a.dtype)
    out[: a.size] = a
    return out


@intrinsic
def _prefetch(typingctx, arr, idx):
    """Ask the CPU to start loading ``arr[idx]`` into the cache (LLVM's prefetch; no
    effect on results). Lets independent random accesses overlap."""

    def codegen(context, builder, sig, args):
        aryty = sig.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]], wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, idx), codegen


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


@njit(cache=True, inline="always")
def _expands(level, n, max_level, limits):
    """Whether a node of least depth ``level`` and ``n`` rows is expanded: below the
    depth cap and splittable within the bounds ``limits`` (x's bound, split_const,
    split_rows, leaf_const, then y's; INF: none). Its own split and each of its
    ``level`` ancestors' add at least ``split_const + split_rows * n``, and below it
    every tree costs at least ``leaf_const``."""
    if level >= max_level:
        return False
    for o in range(0, 8, 4):
        # Its split is at depth ``level``: ``level + 1`` splits of at least n rows.
        if _allowance(limits[o], level + 1, limits[o + 1], limits[o + 2], n) < limits[o + 3]:
            return False
    return True


@njit(cache=True)
def splittable(node_level, node_size, limits):
    """Per node, whether a tree within the bounds ``limits`` can split it (what
    discovery decides, :func:`_expands`, the depth cap aside)."""
    out = np.empty(node_level.size, dtype=np.bool_)
    for i in range(node_level.size):
        out[i] = _expands(node_level[i], node_size[i], NO_CAP, limits)
    return out


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
    stopped) or TOO_MANY_NODES (more than ``max_nodes`` subtables).
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
        counters[C_PEND] = 0
        counters[C_CUR] = hi
        counters[C_PHASE] = 0


@njit(cache=True, inline="always")
def _pareto_into(x, y, ch, p, outx, outy, outch, sbx, sbi):
    """Write the Pareto points of the first ``p`` candidates to out*, x ascending
    (out* must have room for ``p + 1`` points).

    The first listed of equal points wins. Uses an array indexed by y when y spans a
    small range (misclassifications never exceed the rows), else a stable sort."""
    if p == 0:
        return 0
    if p == 1:
        outx[0] = x[0]
        outy[0] = y[0]
        outch[0] = ch[0]
        return 1
    ymin = y[0]
    ymax = y[0]
    for k in range(1, p):
        ymin = min(ymin, y[k])
        ymax = max(ymax, y[k])
    span = ymax - ymin + 1
    cnt = 0
    if span <= 4 * p + 16 and span <= sbx.size:
        # sbx is all INF on entry and is left so; sbi holds valid indices (< p). Written
        # without data-dependent branches (selects), which mispredict on short inputs.
        # (Unsigned indices: no negative-index wrap-around code in these loops.)
        for k in range(p):
            t = np.uint64(y[k] - ymin)
            v = x[k]
            better = v < sbx[t]
            sbi[t] = k if better else sbi[t]
            sbx[t] = v if better else sbx[t]
        # y ascending, keeping x strictly decreasing (each write is kept or overwritten;
        # out* have room for one more than p) ...
        cur = INF
        w = np.uint64(0)
        for t in range(span):
            v = sbx[t]
            keep = v < cur
            outx[w] = v
            outy[w] = t + ymin
            outch[w] = ch[np.uint64(sbi[t])]
            w += np.uint64(keep)
            cur = min(cur, v)
            sbx[t] = INF
            sbi[t] = 0
        cnt = np.int64(w)
        # ... then reversed into x ascending.
        for k in range(cnt // 2):
            j = cnt - 1 - k
            outx[k], outx[j] = outx[j], outx[k]
            outy[k], outy[j] = outy[j], outy[k]
            outch[k], outch[j] = outch[j], outch[k]
        return cnt
    xmin = x[0]
    for k in range(1, p):
        if x[k] < xmin:
            xmin = x[k]
    key = np.empty(p, dtype=np.int64)
    for k in range(p):
        key[k] = (x[k] - xmin) * span + (y[k] - ymin)
    order = np.argsort(key, kind="mergesort")
    cur = INF
    for q in range(p):
        k = order[q]
        if y[k] < cur:
            cur = y[k]
            outx[cnt] = x[k]
            outy[cnt] = y[k]
            outch[cnt] = ch[k]
            cnt += 1
    return cnt


@njit(cache=True, inline="always")
def _comb(k, a, b):
    """Two children's costs combined (``k``: MAXK or sum)."""
    return max(a, b) if k == MAXK else a + b


@njit(cache=True, inline="always")
def _allowance(limit, lvl, sc, sr, n):
    """The most a subproblem of ``n`` rows whose least depth is ``lvl`` may cost for a
    tree through it to cost at most ``limit`` (INF: unbounded): each of its ``lvl``
    ancestors is a split of more rows, adding at least ``sc + sr * n``."""
    if limit == INF:
        return INF
    return limit - lvl * (sc + sr * n)


@njit(cache=True, inline="always")
def _dominated(qx, qy, ox, oy, no):
    """Whether a point of the Pareto set ``ox, oy[:no]`` (x ascending) is <= ``(qx, qy)``
    in both costs."""
    j = 0
    while j < no and ox[j] <= qx:
        j += 1
    return j > 0 and oy[j - 1] <= qy


@njit(cache=True, inline="always")
def _prune(ax, ay, na, k, restx, k2, resty, addx, addy, xs, ys, ox, oy, no):
    """Keep (in place) the points of a bundle's partial front ``ax, ay[:na]`` (x
    ascending) whose best completion (the remaining children at their least x and least
    y: ``restx``, ``resty``) can still be on the node's front: within the allowances
    ``xs``, ``ys`` and not dominated by the node's front so far ``ox, oy[:no]``. Returns
    how many are kept. (A dropped point's every completion is dominated by, or equal to,
    a point listed before it, which wins the tie: the front and its tags are unchanged.)"""
    w = 0
    j = 0
    for q in range(na):
        lx = _comb(k, ax[q], restx) + addx
        ly = _comb(k2, ay[q], resty) + addy
        # The bounds' x never decreases with q: the last front point with x <= lx is found
        # by a pointer moving one way.
        while j < no and ox[j] <= lx:
            j += 1
        if lx <= xs and ly <= ys and not (j > 0 and oy[j - 1] <= ly):
            ax[w] = ax[q]
            ay[w] = ay[q]
            w += 1
    return w


@njit(cache=True)
def _node_front(
    n,
    mis,
    split,
    lvl,
    b0,
    b1,
    bundle_edge_start,
    g_base,
    params,
    gp,
    gl,
    px,
    py,
    scr,
    sbx,
    sbi,
):
    """One subproblem's front into ``ox, oy, oc``; returns its length, or ``-need`` when
    the scratch arrays (all of one length) are too short.

    Its candidates are the leaf (unless ``params[10]`` asks for exact trees only and the
    node is impure and ``split``: some attribute splits it) and bundles ``b0:b1`` (none
    at remaining depth 0). A front may be empty (exact trees only, under a depth cap): a
    bundle with an empty child is empty.

    The node's children's fronts are ``px, py[gp[g]:gp[g] + gl[g]]`` for the node's edges
    ``g = g_base + e - bundle_edge_start[b0]``. Scratch arrays are never re-bound here,
    which keeps the compiled loop free of reference counting.

    Bounds (exact: no point of the front is lost, no tag changes):

    * the front is kept sorted as it grows (leaf, then bundle after bundle, merged; the
      first listed of equal points wins). A bundle whose best possible point (every child
      at its least x, every child at its least y) is dominated by it is skipped, and
      inside a bundle a partial combination whose best completion is dominated is dropped;
    * ``params[11]``, ``params[12]`` bound the root's x and y (INF: none): this
      subproblem, at least ``lvl`` deep, keeps the points within what is left of them
      (:func:`_allowance`);
    * ``params[13]`` keeps only the point of least y (least x among those), when y sums
      over children: the root's such point is made of its children's.

    ``scr`` are the scratch arrays of :func:`_scratch`."""
    ax, ay, ac, bx, by, bc, cx, cy, cc, ox, oy, oc, rx, ry = scr
    xk, xlc, xlm, xsc, xsr = params[0], params[1], params[2], params[3], params[4]
    yk, ylc, ylm, ysc, ysr = params[5], params[6], params[7], params[8], params[9]
    xs = _allowance(params[11], lvl, xsc, xsr, n)
    ys = _allowance(params[12], lvl, ysc, ysr, n)
    least = params[13] != 0
    both_sum = xk != MAXK and yk != MAXK
    cap = ax.size
    e_base = bundle_edge_start[b0]
    addx = xsc + xsr * n
    addy = ysc + ysr * n
    no = 0
    if params[10] == 0 or mis == 0 or split == 0:
        lx = xlc + xlm * mis
        ly = ylc + ylm * mis
        if lx <= xs and ly <= ys:
            ox[0] = lx
            oy[0] = ly
            oc[0] = -1
            no = 1
            if least:
                ys = ly
    for b in range(b0, b1):
        g0 = g_base + bundle_edge_start[b] - e_base
        g1 = g_base + bundle_edge_start[b + 1] - e_base
        if g1 - g0 > cap:
            return -(g1 - g0 + 1)
        # The best the children after each one can do: rx, ry[g - g0] (costs are >= 0:
        # 0 is the combination of none).
        empty = gl[g0] == 0
        rx[g1 - 1 - g0] = 0
        ry[g1 - 1 - g0] = 0
        for g in range(g1 - 1, g0, -1):
            L = gl[g]
            if L == 0:
                empty = True
                break
            s = gp[g]
            rx[g - 1 - g0] = _comb(xk, rx[g - g0], px[s])
            ry[g - 1 - g0] = _comb(yk, ry[g - g0], py[s + L - 1])
        if empty:
            continue
        # The bundle's best possible point: skipped when out of bounds or dominated.
        s0 = gp[g0]
        ix = _comb(xk, px[s0], rx[0]) + addx
        iy = _comb(yk, py[s0 + gl[g0] - 1], ry[0]) + addy
        if ix > xs or iy > ys or _dominated(ix, iy, ox, oy, no):
            continue
        # The first child's front (costs are >= 0: max with 0 and + 0 leave it unchanged,
        # and it is already Pareto), then one more child at a time.
        # (Unsigned indices into the gathered points: no wrap-around code.)
        s = np.uint64(s0)
        na = gl[g0]
        if na >= cap:
            return -(na + 1)
        for k in range(na):
            ax[k] = px[s + np.uint64(k)]
            ay[k] = py[s + np.uint64(k)]
        na = _prune(ax, ay, na, xk, rx[0], yk, ry[0], addx, addy, xs, ys, ox, oy, no)
        for g in range(g0 + 1, g1):
            if na == 0:
                break
            s = np.uint64(gp[g])
            L = gl[g]
            if L == 1 and both_sum:
                # A single point shifts a Pareto set; it stays Pareto.
                for k in range(na):
                    ax[k] += px[s]
                    ay[k] += py[s]
            else:
                p = na * L
                if p >= cap:
                    return -(p + 1)
                w = np.uint64(0)
                for k in range(na):
                    for q in range(s, s + np.uint64(L)):
                        bx[w] = _comb(xk, ax[k], px[q])
                        by[w] = _comb(yk, ay[k], py[q])
                        w += np.uint64(1)
                na = _pareto_into(bx, by, bc, p, ax, ay, ac, sbx, sbi)
            na = _prune(ax, ay, na, xk, rx[g - g0], yk, ry[g - g0], addx, addy, xs, ys, ox, oy, no)
        if na == 0:
            continue
        if no + na >= cap:
            return -(no + na + 1)
        # Merge into the front: x ascending, then y ascending, the front's point first on
        # a tie (listed before); a point is kept when its y is below every kept one's.
        i = 0
        j = 0
        w = 0
        cur = INF
        while i < no or j < na:
            vx = ax[j] + addx if j < na else INF
            vy = ay[j] + addy if j < na else INF
            if j >= na or (i < no and (ox[i] < vx or (ox[i] == vx and oy[i] <= vy))):
                vx = ox[i]
                vy = oy[i]
                vc = oc[i]
                i += 1
            else:
                vc = b - b0
                j += 1
            if vy < cur:
                cx[w] = vx
                cy[w] = vy
                cc[w] = vc
                w += 1
                cur = vy
        for k in range(w):
            ox[k] = cx[k]
            oy[k] = cy[k]
            oc[k] = cc[k]
        no = w
        if least:
            ox[0] = ox[no - 1]
            oy[0] = oy[no - 1]
            oc[0] = oc[no - 1]
            no = 1
            ys = oy[0]
    return no


@njit(cache=True)
def _scratch(cap):
    """The scratch arrays of :func:`_node_front` (one tuple), each of length ``cap``: x, y and
    bundle index of a bundle's running front (a), of its products with the next child (b),
    of a node's merged candidates (c), of its front (o), and the best the children after
    each one of a bundle can do (r)."""
    return (
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int64),
        np.zeros(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int64),
        np.zeros(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int32),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int64),
        np.empty(cap, dtype=np.int32),
    )


@njit(cache=True)
def _child_sub(c, r, sub_start, capped):
    """The subproblem of child node ``c`` under a subproblem of remaining depth ``r``:
    ``(c, r - 1)``, or ``c``'s top one when it has fewer (its subtree cannot be deeper);
    node ``c`` itself when uncapped (one subproblem per node)."""
    if not capped:
        return c
    s0 = sub_start[c]
    return s0 + min(r - 1, sub_start[c + 1] - s0 - 1)


@njit(cache=True)
def _front_piece(
    pc,
    pieces,
    c0,
    nk,
    ord_node,
    ord_r,
    node_size,
    node_mis,
    node_split,
    node_level,
    cb0,
    cb1,
    bundle_edge_start,
    edge_child,
    sub_start,
    capped,
    ready,
    params,
    fref,
    fxy,
    bound,
    out_x,
    out_y,
    out_c,
    out_len,
):
    """The fronts of chunk entries ``t = pc, pc + pieces, ...`` (below ``nk``), entry
    ``t``'s written to ``out_*[t * bound:]`` with its length in ``out_len[t]`` (-1: longer
    than ``bound``, which cannot happen). Independent of the other pieces.

    The children's fronts are first gathered into local arrays, with prefetches ahead of
    the loads, so the cache misses of many children overlap."""
    tot_e = 0
    for t in range(pc, nk, pieces):
        tot_e += bundle_edge_start[cb1[t]] - bundle_edge_start[cb0[t]]
    gs = np.empty(tot_e, dtype=np.int64)
    gl = np.empty(tot_e, dtype=np.int64)
    gp = np.empty(tot_e, dtype=np.int64)
    eb = np.empty(nk, dtype=np.int64)
    if capped:
        for t in range(pc, nk, pieces):
            for e in range(bundle_edge_start[cb0[t]], bundle_edge_start[cb1[t]]):
                _prefetch(sub_start, edge_child[e])
    w = 0
    for t in range(pc, nk, pieces):
        r = ord_r[c0 + t]
        for e in range(bundle_edge_start[cb0[t]], bundle_edge_start[cb1[t]]):
            sc = _child_sub(np.int64(edge_child[e]), r, sub_start, capped)
            gs[w] = sc
            _prefetch(fref, 2 * sc)
            w += 1
    w = 0
    for t in range(pc, nk, pieces):
        eb[t] = w
        for _e in range(bundle_edge_start[cb0[t]], bundle_edge_start[cb1[t]]):
            sc = gs[w]
            s = fref[2 * sc]
            gs[w] = s
            gl[w] = fref[2 * sc + 1]
            _prefetch(fxy, 2 * s)
            w += 1
    tot_p = 0
    for g in range(tot_e):
        gp[g] = tot_p
        tot_p += gl[g]
    px = np.empty(tot_p, dtype=np.int64)
    py = np.empty(tot_p, dtype=np.int64)
    for g in range(tot_e):
        s = gs[g]
        o = gp[g]
        for q in range(gl[g]):
            px[o + q] = fxy[2 * (s + q)]
            py[o + q] = fxy[2 * (s + q) + 1]
    cap = 64
    scr = _scratch(cap)
    sbx = np.full(bound + 2, INF, dtype=np.int64)
    sbi = np.zeros(bound + 2, dtype=np.int64)
    for t in range(pc, nk, pieces):
        i = ord_node[c0 + t]
        if capped and ready[sub_start[i] + ord_r[c0 + t]]:
            out_len[t] = 0
            continue
        while True:
            cnt = _node_front(
                node_size[i],
                node_mis[i],
                node_split[i],
                node_level[i],
                cb0[t],
                cb1[t],
                bundle_edge_start,
                eb[t],
                params,
                gp,
                gl,
                px,
                py,
                scr,
                sbx,
                sbi,
            )
            if cnt >= 0:
                break
            cap = max(-cnt, 2 * cap)
            scr = _scratch(cap)
        if cnt > bound:
            out_len[t] = -1
            continue
        ox, oy, oc = scr[9], scr[10], scr[11]
        o = t * bound
        for k in range(cnt):
            out_x[o + k] = ox[k]
            out_y[o + k] = oy[k]
            out_c[o + k] = oc[k]
        out_len[t] = cnt


@njit(cache=True)
def _store(nk, out_sub, out_off, out_len, out_x, out_y, out_c, fref, fxy, fch, counters, needs):
    """Append a batch's fronts to the point pool, in entry order (the same bytes for any
    thread count): entry ``t``'s ``out_len[t]`` points at ``out_*[out_off[t]:]`` become
    subproblem ``out_sub[t]``'s front (-1: none, its front is already there).
    ``counters[1]`` counts the points used. Returns (DONE, points), (FRONT_TOO_LONG, 0)
    when an entry's length is -1, or (MUST_GROW, 0) with ``needs[0]`` the points needed."""
    total = 0
    for t in range(nk):
        if out_len[t] < 0:
            return FRONT_TOO_LONG, 0
        total += out_len[t]
    used = counters[1]
    if used + total > fch.size:
        needs[0] = used + total
        return MUST_GROW, 0
    for t in range(nk):
        sub = out_sub[t]
        if sub < 0:
            continue
        cnt = out_len[t]
        fref[2 * sub] = used
        fref[2 * sub + 1] = cnt
        o = out_off[t]
        for k in range(cnt):
            fxy[2 * (used + k)] = out_x[o + k]
            fxy[2 * (used + k) + 1] = out_y[o + k]
            fch[used + k] = out_c[o + k]
        used += cnt
    counters[1] = used
    return DONE, total


#: Nodes of one fronts chunk at most, and its output entries (nodes x bound) at most.
CHUNK_NODES = 4096
CHUNK_ENTRIES = 1 << 21


@njit(cache=True, parallel=True)
def fronts(
    ord_node,
    ord_r,
    node_size,
    node_mis,
    node_split,
    node_level,
    node_bundle_start,
    bundle_edge_start,
    edge_child,
    sub_start,
    capped,
    ready,
    params,
    m,
    fref,
    fxy,
    fch,
    counters,
    needs,
    budget,
):
    """Fronts of the subproblems ``counters[0]:`` of the order. Returns DONE,
    BUDGET_SPENT, MUST_GROW (the point pool must grow to ``needs[0]``) or FRONT_TOO_LONG
    (a front longer than its bound: a bug). ``params[10] == 1`` keeps only trees whose
    impure leaves cannot be split (no avoidable misclassification). Subproblems marked in
    ``ready`` (capped only; one byte per subproblem) already have their fronts (the
    depth-two layer, :func:`d2_fronts`) and are skipped.

    Subproblem ``k`` of the order is node ``ord_node[k]`` with remaining depth
    ``ord_r[k]`` (0: its leaf only; NO_CAP when uncapped). With ``capped``, node ``i``'s
    subproblems are ``sub_start[i] + r`` for ``r = 0 .. sub_start[i + 1] - sub_start[i] - 1``
    and its children's are taken at ``r - 1`` (see :func:`_child_sub`); uncapped, node
    ``i`` has the one subproblem ``i``. Subproblem ``s``'s front is points
    ``fref[2s]:fref[2s] + fref[2s + 1]``, point ``k`` being ``(fxy[2k], fxy[2k + 1])``
    (flat views of the engine's two-column arrays).

    The order is by node size (a node's subproblems together, r ascending). Subproblems
    of nodes of one size are independent (children are strictly smaller), so a chunk of
    them is computed in parallel pieces, each into its own slots, then copied into the
    pool in order (the same bytes for any thread count). A front's points have distinct x
    and distinct y, and one of the two costs takes at most ``2n + m + 1`` values on n rows
    (depth <= m, nodes < 2n, leaves and misclassifications <= n), which bounds a slot."""
    work = 0
    cb0 = np.empty(CHUNK_NODES, dtype=np.int64)
    cb1 = np.empty(CHUNK_NODES, dtype=np.int64)
    out_len = np.empty(CHUNK_NODES, dtype=np.int64)
    out_sub = np.empty(CHUNK_NODES, dtype=np.int64)
    out_off = np.empty(CHUNK_NODES, dtype=np.int64)
    out_x = np.empty(1024, dtype=np.int64)
    out_y = np.empty(1024, dtype=np.int64)
    out_c = np.empty(1024, dtype=np.int32)
    while counters[0] < ord_node.size:
        if work >= budget:
            return BUDGET_SPENT
        c0 = counters[0]
        n0 = node_size[ord_node[c0]]
        bound = 2 * n0 + m + 2
        c1 = c0 + 1
        while (
            c1 < ord_node.size
            and c1 - c0 < CHUNK_NODES
            and node_size[ord_node[c1]] == n0
            and (c1 - c0 + 1) * bound <= CHUNK_ENTRIES
        ):
            c1 += 1
        nk = c1 - c0
        if nk * bound > out_x.size:
            size = max(nk * bound, 2 * out_x.size)
            out_x = np.empty(size, dtype=np.int64)
            out_y = np.empty(size, dtype=np.int64)
            out_c = np.empty(size, dtype=np.int32)
        for t in range(nk):
            i = ord_node[c0 + t]
            cb0[t] = node_bundle_start[i]
            cb1[t] = node_bundle_start[i + 1] if ord_r[c0 + t] > 0 else cb0[t]
            if capped and ready[sub_start[i] + ord_r[c0 + t]]:
                cb1[t] = cb0[t]
            work += bundle_edge_start[cb1[t]] - bundle_edge_start[cb0[t]]
        pieces = min(nk // 16, PIECES)
        if pieces <= 1:
            _front_piece(
                0,
                1,
                c0,
                nk,
                ord_node,
                ord_r,
                node_size,
                node_mis,
                node_split,
                node_level,
                cb0,
                cb1,
                bundle_edge_start,
                edge_child,
                sub_start,
                capped,
                ready,
                params,
                fref,
                fxy,
                bound,
                out_x,
                out_y,
                out_c,
                out_len,
            )
        else:
            for pc in prange(pieces):
                _front_piece(
                    pc,
                    pieces,
                    c0,
                    nk,
                    ord_node,
                    ord_r,
                    node_size,
                    node_mis,
                    node_split,
                    node_level,
                    cb0,
                    cb1,
                    bundle_edge_start,
                    edge_child,
                    sub_start,
                    capped,
                    ready,
                    params,
                    fref,
                    fxy,
                    bound,
                    out_x,
                    out_y,
                    out_c,
                    out_len,
                )
        for t in range(nk):
            i = ord_node[c0 + t]
            sub = sub_start[i] + ord_r[c0 + t] if capped else i
            out_sub[t] = -1 if capped and ready[sub] else sub
            out_off[t] = t * bound
        status, total = _store(
            nk, out_sub, out_off, out_len, out_x, out_y, out_c, fref, fxy, fch, counters, needs
        )
        if status != DONE:
            return status
        work += nk + total
        counters[0] = c1
    return DONE


# ------------------------------------------------------------------ the depth-two layer
@intrinsic
def _popcount(typingctx, val):
    """The number of set bits of a uint64 (LLVM's ctpop: one instruction)."""

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def _split_point(params, nbr, cnt, base, step, count, C):
    """The point (x, y) of a split of a branch of ``nbr`` rows into leaves, and how many
    of its children are non-empty: child i's class counts are ``cnt[base + i * step:]``
    (``C`` of them), i < ``count``, empty children skipped."""
    xk, xlc, xlm, xsc, xsr = params[0], params[1], params[2], params[3], params[4]
    yk, ylc, ylm, ysc, ysr = params[5], params[6], params[7], params[8], params[9]
    acx = 0
    acy = 0
    nz = 0
    for i in range(count):
        o = base + i * step
        tot = 0
        big = 0
        for d in range(C):
            tot += cnt[o + d]
            big = max(big, cnt[o + d])
        if tot == 0:
            continue
        nz += 1
        vx = xlc + xlm * (tot - big)
        vy = ylc + ylm * (tot - big)
        acx = _comb(xk, acx, vx)
        acy = _comb(yk, acy, vy)
    return xsc + xsr * nbr + acx, ysc + ysr * nbr + acy, nz


@njit(cache=True, inline="always")
def _offer(lx, ly, base, cap, length, x, y):
    """Offer split point ``(x, y)`` to a branch's list of mutually non-dominated split
    points ``base:base + length``; returns the new length (or ``cap + 1`` when the list
    is full: a bug, the caller checks). Which attribute made a point is not kept: tree
    extraction recomputes a branch from its rows (:func:`dagger_cli.trees._front_r1`)."""
    for q in range(length):
        if lx[base + q] <= x and ly[base + q] <= y:
            return length
    w = 0
    for q in range(length):
        if not (x <= lx[base + q] and y <= ly[base + q]):
            lx[base + w] = lx[base + q]
            ly[base + w] = ly[base + q]
            w += 1
    if w >= cap:
        return cap + 1
    lx[base + w] = x
    ly[base + w] = y
    return w + 1


@njit(cache=True)
def _d2_front(
    n,
    mis,
    rows,
    r,
    lvl,
    rc,
    colm,
    nvals,
    dec,
    n_dec,
    params,
    scr,
    sbx,
    sbi,
):
    """The front of a subtable (``rows``, ``n`` of them, ``mis`` misclassified by its
    leaf) at remaining depth ``r`` (1 or 2) without its subtables: from class counts per
    attribute value (r = 1) and per pair of attribute values (r = 2), the latter by
    bitsets over the rows (AND and popcount). The same trees, points and ties as the
    generic kernel over the DAG: the leaf first, then splits in attribute order, and
    inside a branch (r = 2) its leaf, then splits in attribute order. A point's tag in
    ``oc`` is the split attribute (column), -1 the leaf. Returns the front's length or
    ``-need`` when the scratch arrays are too short (as :func:`_node_front`; ``scr``
    from :func:`_scratch`)."""
    cx, cy, cc, ox, oy, oc = scr[6], scr[7], scr[8], scr[9], scr[10], scr[11]
    m = nvals.size
    C = max(n_dec, 1)
    maxv = 1
    for a in range(m):
        maxv = max(maxv, nvals[a])
    # Class counts per attribute value: S[(a * maxv + v) * C + d].
    S = np.zeros(m * maxv * C, dtype=np.int64)
    um = np.uint64(m)
    if maxv == 2 and C == 2:
        # 0/1 codes: sums along each row (contiguous, vectorised), the rest by subtraction.
        ones = np.zeros(m, dtype=np.int64)
        ones0 = np.zeros(m, dtype=np.int64)
        n0 = 0
        for j in range(n):
            row = rows[j]
            base = np.uint64(row) * um
            if dec[row] == 0:
                n0 += 1
                for a in range(um):
                    ones0[a] += np.int64(rc[base + a])
            else:
                for a in range(um):
                    ones[a] += np.int64(rc[base + a])
        for a in range(m):
            S[a * 4 + 2] = ones0[a]
            S[a * 4 + 3] = ones[a]
            S[a * 4 + 0] = n0 - ones0[a]
            S[a * 4 + 1] = (n - n0) - ones[a]
    else:
        for j in range(n):
            row = rows[j]
            base = np.uint64(row) * um
            d = np.uint64(dec[row])
            for a in range(m):
                i = (np.uint64(a * maxv) + np.uint64(rc[base + np.uint64(a)])) * np.uint64(C)
                S[i + d] += 1
    # Non-constant attributes (ascending) and their present values (ascending).
    attrs = np.empty(m, dtype=np.int64)
    npres = np.zeros(m, dtype=np.int64)
    pv = np.empty(m * maxv, dtype=np.int64)
    K = 0
    for a in range(m):
        c = 0
        for v in range(nvals[a]):
            tot = 0
            for d in range(C):
                tot += S[(a * maxv + v) * C + d]
            if tot > 0:
                pv[a * maxv + c] = v
                c += 1
        npres[a] = c
        if c >= 2:
            attrs[K] = a
            K += 1
    # Branches: one per (non-constant attribute, present value), attribute then value order.
    jbase = np.empty(K + 1, dtype=np.int64)
    J = 0
    for p in range(K):
        jbase[p] = J
        J += npres[attrs[p]]
    jbase[K] = J
    xk, xlc, xlm = params[0], params[1], params[2]
    yk, ylc, ylm = params[5], params[6], params[7]
    # 0/1 attributes, two classes, split points that depend on the children's total
    # misclassifications only: the specialised pair loop (_d2_pairs_binary).
    fastbin = maxv == 2 and C == 2 and (xk != MAXK or xlm == 0) and (yk != MAXK or ylm == 0)
    nbr = np.empty(J, dtype=np.int64)
    lfx = np.empty(J, dtype=np.int64)
    lfy = np.empty(J, dtype=np.int64)
    for p in range(K):
        a = attrs[p]
        for iv in range(npres[a]):
            o = (a * maxv + pv[a * maxv + iv]) * C
            tot = 0
            big = 0
            for d in range(C):
                tot += S[o + d]
                big = max(big, S[o + d])
            j = jbase[p] + iv
            nbr[j] = tot
            lfx[j] = xlc + xlm * (tot - big)
            lfy[j] = ylc + ylm * (tot - big)
    # Each branch's front at remaining depth r - 1, as the children's fronts of bundles.
    gl = np.ones(J, dtype=np.int64)
    gp = np.empty(J, dtype=np.int64)
    if r <= 1:
        for j in range(J):
            gp[j] = j
        px = lfx
        py = lfy
    else:
        W = (n + 63) >> 6
        cls = np.zeros(max(C - 1, 1) * W, dtype=np.uint64)
        for t in range(n):
            d = dec[rows[t]]
            if d < C - 1:
                cls[d * W + (t >> 6)] |= np.uint64(1) << np.uint64(t & 63)
        if fastbin:
            return _d2_binary(
                K,
                attrs,
                rows,
                n,
                mis,
                W,
                colm,
                dec.size,
                cls,
                nbr,
                lfx,
                lfy,
                params,
                cx,
                cy,
                cc,
                ox,
                oy,
                oc,
                sbx,
                sbi,
            )
        # One bitset per branch (attribute value), set row by row.
        cap = maxv + 1
        lx = np.empty(J * cap, dtype=np.int64)
        ly = np.empty(J * cap, dtype=np.int64)
        ln = np.zeros(J, dtype=np.int64)
        bits = np.zeros(J * W, dtype=np.uint64)
        jof = np.full(m * maxv, -1, dtype=np.int64)
        for p in range(K):
            a = attrs[p]
            for iv in range(npres[a]):
                jof[a * maxv + pv[a * maxv + iv]] = jbase[p] + iv
        for t in range(n):
            base = np.uint64(rows[t]) * um
            bit = np.uint64(1) << np.uint64(t & 63)
            for p in range(K):
                a = attrs[p]
                j = jof[a * maxv + np.int64(rc[base + np.uint64(a)])]
                bits[j * W + (t >> 6)] |= bit
        _d2_pairs_generic(
            K, attrs, npres, pv, maxv, C, jbase, W, bits, cls, S, nbr, params, lx, ly, ln, cap
        )
        # Each branch's front: its leaf first, then its split points (Pareto, x ascending).
        tot_p = 0
        for j in range(J):
            if ln[j] > cap:
                return D2_BUG
            tot_p += ln[j] + 1
        px = np.empty(tot_p + 1, dtype=np.int64)
        py = np.empty(tot_p + 1, dtype=np.int64)
        qx = np.empty(cap + 2, dtype=np.int64)
        qy = np.empty(cap + 2, dtype=np.int64)
        qc = np.zeros(cap + 2, dtype=np.int32)
        tc = np.zeros(cap + 2, dtype=np.int32)
        used = 0
        for j in range(J):
            qx[0] = lfx[j]
            qy[0] = lfy[j]
            for q in range(ln[j]):
                qx[q + 1] = lx[j * cap + q]
                qy[q + 1] = ly[j * cap + q]
            k = _pareto_into(qx, qy, qc, ln[j] + 1, px[used:], py[used:], tc, sbx, sbi)
            gp[j] = used
            gl[j] = k
            used += k
    bes = np.empty(K + 1, dtype=np.int64)
    for p in range(K + 1):
        bes[p] = jbase[p]
    cnt_o = _node_front(
        n,
        mis,
        1,
        lvl,
        0,
        K,
        bes,
        0,
        params,
        gp,
        gl,
        px,
        py,
        scr,
        sbx,
        sbi,
    )
    for k in range(max(cnt_o, 0)):
        if oc[k] >= 0:
            oc[k] = attrs[oc[k]]
    return cnt_o


@njit(cache=True)
def _d2_pairs_generic(
    K, attrs, npres, pv, maxv, C, jbase, W, bits, cls, S, nbr, params, lx, ly, ln, cap
):
    """Every branch's split points (depth-two layer, any table): for each pair of
    non-constant attributes a < b, the class counts per (value of a, value of b) from
    popcounts of the rows' bitsets (all but the last value of each and the last class;
    the rest by subtraction), offered to the branches a = v (split on b) and b = w
    (split on a)."""
    cnt = np.zeros(maxv * maxv * C, dtype=np.int64)
    for p in range(K):
        a = attrs[p]
        npa = npres[a]
        for q in range(p + 1, K):
            b = attrs[q]
            npb = npres[b]
            # Counts per (value of a, value of b, class): popcounts for all but the
            # last value of each and the last class; the rest by subtraction.
            for iv in range(npa - 1):
                ja = (jbase[p] + iv) * W
                for iw in range(npb - 1):
                    jb = (jbase[q] + iw) * W
                    o = (iv * npb + iw) * C
                    tot = 0
                    for w in range(W):
                        tot += _popcount(bits[ja + w] & bits[jb + w])
                    rest = np.int64(tot)
                    for d in range(C - 1):
                        cd = 0
                        for w in range(W):
                            cd += _popcount(bits[ja + w] & bits[jb + w] & cls[d * W + w])
                        cnt[o + d] = np.int64(cd)
                        rest -= np.int64(cd)
                    cnt[o + C - 1] = rest
            for iv in range(npa - 1):
                sa = (a * maxv + pv[a * maxv + iv]) * C
                o = (iv * npb + npb - 1) * C
                for d in range(C):
                    s = S[sa + d]
                    for iw in range(npb - 1):
                        s -= cnt[(iv * npb + iw) * C + d]
                    cnt[o + d] = s
            for iw in range(npb):
                sb = (b * maxv + pv[b * maxv + iw]) * C
                o = ((npa - 1) * npb + iw) * C
                for d in range(C):
                    s = S[sb + d]
                    for iv in range(npa - 1):
                        s -= cnt[(iv * npb + iw) * C + d]
                    cnt[o + d] = s
            # Branch a = v split on b (children w: stride C), and branch b = w split on
            # a (children v: stride npb * C).
            for iv in range(npa):
                j = jbase[p] + iv
                x, y, nz = _split_point(params, nbr[j], cnt, iv * npb * C, C, npb, C)
                if nz >= 2:
                    ln[j] = _offer(lx, ly, j * cap, cap, ln[j], x, y)
            for iw in range(npb):
                j = jbase[q] + iw
                x, y, nz = _split_point(params, nbr[j], cnt, iw * C, npb * C, npa, C)
                if nz >= 2:
                    ln[j] = _offer(lx, ly, j * cap, cap, ln[j], x, y)


@njit(cache=True)
def _d2_binary(
    K,
    attrs,
    rows,
    n,
    mis,
    W,
    colm,
    nt,
    cls,
    nbr,
    lfx,
    lfy,
    params,
    cx,
    cy,
    cc,
    ox,
    oy,
    oc,
    sbx,
    sbi,
):
    """The depth-2 front of a subtable of a 0/1 table with two classes (see
    :func:`_d2_front`): the value-1 bitsets, built one attribute column at a time
    (``colm``, attribute-major, ``nt`` rows a column) and stored word-major (word w of
    attribute p at ``bits[w * K + p]``) so that the pair loop runs over consecutive
    attributes; then
    :func:`_d2_pairs_binary` and :func:`_d2_tail_binary` over the attributes whose
    column is not equal or complementary to an earlier one's (they split the subtable the
    same way: only the first of each kind matters, ties going to the first attribute)."""
    bits = np.empty(K * W, dtype=np.uint64)
    for p in range(K):
        col = colm[attrs[p] * nt : (attrs[p] + 1) * nt]
        for wd in range(W):
            word = np.uint64(0)
            t0 = np.uint64(wd * 64)
            t1 = np.uint64(min(n, (wd + 1) * 64))
            for t in range(t0, t1):
                word |= np.uint64(col[np.uint64(rows[t])]) << (t - t0)
            bits[wd * K + p] = word
    reps = _distinct_columns(K, W, n, bits)
    k2 = reps.size
    bits2 = np.empty(k2 * W, dtype=np.uint64)
    attrs2 = np.empty(k2, dtype=np.int64)
    nbr2 = np.empty(2 * k2, dtype=np.int64)
    lfx2 = np.empty(2 * k2, dtype=np.int64)
    lfy2 = np.empty(2 * k2, dtype=np.int64)
    for i in range(k2):
        p = reps[i]
        for wd in range(W):
            bits2[wd * k2 + i] = bits[wd * K + p]
        attrs2[i] = attrs[p]
        for v in range(2):
            nbr2[2 * i + v] = nbr[2 * p + v]
            lfx2[2 * i + v] = lfx[2 * p + v]
            lfy2[2 * i + v] = lfy[2 * p + v]
    cap = 3
    lx = np.empty(2 * k2 * cap, dtype=np.int64)
    ly = np.empty(2 * k2 * cap, dtype=np.int64)
    ln = np.zeros(2 * k2, dtype=np.int64)
    _d2_pairs_binary(k2, n, W, bits2, cls, nbr2, params, lx, ly, ln, cap)
    return _d2_tail_binary(
        k2,
        attrs2,
        n,
        mis,
        params,
        lfx2,
        lfy2,
        lx,
        ly,
        ln,
        cap,
        cx,
        cy,
        cc,
        ox,
        oy,
        oc,
        sbx,
        sbi,
    )


@njit(cache=True)
def _d2_pairs_binary(K, n, W, bits, cls, nbr, params, lx, ly, ln, cap):
    """:func:`_d2_pairs_generic` for 0/1 attributes and two classes, with costs whose
    split points in a branch depend only on its children's total misclassifications M
    (sum costs, or max costs without a misclassification term). ``bits`` holds the rows
    with value 1, word-major (word w of attribute p at ``bits[w * K + p]``). Per pair
    two popcounts (rows with a = 1 and b = 1, and those of class 0), the rest by
    subtraction; per branch only the least M is kept, which is the branch's only Pareto
    split point (when neither cost counts misclassifications, M is taken as 0: every
    split is the same point). The split attribute is not kept: tree extraction
    recomputes a branch from its rows (:func:`dagger_cli.trees._front_r1`), ties
    included."""
    xk, xlc, xlm, xsc, xsr = params[0], params[1], params[2], params[3], params[4]
    yk, ylc, ylm, ysc, ysr = params[5], params[6], params[7], params[8], params[9]
    big = np.int64(1 << 40)
    # Per attribute: the least M of a split of branch value 0 and value 1 (big: none).
    best0 = np.full(K, big, dtype=np.int64)
    best1 = np.full(K, big, dtype=np.int64)
    na1 = np.zeros(K, dtype=np.int64)
    ya1 = np.zeros(K, dtype=np.int64)
    n11s = np.zeros(K, dtype=np.int64)
    y11s = np.zeros(K, dtype=np.int64)
    if xlm == 0 and ylm == 0:
        # M plays no part: count as if every row were of class 1, every leaf pure
        # (which cells exist still counts).
        cls = np.zeros_like(cls)
    ytot = 0
    for w in range(W):
        ytot += np.int64(_popcount(cls[w]))
        for p in range(K):
            b = bits[w * K + p]
            na1[p] += np.int64(_popcount(b))
            ya1[p] += np.int64(_popcount(b & cls[w]))
    # Unsigned indices in the loops over q: no negative-index wrap-around code, which
    # lets them vectorise (3-4x faster).
    uK = np.uint64(K)
    one = np.uint64(1)
    for p in range(K):
        up = np.uint64(p)
        for q in range(up + one, uK):
            n11s[q] = 0
            y11s[q] = 0
        for w in range(W):
            o = np.uint64(w) * uK
            a = bits[o + up]
            ac = a & cls[w]
            for q in range(up + one, uK):
                bq = bits[o + q]
                n11s[q] += np.int64(_popcount(a & bq))
                y11s[q] += np.int64(_popcount(ac & bq))
        # Branch p = 0 splits into cells 00, 01, p = 1 into 10, 11; branch q = 0 into
        # 00, 10, q = 1 into 01, 11. An empty cell makes the split impossible (the
        # attribute is constant in the branch): + big.
        nap = na1[p]
        yap = ya1[p]
        a0 = big
        a1 = big
        for q in range(up + one, uK):
            n11 = n11s[q]
            y11 = y11s[q]
            n10 = nap - n11
            y10 = yap - y11
            n01 = na1[q] - n11
            y01 = ya1[q] - y11
            n00 = n - nap - na1[q] + n11
            y00 = ytot - yap - ya1[q] + y11
            m11 = np.minimum(y11, n11 - y11)
            m10 = np.minimum(y10, n10 - y10)
            m01 = np.minimum(y01, n01 - y01)
            m00 = np.minimum(y00, n00 - y00)
            z11 = np.int64(n11 == 0) * big
            z10 = np.int64(n10 == 0) * big
            z01 = np.int64(n01 == 0) * big
            z00 = np.int64(n00 == 0) * big
            a0 = np.minimum(a0, m00 + m01 + z00 + z01)
            a1 = np.minimum(a1, m10 + m11 + z10 + z11)
            best0[q] = np.minimum(best0[q], m00 + m10 + z00 + z10)
            best1[q] = np.minimum(best1[q], m01 + m11 + z01 + z11)
        best0[p] = min(best0[p], a0)
        best1[p] = min(best1[p], a1)
    for p in range(K):
        for v in range(2):
            mm = best1[p] if v else best0[p]
            if mm >= big:
                continue
            j = 2 * p + v
            # Two leaves with mm misclassifications between them.
            cxv = xlc if xk == MAXK else 2 * xlc + xlm * mm
            cyv = ylc if yk == MAXK else 2 * ylc + ylm * mm
            lx[j * cap] = xsc + xsr * nbr[j] + cxv
            ly[j * cap] = ysc + ysr * nbr[j] + cyv
            ln[j] = 1


@njit(cache=True)
def _distinct_columns(K, W, n, bits):
    """The attributes (indices < K, ascending) whose column over the subtable's ``n`` rows
    (word-major bitsets: word w of attribute p at ``bits[w * K + p]``) differs from every
    earlier one and from its complement: each column is compared in a canonical form
    (complemented when its first row has a 1), found by a hash table."""
    ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    last = ones
    rem = n - 64 * (W - 1)
    if rem < 64:
        last = (np.uint64(1) << np.uint64(rem)) - np.uint64(1)
    slots = 4
    while slots < 2 * K:
        slots *= 2
    mask = np.uint64(slots - 1)
    table = np.full(slots, -1, dtype=np.int64)
    flip = np.empty(K, dtype=np.uint64)
    reps = np.empty(K, dtype=np.int64)
    nr = 0
    for p in range(K):
        f = ones if (bits[p] & np.uint64(1)) != 0 else np.uint64(0)
        flip[p] = f
        h = np.uint64(0x9E3779B97F4A7C15)
        for w in range(W):
            x = bits[w * K + p] ^ f
            if w == W - 1:
                x &= last
            h = (h ^ x) * np.uint64(0xBF58476D1CE4E5B9)
            h ^= h >> np.uint64(31)
        slot = h & mask
        dup = False
        while table[slot] >= 0:
            q = table[slot]
            same = True
            for w in range(W):
                x = (bits[w * K + p] ^ f) ^ (bits[w * K + q] ^ flip[q])
                if w == W - 1:
                    x &= last
                if x != 0:
                    same = False
                    break
            if same:
                dup = True
                break
            slot = (slot + np.uint64(1)) & mask
        if not dup:
            table[slot] = p
            reps[nr] = p
            nr += 1
    return reps[:nr]


@njit(cache=True)
def _d2_tail_binary(
    K, attrs, n, mis, params, lfx, lfy, lx, ly, ln, cap, cx, cy, cc, ox, oy, oc, sbx, sbi
):
    """The node's front at remaining depth 2 on a 0/1 table (after
    :func:`_d2_pairs_binary`): its leaf, then for each attribute p (in order) every
    combination of its two branches' points (leaf, and the best split if any), tagged
    with the attribute; the Pareto filter keeps the first of equal points, so ties go
    to the leaf, then to the first attribute, as in :func:`_node_front` (a combination
    with a dominated branch point is dominated itself, so the branches need no filter
    first). Returns the front's length, or ``-need`` when the scratch is too short."""
    xk, xlc, xlm, xsc, xsr = params[0], params[1], params[2], params[3], params[4]
    yk, ylc, ylm, ysc, ysr = params[5], params[6], params[7], params[8], params[9]
    need = 1 + 4 * K
    if need + 1 > cx.size:
        return -(need + 1)
    cx[0] = xlc + xlm * mis
    cy[0] = ylc + ylm * mis
    cc[0] = -1
    nc = 1
    addx = xsc + xsr * n
    addy = ysc + ysr * n
    for p in range(K):
        j0 = 2 * p
        j1 = j0 + 1
        for u in range(1 + ln[j0]):
            ux = lfx[j0] if u == 0 else lx[j0 * cap]
            uy = lfy[j0] if u == 0 else ly[j0 * cap]
            for v in range(1 + ln[j1]):
                vx = lfx[j1] if v == 0 else lx[j1 * cap]
                vy = lfy[j1] if v == 0 else ly[j1 * cap]
                cx[nc] = addx + _comb(xk, ux, vx)
                cy[nc] = addy + _comb(yk, uy, vy)
                cc[nc] = attrs[p]
                nc += 1
    return _pareto_into(cx, cy, cc, nc, ox, oy, oc, sbx, sbi)


#: What :func:`_d2_front` returns when a branch has more split points than its bound
#: (cannot happen for the costs of :mod:`dagger_cli.costs`; reported as FRONT_TOO_LONG).
D2_BUG = -(1 << 62)


@njit(cache=True, inline="always")
def _trim(ox, oy, oc, cnt, n, lvl, params):
    """Keep (in place) the points of a front ``ox, oy, oc[:cnt]`` (x ascending, y
    descending) that the bounds of :func:`_node_front` keep: x and y within the
    subproblem's allowances (a run of consecutive points), only the last of them when
    ``params[13]`` asks for the least y. Returns how many are kept."""
    xs = _allowance(params[11], lvl, params[3], params[4], n)
    ys = _allowance(params[12], lvl, params[8], params[9], n)
    hi = cnt
    while hi > 0 and ox[hi - 1] > xs:
        hi -= 1
    lo = 0
    while lo < hi and oy[lo] > ys:
        lo += 1
    if params[13] != 0 and hi > lo:
        lo = hi - 1
    for k in range(lo, hi):
        ox[k - lo] = ox[k]
        oy[k - lo] = oy[k]
        oc[k - lo] = oc[k]
    return hi - lo


@njit(cache=True)
def _d2_piece(
    pc,
    pieces,
    c0,
    nk,
    e_node,
    e_r,
    table,
    node_start,
    node_size,
    node_mis,
    node_level,
    row_pool,
    params,
    slot,
    out_off,
    out_x,
    out_y,
    out_c,
    out_len,
):
    """Entries ``t = pc, pc + pieces, ...`` (below ``nk``) of a depth-two batch, entry
    ``t``'s front written to ``out_*[out_off[t]:]`` (room ``slot[t]``), its length to
    ``out_len[t]`` (-1: a bug)."""
    rc, nvals, dec, n_dec, cc_ = table.rc, table.nvals, table.dec, table.n_dec, table.cc
    cap = 64
    scr = _scratch(cap)
    big = 0
    for t in range(pc, nk, pieces):
        big = max(big, slot[t])
    sbx = np.full(big + 2, INF, dtype=np.int64)
    sbi = np.zeros(big + 2, dtype=np.int64)
    for t in range(pc, nk, pieces):
        i = e_node[c0 + t]
        s = node_start[i]
        rows = row_pool[s : s + node_size[i]]
        while True:
            cnt = _d2_front(
                node_size[i],
                node_mis[i],
                rows,
                e_r[c0 + t],
                node_level[i],
                rc,
                cc_,
                nvals,
                dec,
                n_dec,
                params,
                scr,
                sbx,
                sbi,
            )
            if cnt >= 0 or cnt == D2_BUG:
                break
            cap = max(-cnt, 2 * cap)
            scr = _scratch(cap)
        if cnt < 0 or cnt > slot[t]:
            out_len[t] = -1
            continue
        ox, oy, oc = scr[9], scr[10], scr[11]
        cnt = _trim(ox, oy, oc, cnt, node_size[i], node_level[i], params)
        o = out_off[t]
        for k in range(cnt):
            out_x[o + k] = ox[k]
            out_y[o + k] = oy[k]
            out_c[o + k] = oc[k]
        out_len[t] = cnt


@njit(cache=True, parallel=True)
def d2_fronts(
    e_node,
    e_r,
    e_sub,
    table,
    node_start,
    node_size,
    node_mis,
    node_level,
    row_pool,
    params,
    m,
    fref,
    fxy,
    fch,
    counters,
    needs,
    budget,
):
    """The fronts of the depth-two subproblems ``counters[0]:`` (node ``e_node[k]`` at
    remaining depth ``e_r[k]``, 1 or 2; subproblem ``e_sub[k]``) by :func:`_d2_front`,
    appended to the point pool (as :func:`fronts` does; ``counters[1]`` points used).
    Independent of each other and of the DAG's other fronts: batches are computed in
    parallel pieces, then copied in entry order (the same bytes for any thread count).
    Returns DONE, BUDGET_SPENT, MUST_GROW (``needs[0]`` points) or FRONT_TOO_LONG."""
    work = 0
    total_e = e_node.size
    out_x = np.empty(1024, dtype=np.int64)
    out_y = np.empty(1024, dtype=np.int64)
    out_c = np.empty(1024, dtype=np.int32)
    slot = np.empty(CHUNK_NODES, dtype=np.int64)
    out_off = np.empty(CHUNK_NODES + 1, dtype=np.int64)
    out_len = np.empty(CHUNK_NODES, dtype=np.int64)
    while counters[0] < total_e:
        if work >= budget:
            return BUDGET_SPENT
        c0 = counters[0]
        c1 = c0
        room = 0
        bwork = 0
        while c1 < total_e and c1 - c0 < CHUNK_NODES:
            n = node_size[e_node[c1]]
            b = 2 * n + m + 2
            if c1 > c0 and (room + b > CHUNK_ENTRIES or bwork >= budget):
                break
            slot[c1 - c0] = b
            out_off[c1 - c0] = room
            room += b
            # A pair of attributes costs about a word of the rows' bitsets.
            bwork += n + (m * m * ((n >> 6) + 1) >> 3 if e_r[c1] >= 2 else m)
            c1 += 1
        nk = c1 - c0
        if room > out_x.size:
            out_x = np.empty(room, dtype=np.int64)
            out_y = np.empty(room, dtype=np.int64)
            out_c = np.empty(room, dtype=np.int32)
        pieces = min(nk, PIECES)
        for pc in prange(pieces):
            _d2_piece(
                pc,
                pieces,
                c0,
                nk,
                e_node,
                e_r,
                table,
                node_start,
                node_size,
                node_mis,
                node_level,
                row_pool,
                params,
                slot,
                out_off,
                out_x,
                out_y,
                out_c,
                out_len,
            )
        status, total = _store(
            nk, e_sub[c0:c1], out_off, out_len, out_x, out_y, out_c, fref, fxy, fch, counters, needs
        )
        if status != DONE:
            return status
        work += bwork + total
        counters[0] = c1
    return DONE
