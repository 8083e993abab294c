"""The DAG Δ(T) of a sorting table, built from partial orders instead of row sets.

A subtable of the sorting table (:func:`dagger_cli.data.families.sorting`) reached by splits is
the set of orders consistent with the comparisons made so far: the linear extensions of a
partial order. So its identity is the partial order (a 64-bit matrix for n <= 8 elements),
a split on ``xi<xj`` is possible where i and j are incomparable, its children add
``j before i`` (value 0) and ``i before j`` (value 1) and close transitively, and its size
is the number of linear extensions (a count over the order's down-sets). Nothing reads
the rows: discovery costs a few bit operations per edge instead of a pass over
the rows per node, which for n = 7 (6,129,859 subtables whose rows add up to 486 million)
is the difference between minutes and seconds. The DAG is the same graph as the generic
discovery's (same subtables, bundles and edges, numbered in another order), and the
fronts, counts and trees computed on it are the same (tests/test_counting.py).

Rows are produced on demand (:meth:`PosetDag.rows`, for tree extraction): the linear
extensions of a node's order, mapped to the table's rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np
from numba import njit, prange

from dagger_cli.engine.structures import Dag
from dagger_cli.errors import LimitError
from dagger_cli.text import size_text

from .kernels.common import _grow, _prefetch

#: Partial orders fit one 64-bit word (bit 8x + y: x before y) up to 8 elements.
MAX_N = 8


@njit(cache=True, inline="always")
def _before(p, x, y):
    return (p >> (8 * x + y)) & 1


@njit(cache=True)
def _add(p, a, b, n):
    """The transitive closure of ``p`` plus ``a before b`` (p transitively closed)."""
    up = ((p >> (8 * b)) & 0xFF) | (1 << b)
    out = p
    for x in range(n):
        if x == a or _before(p, x, a):
            out |= up << (8 * x)
    return out


@njit(cache=True)
def _extensions(p, n, f):
    """Number of linear extensions of ``p``: paths through its down-sets (``f``: scratch
    of 2^n counts)."""
    pred = np.zeros(n, dtype=np.int64)
    for x in range(n):
        for y in range(n):
            if _before(p, y, x):
                pred[x] |= 1 << y
    full = (1 << n) - 1
    f[:] = 0
    f[0] = 1
    for s in range(full):
        if f[s] == 0:
            continue
        for x in range(n):
            if (s >> x) & 1 == 0 and (pred[x] & ~s) == 0:
                f[s | (1 << x)] += f[s]
    return f[full]


@njit(cache=True)
def _hash_slot(key, mask):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(20)) & mask


@njit(cache=True)
def _rehash(ht, slots):
    out = np.zeros(2 * slots, dtype=np.int64)
    for s in range(ht.size // 2):
        if ht[2 * s] != 0:
            t = _hash_slot(ht[2 * s], slots - 1)
            while out[2 * t] != 0:
                t = (t + 1) & (slots - 1)
            out[2 * t] = ht[2 * s]
            out[2 * t + 1] = ht[2 * s + 1]
    return out


@njit(cache=True)
def _discover(n, pi, pj, limit, mem_limit):
    """Breadth-first from the empty order. Returns (status, arrays...): status 0 done,
    3 more than ``limit`` subtables, 4 more than ``mem_limit`` bytes.

    A parent's children keys are computed first and their hash slots prefetched, so the
    cache misses of its (up to 2m) lookups overlap. Sizes are counted afterwards
    (:func:`_sizes`, in parallel); a total order (m relations) is the only leaf."""
    m = pi.size
    cap = 1024
    poset = np.zeros(cap, dtype=np.int64)
    level = np.zeros(cap, dtype=np.int32)
    bstart = np.zeros(cap + 1, dtype=np.int64)
    battr = np.zeros(cap, dtype=np.int32)
    bedge = np.zeros(cap + 1, dtype=np.int64)
    child = np.zeros(4 * cap, dtype=np.int32)
    slots = 1 << 12
    # Open addressing, one slot = (poset + 1, node) side by side: one cache miss a lookup.
    ht = np.zeros(2 * slots, dtype=np.int64)
    keys = np.zeros(2 * m, dtype=np.int64)
    attrs = np.zeros(m, dtype=np.int32)
    poset[0] = 0
    ht[2 * _hash_slot(1, slots - 1)] = 1
    nn = 1
    nb = 0
    ne = 0
    head = 0
    status = 0
    while head < nn:
        p = poset[head]
        bstart[head] = nb
        k = 0
        for a in range(m):
            i, j = pi[a], pj[a]
            if _before(p, i, j) or _before(p, j, i):
                continue
            attrs[k // 2] = a
            keys[k] = _add(p, j, i, n) + 1  # value 0: x_j < x_i
            keys[k + 1] = _add(p, i, j, n) + 1  # value 1: x_i < x_j
            _prefetch(ht, 2 * _hash_slot(keys[k], slots - 1))
            _prefetch(ht, 2 * _hash_slot(keys[k + 1], slots - 1))
            k += 2
        battr = _grow(battr, nb + k // 2)
        bedge = _grow(bedge, nb + k // 2 + 1)
        child = _grow(child, ne + k)
        for e in range(k):
            if e % 2 == 0:
                battr[nb] = attrs[e // 2]
                bedge[nb] = ne
                nb += 1
            key = keys[e]
            h = _hash_slot(key, slots - 1)
            while ht[2 * h] != 0 and ht[2 * h] != key:
                h = (h + 1) & (slots - 1)
            if ht[2 * h] == 0:
                if nn >= limit:
                    status = 3
                    break
                poset = _grow(poset, nn + 1)
                level = _grow(level, nn + 1)
                bstart = _grow(bstart, nn + 2)
                poset[nn] = key - 1
                level[nn] = level[head] + 1  # breadth-first: its least depth
                ht[2 * h] = key
                ht[2 * h + 1] = nn
                child[ne] = nn
                nn += 1
                if 2 * nn > slots:  # keep the table at most half full
                    ht = _rehash(ht, 2 * slots)
                    slots *= 2
            else:
                child[ne] = ht[2 * h + 1]
            ne += 1
        if status != 0:
            break
        used = (
            poset.size * 16 + bstart.size * 8 + battr.size * 4 + bedge.size * 8 + child.size * 4
        ) + slots * 16
        if used > mem_limit:
            status = 4
            break
        head += 1
    bstart[nn] = nb
    bedge[nb] = ne
    return status, nn, nb, ne, head, poset, level, bstart, battr, bedge, child


@njit(cache=True, parallel=True)
def _sizes(poset, n):
    """Every order's number of linear extensions (independent: in parallel pieces)."""
    out = np.empty(poset.size, dtype=np.int32)
    pieces = 64
    for piece in prange(pieces):
        f = np.zeros(1 << n, dtype=np.int64)
        for v in range(piece, poset.size, pieces):
            out[v] = _extensions(poset[v], n, f)
    return out


@dataclass(eq=False)
class PosetDag(Dag):
    """A :class:`Dag` whose nodes are partial orders; rows computed on demand."""

    posets: np.ndarray = None  # type: ignore[assignment]
    n: int = 0
    row_of_rank: np.ndarray = None  # type: ignore[assignment]

    def rows(self, node: int) -> np.ndarray:
        """The table rows of node ``node``: the linear extensions of its order."""
        out = _extension_rows(
            np.int64(self.posets[node]), self.n, int(self.node_size[node]), self.row_of_rank
        )
        return np.sort(out)


@njit(cache=True)
def _extension_rows(p, n, count, row_of_rank):
    """The rows of the linear extensions of ``p`` (depth-first, ``count`` of them): an
    extension lists the elements in increasing order; its row is that of its ranks."""
    pred = np.zeros(n, dtype=np.int64)
    for x in range(n):
        for y in range(n):
            if _before(p, y, x):
                pred[x] |= 1 << y
    fact = np.ones(n + 1, dtype=np.int64)
    for k in range(1, n + 1):
        fact[k] = fact[k - 1] * k
    out = np.empty(count, dtype=np.int64)
    seq = np.zeros(n, dtype=np.int64)
    nxt = np.zeros(n + 1, dtype=np.int64)  # next candidate element at each level
    ranks = np.zeros(n, dtype=np.int64)
    w = 0
    level = 0
    done = 0
    nxt[0] = 0
    while level >= 0:
        if level == n:
            for r in range(n):
                ranks[seq[r]] = r
            rank = 0
            used = 0
            for k in range(n):  # lexicographic rank of ranks (a Lehmer code)
                v = ranks[k]
                below = 0
                for u in range(v):
                    if (used >> u) & 1 == 0:
                        below += 1
                rank += below * fact[n - 1 - k]
                used |= 1 << v
            out[w] = row_of_rank[rank]
            w += 1
            level -= 1
            done &= ~(1 << seq[level])
            continue
        x = nxt[level]
        while x < n and ((done >> x) & 1 or (pred[x] & ~done) != 0):
            x += 1
        if x == n:
            level -= 1
            if level >= 0:
                done &= ~(1 << seq[level])
            continue
        nxt[level] = x + 1
        seq[level] = x
        done |= 1 << x
        level += 1
        nxt[level] = 0
    return out[:w]


def _lex_rank(perm) -> int:
    """Rank of a permutation of 0..n-1 in lexicographic order (itertools.permutations')."""
    n = len(perm)
    rank = 0
    left = list(range(n))
    for k, v in enumerate(perm):
        i = left.index(v)
        rank += i * math.factorial(n - 1 - k)
        left.pop(i)
    return rank


def sorting_rows(table) -> np.ndarray | None:
    """If ``table`` is a sorting table (attributes ``xi<xj`` for all i < j in column order,
    0/1 values, one row per order of n <= 8 elements with its own decision), the row of
    each order (indexed by the lexicographic rank of its ranks tuple); else None."""
    m = table.n_attributes
    n = int(round((1 + math.sqrt(1 + 8 * m)) / 2))
    if n < 2 or n > MAX_N or n * (n - 1) // 2 != m:
        return None
    pairs = list(combinations(range(n), 2))
    if list(table.attributes) != [f"x{i + 1}<x{j + 1}" for i, j in pairs]:
        return None
    rows = table.n_rows
    if rows != math.factorial(n) or len(set(table.decisions.tolist())) != rows:
        return None
    bits = np.empty((m, rows), dtype=np.int64)
    for a in range(m):
        labels = np.array(table.values[a], dtype=object)
        col = labels[table.codes[a]]
        if not set(col.tolist()) <= {"0", "1"}:
            return None
        bits[a] = col == "1"
    # rank of x_i = number of j with x_j < x_i
    ranks = np.zeros((n, rows), dtype=np.int64)
    for a, (i, j) in enumerate(pairs):
        ranks[j] += bits[a]  # x_i < x_j
        ranks[i] += 1 - bits[a]
    if not all(sorted(ranks[:, r].tolist()) == list(range(n)) for r in range(rows)):
        return None  # a row is not a consistent total order
    for a, (i, j) in enumerate(pairs):
        if not np.array_equal(bits[a], (ranks[i] < ranks[j]).astype(np.int64)):
            return None
    lex = np.array([_lex_rank(ranks[:, r].tolist()) for r in range(rows)], dtype=np.int64)
    if np.unique(lex).size != rows:
        return None
    out = np.empty(rows, dtype=np.int64)
    out[lex] = np.arange(rows)
    return out


def poset_dag(table, *, max_subtables=None, max_memory=None) -> PosetDag | None:
    """The DAG of a sorting table from partial orders, or None if ``table`` is not one."""
    row_of_rank = sorting_rows(table)
    if row_of_rank is None:
        return None
    m = table.n_attributes
    n = int(round((1 + math.sqrt(1 + 8 * m)) / 2))
    pairs = list(combinations(range(n), 2))
    pi = np.array([i for i, _ in pairs], dtype=np.int64)
    pj = np.array([j for _, j in pairs], dtype=np.int64)
    limit = max_subtables if max_subtables is not None else np.iinfo(np.int64).max
    mem = max_memory if max_memory is not None else np.iinfo(np.int64).max
    status, nn, nb, ne, head, poset, level, bstart, battr, bedge, child = _discover(
        n, pi, pj, limit, mem
    )
    if status == 3:
        raise LimitError(
            f"the DAG has more than {max_subtables:,} subtables (--max-subtables); stopped after "
            f"processing {head:,} of {nn:,} discovered partial orders"
        )
    if status == 4:
        raise LimitError(
            f"the DAG needs more than {size_text(max_memory)} (--max-memory) for "
            f"{nn:,} partial orders discovered, {head:,} processed, {ne:,} edges"
        )
    size = _sizes(poset[:nn], n)
    has_bundles = bstart[1 : nn + 1] > bstart[:nn]
    return PosetDag(
        node_start=np.zeros(nn, dtype=np.int64),
        node_size=size,
        node_mis=(size - 1).astype(np.int32),
        node_major=np.full(nn, -1, dtype=np.int32),  # rows on demand: see trees.node_labels
        # Impure and split by some comparison: every order but a total one (no bundles).
        node_split=(has_bundles).astype(np.int8),
        node_level=level[:nn],
        node_attr_len=np.diff(bstart[: nn + 1]).astype(np.int32),  # incomparable pairs
        node_bundle_start=bstart[: nn + 1],
        row_pool=np.zeros(0, dtype=np.int32),
        bundle_attr=battr[:nb],
        bundle_edge_start=bedge[: nb + 1],
        edge_child=child[:ne],
        terminal=int((~has_bundles).sum()),
        n_attributes=m,
        posets=poset[:nn],
        n=n,
        row_of_rank=row_of_rank,
    )
