"""Adapters: the frozen numba kernels (:mod:`numba_oracle.kernels.discovery`,
:mod:`numba_oracle.posets`, :mod:`numba_oracle.counting`) behind the signatures of the
compiled ones that replace them (:mod:`dagger_cli.engine.kernels.discovery`,
:mod:`dagger_cli.engine.posets`, :mod:`dagger_cli.engine.counting`), for the port's tests
(``tests/test_core_discovery.py``): each takes the compiled kernel's arguments and runs
the old kernel on them.
"""

from __future__ import annotations

import numpy as np


def discover(table, nodes, dag, batch, ht, counters, needs, budget, max_nodes, max_level, limits):
    """:func:`dagger_cli.engine.kernels.discovery.discover` by the numba kernel."""
    from .kernels import discovery as old

    return old.discover(
        table, nodes, dag, batch, ht, counters, needs, budget, max_nodes, max_level, limits
    )


def ht_insert(ht, h1, h2, node) -> None:
    from .kernels import discovery as old

    old._ht_insert(ht, np.uint64(h1), np.uint64(h2), node)


def rehash(ht, new_slots):
    from .kernels import discovery as old

    return old.rehash(ht, new_slots)


# ------------------------------------------------------------ the DAG of a sorting table
def posets_discover(n, pi, pj, limit, mem_limit):
    """:func:`dagger_cli.engine.posets._discover` by the numba kernel (the arrays cut to
    their used lengths, as the compiled kernel returns them)."""
    from . import posets as old

    status, nn, nb, ne, head, poset, level, bstart, battr, bedge, child = old._discover(
        n, pi, pj, limit, mem_limit
    )
    nn, nb, ne, head = int(nn), int(nb), int(ne), int(head)
    return (
        int(status),
        nn,
        nb,
        ne,
        head,
        poset[:nn],
        level[:nn],
        bstart[: nn + 1],
        battr[:nb],
        bedge[: nb + 1],
        child[:ne],
    )


def posets_sizes(poset, n):
    from . import posets as old

    return old._sizes(poset, n)


def posets_extension_rows(p, n, count, row_of_rank):
    from . import posets as old

    return old._extension_rows(np.int64(p), n, count, row_of_rank)


# ------------------------------------------------------------ the counting state kernels
def counting_longest(graph):
    """:func:`dagger_cli.engine.counting._longest` by the numba kernel."""
    from . import counting as old

    g = graph
    return old._longest(g.order, g.node_bundle_start, g.bundle_edge_start, g.edge_child)


def counting_least(graph, p, exact):
    from . import counting as old

    g = graph
    return old._least(
        g.order,
        g.node_size,
        g.node_mis,
        g.node_bundle_start,
        g.bundle_edge_start,
        g.edge_child,
        p,
        int(exact),
    )


def counting_mark(graph, fronts, mask):
    from . import counting as old

    g, f = graph, fronts
    old._mark(
        g.order,
        g.node_size,
        g.node_bundle_start,
        g.bundle_edge_start,
        g.edge_child,
        f.fref,
        f.fxy,
        f.longest,
        f.params,
        np.int64(f.q),
        mask,
    )


def counting_link(graph, fronts, exact, mask, max_bytes=None):
    """:func:`dagger_cli.engine.counting._link` by the numba kernel (which has no memory
    allowance: ``max_bytes`` is ignored)."""
    from . import counting as old

    g, f = graph, fronts
    return old._link(
        g.order,
        g.node_size,
        g.node_mis,
        g.node_bundle_start,
        g.bundle_edge_start,
        g.edge_child,
        f.fref,
        f.fxy,
        f.longest,
        f.params,
        np.int64(f.q),
        int(exact),
        mask,
    )
