"""A query cut into pieces (:mod:`dagger_cli.engine.pieces`) and run on threads:

* each piece of a search at the root (:func:`~dagger_cli.engine.kernels.ordered.best_piece`)
  against a slow path: the least over its attribute's splits of the children's least
  misclassifications, each found by a whole search of its own;
* the pieces together, in any order, against the whole search (:func:`best`), the shared
  bound ending at its value;
* the executor: results in the pieces' order, an error or Ctrl-C handed to the caller;
* a team of threads on the pieces of one search
  (:func:`~dagger_cli.engine.kernels.ordered.best_team`, sharing each piece's thresholds)
  against the whole search and against the pieces one after the other, on 1 to 4 threads,
  whole pieces and ranges of thresholds, and its stops (out of memory, Ctrl-C);
* end to end: the depth front and its trees alike on one thread and two, and when the
  team's threads run out of their shares of the memory."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dagger_cli import _core
from dagger_cli.engine import ordered, pieces
from dagger_cli.engine.kernels import ordered as k
from tests.test_kernels_ordered import (
    MIS,
    SETTINGS,
    _answer,
    _random_table,
    _table,
    numeric_frames,
)

BIG = 1 << 40


def _piece_call(arrays, memo, depth, bound, piece, shared, stats=None, work=None):
    m = arrays.load(None) if work is None else arrays.codes.shape[1]
    stats = np.zeros(k.N_STATS, np.int64) if stats is None else stats
    usage = np.zeros(k.N_USAGE, np.int64)
    root = k.RootPiece(piece.attr, piece.lo, piece.hi)
    return k.best_piece(
        arrays.table, work or arrays.work, m, k.BestLimits(depth, bound), arrays.name(None),
        memo, stats, root, shared, np.zeros(5, np.int64), -1, usage,
    )  # fmt: skip


def _least(arrays, rows, depth) -> int:
    """The least misclassifications of ``rows`` at depth <= depth (a whole search)."""
    stats = np.zeros(k.N_STATS, np.int64)
    v, exact = arrays.best(rows, depth, BIG, stats, np.zeros(3, np.int64))
    assert exact
    return int(v)


def _piece_by_hand(arrays, piece, depth) -> int:
    """The least misclassifications of the trees whose root is one of the piece's splits,
    from its children's least (each a search of its own)."""
    n = arrays.codes.shape[1]
    rows = np.arange(n)
    col = arrays.codes[piece.attr]
    if not arrays.kinds[piece.attr]:
        return sum(_least(arrays, rows[col == v], depth - 1) for v in np.unique(col))
    codes = np.unique(col)[:-1]  # the thresholds: every code but the largest
    return min(
        _least(arrays, rows[col <= c], depth - 1) + _least(arrays, rows[col > c], depth - 1)
        for c in codes[piece.lo : piece.hi + 1]
    )


@SETTINGS
@given(numeric_frames(max_rows=20), st.sampled_from([3, 4]), st.data())
def test_each_piece_is_the_least_over_its_splits(df, depth, data):
    """A piece alone, under a bound: below it, the least over its splits (exact, the shared
    bound lowered to it); else the bound, and the least over its splits is not below it."""
    table = _table(df)
    arrays = ordered._Arrays(table, depth, None)
    plan = ordered._plan(arrays, arrays.load(None))
    leaf = table.n_rows - int(np.bincount(table.decisions).max())
    for piece in plan:
        want = _piece_by_hand(arrays, piece, depth)
        bound = data.draw(st.integers(0, leaf + 2), label="bound")
        shared = pieces.shared_bound(bound)
        status, value, found = _piece_call(arrays, k.new_memo(), depth, BIG, piece, shared)
        assert status == k.DONE
        if want < bound:
            assert found and value == want == shared[0]
        else:
            assert not found and shared[0] == bound


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_pieces_in_any_order_are_the_whole_search(seed):
    """All pieces on one shared bound, in the search's order or reversed, on a fresh memo
    or on one memo they share with whole searches: the bound ends at the whole search's
    value when that is below the start, else stays."""
    table = _random_table(seed, n=120, numeric=3, nominal=1)
    arrays = ordered._Arrays(table, 4, None)
    plan = ordered._plan(arrays, arrays.load(None))
    assert len(plan) == 4
    memo = k.new_memo()
    for depth in (3, 4):
        whole = _least(arrays, None, depth)
        for start in (BIG, whole + 1, whole, max(whole - 1, 0)):
            for order in (plan, plan[::-1]):
                shared = pieces.shared_bound(start)
                for piece in order:
                    for m in (memo, k.new_memo()):
                        _piece_call(arrays, m, depth, start, piece, shared)
                assert shared[0] == min(start, whole), (depth, start)


def test_two_pieces_share_a_memo_from_two_threads():
    """The memo locks: two pieces at once on one memo (each with its own workspace) give
    the same bound as one after the other, and the memo keeps their subtables."""
    table = _random_table(5, n=200, numeric=4, nominal=0)
    arrays = ordered._Arrays(table, 4, None)
    m = arrays.load(None)
    plan = ordered._plan(arrays, m)
    whole = _least(arrays, None, 4)
    memo = k.new_memo()
    shared = pieces.shared_bound(BIG)
    work = [arrays.work, k.Workspace(arrays.buf.copy(), arrays.side.copy())]
    out: list = [None] * len(plan)

    def run(slot: int) -> None:
        for i in range(slot, len(plan), 2):
            out[i] = _piece_call(arrays, memo, 4, BIG, plan[i], shared, work=work[slot])

    ts = [threading.Thread(target=run, args=(s,)) for s in (0, 1)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(r[0] == k.DONE for r in out) and shared[0] == whole and len(memo) > 10


def test_the_executor_keeps_the_order_and_hands_back_errors_and_ctrl_c():
    got = pieces.Threads(2).run(list(range(7)), lambda i, slot: (i * i, slot))
    assert [g[0] for g in got] == [i * i for i in range(7)]  # type: ignore[index]
    assert {g[1] for g in got} <= {0, 1}  # type: ignore[index]

    def fail(i, slot):
        if i == 3:
            raise ValueError("piece 3")
        return i

    with pytest.raises(ValueError, match="piece 3"):
        pieces.Threads(2).run(list(range(6)), fail)

    release = threading.Event()
    stopped = []

    def wait(i, slot):
        release.wait(5)
        return i

    def tick(done):
        raise KeyboardInterrupt

    def stop():
        stopped.append(True)
        release.set()

    with pytest.raises(KeyboardInterrupt):
        pieces.Threads(2).run(list(range(4)), wait, tick, stop)
    assert stopped == [True]


class _Slots:
    """``pieces.Threads``, recording the slots of each run."""

    def __init__(self, monkeypatch):
        self.real = pieces.Threads
        self.seen: list[int] = []
        monkeypatch.setattr(pieces, "Threads", self)

    def __call__(self, slots):
        self.seen.append(slots)
        return self.real(slots)


def _depth_answer(table, monkeypatch, threads_, max_memory=None):
    monkeypatch.setenv("DAGGER_THREADS", str(threads_))
    points, trees, _ = _answer(table, "depth", MIS, max_depth=4, max_memory=max_memory)
    return points, trees


def _team_run(arrays, memo, depth, bound, plan, threads_, budget=-1, abort_after=None):
    """The pieces ``plan`` run by a team of ``threads_`` threads, each with its own
    workspace: (team, statuses, stats per thread)."""
    m = arrays.load(None)
    team = k.root_team(plan, bound)
    works = [arrays.work] + [
        k.Workspace(arrays.buf.copy(), arrays.side.copy()) for _ in range(threads_ - 1)
    ]
    stats = [np.zeros(k.N_STATS, np.int64) for _ in range(threads_)]
    out: list = [None] * threads_

    def run(i: int) -> None:
        usage = np.zeros(k.N_USAGE, np.int64)
        out[i] = k.best_team(
            arrays.table, works[i], m, k.BestLimits(depth, bound), arrays.name(None), memo,
            stats[i], team, budget, usage,
        )  # fmt: skip

    ts = [threading.Thread(target=run, args=(i,)) for i in range(threads_)]
    for t in ts:
        t.start()
    if abort_after is not None:
        abort_after.wait(10)
        for st_ in stats:
            st_[k.S_ABORT] = 1
    for t in ts:
        t.join(30)
        assert not t.is_alive(), "a thread of the team did not return"
    return team, out, stats


def _ranges(plan, cut: int):
    """Each ordered piece cut into ``cut`` ranges of its thresholds."""
    out = []
    for p in plan:
        if p.hi == 0:
            out.append(p)
            continue
        edges = np.linspace(0, p.hi + 1, cut + 1).astype(int)
        pairs = zip(edges[:-1], edges[1:])
        out += [pieces.Piece(p.attr, int(a), int(b) - 1, int(b - a)) for a, b in pairs if b > a]
    return out


@SETTINGS
@given(
    numeric_frames(max_rows=30),
    st.sampled_from([3, 4]),
    st.integers(1, 4),
    st.sampled_from([1, 3]),
    st.data(),
)
def test_a_team_of_threads_is_the_whole_search(df, depth, threads_, cut, data):
    """The pieces run by a team of 1 to 4 threads (whole, or each ordered one cut into
    ranges), under any bound: the team's value is the whole search's least when that is
    below the bound, else the bound; every thread returns DONE and some split was
    evaluated when the root has one."""
    table = _table(df)
    arrays = ordered._Arrays(table, depth, None)
    plan = _ranges(ordered._plan(arrays, arrays.load(None)), cut)
    whole = _least(arrays, None, depth)
    leaf = table.n_rows - int(np.bincount(table.decisions).max())
    bound = data.draw(st.sampled_from([BIG, whole + 1, whole, max(whole - 1, 0), leaf]))
    team, statuses, stats = _team_run(arrays, k.new_memo(), depth, bound, plan, threads_)
    assert statuses == [k.DONE] * threads_
    assert team.value == (min(bound, whole) if plan else bound)
    assert len(team) == len(plan) and team.done <= len(plan)
    if team.value > 0:  # (a tree without error ends the search: the rest is not needed)
        assert team.done == len(plan)
    if plan and leaf > 0 and bound > whole:
        assert sum(int(s_[k.S_EVALUATED]) for s_ in stats) > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_team_agrees_with_the_pieces_in_turn_on_larger_tables(seed):
    """On tables of a few hundred rows (weights among them) at depths 3 and 4: the team on
    two and three threads, on a memo it shares with the depth before, gives the value of
    the pieces one after the other on one thread."""
    table = _random_table(seed, n=260, numeric=4, nominal=1)
    if seed == 3:
        table = table.weighted(np.random.default_rng(3).integers(1, 5, table.n_rows).tolist())
        assert ordered.reads_weights(table)
    arrays = ordered._Arrays(table, 4, None)
    plan = ordered._plan(arrays, arrays.load(None))
    memo = k.new_memo()
    for depth in (3, 4):
        shared = pieces.shared_bound(BIG)
        for piece in plan:
            _piece_call(arrays, k.new_memo(), depth, BIG, piece, shared)
        for threads_ in (2, 3):
            team, statuses, _ = _team_run(arrays, memo, depth, BIG, plan, threads_)
            assert statuses == [k.DONE] * threads_
            assert team.value == shared[0] == _least(arrays, None, depth)


def test_a_team_stops_on_its_memory_and_on_ctrl_c():
    """A thread out of its memory stops the team (the others return, none waits for
    ever); the abort flag (Ctrl-C, a time limit) ends every thread soon."""
    table = _random_table(11, n=300, numeric=4, nominal=0)
    arrays = ordered._Arrays(table, 4, None)
    plan = ordered._plan(arrays, arrays.load(None))
    _, statuses, _ = _team_run(arrays, k.new_memo(), 4, BIG, plan, 2, budget=3000)
    assert k.OUT_OF_MEMORY in statuses
    go = threading.Event()
    go.set()
    _, statuses, stats = _team_run(arrays, k.new_memo(), 4, BIG, plan, 2, abort_after=go)
    assert all(s_[k.S_ABORT] == 1 for s_ in stats)


def test_a_team_refuses_a_shallow_search():
    arrays = ordered._Arrays(_random_table(3, n=40), 3, None)
    plan = ordered._plan(arrays, arrays.load(None))
    usage = np.zeros(k.N_USAGE, np.int64)
    with pytest.raises(ValueError, match="depth >= 3"):
        k.best_team(
            arrays.table, arrays.work, arrays.load(None), k.BestLimits(2, BIG),
            arrays.name(None), k.new_memo(), np.zeros(k.N_STATS, np.int64),
            k.root_team(plan, BIG), -1, usage,
        )  # fmt: skip


@pytest.mark.skipif(_core.hardware_threads() < 2, reason="needs 2 threads")
def test_the_depth_front_is_the_same_on_one_thread_two_and_two_out_of_memory(monkeypatch):
    """Depth vs misclassifications at depth <= 4: the same front and trees with one thread
    and two (a team); and when the team's threads run out of their shares of the memory,
    the pieces run again one after the other with all of it, to the same answer."""
    table = _random_table(9, n=200, numeric=4, nominal=1)
    slots = _Slots(monkeypatch)
    one = _depth_answer(table, monkeypatch, 1)
    assert len(one[0]) >= 3 and set(slots.seen) == {1}
    slots.seen.clear()
    teams = []
    real_team = k.best_team

    def team_counted(*args):
        res = real_team(*args)
        teams.append(int(res))
        return res

    monkeypatch.setattr(k, "best_team", team_counted)
    assert _depth_answer(table, monkeypatch, 2) == one
    assert max(slots.seen) == 2 and teams.count(k.DONE) >= 4
    teams.clear()
    statuses = []
    real = k.best_piece

    def counted(*args):
        res = real(*args)
        statuses.append(int(res[0]))
        return res

    budget = ordered._Arrays.budget

    def tight(self, slots=1):  # two at once: too little each
        return 2000 if slots > 1 else budget(self, slots)

    monkeypatch.setattr(k, "best_piece", counted)
    monkeypatch.setattr(ordered._Arrays, "budget", tight)
    assert _depth_answer(table, monkeypatch, 2, max_memory=1 << 30) == one
    assert k.OUT_OF_MEMORY in teams and statuses.count(k.DONE) >= 5


def test_a_piece_refuses_a_shallow_search_and_a_wrong_range():
    arrays = ordered._Arrays(_random_table(3, n=40), 3, None)
    shared = pieces.shared_bound(BIG)
    with pytest.raises(ValueError, match="depth >= 3"):
        _piece_call(arrays, k.new_memo(), 2, BIG, pieces.Piece(0, 0, 3, 4), shared)
    with pytest.raises(ValueError, match="out of order"):
        _piece_call(arrays, k.new_memo(), 3, BIG, pieces.Piece(0, 5, 3, 4), shared)
    with pytest.raises(ValueError, match="no such attribute"):
        _piece_call(arrays, k.new_memo(), 3, BIG, pieces.Piece(9, 0, 3, 4), shared)
