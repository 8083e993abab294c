"""The ordered solver's kernels (compiled, :mod:`dagger_cli._core`, ``core/ordered.cpp``
and ``core/ordered_*.hpp``) and the structures they read; driven by
:mod:`dagger_cli.engine.ordered`.

Exact trees of bounded depth over ordered (numeric) and nominal attributes, by sweeps and
branch and bound. An ordered attribute has codes 0..K (the intervals between its K
thresholds); its splits are ``code <= j`` / ``code > j``, one per threshold that separates
the subtable. A nominal attribute splits into one child per value present (as in the DAG
engine). A subtable is kept as its rows sorted by each attribute's code, in a workspace
``buf[level, a, :]``: a subtable at ``level`` owns the range ``[off, off + m)`` of every
attribute's row, its children are written into the same range of ``level + 1`` by a stable
partition (never re-sorted), and their own children below that, so siblings never
overwrite each other. The driver loads the subtable to solve at level 0 (``m`` rows).

Two searches share that representation:

* :func:`best` — the least misclassifications over the trees of depth <= r (the depth
  front, one depth at a time), below an upper bound or a proof that none is below it.
  Depth 1 is one sweep per attribute over prefix class counts; depth 2 evaluates a root
  split by one pass per attribute that keeps both children's best split (the depth-two
  pass: the attribute's rows split into the two sides' sequences without a branch, then
  each side swept on its own), or from class counts per pair of attributes when every
  attribute has few codes; deeper, the children are solved recursively. Results at depth
  >= 2 are kept in a memo (:func:`new_memo`) across calls.
* :func:`fronts` — the whole Pareto front of (x, misclassifications) for x one of total
  path length, nodes or leaves (any cost whose leaf does not depend on errors); at depth 2
  each side of a threshold is swept only where it can matter.

Both skip thresholds by bounds that lose nothing (ConTree's interval pruning, generalised
to fronts in :func:`fronts`). For a threshold between two evaluated ones ``lo < t < hi``:

* monotone: the ``<=`` side at ``t`` holds the ``<=`` side at ``lo`` and the ``>`` side at
  ``t`` holds the ``>`` side at ``hi``, and a tree on a set, restricted to a subset (its
  constant splits dropped), costs no more in any cost: so the pair's costs at ``lo``
  (left) and ``hi`` (right) bound every threshold between them from below;
* moving a threshold past k rows changes a subtree's misclassifications by at most k (and
  its total path length by at most k times its depth): around an evaluated threshold whose
  cost is far above the best found, a whole range is skipped. With row weights
  (:class:`OrderedTable`'s ``weights``) k is the weight of the rows moved.

A third rule (ConTree's zero indices): once a side has no error, every threshold beyond it
keeps that side at zero and only grows the other side, so none can be better.

Ties (documented in :mod:`dagger_cli.engine.ordered`): the first tree found wins; the
search order is fixed (attributes by their best single split, thresholds from that split
outwards, breadth first), so the outputs are deterministic.

Memory: every byte a kernel call allocates (each subtable's scratch, fronts and their
records, the memo's table) is charged to its ``budget``; past it the call stops and
returns :data:`OUT_OF_MEMORY`, with what it held in ``usage`` (``U_*``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ... import _core
from . import Status

#: What the kernels return first (:class:`~dagger_cli.engine.kernels.Status`).
DONE, OUT_OF_MEMORY = Status.DONE, Status.OUT_OF_MEMORY

#: Provenance kinds of a front point (:func:`fronts`); VIRTUAL marks a bound's point.
LEAF, ORDERED, NOMINAL, SHALLOWER, VIRTUAL = 0, 1, 2, 3, -1
#: An x below every cost: a bound point (NEG, y) rules out every point with a y >= y.
NEG = -(1 << 40)
#: ``stats`` slots: deep subproblems solved, splits evaluated, splits pruned, abort flag
#: (set by the driver on Ctrl-C; the kernels stop at their next split).
S_SOLVED, S_EVALUATED, S_PRUNED, S_ABORT = 0, 1, 2, 3
N_STATS = 4
#: ``usage`` slots (bytes, written by a call): its peak, what it would have needed when it
#: stopped (OUT_OF_MEMORY), the memo's bytes and entries at the end.
U_PEAK, U_ASKED, U_MEMO_BYTES, U_MEMO_SIZE = 0, 1, 2, 3
N_USAGE = 4
#: The sides a depth-two pass sweeps (:func:`_sides_d1p`).
LEFT, RIGHT, BOTH = 1, 2, 3

#: The table as the kernels read it: ``codes`` (int32, attributes x rows), ``kinds``
#: (int8, 1: ordered), ``nv`` (int64: codes per attribute, at ``nv[A]`` the most codes
#: for the depth-two trees from class counts, 0: never, at ``nv[A + 1]`` the depth-two
#: sweep's factor, and at ``nv[A + 2]`` the minimum leaf size, read by :func:`best` and
#: :func:`fronts`: a split is allowed when each child holds that many rows), ``dec`` (int32,
#: 0..C-1), ``keys`` (int64, 2 x rows: the random keys whose sums name a subtable),
#: ``n_classes`` (C), and
#: ``weights``: None (every row weighs 1) or the rows' integer weights (int64, each >= 1,
#: adding up to at most :data:`WEIGHT_LIMIT`): a row of weight k counts as k rows wherever
#: a cost counts rows (class counts, a subtable's size, the rows a bound moves); and
#: ``prices``: None (a wrong decision costs 1 per unit of weight) or a C x C int64 matrix
#: (``prices[c, d]``: a row of class c decided d, per unit of weight; with weights only):
#: a leaf then costs its decision of least price.
OrderedTable = namedtuple(
    "OrderedTable", "codes kinds nv dec keys n_classes weights prices", defaults=(None, None)
)
#: The most the rows' weights (times the largest price) may add up to (the depth-two pass
#: counts them in int32).
WEIGHT_LIMIT = int(_core.ORDERED_WEIGHT_LIMIT)
#: The rows of the subtables being solved (``buf``: int32, levels x attributes x rows; the
#: subtable to solve at level 0) and each row's child of a split (``side``: int32, rows).
Workspace = namedtuple("Workspace", "buf side")
#: A front's points (int64 arrays): x, y, and the tree's root (kind, attribute, threshold
#: code), or VIRTUAL for a bound's point.
Points = namedtuple("Points", "x y kind attr code")
#: :func:`best`'s limits: the depth, and the bound (only a value below it is wanted).
BestLimits = namedtuple("BestLimits", "depth bound")
#: :func:`fronts`'s limits: the depth, and the bound (:class:`Points`, a staircase whose
#: weakly dominated points are not wanted; empty: the whole front).
FrontLimits = namedtuple("FrontLimits", "depth bound")
#: The cost x of :func:`fronts` (its leaf does not count errors): children combined by max
#: (``combine`` 1) or summed, a leaf's cost, a split's ``split_const + split_rows * rows``.
#: ``choice`` 1 (the others 0): the pair false positives (x) against false negatives (y)
#: on a table of two classes, 1 the positive one; a leaf then has two points, one per
#: decision.
FrontCost = namedtuple("FrontCost", "combine leaf split_const split_rows choice", defaults=(0,))


def new_memo():
    """An empty memo for :func:`best` (an opaque object owning a hash table: a subtable's
    least misclassifications per depth, or a bound no tree beat; ``len()`` entries,
    ``nbytes``). It persists across calls; one call at a time may use it."""
    return _core.OrderedMemo()


def best(
    table: OrderedTable,
    work: Workspace,
    m: int,
    limits: BestLimits,
    name: tuple[int, int],
    memo,
    stats: np.ndarray,
    choice: np.ndarray,
    budget: int,
    usage: np.ndarray,
) -> tuple[int, int, bool]:
    """The least misclassifications over the trees of depth <= ``limits.depth`` of the
    first ``m`` rows of level 0 if it is below ``limits.bound`` (then ``exact``), else a
    lower bound of at least the bound. Returns (status, value, exact); ``choice`` gets the
    root of the best tree found: (attribute, threshold code, kind), attribute -1 for the
    leaf.

    At depth 2, when every attribute has at most ``nv[A]`` codes, the trees come from class
    counts. When both sides of a split must be solved, the larger is solved first, below
    the best found; the smaller below what remains plus the distance to the ends of the
    current interval (ConTree's trick: a larger lower bound prunes more of the interval).

    ``memo`` (:func:`new_memo`) keeps every result at depth >= 2 by subtable and depth: a
    subtable reached again (conditions in another order) costs a lookup. A subtable is
    named by the two wrapping sums ``name`` of its rows' keys, as in the DAG engine; a
    kept lower bound answers a call whose bound it reaches, an exact value every call.

    ``budget``: the bytes the call may hold (the memo's included; negative: no limit);
    past it the result is :data:`OUT_OF_MEMORY` (the value is then not an answer)."""
    return _core.ordered_best(table, work, m, limits, name, memo, stats, choice, budget, usage)


#: One piece of a search at the root (:func:`best_piece`): the root's splits on attribute
#: ``attr``, of an ordered one its thresholds ``lo..hi`` (positions 0..K-1 among the
#: subtable's K thresholds; a nominal one's are all of it whatever they say).
RootPiece = namedtuple("RootPiece", "attr lo hi")


def best_piece(
    table: OrderedTable,
    work: Workspace,
    m: int,
    limits: BestLimits,
    name: tuple[int, int],
    memo,
    stats: np.ndarray,
    piece: RootPiece,
    shared: np.ndarray,
    choice: np.ndarray,
    budget: int,
    usage: np.ndarray,
) -> tuple[int, int, bool]:
    """:func:`best` at the root (``limits.depth`` >= 3) over the trees whose root is one of
    ``piece``'s splits: (status, value, found). ``shared[0]`` (int64) is a bound shared with
    the other pieces of the search, read before each split the piece evaluates and lowered
    (an atomic minimum) to every better tree it finds; ``found`` when the piece found a tree
    below both bounds as they were, ``value`` then its misclassifications (else the caller's
    bound). The least of all pieces' is ``shared[0]`` at the end (when below
    ``limits.bound``), whatever order they ran in and however many at once. The memo may be
    shared by pieces running at once (it locks); the root itself is not kept in it.

    ``choice`` (int64, at least 5) gets the root of the best tree the piece found, as
    :func:`best`'s, and for a threshold its two sides' least misclassifications (both
    exact; -1 for a nominal split)."""
    return _core.ordered_best_piece(
        table, work, m, limits, name, memo, stats, piece, shared, choice, budget, usage
    )


def board(steps: int):
    """A board for ``steps`` steps of one whole-front search at the root (:func:`fronts`
    with ``board`` and ``step``, one call per step, several at once in threads): each step
    publishes its working front as it changes and, before each root threshold it
    evaluates, merges in those of the steps before it, so it prunes with what they found
    while they still run. The merged front and its provenance are those of the steps
    run one after another (equal points: the earlier step's, as the driver merges them in
    order); only the work depends on when each step read."""
    return _core.OrderedBoard(steps)


def root_team(pieces, bound: int):
    """The pieces of one search at the root (:class:`RootPiece`s, in the search's order)
    for a team of threads to run (:func:`best_team`), below ``bound``: ``.value`` the least
    found below it (else ``bound``), ``.done`` the pieces done, ``len()`` their number."""
    return _core.OrderedRootTeam(pieces, bound)


def best_team(
    table: OrderedTable,
    work: Workspace,
    m: int,
    limits: BestLimits,
    name: tuple[int, int],
    memo,
    stats: np.ndarray,
    team,
    budget: int,
    usage: np.ndarray,
) -> int:
    """One thread's share of :func:`best` at the root (``limits.depth`` >= 3), run as the
    pieces of ``team`` (:func:`root_team`) by every thread that calls this with it, each
    with its own workspace (the root loaded), stats, budget and usage; the memo is shared.
    Each thread takes, in the pieces' order, the queued thresholds of the first started
    piece that has some, else starts the next piece, else waits for the thresholds being
    evaluated, so the threads share a piece's thresholds and none idles while some are
    left. Returns the status; once every thread returned :data:`DONE` the answer is
    ``team.value`` (exact when below ``limits.bound``), whatever the threads and their
    timing. One thread out of memory stops the team (the others return DONE, the answer is
    then not to be read)."""
    return _core.ordered_best_team(table, work, m, limits, name, memo, stats, team, budget, usage)


def lower_bound(shared: np.ndarray, value: int) -> int:
    """Lower ``shared[0]``, a bound that running pieces share (:func:`best_piece`), to
    ``value`` if that is less: an atomic minimum, as the pieces lower it. Returns it."""
    return _core.ordered_lower_bound(shared, value)


def root_plan(
    table: OrderedTable, work: Workspace, m: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The root of the first ``m`` rows of level 0 as a search's pieces are cut from it:
    the attributes in the search's order (:func:`hint_order`), each one's hint (the
    position of its best single split by Gini impurity, where the search starts) and its
    number of splits (an ordered attribute's thresholds, a nominal one's values)."""
    return _core.ordered_root_plan(table, work, m)


def fronts(
    table: OrderedTable,
    work: Workspace,
    m: int,
    limits: FrontLimits,
    cost: FrontCost,
    attrs: np.ndarray,
    stats: np.ndarray,
    budget: int,
    usage: np.ndarray,
    board=None,
    step: int = 0,
) -> tuple[int, Points]:
    """The front (x, misclassifications) of the first ``m`` rows of level 0 over the trees
    of depth <= ``limits.depth``, x by ``cost``, without the points weakly dominated by
    the bound ``limits.bound``. Returns (status, :class:`Points`): per point the tree's
    root (:data:`LEAF`, :data:`ORDERED` with the threshold code, :data:`NOMINAL`) or
    :data:`SHALLOWER` (a point of the front at depth <= depth - 1).

    Branch and bound over fronts: the working front starts as the bound (its points
    marked :data:`VIRTUAL`) and the front at depth r - 1, and every candidate split is
    skipped when all it could make is weakly dominated by it. A child is solved under the
    working front moved by what the split and its siblings add at least, so a child's
    result may leave out what cannot matter; what a child left out lies above its bound,
    which keeps the neighbours' lower bounds valid.

    ``attrs`` empty: every attribute, in the order of :func:`hint_order`. Otherwise only
    the splits of those attributes, and the bound is the working front itself, with its
    points' provenance (the steps of :func:`dagger_cli.engine.ordered._root_steps`); with a
    ``board``, this call is step ``step`` of them: it publishes its working front there and
    reads the steps' before it as they go (:func:`board`). ``budget`` as in :func:`best`."""
    status, pts = _core.ordered_fronts(
        table, work, m, limits, cost, attrs, stats, budget, usage, board, step
    )
    return status, Points(*pts)


def hint_order(table: OrderedTable, work: Workspace, m: int) -> np.ndarray:
    """The attributes in the search's order for the first ``m`` rows of level 0: by the Gini
    impurity of their best split into two leaves, ties in attribute order, nominal ones
    last. (Misclassifications are often flat where the classes are unbalanced; the
    impurity still tells a good start.)"""
    return _core.ordered_hint_order(table, work, m)


def working_front(box: Points, shallower: Points) -> Points:
    """A search's first working front: the bound ``box`` (:data:`VIRTUAL` points) and the
    front one level shallower (:data:`SHALLOWER`)."""
    return Points(*_core.ordered_working_front(box, shallower))


def merged(work: Points, res: Points) -> Points:
    """The front of the points of ``work`` and ``res`` with their provenance, the first of
    equal points kept (``work``'s win ties)."""
    return Points(*_core.ordered_merged(work, res))


def real(front: Points) -> Points:
    """The front without its bound's (:data:`VIRTUAL`) points."""
    keep = front.kind != VIRTUAL
    return Points(*(a[keep] for a in front))


def scratch_bytes(n: int, attributes: int, classes: int, depth: int) -> int:
    """An upper bound of the scratch one kernel call holds at once at depth <= ``depth`` on
    ``n`` rows (a subtable's arrays per level; fronts and the memo aside)."""
    return int(_core.ordered_scratch_bytes(n, attributes, classes, depth))


# ------------------------------------------------------------------ the parts, on their own
def _pareto(xs, ys, ks, ats, cs, n):
    """The non-dominated points among the first n candidates, sorted by x (then y), the
    first of equal points kept (stable)."""

    def arr(a):
        return np.ascontiguousarray(np.asarray(a)[:n], dtype=np.int64)

    return _core.ordered_pareto(arr(xs), arr(ys), arr(ks), arr(ats), arr(cs))


def _combine(ax, ay, bx, by, comb):
    """The front of the pairs a + b (x: sum, or max if ``comb``; y: sum)."""

    def arr(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    return _core.ordered_combine(arr(ax), arr(ay), arr(bx), arr(by), int(comb))


def _kmax(cx, cy, fx, fy, alpha):
    """The largest k such that every point of c moved by (-k * alpha, -k) is weakly
    dominated by the staircase f (0 also when not even k = 0 is; the largest int64 when c is
    empty): how many rows the pruner skips beside an evaluated threshold."""

    def arr(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    return _core.ordered_kmax(arr(cx), arr(cy), arr(fx), arr(fy), int(alpha))


def _eroded(wx, wy, sx, sy, dx, dy):
    """The points c for which c + s + (dx, dy) is weakly dominated by the staircase w for
    every point s of the staircase sib (coarsened to at most 8 points first), as a
    staircase."""

    def arr(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    return _core.ordered_eroded(arr(wx), arr(wy), arr(sx), arr(sy), int(dx), int(dy))


def _merge(fx, fy, fk, fa, fc, px, py, kind, attr, code):
    """The front with the points (px, py) added; its own points win ties."""

    def arr(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    f = (arr(fx), arr(fy), arr(fk), arr(fa), arr(fc))
    return _core.ordered_merge(*f, arr(px), arr(py), int(kind), int(attr), int(code))


def _class_bounds(lst, dec, C, total, pos, K, nl):
    """Per threshold (after ``pos[k]`` rows of ``lst``) and side, the least errors of a tree
    of at most L leaves, L = 1..nl: its rows less the L largest class counts (each leaf
    predicts one class). ``out[k, s, L - 1]``, s = 0 the ``<=`` side, 1 the other."""

    def arr(a):
        return np.ascontiguousarray(a, dtype=np.int64)

    return _core.ordered_class_bounds(arr(lst), arr(dec), int(C), arr(total), arr(pos), K, nl)


def _packed(buf, level, off, m, codes, dec):
    """The subtable's codes and classes in each attribute's order, contiguous (``cb[b, q]``:
    the code of attribute b of the q-th row in b's order; ``cls[b, q]`` its class), as the
    depth-two pass reads them."""
    lst = buf[level, :, off : off + m]
    cb = np.take_along_axis(codes, lst, axis=1).astype(np.int32)
    return cb, dec[lst].astype(np.int32)


def _root_codes(buf, level, off, m, codes, a, sa):
    """Attribute a's codes in every attribute's order (``sa[b, q]``): the side of each row
    of a split of a is ``sa[b, q] > threshold code``."""
    sa[:] = codes[a][buf[level, :, off : off + m]]


def _sides_d1p(cb, cls, sa, t, kinds, C, nl, totL, totR, which=BOTH, narrow=True):
    """The depth-two pass: the least misclassifications of both sides of a split over
    depth <= 1 on the packed subtable (:func:`_packed`): the root attribute split at
    threshold code ``t`` (a row goes right when its code in ``sa`` exceeds t), ``nl`` rows
    and class totals ``totL`` on the left, ``totR`` on the right. ``which``
    (:data:`LEFT`, :data:`RIGHT`, :data:`BOTH`): the sides to pass; a side not passed gets
    its leaf's errors. ``narrow``: the ordered attributes walk in 16-bit lanes where they fit
    (the solver's way: no weights or prices, few enough rows), else in 32-bit ones."""

    def arr(a, dtype):
        return np.ascontiguousarray(a, dtype=dtype)

    return _core.ordered_sides_d1(
        arr(cb, np.int32),
        arr(cls, np.int32),
        arr(sa, np.int32),
        int(t),
        arr(kinds, np.int8),
        int(C),
        int(nl),
        arr(totL, np.int64),
        arr(totR, np.int64),
        int(which),
        bool(narrow),
    )
