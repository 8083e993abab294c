""":mod:`dagger_cli.engine.kernels.ordered` by the numba kernels (the frozen copy in
``kernels/ordered.py``): each function takes the compiled kernel's arguments (its named
tuples) and runs the old kernel on their fields, so that a test can monkeypatch the
driver's kernels module with these (:data:`PATCHES`) and compare the answers and counters.

The numba kernels know no memory budget: ``budget`` is ignored and ``usage`` left as it is.
"""

from __future__ import annotations

import numpy as np

from dagger_cli.engine.kernels.ordered import DONE, Points

#: The names of dagger_cli.engine.kernels.ordered this module replaces.
PATCHES = ("new_memo", "best", "fronts", "hint_order", "working_front", "merged")


def _old():
    from .kernels import ordered as old

    return old


def new_memo():
    from numba import types
    from numba.typed import Dict

    return Dict.empty(types.UniTuple(types.int64, 3), types.UniTuple(types.int64, 2))


def best(table, work, m, limits, name, memo, stats, choice, budget, usage):
    v, exact = _old().best(
        work.buf,
        0,
        0,
        m,
        limits.depth,
        limits.bound,
        table.codes,
        table.kinds,
        table.nv,
        table.dec,
        table.n_classes,
        work.side,
        stats,
        choice,
        table.keys,
        name[0],
        name[1],
        memo,
    )
    return DONE, int(v), bool(exact)


def fronts(table, work, m, limits, cost, attrs, stats, budget, usage):
    px = np.array((cost.combine, cost.leaf, 0, cost.split_const, cost.split_rows), np.int64)
    b = limits.bound
    res = _old().fronts(
        work.buf,
        0,
        0,
        m,
        limits.depth,
        table.codes,
        table.kinds,
        table.dec,
        table.n_classes,
        px,
        b.x,
        b.y,
        work.side,
        stats,
        attrs,
        b.kind,
        b.attr,
        b.code,
    )
    return DONE, Points(*res)


def hint_order(table, work, m):
    A = table.codes.shape[0]
    hints = np.empty(A, dtype=np.int64)
    score = np.empty(A, dtype=np.float64)
    total = np.bincount(table.dec, minlength=table.n_classes).astype(np.int64)
    _old()._hints(
        work.buf, 0, 0, m, table.codes, table.kinds, table.dec, table.n_classes, total, hints, score
    )
    return np.argsort(score, kind="mergesort")


def working_front(box, shallower):
    return Points(*_old()._working_front(box.x, box.y, shallower.x, shallower.y))


def merged(work, res):
    cat = [np.concatenate((w, r)).astype(np.int64) for w, r in zip(work, res)]
    return Points(*_old()._pareto(*cat, cat[0].size))
