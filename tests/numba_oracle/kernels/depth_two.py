"""The depth-two layer: the fronts of the last two levels from class counts.

:func:`d2_fronts` solves the subproblems (node, remaining depth 1 or 2) of the nodes at
level D - 2 without building their subtables: class counts per attribute value (r = 1)
and per pair of attribute values (r = 2, bitsets over the rows, AND and popcount), with
the same trees, points and ties as :func:`dagger_cli.engine.kernels.fronts.fronts`
over the DAG.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .bounds import _trim
from .common import BUDGET_SPENT, DONE, INF, MAXK, OUT_OF_MEMORY, PIECES, _comb, _grow, _popcount
from .fronts import (
    CHUNK_ENTRIES,
    CHUNK_NODES,
    NO_ROOM,
    NOT_WRITTEN,
    SCRATCH_BYTES,
    _node_front,
    _pareto_into,
    _scratch,
    _store,
)


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
def _present_counts(a, n, rows, rc, um, nv, dec, C, ws, slot, pv, S):
    """The present values of attribute ``a`` (of ``nv``) among the ``n`` rows, ascending,
    into ``pv[slot:]`` and their class counts into ``S[slot * C:]``; returns how many.
    Work and memory by the rows, not by the values: counts in the piece's workspace
    ``ws`` (zero on entry and on return), the present values sorted unless scanning all
    ``nv`` is as cheap."""
    vtmp, vtot, touched = ws[0], ws[1], ws[3]
    nt = 0
    for j in range(n):
        row = rows[j]
        v = np.int64(rc[np.uint64(row) * um + np.uint64(a)])
        if vtot[v] == 0:
            touched[nt] = v
            nt += 1
        vtot[v] += 1
        vtmp[v * C + dec[row]] += 1
    if nv <= 4 * nt:
        c = 0
        for v in range(nv):
            if vtot[v] > 0:
                touched[c] = v
                c += 1
    else:
        touched[:nt].sort()
    for i in range(nt):
        v = touched[i]
        pv[slot + i] = v
        for d in range(C):
            S[(slot + i) * C + d] = vtmp[v * C + d]
            vtmp[v * C + d] = 0
        vtot[v] = 0
    return nt


@njit(cache=True)
def _sparse_point(params, nbr, br, rc, um, b, dec, C, ws):
    """The point (x, y) of the split of a branch (rows ``br``, ``nbr`` of them) on
    attribute ``b`` into leaves, and how many non-empty children it has: as
    :func:`_split_point`, from class counts gathered row by row in the piece's workspace
    ``ws`` (work by the branch's rows, whatever ``b``'s number of values)."""
    xk, xlc, xlm, xsc, xsr = params[0], params[1], params[2], params[3], params[4]
    yk, ylc, ylm, ysc, ysr = params[5], params[6], params[7], params[8], params[9]
    vtmp, vtot, touched = ws[0], ws[1], ws[3]
    nt = 0
    for row in br:
        v = np.int64(rc[np.uint64(row) * um + np.uint64(b)])
        if vtot[v] == 0:
            touched[nt] = v
            nt += 1
        vtot[v] += 1
        vtmp[v * C + dec[row]] += 1
    acx = 0
    acy = 0
    for i in range(nt):
        v = touched[i]
        big = 0
        for d in range(C):
            big = max(big, vtmp[v * C + d])
            vtmp[v * C + d] = 0
        wrong = vtot[v] - big
        vtot[v] = 0
        acx = _comb(xk, acx, xlc + xlm * wrong)
        acy = _comb(yk, acy, ylc + ylm * wrong)
    return xsc + xsr * nbr + acx, ysc + ysr * nbr + acy, nt


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
    ws,
    many,
    allow,
    want,
):
    """The front of a subtable (``rows``, ``n`` of them, ``mis`` misclassified by its
    leaf) at remaining depth ``r`` (1 or 2) without its subtables: from class counts per
    attribute value (r = 1) and per pair of attribute values (r = 2). The same trees,
    points and ties as the generic kernel over the DAG: the leaf first, then splits in
    attribute order, and inside a branch (r = 2) its leaf, then splits in attribute
    order. A point's tag in ``oc`` is the split attribute (column), -1 the leaf. Returns
    the front's length or ``-need`` when the scratch arrays are too short (as
    :func:`_node_front`; ``scr`` from :func:`_scratch`).

    Memory is by the rows and the present values, never by a product of two attributes'
    numbers of values (:func:`d2_call_bytes` bounds it): an attribute with at most
    ``many`` present values is *small*, and pairs of small attributes are counted from
    bitsets over the rows (AND and popcount, :func:`_d2_pairs_generic`), each pair's
    counts in one small array; a pair with a *large* attribute (an identifier, a free
    text, a number read as nominal) is counted branch by branch from the branch's rows
    (:func:`_sparse_point`), and a large attribute's branches keep no bitsets and no
    fixed slots. ``ws`` is the piece's workspace (:func:`_workspace`). Every array is
    sized before it is made: when they would take more than ``allow`` bytes, returns
    D2_NO_MEMORY with the bytes in ``want[0]``."""
    cx, cy, cc, ox, oy, oc = scr[6], scr[7], scr[8], scr[9], scr[10], scr[11]
    m = nvals.size
    C = max(n_dec, 1)
    um = np.uint64(m)
    maxv = 1
    for a in range(m):
        maxv = max(maxv, nvals[a])
    # Class counts per present value, compact: attribute a's present values are slots
    # poff[a]:poff[a] + npres[a] (ascending values pv), their counts S[slot * C + d].
    poff = np.empty(m + 1, dtype=np.int64)
    voff = np.empty(m + 1, dtype=np.int64)
    P = 0
    tv = 0
    for a in range(m):
        poff[a] = P
        voff[a] = tv
        P += min(n, nvals[a])
        tv += nvals[a]
    poff[m] = P
    voff[m] = tv
    # Bytes of what follows: per attribute 9 int64, per slot C + 6, and the counts by
    # value of a table with few values in all (at most n + 4096).
    need = 8 * (9 * (m + 2) + max(P, 1) * (C + 6) + (tv * C if tv * C <= n + 4096 else 0))
    if need > allow:
        want[0] = need
        return D2_NO_MEMORY
    allow -= need
    spent = need  # what want[0] reports is every stage's bytes, this one's included
    S = np.empty(max(P, 1) * C, dtype=np.int64)  # present slots: every class written
    pv = np.empty(max(P, 1), dtype=np.int64)
    npres = np.zeros(m, dtype=np.int64)
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
            c = 0
            for v in range(2):
                c0 = ones0[a] if v else n0 - ones0[a]
                c1 = ones[a] if v else (n - n0) - ones[a]
                if c0 + c1 > 0:
                    pv[poff[a] + c] = v
                    S[(poff[a] + c) * 2] = c0
                    S[(poff[a] + c) * 2 + 1] = c1
                    c += 1
            npres[a] = c
    elif tv * C <= n + 4096:
        # Few values in all: one pass along the rows (contiguous) into counts by value,
        # then the present values kept.
        # (Unsigned indices in the loop over the attributes: no wrap-around code.)
        full = np.zeros(tv * C, dtype=np.int64)
        uvoff = voff.astype(np.uint64)
        uC = np.uint64(C)
        for j in range(n):
            row = rows[j]
            base = np.uint64(row) * um
            d = np.uint64(dec[row])
            for a in range(um):
                full[(uvoff[a] + np.uint64(rc[base + a])) * uC + d] += 1
        for a in range(m):
            c = 0
            for v in range(nvals[a]):
                o = (voff[a] + v) * C
                tot = 0
                for d in range(C):
                    tot += full[o + d]
                if tot > 0:
                    pv[poff[a] + c] = v
                    for d in range(C):
                        S[(poff[a] + c) * C + d] = full[o + d]
                    c += 1
            npres[a] = c
    else:
        for a in range(m):
            npres[a] = _present_counts(a, n, rows, rc, um, nvals[a], dec, C, ws, poff[a], pv, S)
    # Non-constant attributes (ascending).
    attrs = np.empty(m, dtype=np.int64)
    K = 0
    for a in range(m):
        if npres[a] >= 2:
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
            o = (poff[a] + iv) * C
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
        need = 8 * max(C - 1, 1) * W
        if fastbin:
            # _d2_binary and what it calls: two K x W bitsets, about 40 K-long arrays.
            need += 8 * (2 * K * W + 40 * K + W + 64)
        if need > allow:
            want[0] = spent + need
            return D2_NO_MEMORY
        allow -= need
        spent += need
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
        px, py = _d2_branch_fronts(
            K,
            attrs,
            npres,
            poff,
            voff,
            pv,
            jbase,
            nbr,
            lfx,
            lfy,
            S,
            n,
            rows,
            rc,
            um,
            dec,
            C,
            W,
            cls,
            params,
            ws,
            many,
            gp,
            gl,
            sbx,
            sbi,
            allow,
            want,
        )
        if px.size == 0:
            if want[0] > 0:
                want[0] += spent
                return D2_NO_MEMORY
            return D2_BUG
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
def _rows_by_value(a, n, rows, rc, um, pv, slot, npv, vmap, order, boff):
    """The ``n`` rows grouped by attribute ``a``'s present values (``npv`` of them,
    ascending at ``pv[slot:]``), in row order within a group: group ``i`` is
    ``order[boff[i]:boff[i + 1]]`` (a counting sort; ``vmap`` is -1 on entry and return)."""
    for i in range(npv):
        vmap[pv[slot + i]] = i
        boff[i + 1] = 0
    boff[0] = 0
    for j in range(n):
        boff[vmap[np.int64(rc[np.uint64(rows[j]) * um + np.uint64(a)])] + 1] += 1
    for i in range(npv):
        boff[i + 1] += boff[i]
    for j in range(n):
        i = vmap[np.int64(rc[np.uint64(rows[j]) * um + np.uint64(a)])]
        order[boff[i]] = rows[j]
        boff[i] += 1
    for i in range(npv, 0, -1):
        boff[i] = boff[i - 1]
    boff[0] = 0
    for i in range(npv):
        vmap[pv[slot + i]] = -1


@njit(cache=True)
def _d2_branch_fronts(
    K,
    attrs,
    npres,
    poff,
    voff,
    pv,
    jbase,
    nbr,
    lfx,
    lfy,
    S,
    n,
    rows,
    rc,
    um,
    dec,
    C,
    W,
    cls,
    params,
    ws,
    many,
    gp,
    gl,
    sbx,
    sbi,
    allow,
    want,
):
    """Every branch's front at remaining depth 1 (its leaf, then its Pareto split points,
    x ascending): branch ``j``'s is ``px, py[gp[j]:gp[j] + gl[j]]``; returns ``(px, py)``,
    empty when its arrays would take more than ``allow`` bytes (``want[0]`` of them) or
    when a branch had more split points than its bound (a bug). See :func:`_d2_front` for
    the small and large attributes."""
    vmap = ws[2]
    small = np.empty(K, dtype=np.bool_)
    sbase = np.full(K + 1, -1, dtype=np.int64)
    Js = 0
    KL = 0
    maxs = 0
    maxp = 0
    for p in range(K):
        np_ = npres[attrs[p]]
        maxp = max(maxp, np_)
        small[p] = np_ <= many
        if small[p]:
            sbase[p] = Js
            Js += np_
            maxs = max(maxs, np_)
        else:
            KL += 1
    # A branch's split points: one per other attribute at most, and (every cost's
    # split point depends on its number of children and their total misclassifications
    # only) one per number of children: at most maxs - 1 from small attributes.
    cap = min(K, maxs + KL) + 1
    J = jbase[K]
    # Bytes, all sized here: the slots and bitsets of the small branches, one pair's
    # counts, the branches' fronts (grown at most to twice what the branches' points
    # need: a small branch's slots, a large one's splits bounded by its rows), the rest.
    pts = J + Js * cap + n * KL + 16
    tv = voff[voff.size - 1]
    need = 8 * (
        5 * K
        + Js * (2 * cap + 1 + W)
        + maxs * maxs * C
        + 6 * pts
        + 4 * (K + cap + 3)
        + n
        + maxp
        + (tv if tv <= n + 4096 else 0)
    )
    if need > allow:
        want[0] = need
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
    lx = np.empty(max(Js * cap, 1), dtype=np.int64)
    ly = np.empty(max(Js * cap, 1), dtype=np.int64)
    ln = np.zeros(max(Js, 1), dtype=np.int64)
    # The small attributes' bitsets: one per branch, set row by row.
    bits = np.zeros(max(Js * W, 1), dtype=np.uint64)
    sp = np.empty(K, dtype=np.int64)
    Ks = 0
    for p in range(K):
        if small[p]:
            sp[Ks] = p
            Ks += 1
    if tv <= n + 4096:
        # Few values in all: a map from every value to its branch, one pass along the rows.
        jof = np.full(max(tv, 1), -1, dtype=np.int64)
        for ip in range(Ks):
            p = sp[ip]
            a = attrs[p]
            for iv in range(npres[a]):
                jof[voff[a] + pv[poff[a] + iv]] = sbase[p] + iv
        # (Unsigned indices in the loop over the attributes: no wrap-around code.)
        ua = np.empty(Ks, dtype=np.uint64)
        uo = np.empty(Ks, dtype=np.uint64)
        for ip in range(Ks):
            ua[ip] = np.uint64(attrs[sp[ip]])
            uo[ip] = np.uint64(voff[attrs[sp[ip]]])
        uW = np.uint64(W)
        uKs = np.uint64(Ks)
        for t in range(n):
            base = np.uint64(rows[t]) * um
            bit = np.uint64(1) << np.uint64(t & 63)
            wd = np.uint64(t >> 6)
            for ip in range(uKs):
                js = np.uint64(jof[uo[ip] + np.uint64(rc[base + ua[ip]])])
                bits[js * uW + wd] |= bit
    else:
        for ip in range(Ks):
            p = sp[ip]
            a = attrs[p]
            for iv in range(npres[a]):
                vmap[pv[poff[a] + iv]] = sbase[p] + iv
            for t in range(n):
                js = vmap[np.int64(rc[np.uint64(rows[t]) * um + np.uint64(a)])]
                bits[js * W + (t >> 6)] |= np.uint64(1) << np.uint64(t & 63)
            for iv in range(npres[a]):
                vmap[pv[poff[a] + iv]] = -1
    _d2_pairs_generic(
        Ks,
        sp,
        attrs,
        npres,
        poff,
        maxs,
        C,
        jbase,
        sbase,
        W,
        bits,
        cls,
        S,
        nbr,
        params,
        lx,
        ly,
        ln,
        cap,
    )
    # Room for every branch's front (leaf and split points): grown as needed.
    px = np.empty(J + Js * cap + 16, dtype=np.int64)
    py = np.empty(px.size, dtype=np.int64)
    nq = K + cap + 3
    qx = np.empty(nq, dtype=np.int64)
    qy = np.empty(nq, dtype=np.int64)
    qc = np.zeros(nq, dtype=np.int32)
    tc = np.zeros(nq, dtype=np.int32)
    used = 0
    if KL > 0:
        tlx = np.empty(K + 1, dtype=np.int64)
        tly = np.empty(K + 1, dtype=np.int64)
        order = np.empty(n, dtype=np.int64)
        boff = np.empty(maxp + 1, dtype=np.int64)
        for p in range(K):
            a = attrs[p]
            npa = npres[a]
            _rows_by_value(a, n, rows, rc, um, pv, poff[a], npa, vmap, order, boff)
            for iv in range(npa):
                j = jbase[p] + iv
                br = order[boff[iv] : boff[iv + 1]]
                if small[p]:
                    # Splits on the large attributes, into the branch's slots.
                    js = sbase[p] + iv
                    for q in range(K):
                        if small[q]:
                            continue
                        x, y, nz = _sparse_point(params, nbr[j], br, rc, um, attrs[q], dec, C, ws)
                        if nz >= 2:
                            ln[js] = _offer(lx, ly, js * cap, cap, ln[js], x, y)
                    continue
                # A large attribute's branch: its splits on every other attribute, then
                # its front.
                tl = 0
                for q in range(K):
                    if q == p:
                        continue
                    x, y, nz = _sparse_point(params, nbr[j], br, rc, um, attrs[q], dec, C, ws)
                    if nz >= 2:
                        tl = _offer(tlx, tly, 0, K + 1, tl, x, y)
                if tl > K:
                    return px[:0], py[:0]
                qx[0] = lfx[j]
                qy[0] = lfy[j]
                for q in range(tl):
                    qx[q + 1] = tlx[q]
                    qy[q + 1] = tly[q]
                if used + tl + 2 > px.size:
                    px = _grow(px, used + tl + 2)
                    py = _grow(py, px.size)
                k = _pareto_into(qx, qy, qc, tl + 1, px[used:], py[used:], tc, sbx, sbi)
                gp[j] = used
                gl[j] = k
                used += k
    # The small attributes' branches: their leaf first, then their split points.
    for p in range(K):
        if not small[p]:
            continue
        for iv in range(npres[attrs[p]]):
            j = jbase[p] + iv
            js = sbase[p] + iv
            if ln[js] > cap:
                return px[:0], py[:0]
            qx[0] = lfx[j]
            qy[0] = lfy[j]
            for q in range(ln[js]):
                qx[q + 1] = lx[js * cap + q]
                qy[q + 1] = ly[js * cap + q]
            if used + ln[js] + 2 > px.size:
                px = _grow(px, used + ln[js] + 2)
                py = _grow(py, px.size)
            k = _pareto_into(qx, qy, qc, ln[js] + 1, px[used:], py[used:], tc, sbx, sbi)
            gp[j] = used
            gl[j] = k
            used += k
    return px, py


@njit(cache=True)
def _d2_pairs_generic(
    Ks,
    sp,
    attrs,
    npres,
    poff,
    maxs,
    C,
    jbase,
    sbase,
    W,
    bits,
    cls,
    S,
    nbr,
    params,
    lx,
    ly,
    ln,
    cap,
):
    """The small attributes' branches' split points on each other (depth-two layer, any
    table): for each pair of small attributes a < b (positions ``sp[:Ks]``), the class
    counts per (value of a, value of b) from popcounts of the branches' bitsets (all but
    the last value of each and the last class; the rest by subtraction), offered to the
    branches a = v (split on b) and b = w (split on a). Branch ``j``'s slots are those of
    its small-branch index ``sbase[p] + iv``; the counts of one pair take at most
    ``maxs ** 2 * C`` cells."""
    cnt = np.zeros(max(maxs * maxs * C, 1), dtype=np.int64)
    for ip in range(Ks):
        p = sp[ip]
        a = attrs[p]
        npa = npres[a]
        for iq in range(ip + 1, Ks):
            q = sp[iq]
            b = attrs[q]
            npb = npres[b]
            # Counts per (value of a, value of b, class): popcounts for all but the
            # last value of each and the last class; the rest by subtraction.
            for iv in range(npa - 1):
                ja = (sbase[p] + iv) * W
                for iw in range(npb - 1):
                    jb = (sbase[q] + iw) * W
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
                sa = (poff[a] + iv) * C
                o = (iv * npb + npb - 1) * C
                for d in range(C):
                    s = S[sa + d]
                    for iw in range(npb - 1):
                        s -= cnt[(iv * npb + iw) * C + d]
                    cnt[o + d] = s
            for iw in range(npb):
                sb = (poff[b] + iw) * C
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
                js = sbase[p] + iv
                x, y, nz = _split_point(params, nbr[j], cnt, iv * npb * C, C, npb, C)
                if nz >= 2:
                    ln[js] = _offer(lx, ly, js * cap, cap, ln[js], x, y)
            for iw in range(npb):
                j = jbase[q] + iw
                js = sbase[q] + iw
                x, y, nz = _split_point(params, nbr[j], cnt, iw * C, npb * C, npa, C)
                if nz >= 2:
                    ln[js] = _offer(lx, ly, js * cap, cap, ln[js], x, y)


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
#: (cannot happen for the costs of :mod:`dagger_cli.costs`; reported as FRONT_TOO_LONG),
#: and when its arrays would take more than its allowance of bytes (OUT_OF_MEMORY).
D2_BUG = -(1 << 62)
D2_NO_MEMORY = -(1 << 61)


@njit(cache=True)
def _workspace(maxv, C):
    """A piece's workspace for counts by value (:func:`_present_counts`,
    :func:`_sparse_point`, :func:`_rows_by_value`): per value, class counts and a total
    (zero), a map (-1) and a list; ``workspace_bytes(maxv, C)`` bytes."""
    return (
        np.zeros(maxv * C, dtype=np.int64),
        np.zeros(maxv, dtype=np.int64),
        np.full(maxv, -1, dtype=np.int64),
        np.empty(maxv, dtype=np.int64),
    )


@njit(cache=True)
def workspace_bytes(maxv, C):
    """The bytes of :func:`_workspace`."""
    return 8 * (maxv * C + 3 * maxv)


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
    wants,
    many,
    allow,
):
    """Entries ``t = pc, pc + pieces, ...`` (below ``nk``) of a depth-two batch, entry
    ``t``'s front written to ``out_*[out_off[t]:]`` (room ``slot[t]``), its length to
    ``out_len[t]`` (-1: a bug; NO_ROOM: it needs more than ``allow`` bytes, the piece's
    share of the memory ceiling, ``wants[t]`` of them). Every array of the piece is
    sized before it is made."""
    rc, nvals, dec, n_dec, cc_ = table.rc, table.nvals, table.dec, table.n_dec, table.cc
    C = max(n_dec, 1)
    maxv = 1
    for a in range(nvals.size):
        maxv = max(maxv, nvals[a])
    cap = 64
    big = 0
    for t in range(pc, nk, pieces):
        big = max(big, slot[t])
    fixed = workspace_bytes(maxv, C) + 16 * (big + 2)
    if fixed + SCRATCH_BYTES * cap > allow:
        for t in range(pc, nk, pieces):
            out_len[t] = NO_ROOM
            wants[t] = fixed + SCRATCH_BYTES * cap
        return
    ws = _workspace(maxv, C)
    scr = _scratch(cap)
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
                ws,
                many,
                allow - fixed - SCRATCH_BYTES * cap,
                wants[t : t + 1],
            )
            if cnt == D2_NO_MEMORY:
                wants[t] += fixed + SCRATCH_BYTES * cap  # the piece's own arrays too
                break
            if cnt >= 0 or cnt == D2_BUG:
                break
            new = max(-cnt, 2 * cap)
            if fixed + SCRATCH_BYTES * new > allow:
                wants[t] = fixed + SCRATCH_BYTES * new
                cnt = D2_NO_MEMORY
                break
            cap = new
            scr = _scratch(cap)
        if cnt == D2_NO_MEMORY:
            out_len[t] = NO_ROOM
            continue
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
    many,
    allow,
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
    ``many``: the most present values of a small attribute (:func:`_d2_front`);
    ``allow``: the bytes each piece (one per thread at a time) may allocate.
    Returns DONE, BUDGET_SPENT, MUST_GROW (``needs[0]`` points), FRONT_TOO_LONG or
    OUT_OF_MEMORY (``needs[0]`` the bytes a piece wanted; also when a piece failed)."""
    work = 0
    total_e = e_node.size
    out_x = np.empty(1024, dtype=np.int64)
    out_y = np.empty(1024, dtype=np.int64)
    out_c = np.empty(1024, dtype=np.int32)
    slot = np.empty(CHUNK_NODES, dtype=np.int64)
    out_off = np.empty(CHUNK_NODES + 1, dtype=np.int64)
    out_len = np.empty(CHUNK_NODES, dtype=np.int64)
    wants = np.zeros(CHUNK_NODES, dtype=np.int64)
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
        out_len[:nk] = NOT_WRITTEN
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
                wants,
                many,
                allow,
            )
        for t in range(nk):
            if out_len[t] == NO_ROOM or out_len[t] == NOT_WRITTEN:
                needs[0] = wants[t] if out_len[t] == NO_ROOM else 0
                return OUT_OF_MEMORY
        status, total = _store(
            nk, e_sub[c0:c1], out_off, out_len, out_x, out_y, out_c, fref, fxy, fch, counters, needs
        )
        if status != DONE:
            return status
        work += bwork + total
        counters[0] = c1
    return DONE
