"""Exact trees of bounded depth over ordered (numeric) and nominal attributes, by sweeps
and branch and bound (the ``ordered`` solver, :mod:`dagger_cli.engine.ordered`).

An ordered attribute has codes 0..K (the intervals between its K thresholds); its splits
are ``code <= j`` / ``code > j``, one per threshold that separates the subtable. A nominal
attribute splits into one child per value present (as in the DAG engine). A subtable is
kept as its rows sorted by each attribute's code, in a workspace ``buf[level, a, :]``: a
subtable at ``level`` owns the range ``[off, off + m)`` of every attribute's row, its
children are written into the same range of ``level + 1`` by a stable partition (never
re-sorted), and their own children below that, so siblings never overwrite each other.

Two searches share that representation:

* :func:`best` — the least misclassifications over the trees of depth <= r (the depth
  front, one depth at a time), below an upper bound ``ub`` or a proof that none is below
  it. Depth 1 is one sweep per attribute over prefix class counts; depth 2 evaluates a
  root split by one pass per attribute that keeps both children's best split
  (:func:`_sides_d1p`: the attribute's rows split into the two sides' sequences without a
  branch, then each side swept on its own); deeper, the children are solved recursively.
* :func:`fronts` — the whole Pareto front of (x, misclassifications) for x one of total
  path length, nodes or leaves (any cost whose leaf does not depend on errors); at depth 2
  each side of a threshold is swept only where it can matter (:func:`_front2_ordered`).

Both skip thresholds by bounds that lose nothing (ConTree's interval pruning, generalised
to fronts in :func:`fronts`). For a threshold between two evaluated ones ``lo < t < hi``:

* monotone: the ``<=`` side at ``t`` holds the ``<=`` side at ``lo`` and the ``>`` side at
  ``t`` holds the ``>`` side at ``hi``, and a tree on a set, restricted to a subset (its
  constant splits dropped), costs no more in any cost: so the pair's costs at ``lo``
  (left) and ``hi`` (right) bound every threshold between them from below;
* moving a threshold past k rows changes a subtree's misclassifications by at most k (and
  its total path length by at most k times its depth): around an evaluated threshold whose
  cost is far above the best found, a whole range is skipped.

A third rule (ConTree's zero indices): once a side has no error, every threshold beyond it
keeps that side at zero and only grows the other side, so none can be better.

Ties (documented in :mod:`dagger_cli.engine.ordered`): the first tree found wins; the
search order is fixed (attributes by their best single split, thresholds from that split
outwards, breadth first), so the outputs are deterministic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .common import INF

#: Provenance kinds of a front point (:func:`fronts`); VIRTUAL marks a bound's point.
LEAF, ORDERED, NOMINAL, SHALLOWER, VIRTUAL = 0, 1, 2, 3, -1
#: An x below every cost: a bound point (NEG, y) rules out every point with a y >= y.
NEG = -(1 << 40)
#: ``stats`` slots: deep subproblems solved, splits evaluated, splits pruned, abort flag.
S_SOLVED, S_EVALUATED, S_PRUNED, S_ABORT = 0, 1, 2, 3
#: The sides a depth-two pass sweeps (:func:`_sides_d1p`)
LEFT, RIGHT, BOTH = 1, 2, 3
#: Parameters of the depth front's misclassification search (depth: max, split costs 1).
_DEPTH = (1, 0, 0, 1, 0)


# ------------------------------------------------------------------ small front helpers
@njit(cache=True, nogil=True)
def _pareto(xs, ys, ks, ats, cs, n):
    """The non-dominated points among the first n candidates, sorted by x (then y), the
    first of equal points kept (stable)."""
    if n == 0:
        e = np.empty(0, np.int64)
        return e, e.copy(), e.copy(), e.copy(), e.copy()
    y0 = ys[:n].min()
    order = np.argsort((xs[:n] - NEG) * (ys[:n].max() - y0 + 1) + (ys[:n] - y0), kind="mergesort")
    ox = np.empty(n, np.int64)
    oy = np.empty(n, np.int64)
    ok = np.empty(n, np.int64)
    oa = np.empty(n, np.int64)
    oc = np.empty(n, np.int64)
    k = 0
    least = INF
    for q in order:
        if ys[q] < least:
            least = ys[q]
            ox[k] = xs[q]
            oy[k] = ys[q]
            ok[k] = ks[q]
            oa[k] = ats[q]
            oc[k] = cs[q]
            k += 1
    return ox[:k].copy(), oy[:k].copy(), ok[:k].copy(), oa[:k].copy(), oc[:k].copy()


@njit(cache=True, nogil=True)
def _dominated(x, y, fx, fy):
    """Whether (x, y) is weakly dominated by a point of the front (fx up, fy down)."""
    lo, hi = 0, fx.size
    while lo < hi:  # the first point with fx > x
        mid = (lo + hi) // 2
        if fx[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo > 0 and fy[lo - 1] <= y


@njit(cache=True, nogil=True)
def _all_dominated(px, py, fx, fy):
    for i in range(px.size):
        if not _dominated(px[i], py[i], fx, fy):
            return False
    return True


@njit(cache=True, nogil=True)
def _combine(ax, ay, bx, by, comb):
    """The front of the pairs a + b (x: sum, or max if ``comb``; y: sum). When the pairs'
    x span no more than a few times their number, the least y per x is kept in a table and
    read off in x order (no sort); otherwise the pairs are sorted (:func:`_pareto`)."""
    n = ax.size * bx.size
    if n == 0:
        e = np.empty(0, np.int64)
        return e, e.copy()
    lo = max(ax.min(), bx.min()) if comb else ax.min() + bx.min()
    hi = max(ax.max(), bx.max()) if comb else ax.max() + bx.max()
    if hi - lo <= 4 * n + 64:
        least = np.full(hi - lo + 1, INF, np.int64)
        for i in range(ax.size):
            for j in range(bx.size):
                x = (max(ax[i], bx[j]) if comb else ax[i] + bx[j]) - lo
                y = ay[i] + by[j]
                if y < least[x]:
                    least[x] = y
        rx = np.empty(min(n, hi - lo + 1), np.int64)
        ry = np.empty(rx.size, np.int64)
        k = 0
        top = INF
        for x in range(hi - lo + 1):
            if least[x] < top:
                top = least[x]
                rx[k] = x + lo
                ry[k] = top
                k += 1
        return rx[:k].copy(), ry[:k].copy()
    xs = np.empty(n, np.int64)
    ys = np.empty(n, np.int64)
    k = 0
    for i in range(ax.size):
        for j in range(bx.size):
            xs[k] = max(ax[i], bx[j]) if comb else ax[i] + bx[j]
            ys[k] = ay[i] + by[j]
            k += 1
    z = np.zeros(n, np.int64)
    rx, ry, _, _, _ = _pareto(xs, ys, z, z, z, n)
    return rx, ry


@njit(cache=True, nogil=True)
def _merge(fx, fy, fk, fa, fc, px, py, kind, attr, code):
    """The front with the points (px, py) added; its own points win ties. A front sorted
    by x (each point's y below the one before) is merged with the few new points sorted
    in one pass; any other is sorted with them (:func:`_pareto`)."""
    n = fx.size + px.size
    staircase = True
    for i in range(1, fx.size):
        if fx[i] <= fx[i - 1] or fy[i] >= fy[i - 1]:
            staircase = False
            break
    if staircase and px.size <= 16:
        order = np.arange(px.size)  # the new points by (x, y), stable (insertion sort)
        for i in range(1, order.size):
            q = order[i]
            j = i - 1
            while j >= 0 and (px[order[j]], py[order[j]]) > (px[q], py[q]):
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = q
        ox = np.empty(n, np.int64)
        oy = np.empty(n, np.int64)
        ok = np.empty(n, np.int64)
        oa = np.empty(n, np.int64)
        oc = np.empty(n, np.int64)
        i = 0
        j = 0
        k = 0
        least = INF
        while i < fx.size or j < px.size:
            own = j == px.size or (i < fx.size and (fx[i], fy[i]) <= (px[order[j]], py[order[j]]))
            if own:
                x, y, kk, aa, cc = fx[i], fy[i], fk[i], fa[i], fc[i]
                i += 1
            else:
                q = order[j]
                x, y, kk, aa, cc = px[q], py[q], kind, attr, code
                j += 1
            if y < least:
                least = y
                ox[k], oy[k], ok[k], oa[k], oc[k] = x, y, kk, aa, cc
                k += 1
        return ox[:k].copy(), oy[:k].copy(), ok[:k].copy(), oa[:k].copy(), oc[:k].copy()
    xs = np.empty(n, np.int64)
    ys = np.empty(n, np.int64)
    ks = np.empty(n, np.int64)
    ats = np.empty(n, np.int64)
    cs = np.empty(n, np.int64)
    xs[: fx.size] = fx
    ys[: fx.size] = fy
    ks[: fx.size] = fk
    ats[: fx.size] = fa
    cs[: fx.size] = fc
    xs[fx.size :] = px
    ys[fx.size :] = py
    ks[fx.size :] = kind
    ats[fx.size :] = attr
    cs[fx.size :] = code
    return _pareto(xs, ys, ks, ats, cs, n)


@njit(cache=True, nogil=True)
def _kmax(cx, cy, fx, fy, alpha):
    """The largest k such that every point of (cx, cy) moved by (-k * alpha, -k) is weakly
    dominated by the front (-1: not even k = 0): thresholds within k rows are pruned."""
    least = INF
    for i in range(cx.size):
        if not _dominated(cx[i], cy[i], fx, fy):
            return -1
        lo, hi = 0, cy[i]
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if _dominated(cx[i] - mid * alpha, cy[i] - mid, fx, fy):
                lo = mid
            else:
                hi = mid - 1
        least = min(least, lo)
    return least


# ------------------------------------------------------------------ subtables
@njit(cache=True, nogil=True)
def _counts(lst, dec, C):
    cnt = np.zeros(C, np.int64)
    for q in range(lst.size):
        cnt[dec[lst[q]]] += 1
    return cnt


@njit(cache=True, nogil=True)
def _boundaries(lst, col, pos):
    """Where the codes change along ``lst`` (rows sorted by ``col``): the candidate
    thresholds, as the number of rows on the ``<=`` side. Returns how many."""
    K = 0
    for p in range(1, lst.size):
        if col[lst[p]] != col[lst[p - 1]]:
            pos[K] = p
            K += 1
    return K


@njit(cache=True, nogil=True)
def _partition(buf, level, off, m, side, starts, k):
    """Write the children of the subtable (``side[row]``: its child, 0..k-1; child g's
    rows start at ``starts[g]``) into ``level + 1``, every attribute stably."""
    nxt = np.empty(k, np.int64)
    for b in range(buf.shape[1]):
        src = buf[level, b, off : off + m]
        dst = buf[level + 1, b, off : off + m]
        nxt[:] = starts[:k]
        for q in range(m):
            row = src[q]
            g = side[row]
            dst[nxt[g]] = row
            nxt[g] += 1


@njit(cache=True, nogil=True)
def _groups(lst, col, starts):
    """The runs of equal codes along ``lst`` (a nominal split's children): their starts
    (and ``starts[k] = m``). Returns k."""
    m = lst.size
    starts[0] = 0
    k = 1
    for p in range(1, m):
        if col[lst[p]] != col[lst[p - 1]]:
            starts[k] = p
            k += 1
    starts[k] = m
    return k


@njit(cache=True, nogil=True)
def _hints(buf, level, off, m, codes, kinds, dec, C, total, hints, score):
    """Per ordered attribute, the threshold of its best split into two leaves by the Gini
    impurity (its index among the attribute's thresholds) and that split's impurity: the
    search starts there, and visits the attributes best first. (Misclassifications are
    often flat where the classes are unbalanced, every split of a depth-one tree as bad as
    the leaf; the impurity still tells a good start.)"""
    left = np.zeros(C, np.int64)
    for a in range(codes.shape[0]):
        hints[a] = 0
        score[a] = np.inf
        if kinds[a] != 1:
            continue
        lst = buf[level, a, off : off + m]
        col = codes[a]
        left[:] = 0
        j = 0
        for p in range(1, m):
            left[dec[lst[p - 1]]] += 1
            if col[lst[p]] == col[lst[p - 1]]:
                continue
            sl = 0.0
            sr = 0.0
            for c in range(C):
                sl += left[c] * left[c]
                sr += (total[c] - left[c]) * (total[c] - left[c])
            gini = m - sl / p - sr / (m - p)  # the rows' weighted impurity
            if gini < score[a] - 1e-9:
                score[a] = gini
                hints[a] = j
            j += 1


@njit(cache=True, nogil=True)
def _front1(buf, level, off, m, codes, kinds, dec, C, px):
    """The front at remaining depth 1: the leaf and every split into leaves (an ordered
    attribute's best threshold; a nominal attribute's split)."""
    comb, lc, sc, sr = px[0], px[1], px[3], px[4]
    A = codes.shape[0]
    total = _counts(buf[level, 0, off : off + m], dec, C)
    mis = m - total.max()
    cap = 1 + A
    xs = np.empty(cap, np.int64)
    ys = np.empty(cap, np.int64)
    ks = np.empty(cap, np.int64)
    ats = np.empty(cap, np.int64)
    cs = np.empty(cap, np.int64)
    xs[0] = lc
    ys[0] = mis
    ks[0] = LEAF
    ats[0] = -1
    cs[0] = -1
    n = 1
    if mis == 0 or m <= 1:
        return _pareto(xs, ys, ks, ats, cs, n)
    left = np.zeros(C, np.int64)
    for a in range(A):
        lst = buf[level, a, off : off + m]
        col = codes[a]
        if kinds[a] == 1:
            left[:] = 0
            least = INF
            code = -1
            for p in range(1, m):
                left[dec[lst[p - 1]]] += 1
                if col[lst[p]] == col[lst[p - 1]]:
                    continue
                ml = 0
                mr = 0
                for c in range(C):
                    ml = max(ml, left[c])
                    mr = max(mr, total[c] - left[c])
                if m - ml - mr < least:
                    least = m - ml - mr
                    code = col[lst[p - 1]]
            if code >= 0:
                xs[n] = sc + sr * m + (lc if comb else 2 * lc)
                ys[n] = least
                ks[n] = ORDERED
                ats[n] = a
                cs[n] = code
                n += 1
        else:
            e = 0
            k = 0
            size = 0
            left[:] = 0
            for p in range(m):
                left[dec[lst[p]]] += 1
                size += 1
                if p == m - 1 or col[lst[p + 1]] != col[lst[p]]:
                    e += size - left.max()
                    k += 1
                    left[:] = 0
                    size = 0
            if k >= 2:
                xs[n] = sc + sr * m + (lc if comb else k * lc)
                ys[n] = e
                ks[n] = NOMINAL
                ats[n] = a
                cs[n] = -1
                n += 1
    return _pareto(xs, ys, ks, ats, cs, n)


# ------------------------------------------------------------------ least misclassifications
@njit(cache=True, nogil=True)
def _side_split(cnt, tot, size, C):
    """Misclassifications of a side's split: ``cnt`` rows per class below, ``tot`` in all."""
    ml = 0
    mr = 0
    for c in range(C):
        if cnt[c] > ml:
            ml = cnt[c]
        if tot[c] - cnt[c] > mr:
            mr = tot[c] - cnt[c]
    return size - ml - mr


@njit(cache=True, nogil=True)
def _packed(buf, level, off, m, codes, dec):
    """The subtable's codes and classes in each attribute's order, contiguous (``cb[b, q]``:
    the code of attribute b of the q-th row in b's order; ``cls[b, q]`` its class), so the
    depth-two passes read no row index (:func:`_sides_d1p`)."""
    A = codes.shape[0]
    cb = np.empty((A, m), np.int32)
    cls = np.empty((A, m), np.int32)
    for b in range(A):
        lst = buf[level, b, off : off + m]
        col = codes[b]
        for q in range(m):
            cb[b, q] = col[lst[q]]
            cls[b, q] = dec[lst[q]]
    return cb, cls


@njit(cache=True, nogil=True)
def _root_codes(buf, level, off, m, codes, a, sa):
    """Attribute a's codes in every attribute's order (``sa[b, q]``): the side of each row
    of a split of a is ``sa[b, q] > threshold code``."""
    col = codes[a]
    for b in range(codes.shape[0]):
        lst = buf[level, b, off : off + m]
        for q in range(m):
            sa[b, q] = col[lst[q]]


@njit(cache=True, nogil=True)
def _sweep(vc, vk, n, tot, best, C, cnt):
    """The least errors of a split into two leaves of the n rows (codes ``vc`` ascending,
    classes ``vk``, class totals ``tot``) if below ``best``, else ``best``; a split that errs
    e >= best skips the next e - best rows (moving a row changes the errors by <= 1)."""
    cnt[:] = 0
    last = -1
    skip = 0
    for q in range(n):
        v = vc[q]
        if skip > 0:
            skip -= 1
        elif v != last and last >= 0:
            e = _side_split(cnt, tot, n, C)
            if e < best:
                best = e
                if best == 0:
                    return 0
            else:
                skip = e - best
                if skip >= n - 1 - q:  # no row left to score
                    return best
        cnt[vk[q]] += 1
        last = v
    return best


@njit(cache=True, nogil=True)
def _sweep2(vc, vk, n, t1, best):
    """:func:`_sweep` for two classes (``vk`` 0 or 1, ``t1`` rows of class 1): a split errs
    min(l0, l1) + min(r0, r1)."""
    t0 = n - t1
    l1 = 0
    last = -1
    skip = 0
    for q in range(n):
        v = vc[q]
        if skip > 0:
            skip -= 1
        elif v != last and last >= 0:
            l0 = q - l1
            e = min(l0, l1) + min(t0 - l0, t1 - l1)
            if e < best:
                best = e
                if best == 0:
                    return 0
            else:
                skip = e - best
                if skip >= n - 1 - q:
                    return best
        l1 += vk[q]
        last = v
    return best


@njit(cache=True, nogil=True)
def _sides_d1p(cb, cls, sa, t, kinds, C, nl, totL, totR, which=BOTH):
    """The least misclassifications of both sides of a split over depth <= 1, on the packed
    subtable (:func:`_packed`): the root attribute split at threshold code ``t`` (a row goes
    right when its code in ``sa`` exceeds t), ``nl`` rows and class totals ``totL`` on the
    left, ``totR`` on the right. Per ordered attribute, its rows are split into the two
    sides' sequences (stable, without a branch) and each side is swept on its own
    (:func:`_sweep`); a nominal attribute's groups are counted per side in one pass.
    ``which`` (:data:`LEFT`, :data:`RIGHT`, :data:`BOTH`): the sides to pass; a side not
    passed gets its leaf's errors."""
    A, m = cb.shape
    nr = m - nl
    doL = which != RIGHT
    doR = which != LEFT
    bestL = nl - totL.max() if doL else 0
    bestR = nr - totR.max() if doR else 0
    cntL = np.zeros(C, np.int64)
    cntR = np.zeros(C, np.int64)
    wl_c = np.empty(m + 1, np.int32)
    wl_k = np.empty(m + 1, np.int32)
    wr_c = np.empty(m + 1, np.int32)
    wr_k = np.empty(m + 1, np.int32)
    for b in range(A):
        if bestL == 0 and bestR == 0:
            break
        col = cb[b]
        cl = cls[b]
        sd = sa[b]
        if kinds[b] == 1:
            if which == BOTH:
                i = 0
                j = 0
                for q in range(m):
                    v = col[q]
                    c = cl[q]
                    s = np.int64(sd[q] > t)
                    wl_c[i] = v
                    wl_k[i] = c
                    wr_c[j] = v
                    wr_k[j] = c
                    i += 1 - s
                    j += s
            else:  # one side's sequence only
                keep = np.int64(which == RIGHT)
                i = 0
                for q in range(m):
                    wl_c[i] = col[q]
                    wl_k[i] = cl[q]
                    i += np.int64(sd[q] > t) == keep
                if which == RIGHT:
                    wl_c, wr_c = wr_c, wl_c
                    wl_k, wr_k = wr_k, wl_k
            if C == 2:
                if bestL > 0:
                    bestL = _sweep2(wl_c, wl_k, nl, totL[1], bestL)
                if bestR > 0:
                    bestR = _sweep2(wr_c, wr_k, nr, totR[1], bestR)
            else:
                if bestL > 0:
                    bestL = _sweep(wl_c, wl_k, nl, totL, bestL, C, cntL)
                if bestR > 0:
                    bestR = _sweep(wr_c, wr_k, nr, totR, bestR, C, cntR)
        else:
            cntL[:] = 0
            cntR[:] = 0
            lastL = -1
            lastR = -1
            eL = 0
            eR = 0
            kL = 0
            kR = 0
            gL = 0
            gR = 0
            for q in range(m + 1):
                v = col[q] if q < m else -2
                if v != lastL and gL > 0:
                    eL += gL - cntL.max()
                    kL += 1
                    cntL[:] = 0
                    gL = 0
                if v != lastR and gR > 0:
                    eR += gR - cntR.max()
                    kR += 1
                    cntR[:] = 0
                    gR = 0
                if q == m:
                    break
                if sd[q] <= t:
                    cntL[cl[q]] += 1
                    gL += 1
                    lastL = v
                else:
                    cntR[cl[q]] += 1
                    gR += 1
                    lastR = v
            if doL and kL >= 2 and eL < bestL:
                bestL = eL
            if doR and kR >= 2 and eR < bestR:
                bestR = eR
    if not doL:
        bestL = nl - totL.max()
    if not doR:
        bestR = nr - totR.max()
    return bestL, bestR


@njit(cache=True, nogil=True)
def _best1(buf, level, off, m, codes, kinds, dec, C):
    f = _front1(buf, level, off, m, codes, kinds, dec, C, np.array(_DEPTH, np.int64))
    return f[1][f[1].size - 1]


@njit(cache=True, nogil=True)
def _split_mis(cnt, nvb, C, ordered, tot, size):
    """The least misclassifications of a split of a side along one attribute, from its class
    counts per code ``cnt[j, c]`` (``tot``: per class, ``size`` rows): the best threshold of
    an ordered attribute, or the multiway split of a nominal one; ``size`` if none splits."""
    if ordered:
        best = INF
        left = np.zeros(C, np.int64)
        n_left = 0
        for j in range(nvb - 1):
            for c in range(C):
                left[c] += cnt[j, c]
                n_left += cnt[j, c]
            if n_left == 0 or n_left == size:
                continue
            ml = 0
            mr = 0
            for c in range(C):
                ml = max(ml, left[c])
                mr = max(mr, tot[c] - left[c])
            best = min(best, size - ml - mr)
        return best if best < INF else size
    e = 0
    k = 0
    for j in range(nvb):
        g = 0
        mx = 0
        for c in range(C):
            g += cnt[j, c]
            mx = max(mx, cnt[j, c])
        if g > 0:
            e += g - mx
            k += 1
    return e if k >= 2 else size


@njit(cache=True, nogil=True)
def _d2_counts(buf, level, off, m, codes, kinds, nv, dec, C, choice):
    """The least misclassifications over the trees of depth <= 2 of the subtable, from class
    counts per pair of attributes' codes (one pass over the rows per pair), for attributes
    of few codes (``nv``): every root split's sides are scored from the counts, without a
    pass over the rows per split (the depth-two layer of the DAG engine, for ordered
    attributes). ``choice`` gets the best tree's root as in :func:`best`."""
    A = codes.shape[0]
    V = 1
    for a in range(A):
        V = max(V, nv[a])
    lst = buf[level, 0, off : off + m]
    total = _counts(lst, dec, C)
    leaf = m - total.max()
    best_v = leaf
    choice[0] = -1
    choice[1] = -1
    choice[2] = LEAF
    one = np.zeros((A, V, C), np.int64)  # per attribute: class counts per code
    for q in range(m):
        row = lst[q]
        for a in range(A):
            one[a, codes[a, row], dec[row]] += 1
    # the depth-one trees
    for a in range(A):
        v = _split_mis(one[a], nv[a], C, kinds[a] == 1, total, m)
        if v < best_v:
            best_v = v
            choice[0] = a
            choice[2] = ORDERED if kinds[a] == 1 else NOMINAL
            choice[1] = -1
            if kinds[a] == 1:  # its threshold: the best one, again
                left = np.zeros(C, np.int64)
                nl = 0
                for j in range(nv[a] - 1):
                    for c in range(C):
                        left[c] += one[a, j, c]
                        nl += one[a, j, c]
                    if 0 < nl < m:
                        ml = 0
                        mr = 0
                        for c in range(C):
                            ml = max(ml, left[c])
                            mr = max(mr, total[c] - left[c])
                        if m - ml - mr == v:
                            choice[1] = j
                            break
    if best_v == 0:
        return best_v
    pair = np.zeros((V, V, C), np.int64)
    cum = np.zeros((V, C), np.int64)  # the <= side's counts per code of the second attribute
    side_tot = np.zeros(C, np.int64)
    other_tot = np.zeros(C, np.int64)
    other = np.zeros((V, C), np.int64)
    d1L = np.empty(V, np.int64)
    d1R = np.empty(V, np.int64)
    for a in range(A):
        na = nv[a]
        # the sides' depth-one errors along every attribute b, for every threshold i of a
        for i in range(na):
            d1L[i] = INF
            d1R[i] = INF
        for b in range(A):
            nb = nv[b]
            pair[:na, :nb, :] = 0
            for q in range(m):
                row = lst[q]
                pair[codes[a, row], codes[b, row], dec[row]] += 1
            if kinds[a] == 1:
                cum[:nb, :] = 0
                side_tot[:] = 0
                nl = 0
                for i in range(na - 1):
                    for j in range(nb):
                        for c in range(C):
                            cum[j, c] += pair[i, j, c]
                    for c in range(C):
                        side_tot[c] += one[a, i, c]
                    nl += one[a, i].sum()
                    if nl == 0 or nl == m:
                        continue
                    vl = _split_mis(cum, nb, C, kinds[b] == 1, side_tot, nl)
                    for j in range(nb):
                        for c in range(C):
                            other[j, c] = one[b, j, c] - cum[j, c]
                    for c in range(C):
                        other_tot[c] = total[c] - side_tot[c]
                    vr = _split_mis(other, nb, C, kinds[b] == 1, other_tot, m - nl)
                    d1L[i] = min(d1L[i], vl)
                    d1R[i] = min(d1R[i], vr)
            else:
                # a nominal root: each value's group split along b
                for i in range(na):
                    g = one[a, i].sum()
                    if g == 0:
                        continue
                    vg = _split_mis(pair[i], nb, C, kinds[b] == 1, one[a, i], g)
                    d1L[i] = min(d1L[i], vg)
        if kinds[a] == 1:
            side_tot[:] = 0
            nl = 0
            for i in range(na - 1):
                for c in range(C):
                    side_tot[c] += one[a, i, c]
                nl += one[a, i].sum()
                if nl == 0 or nl == m:
                    continue
                ml = 0
                mr = 0
                for c in range(C):
                    ml = max(ml, side_tot[c])
                    mr = max(mr, total[c] - side_tot[c])
                v = min(d1L[i], nl - ml) + min(d1R[i], (m - nl) - mr)
                if v < best_v:
                    best_v = v
                    choice[0] = a
                    choice[1] = i
                    choice[2] = ORDERED
        else:
            v = 0
            k = 0
            for i in range(na):
                g = one[a, i].sum()
                if g == 0:
                    continue
                k += 1
                v += min(d1L[i], g - one[a, i].max())
            if k >= 2 and v < best_v:
                best_v = v
                choice[0] = a
                choice[1] = -1
                choice[2] = NOMINAL
    return best_v


@njit(cache=True, nogil=True)
def best(
    buf, level, off, m, r, ub, codes, kinds, nv, dec, C, side, stats, choice, keys, h1, h2, memo
):
    """The least misclassifications over the trees of depth <= r of the subtable
    ``(level, off, m)`` if it is below ``ub`` (then ``exact`` is True), else a lower bound
    of at least ``ub``. Returns (value, exact); ``choice`` gets the root of the best tree
    found: (attribute, threshold code, kind), attribute -1 for the leaf.

    ``nv[a]`` is attribute a's number of codes; at depth 2, when every attribute has at most
    ``nv[A]`` of them (0: never), the trees come from class counts (:func:`_d2_counts`).

    When both sides of a split must be solved, the larger is solved first, below the best
    found; the smaller below what remains plus the distance to the ends of the current
    interval (ConTree's trick: a larger lower bound prunes more of the interval).

    ``memo`` keeps every result at depth >= 2 by subtable and depth: a subtable reached
    again (conditions in another order) costs a lookup. A subtable is named by the two sums
    ``h1, h2`` of its rows' random keys (``keys[0], keys[1]``), as in the DAG engine; a
    kept lower bound answers a call whose bound it reaches, an exact value every call."""
    total = _counts(buf[level, 0, off : off + m], dec, C)
    leaf = m - total.max()
    choice[0] = -1
    choice[1] = -1
    choice[2] = LEAF
    if r == 0 or leaf == 0 or m <= 1:
        return leaf, True
    if r == 1:
        f = _front1(buf, level, off, m, codes, kinds, dec, C, np.array(_DEPTH, np.int64))
        k = f[1].size - 1
        choice[0] = f[3][k]
        choice[1] = f[4][k]
        choice[2] = f[2][k]
        return f[1][k], True
    name = (h1, h2, np.int64(r))
    if name in memo:
        v, exact = memo[name]
        if exact == 1 or v >= ub:
            return v, exact == 1
    A = codes.shape[0]
    if r == 2 and nv[A] > 0:
        few = True  # every attribute of few codes: the depth-two trees from counts
        for a in range(A):
            few = few and nv[a] <= nv[A]
        if few:
            stats[S_SOLVED] += 1
            v = _d2_counts(buf, level, off, m, codes, kinds, nv, dec, C, choice)
            memo[name] = (v, np.int64(1))
            return v, True
    stats[S_SOLVED] += 1
    A = codes.shape[0]
    inc = leaf
    hk1 = np.zeros(m + 1, np.int64)  # the children's names, when they are solved below
    hk2 = np.zeros(m + 1, np.int64)
    totL = np.zeros(C, np.int64)
    totR = np.zeros(C, np.int64)
    sub = np.empty(3, np.int64)
    hints = np.empty(A, np.int64)
    score = np.empty(A, np.float64)
    _hints(buf, level, off, m, codes, kinds, dec, C, total, hints, score)
    pos = np.empty(m + 1, np.int64)
    if r == 2:
        cb, cls = _packed(buf, level, off, m, codes, dec)
        sa = np.empty((A, m), np.int32)
    else:  # (unused below depth two; typed alike)
        cb = np.empty((0, 0), np.int32)
        cls = cb
        sa = cb
    for a in np.argsort(score, kind="mergesort"):
        if min(ub, inc) <= 0 or stats[S_ABORT]:
            break
        lst = buf[level, a, off : off + m]
        col = codes[a]
        if kinds[a] != 1:
            k = _groups(lst, col, pos)
            if k < 2:
                continue
            for g in range(k):
                hk1[g] = 0
                hk2[g] = 0
                for q in range(pos[g], pos[g + 1]):
                    side[lst[q]] = g
                    hk1[g] += keys[0, lst[q]]
                    hk2[g] += keys[1, lst[q]]
            _partition(buf, level, off, m, side, pos, k)
            stats[S_EVALUATED] += 1
            UB = min(ub, inc)
            acc = 0
            for g in range(k):
                v, _ = best(
                    buf,
                    level + 1,
                    off + pos[g],
                    pos[g + 1] - pos[g],
                    r - 1,
                    UB - acc,
                    codes,
                    kinds,
                    nv,
                    dec,
                    C,
                    side,
                    stats,
                    sub,
                    keys,
                    hk1[g],
                    hk2[g],
                    memo,
                )
                acc += v
                if acc >= UB:
                    break
            if acc < UB:
                inc = acc
                choice[0] = a
                choice[1] = -1
                choice[2] = NOMINAL
            continue
        K = _boundaries(lst, col, pos)
        if K == 0:
            continue
        if r == 2:  # the depth-two passes read the packed subtable
            _root_codes(buf, level, off, m, codes, a, sa)
        # Per evaluated threshold: its sides' values (or lower bounds).
        recL = np.zeros(K, np.int64)
        recR = np.zeros(K, np.int64)
        zlo = -1  # the last threshold whose <= side has no error
        zhi = K  # the first threshold whose > side has no error
        qlo = np.empty(2 * K + 2, np.int64)
        qhi = np.empty(2 * K + 2, np.int64)
        qln = np.empty(2 * K + 2, np.int64)
        qrn = np.empty(2 * K + 2, np.int64)
        qlo[0], qhi[0], qln[0], qrn[0] = 0, K - 1, -1, -1
        qh, qt = 0, 1
        first = True
        while qh < qt:
            lo, hi, ln, rn = qlo[qh], qhi[qh], qln[qh], qrn[qh]
            qh += 1
            UB = min(ub, inc)
            if UB <= 0 or stats[S_ABORT]:
                break
            lbl = recL[ln] if ln >= 0 else 0
            lbr = recR[rn] if rn >= 0 else 0
            if lbl + lbr >= UB:  # monotone bound
                stats[S_PRUNED] += hi - lo + 1
                continue
            if ln >= 0:  # the left neighbour's cost, minus the rows moved
                k = recL[ln] + recR[ln] - UB
                while lo <= hi and pos[lo] - pos[ln] <= k:
                    lo += 1
            if rn >= 0:
                k = recL[rn] + recR[rn] - UB
                while lo <= hi and pos[rn] - pos[hi] <= k:
                    hi -= 1
            lo = max(lo, zlo + 1)
            hi = min(hi, zhi - 1)
            if lo > hi:
                continue
            mid = hints[a] if first and lo <= hints[a] <= hi else (lo + hi) // 2
            first = False
            p = pos[mid]
            stats[S_EVALUATED] += 1
            if r == 2:
                totL[:] = 0
                for q in range(p):
                    totL[dec[lst[q]]] += 1
                for c in range(C):
                    totR[c] = total[c] - totL[c]
                vl, vr = _sides_d1p(cb, cls, sa, col[lst[p - 1]], kinds, C, p, totL, totR)
            else:
                totL[:] = 0
                l1 = np.int64(0)
                l2 = np.int64(0)
                for q in range(m):
                    row = lst[q]
                    if q < p:
                        side[row] = 0
                        totL[dec[row]] += 1
                        l1 += keys[0, row]
                        l2 += keys[1, row]
                    else:
                        side[row] = 1
                r1 = h1 - l1
                r2 = h2 - l2
                for c in range(C):
                    totR[c] = total[c] - totL[c]
                two = np.array((0, p), np.int64)
                _partition(buf, level, off, m, side, two, 2)
                half = max(p - pos[lo], pos[hi] - p)
                # the larger side first under UB, the other under what it leaves
                big_left = p >= m - p
                f_off, f_m, f1, f2 = (off, p, l1, l2) if big_left else (off + p, m - p, r1, r2)
                s_off, s_m, s1, s2 = (off + p, m - p, r1, r2) if big_left else (off, p, l1, l2)
                vf, _ = best(
                    buf,
                    level + 1,
                    f_off,
                    f_m,
                    r - 1,
                    UB,
                    codes,
                    kinds,
                    nv,
                    dec,
                    C,
                    side,
                    stats,
                    sub,
                    keys,
                    f1,
                    f2,
                    memo,
                )
                vs = lbr if big_left else lbl
                if UB - vf + half > 0:
                    vs, _ = best(
                        buf,
                        level + 1,
                        s_off,
                        s_m,
                        r - 1,
                        UB - vf + half,
                        codes,
                        kinds,
                        nv,
                        dec,
                        C,
                        side,
                        stats,
                        sub,
                        keys,
                        s1,
                        s2,
                        memo,
                    )
                vl, vr = (vf, vs) if big_left else (vs, vf)
            recL[mid] = max(vl, lbl)
            recR[mid] = max(vr, lbr)
            if vl == 0:
                zlo = max(zlo, mid)
            if vr == 0:
                zhi = min(zhi, mid)
            if vl + vr < UB:
                inc = vl + vr
                choice[0] = a
                choice[1] = col[lst[p - 1]]
                choice[2] = ORDERED
            if lo <= mid - 1:
                qlo[qt], qhi[qt], qln[qt], qrn[qt] = lo, mid - 1, ln, mid
                qt += 1
            if mid + 1 <= hi:
                qlo[qt], qhi[qt], qln[qt], qrn[qt] = mid + 1, hi, mid, rn
                qt += 1
    if stats[S_ABORT]:
        return ub, False  # not a result: never kept
    if inc < ub:
        memo[name] = (inc, np.int64(1))
        return inc, True
    memo[name] = (ub, np.int64(0))
    return ub, False


# ------------------------------------------------------------------ whole fronts
@njit(cache=True, nogil=True)
def _working_front(ux, uy, sx, sy):
    """A search's first working front: the bound ``(ux, uy)`` (:data:`VIRTUAL` points) and
    the front one level shallower ``(sx, sy)`` (:data:`SHALLOWER`)."""
    none = -np.ones(ux.size, np.int64)
    virtual = np.full(ux.size, VIRTUAL, np.int64)
    return _merge(ux, uy, virtual, none, none, sx, sy, SHALLOWER, -1, -1)


@njit(cache=True, nogil=True)
def _ideal(fx, fy, bx, by):
    """The least x and the least y of a child's trees: over its front ``(fx, fy)`` and the
    bound ``(bx, by)`` that ruled out the rest (every other tree is above a bound point)."""
    x = INF
    y = INF
    for i in range(fx.size):
        x = min(x, fx[i])
        y = min(y, fy[i])
    for i in range(bx.size):
        x = min(x, bx[i])
        y = min(y, by[i])
    return max(x, NEG), y


@njit(cache=True, nogil=True)
def _shifted(wx, wy, dx, dy):
    """The bound a child gets: the parent's working front moved by what the split and the
    rest of its children add at least (dx, dy)."""
    ox = np.empty(wx.size, np.int64)
    oy = np.empty(wy.size, np.int64)
    for i in range(wx.size):
        ox[i] = max(wx[i] - dx, NEG)
        oy[i] = wy[i] - dy
    return ox, oy


@njit(cache=True, nogil=True)
def _lower(fx, fy, bx, by, lc):
    """A child's lower-bound set: its front, and the bound it was solved under (every tree
    it left out lies weakly above a bound point), raised to what any tree costs at least
    (x >= a leaf's, y >= 0)."""
    n = fx.size + bx.size
    xs = np.empty(n, np.int64)
    ys = np.empty(n, np.int64)
    xs[: fx.size] = fx
    ys[: fx.size] = fy
    for i in range(bx.size):
        xs[fx.size + i] = max(bx[i], lc)
        ys[fx.size + i] = max(by[i], 0)
    z = np.zeros(n, np.int64)
    rx, ry, _, _, _ = _pareto(xs, ys, z, z, z, n)
    return rx, ry


@njit(cache=True, nogil=True)
def _front_1(leaf_mis, split_mis, lc, split_x):
    """A side's front at depth <= 1 from its leaf's and its best split's errors."""
    if split_mis < leaf_mis:
        return np.array((lc, split_x), np.int64), np.array((leaf_mis, split_mis), np.int64)
    return np.full(1, lc, np.int64), np.full(1, leaf_mis, np.int64)


@njit(cache=True, nogil=True)
def _real(fx, fy, fk, fa, fc):
    keep = fk != VIRTUAL
    return fx[keep].copy(), fy[keep].copy(), fk[keep].copy(), fa[keep].copy(), fc[keep].copy()


@njit(cache=True, nogil=True)
def _leaves_x(L, n, lc, sc, sr, binary, depth):
    """The least x (sum costs) of a tree of at least L leaves on n rows, depth <= depth."""
    if L == 1:
        return lc
    if not binary:  # one split of L ways
        return sc + sr * n + L * lc
    if depth == 2 and L == 4:  # both children split: every row twice
        return 3 * sc + 2 * sr * n + 4 * lc
    return (L - 1) * sc + sr * (n + 2 * (L - 2)) + L * lc


@njit(cache=True, nogil=True)
def _classes_dead(cb, n_lv, nl, nr, split_x, lc, sc, sr, binary, d, misl, misr, ylim, x_top):
    """Whether every tree of a split (``<=`` side of nl rows, the other nr, each of depth
    <= d) deeper than two levels is weakly dominated, by the class-count bounds ``cb``
    (:func:`_class_bounds`) and the least x of their leaves (:func:`_leaves_x`)."""
    for i in range(n_lv):
        yl = misl if i == 0 else cb[0, i]
        xl = _leaves_x(i + 1, nl, lc, sc, sr, binary, d)
        for j in range(n_lv):
            if i <= 1 and j <= 1:
                continue  # each side a leaf or a split into two: depth 2, in the seed
            yr = misr if j == 0 else cb[1, j]
            x = split_x + xl + _leaves_x(j + 1, nr, lc, sc, sr, binary, d)
            if yl + yr < ylim[min(x, x_top) - lc]:
                return False
    return True


#: Pairs of lower-bound points beyond which a threshold is not bounded on its own. Screening
#: costs a pass over the pairs per threshold, far less than the two children it can spare:
#: 256 -> 2**18 took segment's Λ vs µ from 114 s to 69 s and wilt's from 20 s to 9 s (the
#: same with 2**22: no wider sets met).
SCREEN_PAIRS = 1 << 18


@njit(cache=True, nogil=True)
def _side_leaves(lst, dec, C, total, pos, K, misL, misR):
    """The leaf errors of both sides of each of the K thresholds after ``pos[k]`` rows of
    ``lst`` (prefix class counts)."""
    m = lst.size
    cnt = np.zeros(C, np.int64)
    j = 0
    for q in range(m - 1):
        cnt[dec[lst[q]]] += 1
        if j < K and pos[j] == q + 1:
            ml = 0
            mr = 0
            for c in range(C):
                ml = max(ml, cnt[c])
                mr = max(mr, total[c] - cnt[c])
            misL[j] = (q + 1) - ml
            misR[j] = (m - q - 1) - mr
            j += 1


@njit(cache=True, nogil=True)
def _class_bounds(lst, dec, C, total, pos, K, nl):
    """Per threshold (after ``pos[k]`` rows of ``lst``) and side, the least errors of a
    tree of at most L leaves, L = 1..nl: its rows less the L largest class counts (each
    leaf predicts one class). ``out[k, s, L - 1]``, s = 0 the ``<=`` side, 1 the other.
    The L largest are selected in place (no sort, no allocation per threshold: this runs
    for every attribute of every subtable solved at depth 2)."""
    m = lst.size
    out = np.zeros((K, 2, nl), np.int64)
    cnt = np.zeros(C, np.int64)
    top = np.empty(C, np.int64)
    j = 0
    for q in range(m - 1):
        cnt[dec[lst[q]]] += 1
        if j < K and pos[j] == q + 1:
            for sd in range(2):
                for c in range(C):
                    top[c] = cnt[c] if sd == 0 else total[c] - cnt[c]
                acc = q + 1 if sd == 0 else m - q - 1
                for L in range(nl):
                    if L < C:  # the largest of top[L:] into top[L]
                        b = L
                        for c in range(L + 1, C):
                            if top[c] > top[b]:
                                b = c
                        v = top[b]
                        top[b] = top[L]
                        top[L] = v
                        acc -= v
                    out[j, sd, L] = acc
            j += 1
    return out


@njit(cache=True, nogil=True)
def _ylim(fx, fy, x_lo, x_hi):
    """For every x in [x_lo, x_hi], the least y of the front's points with an x <= it: a
    point (x, y) is weakly dominated iff y >= that (a lookup instead of a search)."""
    out = np.full(x_hi - x_lo + 1, INF, np.int64)
    for i in range(fx.size):
        if fx[i] <= x_hi:
            j = max(fx[i], x_lo) - x_lo
            if fy[i] < out[j]:
                out[j] = fy[i]
    for j in range(1, out.size):
        if out[j - 1] < out[j]:
            out[j] = out[j - 1]
    return out


@njit(cache=True, nogil=True)
def _ylim_add(ylim, px, py, x_lo, x_hi):
    """:func:`_ylim` of a front after the points (px, py) are merged into it (a point the
    merge drops is dominated by one it adds, so only the new points lower the table)."""
    for i in range(px.size):
        if px[i] <= x_hi:
            j = max(px[i], x_lo) - x_lo
            while j < ylim.size and ylim[j] > py[i]:
                ylim[j] = py[i]
                j += 1


@njit(cache=True, nogil=True)
def _front2_ordered(buf, level, off, m, a, hint, codes, kinds, dec, C, px, packed, stats, fr):
    """The trees of depth 2 rooted at a split of ordered attribute ``a`` of the subtable,
    merged into the working front ``fr`` (x, y, kind, attribute, code), when every split
    into leaves of a side costs the same x (``one_x`` in :func:`fronts`).

    A threshold after p rows makes at most four points: both sides leaves (the front at
    depth 1 has the best of those), one side split, the other, both. Their x are known
    from the sizes, and so are the sides' leaf errors (prefix class counts), so only the
    sides' best splits need a pass (:func:`_sides_d1p`), and a side is swept only if a
    point with its split can be on the front or another threshold of the interval can use
    its errors as a bound (else it keeps its bound). Thresholds are visited from the
    hint outwards, breadth first; before a pass, each threshold of the interval is bounded
    on its own: a side's best split errs no less than the same side's at the evaluated
    neighbour it contains, and no less than the neighbour's that contains it minus the rows
    between. A threshold whose four bounded points are all weakly dominated is skipped."""
    fx, fy, fk, fa, fc = fr
    cb, cls, sa = packed
    comb, lc, sc, sr = px[0], px[1], px[3], px[4]
    split_x = sc + sr * m
    lst = buf[level, a, off : off + m]
    col = codes[a]
    total = _counts(lst, dec, C)
    pos = np.empty(m, np.int64)
    K = _boundaries(lst, col, pos)
    if K == 0:
        return fr
    # the sides' leaf errors at every threshold, from prefix class counts
    misL = np.empty(K, np.int64)
    misR = np.empty(K, np.int64)
    _side_leaves(lst, dec, C, total, pos, K, misL, misR)
    # a side's split into two leaves errs no less than its rows less its two largest classes
    # (binary splits only: a nominal split may have more leaves)
    if C > 2 and kinds.min() == 1:
        two_cls = _class_bounds(lst, dec, C, total, pos, K, 2)
    else:
        two_cls = np.zeros((K, 2, 2), np.int64)
    d1L = np.zeros(K, np.int64)  # the sides' best errors at depth 1, where evaluated
    d1R = np.zeros(K, np.int64)
    px2 = np.empty(4, np.int64)
    py2 = np.empty(4, np.int64)
    totL = np.zeros(C, np.int64)
    totR = np.zeros(C, np.int64)
    qlo = np.empty(2 * K + 2, np.int64)
    qhi = np.empty(2 * K + 2, np.int64)
    qln = np.empty(2 * K + 2, np.int64)
    qrn = np.empty(2 * K + 2, np.int64)
    qlo[0], qhi[0], qln[0], qrn[0] = 0, K - 1, -1, -1
    qh, qt = 0, 1
    first = True
    two_leaf = lc if comb else 2 * lc
    # the x range of the candidates' points, and the front's y bound over it
    x_lo = lc
    x_hi = split_x + (max(sc + sr * m + two_leaf, lc) if comb else 2 * (sc + sr * m + two_leaf))
    ylim = _ylim(fx, fy, x_lo, x_hi)
    first_eval = True  # the root attribute's codes are packed at the first pass
    while qh < qt:
        lo, hi, ln, rn = qlo[qh], qhi[qh], qln[qh], qrn[qh]
        qh += 1
        if stats[S_ABORT]:
            break
        # screen every threshold of the interval on its own bounds
        pick = -1
        pick_l = 0  # the bounds of the picked threshold's sides' best splits
        pick_r = 0
        best_gap = INF
        want = hint if first and lo <= hint <= hi else (lo + hi) // 2
        alive = 0
        uses_l = 0  # the alive thresholds with a point of a split of their left side alive
        uses_r = 0
        pick_uses_l = False
        pick_uses_r = False
        lim_l = lim_r = lim_b = 0  # the picked threshold's (the front's y at its points' x)
        for kk in range(lo, hi + 1):
            p = pos[kk]
            lb_l = 0
            lb_r = 0
            if ln >= 0:
                lb_l = max(lb_l, d1L[ln])
                lb_r = max(lb_r, d1R[ln] - (p - pos[ln]))
            if rn >= 0:
                lb_l = max(lb_l, d1L[rn] - (pos[rn] - p))
                lb_r = max(lb_r, d1R[rn])
            lb_l = max(lb_l, two_cls[kk, 0, 1])
            lb_r = max(lb_r, two_cls[kk, 1, 1])
            lb_l = min(lb_l, misL[kk])
            lb_r = min(lb_r, misR[kk])
            xl = sc + sr * p + two_leaf
            xr = sc + sr * (m - p) + two_leaf
            if comb:
                px2[0] = split_x + max(xl, lc)
                px2[1] = split_x + max(lc, xr)
                px2[2] = split_x + max(xl, xr)
            else:
                px2[0] = split_x + xl + lc
                px2[1] = split_x + lc + xr
                px2[2] = split_x + xl + xr
            py2[0] = lb_l + misR[kk]
            py2[1] = misL[kk] + lb_r
            py2[2] = lb_l + lb_r
            lim0 = ylim[min(px2[0], x_hi) - x_lo]  # the front's least y at each point's x
            lim1 = ylim[min(px2[1], x_hi) - x_lo]
            lim2 = ylim[min(px2[2], x_hi) - x_lo]
            l0 = py2[0] < lim0
            l1 = py2[1] < lim1
            l2 = py2[2] < lim2
            if not (l0 or l1 or l2):
                stats[S_PRUNED] += 1
                continue
            alive += 1
            uses_l += l0 or l2
            uses_r += l1 or l2
            gap = abs(kk - want)
            if gap < best_gap:
                best_gap = gap
                pick = kk
                pick_l = lb_l
                pick_r = lb_r
                pick_uses_l = l0 or l2
                pick_uses_r = l1 or l2
                lim_l, lim_r, lim_b = lim0, lim1, lim2
        if pick < 0:
            continue
        first = False
        mid = pick
        p = pos[mid]
        stats[S_EVALUATED] += 1
        if first_eval:
            _root_codes(buf, level, off, m, codes, a, sa)
            first_eval = False
        totL[:] = 0
        for q in range(p):
            totL[dec[lst[q]]] += 1
        for c in range(C):
            totR[c] = total[c] - totL[c]
        # A side is passed if a point with its split can be on the front, or if another
        # threshold of the interval can use the side's errors as a bound: the side that gains
        # more first, then the other (if still needed) with its sibling's exact errors. A
        # side not passed keeps its bound for the neighbours, and its leaf.
        t = col[lst[p - 1]]
        keep_l = uses_l > pick_uses_l
        keep_r = uses_r > pick_uses_r
        bl, br = misL[mid], misR[mid]
        d1L[mid], d1R[mid] = pick_l, pick_r
        if keep_l and keep_r:
            bl, br = _sides_d1p(cb, cls, sa, t, kinds, C, p, totL, totR, BOTH)
            d1L[mid], d1R[mid] = bl, br
        else:
            if keep_l or keep_r:
                left_first = keep_l
            elif pick_uses_l and pick_uses_r:
                left_first = lim_l - (pick_l + misR[mid]) >= lim_r - (misL[mid] + pick_r)
            else:
                left_first = pick_uses_l
            if left_first:
                bl, _ = _sides_d1p(cb, cls, sa, t, kinds, C, p, totL, totR, LEFT)
                d1L[mid] = bl
                if keep_r or misL[mid] + pick_r < lim_r or bl + pick_r < lim_b:
                    _, br = _sides_d1p(cb, cls, sa, t, kinds, C, p, totL, totR, RIGHT)
                    d1R[mid] = br
            else:
                _, br = _sides_d1p(cb, cls, sa, t, kinds, C, p, totL, totR, RIGHT)
                d1R[mid] = br
                if keep_l or pick_l + misR[mid] < lim_l or pick_l + br < lim_b:
                    bl, _ = _sides_d1p(cb, cls, sa, t, kinds, C, p, totL, totR, LEFT)
                    d1L[mid] = bl
        Lx, Ly = _front_1(misL[mid], bl, lc, sc + sr * p + two_leaf)
        Rx, Ry = _front_1(misR[mid], br, lc, sc + sr * (m - p) + two_leaf)
        cx, cy = _combine(Lx, Ly, Rx, Ry, comb)
        if not _all_dominated(cx + split_x, cy, fx, fy):  # else the merge keeps the front
            fx, fy, fk, fa, fc = _merge(fx, fy, fk, fa, fc, cx + split_x, cy, ORDERED, a, t)
            _ylim_add(ylim, cx + split_x, cy, x_lo, x_hi)
        if alive > 1:
            if lo <= mid - 1:
                qlo[qt], qhi[qt], qln[qt], qrn[qt] = lo, mid - 1, ln, mid
                qt += 1
            if mid + 1 <= hi:
                qlo[qt], qhi[qt], qln[qt], qrn[qt] = mid + 1, hi, mid, rn
                qt += 1
    return fx, fy, fk, fa, fc


@njit(cache=True, nogil=True)
def fronts(buf, level, off, m, r, codes, kinds, dec, C, px, ux, uy, side, stats, attrs, uk, ua, uc):
    """The front (x, misclassifications) of the subtable over the trees of depth <= r, x by
    the cost parameters ``px`` (combine, leaf_const, leaf_mis = 0, split_const,
    split_rows), without the points weakly dominated by the bound ``(ux, uy)`` (a staircase,
    x up; empty: the whole front). Returns (x, y, kind, attribute, code) per point: the
    tree's root (:data:`LEAF`, :data:`ORDERED` with the threshold code, :data:`NOMINAL`) or
    :data:`SHALLOWER` (a point of the front at depth <= r - 1).

    Branch and bound over fronts: the working front starts as the bound (its points
    marked :data:`VIRTUAL`) and the front at depth r - 1, and every candidate split is
    skipped when all it could make is weakly dominated by it. A child is solved under the
    working front moved by what the split and its siblings add at least, so a child's
    result may leave out what cannot matter; what a child left out lies above its bound,
    which keeps the neighbours' lower bounds valid (:func:`_lower`).

    ``attrs`` empty: every attribute, in the order of :func:`_hints`. Otherwise only the
    splits of those attributes, and ``(ux, uy)`` is the working front itself, its points'
    provenance ``(uk, ua, uc)`` (the steps of
    :func:`dagger_cli.engine.ordered._root_steps`)."""
    if r == 0:
        total = _counts(buf[level, 0, off : off + m], dec, C)
        one = np.ones(1, np.int64)
        return one * px[1], one * (m - total.max()), one * LEAF, -one, -one
    if r == 1:
        return _front1(buf, level, off, m, codes, kinds, dec, C, px)
    total = _counts(buf[level, 0, off : off + m], dec, C)
    if m <= 1 or total.max() == m:  # a pure leaf: every split costs more, errs no less
        one = np.ones(1, np.int64)
        return one * px[1], one * 0, one * LEAF, -one, -one
    noattrs = np.empty(0, np.int64)
    if attrs.size == 0:
        stats[S_SOLVED] += 1
        sx, sy, _, _, _ = fronts(
            buf,
            level,
            off,
            m,
            r - 1,
            codes,
            kinds,
            dec,
            C,
            px,
            ux,
            uy,
            side,
            stats,
            noattrs,
            noattrs,
            noattrs,
            noattrs,
        )
        fx, fy, fk, fa, fc = _working_front(ux, uy, sx, sy)
    else:
        fx, fy, fk, fa, fc = ux.copy(), uy.copy(), uk.copy(), ua.copy(), uc.copy()
    comb, lc, sc, sr = px[0], px[1], px[3], px[4]
    split_x = sc + sr * m
    alpha = sr * (r - 1)  # how far x moves per row moved (total path length)
    A = codes.shape[0]
    triv_x = np.full(1, lc, np.int64)  # the least any subtree costs
    triv_y = np.zeros(1, np.int64)
    # Whether every split into leaves of a subtable costs the same x (then a side's front
    # at depth 1 is its leaf and its best split): x not counting leaves, or binary splits.
    one_x = comb == 1 or lc == 0 or kinds.min() == 1
    # the largest x a split of this subtable can make, for the lookup of the front's y
    x_top = split_x + 2 * (r - 1) * (sc + sr * m + 2 * lc) + 2 * lc
    empty = np.empty((0, 0), np.int32)
    packed = (empty, empty, empty)  # the subtable packed for the depth-two passes, once
    hints = np.empty(A, np.int64)
    score = np.empty(A, np.float64)
    _hints(buf, level, off, m, codes, kinds, dec, C, total, hints, score)
    pos = np.empty(m + 1, np.int64)
    order = np.argsort(score, kind="mergesort") if attrs.size == 0 else attrs
    for a in order:
        if stats[S_ABORT]:
            break
        lst = buf[level, a, off : off + m]
        col = codes[a]
        if kinds[a] != 1:
            k = _groups(lst, col, pos)
            if k < 2:
                continue
            for g in range(k):
                for q in range(pos[g], pos[g + 1]):
                    side[lst[q]] = g
            _partition(buf, level, off, m, side, pos, k)
            stats[S_EVALUATED] += 1
            accx = np.zeros(1, np.int64)
            accy = np.zeros(1, np.int64)
            lo_x = 0  # what the children solved so far add at least
            lo_y = 0
            pruned = False
            for g in range(k):
                rest = k - 1 - g
                dx = split_x + (0 if comb else lo_x + rest * lc)
                bx, by = _shifted(fx, fy, dx, lo_y)
                gx, gy, _, _, _ = fronts(
                    buf,
                    level + 1,
                    off + pos[g],
                    pos[g + 1] - pos[g],
                    r - 1,
                    codes,
                    kinds,
                    dec,
                    C,
                    px,
                    bx,
                    by,
                    side,
                    stats,
                    noattrs,
                    noattrs,
                    noattrs,
                    noattrs,
                )
                ix, iy = _ideal(gx, gy, bx, by)
                lo_x += max(ix, lc)
                lo_y += max(iy, 0)
                if gx.size == 0:
                    pruned = True  # every tree of this child is ruled out
                    break
                if g == 0:
                    accx, accy = gx, gy
                else:
                    accx, accy = _combine(accx, accy, gx, gy, comb)
                if rest > 0:
                    restx = np.full(1, lc if comb else rest * lc, np.int64)
                    cx, cy = _combine(accx, accy, restx, triv_y, comb)
                else:
                    cx, cy = accx, accy
                if _all_dominated(cx + split_x, cy, fx, fy):
                    pruned = True
                    break
            if not pruned:
                fx, fy, fk, fa, fc = _merge(
                    fx, fy, fk, fa, fc, accx + split_x, accy, NOMINAL, a, -1
                )
            continue
        if r == 2 and one_x:
            if packed[0].shape[1] != m:
                cb, cls = _packed(buf, level, off, m, codes, dec)
                packed = (cb, cls, np.empty((A, m), np.int32))
            fx, fy, fk, fa, fc = _front2_ordered(
                buf,
                level,
                off,
                m,
                a,
                hints[a],
                codes,
                kinds,
                dec,
                C,
                px,
                packed,
                stats,
                (fx, fy, fk, fa, fc),
            )
            continue
        K = _boundaries(lst, col, pos)
        if K == 0:
            continue
        # the sides' leaf errors at every threshold (prefix class counts)
        misL = np.empty(K, np.int64)
        misR = np.empty(K, np.int64)
        _side_leaves(lst, dec, C, total, pos, K, misL, misR)
        # Each side's trees of L leaves err no less than its rows less its L largest classes,
        # and cost at least the x of L leaves (with binary splits only, and at depth 2, a
        # tree of 4 leaves is the full one): a lower-bound set per side, if C > 2.
        # (Below depth 3 the seed holds no tree whose side has two leaves: not used there.)
        n_lv = min(C, 4 if (kinds.min() == 1 and r == 3) else C) if C > 2 and r >= 3 else 0
        if n_lv > 0:
            cls_lb = _class_bounds(lst, dec, C, total, pos, K, n_lv)
        else:
            cls_lb = np.zeros((K, 2, 1), np.int64)  # (not read)
        ylim = np.empty(0, np.int64)
        ylim_stale = True
        # per evaluated threshold: lower-bound sets of its sides and of their combination
        slot = -np.ones(K, np.int64)
        recL_x = [triv_x]
        recL_y = [triv_y]
        recR_x = [triv_x]
        recR_y = [triv_y]
        recC_x = [triv_x]
        recC_y = [triv_y]
        qlo = np.empty(2 * K + 2, np.int64)
        qhi = np.empty(2 * K + 2, np.int64)
        qln = np.empty(2 * K + 2, np.int64)
        qrn = np.empty(2 * K + 2, np.int64)
        qlo[0], qhi[0], qln[0], qrn[0] = 0, K - 1, -1, -1
        qh, qt = 0, 1
        first = True
        two = np.zeros(2, np.int64)
        while qh < qt:
            lo, hi, ln, rn = qlo[qh], qhi[qh], qln[qh], qrn[qh]
            qh += 1
            if stats[S_ABORT]:
                break
            if ln >= 0:  # the neighbours' points, moved by the rows in between
                k = _kmax(recC_x[slot[ln]], recC_y[slot[ln]], fx, fy, alpha)
                while lo <= hi and pos[lo] - pos[ln] <= k:
                    lo += 1
            if rn >= 0:
                k = _kmax(recC_x[slot[rn]], recC_y[slot[rn]], fx, fy, alpha)
                while lo <= hi and pos[rn] - pos[hi] <= k:
                    hi -= 1
            if lo > hi:
                continue
            lbl_x = recL_x[slot[ln]] if ln >= 0 else triv_x
            lbl_y = recL_y[slot[ln]] if ln >= 0 else triv_y
            lbr_x = recR_x[slot[rn]] if rn >= 0 else triv_x
            lbr_y = recR_y[slot[rn]] if rn >= 0 else triv_y
            bx, by = _combine(lbl_x, lbl_y, lbr_x, lbr_y, comb)
            if _all_dominated(bx + split_x, by, fx, fy):  # monotone bound
                stats[S_PRUNED] += hi - lo + 1
                continue
            want = hints[a] if first and lo <= hints[a] <= hi else (lo + hi) // 2
            mid = want
            alive = 2
            if lbl_x.size * lbr_x.size <= SCREEN_PAIRS:
                # Each threshold on bounds of its own: its sides' leaves exactly (prefix
                # counts), their split trees above the neighbours' sets, raised to the
                # least x a split of a side of that size costs.
                if ylim_stale:
                    ylim = _ylim(fx, fy, lc, x_top)
                    ylim_stale = False
                mid = -1
                alive = 0
                gap_best = INF
                for kk in range(lo, hi + 1):
                    p = pos[kk]
                    xs_l = sc + sr * p + (lc if comb else 2 * lc)
                    xs_r = sc + sr * (m - p) + (lc if comb else 2 * lc)
                    if (
                        n_lv > 0
                        and not comb
                        and _classes_dead(
                            cls_lb[kk],
                            n_lv,
                            p,
                            m - p,
                            split_x,
                            lc,
                            sc,
                            sr,
                            kinds.min() == 1,
                            r - 1,
                            misL[kk],
                            misR[kk],
                            ylim,
                            x_top,
                        )
                    ):
                        stats[S_PRUNED] += 1
                        continue
                    dead = True
                    for i in range(lbl_x.size + 1):
                        if i == lbl_x.size:
                            ax, ay = lc, misL[kk]
                        else:
                            ax, ay = max(lbl_x[i], xs_l), lbl_y[i]
                        for j in range(lbr_x.size + 1):
                            if j == lbr_x.size:
                                bx_, by_ = lc, misR[kk]
                            else:
                                bx_, by_ = max(lbr_x[j], xs_r), lbr_y[j]
                            if i == lbl_x.size and j == lbr_x.size:
                                continue  # two leaves: a depth-one tree, in the seed
                            x = split_x + (max(ax, bx_) if comb else ax + bx_)
                            if ay + by_ < ylim[min(x, x_top) - lc]:
                                dead = False
                                break
                        if not dead:
                            break
                    if dead:
                        stats[S_PRUNED] += 1
                        continue
                    alive += 1
                    if abs(kk - want) < gap_best:
                        gap_best = abs(kk - want)
                        mid = kk
                if mid < 0:
                    continue
            first = False
            p = pos[mid]
            stats[S_EVALUATED] += 1
            code = col[lst[p - 1]]
            for q in range(m):
                side[lst[q]] = 0 if q < p else 1
            two[1] = p
            _partition(buf, level, off, m, side, two, 2)
            # The larger side first, under the working front moved by the split and the
            # other side's least; the other side under what remains, if anything can.
            big_left = p >= m - p
            if big_left:
                o_off, o_m, s_off, s_m = off, p, off + p, m - p
                sib_x, sib_y = lbr_x, lbr_y
            else:
                o_off, o_m, s_off, s_m = off + p, m - p, off, p
                sib_x, sib_y = lbl_x, lbl_y
            ix, iy = _ideal(sib_x, sib_y, triv_x[:0], triv_y[:0])
            b1x, b1y = _shifted(fx, fy, split_x + (0 if comb else ix), iy)
            Ox, Oy, _, _, _ = fronts(
                buf,
                level + 1,
                o_off,
                o_m,
                r - 1,
                codes,
                kinds,
                dec,
                C,
                px,
                b1x,
                b1y,
                side,
                stats,
                noattrs,
                noattrs,
                noattrs,
                noattrs,
            )
            OLx, OLy = _lower(Ox, Oy, b1x, b1y, lc)
            cx, cy = _combine(OLx, OLy, sib_x, sib_y, comb)
            Sx, Sy = sib_x, sib_y
            if Ox.size > 0 and not _all_dominated(cx + split_x, cy, fx, fy):
                lx, ly = _ideal(OLx, OLy, triv_x[:0], triv_y[:0])
                b2x, b2y = _shifted(fx, fy, split_x + (0 if comb else lx), ly)
                Sx_, Sy_, _, _, _ = fronts(
                    buf,
                    level + 1,
                    s_off,
                    s_m,
                    r - 1,
                    codes,
                    kinds,
                    dec,
                    C,
                    px,
                    b2x,
                    b2y,
                    side,
                    stats,
                    noattrs,
                    noattrs,
                    noattrs,
                    noattrs,
                )
                if Sx_.size > 0:
                    rx_, ry_ = _combine(Ox, Oy, Sx_, Sy_, comb)
                    if not _all_dominated(rx_ + split_x, ry_, fx, fy):
                        fx, fy, fk, fa, fc = _merge(
                            fx, fy, fk, fa, fc, rx_ + split_x, ry_, ORDERED, a, code
                        )
                        ylim_stale = True
                Sx, Sy = _lower(Sx_, Sy_, b2x, b2y, lc)
                cx, cy = _combine(OLx, OLy, Sx, Sy, comb)
            if big_left:
                Lx, Ly, Rx, Ry = OLx, OLy, Sx, Sy
            else:
                Lx, Ly, Rx, Ry = Sx, Sy, OLx, OLy
            slot[mid] = len(recL_x)
            recL_x.append(Lx)
            recL_y.append(Ly)
            recR_x.append(Rx)
            recR_y.append(Ry)
            recC_x.append(cx + split_x)
            recC_y.append(cy)
            if alive > 1 and lo <= mid - 1:
                qlo[qt], qhi[qt], qln[qt], qrn[qt] = lo, mid - 1, ln, mid
                qt += 1
            if alive > 1 and mid + 1 <= hi:
                qlo[qt], qhi[qt], qln[qt], qrn[qt] = mid + 1, hi, mid, rn
                qt += 1
    return _real(fx, fy, fk, fa, fc)
