"""The compiled discovery, posets and counting kernels (``core/discovery.cpp``,
``core/posets.cpp``, ``core/counting.cpp``) on their own, against independent slow paths
and invariants:

* the DAG, array for array, against :func:`reference_dag`, a plain breadth-first walk
  over row sets written from the definitions (every node's rows, level, leaf, candidate
  attributes, bundles and edges in the kernel's numbering), under depth caps, the
  depth-two layer's cut, bounds, tiny starting arrays and --max-subtables;
* a discovery resumed after every batch (budget 1) with one-item arrays grown on every
  kind of MUST_GROW gives the same DAG as one call; the hash table as its docstring says;
  a failed allocation is OUT_OF_MEMORY; wrong dtypes are refused;
* the sorting table's DAG from partial orders is the row-set DAG, node for node; a
  stopped poset discovery is the whole one's prefix;
* the counting kernels' longest paths against a walk of the DAG and their least costs
  against the baseline recursion's fronts, node by node.

One thread against two: tests/test_threads.py; the counts themselves against the brute
force: tests/test_counting.py."""

from __future__ import annotations

from itertools import combinations

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
from dagger_cli.engine.baseline import _ParetoWalker
from dagger_cli.engine.kernels import discovery as disc
from dagger_cli.errors import LimitError

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INF = np.iinfo(np.int64).max


def _table(t) -> DecisionTable:
    return DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")


def random_table(m, n, values, decisions, seed):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, size=(n, m))
    y = (X[:, 0] + X[:, 1] * X[:, -1] + (rng.random(n) < 0.2)) % decisions
    return DecisionTable.from_rows(X.tolist(), y.tolist(), name=f"t{seed}")


# ------------------------------------------------------------------------ the reference
def _expands(level, n, max_level, limits) -> bool:
    """Whether a node of least depth ``level`` and ``n`` rows may be split: below the cap,
    and each bound (x's, y's: bound, split_const, split_rows, leaf_const) leaves room for
    its own split and its ``level`` ancestors' (each at least split_const + split_rows * n)
    above a leaf below (:func:`dagger_cli.engine.kernels.fronts.splittable`)."""
    if max_level is not None and level >= max_level:
        return False
    for o in (0, 4):
        bound, sc, sr, leaf = (int(v) for v in limits[o : o + 4])
        if bound != INF and bound - (level + 1) * (sc + sr * n) < leaf:
            return False
    return True


def reference_dag(table, max_level=None, limits=None) -> list[dict]:
    """Δ(T) by a plain breadth-first walk over row sets (no keys, no batches): nodes
    numbered as first reached (parents in node order, their non-constant candidate
    attributes in column order, values in order), the root's candidates every attribute,
    a child's its discoverer's non-constant ones less the split attribute; an impure node
    below ``max_level`` that the bounds let split has a bundle per non-constant
    attribute."""
    codes, dec = np.asarray(table.codes), np.asarray(table.decisions)
    m, n = codes.shape
    n_dec = max(len(table.decision_values), 1)
    lim = engine._limits() if limits is None else limits
    index: dict[bytes, int] = {}
    nodes: list[dict] = []

    def add(rows, level, candidates) -> int:
        key = rows.tobytes()
        if key not in index:
            index[key] = len(nodes)
            counts = np.bincount(dec[rows], minlength=n_dec)
            block = codes[:, rows]
            nodes.append(
                {
                    "rows": rows,
                    "level": level,
                    "candidates": candidates,
                    "mis": int(rows.size - counts.max()),
                    "major": int(counts.argmax()),
                    "split": int(counts.max() < rows.size and (block != block[:, :1]).any()),
                    "bundles": [],
                }
            )
        return index[key]

    add(np.arange(n, dtype=np.int32), 0, list(range(m)))
    v = 0
    while v < len(nodes):
        node = nodes[v]
        rows = node["rows"]
        if node["mis"] > 0 and _expands(node["level"], rows.size, max_level, lim):
            split = [a for a in node["candidates"] if np.unique(codes[a, rows]).size > 1]
            for a in split:
                vals = codes[a, rows]
                rest = [b for b in split if b != a]
                kids = [add(rows[vals == x], node["level"] + 1, rest) for x in np.unique(vals)]
                node["bundles"].append((a, kids))
        v += 1
    return nodes


def same_as_reference(dag, nodes) -> None:
    """The compiled DAG is the reference's, array for array."""
    assert dag.node_size.size == len(nodes)
    for v, node in enumerate(nodes):
        assert dag.rows(v).tolist() == node["rows"].tolist(), v
        assert dag.node_level[v] == node["level"], v
        assert dag.node_mis[v] == node["mis"], v
        assert dag.node_major[v] == node["major"], v
        assert dag.node_split[v] == node["split"], v
        assert dag.node_attr_len[v] == len(node["candidates"]), v
        got = [(int(dag.bundle_attr[b]), dag.children(b).tolist()) for b in dag.bundles(v)]
        assert got == node["bundles"], v
    assert dag.terminal == sum(not node["bundles"] for node in nodes)
    assert dag.row_pool.size == sum(node["rows"].size for node in nodes)
    assert dag.bundle_attr.size == sum(len(node["bundles"]) for node in nodes)
    assert dag.edge_child.size == sum(len(k) for node in nodes for _, k in node["bundles"])
    assert dag.node_start.dtype == dag.node_bundle_start.dtype == np.int64
    assert dag.node_size.dtype == dag.edge_child.dtype == dag.row_pool.dtype == np.int32


def check_dag(table, *, max_depth=None, depth2=False, limits=None, **kw):
    """build_dag against the reference: the same DAG, or LimitError exactly when the
    reference has more than ``max_subtables`` nodes."""
    max_level = max_depth
    if depth2 and max_depth is not None and max_depth >= 2:
        max_level = max_depth - 2  # the depth-two layer solves the last two levels
    nodes = reference_dag(table, max_level, limits)
    cap = kw.get("max_subtables")
    if cap is not None and len(nodes) > cap:
        with pytest.raises(LimitError, match=f"more than {cap:,} subtables"):
            engine.build_dag(
                table, special=False, max_depth=max_depth, depth2=depth2, limits=limits, **kw
            )
        return None
    dag = engine.build_dag(
        table, special=False, max_depth=max_depth, depth2=depth2, limits=limits, **kw
    )
    same_as_reference(dag, nodes)
    return dag


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
def test_the_dag_is_the_breadth_first_walks(t, max_depth, depth2, room, max_subtables, bound):
    """Depth caps (with and without the depth-two layer's cut), bounds, tiny starting
    arrays (every growth path) and --max-subtables: the reference's DAG or the limit."""
    limits = None
    if bound is not None:
        limits = engine._limits(COSTS[bound[0]], COSTS["misclassifications"], bound[1], 2)
    check_dag(
        _table(t),
        max_depth=max_depth,
        depth2=depth2,
        initial_room=room,
        max_subtables=max_subtables,
        limits=limits,
    )


@pytest.mark.parametrize("values", [2, 3, 300])
def test_medium_dags_are_the_breadth_first_walks(values):
    """Tables big enough for several batches, parallel pieces and the hash table's
    growth; uint8 and (300 values) int32 codes."""
    table = random_table(7, 400, values, 3, values)
    for kw in ({}, {"max_depth": 3}, {"max_depth": 4, "depth2": True}, {"initial_room": 7}):
        check_dag(table, **kw)
    lim = engine._limits(COSTS["total-path-length"], COSTS["misclassifications"], 1200, None)
    check_dag(table, limits=lim)
    assert engine.build_dag(table, special=False).table_arrays is None


def _dag_arrays(dag) -> dict:
    fields = (
        "node_start node_size node_mis node_major node_split node_level node_attr_len "
        "node_bundle_start row_pool bundle_attr bundle_edge_start edge_child"
    ).split()
    return {k: getattr(dag, k).tolist() for k in fields} | {"terminal": dag.terminal}


class _Recorder:
    """The discovery kernel, recording every return's status and the needs it named."""

    def __init__(self, monkeypatch):
        self.kernel = disc.discover
        self.statuses: list[int] = []
        self.needs: set[int] = set()
        monkeypatch.setattr(disc, "discover", self)

    def __call__(self, *args):
        status = self.kernel(*args)
        self.statuses.append(int(status))
        self.needs |= {k for k, v in enumerate(args[6]) if v}
        return status


def test_discovery_resumed_after_every_batch_from_tiny_arrays_is_one_calls(monkeypatch):
    """Budget 1 (BUDGET_SPENT after every batch), one-item arrays that grow on MUST_GROW
    (every kind of need, the hash table's rehash among them), a depth cap, and a
    --max-subtables stop (TOO_MANY_NODES): the DAG of one call with the default sizes."""
    tables_ = [random_table(6, 120, 3, 3, 5), random_table(9, 3000, 3, 3, 6)]
    kws = [{}, {"max_depth": 2}, {}, {"max_depth": 3}]
    whole = [
        _dag_arrays(engine.build_dag(tables_[k // 2], special=False, **kw))
        for k, kw in enumerate(kws)
    ]
    step = _Recorder(monkeypatch)
    assert step.statuses == []
    monkeypatch.setattr(engine, "BUDGET", 1)
    for k, kw in enumerate(kws):
        t = tables_[k // 2]
        for room in (1, 2, 64) if k < 2 else (None,):
            got = _dag_arrays(engine.build_dag(t, special=False, initial_room=room, **kw))
            assert got == whole[k], (k, room)
    with pytest.raises(LimitError, match="more than 50 subtables"):
        engine.build_dag(tables_[0], special=False, initial_room=3, max_subtables=50)
    seen = set(step.statuses)
    assert {engine.Status.DONE, engine.Status.BUDGET_SPENT, engine.Status.MUST_GROW} <= seen
    assert engine.Status.TOO_MANY_NODES in seen
    assert step.needs == set(range(disc.N_NEEDS))


@pytest.mark.absurd_allocation
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


def _entries(ht) -> dict[int, tuple[int, int]]:
    """The slots in use: slot -> (h2, high half of h1 over the node)."""
    slots = ht.reshape(-1, 2)
    return {int(p): (int(a), int(b)) for p, (a, b) in enumerate(slots) if a}


def _insert(ht, h1, h2, node) -> None:
    """:func:`disc.ht_insert` as its docstring says: linear probing from slot h1 >> 32,
    slot p holding h2 and (h1's high half << 32) | node."""
    slots = ht.size // 2
    p = (h1 >> 32) & (slots - 1)
    while ht[2 * p]:
        p = (p + 1) & (slots - 1)
    ht[2 * p] = h2
    ht[2 * p + 1] = ((h1 >> 32) << 32) | node


def test_the_hash_table_is_as_its_docstring_says():
    """Inserts in place by linear probing (collisions forced by equal high halves); a
    rehash into more slots holds the same entries, each where an insert would put it."""
    rng = np.random.default_rng(4)
    a, b = np.zeros(64, np.uint64), np.zeros(64, np.uint64)
    keys = []
    for node in range(20):
        h1, h2 = (int(x) for x in rng.integers(1, 2**63, 2, dtype=np.uint64))
        if node % 4 == 1:
            h1 = (keys[-1][0] >> 32 << 32) | node  # the previous key's slot: a collision
        keys.append((h1, h2, node))
        disc.ht_insert(a, h1, h2, node)
        _insert(b, h1, h2, node)
    np.testing.assert_array_equal(a, b)
    assert len(_entries(a)) == 20
    for slots in (32, 64, 256):
        grown = disc.rehash(a, slots)
        assert grown.dtype == np.uint64 and grown.size == 2 * slots
        want = np.zeros(2 * slots, np.uint64)
        for h1, h2, node in keys:
            _insert(want, h1, h2, node)
        assert sorted(_entries(grown).values()) == sorted(_entries(a).values())
        if slots == 256:  # no collision left to order: each entry in its own home slot
            np.testing.assert_array_equal(grown, want)
    with pytest.raises(ValueError, match="full"):
        disc.ht_insert(np.full(4, 1, np.uint64), 1, 1, 0)


# ------------------------------------------------------------------------ posets
def _rowsets(dag) -> list[frozenset]:
    return [frozenset(dag.rows(v).tolist()) for v in range(dag.node_size.size)]


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_poset_dag_is_the_row_set_dag(n):
    """The sorting table's DAG from partial orders (its sizes counted, its rows listed
    from the orders' linear extensions) is the generic discovery's node for node: the
    same rows, level, leaf, bundles (attribute and children by value) and sizes."""
    t = sorting(n)
    special, generic = engine.build_dag(t), engine.build_dag(t, special=False)
    assert isinstance(special, posets.PosetDag)
    same_as_reference(generic, reference_dag(t))
    rows, want = _rowsets(special), _rowsets(generic)
    where = {s: v for v, s in enumerate(want)}
    assert len(where) == len(rows) == len(want) and set(rows) == set(want)
    assert special.node_size.dtype == np.int32
    for v, s in enumerate(rows):
        g = where[s]
        assert special.node_size[v] == generic.node_size[g] == len(s)
        assert special.node_level[v] == generic.node_level[g]
        assert special.node_mis[v] == generic.node_mis[g]
        assert special.node_attr_len[v] == len(special.bundles(v))

        def bundles(dag, node, sets):
            return sorted(
                (int(dag.bundle_attr[b]), [sets[c] for c in dag.children(b)])
                for b in dag.bundles(node)
            )

        assert bundles(special, v, rows) == bundles(generic, g, want), v
    assert special.terminal == generic.terminal


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_the_poset_discovery_stopped_is_the_whole_ones_prefix(n):
    """More than ``limit`` orders or ``mem`` bytes: TOO_MANY or TOO_BIG, the orders found
    and the processed ones' bundles and edges those of the whole discovery; the rows of
    an order mapped through any row order are the rows in rank order mapped."""
    pairs = list(combinations(range(n), 2))
    pi = np.array([i for i, _ in pairs], dtype=np.int64)
    pj = np.array([j for _, j in pairs], dtype=np.int64)
    whole = posets._discover(n, pi, pj, 2**62, 2**62)
    status, nn, nb, ne, head, poset, level, bstart, battr, bedge, child = whole
    assert status == posets.DISCOVERED and head == nn
    seen = set()
    for limit, mem in ((40, 2**62), (2**62, 120_000), (nn, 2**62)):
        part = posets._discover(n, pi, pj, limit, mem)
        p_status, p_nn, _, _, p_head = part[:5]
        if limit < nn:
            assert p_status == posets.TOO_MANY and p_nn == limit  # the next one is refused
        elif mem < 2**62 and p_status:
            assert p_status == posets.TOO_BIG
        else:
            assert part[:5] == whole[:5]
        seen.add(p_status)
        assert p_head <= p_nn <= nn
        for a, b in zip(part[5:7], whole[5:7]):  # the orders found and their levels
            assert a.dtype == b.dtype
            assert a[:p_nn].tolist() == b[:p_nn].tolist()
        b_end = int(bstart[p_head])
        assert part[7][: p_head + 1].tolist() == bstart[: p_head + 1].tolist()
        assert part[8][:b_end].tolist() == battr[:b_end].tolist()
        assert part[9][: b_end + 1].tolist() == bedge[: b_end + 1].tolist()
        assert part[10][: bedge[b_end]].tolist() == child[: bedge[b_end]].tolist()
    if n >= 4:
        assert {posets.TOO_MANY, posets.DISCOVERED} <= seen
    if n >= 5:
        assert posets.TOO_BIG in seen
    sizes = posets._sizes(poset[:nn], n)
    assert sizes.dtype == np.int32 and sizes[0] == np.prod(range(1, n + 1))
    count = int(np.prod(range(1, n + 1)))
    identity = np.arange(count, dtype=np.int64)
    rank = np.random.default_rng(n).permutation(count).astype(np.int64)
    for v in range(0, nn, max(1, nn // 40)):
        plain = posets._extension_rows(poset[v], n, int(sizes[v]), identity)
        mapped = posets._extension_rows(poset[v], n, int(sizes[v]), rank)
        assert plain.size == sizes[v] == np.unique(plain).size
        assert mapped.tolist() == rank[plain].tolist()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_the_poset_dag_stops_at_its_limits(n):
    t = sorting(n)
    nodes = engine.build_dag(t).node_size.size
    for cap in (30, nodes - 1, nodes):
        if cap < nodes:
            with pytest.raises(LimitError, match=f"more than {cap:,} subtables"):
                engine.build_dag(t, max_subtables=cap)
        else:
            assert engine.build_dag(t, max_subtables=cap).node_size.size == nodes
    if n == 5:
        with pytest.raises(LimitError, match="--max-memory"):
            engine.build_dag(t, max_memory=150_000)


# ------------------------------------------------------------------------ counting
def test_the_longest_paths_and_least_costs_are_the_slow_paths():
    """Every node's longest path (a walk of its bundles) and every cost's least value over
    its trees, all of them and the exact ones (the least x of the baseline recursion's
    front)."""
    rng = np.random.default_rng(2)
    X = rng.integers(0, 3, size=(60, 4))
    y = (X[:, 0] + X[:, 1] * X[:, 3] + (rng.random(60) < 0.2)) % 3
    table = DecisionTable.from_rows(X.tolist(), y.tolist(), duplicates="keep")  # equal rows
    d = engine.build_dag(table)
    graph = counting._Graph.of(d)
    longest = np.zeros(d.node_size.size, np.int64)
    for v in np.argsort(d.node_size, kind="stable"):  # children first
        kids = [int(c) for b in d.bundles(int(v)) for c in d.children(b)]
        longest[v] = 1 + max(longest[kids]) if kids else 0
    assert graph.longest.dtype == np.int64 and graph.longest.tolist() == longest.tolist()
    rows = [np.sort(d.rows(v)).astype(np.int32) for v in range(d.node_size.size)]
    for name, cost in COSTS.items():
        if cost.reads_decision:
            continue
        other = COSTS["depth" if name == "misclassifications" else "misclassifications"]
        least = {}
        for exact in (False, True):
            got = counting._least(graph.arrays, np.array(cost.params(), np.int64), exact)
            walker = _ParetoWalker(table, cost, other, exact_only=exact)
            want = []
            for r in rows:
                fx, _ = walker.solve(r)
                want.append(int(fx.min()) if fx.size else int(counting.NONE))
            assert got.tolist() == want, (name, exact)
            least[exact] = want
        assert (least[False] != least[True]) == (name != "misclassifications")


def test_the_state_links_are_refused_past_their_allowance():
    """The states marked from the root's depth bounds: marking again adds none; their
    links fit a generous allowance, the same each time, and not 1000 bytes."""
    table = random_table(5, 60, 3, 3, 2)
    d = engine.build_dag(table)
    graph = counting._Graph.of(d)
    s_cost = counting._weighted([COSTS["misclassifications"], COSTS["nodes"]], [200, 1])
    store = engine.compute_fronts(d, COSTS["depth"], s_cost)
    fronts = counting.DepthFronts(
        store.fref.reshape(-1),
        store.fxy.reshape(-1),
        graph.longest,
        np.array(s_cost.params(), np.int64),
        200,
    )
    mask = np.zeros(d.node_size.size, np.int64)
    for b in (counting.ANY, 0, 1, 2):
        mask[0] |= np.int64(1) << np.int64(b)
    counting._mark(graph.arrays, fronts, mask)
    assert (mask[1:] != 0).sum() > 10
    again = mask.copy()
    counting._mark(graph.arrays, fronts, again)
    assert again.tolist() == mask.tolist()
    links = counting._link(graph.arrays, fronts, False, mask)
    assert links is not None
    assert [a.tolist() for a in counting._link(graph.arrays, fronts, False, mask, 10**9)] == [
        a.tolist() for a in links
    ]
    assert counting._link(graph.arrays, fronts, False, mask, 1000) is None
