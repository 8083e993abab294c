"""The numba fronts kernels (the frozen copies in :mod:`numba_oracle.kernels`) with the
compiled kernels' arguments: :func:`fronts` and :func:`d2_fronts` take the named tuples
of :mod:`dagger_cli.engine.kernels.fronts` and :mod:`dagger_cli.engine.kernels.depth_two`
and pass their fields to the old kernels' positional arguments, so that a test can
monkeypatch them into the driver in place of the compiled ones."""

from __future__ import annotations

from collections import namedtuple

import numpy as np


def fronts(order, dag, params, pool, n_attributes, allow, budget):
    """:func:`dagger_cli.engine.kernels.fronts.fronts` by the numba kernel."""
    from .kernels import fronts as old

    return old.fronts(
        order.node,
        order.r,
        dag.node_size,
        dag.node_mis,
        dag.node_split,
        dag.node_level,
        dag.node_bundle_start,
        dag.bundle_edge_start,
        dag.edge_child,
        order.sub_start,
        order.capped,
        order.ready,
        params,
        n_attributes,
        allow,
        pool.fref,
        pool.fxy,
        pool.fch,
        pool.counters,
        pool.needs,
        budget,
    )


#: The table's fields the numba layer reads (``cc``: the codes attribute-major).
OldTable = namedtuple("OldTable", "rc nvals dec n_dec cc")


def old_table(table, n_attributes):
    """The fields of ``Dag.table_arrays`` the numba layer reads, by name (``cc`` made
    from ``rc`` when the table no longer keeps it: the compiled layer does not read it)."""
    cc = getattr(table, "cc", None)
    rc = table.rc
    if cc is None or cc.size != rc.size:
        cc = np.ascontiguousarray(rc.reshape(-1, n_attributes).T).ravel()
    return OldTable(rc, table.nvals, table.dec, int(table.n_dec), cc)


def d2_fronts(entries, table, dag, params, pool, n_attributes, many, allow, budget):
    """:func:`dagger_cli.engine.kernels.depth_two.d2_fronts` by the numba kernel."""
    from .kernels import depth_two as old

    return old.d2_fronts(
        entries.node,
        entries.r,
        entries.sub,
        old_table(table, n_attributes),
        dag.node_start,
        dag.node_size,
        dag.node_mis,
        dag.node_level,
        dag.row_pool,
        params,
        n_attributes,
        many,
        allow,
        pool.fref,
        pool.fxy,
        pool.fch,
        pool.counters,
        pool.needs,
        budget,
    )


def splittable(node_level, node_size, limits):
    """:func:`dagger_cli.engine.kernels.fronts.splittable` by the numba kernel."""
    from .kernels import bounds as old

    return old.splittable(node_level, node_size, limits)
