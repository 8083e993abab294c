"""The compiled discovery, posets, counting and CSV kernels (``core/discovery.cpp``,
``core/posets.cpp``, ``core/counting.cpp``, ``core/csv.cpp``) against the numba kernels
they replace (``tests/numba_oracle``, adapters in ``numba_oracle/discovery.py``): the same
DAG array for array end to end, the same state after every resumable call (tiny budgets,
tiny arrays: every BUDGET_SPENT, MUST_GROW and TOO_MANY_NODES return), the same answer for
any thread count."""

from __future__ import annotations

import os
from unittest.mock import patch

import numba_oracle.discovery as oracle
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli import _core
from dagger_cli.costs import COSTS
from dagger_cli.data.families import sorting
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import counting, posets
from dagger_cli.engine import dag as engine
from dagger_cli.engine.kernels import discovery as disc
from dagger_cli.errors import LimitError

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DAG_FIELDS = (
    "node_start node_size node_mis node_major node_split node_level node_attr_len "
    "node_bundle_start row_pool bundle_attr bundle_edge_start edge_child"
).split()


def _table(t) -> DecisionTable:
    return DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")


def random_table(m, n, values, decisions, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, size=(n, m))
    y = (X[:, 0] + X[:, 1] * X[:, -1] + (rng.random(n) < 0.2)) % decisions
    return DecisionTable.from_rows(X.tolist(), y.tolist(), name=f"t{seed}")


def _numba_discovery(mp) -> None:
    for name in ("discover", "ht_insert", "rehash"):
        mp.setattr(disc, name, getattr(oracle, name))


def _dag(table, **kw):
    """Every array of the DAG (and its terminal count), or the limit message."""
    try:
        d = engine.build_dag(table, special=False, **kw)
    except LimitError as err:
        return str(err)
    return {k: getattr(d, k) for k in DAG_FIELDS} | {"terminal": d.terminal}


def _same(new, old) -> None:
    assert type(new) is type(old)
    if isinstance(new, str):
        assert new == old
        return
    assert new.keys() == old.keys()
    for k in new:
        if isinstance(new[k], np.ndarray):
            assert new[k].dtype == old[k].dtype, k
            np.testing.assert_array_equal(new[k], old[k], err_msg=k)
        else:
            assert new[k] == old[k], k


def _both(table, **kw):
    new = _dag(table, **kw)
    with pytest.MonkeyPatch.context() as mp:
        _numba_discovery(mp)
        old = _dag(table, **kw)
    _same(new, old)
    return new


# ------------------------------------------------------------------------ discovery
@SETTINGS
@given(
    tables(max_rows=14, max_attributes=5, max_values=4),
    st.sampled_from([None, 0, 1, 2, 3]),
    st.booleans(),
    st.sampled_from([None, 1, 2, 5]),
    st.sampled_from([None, 1, 4, 30]),
    st.sampled_from([None, ("total-path-length", 6), ("nodes", 3), ("depth", 1)]),
)
def test_the_dag_equals_numbas(t, max_depth, depth2, room, max_subtables, bound):
    """Depth caps (with and without the depth-two layer's cut), bounds, tiny starting
    arrays (every growth path) and --max-subtables: the same DAG or the same message."""
    limits = None
    if bound is not None:
        limits = engine._limits(COSTS[bound[0]], COSTS["misclassifications"], bound[1], 2)
    _both(
        _table(t),
        max_depth=max_depth,
        depth2=depth2,
        initial_room=room,
        max_subtables=max_subtables,
        limits=limits,
    )


@pytest.mark.parametrize("values", [2, 3, 300])
def test_medium_dags_equal_numbas(values):
    """Tables big enough for several batches, parallel pieces and the hash table's
    growth; uint8 and int32 codes."""
    table = random_table(7, 400, values, 3, values)
    for kw in ({}, {"max_depth": 3}, {"max_depth": 4, "depth2": True}, {"initial_room": 7}):
        d = _both(table, **kw)
        assert isinstance(d, dict)
    assert engine.build_dag(table, special=False).table_arrays is None


def _copy(x):
    if isinstance(x, np.ndarray):
        return x.copy()
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*(_copy(v) for v in x))
    return x


def _state(args) -> list:
    """Every array (and scalar) of a kernel call's arguments, flattened."""
    out = []
    for x in args:
        if isinstance(x, tuple):
            out += [np.asarray(v) for v in x]
        else:
            out.append(np.asarray(x))
    return out


class _Lockstep:
    """A discovery kernel that runs the numba one on a copy of the arguments and the
    compiled one on the arguments themselves, and checks that both return the same status
    and leave every array the same (the unused tails included: a kernel writes nowhere
    else); the same for the hash table's growth."""

    def __init__(self):
        self.compiled = disc.discover, disc.rehash
        self.statuses: list[int] = []
        self.needs: set[int] = set()

    def discover(self, *args):
        copies = [_copy(x) for x in args]
        old = oracle.discover(*copies)
        new = self.compiled[0](*args)
        assert new == old
        for a, b in zip(_state(args), _state(copies)):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
        self.statuses.append(int(new))
        self.needs |= {k for k, v in enumerate(args[6]) if v}
        return new

    def rehash(self, ht, slots):
        new = self.compiled[1](ht, slots)
        np.testing.assert_array_equal(new, oracle.rehash(ht, slots))
        return new


def test_every_resumption_leaves_numbas_state(monkeypatch):
    """Budget 1 (BUDGET_SPENT after every batch), one-item arrays that grow on MUST_GROW
    (every kind of need), a depth cap, and a --max-subtables stop (TOO_MANY_NODES): after
    every call the compiled kernel's whole state equals numba's."""
    step = _Lockstep()
    monkeypatch.setattr(disc, "discover", step.discover)
    monkeypatch.setattr(disc, "rehash", step.rehash)
    monkeypatch.setattr(engine, "BUDGET", 1)
    table = random_table(6, 120, 3, 3, 5)
    for kw in ({"initial_room": 1}, {"initial_room": 2, "max_depth": 2}, {"initial_room": 64}):
        engine.build_dag(table, special=False, **kw)
    with pytest.raises(LimitError, match="more than 50 subtables"):
        engine.build_dag(table, special=False, initial_room=3, max_subtables=50)
    # The driver's own sizes on a table whose batches end at their work (a million row x
    # attribute visits), not at their buffers.
    engine.build_dag(random_table(9, 3000, 3, 3, 6), special=False, max_depth=3)
    seen = set(step.statuses)
    assert {engine.Status.DONE, engine.Status.BUDGET_SPENT, engine.Status.MUST_GROW} <= seen
    assert engine.Status.TOO_MANY_NODES in seen
    assert step.needs == set(range(disc.N_NEEDS))


def test_a_failed_allocation_is_out_of_memory():
    """A batch piece whose scratch cannot be allocated: OUT_OF_MEMORY, never a wrong DAG
    (the node it did not scan keeps b_k = -1)."""
    n = 4
    big = np.array([1 << 61], np.int64)  # more key sums than a piece's array can hold
    table = disc.TableArrays(
        np.zeros(n, np.uint8),
        big,
        np.zeros(n, np.int32),
        1,
        np.ones(n, np.uint64),
        np.full(n, 3, np.uint64),
        np.uint64(3),
        np.zeros(n, np.int32),
        np.zeros(0, np.uint8),
    )
    nodes = disc.NodeArrays(
        *(np.zeros(4, t) for t in (np.int64, np.int32, np.int64, np.int32, np.int32, np.int32)),
        np.zeros(4, np.int8),
        np.zeros(4, np.int32),
        np.zeros(5, np.int64),
    )
    nodes.node_size[0] = n
    pools = disc.DagPools(
        np.arange(n, dtype=np.int32),
        np.zeros(4, np.int16),
        np.zeros(4, np.int32),
        np.zeros(5, np.int64),
        np.zeros(4, np.int32),
    )
    batch = disc.BatchBuffers(
        *(
            np.zeros(k, t)
            for k, t in zip(
                (4, 5, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 5),
                (np.int32, np.int64, np.int64, np.int32, np.int32, np.int32, np.uint64)
                + (np.uint64, np.int64, np.int32, np.int32, np.int64, np.int64),
            )
        )
    )
    counters = np.zeros(disc.N_COUNTERS, np.int64)
    counters[disc.C_NODES] = 1
    needs = np.zeros(disc.N_NEEDS, np.int64)
    ht = np.zeros(8, np.uint64)
    status = disc.discover(
        table, nodes, pools, batch, ht, counters, needs, 10, 100, 0, engine._limits()
    )
    assert status == engine.Status.OUT_OF_MEMORY
    assert batch.b_k[0] == -1


def test_wrong_dtypes_are_refused():
    table = random_table(3, 20, 2, 2, 1)
    d = engine.build_dag(table, special=False)
    assert d.table_arrays is None
    with pytest.raises(TypeError):
        _core.discovery_rehash(np.zeros(8, np.int64), 8)
    with pytest.raises(ValueError):
        _core.discovery_rehash(np.zeros(8, np.uint64), 3)


def test_the_root_insert_and_rehash_equal_numbas():
    rng = np.random.default_rng(4)
    a, b = np.zeros(64, np.uint64), np.zeros(64, np.uint64)
    for node in range(20):
        h1, h2 = (int(x) for x in rng.integers(1, 2**63, 2, dtype=np.uint64))
        disc.ht_insert(a, h1, h2, node)
        oracle.ht_insert(b, h1, h2, node)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(disc.rehash(a, 64), oracle.rehash(b, 64))
    with pytest.raises(ValueError, match="full"):
        disc.ht_insert(np.full(4, 1, np.uint64), 1, 1, 0)


def _threads(table, count, **kw):
    with patch.dict(os.environ, DAGGER_THREADS=str(count)):
        return _dag(table, **kw)


@pytest.mark.skipif(_core.hardware_threads() < 2, reason="needs 2 threads")
def test_one_thread_equals_two():
    # Several batches (about 1.6M row x attribute visits), many parallel pieces.
    table = random_table(12, 150, 2, 3, 11)
    for kw in ({}, {"max_depth": 4}):
        _same(_threads(table, 1, **kw), _threads(table, 2, **kw))


# ------------------------------------------------------------------------ posets
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_poset_kernels_equal_numbas(n):
    from itertools import combinations

    pairs = list(combinations(range(n), 2))
    pi = np.array([i for i, _ in pairs], dtype=np.int64)
    pj = np.array([j for _, j in pairs], dtype=np.int64)
    for limit, mem in ((2**62, 2**62), (40, 2**62), (2**62, 120_000)):
        new = posets._discover(n, pi, pj, limit, mem)
        old = oracle.posets_discover(n, pi, pj, limit, mem)
        status, nn, nb, ne, head = new[:5]
        assert new[:5] == old[:5]
        for k, (a, b) in enumerate(zip(new[5:], old[5:])):
            if k == 2 and status:  # the first bundles of nodes never processed: unwritten
                a, b = np.r_[a[: head + 1], a[nn]], np.r_[b[: head + 1], b[nn]]
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
    sizes = posets._sizes(new[5], n)
    np.testing.assert_array_equal(sizes, oracle.posets_sizes(old[5], n))
    assert sizes.dtype == np.int32
    rank = np.random.default_rng(n).permutation(int(np.prod(range(1, n + 1)))).astype(np.int64)
    for v in range(0, nn, max(1, nn // 40)):
        a = posets._extension_rows(new[5][v], n, int(sizes[v]), rank)
        b = oracle.posets_extension_rows(old[5][v], n, int(sizes[v]), rank)
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_poset_dag_equals_numbas(n, monkeypatch):
    t = sorting(n)

    def build(**kw):
        try:
            d = engine.build_dag(t, **kw)
        except LimitError as err:
            return str(err)
        assert isinstance(d, posets.PosetDag)
        arrays = {k: getattr(d, k) for k in DAG_FIELDS} | {"terminal": d.terminal}
        arrays["posets"] = d.posets
        arrays["rows"] = np.concatenate([d.rows(v) for v in range(d.node_size.size)])
        return arrays

    kws = ({}, {"max_subtables": 30}, {"max_memory": 150_000})
    new = [build(**kw) for kw in kws]
    for name in ("discover", "sizes", "extension_rows"):
        monkeypatch.setattr(posets, f"_{name}", getattr(oracle, f"posets_{name}"))
    for kw, a in zip(kws, new):
        _same(a, build(**kw))


# ------------------------------------------------------------------------ counting
def _numba_counting(mp) -> None:
    for name in ("longest", "least", "mark", "link"):
        mp.setattr(counting, f"_{name}", getattr(oracle, f"counting_{name}"))


PAIRS = [
    ("depth", "misclassifications"),
    ("total-path-length", "depth"),
    ("total-path-length", "misclassifications"),
    ("depth", "nodes"),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tables(max_rows=8, max_attributes=4, max_values=3),
    st.sampled_from(PAIRS),
    st.booleans(),
    st.sampled_from([None, 1, 2]),
)
def test_the_counts_equal_numbas(t, pair, exact, cap):
    from dagger_cli.engine import relate
    from dagger_cli.errors import InputError

    table = _table(t)

    def run():
        try:
            rel = relate(table, *pair, exact_only=exact, count=True, max_depth=cap)
        except InputError as err:
            return str(err)
        opt = counting.optimize(table, ["misclassifications", "depth", "nodes"], exact_only=exact)
        return rel.front.points(), rel.front.counts, opt.as_dict(), opt.tree.to_text()

    new = run()
    with pytest.MonkeyPatch.context() as mp:
        _numba_counting(mp)
        assert run() == new


def test_the_state_kernels_equal_numbas():
    """The kernels called directly on one DAG: the longest paths, every cost's least
    value, the states marked from every root depth bound and their links."""
    table = random_table(5, 60, 3, 3, 2)
    d = engine.build_dag(table)
    graph = counting._Graph.of(d)
    np.testing.assert_array_equal(graph.longest, oracle.counting_longest(graph.arrays))
    for cost in COSTS.values():
        for exact in (False, True):
            p = np.array(cost.params(), np.int64)
            np.testing.assert_array_equal(
                counting._least(graph.arrays, p, exact),
                oracle.counting_least(graph.arrays, p, exact),
            )
    s_cost = counting._weighted([COSTS["misclassifications"], COSTS["nodes"]], [200, 1])
    for exact in (False, True):
        store = engine.compute_fronts(d, COSTS["depth"], s_cost, exact_only=exact)
        for q in (1, 200):
            fronts = counting.DepthFronts(
                store.fref.reshape(-1),
                store.fxy.reshape(-1),
                graph.longest,
                np.array(s_cost.params(), np.int64),
                q,
            )
            for bits in ([counting.ANY], [0, 1, 2], list(range(int(graph.longest[0])))):
                a = np.zeros(d.node_size.size, np.int64)
                for b in bits:
                    a[0] |= np.int64(1) << np.int64(b)
                b_ = a.copy()
                counting._mark(graph.arrays, fronts, a)
                oracle.counting_mark(graph.arrays, fronts, b_)
                np.testing.assert_array_equal(a, b_)
                new = counting._link(graph.arrays, fronts, exact, a)
                old = oracle.counting_link(graph.arrays, fronts, exact, b_)
                for x, y in zip(new, old):
                    assert x.dtype == y.dtype
                    np.testing.assert_array_equal(x, y)
                assert counting._link(graph.arrays, fronts, exact, a, 1000) is None


# ------------------------------------------------------------------------ CSV
@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3), max_size=200))
def test_factorize_numbers_keys_by_first_appearance(keys):
    from dagger_cli.data import csv

    k = np.array(keys, dtype=np.int64)
    ids, first = csv._factorize(k)
    seen: dict[int, int] = {}
    want = [seen.setdefault(v, len(seen)) for v in keys]
    assert ids.dtype == np.int32 and ids.tolist() == want
    assert first.dtype == np.int32 and first.tolist() == [keys.index(v) for v in seen]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_vote_dense_equals_the_sorting_vote(groups, n_dec, seed):
    from dagger_cli.data import csv

    rng = np.random.default_rng(seed)
    gid = np.r_[np.arange(groups), rng.integers(0, groups, 50)].astype(np.int32)
    dec = rng.integers(0, n_dec, gid.size).astype(np.int32)
    dense = csv._vote(gid, dec, groups, n_dec, dense=True)
    sparse = csv._vote(gid, dec, groups, n_dec, dense=False)
    np.testing.assert_array_equal(dense[0], sparse[0])
    assert dense[0].dtype == np.int32 and dense[1:] == sparse[1:]
    with pytest.raises(ValueError):
        _core.csv_vote_dense(gid, dec, groups - 1 if groups > 1 else 0, n_dec)
