"""The numba kernels the compiled core (``core/*.cpp``, :mod:`dagger_cli._core`) replaces,
kept only as oracles while the port is checked (``tests/test_core.py``): each function of
:data:`ORACLES` takes the compiled kernel's arguments and runs the old kernel on them.

Delete a module here once its port has matched it everywhere.
"""

from __future__ import annotations


def rules_pair_fronts(nodes, candidates, state, emitted, counters, budget):
    """:func:`dagger_cli.rules.kernels.pair_fronts` by the numba kernel."""
    from . import rules_kernels as old

    c = candidates
    return old.pair_fronts(
        c.order,
        c.gstart,
        c.mode,
        nodes.start,
        nodes.size,
        nodes.level,
        nodes.mis,
        nodes.row_pool,
        nodes.dec,
        c.cidx,
        c.counts,
        c.max_mis,
        *state,
        *emitted,
        counters,
        budget,
    )


def rules_class_counts(*args):
    from . import rules_kernels as old

    return old.class_counts(*args)


def rules_discoverers(*args):
    from . import rules_kernels as old

    return old.discoverers(*args)
