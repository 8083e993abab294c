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
from .common import BUDGET_SPENT, DONE, INF, MAXK, PIECES, _comb, _popcount
from .fronts import CHUNK_ENTRIES, CHUNK_NODES, _node_front, _pareto_into, _scratch, _store


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
