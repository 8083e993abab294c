"""The ordered solver's compiled kernels (``core/ordered.cpp``) against the numba kernels
they replace (``tests/numba_oracle/kernels/ordered.py``): the same fronts, trees and
counters end to end through the driver, the same values, choices, counters and memo
entries call by call; the memory budget's accounting (exact and deterministic), and the
root steps' answer with one thread, two, and two that run out of their share of memory."""

from __future__ import annotations

import numba_oracle.ordered as oracle
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import ordered, relate
from dagger_cli.engine.kernels import ordered as k
from dagger_cli.errors import LimitError
from dagger_cli.trees import extract_tree
from tests.oracle import COST_PAIRS

MIS = "misclassifications"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def numeric_frames(draw, max_rows=24, max_value=8):
    """Few rows; 1-4 numeric columns (few distinct values: thresholds are few and rows
    collide) and 0-3 nominal ones; 2-4 classes."""
    n = draw(st.integers(2, max_rows))
    k_num = draw(st.integers(1, 4))
    k_nom = draw(st.integers(0, 3))
    ints = st.integers(0, max_value)
    data = {}
    for j in range(k_num):
        data[f"x{j}"] = [v / 2 for v in draw(st.lists(ints, min_size=n, max_size=n))]
    for j in range(k_nom):
        pool = "abcd"[: draw(st.integers(1, 4))]
        data[f"c{j}"] = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    classes = "pqrs"[: draw(st.integers(2, 4))]
    data["d"] = draw(st.lists(st.sampled_from(classes), min_size=n, max_size=n))
    return pd.DataFrame(data)


def _table(df, spec="all", duplicates="keep"):
    return DecisionTable.from_dataframe(df, thresholds=spec, duplicates=duplicates)


def _answer(table, x, y, **options):
    """The front, the tree behind every point and the solver's counters."""
    rel = relate(table, x, y, **options)
    assert rel.engine == "ordered"
    trees = [extract_tree(rel, i).to_text() for i in range(len(rel.front))]
    return rel.front.points(), trees, rel.stats.as_dict()


def _by_numba(mp):
    for name in oracle.PATCHES:
        mp.setattr(k, name, getattr(oracle, name))


@SETTINGS
@given(
    numeric_frames(),
    st.sampled_from(COST_PAIRS),
    st.integers(1, 4),
    st.sampled_from(["all", 1, 2, 3]),
    st.sampled_from(["keep", "merge"]),
    st.sampled_from([0, 2, 64]),
    st.data(),
)
def test_the_compiled_solver_equals_numbas(df, pair, depth, spec, dup, counts_max, data):
    """Fronts, trees and counters (subtables solved, splits evaluated and pruned) of the
    compiled kernels and numba's, for every cost pair, depth caps 1-4, with and without
    bounds, the depth-two trees from counts or by passes."""
    table = _table(df, spec, dup)
    if not table.ordered:
        return
    x, y = pair
    options = {"max_depth": depth}
    bound = data.draw(st.sampled_from([None, "max_x", "max_y", "least_y"]))
    if bound == "least_y":
        options["least_y"] = True
    elif bound is not None:
        options[bound] = data.draw(st.integers(0, 3 * table.n_rows))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ordered, "COUNTS_MAX_CODES", counts_max)
        got = _answer(table, x, y, **options)
        _by_numba(mp)
        old = _answer(table, x, y, **options)
    assert got == old


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(-3, 12), st.integers(0, 8)), max_size=12),
    st.lists(st.tuples(st.integers(-3, 12), st.integers(0, 8)), max_size=12),
    st.booleans(),
    st.sampled_from([1, 2, 5, 4000]),
    st.booleans(),
)
def test_the_front_algebra_equals_numbas(a, b, comb, spread, stair):
    """pareto, combine (by a table of x or by sorting) and merge (one pass or sorting)
    against numba's, point for point with provenance."""
    from numba_oracle.kernels import ordered as old

    def arr(values):
        return np.array(values, dtype=np.int64)

    if stair:  # a staircase (the merge's one-pass case)
        a = sorted({x: y for x, y in sorted(a, reverse=True)}.items())
        a = [p for i, p in enumerate(a) if all(p[1] < q[1] for q in a[:i])]
    ax, ay = arr([p[0] for p in a]), arr([p[1] for p in a])
    bx, by = arr([p[0] * spread for p in b]), arr([p[1] for p in b])
    tags = [arr(range(ax.size)), arr(range(7, 7 + ax.size)), arr(range(ax.size))[::-1].copy()]
    same = [g.tolist() for g in k._pareto(ax, ay, *tags, ax.size)]
    assert same == [w.tolist() for w in old._pareto(ax, ay, *tags, ax.size)]
    if ax.size and bx.size:
        got = k._combine(ax, ay, bx, by, int(comb))
        want = old._combine(ax, ay, bx, by, int(comb))
        assert [g.tolist() for g in got] == [w.tolist() for w in want]
    got = k._merge(ax, ay, *tags, bx, by, 1, 2, 3)
    assert [g.tolist() for g in got] == [
        w.tolist() for w in old._merge(ax, ay, *tags, bx, by, 1, 2, 3)
    ]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(numeric_frames(max_rows=40), st.sampled_from([1, 2, 3]), st.data())
def test_the_depth_two_pass_and_class_bounds_equal_numbas(df, leaves, data):
    """The depth-two pass (both sides, one side) at every threshold of every ordered
    attribute, and the class-count bounds, against numba's."""
    from numba_oracle.kernels import ordered as old

    table = _table(df)
    if not table.ordered:
        return
    arrays = ordered._Arrays(table, 2, None)
    m = arrays.load(None)
    cb, cls = old._packed(arrays.buf, 0, 0, m, arrays.codes, arrays.dec)
    assert [a.tolist() for a in k._packed(arrays.buf, 0, 0, m, arrays.codes, arrays.dec)] == [
        cb.tolist(),
        cls.tolist(),
    ]
    sa, sa_old = np.empty_like(cb), np.empty_like(cb)
    for a in np.flatnonzero(arrays.kinds == 1):
        k._root_codes(arrays.buf, 0, 0, m, arrays.codes, a, sa)
        old._root_codes(arrays.buf, 0, 0, m, arrays.codes, a, sa_old)
        assert sa.tolist() == sa_old.tolist()
        lst = arrays.buf[0, a, :m].astype(np.int64)
        pos = np.flatnonzero(np.diff(arrays.codes[a][lst])) + 1
        total = np.bincount(arrays.dec, minlength=arrays.C).astype(np.int64)
        dec = arrays.dec.astype(np.int64)
        K = pos.size
        got = k._class_bounds(lst, dec, arrays.C, total, pos, K, leaves)
        assert got.tolist() == old._class_bounds(lst, dec, arrays.C, total, pos, K, leaves).tolist()
        for t in np.unique(arrays.codes[a])[:-1]:
            left = arrays.codes[a] <= t
            totL = np.bincount(arrays.dec[left], minlength=arrays.C).astype(np.int64)
            totR = np.bincount(arrays.dec[~left], minlength=arrays.C).astype(np.int64)
            for which in (k.BOTH, k.LEFT, k.RIGHT):
                args = (cb, cls, sa, t, arrays.kinds, arrays.C, int(left.sum()), totL, totR, which)
                assert k._sides_d1p(*args) == tuple(int(v) for v in old._sides_d1p(*args))


@pytest.mark.parametrize(
    "numeric, nominal, classes",
    [(11, 0, 2), (9, 2, 2), (17, 1, 2), (10, 1, 3), (9, 0, 5), (12, 1, 7), (9, 1, 8), (4, 1, 9)],
)
def test_the_pass_over_many_attributes_equals_numbas(numeric, nominal, classes):
    """Up to 8 classes the pass walks the ordered attributes several at a time (blocks of
    lanes, the last one padded; two classes by the class difference, more by the rows per
    class), 9 classes and more row by row: against numba's pass at every threshold of the
    roots."""
    from numba_oracle.kernels import ordered as old

    rng = np.random.default_rng(numeric * classes)
    n = 90
    df = pd.DataFrame({f"x{j}": rng.integers(0, 12 + 5 * j, n) for j in range(numeric)})
    for j in range(nominal):
        df[f"c{j}"] = rng.choice(list("abc"), n)
    rule = (df.x0 + rng.integers(0, 8, n) + df.x1 % 9) % classes
    df["d"] = [f"k{v}" for v in np.where(rng.random(n) < 0.2, rng.integers(0, classes, n), rule)]
    table = _table(df)
    assert len(table.decision_values) == classes
    arrays = ordered._Arrays(table, 2, None)
    m = arrays.load(None)
    cb, cls = old._packed(arrays.buf, 0, 0, m, arrays.codes, arrays.dec)
    sa = np.empty_like(cb)
    checked = 0
    for a in np.flatnonzero(arrays.kinds == 1)[:4]:
        old._root_codes(arrays.buf, 0, 0, m, arrays.codes, a, sa)
        for t in np.unique(arrays.codes[a])[:-1]:
            left = arrays.codes[a] <= t
            totL = np.bincount(arrays.dec[left], minlength=classes).astype(np.int64)
            totR = np.bincount(arrays.dec[~left], minlength=classes).astype(np.int64)
            for which in (k.BOTH, k.LEFT, k.RIGHT):
                args = (cb, cls, sa, t, arrays.kinds, classes, int(left.sum()), totL, totR, which)
                assert k._sides_d1p(*args) == tuple(int(v) for v in old._sides_d1p(*args))
                checked += 1
    assert checked > 100


def _random_table(seed, n=150, numeric=3, nominal=1, classes=3):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"a{j}": rng.integers(0, 25, n) for j in range(numeric)})
    for j in range(nominal):
        df[f"c{j}"] = rng.choice(list("xyz"), n)
    df["d"] = np.where(df.a0 + rng.integers(0, 10, n) > df.a1, "p", "q")
    if classes > 2:
        df.loc[rng.choice(n, n // 4, replace=False), "d"] = "r"
    return _table(df)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_medium_tables_equal_numbas(seed):
    """Tables of a few hundred rows (the bounds that rarely bite on small ones: a
    neighbour's points moved by the rows in between): the same fronts, trees and
    counters."""
    rng = np.random.default_rng(seed)
    n = 240
    df = pd.DataFrame({f"x{j}": rng.normal(size=n).round(2) for j in range(3)})
    score = df.x0 - 0.8 * df.x1 * (df.x2 > 0) + rng.normal(scale=0.4, size=n)
    df["d"] = np.select([score < -0.5, score > 0.6], ["lo", "hi"], "mid")
    table = _table(df)
    for x in ("total-path-length", "depth"):
        got = _answer(table, x, MIS, max_depth=3)
        with pytest.MonkeyPatch.context() as mp:
            _by_numba(mp)
            assert _answer(table, x, MIS, max_depth=3) == got, x


def _memo_items(memo):
    """The numba memo's entries."""
    return {key: (int(v), bool(e)) for key, (v, e) in memo.items()}


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("counts_max", [0, 64])
def test_best_call_by_call_equals_numbas(seed, counts_max):
    """Every depth and bound (exact answers and lower bounds) on one memo each: the same
    value, exactness, choice, counters after every call, and memo entries."""
    table = _random_table(seed)
    arrays = ordered._Arrays(table, 4, None)
    arrays.nv[-1] = counts_max
    name = arrays.name(None)
    new, old = k.new_memo(), oracle.new_memo()
    s_new, s_old = np.zeros(k.N_STATS, np.int64), np.zeros(k.N_STATS, np.int64)
    usage = np.zeros(k.N_USAGE, np.int64)
    leaf = table.n_rows - np.bincount(table.decisions).max()
    calls = 0
    for depth in (1, 2, 3, 4, 2, 3):
        for ub in (leaf, leaf // 2, leaf // 4, 3, 1, leaf + 5):
            m = arrays.load(None)
            c_new, c_old = np.zeros(3, np.int64), np.zeros(3, np.int64)
            limits = k.BestLimits(depth, int(ub))
            args = (arrays.table, arrays.work, m, limits, name)
            got = k.best(*args, new, s_new, c_new, -1, usage)
            want = oracle.best(*args, old, s_old, c_old, -1, usage)
            assert got == want, (depth, ub)
            assert c_new.tolist() == c_old.tolist() and s_new.tolist() == s_old.tolist()
            calls += 1
    assert len(new) == len(old) > 10
    for (h1, h2, r), value in _memo_items(old).items():
        assert new.get(h1, h2, r) == value
    assert calls == 36


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize("x", ["total-path-length", "nodes", "leaves"])
def test_fronts_call_by_call_equal_numbas(seed, x):
    """Whole fronts at depths 0-3 under boxes (none, max x, max y, both) and at depth 4
    under one, and the root
    steps' calls (one attribute from a working front with provenance): the same points and
    provenance, and counters."""
    from dagger_cli.costs import COSTS

    table = _random_table(seed, n=90, nominal=1 + seed % 2)
    arrays = ordered._Arrays(table, 4, None)
    px = ordered._params(COSTS[x])
    s_new, s_old = np.zeros(k.N_STATS, np.int64), np.zeros(k.N_STATS, np.int64)
    usage = np.zeros(k.N_USAGE, np.int64)
    full = None
    boxes = ((None, None), (None, 20), (300, None), (250, 25))
    for depth, box in [(d, b) for d in range(4) for b in boxes] + [(4, boxes[-1])]:
        m = arrays.load(None)
        limits = k.FrontLimits(depth, ordered._box(*box))
        args = (arrays.table, arrays.work, m, limits, px, ordered._ALL)
        got = k.fronts(*args, s_new, -1, usage)
        want = oracle.fronts(*args, s_old, -1, usage)
        assert [a.tolist() for a in got[1]] == [a.tolist() for a in want[1]], (depth, box)
        assert s_new.tolist() == s_old.tolist()
        if box == (None, None) and depth == 2:
            full = got[1]
    # root steps: each attribute from the depth-2 front as a working front
    assert full is not None and full.x.size > 2
    work = k.working_front(ordered._box(None, None), full)
    assert [a.tolist() for a in work] == [
        a.tolist() for a in oracle.working_front(ordered._box(None, None), full)
    ]
    order = k.hint_order(arrays.table, arrays.work, arrays.load(None))
    assert (
        order.tolist() == oracle.hint_order(arrays.table, arrays.work, arrays.load(None)).tolist()
    )
    for a in order:
        m = arrays.load(None)
        attrs = np.full(1, a, np.int64)
        args = (arrays.table, arrays.work, m, k.FrontLimits(3, work), px, attrs)
        got = k.fronts(*args, s_new, -1, usage)[1]
        want = oracle.fronts(*args, s_old, -1, usage)[1]
        assert [g.tolist() for g in got] == [w.tolist() for w in want], a
        assert s_new.tolist() == s_old.tolist()
        nxt = k.merged(work, got)
        assert [g.tolist() for g in nxt] == [w.tolist() for w in oracle.merged(work, want)]
        work = nxt


def test_an_aborted_search_returns_as_numbas():
    """The abort flag set (Ctrl-C): both kernels stop at once with the same (not kept)
    result and counters."""
    table = _random_table(6)
    arrays = ordered._Arrays(table, 3, None)
    for kernel in (k, oracle):
        stats = np.zeros(k.N_STATS, np.int64)
        stats[k.S_ABORT] = 1
        memo = kernel.new_memo()
        m = arrays.load(None)
        got = kernel.best(
            arrays.table,
            arrays.work,
            m,
            k.BestLimits(3, 40),
            arrays.name(None),
            memo,
            stats,
            np.zeros(3, np.int64),
            -1,
            np.zeros(k.N_USAGE, np.int64),
        )
        assert got == (k.DONE, 40, False) and len(memo) == 0
        assert stats.tolist() == [1, 0, 0, 1]


def _best_call(arrays, memo, budget, depth=3):
    usage = np.zeros(k.N_USAGE, np.int64)
    stats = np.zeros(k.N_STATS, np.int64)
    choice = np.zeros(3, np.int64)
    m = arrays.load(None)
    limits = k.BestLimits(depth, 10**6)
    res = k.best(arrays.table, arrays.work, m, limits, arrays.name(None), memo, stats, choice,
                 budget, usage)  # fmt: skip
    return res, usage, stats.tolist(), choice.tolist()


def _fronts_call(arrays, budget, depth=3):
    from dagger_cli.costs import COSTS

    usage = np.zeros(k.N_USAGE, np.int64)
    stats = np.zeros(k.N_STATS, np.int64)
    m = arrays.load(None)
    limits = k.FrontLimits(depth, ordered._box(None, None))
    px = ordered._params(COSTS["total-path-length"])
    status, pts = k.fronts(arrays.table, arrays.work, m, limits, px, ordered._ALL, stats,
                           budget, usage)  # fmt: skip
    return status, [a.tolist() for a in pts], usage, stats.tolist()


def test_the_budget_counts_every_byte_the_same_way_each_time():
    """A call's peak is the same on every run; a budget of exactly that peak suffices and
    gives the same answer, one byte less stops the call (OUT_OF_MEMORY) with more than the
    budget asked; the memo's bytes count in the budget of every call that uses it."""
    arrays = ordered._Arrays(_random_table(7, n=300), 3, None)
    res, usage, stats, choice = _best_call(arrays, k.new_memo(), -1)
    peak = int(usage[k.U_PEAK])
    memo_bytes = int(usage[k.U_MEMO_BYTES])
    assert res[0] == k.DONE and usage[k.U_MEMO_SIZE] > 0 and 0 < memo_bytes < peak
    assert _best_call(arrays, k.new_memo(), -1)[1][k.U_PEAK] == peak
    again = _best_call(arrays, k.new_memo(), peak)
    assert again[0] == res and again[2:] == (stats, choice)
    short = _best_call(arrays, k.new_memo(), peak - 1)
    assert short[0][0] == k.OUT_OF_MEMORY and short[1][k.U_ASKED] > peak - 1
    # a second call on the same memo starts with its bytes in use
    memo = k.new_memo()
    _best_call(arrays, memo, -1)
    assert memo.nbytes == memo_bytes
    assert _best_call(arrays, memo, memo_bytes - 1)[0][0] == k.OUT_OF_MEMORY
    assert _best_call(arrays, memo, -1)[1][k.U_PEAK] >= memo_bytes

    # what is freed is credited: a depth-3 search holds no more than the scratch bound
    assert peak <= arrays.scratch
    # the memo's growth is charged: at depth 4 it outgrows the scratch
    deep = ordered._Arrays(_many_thresholds(n=200, seed=1), 4, None)
    res, usage, _, _ = _best_call(deep, k.new_memo(), -1, depth=4)
    assert usage[k.U_MEMO_BYTES] > deep.scratch and usage[k.U_PEAK] >= usage[k.U_MEMO_BYTES]

    status, pts, usage, stats = _fronts_call(arrays, -1)
    peak = int(usage[k.U_PEAK])
    assert status == k.DONE and peak > 0 and usage[k.U_MEMO_BYTES] == 0
    assert _fronts_call(arrays, peak)[:2] == (status, pts)
    for budget in (0, 1000, peak // 2, peak - 1):
        short = _fronts_call(arrays, budget)
        assert short[0] == k.OUT_OF_MEMORY and short[2][k.U_ASKED] > budget


def _many_thresholds(n=300, numeric=3, seed=0):
    """A random numeric table (every value distinct: n - 1 thresholds per column)."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{j}": rng.normal(size=n).round(3) for j in range(numeric)})
    df["y"] = np.where(df.x0 + rng.normal(size=n) > 0, "p", "q")
    return _table(df)


def test_a_small_ceiling_stops_the_solver_with_a_limit_error():
    """--max-memory above the workspace but below what the search needs (at depth 4 the
    memo outgrows it): a LimitError that says what was needed and what to try, from the
    depth front and from the whole front."""
    table = _many_thresholds()
    need = ordered._Arrays(table, 4, None).need
    for x in ("depth", "total-path-length"):
        with pytest.raises(LimitError) as err:
            relate(table, x, MIS, max_depth=4, max_memory=need + 1024)
        text = str(err.value)
        assert "needs more than" in text and "(--max-memory)" in text and "asked for" in text
        assert "Try a lower --max-depth than 4" in text and "--thresholds K" in text


def _root_answer(table, monkeypatch, threads, max_memory=None):
    monkeypatch.setenv("DAGGER_THREADS", str(threads))
    return _answer(table, "total-path-length", MIS, max_depth=3, max_memory=max_memory)


def test_the_root_steps_answer_alike_on_one_thread_two_and_two_out_of_memory(monkeypatch):
    """The root steps (one kernel call per attribute, two at once in threads): the same
    front, trees and counters with one thread and two; and when two steps at once run out
    of their shares of the memory, each is run again alone, to the same answer."""
    from dagger_cli import _core

    table = _random_table(9, n=200, numeric=4, nominal=0)
    one = _root_answer(table, monkeypatch, 1)
    assert len(one[0]) >= 4
    if _core.hardware_threads() >= 2:
        assert _root_answer(table, monkeypatch, 2) == one
    statuses = []
    real = k.fronts

    def counted(*args):
        res = real(*args)
        if args[5].size:  # a root step
            statuses.append(int(res[0]))
        return res

    budget = ordered._Arrays.budget

    def tight(self, slots=1):  # two at once: too little each
        return 2000 if slots > 1 else budget(self, slots)

    monkeypatch.setattr(k, "fronts", counted)
    monkeypatch.setattr(ordered._Arrays, "budget", tight)
    monkeypatch.setattr(_core, "get_threads", lambda: 2)
    assert _root_answer(table, monkeypatch, 2, max_memory=1 << 30) == one
    assert k.OUT_OF_MEMORY in statuses and statuses.count(k.DONE) == 4  # once each, alone


def test_the_kernels_refuse_a_wrong_dtype():
    table = _random_table(10, n=30)
    arrays = ordered._Arrays(table, 2, None)
    wrong = k.OrderedTable(arrays.codes.astype(np.int64), *arrays.table[1:])
    with pytest.raises(TypeError):
        k.best(wrong, arrays.work, 30, k.BestLimits(2, 5), (0, 0), k.new_memo(),
               np.zeros(4, np.int64), np.zeros(3, np.int64), -1, np.zeros(4, np.int64))  # fmt: skip
