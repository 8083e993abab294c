"""Compiled kernels of the decision-rule fronts (driven by :mod:`dagger_cli.rules`).

A rule for row r that reaches the DAG node v (a subtable holding r) costs
(length, coverage, misclassifications) = (level of v, rows of v, rows of v whose decision
is not r's). :func:`pair_fronts` turns those candidates, node by node, into every row's
Pareto front of two of the three costs in one pass over the candidate nodes' rows.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

#: What :func:`pair_fronts` returns (the names of :class:`dagger_cli.engine.Status`).
DONE = 0
BUDGET_SPENT = 1
MUST_GROW = 2

#: ``counters`` of :func:`pair_fronts`: the next group, the points emitted so far, the
#: room the emitted points need (after MUST_GROW), the row visits done.
C_GROUP, C_EMIT, C_NEED, C_WORK = 0, 1, 2, 3
N_COUNTERS = 4

#: The unordered cost pairs, by the cost the candidates are grouped on: by length
#: (level ascending) tracking the most coverage or the least misclassifications, or by
#: coverage (size descending) tracking the least misclassifications.
LENGTH_COVERAGE, LENGTH_MIS, COVERAGE_MIS = 0, 1, 2


@njit(cache=True, parallel=True)
def class_counts(nodes, node_start, node_size, row_pool, dec, n_dec):
    """Rows per decision of each node of ``nodes`` (one row of the result per node)."""
    out = np.zeros((nodes.size, n_dec), np.int32)
    for k in prange(nodes.size):
        v = nodes[k]
        s = node_start[v]
        for j in range(node_size[v]):
            out[k, dec[row_pool[s + j]]] += 1
    return out


@njit(cache=True)
def discoverers(n_nodes, node_bundle_start, bundle_attr, bundle_edge_start, edge_child):
    """Per node, the first parent in node order and the attribute of that edge (-1 for
    the root).

    Discovery is breadth-first and numbers nodes in the order it finds them, processing
    parents in node order, so the first parent of a node is the one that discovered it:
    its level is the node's minus one, and following these parents up to the root
    gives a shortest path (a least-length conjunction) to every node."""
    parent = np.full(n_nodes, -1, np.int32)
    attr = np.full(n_nodes, -1, np.int32)
    for p in range(n_nodes):
        for b in range(node_bundle_start[p], node_bundle_start[p + 1]):
            a = bundle_attr[b]
            for e in range(bundle_edge_start[b], bundle_edge_start[b + 1]):
                c = edge_child[e]
                if parent[c] < 0 and c != 0:
                    parent[c] = p
                    attr[c] = a
    return parent, attr


@njit(cache=True, inline="always")
def _better(k1, k2, v, b1, b2, bv):
    """Lexicographic (k1, k2, node) < (b1, b2, bnode): the tie rule among equal points."""
    if k1 != b1:
        return k1 < b1
    if k2 != b2:
        return k2 < b2
    return v < bv


@njit(cache=True)
def pair_fronts(
    order,
    gstart,
    mode,
    node_start,
    node_size,
    node_level,
    node_mis,
    row_pool,
    dec,
    cidx,
    counts,
    max_mis,
    cur,
    g_k1,
    g_k2,
    g_node,
    g_mis,
    touched,
    e_row,
    e_node,
    e_mis,
    counters,
    budget,
):
    """Every row's Pareto front of one cost pair, from the candidate nodes ``order``
    grouped by the first cost of the pair (``gstart``: group boundaries; groups in
    order of that cost, best first).

    Within a group, each row keeps its best candidate by (tracked cost, tie cost, node)
    (smaller is better: coverage enters negated); after the group, a row whose best
    beats every earlier group's on the tracked cost gets a front point (its row, node
    and misclassifications appended to ``e_*``). A candidate of a later group is worse
    on the grouping cost, so this is exactly the Pareto front, listed best grouping cost
    first, and among equal points the tie rule picks the least tie cost, then the
    smallest node. Candidates with more than ``max_mis`` misclassifications are skipped.

    Resumable: returns BUDGET_SPENT after a group once ``budget`` row visits are done,
    MUST_GROW (room needed in ``counters[C_NEED]``) when a group's points do not fit in
    ``e_*`` (that group is redone on the next call), DONE at the end."""
    ng = gstart.size - 1
    g = counters[C_GROUP]
    n_emit = counters[C_EMIT]
    work = 0
    while g < ng:
        nt = 0
        for k in range(gstart[g], gstart[g + 1]):
            v = order[k]
            s = node_start[v]
            n = node_size[v]
            lvl = node_level[v]
            pure = node_mis[v] == 0
            ci = cidx[v]
            work += n
            for j in range(n):
                r = row_pool[s + j]
                mis = 0
                if not pure:
                    mis = n - counts[ci, dec[r]]
                    if mis > max_mis:
                        continue
                if mode == LENGTH_COVERAGE:
                    k1 = -n
                    k2 = mis
                elif mode == LENGTH_MIS:
                    k1 = mis
                    k2 = -n
                else:
                    k1 = mis
                    k2 = lvl
                if g_node[r] < 0:
                    touched[nt] = r
                    nt += 1
                elif not _better(k1, k2, v, g_k1[r], g_k2[r], g_node[r]):
                    continue
                g_k1[r] = k1
                g_k2[r] = k2
                g_node[r] = v
                g_mis[r] = mis
        if n_emit + nt > e_row.size:
            for t in range(nt):
                g_node[touched[t]] = -1
            counters[C_GROUP] = g
            counters[C_EMIT] = n_emit
            counters[C_NEED] = n_emit + nt
            counters[C_WORK] += work
            return MUST_GROW
        for t in range(nt):
            r = touched[t]
            if g_k1[r] < cur[r]:
                cur[r] = g_k1[r]
                e_row[n_emit] = r
                e_node[n_emit] = g_node[r]
                e_mis[n_emit] = g_mis[r]
                n_emit += 1
            g_node[r] = -1
        g += 1
        if work >= budget:
            break
    counters[C_GROUP] = g
    counters[C_EMIT] = n_emit
    counters[C_WORK] += work
    return DONE if g >= ng else BUDGET_SPENT
