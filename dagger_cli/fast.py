"""The fast engine: compiled kernels (numba) for the DAG Δ(T) and its Pareto fronts.

Two phases, each a resumable kernel that returns to Python every few million units of
work (so progress can be shown and Ctrl-C honoured) or when an array must grow:

1. **Discovery** (breadth-first). A subtable is a set of rows; it is identified by two
   independent 64-bit sums of random per-row keys, so a child's identity is known after
   one pass over the parent's rows (accumulate the keys per attribute value) without
   materialising its rows. Only a new child has its rows written. A node keeps the
   attributes that may still be non-constant (its discoverer's non-constant ones minus
   the split attribute: a child's set is a subset of any parent's).
2. **Fronts**, in order of increasing subtable size: a child is a strict subset of its
   parent, so that order is topological. A bundle's front is the Pareto-filtered
   combination of its children's fronts, one child at a time; a node's front is the
   Pareto filter of its leaf point and its bundles' fronts. Every stored point keeps the
   local index of the bundle that made it (-1: the leaf), which is all tree extraction
   needs.

Ties: among equal candidate points the first listed wins: the leaf, then bundles in
attribute (column) order; inside a bundle, children in value order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

MAXK = 1
INF = np.iinfo(np.int64).max

# Indices into the discovery counters array.
C_NODES, C_CUR, C_ROWS, C_ATTRS, C_BUNDLES, C_EDGES, C_TERMINAL, C_WORK = range(8)
# Indices into the needs array returned when something must grow.
N_NODES, N_ROWS, N_ATTRS, N_BUNDLES, N_EDGES, N_HASH = range(6)


@njit(cache=True)
def _ht_insert(ht_h1, ht_h2, ht_id, a, b, node):
    mask = ht_h1.size - 1
    p = a & mask
    while ht_id[p] >= 0:
        p = (p + 1) & mask
    ht_h1[p] = a
    ht_h2[p] = b
    ht_id[p] = node


@njit(cache=True)
def rehash(ht_h1, ht_h2, ht_id, new_size):
    """A bigger open-addressing table with the same entries."""
    n1 = np.zeros(new_size, dtype=np.uint64)
    n2 = np.zeros(new_size, dtype=np.uint64)
    nid = np.full(new_size, -1, dtype=np.int32)
    for p in range(ht_id.size):
        if ht_id[p] >= 0:
            _ht_insert(n1, n2, nid, ht_h1[p], ht_h2[p], ht_id[p])
    return n1, n2, nid


@njit(cache=True)
def discover(rc, nvals, dec, n_dec, key1, key2,
             node_start, node_size, node_attr_start, node_attr_len, node_mis, node_major,
             node_bundle_start, row_pool, attr_pool,
             bundle_attr, bundle_edge_start, edge_child,
             ht_h1, ht_h2, ht_id, counters, needs, budget, max_nodes):
    """Process nodes from ``counters[C_CUR]`` on. Returns 0 done, 1 budget spent,
    2 an array must grow (sizes in ``needs``), 3 more than ``max_nodes`` subtables.

    ``rc`` is the table row-major (row r's attribute a at ``rc[r * m + a]``)."""
    m = nvals.size
    maxv = 1
    total = 0
    for a in range(m):
        total += nvals[a]
        if nvals[a] > maxv:
            maxv = nvals[a]
    cnt = np.zeros(total, dtype=np.int64)
    hh = np.zeros(2 * total, dtype=np.uint64)
    off = np.zeros(m, dtype=np.int64)
    cand = np.zeros(m, dtype=np.int64)
    fill = np.zeros(maxv, dtype=np.int64)
    isnew = np.zeros(maxv, dtype=np.bool_)
    nonconst = np.zeros(m, dtype=np.int64)
    ncoff = np.zeros(m, dtype=np.int64)
    dcount = np.zeros(max(n_dec, 1), dtype=np.int64)
    mask = ht_h1.size - 1
    work = 0
    while counters[C_CUR] < counters[C_NODES]:
        if work >= budget:
            return 1
        i = counters[C_CUR]
        s = node_start[i]
        n = node_size[i]
        rows = row_pool[s:s + n]
        # Decision counts: most common decision (smallest on a tie) and leaf errors.
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
        nb = counters[C_BUNDLES]
        node_bundle_start[i] = nb
        work += n
        k = 0
        tot = 0
        if mis > 0:
            # One pass over the rows accumulates, for every candidate attribute and value,
            # the count and both key sums. A row's keys are loaded once and the attributes'
            # accumulators are independent, so the loop is not a chain of dependent stores.
            a0 = node_attr_start[i]
            nc = node_attr_len[i]
            for q in range(nc):
                cand[q] = attr_pool[a0 + q]
                off[q] = tot
                tot += nvals[cand[q]]
            for r in rows:
                k1 = key1[r]
                k2 = key2[r]
                base = r * m
                for q in range(nc):
                    j = off[q] + rc[base + cand[q]]
                    cnt[j] += 1
                    hh[2 * j] += k1
                    hh[2 * j + 1] += k2
            work += n * nc
            # Non-constant attributes: more than one value present.
            for q in range(nc):
                present = 0
                for j in range(off[q], off[q] + nvals[cand[q]]):
                    if cnt[j] > 0:
                        present += 1
                if present > 1:
                    nonconst[k] = cand[q]
                    ncoff[k] = off[q]
                    k += 1
        if k == 0:
            for j in range(tot):
                cnt[j] = 0
                hh[2 * j] = 0
                hh[2 * j + 1] = 0
            counters[C_TERMINAL] += 1
            node_bundle_start[i + 1] = nb
            counters[C_CUR] = i + 1
            continue
        # Worst-case room for this node, checked before anything is written.
        new_max = 0
        for q in range(k):
            new_max += min(nvals[nonconst[q]], n)
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
        if 2 * need_nodes > ht_h1.size:
            needs[N_HASH] = 2 * need_nodes
            grow = True
        if grow:
            for j in range(tot):
                cnt[j] = 0
                hh[2 * j] = 0
                hh[2 * j + 1] = 0
            return 2
        ne = counters[C_EDGES]
        for q in range(k):
            a = nonconst[q]
            o = ncoff[q]
            bundle_attr[nb] = a
            bundle_edge_start[nb] = ne
            any_new = False
            for v in range(nvals[a]):
                j = o + v
                if cnt[j] == 0:
                    continue
                a1 = hh[2 * j]
                b2 = hh[2 * j + 1]
                p = a1 & mask
                found = -1
                while ht_id[p] >= 0:
                    if ht_h1[p] == a1 and ht_h2[p] == b2:
                        found = ht_id[p]
                        break
                    p = (p + 1) & mask
                if found < 0:
                    found = counters[C_NODES]
                    if found >= max_nodes:
                        return 3
                    counters[C_NODES] = found + 1
                    ht_h1[p] = a1
                    ht_h2[p] = b2
                    ht_id[p] = found
                    node_start[found] = counters[C_ROWS]
                    node_size[found] = cnt[j]
                    fill[v] = counters[C_ROWS]
                    counters[C_ROWS] += cnt[j]
                    # Candidate attributes of the child: this node's non-constant ones but a.
                    node_attr_start[found] = counters[C_ATTRS]
                    node_attr_len[found] = k - 1
                    w = counters[C_ATTRS]
                    for q2 in range(k):
                        if nonconst[q2] != a:
                            attr_pool[w] = nonconst[q2]
                            w += 1
                    counters[C_ATTRS] = w
                    isnew[v] = True
                    any_new = True
                edge_child[ne] = found
                ne += 1
            if any_new:
                for r in rows:
                    v = rc[r * m + a]
                    if isnew[v]:
                        row_pool[fill[v]] = r
                        fill[v] += 1
                work += n
                for v in range(nvals[a]):
                    isnew[v] = False
            nb += 1
            bundle_edge_start[nb] = ne
        for j in range(tot):
            cnt[j] = 0
            hh[2 * j] = 0
            hh[2 * j + 1] = 0
        counters[C_BUNDLES] = nb
        counters[C_EDGES] = ne
        node_bundle_start[i + 1] = nb
        counters[C_CUR] = i + 1
    return 0


@njit(cache=True)
def _pareto_into(x, y, ch, p, outx, outy, outch, sbx, sbi):
    """Write the Pareto points of the first ``p`` candidates to out*, x ascending.

    The first listed of equal points wins. Uses an array indexed by y when y spans a
    small range (misclassifications never exceed the rows), else a stable sort."""
    if p == 1:
        outx[0] = x[0]
        outy[0] = y[0]
        outch[0] = ch[0]
        return 1
    ymin = y[0]
    ymax = y[0]
    for k in range(1, p):
        if y[k] < ymin:
            ymin = y[k]
        if y[k] > ymax:
            ymax = y[k]
    span = ymax - ymin + 1
    cnt = 0
    if span <= 4 * p + 16 and span <= sbx.size:
        # sbx is all INF on entry and is left so (reset during the second sweep).
        bx = sbx
        bi = sbi
        for k in range(p):
            t = y[k] - ymin
            if x[k] < bx[t]:
                bx[t] = x[k]
                bi[t] = k
        # y ascending with x strictly decreasing, then reversed into x ascending.
        cur = INF
        for t in range(span):
            if bx[t] < cur:
                cur = bx[t]
                cnt += 1
        w = cnt
        cur = INF
        for t in range(span):
            if bx[t] < cur:
                cur = bx[t]
                w -= 1
                outx[w] = bx[t]
                outy[w] = t + ymin
                outch[w] = ch[bi[t]]
            bx[t] = INF
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


@njit(cache=True)
def fronts(order, node_size, node_mis, node_bundle_start, bundle_edge_start, edge_child,
           params, fref, fxy, fch, counters, needs, budget):
    """Fronts of nodes ``order[counters[0]:]``. Returns 0 done, 1 budget spent,
    2 the point pool must grow to ``needs[0]``. ``params[10] == 1`` keeps only trees
    whose impure leaves cannot be split (no avoidable misclassification).

    Node ``i``'s front is ``fxy[fref[i, 0]:fref[i, 0] + fref[i, 1]]`` (x, y per row).
    Nodes are taken in chunks of equal size (independent of each other: children are
    strictly smaller); a chunk's children's fronts are first gathered into local arrays
    by plain loops of independent loads, so cache misses overlap instead of queuing
    behind the combination arithmetic."""
    xk, xlc, xlm, xsc, xsr = params[0], params[1], params[2], params[3], params[4]
    yk, ylc, ylm, ysc, ysr = params[5], params[6], params[7], params[8], params[9]
    both_sum = xk != MAXK and yk != MAXK
    work = 0
    cap = 64
    ax = np.empty(cap, dtype=np.int64)
    ay = np.empty(cap, dtype=np.int64)
    ac = np.zeros(cap, dtype=np.int32)
    bx = np.empty(cap, dtype=np.int64)
    by = np.empty(cap, dtype=np.int64)
    bc = np.zeros(cap, dtype=np.int32)
    cx = np.empty(cap, dtype=np.int64)
    cy = np.empty(cap, dtype=np.int64)
    cc = np.empty(cap, dtype=np.int32)
    ox = np.empty(cap, dtype=np.int64)
    oy = np.empty(cap, dtype=np.int64)
    oc = np.empty(cap, dtype=np.int32)
    K = 64
    cb0 = np.empty(K, dtype=np.int64)
    cb1 = np.empty(K, dtype=np.int64)
    ce0 = np.empty(K, dtype=np.int64)
    ce1 = np.empty(K, dtype=np.int64)
    eb = np.empty(K, dtype=np.int64)
    gs = np.empty(1024, dtype=np.int64)
    gl = np.empty(1024, dtype=np.int64)
    gp = np.empty(1024, dtype=np.int64)
    px = np.empty(4096, dtype=np.int64)
    py = np.empty(4096, dtype=np.int64)
    biggest = 0
    for i in range(node_size.size):
        if node_size[i] > biggest:
            biggest = node_size[i]
    sbx = np.full(biggest + 2, INF, dtype=np.int64)
    sbi = np.empty(biggest + 2, dtype=np.int64)
    while counters[0] < order.size:
        if work >= budget:
            return 1
        c0 = counters[0]
        size0 = node_size[order[c0]]
        c1 = c0 + 1
        while c1 < order.size and c1 - c0 < K and node_size[order[c1]] == size0:
            c1 += 1
        nk = c1 - c0
        # Gather, each loop a run of independent loads: bundles, edges, child fronts.
        for t in range(nk):
            i = order[c0 + t]
            cb0[t] = node_bundle_start[i]
            cb1[t] = node_bundle_start[i + 1]
        tot_e = 0
        for t in range(nk):
            ce0[t] = bundle_edge_start[cb0[t]]
            ce1[t] = bundle_edge_start[cb1[t]]
            eb[t] = tot_e
            tot_e += ce1[t] - ce0[t]
        if tot_e > gs.size:
            gs = np.empty(2 * tot_e, dtype=np.int64)
            gl = np.empty(2 * tot_e, dtype=np.int64)
            gp = np.empty(2 * tot_e, dtype=np.int64)
        w = 0
        for t in range(nk):
            for e in range(ce0[t], ce1[t]):
                c = edge_child[e]
                gs[w] = fref[c, 0]
                gl[w] = fref[c, 1]
                w += 1
        tot_p = 0
        for g in range(tot_e):
            gp[g] = tot_p
            tot_p += gl[g]
        if tot_p > px.size:
            px = np.empty(2 * tot_p, dtype=np.int64)
            py = np.empty(2 * tot_p, dtype=np.int64)
        for g in range(tot_e):
            s = gs[g]
            o = gp[g]
            for q in range(gl[g]):
                px[o + q] = fxy[s + q, 0]
                py[o + q] = fxy[s + q, 1]
        work += tot_p + tot_e
        for t in range(nk):
            i = order[c0 + t]
            n = node_size[i]
            mis = node_mis[i]
            b0 = cb0[t]
            b1 = cb1[t]
            nc = 0
            if params[10] == 0 or mis == 0 or b0 == b1:
                nc = 1
                cx[0] = xlc + xlm * mis
                cy[0] = ylc + ylm * mis
                cc[0] = -1
            for b in range(b0, b1):
                na = 1
                ax[0] = 0
                ay[0] = 0
                g0 = eb[t] + bundle_edge_start[b] - ce0[t]
                g1 = eb[t] + bundle_edge_start[b + 1] - ce0[t]
                for g in range(g0, g1):
                    s = gp[g]
                    L = gl[g]
                    work += na * L
                    if g == g0:
                        # The first child's front, as is (costs are >= 0: max with 0 and
                        # + 0 leave it unchanged, and it is already Pareto).
                        if L > ax.size:
                            ax = np.empty(2 * L, dtype=np.int64)
                            ay = np.empty(2 * L, dtype=np.int64)
                            ac = np.zeros(2 * L, dtype=np.int32)
                        for k in range(L):
                            ax[k] = px[s + k]
                            ay[k] = py[s + k]
                        na = L
                        continue
                    if L == 1 and both_sum:
                        # A single point shifts a Pareto set; it stays Pareto.
                        for k in range(na):
                            ax[k] += px[s]
                            ay[k] += py[s]
                        continue
                    p = na * L
                    if p > bx.size:
                        bx = np.empty(2 * p, dtype=np.int64)
                        by = np.empty(2 * p, dtype=np.int64)
                        bc = np.zeros(2 * p, dtype=np.int32)
                    w = 0
                    for k in range(na):
                        for q in range(s, s + L):
                            if xk == MAXK:
                                bx[w] = max(ax[k], px[q])
                            else:
                                bx[w] = ax[k] + px[q]
                            if yk == MAXK:
                                by[w] = max(ay[k], py[q])
                            else:
                                by[w] = ay[k] + py[q]
                            w += 1
                    if p > ax.size:
                        ax = np.empty(2 * p, dtype=np.int64)
                        ay = np.empty(2 * p, dtype=np.int64)
                        ac = np.zeros(2 * p, dtype=np.int32)
                    na = _pareto_into(bx, by, bc, p, ax, ay, ac, sbx, sbi)
                if nc + na > cx.size:
                    size = 2 * (nc + na)
                    tx = np.empty(size, dtype=np.int64)
                    ty = np.empty(size, dtype=np.int64)
                    tc = np.empty(size, dtype=np.int32)
                    tx[:nc] = cx[:nc]
                    ty[:nc] = cy[:nc]
                    tc[:nc] = cc[:nc]
                    cx, cy, cc = tx, ty, tc
                addx = xsc + xsr * n
                addy = ysc + ysr * n
                for k in range(na):
                    cx[nc] = ax[k] + addx
                    cy[nc] = ay[k] + addy
                    cc[nc] = b - b0
                    nc += 1
            if nc > ox.size:
                ox = np.empty(2 * nc, dtype=np.int64)
                oy = np.empty(2 * nc, dtype=np.int64)
                oc = np.empty(2 * nc, dtype=np.int32)
            cnt = _pareto_into(cx, cy, cc, nc, ox, oy, oc, sbx, sbi)
            used = counters[1]
            if used + cnt > fxy.shape[0]:
                needs[0] = used + cnt
                return 2
            fref[i, 0] = used
            fref[i, 1] = cnt
            for k in range(cnt):
                fxy[used + k, 0] = ox[k]
                fxy[used + k, 1] = oy[k]
                fch[used + k] = oc[k]
            counters[1] = used + cnt
            counters[0] = c0 + t + 1
            work += nc + 1
    return 0
