"""The compiled fronts kernels (``core/fronts.cpp``, ``core/depth_two.cpp``,
``core/front_store.hpp``) on their own, against independent slow paths and invariants:

* every subproblem's front in the :class:`FrontStore` (not only the root's), node by node
  and remaining depth by remaining depth, against the baseline recursion's front of the
  same rows (:class:`dagger_cli.engine.baseline._ParetoWalker`), leaf tags included, with
  and without caps, the depth-two layer, exact trees only, large attributes;
* bounds pushed into compute_fronts (max_x, max_y, least_y, alone and together): the
  root's front is the whole front restricted, with the same tags;
* the resumable kernels replayed from a recorded call in tiny work budgets and pools end
  with the pool of one call; allowances from nothing to plenty refuse with the bytes they
  wanted or give that pool; one thread gives what two give (and two were used);
* ``splittable`` against its documented formula; wrong dtypes refused.

The root fronts against the brute force: tests/test_bruteforce.py, test_depth_cap.py,
test_bounds.py; the depth-two layer against the slow path: test_depth_two.py,
test_many_values.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli import _core
from dagger_cli.costs import COSTS, ROW_COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import build_dag, compute_fronts, relate, threads
from dagger_cli.engine import dag as dag_mod
from dagger_cli.engine.baseline import _deep_recursion, _ParetoWalker, baseline_front
from dagger_cli.engine.dag import _limits
from dagger_cli.engine.kernels import depth_two as d2
from dagger_cli.engine.kernels import fronts as fk
from dagger_cli.errors import InputError
from tests.oracle import COST_PAIRS
from tests.test_depth_two import random_tables
from tests.test_fast_engine import random_table
from tests.test_many_values import identifier_table

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INF = np.iinfo(np.int64).max
SUM_Y = [y for y in ROW_COSTS if COSTS[y].combine != 1]


def any_tables():
    small = tables(max_rows=10, max_attributes=4, max_values=3).map(
        lambda t: DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    )
    return st.one_of(small, random_tables(True), random_tables(False))


# ------------------------------------------------------------------ every subproblem
def check_store(rel, exact_only=False, walker=None) -> int:
    """Every subproblem's front of ``rel.store`` is the baseline recursion's front of its
    node's rows at its remaining depth (the top one: any larger depth), and a point tagged
    as the leaf has the leaf's costs. Returns the number of subproblems checked.
    ``walker``: the baseline's recursion on that table and costs, its memo shared by the
    checks of several runs."""
    dag, store, table = rel.dag, rel.store, rel.table
    cx, cy = rel.front.x_cost, rel.front.y_cost
    if walker is None:
        walker = _ParetoWalker(table, cx, cy, exact_only=exact_only)
    checked = 0
    with _deep_recursion(table.n_attributes):
        for v in range(dag.node_size.size):
            rows = np.sort(dag.rows(v)).astype(np.int32)
            top = store.subproblem_depth(v)
            mis = int(dag.node_mis[v])
            leaf = (cx.leaf_const + cx.leaf_mis * mis, cy.leaf_const + cy.leaf_mis * mis)
            for r in [None] if top is None else range(top + 1):
                fx, fy, fch = store.front(v, r)
                wx, wy = walker.solve(rows, r)
                assert (fx.tolist(), fy.tolist()) == (wx.tolist(), wy.tolist()), (v, r)
                if not dag.is_d2(v) or r == 0:  # depth-two points: tagged by column
                    for px, py, tag in zip(fx, fy, fch):
                        assert tag >= -1 and (tag != -1 or (px, py) == leaf), (v, r)
                checked += 1
    return checked


def check_relate(t, x, y, walkers=None, **options):
    """relate's whole store against the baseline (``walkers``: a dict keeping the
    baseline's recursions by costs, for several runs on the table ``t``)."""
    try:
        rel = relate(t, x, y, **options)
    except InputError:  # no exact tree within the cap: the baseline has none either
        assert options.get("exact_only")
        wx, _, _ = baseline_front(
            t,
            COSTS[x],
            COSTS[y],
            exact_only=True,
            max_depth=options.get("max_depth"),
        )
        assert wx.size == 0
        return None
    assert rel.engine == "fast"
    exact = options.get("exact_only", False)
    walker = None
    if walkers is not None:
        key = (x, y, exact)
        if key not in walkers:
            walkers[key] = _ParetoWalker(rel.table, COSTS[x], COSTS[y], exact_only=exact)
        walker = walkers[key]
    check_store(rel, exact, walker)
    return rel


@SETTINGS
@given(
    t=any_tables(),
    pair=st.sampled_from(COST_PAIRS),
    depth=st.sampled_from([None, None, 1, 2, 3, 4]),
    depth_two=st.sampled_from([True, False, "auto"]),
    exact_only=st.booleans(),
)
def test_every_subproblems_front_is_the_baselines(t, pair, depth, depth_two, exact_only):
    """relate with the options the kernels read: every subproblem's front (not only the
    root's) is the baseline's front of the same rows at the same remaining depth."""
    check_relate(t, *pair, max_depth=depth, depth_two=depth_two, exact_only=exact_only)


MEDIUM = [(7, 60, 2, 2, 1, True), (6, 50, 3, 3, 2, True), (5, 70, 4, 2, 3, False)]


@pytest.mark.parametrize("x,y", COST_PAIRS, ids=[f"{x}-vs-{y}" for x, y in COST_PAIRS])
def test_every_subproblem_on_medium_tables(x, y):
    """Tables of thousands of subproblems (hypothesis' tables are mostly tiny): uncapped,
    capped with and without the depth-two layer, exact trees only."""
    checked = 0
    for k, spec in enumerate(MEDIUM):
        t = random_table(*spec)
        walkers: dict = {}
        options = [
            {},
            {"max_depth": 3, "depth_two": True},
            {"max_depth": 4, "depth_two": False},
            {"exact_only": True, "max_depth": 2 + k},
        ]
        for kw in options:
            rel = check_relate(t, x, y, walkers, **kw)
            checked += rel is not None and rel.store.fref.shape[0]
    assert checked > 3000


def test_long_runs_of_one_class_and_value():
    """A 0/1 table whose first 300 rows share a class and a value: more than a byte's
    worth of counts in one pass (the class counts' flushes)."""
    rng = np.random.default_rng(4)
    n = 700
    X = rng.integers(0, 2, size=(n, 6))
    X[:300, 0] = 1
    X[300:, 0] = rng.integers(0, 2, n - 300)
    y = rng.integers(0, 2, n)
    y[:300] = 0
    t = DecisionTable.from_rows(X.tolist(), y.tolist(), duplicates="keep")
    walkers: dict = {}
    for depth in (2, 3):
        for x in ("depth", "total-path-length"):
            rel = check_relate(t, x, "misclassifications", walkers, max_depth=depth)
            assert rel.stats.depth_two


WIDE = [
    # m, n, values, decisions, seed: several words of bitsets, many pieces and chunks
    (12, 300, 2, 2, 7),
    (9, 200, 3, 3, 8),
    (10, 250, 2, 4, 9),
    (14, 500, 2, 2, 10),
]


@pytest.mark.parametrize("m,n,values,decisions,seed", WIDE)
def test_wider_tables_subproblem_by_subproblem(m, n, values, decisions, seed):
    """Capped (with and without the depth-two layer) every subproblem against the
    baseline; uncapped, the tables the baseline walks in seconds."""
    t = random_table(m, n, values, decisions, seed, structured=True)
    pairs = [
        ("total-path-length", "misclassifications"),
        ("depth", "misclassifications"),
        ("misclassifications", "nodes"),
        ("leaves", "total-path-length"),
    ]
    walkers: dict = {}
    for depth in (2, 3, 4):
        for x, y in pairs if depth < 4 else pairs[:2]:
            for depth_two in (True, False):
                check_relate(t, x, y, walkers, max_depth=depth, depth_two=depth_two)
    if m <= 10:
        assert check_relate(t, *pairs[0], walkers).stats.subtables > 9000


def _fronts_of(store, subs):
    """The fronts of the subproblems ``subs``, concatenated: lengths, points, tags."""
    starts, lens = store.fref[subs, 0], store.fref[subs, 1]
    idx = np.repeat(starts - (np.cumsum(lens) - lens), lens) + np.arange(int(lens.sum()))
    return lens.tolist(), store.fxy[idx].tolist(), store.fch[idx].tolist()


@pytest.mark.parametrize("m,n,values,decisions,seed", [WIDE[0], WIDE[3]])
def test_wider_tables_uncapped_equal_a_cap_no_tree_reaches(m, n, values, decisions, seed):
    """Beyond the baseline (95,000 and 535,000 subtables): every node's uncapped front,
    tags included, is the capped kernel's front at its top remaining depth under a cap of
    every attribute (another order of subproblems, (node, remaining depth) pairs, the
    children's taken one depth less)."""
    t = random_table(m, n, values, decisions, seed, structured=True)
    cx, cy = COSTS["total-path-length"], COSTS["misclassifications"]
    whole = relate(t, "total-path-length", "misclassifications")
    assert whole.stats.subtables > 90_000
    dag = build_dag(t, max_depth=m)
    assert np.array_equal(dag.edge_child, whole.dag.edge_child)
    capped = compute_fronts(dag, cx, cy)
    assert capped.sub_start is not None and capped.fref.shape[0] > 5 * dag.node_size.size
    nodes = np.arange(dag.node_size.size)
    assert _fronts_of(capped, capped.sub_start[1:] - 1) == _fronts_of(whole.store, nodes)


# ------------------------------------------------------------------ bounds
def _restricted(store, max_x, max_y, least_y):
    """The unbounded root front (x, y, tags) restricted to the bounds: the points within
    them, or with least_y the last of those."""
    fx, fy, fch = (a.tolist() for a in store.front(0))
    pts = [
        p
        for p in zip(fx, fy, fch)
        if (max_x is None or p[0] <= max_x) and (max_y is None or p[1] <= max_y)
    ]
    return pts[-1:] if least_y else pts


def _check_bounded(dag, cx, cy, whole, **kw):
    """The root's front under the bounds ``kw`` is the unbounded one restricted, tags
    included. least_y under a bound on x (never asked by relate: the children's least-y
    points may add up past the bound, a knapsack) keeps at most one point, within the
    bounds and at or above the restricted front (a real tree's, no better than its least
    y)."""
    got = compute_fronts(dag, cx, cy, **kw)
    fx, fy, fch = (a.tolist() for a in got.front(0))
    max_x, max_y, least = kw.get("max_x"), kw.get("max_y"), kw.get("least_y", False)
    if least and max_x is not None:
        within = _restricted(whole, max_x, max_y, False)
        assert len(fx) <= 1, kw
        for px, py in zip(fx, fy):
            assert px <= max_x and (max_y is None or py <= max_y), kw
            assert any(wx <= px and wy <= py for wx, wy, _ in within), kw
            assert py >= within[-1][1], kw
        return
    assert list(zip(fx, fy, fch)) == _restricted(whole, max_x, max_y, least), kw


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    x=st.sampled_from(list(ROW_COSTS)),
    y=st.sampled_from(SUM_Y),
    depth=st.sampled_from([None, 2, 3]),
    depth_two=st.booleans(),
    exact_only=st.booleans(),
)
def test_bounds_relate_never_pushes_together_restrict_the_root(
    data, x, y, depth, depth_two, exact_only
):
    """compute_fronts with least_y under a bound on x (and one on y), on a DAG discovered
    under those bounds (what relate never pushes together): one real tree's point within
    them (:func:`_check_bounded`); and without least_y the root's front restricted."""
    if x == y:
        return
    t = data.draw(random_tables(data.draw(st.booleans())))
    cx, cy = COSTS[x], COSTS[y]
    try:
        pts = relate(t, x, y, max_depth=depth, exact_only=exact_only).front.points()
    except InputError:
        return
    max_x = pts[data.draw(st.integers(0, len(pts) - 1))][0]
    max_y = data.draw(st.sampled_from([None, pts[0][1]]))
    d2_on = depth_two and not exact_only
    whole = compute_fronts(
        build_dag(t, max_depth=depth, depth2=d2_on), cx, cy, exact_only=exact_only
    )
    dag = build_dag(t, max_depth=depth, depth2=d2_on, limits=_limits(cx, cy, max_x, max_y))
    for least in (True, False):
        kw = dict(exact_only=exact_only, max_x=max_x, max_y=max_y, least_y=least)
        _check_bounded(dag, cx, cy, whole, **kw)


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "generic"])
@pytest.mark.parametrize(
    "x,y",
    [
        ("depth", "misclassifications"),
        ("total-path-length", "misclassifications"),
        ("misclassifications", "leaves"),
    ],
)
def test_bounds_at_every_point_restrict_the_root(binary, x, y):
    """max_x or max_y at each point of the front, with and without least_y, under a cap
    with the depth-two layer (its fronts trimmed to the allowances) and without one."""
    t = random_table(8, 120, 2 if binary else 3, 2 if binary else 3, 3, structured=True)
    cx, cy = COSTS[x], COSTS[y]
    for depth in (None, 2, 3):
        whole = compute_fronts(build_dag(t, max_depth=depth, depth2=depth is not None), cx, cy)
        fx, fy, _ = whole.front(0)
        assert len(fx) > 2
        for px, py in zip(fx.tolist(), fy.tolist()):
            for max_x, max_y in ((px, None), (None, py), (px - 1, py + 1)):
                dag = build_dag(
                    t,
                    max_depth=depth,
                    depth2=depth is not None,
                    limits=_limits(cx, cy, max_x, max_y),
                )
                for least in (False, True):
                    _check_bounded(dag, cx, cy, whole, max_x=max_x, max_y=max_y, least_y=least)


# ------------------------------------------------------------------ large attributes
@pytest.mark.parametrize("fine", [False, True])
@pytest.mark.parametrize("many", [1, 3, 12])
def test_many_valued_attributes_subproblem_by_subproblem(fine, many, monkeypatch):
    """Large attributes row by row, the sorted present values, codes of more than 256
    values (int32): every subproblem against the baseline."""
    t = identifier_table(300, seed=2, fine=fine)
    monkeypatch.setattr(dag_mod, "D2_MANY_VALUES", many)
    walkers: dict = {}
    for x, y in (("total-path-length", "misclassifications"), ("misclassifications", "nodes")):
        for depth in (2, 3):
            assert check_relate(t, x, y, walkers, max_depth=depth).stats.depth_two


def test_more_values_than_rows_plus_4096_below_the_root(monkeypatch):
    """Subtables of far fewer rows than an attribute has values: the small attributes'
    bitsets set through a map by value, not a table of every value; 6,000 rows and the
    same front as the slow path (every subtable built) and the baseline."""
    t = identifier_table(6000, seed=3)
    monkeypatch.setattr(dag_mod, "D2_MANY_VALUES", 3)
    x, y = "total-path-length", "misclassifications"
    fast = relate(t, x, y, max_depth=3)
    assert fast.stats.depth_two
    slow = relate(t, x, y, max_depth=3, depth_two=False)
    assert fast.front.points() == slow.front.points()
    assert fast.front.points() == relate(t, x, y, max_depth=3, engine="baseline").front.points()
    for v in range(fast.dag.node_size.size):  # the layer's subproblems, tags included
        for r in range(fast.store.subproblem_depth(v) + 1):
            a, b = fast.store.front(v, r), slow.store.front(v, r)
            assert (a[0].tolist(), a[1].tolist()) == (b[0].tolist(), b[1].tolist()), (v, r)


# ------------------------------------------------------------------ kernel calls
def recorded(t, x, y, **kw):
    """The arguments the driver passes to each kernel on its first call, and the pool
    before it (what a replay starts from)."""
    calls = {}
    real_f, real_d2 = fk.fronts, d2.d2_fronts

    def rec(name, real):
        def kernel(*args):
            if name not in calls:
                k = 3 if name == "fronts" else 4
                # The pool's arrays copied, not kept: the driver must be free to grow them.
                kept = args[:k] + (None,) + args[k + 1 :]
                calls[name] = (kept, [np.array(a, copy=True) for a in args[k]])
            return real(*args)

        return kernel

    cx, cy = COSTS[x], COSTS[y]
    depth = kw.pop("max_depth", None)
    dag = build_dag(t, max_depth=depth, depth2=kw.pop("depth2", False))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fk, "fronts", rec("fronts", real_f))
        mp.setattr(d2, "d2_fronts", rec("d2", real_d2))
        compute_fronts(dag, cx, cy, **kw)
    return calls


def replay(name, call, budget, room, allow):
    """Run a kernel from the recorded state to the end as the driver does, with ``budget``,
    a pool of ``room`` spare points and ``allow`` bytes a piece: every call's status,
    counters and needs, then the pool."""
    kernel = fk.fronts if name == "fronts" else d2.d2_fronts
    args, (fref, fxy, fch, counters, _) = call
    used = int(counters[1])
    fref, counters = fref.copy(), counters.copy()
    fxy = np.concatenate([fxy[: 2 * used], np.zeros(2 * room, np.int64)])
    fch = np.concatenate([fch[:used], np.zeros(room, np.int32)])
    trace = []
    for _ in range(100_000):
        needs = np.zeros(1, np.int64)
        pool = fk.FrontPool(fref.reshape(-1), fxy, fch, counters, needs)
        if name == "fronts":
            order, dag, params, _, m, _, _ = args
            status = kernel(order, dag, params, pool, m, allow, budget)
        else:
            entries, table, dag, params, _, m, many, _, _, leaves = args
            status = kernel(entries, table, dag, params, pool, m, many, allow, budget, leaves)
        trace.append((int(status), counters.tolist(), needs.tolist()))
        if status == fk.MUST_GROW:
            need = int(needs[0])
            assert need > fch.size
            fxy = np.concatenate([fxy, np.zeros(2 * (need - fch.size), np.int64)])
            fch = np.concatenate([fch, np.zeros(need - fch.size, np.int32)])
        elif status != fk.BUDGET_SPENT:
            break
    u = int(counters[1])
    return trace, (fref.tolist(), fxy[: 2 * u].tolist(), fch[:u].tolist())


CASES = [
    # table, costs, options: uncapped, capped without and with the depth-two layer (binary
    # and generic), bounds, exact trees only, large attributes
    (lambda: random_table(7, 90, 3, 3, 1, True), "total-path-length", "misclassifications", {}),
    (
        lambda: random_table(8, 120, 2, 2, 2, True),
        "depth",
        "misclassifications",
        {"max_depth": 3},
    ),
    (
        lambda: random_table(9, 200, 2, 2, 3, True),
        "total-path-length",
        "misclassifications",
        {"max_depth": 4, "depth2": True},
    ),
    (
        lambda: random_table(6, 150, 4, 3, 4, True),
        "misclassifications",
        "nodes",
        {"max_depth": 3, "depth2": True},
    ),
    (
        lambda: random_table(7, 90, 3, 2, 5, True),
        "total-path-length",
        "misclassifications",
        {"max_x": 400, "max_y": 20, "exact_only": False},
    ),
    (lambda: random_table(6, 70, 3, 3, 6, False), "depth", "leaves", {"exact_only": True}),
    (
        lambda: identifier_table(300, 2, True),
        "leaves",
        "misclassifications",
        {"max_depth": 3, "depth2": True},
    ),
]
#: Room for every point, work for everything: the one call the replays must end as.
ONE_CALL = (1 << 60, 1 << 20)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_kernels_resumed_in_tiny_steps_end_as_one_call(case):
    """Tiny budgets and pools: every BUDGET_SPENT and MUST_GROW return, and at the end the
    pool (every subproblem's reference, points and tags) and the counters of one call."""
    make, x, y, kw = CASES[case]
    calls = recorded(make(), x, y, **dict(kw))
    assert calls
    for name, call in calls.items():
        one = replay(name, call, *ONE_CALL, dag_mod.NO_LIMIT)
        assert [s for s, _, _ in one[0]] == [fk.DONE], name
        for budget, room in ((1, 0), (7, 3), (200, 50), *((b, 5) for b in range(2, 40, 3))):
            trace, pool = replay(name, call, budget, room, dag_mod.NO_LIMIT)
            statuses = {s for s, _, _ in trace}
            if budget == 1:
                assert fk.BUDGET_SPENT in statuses and fk.MUST_GROW in statuses, name
            assert trace[-1][0] == fk.DONE and trace[-1][1] == one[0][-1][1], (name, budget)
            assert pool == one[1], (name, budget, room)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_kernels_refuse_memory_with_what_they_wanted(case):
    """Allowances from nothing to plenty: OUT_OF_MEMORY with more bytes wanted than
    allowed (the same on a second try), or the pool of one call; never a pool of
    garbage, and once an allowance suffices every larger one does."""
    make, x, y, kw = CASES[case]
    calls = recorded(make(), x, y, **dict(kw))
    for name, call in calls.items():
        one = replay(name, call, *ONE_CALL, dag_mod.NO_LIMIT)
        seen = []
        for allow in [0, 64, 6_400, 7_000, 9_000, 12_000, 20_000, 40_000, 80_000, 200_000, 10**6]:
            trace, pool = replay(name, call, 1_000, 10, allow)
            status, _, needs = trace[-1]
            if status == fk.OUT_OF_MEMORY:
                assert needs[0] > allow, (name, allow)
                assert replay(name, call, 1_000, 10, allow) == (trace, pool)
            else:
                assert status == fk.DONE and pool == one[1], (name, allow)
            seen.append(status)
        assert seen[0] == fk.OUT_OF_MEMORY and seen[-1] == fk.DONE, name
        assert seen == sorted(seen, reverse=True), name  # DONE = 0 < OUT_OF_MEMORY


@pytest.mark.skipif(_core.hardware_threads() < 2, reason="needs 2 threads")
@pytest.mark.parametrize("case", range(len(CASES)))
def test_one_thread_equals_two(case):
    """The kernel calls replayed with the core's count set to 1 and to 2 (what it was in
    the call checked): the same trace and pool."""
    make, x, y, kw = CASES[case]
    calls = recorded(make(), x, y, **dict(kw))
    for name, call in calls.items():
        out = []
        for n in (1, 2):
            before = _core.set_threads(n)
            try:
                assert _core.get_threads() == n
                out.append(replay(name, call, 1_000, 10, dag_mod.NO_LIMIT))
            finally:
                _core.set_threads(before)
        assert out[0] == out[1], name


@pytest.mark.skipif(_core.hardware_threads() < 2, reason="needs 2 threads")
@pytest.mark.parametrize("depth", [None, 4])
def test_one_thread_equals_two_through_the_driver(monkeypatch, depth):
    """Uncapped, chunks big enough to run on two threads; capped, the depth-two batches:
    the same store, every kernel call having had the count asked for."""
    t = random_table(12, 300, 2, 2, 7, structured=True)
    got = []
    for n in ("1", "2"):
        monkeypatch.setenv("DAGGER_THREADS", n)
        threads.CALLS.clear()
        got.append(relate(t, "total-path-length", "misclassifications", max_depth=depth).store)
        assert set(threads.CALLS) == {int(n)}
    a, b = got
    for name in ("fref", "fxy", "fch"):
        u, v = getattr(a, name), getattr(b, name)
        assert u.dtype == v.dtype and np.array_equal(u, v), name
    assert (a.sub_start is None) == (b.sub_start is None) == (depth is None)
    if depth is not None:
        assert np.array_equal(a.sub_start, b.sub_start) and a.depth_two == b.depth_two


# ------------------------------------------------------------------ the rest
def _splittable(level, size, limits) -> list[bool]:
    """The formula of :func:`fk.splittable`'s docstring: for each bounded cost, its bound
    less the node's split and its ``level`` ancestors' (each at least split_const +
    split_rows * n) still reaches a leaf's least cost."""
    out = []
    for lvl, n in zip(level.tolist(), size.tolist()):
        ok = True
        for o in (0, 4):
            bound, sc, sr, leaf = (int(v) for v in limits[o : o + 4])
            if bound != INF and bound - (lvl + 1) * (sc + sr * n) < leaf:
                ok = False
        out.append(ok)
    return out


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(1, 500)), min_size=0, max_size=30),
    st.sampled_from([None, 0, 5, 50, 400]),
    st.sampled_from([None, 0, 3, 30]),
    st.sampled_from(list(ROW_COSTS)),
    st.sampled_from(list(ROW_COSTS)),
)
def test_splittable_is_its_formula(nodes, max_x, max_y, x, y):
    level = np.array([a for a, _ in nodes], np.int32)
    size = np.array([b for _, b in nodes], np.int32)
    limits = _limits(COSTS[x], COSTS[y], max_x, max_y)
    got = fk.splittable(level, size, limits)
    assert got.dtype == np.bool_ and got.tolist() == _splittable(level, size, limits)


def test_a_wrong_dtype_is_refused_not_misread():
    t = random_table(5, 40, 2, 2, 1)
    calls = recorded(t, "depth", "misclassifications")
    (order, dag, params, pool, m, allow, budget), _ = calls["fronts"]
    with pytest.raises(TypeError):
        fk.fronts(order._replace(r=order.r.astype(np.int32)), dag, params, pool, m, allow, budget)
    with pytest.raises(TypeError):
        fk.fronts(order, dag, params.astype(np.int32), pool, m, allow, budget)
