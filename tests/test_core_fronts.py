"""The compiled fronts kernels (``core/fronts.cpp``, ``core/depth_two.cpp``,
``core/front_store.hpp``) against the numba kernels they replace
(``tests/numba_oracle/kernels/fronts.py``, ``depth_two.py``): end to end through the
driver (the whole :class:`FrontStore`, every subproblem's front with its tags, not only
the root's), and kernel call by kernel call with tiny budgets, pools and memory
allowances (every status, counter, need and pool array after every call)."""

from __future__ import annotations

import contextlib

import numba_oracle.fronts as orc
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from strategies import tables

from dagger_cli import _core
from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import build_dag, compute_fronts, relate
from dagger_cli.engine import dag as dag_mod
from dagger_cli.engine.dag import _limits
from dagger_cli.engine.kernels import depth_two as d2
from dagger_cli.engine.kernels import fronts as fk
from dagger_cli.errors import DaggerError
from tests.oracle import COST_PAIRS
from tests.test_depth_two import random_tables
from tests.test_fast_engine import random_table
from tests.test_many_values import identifier_table

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INF = np.iinfo(np.int64).max
SUM_Y = [y for y, c in COSTS.items() if c.combine != 1]


@contextlib.contextmanager
def numba_kernels():
    """The driver with numba's kernels (the compiled ones' arguments, by the adapters)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(fk, "fronts", orc.fronts)
        mp.setattr(fk, "splittable", orc.splittable)
        mp.setattr(d2, "d2_fronts", orc.d2_fronts)
        yield


def same_store(a, b):
    """Every subproblem's front, point by point, tags included."""
    for name in ("fref", "fxy", "fch"):
        u, v = getattr(a, name), getattr(b, name)
        assert u.dtype == v.dtype and u.shape == v.shape, name
        assert np.array_equal(u, v), name
    assert (a.sub_start is None) == (b.sub_start is None)
    if a.sub_start is not None:
        assert np.array_equal(a.sub_start, b.sub_start)
    assert a.depth_two == b.depth_two


def outcome(run):
    """A run's store, or the error it raised (both kernels must fail alike)."""
    try:
        return run()
    except DaggerError as err:
        return f"{type(err).__name__}: {err}"


def check_relate(t, x, y, **options):
    new = outcome(lambda: relate(t, x, y, **options))
    with numba_kernels():
        old = outcome(lambda: relate(t, x, y, **options))
    if isinstance(new, str) or isinstance(old, str):
        assert new == old
        return None
    assert new.front.points() == old.front.points()
    same_store(new.store, old.store)
    return new


def any_tables():
    small = tables(max_rows=10, max_attributes=4, max_values=3).map(
        lambda t: DecisionTable.from_rows(list(t.rows), list(t.decisions), duplicates="keep")
    )
    return st.one_of(small, random_tables(True), random_tables(False))


def bounds_for(data, t, x, y, depth, kind):
    """max_x / max_y at points of the unbounded front (or off it by one), least_y."""
    if kind == "none":
        return {}
    if kind == "least_y":
        return {"least_y": True}
    pts = relate(t, x, y, max_depth=depth).front.points()
    k = data.draw(st.integers(0, len(pts) - 1))
    shift = data.draw(st.sampled_from([0, 0, -1, 1]))
    out = {}
    if kind in ("max_x", "both"):
        out["max_x"] = max(pts[k][0] + shift, 0)
    if kind in ("max_y", "both"):
        j = data.draw(st.integers(0, len(pts) - 1))
        out["max_y"] = max(pts[j][1] + shift, 0)
    return out


@SETTINGS
@given(
    data=st.data(),
    pair=st.sampled_from(COST_PAIRS),
    depth=st.sampled_from([None, None, 1, 2, 3, 4]),
    depth_two=st.sampled_from([True, False, "auto"]),
    exact_only=st.booleans(),
    kind=st.sampled_from(["none", "none", "max_x", "max_y", "both", "least_y"]),
)
def test_the_fronts_kernels_equal_numbas_end_to_end(data, pair, depth, depth_two, exact_only, kind):
    """relate with every option the kernels read: the same front and the same store."""
    t = data.draw(any_tables())
    x, y = pair
    options = bounds_for(data, t, x, y, depth, kind)
    check_relate(t, x, y, max_depth=depth, depth_two=depth_two, exact_only=exact_only, **options)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    x=st.sampled_from(list(COSTS)),
    y=st.sampled_from(SUM_Y),
    depth=st.sampled_from([None, 2, 3]),
    depth_two=st.booleans(),
    exact_only=st.booleans(),
)
def test_bounds_the_query_never_pushes_together_equal_numbas(
    data, x, y, depth, depth_two, exact_only
):
    """compute_fronts with least_y under a bound on x (and max_y): what relate does not
    push, the kernels still compute alike."""
    if x == y:
        return
    t = data.draw(random_tables(data.draw(st.booleans())))
    pts = relate(t, x, y, max_depth=depth).front.points()
    max_x = pts[data.draw(st.integers(0, len(pts) - 1))][0]
    max_y = data.draw(st.sampled_from([None, pts[0][1]]))
    cx, cy = COSTS[x], COSTS[y]
    dag = build_dag(
        t,
        max_depth=depth,
        depth2=depth_two and not exact_only,
        limits=_limits(cx, cy, max_x, max_y),
    )
    kw = dict(exact_only=exact_only, max_x=max_x, max_y=max_y, least_y=True)
    new = compute_fronts(dag, cx, cy, **kw)
    with numba_kernels():
        old = compute_fronts(dag, cx, cy, **kw)
    same_store(new, old)


@pytest.mark.parametrize("binary", [True, False], ids=["binary", "generic"])
@pytest.mark.parametrize(
    "x,y",
    [
        ("depth", "misclassifications"),
        ("total-path-length", "misclassifications"),
        ("misclassifications", "leaves"),
    ],
)
def test_bounds_at_every_point_equal_numbas(binary, x, y):
    """max_x or max_y at each point of the front, with and without least_y, under a cap
    with the depth-two layer (its fronts trimmed to the allowances) and without one."""
    t = random_table(8, 120, 2 if binary else 3, 2 if binary else 3, 3, structured=True)
    cx, cy = COSTS[x], COSTS[y]
    for depth in (None, 2, 3):
        pts = relate(t, x, y, max_depth=depth).front.points()
        for px, py in pts:
            for max_x, max_y in ((px, None), (None, py)):
                dag = build_dag(
                    t,
                    max_depth=depth,
                    depth2=depth is not None,
                    limits=_limits(cx, cy, max_x, max_y),
                )
                for least in (False, True):
                    kw = dict(max_x=max_x, max_y=max_y, least_y=least)
                    new = compute_fronts(dag, cx, cy, **kw)
                    with numba_kernels():
                        old = compute_fronts(dag, cx, cy, **kw)
                    same_store(new, old)


def test_long_runs_of_one_class_and_value_equal_numbas():
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
    for depth in (2, 3):
        for x in ("depth", "total-path-length"):
            check_relate(t, x, "misclassifications", max_depth=depth)


WIDE = [
    # m, n, values, decisions, seed: several words of bitsets, many pieces and chunks
    (12, 300, 2, 2, 7),
    (9, 200, 3, 3, 8),
    (10, 250, 2, 4, 9),
    (14, 500, 2, 2, 10),
]


@pytest.mark.parametrize("m,n,values,decisions,seed", WIDE)
@pytest.mark.parametrize("depth", [None, 2, 3, 4])
def test_wider_tables_equal_numbas(m, n, values, decisions, seed, depth):
    t = random_table(m, n, values, decisions, seed, structured=True)
    pairs = [
        ("total-path-length", "misclassifications"),
        ("depth", "misclassifications"),
        ("misclassifications", "nodes"),
        ("leaves", "total-path-length"),
    ]
    for x, y in pairs if depth is not None else pairs[:2]:
        for depth_two in (True, False) if depth is not None else (False,):
            check_relate(t, x, y, max_depth=depth, depth_two=depth_two)


@pytest.mark.parametrize("fine", [False, True])
@pytest.mark.parametrize("many", [1, 3, 12])
@pytest.mark.parametrize("n", [240, 3000])
def test_many_valued_attributes_equal_numbas(fine, many, n):
    """Large attributes row by row, the sorted present values (more values than rows
    plus 4096 in all), codes of more than 256 values (int32)."""
    t = identifier_table(n, seed=n % 7, fine=fine)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dag_mod, "D2_MANY_VALUES", many)
        for x, y in (("total-path-length", "misclassifications"), ("misclassifications", "nodes")):
            for depth in (2, 3):
                check_relate(t, x, y, max_depth=depth)


def test_more_values_than_rows_plus_4096_below_the_root():
    """Subtables of far fewer rows than an attribute has values: the small attributes'
    bitsets set through a map by value, not a table of every value."""
    t = identifier_table(6000, seed=3)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dag_mod, "D2_MANY_VALUES", 3)
        check_relate(t, "total-path-length", "misclassifications", max_depth=3)


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


def replay(kernel, name, call, budget, room, allow):
    """Run a kernel from the recorded state to the end as the driver does, with ``budget``,
    a pool of ``room`` spare points and ``allow`` bytes a piece: every call's status,
    counters and needs, then the pool."""
    args, (fref, fxy, fch, counters, _) = call
    used = int(counters[1])
    fref, counters = fref.copy(), counters.copy()
    fxy, fch = fxy[: 2 * (used + room)].copy(), fch[: used + room].copy()
    trace = []
    for _ in range(100_000):
        needs = np.zeros(1, np.int64)
        pool = fk.FrontPool(fref.reshape(-1), fxy, fch, counters, needs)
        if name == "fronts":
            order, dag, params, _, m, _, _ = args
            status = kernel(order, dag, params, pool, m, allow, budget)
        else:
            entries, table, dag, params, _, m, many, _, _ = args
            status = kernel(entries, table, dag, params, pool, m, many, allow, budget)
        trace.append((int(status), counters.tolist(), needs.tolist()))
        if status == fk.MUST_GROW:
            need = int(needs[0])
            fxy = np.concatenate([fxy, np.zeros(2 * (need - fch.size), np.int64)])
            fch = np.concatenate([fch, np.zeros(need - fch.size, np.int32)])
        elif status != fk.BUDGET_SPENT:
            break
    u = int(counters[1])
    return trace, fref.tolist(), fxy[: 2 * u].tolist(), fch[:u].tolist()


KERNELS = {"fronts": (fk.fronts, orc.fronts), "d2": (d2.d2_fronts, orc.d2_fronts)}

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


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_kernels_resume_as_numbas(case):
    """Tiny budgets and pools: every BUDGET_SPENT and MUST_GROW return leaves the same
    state (status, counters, needs) and the same pool as numba's."""
    make, x, y, kw = CASES[case]
    calls = recorded(make(), x, y, **dict(kw))
    assert calls
    for name, call in calls.items():
        new_k, old_k = KERNELS[name]
        for budget, room in ((1, 0), (7, 3), (200, 50), *((b, 5) for b in range(2, 40, 3))):
            new = replay(new_k, name, call, budget, room, dag_mod.NO_LIMIT)
            old = replay(old_k, name, call, budget, room, dag_mod.NO_LIMIT)
            statuses = {s for s, _, _ in new[0]}
            if budget == 1:
                assert fk.BUDGET_SPENT in statuses and fk.MUST_GROW in statuses, name
            assert new == old, (name, budget, room)


@pytest.mark.parametrize("case", range(len(CASES)))
def test_the_kernels_refuse_memory_as_numbas(case):
    """Allowances from nothing to plenty: the same OUT_OF_MEMORY returns with the same
    bytes wanted, or the same fronts."""
    make, x, y, kw = CASES[case]
    calls = recorded(make(), x, y, **dict(kw))
    for name, call in calls.items():
        new_k, old_k = KERNELS[name]
        seen = set()
        for allow in [0, 64, 6_400, 7_000, 9_000, 12_000, 20_000, 40_000, 80_000, 200_000, 10**6]:
            new = replay(new_k, name, call, 1_000, 10, allow)
            old = replay(old_k, name, call, 1_000, 10, allow)
            assert new == old, (name, allow)
            seen.add(new[0][-1][0])
        assert fk.OUT_OF_MEMORY in seen, name


@pytest.mark.parametrize("case", range(len(CASES)))
def test_one_thread_equals_two(case):
    make, x, y, kw = CASES[case]
    calls = recorded(make(), x, y, **dict(kw))
    for name, call in calls.items():
        kernel = KERNELS[name][0]
        out = []
        for n in (1, 2):
            before = _core.set_threads(n)
            try:
                out.append(replay(kernel, name, call, 1_000, 10, dag_mod.NO_LIMIT))
            finally:
                _core.set_threads(before)
        assert out[0] == out[1], name


@pytest.mark.parametrize("depth", [None, 4])
def test_one_thread_equals_two_through_the_driver(monkeypatch, depth):
    """Uncapped, chunks big enough to run on two threads; capped, the depth-two batches."""
    t = random_table(12, 300, 2, 2, 7, structured=True)
    got = []
    for n in ("1", "2"):
        monkeypatch.setenv("DAGGER_THREADS", n)
        got.append(relate(t, "total-path-length", "misclassifications", max_depth=depth).store)
    same_store(*got)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 6), st.integers(1, 500)), min_size=0, max_size=30),
    st.sampled_from([None, 0, 5, 50, 400]),
    st.sampled_from([None, 0, 3, 30]),
    st.sampled_from(list(COSTS)),
    st.sampled_from(list(COSTS)),
)
def test_splittable_equals_numbas(nodes, max_x, max_y, x, y):
    level = np.array([a for a, _ in nodes], np.int32)
    size = np.array([b for _, b in nodes], np.int32)
    limits = _limits(COSTS[x], COSTS[y], max_x, max_y)
    new = fk.splittable(level, size, limits)
    old = orc.splittable(level, size, limits)
    assert new.dtype == old.dtype == np.bool_
    assert np.array_equal(new, old)


def test_a_wrong_dtype_is_refused_not_misread():
    t = random_table(5, 40, 2, 2, 1)
    calls = recorded(t, "depth", "misclassifications")
    (order, dag, params, pool, m, allow, budget), _ = calls["fronts"]
    with pytest.raises(TypeError):
        fk.fronts(order._replace(r=order.r.astype(np.int32)), dag, params, pool, m, allow, budget)
    with pytest.raises(TypeError):
        fk.fronts(order, dag, params.astype(np.int32), pool, m, allow, budget)
