"""The ordered solver's compiled kernels (``core/ordered.cpp``, ``core/ordered_*.hpp``) on
their own, against independent slow paths and invariants:

* bounds (max_x, max_y, least_y) and the depth-two trees from counts or by passes: the
  whole front restricted, every point's tree of that point's costs, the same counters on
  a second run;
* the Pareto filter against sorting by hand; the depth-two pass over many attributes and
  classes (the blocks of lanes) against a count per side (:func:`_best_split_errors`);
* :func:`best` call by call against the DAG engine on the binary expansion (its least
  misclassifications per depth), a memo shared by many calls answering as fresh ones;
  :func:`fronts` at depths 0-3 under boxes against the DAG engine's front restricted, and
  the root steps merged one attribute at a time against the whole front;
* an aborted search, the memory budget's accounting (exact and deterministic), a small
  ceiling's LimitError, one thread against two (and two really used) and two out of
  their share of memory, wrong dtypes.

The fronts without bounds against the brute force and the DAG engine:
tests/test_ordered.py."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dagger_cli import _core
from dagger_cli.costs import COSTS
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import ordered, relate, threads
from dagger_cli.engine.kernels import ordered as k
from dagger_cli.errors import LimitError
from dagger_cli.trees import extract_tree
from tests.test_ordered import _check_trees, check_the_pass_per_side

MIS = "misclassifications"
#: The pairs the ordered solver answers itself (the others go to the binary expansion).
PAIRS = [(x, MIS) for x in ("depth", "total-path-length", "nodes", "leaves")] + [
    (MIS, x) for x in ("depth", "total-path-length", "nodes", "leaves")
]
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


# ------------------------------------------------------------------ end to end
@SETTINGS
@given(
    numeric_frames(),
    st.sampled_from(PAIRS),
    st.integers(1, 4),
    st.sampled_from(["all", 1, 2, 3]),
    st.sampled_from(["keep", "merge"]),
    st.sampled_from([0, 2, 64]),
    st.data(),
)
def test_bounds_and_counts_restrict_the_same_front(df, pair, depth, spec, dup, counts_max, data):
    """Under max_x, max_y or least_y, the depth-two trees from counts (few codes) or by
    passes: the whole front (from counts) restricted, each point's tree of that point's
    costs, and the same answer when run again (and the same counters on one thread)."""
    table = _table(df, spec, dup)
    if not table.ordered:
        return
    x, y = pair
    whole = relate(table, x, y, max_depth=depth).front.points()
    options = {"max_depth": depth}
    bound = data.draw(st.sampled_from([None, "max_x", "max_y", "least_y"]))
    if bound == "least_y":
        options["least_y"] = True
        want = whole[-1:]
    elif bound is not None:
        limit = data.draw(st.integers(0, 3 * table.n_rows))
        options[bound] = limit
        want = [p for p in whole if p[0 if bound == "max_x" else 1] <= limit]
    else:
        want = whole
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ordered, "COUNTS_MAX_CODES", counts_max)
        rel = relate(table, x, y, **options)
        assert rel.engine == "ordered" and rel.front.points() == want
        _check_trees(rel, depth)
        first = _answer(table, x, y, **options)
        assert _answer(table, x, y, **options)[:2] == first[:2]
        # the counters too on one thread (on more, the depth search's pieces learn each
        # other's bounds when they happen to: see dagger_cli.engine.pieces)
        mp.setenv("DAGGER_THREADS", "1")
        assert _answer(table, x, y, **options) == _answer(table, x, y, **options)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_medium_tables_equal_the_dag_engine(seed):
    """Tables of a few hundred rows and every threshold (the bounds that rarely bite on
    small ones: a neighbour's points moved by the rows in between): the DAG engine's
    front on the binary expansion (526 0/1 columns), trees of the points' costs."""
    rng = np.random.default_rng(seed)
    n = 240
    df = pd.DataFrame({f"x{j}": rng.normal(size=n).round(2) for j in range(3)})
    score = df.x0 - 0.8 * df.x1 * (df.x2 > 0) + rng.normal(scale=0.4, size=n)
    df["d"] = np.select([score < -0.5, score > 0.6], ["lo", "hi"], "mid")
    table = _table(df)
    binary = table.binarized()
    for x in ("total-path-length", "depth") if seed == 0 else ("total-path-length",):
        rel = relate(table, x, MIS, max_depth=3)
        assert rel.engine == "ordered" and len(rel.front) > (2 if x == "depth" else 20)
        assert rel.front.points() == relate(binary, x, MIS, max_depth=3).front.points(), x
        _check_trees(rel, 3)


# ------------------------------------------------------------------ the parts
def _pareto_by_hand(xs, ys, tags):
    """Sort (stably) by x then y; keep a point when its y is below every kept one's."""
    out = []
    for i in sorted(range(len(xs)), key=lambda i: (xs[i], ys[i])):
        if not out or ys[i] < out[-1][1]:
            out.append((xs[i], ys[i], *(t[i] for t in tags)))
    return out


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 12), st.integers(0, 8)), max_size=14), st.data())
def test_pareto_keeps_the_first_of_equal_points(points, data):
    """The Pareto filter under every front operation: sorted by x, the first listed of
    equal points kept with its provenance; only the first n candidates read."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    tags = [list(range(len(xs))), list(range(7, 7 + len(xs))), list(range(len(xs)))[::-1]]
    n = data.draw(st.integers(0, len(xs)))
    got = k._pareto(np.array(xs), np.array(ys), *(np.array(t) for t in tags), n)
    assert all(g.dtype == np.int64 for g in got)
    want = _pareto_by_hand(xs[:n], ys[:n], [t[:n] for t in tags])
    assert list(zip(*(g.tolist() for g in got))) == want


@pytest.mark.parametrize(
    "numeric, nominal, classes",
    [(11, 0, 2), (9, 2, 2), (17, 1, 2), (10, 1, 3), (9, 0, 5), (12, 1, 7), (9, 1, 8), (4, 1, 9)],
)
def test_the_pass_over_many_attributes_is_a_count_per_side(numeric, nominal, classes):
    """Up to 8 classes the pass walks the ordered attributes several at a time (blocks of
    lanes, the last one padded; two classes by the class difference, more by the rows per
    class), 9 classes and more row by row: at every threshold of three root attributes,
    both sides and each alone, the least errors of one split of each side counted
    directly."""
    rng = np.random.default_rng(numeric * classes)
    n = 90
    df = pd.DataFrame({f"x{j}": rng.integers(0, 12 + 5 * j, n) for j in range(numeric)})
    for j in range(nominal):
        df[f"c{j}"] = rng.choice(list("abc"), n)
    rule = (df.x0 + rng.integers(0, 8, n) + df.x1 % 9) % classes
    df["d"] = [f"k{v}" for v in np.where(rng.random(n) < 0.2, rng.integers(0, classes, n), rule)]
    table = _table(df)
    assert len(table.decision_values) == classes
    checked = check_the_pass_per_side(table, attributes=3)
    assert checked > 100


def _least_split(codes: np.ndarray, dec: np.ndarray, rows: np.ndarray, classes: int) -> int:
    """Independently, with numpy: the least errors of a leaf or one split into two leaves of
    ``rows`` over every threshold of every (ordered) attribute."""
    onehot = np.eye(classes, dtype=np.int64)[dec[rows]]
    total = onehot.sum(axis=0)
    best = rows.size - int(total.max())
    for col in codes[:, rows]:
        order = np.argsort(col, kind="stable")
        below = np.cumsum(onehot[order], axis=0)[:-1]  # the <= side after each position
        cut = np.flatnonzero(np.diff(col[order]) != 0)  # where the code changes
        if cut.size:
            left, right = below[cut], total - below[cut]
            errs = rows.size - left.max(axis=1) - right.max(axis=1)
            best = min(best, int(errs.min()))
    return best


@pytest.mark.parametrize("n, classes", [(40_000, 3), (31_000, 2), (64_000, 5)])
def test_the_narrow_walks_on_long_subtables(n, classes):
    """The 16-bit walks near their row limits (two classes up to 32,000 rows, their class
    difference signed; more up to 65,000, their counts unsigned) against the 32-bit walks
    and a count with numpy, at thresholds that leave either side long."""
    rng = np.random.default_rng(n + classes)
    A, root = 3, 1
    codes = rng.integers(0, 3_000, size=(A, n)).astype(np.int32)
    dec = ((codes[0] // 700 + codes[2] // 900 + rng.integers(0, 2, n)) % classes).astype(np.int32)
    orders = [np.argsort(codes[b], kind="stable") for b in range(A)]
    cb = np.stack([codes[b][o] for b, o in enumerate(orders)])
    cls = np.stack([dec[o] for o in orders])
    sa = np.stack([codes[root][o] for o in orders])
    kinds = np.ones(A, dtype=np.int8)
    for t in (200, 1_500, 2_800):
        left = np.flatnonzero(codes[root] <= t)
        right = np.flatnonzero(codes[root] > t)
        totL = np.bincount(dec[left], minlength=classes).astype(np.int64)
        totR = np.bincount(dec[right], minlength=classes).astype(np.int64)
        want = (_least_split(codes, dec, left, classes), _least_split(codes, dec, right, classes))
        args = (cb, cls, sa, t, kinds, classes, left.size, totL, totR, k.BOTH)
        assert k._sides_d1p(*args, narrow=True) == want, t
        assert k._sides_d1p(*args, narrow=False) == want, t


# ------------------------------------------------------------------ call by call
def _random_table(seed, n=150, numeric=3, nominal=1, classes=3):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"a{j}": rng.integers(0, 25, n) for j in range(numeric)})
    for j in range(nominal):
        df[f"c{j}"] = rng.choice(list("xyz"), n)
    df["d"] = np.where(df.a0 + rng.integers(0, 10, n) > df.a1, "p", "q")
    if classes > 2:
        df.loc[rng.choice(n, n // 4, replace=False), "d"] = "r"
    return _table(df)


def _least_by_depth(table, depth) -> list[int]:
    """The least misclassifications at depth <= d, d = 0..depth, by the DAG engine on the
    binary expansion."""
    pts = relate(table.binarized(), "depth", MIS, max_depth=depth).front.points()
    return [min(y for x, y in pts if x <= d) for d in range(depth + 1)]


@st.composite
def tie_frames(draw):
    """Tables where the warm starts of deep searches (issue 40: a neighbour's lower bounds
    and splits, carried to a subtable of nearly the same rows) could go wrong: 30-70 rows
    of 2-4 numeric columns with few values (ties), rows repeated, one class or two or
    three, labels that follow a column or not."""
    n = draw(st.integers(30, 70))
    cols = draw(st.integers(2, 4))
    values = draw(st.sampled_from([2, 3, 5, 12, 40]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{j}": rng.integers(0, values, n) / 2 for j in range(cols)})
    classes = draw(st.integers(1, 3))
    noise = draw(st.sampled_from([0.0, 0.1, 0.5]))
    d = (df.x0 + df.x1 > values / 2).astype(int) % classes
    flip = rng.random(n) < noise
    d[flip] = rng.integers(0, classes, int(flip.sum()))
    df["d"] = d.map("pqr".__getitem__)
    repeat = draw(st.integers(0, n // 2))  # rows repeated (duplicates with their labels)
    if repeat:
        df = pd.concat([df, df.iloc[rng.integers(0, n, repeat)]], ignore_index=True)
    return df


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tie_frames())
def test_deep_searches_on_ties_and_repeated_rows_are_the_least_errors(df):
    """Depth 4 (the warm starts act from depth 3 on): each depth's least misclassifications
    equal the DAG engine's on the binary expansion, and every point's tree has its costs."""
    table = _table(df)
    if not table.ordered:
        return
    least = _least_by_depth(table, 4)
    for counts_max in (0, 64):  # the depth-two trees by passes (where the seeds act), or counts
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(ordered, "COUNTS_MAX_CODES", counts_max)
            rel = relate(table, "depth", MIS, max_depth=4)
        assert rel.engine == "ordered"
        assert [min(y for x, y in rel.front.points() if x <= d) for d in range(5)] == least
        _check_trees(rel, 4)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("counts_max", [0, 64])
def test_best_call_by_call_is_the_least_errors(seed, counts_max):
    """Every depth and bound on one memo: below the bound, the DAG engine's least
    misclassifications at that depth, exact; at or above it, a lower bound that reaches
    it (or the least, exact); at depth 1 the root chosen makes a tree of that value. The
    same with a fresh memo and with one memo shared by every call (whose exact values
    answer every later call)."""
    table = _random_table(seed, n=90)
    least = _least_by_depth(table, 3)
    arrays = ordered._Arrays(table, 4, None)
    arrays.nv[-3] = counts_max
    name = arrays.name(None)
    shared = k.new_memo()
    stats = np.zeros(k.N_STATS, np.int64)
    usage = np.zeros(k.N_USAGE, np.int64)
    leaf = table.n_rows - np.bincount(table.decisions).max()
    assert least[0] == leaf
    calls = []
    for depth in (1, 2, 3, 4, 2, 3):
        for ub in (leaf, leaf // 2, leaf // 4, 3, 1, leaf + 5):
            got = []
            for memo in (shared, k.new_memo()):
                m = arrays.load(None)
                choice = np.zeros(3, np.int64)
                args = (arrays.table, arrays.work, m, k.BestLimits(depth, int(ub)), name)
                got.append((k.best(*args, memo, stats, choice, -1, usage), choice.tolist()))
            if got[1][0][2]:  # an exact answer from scratch: the memo's is the same
                assert got[0][0] == got[1][0], (depth, ub)
            for (status, value, exact), _ in got:
                assert status == k.DONE
                if depth > 3:
                    assert not exact or value <= least[3]
                elif least[depth] < ub:
                    assert exact and value == least[depth], (depth, ub)
                else:  # a bound it reaches, or the least itself (a memo's exact value)
                    assert value >= ub and (not exact or value == least[depth]), (depth, ub)
            (status, value, exact), choice = got[1]
            if depth == 1 and exact:
                attr, code, kind = choice
                rows = np.arange(table.n_rows)
                if attr < 0:
                    assert value == leaf
                else:
                    col = arrays.codes[attr]
                    parts = [col <= code, col > code] if kind == k.ORDERED else None
                    if parts is None:
                        parts = [col == v for v in np.unique(col)]
                    errs = sum(
                        int(p.sum() - np.bincount(arrays.dec[rows[p]]).max())
                        for p in parts
                        if p.any()
                    )
                    assert errs == value, (choice, value)
            calls.append(status)
    assert len(shared) > 10 and len(calls) == 36


def _front(points: k.Points) -> list:
    real = k.real(points)
    return list(zip(real.x.tolist(), real.y.tolist()))


@pytest.mark.parametrize("seed", [4, 5])
@pytest.mark.parametrize("x", ["total-path-length", "nodes", "leaves"])
def test_fronts_call_by_call_are_the_dag_engines(seed, x):
    """Whole fronts at depths 0-3 under boxes (none, max x, max y, both): between the DAG
    engine's front on the binary expansion restricted to the box and that whole front;
    and the root steps (one
    attribute at a time from a working front with provenance) merged into the whole front
    at depth 3."""
    table = _random_table(seed, n=90, nominal=1 + seed % 2)
    binary = table.binarized()
    arrays = ordered._Arrays(table, 4, None)
    px = ordered._params(COSTS[x])
    usage = np.zeros(k.N_USAGE, np.int64)
    boxes = ((None, None), (None, 20), (300, None), (250, 25))
    fronts = {}
    pruned = 0
    for depth in range(4):
        want = relate(binary, x, MIS, max_depth=depth).front.points()
        for box in boxes:
            m = arrays.load(None)
            stats = np.zeros(k.N_STATS, np.int64)
            limits = k.FrontLimits(depth, ordered._box(*box))
            args = (arrays.table, arrays.work, m, limits, px, ordered._ALL)
            status, got = k.fronts(*args, stats, -1, usage)
            assert status == k.DONE
            mx, my = box
            within = [p for p in want if (mx is None or p[0] <= mx) and (my is None or p[1] <= my)]
            pts = _front(got)
            assert pts == sorted(set(pts)) and set(within) <= set(pts) <= set(want), (depth, box)
            pruned += len(pts) < len(want)
            fronts[depth, box] = got, stats
    assert pruned >= 2  # the boxes leave points out (at depth >= 2; shallower, all is kept)
    # the root steps: each attribute from the depth-2 front as the working front
    shallow = fronts[2, boxes[0]][0]
    assert shallow.x.size > 2
    work = k.working_front(ordered._box(None, None), shallow)
    assert _front(work) == _front(shallow) and set(work.kind.tolist()) == {k.SHALLOWER}
    order = k.hint_order(arrays.table, arrays.work, arrays.load(None))
    assert sorted(order.tolist()) == list(range(table.n_attributes))
    found = 0
    for a in order:
        m = arrays.load(None)
        attrs = np.full(1, a, np.int64)
        stats = np.zeros(k.N_STATS, np.int64)
        args = (arrays.table, arrays.work, m, k.FrontLimits(3, work), px, attrs)
        status, got = k.fronts(*args, stats, -1, usage)
        assert status == k.DONE
        known = set(zip(*(f.tolist() for f in work)))
        new = [p for p in zip(*(f.tolist() for f in got)) if p not in known]
        assert all(p[2] in (k.ORDERED, k.NOMINAL) and p[3] == a for p in new), a
        found += len(new)
        work = k.merged(work, got)
    assert found and _front(work) == _front(fronts[3, boxes[0]][0])


def test_an_aborted_search_returns_at_once():
    """The abort flag set (Ctrl-C): the kernel stops at once with the bound as its (not
    kept) value and nothing in the memo."""
    table = _random_table(6)
    arrays = ordered._Arrays(table, 3, None)
    stats = np.zeros(k.N_STATS, np.int64)
    stats[k.S_ABORT] = 1
    memo = k.new_memo()
    m = arrays.load(None)
    got = k.best(
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


# ------------------------------------------------------------------ memory
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
    usage = np.zeros(k.N_USAGE, np.int64)
    stats = np.zeros(k.N_STATS, np.int64)
    m = arrays.load(None)
    limits = k.FrontLimits(depth, ordered._box(None, None))
    px = ordered._params(COSTS["total-path-length"])
    status, pts = k.fronts(arrays.table, arrays.work, m, limits, px, ordered._ALL, stats,
                           budget, usage)  # fmt: skip
    return status, [a.tolist() for a in pts], usage, stats.tolist()


def _many_thresholds(n=300, numeric=3, seed=0):
    """A random numeric table (every value distinct: n - 1 thresholds per column)."""
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({f"x{j}": rng.normal(size=n).round(3) for j in range(numeric)})
    df["y"] = np.where(df.x0 + rng.normal(size=n) > 0, "p", "q")
    return _table(df)


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


# ------------------------------------------------------------------ threads
class _Slots:
    """``ordered._schedule``, recording how many root steps it may run at once."""

    def __init__(self, monkeypatch):
        self.real = ordered._schedule
        self.seen: list[int] = []
        monkeypatch.setattr(ordered, "_schedule", self)

    def __call__(self, step, n, slots, *args, **kw):
        self.seen.append(slots)
        return self.real(step, n, slots, *args, **kw)


def _root_answer(table, monkeypatch, threads_, max_memory=None, slots=None):
    monkeypatch.setenv("DAGGER_THREADS", str(threads_))
    threads.CALLS.clear()
    if slots is not None:
        slots.seen.clear()
    out = _answer(table, "total-path-length", MIS, max_depth=3, max_memory=max_memory)
    assert set(threads.CALLS) == {threads_}  # every kernel call had that count
    return out


@pytest.mark.skipif(_core.hardware_threads() < 2, reason="needs 2 threads")
def test_the_root_steps_answer_alike_on_one_thread_two_and_two_out_of_memory(monkeypatch):
    """The root steps (one kernel call per attribute, two at once in threads): the same
    front and trees with one thread and two (two steps at once, really; the counters then
    say what that run did, as a step reads its predecessors' points when it can); and
    when two steps at once run out of their shares of the memory, each is run again
    alone, to the same answer."""
    table = _random_table(9, n=200, numeric=4, nominal=0)
    slots = _Slots(monkeypatch)
    one = _root_answer(table, monkeypatch, 1, slots=slots)
    assert len(one[0]) >= 4 and max(slots.seen) == 1
    assert _root_answer(table, monkeypatch, 2, slots=slots)[:2] == one[:2]
    assert max(slots.seen) == 2
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
    assert _root_answer(table, monkeypatch, 2, max_memory=1 << 30, slots=slots)[:2] == one[:2]
    assert max(slots.seen) == 2
    assert k.OUT_OF_MEMORY in statuses and statuses.count(k.DONE) == 4  # once each, alone


def test_the_kernels_refuse_a_wrong_dtype():
    table = _random_table(10, n=30)
    arrays = ordered._Arrays(table, 2, None)
    wrong = k.OrderedTable(arrays.codes.astype(np.int64), *arrays.table[1:])
    with pytest.raises(TypeError):
        k.best(wrong, arrays.work, 30, k.BestLimits(2, 5), (0, 0), k.new_memo(),
               np.zeros(4, np.int64), np.zeros(3, np.int64), -1, np.zeros(4, np.int64))  # fmt: skip
