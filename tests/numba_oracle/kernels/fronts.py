"""The fronts kernel :func:`fronts`: every subproblem's Pareto front over the DAG Δ(T).

In order of increasing subtable size: a child is a strict subset of its parent, so that
order is topological, and nodes of one size are independent (computed in parallel
pieces). A bundle's front is the Pareto-filtered combination of its children's fronts,
one child at a time; a node's front is the Pareto filter of its leaf point and its
bundles' fronts (:func:`_node_front`, :func:`_pareto_into`). Every stored point keeps the
local index of the bundle that made it (-1: the leaf), which is all tree extraction
needs. Batches are appended to the shared point pool by :func:`_store`.

Random accesses (children's fronts) are prefetched ahead of use
(:func:`~dagger_cli.engine.kernels.common._prefetch`, LLVM's prefetch intrinsic) so that
their cache misses overlap.

Ties: among equal candidate points the first listed wins: the leaf, then bundles in
attribute (column) order; inside a bundle, children in value order.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bounds import _allowance, _dominated, _prune
from .common import (
    BUDGET_SPENT,
    DONE,
    FRONT_TOO_LONG,
    INF,
    MAXK,
    MUST_GROW,
    OUT_OF_MEMORY,
    PIECES,
    _comb,
    _prefetch,
)


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
    allow,
    wants,
):
    """The fronts of chunk entries ``t = pc, pc + pieces, ...`` (below ``nk``), entry
    ``t``'s written to ``out_*[t * bound:]`` with its length in ``out_len[t]`` (-1: longer
    than ``bound``, which cannot happen; NO_ROOM: the piece's arrays would take more than
    ``allow`` bytes, ``wants[pc]`` of them). Independent of the other pieces.

    The children's fronts are first gathered into local arrays, with prefetches ahead of
    the loads, so the cache misses of many children overlap."""
    tot_e = 0
    for t in range(pc, nk, pieces):
        tot_e += bundle_edge_start[cb1[t]] - bundle_edge_start[cb0[t]]
    # Sized before they are made: the edges' arrays, the scratch, then the children's points.
    need = 8 * (3 * tot_e + nk + 2 * (bound + 2)) + SCRATCH_BYTES * 64
    if need > allow:
        _refuse(pc, pieces, nk, out_len, wants, need)
        return
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
    if need + 16 * tot_p > allow:
        _refuse(pc, pieces, nk, out_len, wants, need + 16 * tot_p)
        return
    need += 16 * tot_p
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
            if need + SCRATCH_BYTES * (cap - 64) > allow:
                break
            scr = _scratch(cap)
        if cnt < 0:
            _refuse(pc, pieces, nk, out_len, wants, need + SCRATCH_BYTES * (cap - 64))
            return
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
def _refuse(pc, pieces, nk, out_len, wants, need):
    """Mark a piece's entries NO_ROOM: its arrays would need ``need`` bytes."""
    for t in range(pc, nk, pieces):
        out_len[t] = NO_ROOM
    wants[pc] = need


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


#: ``out_len`` of an entry that no piece wrote, and of one refused for memory.
NOT_WRITTEN = -3
NO_ROOM = -2
#: Bytes of one capacity unit of :func:`_scratch` (eleven int64 and three int32 arrays).
SCRATCH_BYTES = 11 * 8 + 3 * 4
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
    allow,
    fref,
    fxy,
    fch,
    counters,
    needs,
    budget,
):
    """Fronts of the subproblems ``counters[0]:`` of the order. Returns DONE,
    BUDGET_SPENT, MUST_GROW (the point pool must grow to ``needs[0]``), FRONT_TOO_LONG
    (a front longer than its bound: a bug) or OUT_OF_MEMORY (a piece's arrays would take
    more than ``allow`` bytes, ``needs[0]`` of them, or failed to allocate).
    ``params[10] == 1`` keeps only trees whose impure leaves cannot be split (no avoidable
    misclassification). Subproblems marked in ``ready`` (capped only; one byte per
    subproblem) already have their fronts (the depth-two layer, :func:`d2_fronts`) and are
    skipped.

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
    wants = np.zeros(PIECES, dtype=np.int64)
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
        # An entry no piece wrote (a piece whose allocation failed: numba drops an
        # exception raised in a parallel loop) must not pass for a front.
        out_len[:nk] = NOT_WRITTEN
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
                allow,
                wants,
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
                    allow,
                    wants,
                )
        for t in range(nk):
            if out_len[t] == NOT_WRITTEN or out_len[t] == NO_ROOM:
                needs[0] = wants.max() if out_len[t] == NO_ROOM else 0
                return OUT_OF_MEMORY
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
