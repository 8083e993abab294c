"""The compiled core (``core/*.cpp``) against the numba kernels it replaces
(``tests/numba_oracle``): the same inputs, the same outputs, array for array, and the same
answers end to end. Once a port has matched everywhere its oracle is deleted, and the
brute-force and slow-path tests keep checking the compiled kernels."""

from __future__ import annotations

import numba_oracle
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli import _core
from dagger_cli.data.table import DecisionTable
from dagger_cli.rules import kernels as rk
from dagger_cli.rules import rules

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PAIRS = [
    ("length", "coverage"),
    ("coverage", "length"),
    ("length", "misclassifications"),
    ("coverage", "misclassifications"),
    ("misclassifications", "coverage"),
]


def _fronts(res):
    return [
        (r.length, r.coverage, r.misclassifications, r.text)
        for i in range(res.table.n_rows)
        for r in res.front(i)
    ]


@SETTINGS
@given(
    tables(max_rows=12, max_attributes=4, max_values=4),
    st.sampled_from(PAIRS),
    st.sampled_from([None, 1, 2]),
    st.sampled_from([None, 0, 2]),
)
def test_the_rules_kernels_equal_numbas(t, pair, max_length, max_mis):
    table = DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    got = _fronts(rules(table, *pair, max_length=max_length, max_misclassifications=max_mis))
    with pytest.MonkeyPatch.context() as mp:
        for name in ("pair_fronts", "class_counts", "discoverers"):
            mp.setattr(rk, name, getattr(numba_oracle, f"rules_{name}"))
        old = _fronts(rules(table, *pair, max_length=max_length, max_misclassifications=max_mis))
    assert got == old


def test_the_rules_kernel_resumes_as_numbas():
    """Tiny budgets and output room: every BUDGET_SPENT and MUST_GROW return of the
    compiled kernel leaves the same state as numba's."""
    rng = np.random.default_rng(7)
    rows = [tuple(int(v) for v in rng.integers(0, 3, 5)) for _ in range(60)]
    table = DecisionTable.from_rows(rows, [str(v) for v in rng.integers(0, 3, 60)])
    from dagger_cli.engine.dag import build_dag

    d = build_dag(table)
    n = table.n_rows
    order = np.argsort(d.node_level, kind="stable").astype(np.int64)
    key = d.node_level[order]
    gstart = np.flatnonzero(np.r_[True, key[1:] != key[:-1], True]).astype(np.int64)
    dec = table.decisions.astype(np.int32)
    impure = order[d.node_mis[order] > 0]
    cidx = np.full(d.node_size.size, -1, np.int64)
    cidx[impure] = np.arange(impure.size)
    counts = _core.rules_class_counts(impure, d.node_start, d.node_size, d.row_pool, dec, 3)
    assert np.array_equal(
        counts,
        numba_oracle.rules_class_counts(impure, d.node_start, d.node_size, d.row_pool, dec, 3),
    )
    nodes = rk.RuleNodes(d.node_start, d.node_size, d.node_level, d.node_mis, d.row_pool, dec)
    cand = rk.Candidates(order, gstart, rk.LENGTH_MIS, cidx, counts, 3)

    def run(kernel):
        state = rk.RowState(
            np.full(n, np.iinfo(np.int64).max, np.int64),
            np.zeros(n, np.int64),
            np.zeros(n, np.int64),
            np.full(n, -1, np.int64),
            np.zeros(n, np.int32),
            np.zeros(n, np.int64),
        )
        emitted = rk.Emitted(*(np.zeros(4, np.int32) for _ in range(3)))
        counters = np.zeros(rk.N_COUNTERS, np.int64)
        trace = []
        while True:
            status = kernel(nodes, cand, state, emitted, counters, 10)
            trace.append((int(status), counters.tolist()))
            if status == rk.MUST_GROW:
                need, used = int(counters[rk.C_NEED]), int(counters[rk.C_EMIT])
                grown = []
                for a in emitted:
                    b = np.zeros(need, a.dtype)
                    b[:used] = a[:used]
                    grown.append(b)
                emitted = rk.Emitted(*grown)
            if status == rk.DONE:
                return trace, [a.tolist() for a in state], [a.tolist() for a in emitted]

    new, old = run(rk.pair_fronts), run(numba_oracle.rules_pair_fronts)
    assert any(s == rk.MUST_GROW for s, _ in new[0]) and any(
        s == rk.BUDGET_SPENT for s, _ in new[0]
    )
    assert new == old


def test_the_discoverers_equal_numbas():
    from dagger_cli.engine.dag import build_dag

    rng = np.random.default_rng(3)
    rows = [tuple(int(v) for v in rng.integers(0, 3, 4)) for _ in range(40)]
    d = build_dag(DecisionTable.from_rows(rows, [str(v) for v in rng.integers(0, 2, 40)]))
    args = (d.node_size.size, d.node_bundle_start, d.bundle_attr, d.bundle_edge_start, d.edge_child)
    for a, b in zip(_core.rules_discoverers(*args), numba_oracle.rules_discoverers(*args)):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_a_wrong_dtype_is_refused_not_misread():
    with pytest.raises(TypeError):
        _core.rules_class_counts(
            np.zeros(1, np.int32),
            np.zeros(1, np.int64),
            np.zeros(1, np.int32),
            np.zeros(1, np.int32),
            np.zeros(1, np.int32),
            2,
        )


def test_threads_are_per_calling_thread():
    import threading

    before = _core.set_threads(1)
    seen = []
    t = threading.Thread(target=lambda: seen.append(_core.get_threads()))
    t.start()
    t.join()
    try:
        assert _core.get_threads() == 1
        assert seen == [_core.hardware_threads()]
    finally:
        _core.set_threads(before)
