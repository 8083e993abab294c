"""The ``ordered`` solver: exact fronts of bounded depth over numeric columns kept whole.

A table whose numeric columns were split by thresholds (``--thresholds all|K``) holds each
such column as one ordered attribute (:class:`dagger_cli.data.thresholds.Ordered`). Under a
depth cap the ``fast`` engine hands such a table here; the kernels
(:mod:`dagger_cli.engine.kernels.ordered`) sweep the thresholds of each column with bounds
instead of building a subtable per threshold, and nominal columns stay multiway splits in
the same search. The answer is the front the DAG engine computes on the table's binary
expansion (:meth:`~dagger_cli.data.table.DecisionTable.binarized`), which the tests check.

Which front:

* one cost is misclassifications and the other depth: the least misclassifications at
  each depth 1..D (:func:`~dagger_cli.engine.kernels.ordered.best`, each depth bounded by
  the one before);
* the other is total path length, nodes or leaves: the whole front
  (:func:`~dagger_cli.engine.kernels.ordered.fronts`);
* neither is misclassifications: the single leaf, which is least in every other cost
  (with false positives or negatives, the leaf deciding what makes them 0);
* false positives against false negatives: the whole front with leaves of two points (the
  kernel's ``choice``); misclassifications against one of them, on two classes without
  prices, read off that front (:func:`_decision_pair`).

Weights: the kernels read row and class weights (and prices) themselves (:func:`reads_weights`; the
table's ``weighting.rows``, in its integer units): a row of weight k counts as k rows in
every class count, subtable size and bound, and the answer is the one of the rows repeated
by their weights (:func:`expanded`, the tests' oracle).

Prices (a cost matrix): a leaf costs its decision of least price, and a row moved changes
a cost by at most its weight times the largest price.

A minimum leaf size (``--min-leaf``): a split only where each child holds that many rows,
for every pair the solver answers (the depth search, the fronts kernel, the ROC front's
depth-one fronts). A subset of rows may then need more errors than the rows it lies in, so
the kernels' bounds read no contained side's value; a containing side's, less what the
rows between can move, only when every attribute is ordered; each side is first solved
without K, and those relaxed values and fronts bound it from below.

Not here (the query goes to the binary expansion and the DAG engine): no depth cap,
``exact_only``, ``count``, and the ``baseline`` and ``paper`` engines.

Ties: among trees of equal costs the first found wins, in the search's fixed order (the
ordered attributes by the Gini impurity of their best single split, each one's thresholds
from that split outwards, breadth first; nominal splits after them, in attribute order);
the tree behind a point is found again by the same search on the subtables of its path,
bounded to that point. The bound is part of the rule (it steers which thresholds the search
tries first, so a larger one may find another tree of the same costs first): the trees of
many points in one pass (reports, ``--trees``) bound each root's search to its own point
too, and share only what no bound changes, the points of the children's fronts. The
kernels run in a worker thread (they release the GIL), so progress is shown and Ctrl-C
stops them between two splits.
"""

from __future__ import annotations

import bisect
import threading

import numpy as np

from .. import _core
from ..costs import COSTS, ROC
from ..errors import LimitError
from ..fronts import Front, pareto
from ..text import size_text
from ..trees import (
    Tree,
    TreeNode,
    leaf_node,
    pick_children,
    rows_labels,
    tree_costs,
    with_decision_terms,
)
from . import threads
from .progress import Progress, check_deadline, has_deadline
from .structures import OrderedStats, Relation

MIS = "misclassifications"


def applies(table, query) -> bool:
    """Whether the ordered solver answers ``query`` on ``table``: ordered attributes, a
    depth cap, and neither ``exact_only`` nor ``count``; weighted rows when the kernels
    read their weights (:func:`reads_weights`)."""
    return bool(
        getattr(table, "ordered", None)
        and query.max_depth is not None
        and not query.exact_only
        and not query.count
        and (not _reads_decision(query) or _decision_pair(table, query) is not None)
        and (getattr(table, "weighting", None) is None or _weights_read(table, query))
    )


def _weights_read(table, query) -> bool:
    """Whether the solver reads a weighted table's weights for ``query``: the kernels'
    own (:func:`reads_weights`); for false positives against negatives, whose leaves read
    no prices, the row and class weights alone."""
    return reads_weights(table, prices=_reads_prices(table, query))


def _reads_prices(table, query) -> bool:
    """Whether the kernels read the prices for ``query``: not for false positives against
    negatives (their leaves' two points read none), nor what is read off their front."""
    return _decision_pair(table, query) not in (ROC_PAIR, MIS)


#: :func:`_decision_pair`'s reading of false positives against false negatives.
ROC_PAIR = "roc"


def _decision_pair(table, query) -> str | None:
    """For a pair with false positives or negatives (the costs that read a leaf's
    decision), what the ordered solver reads it as, or None when it does not answer it
    (or the pair reads no decision):

    * ``"roc"`` (:data:`ROC_PAIR`): false positives against false negatives, the kernel's
      own pair (its ``choice``: a leaf has two points).
    * ``"leaf"``: the other cost reads no errors (depth, total path length, nodes, leaves).
      Each leaf can take the decision that makes the first cost 0 (the positive class for
      false negatives, another for false positives), and the single leaf is least in the
      other cost: the front is that one leaf.
    * ``"misclassifications"``: the other cost is misclassifications, on a table of two
      classes without prices. A leaf's misclassifications are then its false positives plus
      its false negatives, so the front is the ROC front's points (fp, fn) read as
      (fp + fn, fn) or (fp + fn, fp), those that stay Pareto-optimal.
    """
    names = {query.x_cost.name, query.y_cost.name}
    if names == ROC:
        return ROC_PAIR
    if len(names & ROC) != 1:
        return None
    other = (names - ROC).pop()
    if not COSTS[other].reads_decision and other != MIS:
        return "leaf"
    w = getattr(table, "weighting", None)
    if other == MIS and len(table.decision_values) == 2 and (w is None or w.prices is None):
        return "misclassifications"
    return None


def reads_weights(table, prices: bool = True) -> bool:
    """Whether the kernels read a weighted table's weights: row weights, class weights and
    a price matrix, the weights times the largest price adding up to at most
    :data:`~dagger_cli.engine.kernels.ordered.WEIGHT_LIMIT` units (:func:`_units`). A row
    of weight k then counts as k rows wherever a cost counts rows, and a leaf costs its
    decision of least price. ``prices`` False: for a pair whose leaves read none (false
    positives against negatives)."""
    from .kernels import ordered as k

    return _units(table.weighting, prices) <= k.WEIGHT_LIMIT


def _units(w, prices: bool = True) -> int:
    """What the kernels hold of the weighting ``w`` at most: its rows' weights in all,
    times the largest price (with ``prices``)."""
    most = max(int(w.prices.max()), 1) if prices and w.prices is not None and w.prices.size else 1
    return int(w.rows.sum()) * most


def _reads_decision(query) -> bool:
    """Whether one of the query's costs reads a leaf's decision (false positives or
    negatives)."""
    return any(
        getattr(getattr(query, name, None), "reads_decision", False)
        for name in ("x_cost", "y_cost")
    )


def expanded(table):
    """A weighted table as its rows repeated by their weights (unweighted): the same
    trees, and every cost that counts rows counts the weights' units (the tests' oracle of
    the kernels' own reading of weights)."""
    from dataclasses import replace

    idx = np.repeat(np.arange(table.n_rows, dtype=np.int64), table.weighting.rows)
    return replace(
        table,
        codes=np.ascontiguousarray(table.codes[:, idx]),
        decisions=table.decisions[idx],
        weighting=None,
    )


def why_not(table, query) -> str:
    """Why :func:`applies` is false (for ``--engine ordered``)."""
    if not getattr(table, "ordered", None):
        return "the table has no numeric column split by thresholds (--thresholds all|K)"
    if query.max_depth is None:
        return "it needs a depth cap (--max-depth D)"
    if _reads_decision(query) and _decision_pair(table, query) is None:
        return (
            "a leaf's choice of decision (false positives or negatives) it reads for false "
            "positives against false negatives, either of them against depth, total path "
            "length, nodes or leaves, and against misclassifications on a table of two "
            "classes without prices"
        )
    if getattr(table, "weighting", None) is not None:
        from .kernels import ordered as k

        w = table.weighting
        units = _units(w, _reads_prices(table, query))
        return (
            "it reads row and class weights and prices, but not weights (times the largest "
            f"price) adding up to more than {k.WEIGHT_LIMIT:,} units, and these add up to "
            f"{units:,}: class weights such as 'balanced' on classes of "
            "very different sizes need that many to be exact; rounded ones (--class-weight "
            "CLASS=W,... or class_weight={class: W}, W with few decimals) keep them in"
        )
    return "it computes neither --exact-only nor --count"


#: At depth 2, the trees of a subtable whose attributes all have at most this many codes
#: (``--thresholds K`` with K < this, few nominal values) come from class counts per pair
#: of attributes (one pass per pair) instead of a pass per root split (0: never).
COUNTS_MAX_CODES = 64
#: At depth 2, a subtable of two classes and ordered attributes only whose search has
#: evaluated about SWEEP_FACTOR times what a sweep costs in splits (``sweep_after`` in
#: ``core/ordered.cpp``) gets its remaining depth-two trees from one sweep of its rows per
#: pair of attributes (``d2_sweep``): a long table's near-tied thresholds, which no bound
#: prunes (0: the sweep at once, -1: never).
SWEEP_FACTOR = 20
#: The seed of the row keys that name subtables in the kernels' memo.
SEED = 20261201
#: The whole-front search's steps at the root (one per attribute, :func:`_root_steps`): step i
#: starts from the working front the steps before i - LAG + 1 left, so up to LAG steps can
#: run at once and the answer is the same with one thread or more; while it runs it reads
#: what the steps before it find (the board), so the lag costs little pruning. With 4 rather
#: than 2, a long step does not hold the other core up (a lag of 2 without the board cost
#: segment's Λ vs µ 9 %, 2026-12-07).
LAG = 4
#: The kernel's ``attrs`` for a search over every attribute.
_ALL = np.empty(0, dtype=np.int64)


def new_memo():
    """An empty memo for :func:`dagger_cli.engine.kernels.ordered.best`."""
    from .kernels import ordered as k

    return k.new_memo()


class _Arrays:
    """The table as the kernels read it, and their workspace for trees of depth <= D.

    Memory (``max_memory``, bytes or None): the arrays made here (``fixed``) are counted
    before they are made, and the rest of the ceiling is the kernels' budget
    (:meth:`budget`), where every byte they allocate is counted (each subtable's scratch,
    the fronts, the memo): a call that would pass it stops, and the solver with a
    :class:`LimitError`. ``need`` adds to ``fixed`` an upper bound of the scratch one call
    holds at once (a subtable's arrays per level, of all rows): how many calls may run at
    once (:meth:`spare_buffers`)."""

    def __init__(self, table, depth: int, max_memory: int | None):
        from .kernels import ordered as k

        n, A = table.n_rows, table.n_attributes
        C = max(len(table.decision_values), 1)
        # codes, order, keys, decisions, weights, kinds, nv; and a subtable's load (mask,
        # rows, keys)
        self.shared = 8 * A * n + 16 * n + 4 * n + 8 * n + A + 8 * (A + 1) + 21 * n
        # one workspace: its rows per level and the split's sides
        self.rows_bytes = (depth + 2) * max(A, 1) * n * 4 + 4 * n
        self.scratch = k.scratch_bytes(n, A, C, depth)
        self.fixed = self.shared + self.rows_bytes
        self.need = self.fixed + self.scratch
        self.max_memory, self.depth = max_memory, depth
        if max_memory is not None and self.fixed > max_memory:
            raise LimitError(
                f"the ordered solver's workspace needs {size_text(self.fixed)} at depth "
                f"{depth}, more than {size_text(max_memory)} (--max-memory): try a lower "
                f"--max-depth than {depth}, or fewer thresholds per numeric column "
                "(--thresholds K)"
            )
        self.codes = np.ascontiguousarray(table.codes, dtype=np.int32).reshape(A, n)
        self.kinds = np.array([a in table.ordered for a in table.attributes], dtype=np.int8)
        self.dec = np.ascontiguousarray(table.decisions, dtype=np.int32)
        self.C = C
        # the rows' weights in the weighting's integer units (None: every row weighs 1, as
        # with a minimum leaf size alone)
        w = getattr(table, "weighting", None)
        ones = w is not None and w.prices is None and bool((w.rows == 1).all())
        self.weights = None if w is None or ones else np.ascontiguousarray(w.rows, dtype=np.int64)
        # and its price matrix (None: a wrong decision costs 1 per unit of weight)
        p = None if w is None else w.prices
        self.prices = None if p is None else np.ascontiguousarray(p, dtype=np.int64).reshape(-1)
        self.order = np.empty((A, n), dtype=np.int32)
        for a in range(A):
            self.order[a] = np.argsort(self.codes[a], kind="stable")
        self.buf = np.empty((depth + 2, A, n), dtype=np.int32)
        self.side = np.zeros(n, dtype=np.int32)
        # codes per attribute, the most for the depth-two trees from counts (0: never), the
        # factor of the depth-two sweep (SWEEP_FACTOR) and the minimum leaf size
        self.nv = np.zeros(A + 3, dtype=np.int64)
        for a in range(A):
            self.nv[a] = int(self.codes[a].max()) + 1 if n else 1
        self.nv[A] = COUNTS_MAX_CODES
        self.nv[A + 1] = SWEEP_FACTOR
        self.nv[A + 2] = 1 if w is None else w.min_leaf
        # random row keys: a subtable's name is the sums of its rows' (fixed seed)
        self.keys = np.random.default_rng(SEED).integers(-(2**62), 2**62, size=(2, n))
        self.table = k.OrderedTable(
            self.codes, self.kinds, self.nv, self.dec, self.keys, C, self.weights, self.prices
        )
        self.work = k.Workspace(self.buf, self.side)

    def spare_buffers(self) -> int:
        """How many more copies of the workspace (its rows and a call's scratch)
        ``--max-memory`` leaves room for."""
        if self.max_memory is None:
            return LAG
        return max(int((self.max_memory - self.shared) // (self.rows_bytes + self.scratch)) - 1, 0)

    def budget(self, slots: int = 1) -> int:
        """The bytes each of ``slots`` kernel calls at once may allocate (-1: no ceiling):
        the ceiling less the arrays held (the table's, and one workspace's rows per
        call), shared evenly."""
        if self.max_memory is None:
            return -1
        return max((self.max_memory - self.held(slots)) // slots, 0)

    def held(self, slots: int = 1) -> int:
        """The bytes of the arrays made here, with ``slots`` workspaces."""
        return self.shared + slots * self.rows_bytes

    def name(self, rows: np.ndarray | None) -> tuple[int, int]:
        """The two key sums of a subtable (wrapping, as the kernels add them)."""
        keys = self.keys if rows is None else self.keys[:, rows]
        with np.errstate(over="ignore"):
            h = keys.sum(axis=1, dtype=np.int64)
        return int(h[0]), int(h[1])

    def call(self, kernel, args: tuple, stats, what: str, progress: Progress | None = None):
        """One kernel call on this workspace: ``args`` are all but the budget of one call
        and the usage it reports; returns what follows its status. With ``progress`` (the
        search) or under a time limit (tree extraction then), in a worker thread that
        Ctrl-C and the limit stop (:func:`_run`); else directly (a thread per call would
        triple the time of extracting many trees). A call stopped at its budget raises
        the :class:`LimitError` of ``what``."""
        from .kernels import ordered as k

        usage = np.zeros(k.N_USAGE, dtype=np.int64)
        full = (*args, self.budget(), usage)
        if progress is not None or has_deadline():
            out = _run(kernel, full, stats, progress or Progress(False))
        else:
            out = threads.run(kernel, *full)
        if out[0] != k.DONE:
            raise _out_of_memory(self, usage, 1, what)
        return out[1:]

    def best(self, rows, depth: int, ub: int, stats, choice, memo=None):
        """The kernel's least misclassifications of ``rows`` (None: all) at depth <= depth:
        (value, exact)."""
        from .kernels import ordered as k

        m = self.load(rows)
        memo = new_memo() if memo is None else memo
        limits = k.BestLimits(depth, ub)
        args = (self.table, self.work, m, limits, self.name(rows), memo, stats, choice)
        v, exact = self.call(k.best, args, stats, f"its search of depth {depth}")
        return v, exact

    def fronts(self, rows, depth: int, cost, box, by=None):
        """The kernel's front of ``rows`` (None: all) at depth <= depth beyond ``box``
        (``by``: the rows sorted per attribute, see :meth:`load`)."""
        from .kernels import ordered as k

        m = self.load(rows, by)
        stats = np.zeros(k.N_STATS, dtype=np.int64)
        args = (self.table, self.work, m, k.FrontLimits(depth, box), cost, _ALL, stats)
        (pts,) = self.call(k.fronts, args, stats, f"its search of a front at depth <= {depth}")
        return pts

    def load(self, rows: np.ndarray | None, by: np.ndarray | None = None) -> int:
        """Put the subtable ``rows`` (None: every row) at level 0; returns its size.
        ``by``, when known: its rows sorted per attribute (:meth:`sorted_rows`)."""
        if rows is None:
            self.buf[0] = self.order
            return self.order.shape[1]
        if by is not None:
            self.buf[0, :, : by.shape[1]] = by
            return int(by.shape[1])
        m = int(rows.size)
        if m * max(m.bit_length(), 1) < self.order.shape[1]:
            # A small subtable: its rows sorted per attribute, by code then row (the order's
            # own ties: a stable sort of all rows), costs less than a pass over all rows.
            rows = np.sort(rows)
            for a in range(self.order.shape[0]):
                self.buf[0, a, :m] = rows[np.argsort(self.codes[a][rows], kind="stable")]
            return m
        self.buf[0, :, :m] = self.sorted_rows([rows], self.order)[0]
        return m

    def sorted_rows(self, parts: list, by: np.ndarray) -> list:
        """Each subtable of ``parts`` (disjoint row arrays) sorted per attribute (an A x
        |rows| array: each attribute's rows by code, ties by row, as the kernels read
        them), from ``by``, a table of more rows sorted so (the whole table's order, or a
        parent subtable's): one pass over ``by`` keeps each part's rows in their order."""
        part = np.full(self.order.shape[1], -1, dtype=np.int16 if len(parts) < 2**15 else np.int32)
        for j, rows in enumerate(parts):
            part[rows] = j
        # a stable sort by part (a radix sort, for small ints) keeps each part's rows in by's
        # order: the rows of no part first (-1), then each part's, A rows of its size
        at = np.argsort(part[by], axis=1, kind="stable")
        grouped = np.take_along_axis(by, at, axis=1)
        lo = by.shape[1] - sum(rows.size for rows in parts)
        out = []
        for rows in parts:
            out.append(grouped[:, lo : lo + rows.size])
            lo += rows.size
        return out


def _out_of_memory(arrays: _Arrays, usage, slots: int, what: str) -> LimitError:
    """The LimitError of a kernel call that stopped at its memory budget (``usage``: what
    it held, :data:`~dagger_cli.engine.kernels.ordered.U_PEAK` ...)."""
    from .kernels import ordered as k

    held = arrays.held(slots)
    asked = int(usage[k.U_ASKED])
    memo, entries = int(usage[k.U_MEMO_BYTES]), int(usage[k.U_MEMO_SIZE])
    if memo:
        parts = f"its memo of {entries:,} subtables held {size_text(memo)} of it"
    else:
        parts = "its fronts and the subtables' scratch"
    if arrays.max_memory is None:
        head = "the ordered solver ran out of memory"
    else:
        head = f"the ordered solver needs more than {size_text(arrays.max_memory)} (--max-memory)"
    return LimitError(
        f"{head}: the table and workspace take {size_text(held)}, and {what} asked for "
        f"{size_text(asked)} when it stopped ({parts}). Try a lower --max-depth than "
        f"{arrays.depth}, or fewer thresholds per numeric column (--thresholds K, e.g. 16)."
    )


def _run(kernel, args, stats: np.ndarray, progress: Progress):
    """Call a kernel in a worker thread; show progress; on Ctrl-C, stop it and re-raise."""

    def call(i: int, slot: int):
        return kernel, args, stats

    results: list = [None]
    _schedule(call, 1, 1, results, lambda: 1, [stats], 0, stats, progress)  # one step, one slot
    return results[0]


def solve_ordered(table, query) -> Relation:
    """The ``ordered`` solver (see the module docstring)."""
    from .kernels import ordered as k

    cx, cy = query.x_cost, query.y_cost
    pair = _decision_pair(table, query)
    # the kernel's x false positives, its y false negatives (with misclassifications as the
    # other cost, their sum: read back at the end)
    roc = pair in (ROC_PAIR, MIS)
    swap = pair != MIS and cx.name == ("false-negatives" if roc else MIS)
    other = COSTS["false-positives"] if pair == MIS else cy if swap else cx
    given = table  # the Relation's table
    searched = table  # the table as the kernels read it
    if roc:
        searched, table = _two_classes(table)
    depth = min(int(query.max_depth), table.n_tests)
    progress = Progress(query.progress)
    stats = np.zeros(k.N_STATS, dtype=np.int64)
    leaf_mis = _leaf_mis(table, np.arange(table.n_rows))
    arrays = None
    root: dict = {}  # the root's provenance of each point of a whole front
    try:
        if MIS not in (cx.name, cy.name) and not roc:
            # Every other cost is least at the leaf: the front is the leaf alone.
            xs, ys = [cx.leaf(leaf_mis)], [cy.leaf(leaf_mis)]
            points = [(xs[0], ys[0])]
        else:
            arrays = _Arrays(searched, depth, query.max_memory)
            if other.name == "depth" and query.scheduler is not None and depth >= 3:
                pts = _cluster_depth_front(table, arrays, depth, leaf_mis, query, stats, progress)
            elif other.name == "depth":
                pts = _depth_front(arrays, depth, leaf_mis, stats, progress)
            else:
                # the query's bounds, as the kernel's: on (other, misclassifications), or
                # (false positives, false negatives), each at most misclassifications
                max_o, max_m = (query.max_y, query.max_x) if swap else (query.max_x, query.max_y)
                if pair == MIS:
                    bound = {cx.name: query.max_x, cy.name: query.max_y}
                    max_o = _least_of(bound.get("false-positives"), bound[MIS])
                    max_m = _least_of(bound.get("false-negatives"), bound[MIS])
                known = []
                if query.least_y and not swap and not roc:
                    # Only the least misclassifications and the least x there are wanted:
                    # the fast depth search finds them, and the costs of its trees bound the
                    # search. (For a whole front such incumbents cost more than they save:
                    # rice's Λ vs µ took 66 s with them, 50 s without.)
                    extractor = _Extractor(table, arrays, COSTS["depth"], False, depth)
                    best = _depth_front(arrays, depth, leaf_mis, stats, progress)
                    known = [(extractor.tree(d, m).costs()[other.column], m) for d, m in best]
                    max_m = best[-1][1] if max_m is None else min(max_m, best[-1][1])
                    max_o = known[-1][0] if max_o is None else min(max_o, known[-1][0])
                box = _box(max_o, max_m, known)
                pts, root = _whole_front(arrays, depth, other, box, stats, progress)
            # misclassifications as x: the same points, the other way round (x ascending)
            points = [(y, x) for x, y in reversed(pts)] if swap else pts
            if pair == MIS:
                points = _as_misclassifications(points, cx.name, cy.name)
    finally:
        progress.close()
    front = Front(
        cx,
        cy,
        np.array([p[0] for p in points], dtype=np.int64),
        np.array([p[1] for p in points], dtype=np.int64),
        given.weight_total,
    )
    rel = Relation(
        table=given,
        front=front,
        stats=OrderedStats(
            subtables=int(stats[k.S_SOLVED]),
            splits=int(stats[k.S_EVALUATED]),
            pruned=int(stats[k.S_PRUNED]),
            max_depth=query.max_depth,
        ),
        engine="ordered",
        seconds=0.0,
        max_depth=query.max_depth,
    )
    zero = next(iter(ROC & {cx.name, cy.name})) if pair == "leaf" else None
    rel.extractor = _Extractor(
        table, arrays, other, swap, depth, root, _to_kernel(query, pair), zero
    )
    return rel


def _least_of(a: int | None, b: int | None) -> int | None:
    """The smaller of two bounds (None: none)."""
    return b if a is None else a if b is None else min(a, b)


def _as_misclassifications(points, x: str, y: str) -> list:
    """The ROC front's points (false positives, false negatives) read as the query's pair
    of misclassifications (their sum, on two classes) and one of them: the Pareto-optimal
    ones, x ascending (of two points of equal costs, the first of the ROC front's)."""
    value = {
        MIS: lambda fp, fn: fp + fn,
        "false-positives": lambda fp, fn: fp,
        "false-negatives": lambda fp, fn: fn,
    }
    xy = [(value[x](fp, fn), value[y](fp, fn)) for fp, fn in points]
    fx, fy = np.array([p[0] for p in xy], np.int64), np.array([p[1] for p in xy], np.int64)
    return [(int(fx[i]), int(fy[i])) for i in pareto(fx, fy)]


def _to_kernel(query, pair):
    """How the extractor reads a point of the query's front as the kernel's: None (the
    same, or swapped), or for misclassifications against false positives or negatives, a
    function from the query's (x, y) to (false positives, false negatives)."""
    if pair != MIS:
        return None
    names = (query.x_cost.name, query.y_cost.name)

    def to(x: int, y: int) -> tuple[int, int]:
        cost = dict(zip(names, (x, y)))
        mis = cost[MIS]
        if "false-negatives" in cost:
            return mis - cost["false-negatives"], cost["false-negatives"]
        return cost["false-positives"], mis - cost["false-positives"]

    return to


def _two_classes(given):
    """For false positives against negatives: ``given`` (weighted, with a positive class)
    as the kernels read it, in two classes, 1 the positive one, its rows keeping their
    weights (row and class weights; no prices: a leaf's two points read none); and as the
    trees read it, ``given`` itself."""
    from dataclasses import replace

    w = given.weighting
    positive = given.decision_values[w.positive]
    on = given.decisions == w.positive
    two = replace(
        given,
        decisions=on.astype(given.decisions.dtype),
        decision_values=("", positive),
        weighting=replace(w, prices=None, price_scale=1, positive=1),
    )
    return two, given


def _weight(table, rows: np.ndarray) -> int:
    """The weight of ``rows`` (their number without weights): the ``n`` of every cost."""
    w = getattr(table, "weighting", None)
    return int(rows.size) if w is None else int(w.rows[rows].sum())


def _leaf_mis(table, rows: np.ndarray) -> int:
    """The misclassifications of the leaf of ``rows``: their weight not of the heaviest
    decision, or with prices its decision's of least price."""
    counts, _ = rows_labels(table, rows)
    w = getattr(table, "weighting", None)
    if w is not None and w.prices is not None:
        return w.leaf(np.array(counts, dtype=np.int64))[1]
    return _weight(table, rows) - max(counts, default=0)


def _cluster_depth_front(table, arrays: _Arrays, depth: int, leaf_mis: int, query, stats, progress):
    """:func:`_depth_front` with the pieces of each depth's search run on the Dask cluster
    of ``query.scheduler`` (:mod:`dagger_cli.engine.cluster`)."""
    from .cluster import Cluster, connect

    with connect(query.scheduler, query.workers) as client:
        on = Cluster(client, query.scheduler, table, depth, query.max_memory, piece_state)
        try:
            return _depth_front(arrays, depth, leaf_mis, stats, progress, on)
        finally:
            on.close()


def piece_state(table, depth: int, max_memory: int | None):
    """What a worker of a cluster keeps to run the pieces of a query on ``table`` at depth
    <= ``depth``: the solver's arrays and an empty memo (see
    :mod:`dagger_cli.engine.cluster`)."""
    return _Arrays(table, depth, max_memory), new_memo()


def _depth_front(arrays: _Arrays, depth: int, leaf_mis: int, stats, progress, cluster=None):
    """(depth, least misclassifications) for every depth that improves on the one before.
    From depth 3 on, each depth's search is cut into pieces at its root
    (:mod:`dagger_cli.engine.pieces`), run on the engine's threads (:func:`_depth_pieces`)
    or on a Dask cluster (``cluster``, a :class:`dagger_cli.engine.cluster.Cluster`)."""
    from .kernels import ordered as k

    points = [(0, leaf_mis)]
    ub = leaf_mis
    choice = np.zeros(3, dtype=np.int64)
    memo = new_memo()  # shared by the depths (its keys hold the depth) and the pieces
    name = arrays.name(None)
    plan = None
    for d in range(1, depth + 1):
        if ub == 0:
            break
        m = arrays.load(None)
        limits = k.BestLimits(d, ub)
        if d >= 3 and m > 1:
            if plan is None:
                plan = _plan(arrays, m)
            if cluster is not None:
                v = cluster.best(plan, d, ub, stats, _cluster_tick(progress, d, stats))
                exact = v < ub
            else:
                v, exact = _depth_pieces(arrays, m, limits, name, memo, plan, stats, progress)
        else:
            args = (arrays.table, arrays.work, m, limits, name, memo, stats, choice)
            v, exact = arrays.call(k.best, args, stats, f"its search of depth {d}", progress)
        if stats[k.S_ABORT]:
            raise KeyboardInterrupt
        if exact and v < ub:
            points.append((d, int(v)))
            ub = int(v)
    return points


def _cluster_tick(progress: Progress, d: int, stats):
    """The progress line of a depth's pieces on a cluster."""
    from .kernels import ordered as k

    def tick(done: int, made: int, least: int) -> None:
        progress.update(
            "ordered solver on the cluster",
            done,
            made,
            unit=f"pieces of depth {d} (least misclassifications so far {least:,}; "
            f"{int(stats[k.S_EVALUATED]):,} splits in the pieces done)",
        )

    return tick


def _plan(arrays: _Arrays, m: int) -> list:
    """The pieces of a search at the root of the first ``m`` rows of level 0
    (:func:`dagger_cli.engine.pieces.cut`)."""
    from . import pieces as pc
    from .kernels import ordered as k

    order, _, splits = k.root_plan(arrays.table, arrays.work, m)
    return pc.cut(order.tolist(), splits.tolist(), arrays.kinds.astype(bool).tolist())


def _depth_pieces(arrays: _Arrays, m: int, limits, name, memo, plan, stats, progress):
    """:func:`~dagger_cli.engine.kernels.ordered.best` at the root of the first ``m`` rows
    of level 0, as its pieces (``plan``) run on the engine's threads: (value, exact).

    On several threads the pieces are a team's (:func:`_team`): the threads share each
    piece's thresholds, in the pieces' order. On one thread, and when a thread of the team
    runs out of its share of the memory, they run one after the other on one thread with
    all of it (:func:`_pieces_in_turn`), so whether the ceiling stops the search does not
    depend on the threads."""
    cores = threads.current_choice()
    slots = max(1, min(cores, arrays.spare_buffers() + 1))
    if slots > 1 and len(plan) > 0:
        answer = _team(arrays, m, limits, name, memo, plan, stats, progress, slots)
        if answer is not None:
            return answer
    return _pieces_in_turn(arrays, m, limits, name, memo, plan, stats, progress)


def _team(arrays: _Arrays, m: int, limits, name, memo, plan, stats, progress, slots: int):
    """The pieces run by a team of ``slots`` threads
    (:func:`~dagger_cli.engine.kernels.ordered.best_team`), each with its own workspace (a
    copy of the rows, the root's level loaded) and an even share of the kernels' memory:
    (value, exact), or None when a thread ran out of its share."""
    from . import pieces as pc
    from .kernels import ordered as k

    team = k.root_team(plan, limits.bound)
    bufs = [arrays.buf] + [arrays.buf.copy() for _ in range(slots - 1)]
    sides = [arrays.side] + [arrays.side.copy() for _ in range(slots - 1)]
    own = [np.zeros_like(stats) for _ in range(slots)]
    usages = [np.zeros(k.N_USAGE, dtype=np.int64) for _ in range(slots)]

    def work(_i: int, slot: int):
        ws = k.Workspace(bufs[slot], sides[slot])
        return k.best_team(
            arrays.table, ws, m, limits, name, memo, own[slot], team, arrays.budget(slots),
            usages[slot],
        )  # fmt: skip

    def tick(_running: int) -> None:
        _pieces_tick(progress, [stats, *own], limits.depth, team.done, len(plan))

    def stop() -> None:
        for st in own:
            st[k.S_ABORT] = 1
        stats[k.S_ABORT] = 1

    results = pc.Threads(slots).run(list(range(slots)), work, tick, stop)
    for st in own:
        stats[: k.S_ABORT] += st[: k.S_ABORT]
    if any(r != k.DONE for r in results):
        return None
    best = int(team.value)
    return best, best < limits.bound


def _pieces_tick(progress: Progress, counters: list, depth: int, done: int, total: int) -> None:
    """The progress line of a depth's pieces: the splits evaluated in all ``counters``
    (stats arrays) and how many of the ``total`` pieces are ``done``."""
    from .kernels import ordered as k

    evaluated = sum(int(st[k.S_EVALUATED]) for st in counters)
    progress.update(
        "ordered solver",
        evaluated,
        None,
        unit=f"splits, depth {depth}: pieces {done:,} of {total:,} done",
    )


def _pieces_in_turn(arrays: _Arrays, m: int, limits, name, memo, plan, stats, progress):
    """The pieces one after the other on one thread, with all the kernels' memory: (value,
    exact); out of memory raises :class:`LimitError` naming the piece."""
    from . import pieces as pc
    from .kernels import ordered as k

    shared = pc.shared_bound(limits.bound)
    own = np.zeros_like(stats)
    usage = np.zeros(k.N_USAGE, dtype=np.int64)
    ws = k.Workspace(arrays.buf, arrays.side)
    state = {"done": 0}

    def work(i: int, _slot: int):
        piece = plan[i]
        root = k.RootPiece(piece.attr, piece.lo, piece.hi)
        choice = np.zeros(5, dtype=np.int64)
        usage[:] = 0
        res = k.best_piece(
            arrays.table, ws, m, limits, name, memo, own, root, shared, choice,
            arrays.budget(1), usage,
        )  # fmt: skip
        if res[0] != k.DONE:
            what = f"its search of depth {limits.depth} (attribute {piece.attr})"
            raise _out_of_memory(arrays, usage, 1, what)
        state["done"] += 1
        return res

    def tick(_done: int) -> None:
        _pieces_tick(progress, [stats, own], limits.depth, state["done"], len(plan))

    def stop() -> None:
        own[k.S_ABORT] = 1
        stats[k.S_ABORT] = 1

    try:
        pc.Threads(1).run(list(range(len(plan))), work, tick, stop)
    finally:
        stats[: k.S_ABORT] += own[: k.S_ABORT]
    best = int(shared[0])
    return best, best < limits.bound


def _params(cost):
    """The kernel's parameters of a cost without errors in its leaves."""
    from .kernels import ordered as k

    if cost.reads_decision:  # false positives, against false negatives as y
        return k.FrontCost(0, 0, 0, 0, 1)
    if cost.leaf_mis:
        raise AssertionError(f"{cost.name}: the ordered fronts need a cost without errors")
    return k.FrontCost(cost.combine, cost.leaf_const, cost.split_const, cost.split_rows)


def _box(max_x: int | None, max_y: int | None, known=()):
    """The kernel's bound for x <= max_x and y <= max_y: a point (NEG, max_y + 1) rules
    out every larger y, a point (max_x + 1, NEG) every larger x; and for every tree known
    to cost (x, y), the points (x, y + 1) and (x + 1, y) rule out what it dominates (but
    not its own point, which the search then finds)."""
    from .kernels import ordered as k

    pts = []
    if max_y is not None:
        pts.append((k.NEG, max_y + 1))
    if max_x is not None:
        pts.append((max_x + 1, k.NEG))
    for x, y in known:
        pts += [(x, y + 1), (x + 1, y)]
    xs: list[int] = []
    ys: list[int] = []
    for x, y in sorted(pts):  # the staircase: x up, y strictly down
        if not ys or y < ys[-1]:
            xs.append(x)
            ys.append(y)
    n = len(xs)
    tag = np.full(n, k.VIRTUAL, dtype=np.int64)
    none = np.full(n, -1, dtype=np.int64)
    return k.Points(np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64), tag, none, none)


def _whole_front(arrays: _Arrays, depth: int, cost, box, stats, progress):
    """The whole front at depth <= D and the root's provenance of each point. At depth 3
    and more, the root's attributes are searched one step each (:func:`_root_steps`), several at
    once in threads when there are cores and memory for them; each step starts from a
    working front fixed by the order alone and their points are merged in that order, so
    the answer never depends on the threads."""
    from .kernels import ordered as k

    m = arrays.load(None)
    px = _params(cost)
    A = arrays.codes.shape[0]
    total = np.bincount(arrays.dec, minlength=arrays.C)
    if depth < 3 or A < 2 or m <= 1 or total.max() == m:
        args = (arrays.table, arrays.work, m, k.FrontLimits(depth, box), px, _ALL, stats)
        (f,) = arrays.call(k.fronts, args, stats, f"its search (depth <= {depth})", progress)
    else:
        f = _root_steps(arrays, m, depth, px, box, stats, progress)
    if stats[k.S_ABORT]:
        raise KeyboardInterrupt
    points = list(zip(f.x.tolist(), f.y.tolist()))
    return points, dict(zip(points, zip(f.kind.tolist(), f.attr.tolist(), f.code.tolist())))


def _root_steps(arrays: _Arrays, m: int, depth: int, px, box, stats, progress):
    """:func:`~dagger_cli.engine.kernels.ordered.fronts` at the root, one step per
    attribute in the search's order, step i searched from the working front as the steps
    before i - :data:`LAG` + 1 left it (see :func:`_whole_front`), so up to LAG steps can run
    at once, each reading what the steps before it find as they go (the kernel's board:
    :func:`~dagger_cli.engine.kernels.ordered.board`), and the answer is the same however
    many run.

    Memory: the steps running at once share the kernels' budget evenly; a step that runs
    out of its share beside others is run again alone with all of it once the steps before
    it are done, so that it reads their whole fronts, as on one thread."""
    from .kernels import ordered as k

    table = arrays.table
    args = (table, arrays.work, m, k.FrontLimits(depth - 1, box), px, _ALL, stats)
    what = f"its search (depth <= {depth})"
    (shallow,) = arrays.call(k.fronts, args, stats, what, progress)  # one level shallower
    stats[k.S_SOLVED] += 1
    fronts_after = [k.working_front(box, shallow)]
    order = k.hint_order(table, arrays.work, m)
    cores = threads.run(_core.get_threads)  # DAGGER_THREADS, as for the other kernels
    mode = {"slots": min(LAG, cores, arrays.spare_buffers() + 1)}
    slots = mode["slots"]
    bufs = [arrays.buf] + [arrays.buf.copy() for _ in range(slots - 1)]
    sides = [arrays.side] + [arrays.side.copy() for _ in range(slots - 1)]
    own = [np.zeros_like(stats) for _ in order]
    usages = [np.zeros(k.N_USAGE, dtype=np.int64) for _ in order]
    results: list = [None] * order.size
    board = k.board(order.size)  # what the steps before each one found, as they go

    def step(i: int, slot: int):
        work = fronts_after[max(i - LAG + 1, 0)]  # the front the steps before i - LAG + 1 left
        attrs = np.full(1, order[i], dtype=np.int64)
        limits = k.FrontLimits(depth, work)
        ws = k.Workspace(bufs[slot], sides[slot])
        budget = arrays.budget(mode["slots"])
        args = (table, ws, m, limits, px, attrs, own[i], budget, usages[i], board, i)
        return k.fronts, args, own[i]

    def alone():
        """After a step ran out of its share: one step at a time, with all the memory."""
        mode["slots"] = 1
        del bufs[1:], sides[1:]

    def merge_done() -> int:
        """Merge the finished steps that follow the merged ones; how many are merged."""
        while len(fronts_after) <= order.size:
            res = results[len(fronts_after) - 1]
            if res is None or res[0] != k.DONE:
                break
            fronts_after.append(k.merged(fronts_after[-1], res[1]))
        return len(fronts_after) - 1

    base = int(stats[k.S_EVALUATED])
    _schedule(step, order.size, slots, results, merge_done, own, base, stats, progress, alone)
    for i, res in enumerate(results):
        if res is not None and res[0] != k.DONE:
            what = f"its search (depth <= {depth}, attribute {order[i]})"
            raise _out_of_memory(arrays, usages[i], mode["slots"], what)
    for st in own:
        stats[: k.S_ABORT] += st[: k.S_ABORT]
    return k.real(fronts_after[-1])


def _schedule(
    step, n: int, slots: int, results: list, merge_done, own, base, stats, progress, alone=None
):
    """Run steps 0..n-1 in order, each in a worker thread (the kernels release the GIL), at
    most ``slots`` at once, step i once ``merge_done()`` (which merges what is finished, in
    order) counts i - LAG + 1 steps merged; ``step(i, slot)`` gives its call ``(kernel,
    args, own stats)`` and ``results[i]`` gets its value, ``(status, ...)``. Shows the
    splits evaluated (``base`` plus the steps'); on Ctrl-C sets every step's abort flag,
    waits for them and re-raises.

    A step out of memory (OUT_OF_MEMORY) while others ran beside it is run again: no step
    starts until the running ones end, ``alone()`` is called (one step at a time from
    then on, with all the memory) and the step, its stats cleared, runs first. A step out
    of memory alone ends the schedule (its result says so)."""
    from .kernels import ordered as k

    errors: list = []
    running: dict[int, tuple[int, threading.Thread]] = {}  # slot -> its step and thread
    pending = list(range(n))  # the steps to start, in order
    retrying = False
    stopped = False

    def work(i, kernel, args):
        try:
            results[i] = threads.run(kernel, *args)
        except BaseException as err:  # handed to the caller's thread
            errors.append(err)

    try:
        while (pending and not stopped) or running:
            for slot, (i, t) in list(running.items()):
                if not t.is_alive():
                    t.join()
                    del running[slot]
                    res = results[i]
                    if res is not None and res[0] == k.OUT_OF_MEMORY:
                        if slots > 1 and alone is not None:
                            results[i] = None  # again, alone
                            own[i][:] = 0
                            bisect.insort(pending, i)
                            retrying = True
                        else:
                            stopped = True
            if errors:
                break
            if retrying and not running:
                slots, retrying = 1, False
                alone()
            merged = merge_done()
            free = [s for s in range(slots) if s not in running]
            while free and pending and not (stopped or retrying):
                if merged < pending[0] - LAG + 1:
                    break
                i = pending.pop(0)
                kernel, args, _ = step(i, free[0])
                t = threading.Thread(
                    target=work, args=(i, kernel, args), name="dagger-ordered", daemon=True
                )
                running[free.pop(0)] = (i, t)
                t.start()
            if running:
                next(iter(running.values()))[1].join(0.05)
            done = base + sum(int(st[k.S_EVALUATED]) for st in own)
            # the root's steps are the one total known beforehand: how far the search is
            steps = f", the root's attributes {merged:,} of {n:,} done" if n > 1 else ""
            progress.update("ordered solver", done, None, unit=f"splits{steps}")
    except KeyboardInterrupt:
        for st in own:
            st[k.S_ABORT] = 1
        stats[k.S_ABORT] = 1
        for _, t in running.values():
            t.join()
        raise
    if errors:
        for _, t in running.values():
            t.join()
        raise errors[0]
    merge_done()


def _first_piece(arrays: _Arrays, rows, d: int, mis: int):
    """The root of the first tree of depth <= d (>= 3) with ``mis`` misclassifications on
    ``rows`` (its least; the leaf has more), found by the pieces of the search
    (:mod:`dagger_cli.engine.pieces`) on the engine's threads: each piece searches below
    ``mis + 1`` on a memo of its own, so the tree it finds first does not depend on what ran
    beside it, and the answer is the first piece, in the search's order, that has one. A
    piece after one that found is stopped or never started. Returns (attribute, code, the
    children's least misclassifications or None), or None when a piece ran out of memory
    (the caller then searches as one call, which says so)."""
    from . import pieces as pc
    from .kernels import ordered as k

    m = arrays.load(rows)
    plan = _plan(arrays, m)
    slots = max(1, min(threads.current_choice(), arrays.spare_buffers() + 1, len(plan)))
    bufs = [arrays.buf] + [arrays.buf.copy() for _ in range(slots - 1)]
    sides = [arrays.side] + [arrays.side.copy() for _ in range(slots - 1)]
    own = [np.zeros(k.N_STATS, dtype=np.int64) for _ in plan]
    choices = [np.full(5, -1, dtype=np.int64) for _ in plan]
    first = [len(plan)]  # the first piece that found one
    lock = threading.Lock()
    name = arrays.name(rows)
    limits = k.BestLimits(d, mis + 1)

    def work(i: int, slot: int):
        if first[0] < i:
            return None
        ws = k.Workspace(bufs[slot], sides[slot])
        usage = np.zeros(k.N_USAGE, dtype=np.int64)
        res = k.best_piece(
            arrays.table, ws, m, limits, name, new_memo(), own[i], k.RootPiece(
                plan[i].attr, plan[i].lo, plan[i].hi), pc.shared_bound(mis + 1), choices[i],
            arrays.budget(slots), usage,
        )  # fmt: skip
        if res[0] == k.DONE and res[2]:
            with lock:
                if i < first[0]:
                    first[0] = i
                    for st in own[i + 1 :]:
                        st[k.S_ABORT] = 1
        return res

    def tick(done: int) -> None:
        if has_deadline():
            check_deadline()

    def stop() -> None:
        for st in own:
            st[k.S_ABORT] = 1

    results = pc.Threads(slots).run(list(range(len(plan))), work, tick, stop)
    i = first[0]
    if any(r is not None and r[0] != k.DONE for r in results[: i + 1]):
        return None
    if i == len(plan) or results[i][1] != mis:  # type: ignore[index]
        raise AssertionError("extraction lost its way: the point is not on the front")
    attr, code, kind, vl, vr = (int(v) for v in choices[i])
    return attr, code, ([vl, vr] if kind == k.ORDERED and vl >= 0 and vr >= 0 else None)


class _Extractor:
    """The tree behind a front point: the search run again on the subtables of its path
    (each run finds the same first tree, so ties resolve as they did). Called with a
    point's (x, y), it gives that tree (:meth:`tree`); :meth:`trees` gives the trees of
    many points in one pass."""

    def __init__(self, table, arrays, other, swap, depth, root=None, to_kernel=None, zero=None):
        self.table, self.arrays, self.other, self.swap = table, arrays, other, swap
        self.to_kernel = to_kernel  # a point as the kernel's (x, y), if not by swap
        # the single leaf's front (:func:`_decision_pair`): the cost its decision makes 0
        self.zero = zero
        self.depth = depth
        self.root = root or {}  # the root's (kind, attribute, code) of each front point
        self.memo = new_memo() if arrays is not None else None  # the children's values
        self.used: dict = {}  # the threshold tests of the trees made: name -> Threshold
        # false positives (x) against negatives (y): a leaf takes the decision of its point
        self.roc = other.reads_decision and zero is None

    def __call__(self, x: int, y: int) -> Tree:
        return self.tree(x, y)

    def tree(self, x: int, y: int) -> Tree:
        """The tree behind the front's point (x, y)."""
        x, y = self._kernel_point(x, y)
        rows = np.arange(self.table.n_rows, dtype=np.int64)
        if self.arrays is None:
            root = self._leaf(rows)
        elif self.other.name == "depth":
            root = self._least(rows, x, y)
        else:
            root = self._node(rows, self.depth, x, y, self.root.get((x, y)))
        return self._tree(root)

    def _kernel_point(self, x: int, y: int) -> tuple[int, int]:
        """The query's point (x, y) as the kernel's front has it."""
        if self.to_kernel is not None:
            return self.to_kernel(x, y)
        return (y, x) if self.swap else (x, y)

    def _tree(self, root: TreeNode) -> Tree:
        table = self.table
        root = with_decision_terms(table, root)  # a leaf's false positives and negatives
        return Tree(
            root,
            tuple(table.attributes),
            table.decision_name,
            tuple(table.decision_values),
            tree_costs(root, table.weight_total),
            dict(self.used),
        )

    def trees(self, points, progress: Progress | None = None) -> list[Tree]:
        """The trees behind the front's points ``[(x, y), ...]``, the same as :meth:`tree`
        gives one by one, found in one pass: the points whose trees split a subtable
        alike share one search of each child's front (its points for all of them at once),
        each point's root is found by the same search as one by one (:meth:`_root`), and
        equal subtrees are found once (see :meth:`_nodes`). ``progress`` counts the points
        whose trees are made, a root split at a time."""
        if self.arrays is None or self.other.name == "depth":
            # A front of one cost and depth has at most D + 1 points: one by one.
            return [self.tree(x, y) for x, y in points]
        targets = [self._kernel_point(x, y) for x, y in points]
        rows = np.arange(self.table.n_rows, dtype=np.int64)
        known = {t: self.root.get(t) for t in targets}
        groups: dict = {}  # the points by the root split the solve kept (None: unknown)
        for t in known:
            groups.setdefault(known[t], []).append(t)
        nodes: dict = {}
        for key, group in groups.items():
            wanted = {t: key for t in group}
            nodes.update(self._nodes(rows, self.depth, wanted, self.arrays.order))
            if progress is not None:
                progress.update("trees", len(nodes), len(known), unit="points' trees")
        return [self._tree(nodes[t]) for t in targets]

    def _nodes(self, rows, r: int, targets: dict, by: np.ndarray, kept=None) -> dict:
        """``{(tx, ty): node}``: for each target, the first tree of depth <= r with those
        costs on ``rows``, as :meth:`_node` finds it (``targets[t]``: its root
        (kind, attribute, code) when known, else None). Each target's root is found as
        :meth:`_node` finds it (:meth:`_root`: the search bounded to that target's point,
        whose first tree there depends on the bound); the targets split alike share one
        search of each child's front, bounded by the largest of their costs (its points
        within a target's box are that box's front), and each target's children are
        picked from its own part of them, as :meth:`_node` picks them. ``kept``: the
        subtable's depth-one front, once found (:meth:`_fronts`)."""
        if r == 0:  # no split left: the leaf, the one tree of depth 0
            return {t: self._leaf(rows, t) for t in targets}
        from .kernels import ordered as k

        out: dict = {}
        splits: dict = {}  # (depth, attribute, code) -> the targets split so
        kept = {} if kept is None else kept
        for t, known in targets.items():
            d, kind, attr, code = self._root(rows, r, t[0], t[1], known, by, kept)
            if kind == k.LEAF:
                out[t] = self._leaf(rows, t)
            else:
                splits.setdefault((d, attr, code), []).append(t)
        mis = COSTS[MIS]
        n = _weight(self.table, rows)
        for (d, attr, code), ts in splits.items():
            name, children = self._split(rows, attr, code)
            fixed = self.other.split_const + self.other.split_rows * n
            top_x, top_y = max(t[0] for t in ts) - fixed, max(t[1] for t in ts)
            # each child's rows sorted per attribute, from its parent's (one pass over them),
            # for its searches (none at depth 0)
            subs = [sub for _, sub in children]
            bys = self.arrays.sorted_rows(subs, by) if d > 1 else [by] * len(subs)
            keeps: list[dict] = [{} for _ in subs]
            shared = [
                self._kid_front(sub, d - 1, top_x, top_y, b, keep)
                for sub, b, keep in zip(subs, bys, keeps)
            ]
            # per child: the points its targets' trees take there (their roots unknown)
            below: list[dict] = [{} for _ in children]
            picks = {}
            for t in ts:
                room = t[0] - fixed
                own = [_in_box(gx, gy, room, t[1]) for gx, gy in shared]
                picks[t] = pick_children(self.other, mis, n, own, t[0], t[1])
                for j, p in enumerate(picks[t]):
                    below[j][p] = None
            kids = [
                self._nodes(sub, d - 1, want, b, keep)
                for sub, want, b, keep in zip(subs, below, bys, keeps)
            ]
            for t in ts:
                branches = [
                    (value, kids[j][p]) for j, ((value, _), p) in enumerate(zip(children, picks[t]))
                ]
                out[t] = self._node_of(rows, name, code, branches)
        return out

    def _leaf(self, rows, point=None) -> TreeNode:
        """The leaf of ``rows`` (its price, under a price matrix); with a choice of
        decision (false positives against negatives) the one whose point is ``point``."""
        node = leaf_node(self.table, rows)
        if self.zero is not None:
            # of the decisions that make that cost 0, the one of least misclassifications
            # (price), the first in code order on a tie
            dec, mis, fp, fn = self.table.weighting.decision_leaves(
                np.asarray([node.counts], dtype=np.int64)
            )
            zero = (fp if self.zero == "false-positives" else fn)[0]
            j = min(np.flatnonzero(zero == 0).tolist(), key=lambda j: (mis[0][j], dec[0][j]))
            return TreeNode(node.counts, self.table.decision_values[dec[0][j]])
        if self.roc and point is not None:
            xs, ys, decs = self._leaf_points(node.counts)
            hit = [j for j in range(len(decs)) if (xs[j], ys[j]) == tuple(point)]
            if not hit:
                raise AssertionError("extraction lost its way: the point is not a leaf's")
            return TreeNode(node.counts, self.table.decision_values[decs[hit[0]]])
        return node

    def _leaf_points(self, counts):
        """A leaf's two decisions (:meth:`~dagger_cli.weights.Weighting.decision_leaves`):
        the false positives, the false negatives and the decision of each."""
        w = self.table.weighting
        dec, _, fp, fn = w.decision_leaves(np.asarray([counts], dtype=np.int64))
        return fp[0].tolist(), fn[0].tolist(), dec[0].tolist()

    def _split(self, rows, attr: int, code: int):
        """The children (value label, rows) of the split of ``rows``: an ordered
        attribute's ``<=`` and ``>`` sides, or a nominal attribute's values in code order."""
        table = self.table
        col = table.codes[attr][rows]
        name = table.attributes[attr]
        ordered = table.ordered.get(name)
        if ordered is not None:
            test = ordered.split(code)
            self.used[test.name] = test
            from ..data.thresholds import NO, YES

            below = col <= code
            return test.name, [(YES, rows[below]), (NO, rows[~below])]
        values = table.values[attr]
        return name, [(values[v], rows[col == v]) for v in np.unique(col)]

    def _node_of(self, rows, attr, code, kids) -> TreeNode:
        counts, decision = rows_labels(self.table, rows)
        return TreeNode(counts, decision, attr, tuple(kids))

    def _least(self, rows, d: int, mis: int) -> TreeNode:
        """The first tree of depth <= d with ``mis`` misclassifications on ``rows``: the
        leaf if it has them, else (depth >= 3) the first tree of the first piece of the
        search that has one (:func:`_first_piece`), or (depth <= 2) the search's first."""

        a = self.arrays
        choice = np.zeros(3, dtype=np.int64)
        stats = np.zeros(4, dtype=np.int64)
        if _leaf_mis(self.table, rows) == mis:
            return self._leaf(rows)
        sides = None
        found = _first_piece(a, rows, d, mis) if d >= 3 and rows.size > 1 else None
        if found is not None:
            attr, code, sides = found
        else:
            v, exact = a.best(rows, d, mis + 1, stats, choice)  # a fresh memo: the root's
            if not exact or v != mis:
                raise AssertionError("extraction lost its way: the point is not on the front")
            attr, code = int(choice[0]), int(choice[1])
            if attr < 0:
                return self._leaf(rows)
        name, children = self._split(rows, attr, code)
        kids = []
        for j, (value, sub) in enumerate(children):
            if sides is not None:
                v = sides[j]
            else:
                v, _ = a.best(sub, d - 1, 1 << 40, stats, choice, self.memo)
            kids.append((value, self._least(sub, d - 1, int(v))))
        return self._node_of(rows, name, code, kids)

    def _fronts(self, rows, r: int, max_x: int, max_y: int, by=None, kept=None):
        """The front of ``rows`` at depth <= r, its points with x <= max_x, y <= max_y (the
        kernel's search bounded so: which tree it finds first at a point of a tie depends
        on that bound). At depth 1 the kernel takes no bound (one sweep of every split):
        the whole front, asked so; ``kept`` (a dict, in a pass of many trees) keeps it for
        the subtable's other lookups."""
        if r != 1:
            return self.arrays.fronts(rows, r, _params(self.other), _box(max_x, max_y), by)
        if kept is not None and 1 in kept:
            return kept[1]
        front = self.arrays.fronts(rows, 1, _params(self.other), _box(None, None), by)
        if kept is not None:
            kept[1] = front
        return front

    def _kid_front(self, rows, r: int, max_x: int, max_y: int, by=None, kept=None):
        """The points (x, y) of the front of ``rows`` at depth <= r with x <= max_x and
        y <= max_y, x ascending: those of the kernel's search bounded so (at r = 0 the
        leaf's, without a search). Any larger bound gives these among its points
        (:func:`_in_box`): the points, unlike the trees found first at them, do not depend
        on the bound."""
        if r > 0:
            fx, fy = self._fronts(rows, r, max_x, max_y, by, kept)[:2]
        elif self.roc:  # the leaf's two points, as the kernel's staircase
            counts, _ = rows_labels(self.table, rows)
            xs, ys, _ = self._leaf_points(counts)
            keep = pareto(np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64))
            fx, fy = np.array(xs, dtype=np.int64)[keep], np.array(ys, dtype=np.int64)[keep]
        else:
            fy = np.array([_leaf_mis(self.table, rows)], dtype=np.int64)
            fx = np.array([self.other.leaf(int(fy[0]))], dtype=np.int64)
        return _in_box(fx, fy, max_x, max_y)

    def _root(self, rows, r: int, tx: int, ty: int, known=None, by=None, kept=None):
        """(depth, kind, attribute, code): the root of the first tree of depth <= r with
        costs (tx, ty) on ``rows`` (a point of its front), found by the search bounded to
        x <= tx, y <= ty (the bound is part of the tie rule: a search under a larger one
        may find another tree of those costs first), or ``known``, the root the solve kept
        (kind, attribute, code); a point of the front one level shallower (SHALLOWER) is
        looked up there, one level less."""
        from .kernels import ordered as k

        kind, attr, code = known if known is not None else (k.SHALLOWER, -1, -1)
        if known is not None and kind == k.SHALLOWER:
            r -= 1
        while known is None or kind == k.SHALLOWER:
            fx, fy, fk, fa, fc = self._fronts(rows, r, tx, ty, by, kept)
            hit = np.flatnonzero((fx == tx) & (fy == ty))
            if hit.size != 1:
                raise AssertionError("extraction lost its way: the point is not on the front")
            kind, attr, code = int(fk[hit[0]]), int(fa[hit[0]]), int(fc[hit[0]])
            known = (kind, attr, code)
            if kind == k.SHALLOWER:
                r -= 1  # the point of a shallower tree: the same subtable, one level less
        return r, kind, attr, code

    def _node(self, rows, r: int, tx: int, ty: int, known=None) -> TreeNode:
        """The first tree of depth <= r with costs (tx, ty) on ``rows`` (a point of its
        front): its root by :meth:`_root` (``known``: the root the solve kept, if any),
        its children's points picked from their fronts bounded by what the point leaves
        them, and each child's tree found so in turn."""
        from .kernels import ordered as k

        r, kind, attr, code = self._root(rows, r, tx, ty, known)
        if kind == k.LEAF:
            return self._leaf(rows, (tx, ty))
        name, children = self._split(rows, attr, code)
        n = _weight(self.table, rows)
        room = tx - self.other.split_const - self.other.split_rows * n
        kid_fronts = [self._kid_front(sub, r - 1, room, ty) for _, sub in children]
        mis = COSTS[MIS]
        picks = pick_children(self.other, mis, n, kid_fronts, tx, ty)
        kids = [
            (value, self._node(sub, r - 1, px, py))
            for (value, sub), (px, py) in zip(children, picks)
        ]
        return self._node_of(rows, name, code, kids)


def _in_box(x: np.ndarray, y: np.ndarray, max_x: int, max_y: int):
    """The points (x, y) with x <= max_x and y <= max_y, in their order."""
    keep = (x <= max_x) & (y <= max_y)
    return x[keep], y[keep]


__all__ = ["applies", "piece_state", "solve_ordered", "why_not"]
