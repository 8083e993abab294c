"""Counting optimal trees and staged (lexicographic) optimisation over the DAG Δ(T).

A tree is the DAG's model: at a subtable, a leaf (its most common decision; under
``exact_only`` only where no attribute splits the subtable) or a split on a non-constant
attribute with one child tree per value present. Two mechanisms, both exact with Python
integers for the counts:

**Two sum costs** (total path length, nodes, leaves, misclassifications): if a tree has a
Pareto-optimal point P at a node and splits there, each child's contribution is Pareto-optimal
at the child, and so is every partial sum over the first k children (otherwise swapping a
subtree gives a dominating point). So the trees at P decompose over the same one-child-at-a-time
combination the fronts are computed with: ``count(node, P) = [leaf is P] +
sum over bundles of count_bundle(P - split constants)``, a bundle's count being a sum of products
over the pairs (partial point, child point) adding up to each point. :func:`_sum_pair_counts`
does this only for the (node, point) pairs some root point needs (found top-down first).

**Depth involved** (combine = max), and staged optimisation: a child tree need not be
Pareto-optimal at the child, but with a depth bound d and a sum cost S: the trees with
depth <= d at a node ``T(v, d)`` are a leaf or a split whose children are in
``T(c, d - 1)``, and the least S over a product of sets is the sum of the least values,
reached exactly by the products of minimisers. So ``N(v, d)``, the number of trees of
``T(v, d)`` with the least S, is ``[leaf is least] + sum over tight bundles of the product of
N(c, d - 1)``. The least S for every (node, d) is the front of (depth, S) that the fronts
kernel already computes. Lexicographic order over several sum costs is one sum cost
(weights above each cost's bound), so "least vector of later costs" is a least S too.

* ``relate --count`` with (depth, s) or (s, depth): at a Pareto point (D, S) the trees are
  exactly those with depth <= D and s = S = F(D), so the count is N(root, D).
* ``optimize`` with costs c1, ..., ck: without depth, the least S over all trees
  (lexicographic order is compatible with addition). With depth at stage j, let A be the
  sum costs before it and B after: the least A is reached first at depth bound D* (the
  least d with lexmin A over T(root, d) = the unconstrained lexmin), and the trees left after
  each later stage are the minimisers in T(root, D*) of (A, B's first costs): every tree of
  T(root, D*) with the least A has depth exactly D*.

Weighted rows, class weights, prices and a minimum leaf size change nothing here: a node's
``n`` is :attr:`Dag.weights` and its leaf costs ``node_mis`` (its least price; the infeasible
price below the minimum leaf size), the numbers the fronts read. A leaf with a choice of two
decisions (false positives or negatives) has two values, and a count counts each (tree,
labelling of its leaves by those choices) once.

Only the (node, depth bound) states that some requested root state needs are visited
(marked top-down by a kernel, numbered and linked bottom-up by another); Python then
multiplies and adds the counts along those links.
"""

from __future__ import annotations

import sys
from collections import namedtuple
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .. import _core
from ..costs import COSTS, MAX, SUM, Cost, get_cost
from ..errors import InputError, LimitError
from ..text import abbreviate, size_text, table_doc, table_line
from .kernels import Status

#: No tree (a depth bound below the least depth under ``exact_only``).
NONE = np.int64(1) << np.int64(62)
#: The state bit of "any depth" (a bound at or above the node's longest path).
ANY = 62
#: A depth bound that means "unbounded".
UNBOUNDED = 1 << 40
#: "No ceiling" for a kernel's allowance of bytes.
NO_LIMIT = 1 << 62
#: Two sum costs are counted at points below this (partial sums are keyed by (x, y)).
CAP = np.int64((1 << 31) - 1)
#: The kernels' status for arrays past their allowance.
OUT_OF_MEMORY = Status.OUT_OF_MEMORY


# ----------------------------------------------------------------------------- kernels
#: What the state kernels (compiled, ``core/counting.cpp``) read of a DAG: its nodes in
#: increasing size (int64; a topological order, children first), the ``n`` of the split
#: costs (its rows, or their weight: :attr:`Dag.weights`) and the leaf's misclassifications
#: (or least price, :attr:`Dag.node_mis`) of each (int32), whether some attribute splits
#: it (int8: under ``exact_only`` a node is a leaf only where its leaf costs nothing or
#: none does, as for the fronts), the bundles and edges (CSR:
#: int64, int64, int32), and, for a leaf with a choice of two decisions, the two values of
#: S it may take per node (int64, nodes x 2 flat; empty otherwise).
StateGraph = namedtuple(
    "StateGraph",
    "order node_size node_mis node_split node_bundle_start bundle_edge_start edge_child leaf_s",
)
#: No leaf values of S: a leaf costs ``leaf_const + leaf_mis * node_mis``.
NO_LEAF_S = np.zeros(0, dtype=np.int64)
#: A sum cost S's (depth, S) front per node (a :class:`~dagger_cli.engine.FrontStore`'s
#: ``fref`` and ``fxy`` flattened, int64), the longest path below each node (int64), S's
#: parameters (int64, :meth:`Cost.params`) and the divisor q: the states' minimisers are
#: those of S // q.
DepthFronts = namedtuple("DepthFronts", "fref fxy longest params q")


def _longest(graph: StateGraph) -> np.ndarray:
    """Longest path below every node (edges): no tree there is deeper."""
    return _core.counting_longest(graph)


def _least(graph: StateGraph, p: np.ndarray, exact: bool) -> np.ndarray:
    """The least value of one cost (``p``: Cost.params()) over every node's trees
    (:data:`NONE`: no tree, under ``exact`` only)."""
    return _core.counting_least(graph, p, bool(exact))


def _mark(graph: StateGraph, fronts: DepthFronts, mask: np.ndarray) -> None:
    """Top-down (largest subtables first): add to ``mask`` (int64, a bit per depth bound d
    of each node, :data:`ANY` for any depth) the states (node, d) that the states already
    in it reach through tight bundles (minimisers of S // q among the trees of depth
    <= d)."""
    _core.counting_mark(graph, fronts, mask)


def _link(graph: StateGraph, fronts: DepthFronts, exact: bool, mask, max_bytes: int = NO_LIMIT):
    """Number the marked states bottom-up (``base[v]``: the id of node v's first state;
    node order, then bit order) and write, for each, its leaf flag and its tight bundles'
    child states (CSR). Returns (base, leaf flags, state -> first tight bundle, tight
    bundle -> first edge, edge -> child state), or None when these arrays would take
    more than ``max_bytes``."""
    status, *arrays = _core.counting_link(graph, fronts, bool(exact), mask, int(max_bytes))
    return None if status == OUT_OF_MEMORY else tuple(arrays)


def _f(fref, fxy, v, d) -> int:
    """Least S over the node's trees of depth <= d (front of (depth, S)); NONE if none."""
    s, k = int(fref[2 * v]), int(fref[2 * v + 1])
    best = int(NONE)
    for j in range(s, s + k):
        if fxy[2 * j] <= d:
            best = int(fxy[2 * j + 1])
        else:
            break
    return best


# ----------------------------------------------------------------------------- helpers
def allow_long_counts() -> None:
    """Counts have hundreds of thousands of digits; Python >= 3.11 limits int -> str."""
    if hasattr(sys, "set_int_max_str_digits"):
        sys.set_int_max_str_digits(0)


#: Bytes that counting's Python passes may allocate between two readings of the memory
#: guard (besides its reading every ``GUARD_EVERY`` steps): an allocation announced to
#: :meth:`_Watch.step` this big, or many smaller ones adding up to it, read it at once.
READ_BYTES = 1 << 20
#: States of :func:`_multiply` whose arrays are turned into Python lists at a time.
MULTIPLY_CHUNK = 1 << 12


def _guard(max_memory: int | None, what: str, held: int):
    """A :class:`~dagger_cli.engine.MemoryGuard` for a counting pass that starts while
    ``held`` bytes of engine arrays (the relation's DAG and fronts) are alive: they count
    against the ceiling as if the guard had seen them grow."""
    from .memory import MemoryGuard

    guard = MemoryGuard(max_memory, what)
    if guard.start is not None:
        guard.start -= held
    return guard


class _Watch:
    """A counting pass's memory guard (a :class:`~dagger_cli.engine.MemoryGuard`, or None)
    read by the bytes allocated as well as by steps: :meth:`step` steps the guard (a
    reading every ``GUARD_EVERY`` steps) and reads it at once when the bytes announced
    since the last reading reach :data:`READ_BYTES`; the reading counts the announced
    allocation as made, so that a big one is refused before it is made."""

    def __init__(self, guard):
        self.guard = guard
        self.on = guard is not None and guard.ceiling is not None and guard.start is not None
        self.pending = 0

    def step(self, done: int, total: int, nbytes: int = 0) -> None:
        if not self.on:
            return
        self.pending += nbytes
        if self.pending >= READ_BYTES:
            self.read(done, total, nbytes)
        else:
            self.guard.step(done, total)

    def read(self, done: int, total: int, nbytes: int = 0) -> None:
        """Stop (LimitError) if the growth so far plus ``nbytes`` passes the ceiling."""
        from . import memory

        self.pending = 0
        if not self.on:
            return
        now = memory.resident_bytes()
        g = self.guard
        if now is not None and now - g.start + nbytes > g.ceiling:
            raise LimitError(
                f"{g.what} needs more than {size_text(g.ceiling)} (--max-memory) "
                f"after {done:,} of {total:,} steps"
            )

    def room(self) -> int:
        """The bytes left under the ceiling now (:data:`NO_LIMIT` without one)."""
        from . import memory

        now = memory.resident_bytes() if self.on else None
        if now is None:
            return NO_LIMIT
        return max(self.guard.ceiling - (now - self.guard.start), 0)


def _store_bytes(store) -> int:
    """The bytes of a :class:`~dagger_cli.engine.FrontStore`'s arrays."""
    arrays = (store.fref, store.fxy, store.fch, store.sub_start)
    return sum(a.nbytes for a in arrays if a is not None)


def leaf_values(table, dag, cost: Cost) -> np.ndarray:
    """Per node the two values of ``cost`` its leaf may take when ``cost`` reads the leaf's
    decision (its two decisions against the positive class, :meth:`Dag.leaf_choices`, in
    that order; int64, nodes x 2 flat), else :data:`NO_LEAF_S` (one leaf value, read from
    ``node_mis``)."""
    if not cost.reads_decision:
        return NO_LEAF_S
    _, mis, fp, fn = dag.leaf_choices(table)
    s = cost.leaf_const + cost.leaf_mis * mis + cost.leaf_fp * fp + cost.leaf_fn * fn
    return np.ascontiguousarray(s, dtype=np.int64).ravel()


@dataclass
class _Graph:
    """What the state kernels need of a DAG, computed once per DAG; ``leaf_s``: the two
    values of the sum cost counted that a leaf with a choice of decisions may take
    (:func:`leaf_values`)."""

    dag: Any
    order: np.ndarray
    longest: np.ndarray
    leaf_s: np.ndarray = field(default_factory=lambda: NO_LEAF_S)

    @classmethod
    def of(cls, dag, leaf_s: np.ndarray = NO_LEAF_S):
        assert getattr(dag, "max_depth", None) is None, "the state kernels need the whole DAG"
        order = np.argsort(dag.node_size, kind="stable").astype(np.int64)
        graph = cls(dag, order, np.zeros(0, np.int64), leaf_s)
        graph.longest = _longest(graph.arrays)
        return graph

    @property
    def arrays(self) -> StateGraph:
        """The DAG as the state kernels read it: weighted rows through :attr:`Dag.weights`
        and ``node_mis`` (a leaf's least price), as the fronts read them."""
        d = self.dag
        return StateGraph(
            self.order,
            np.ascontiguousarray(d.weights, dtype=np.int32),
            d.node_mis,
            d.node_split,
            d.node_bundle_start,
            d.bundle_edge_start,
            d.edge_child,
            self.leaf_s,
        )

    def least(self, cost: Cost, exact_only: bool, table=None) -> np.ndarray:
        """The least value of ``cost`` over every node's trees (``table``: the one whose
        positive class a cost that reads a leaf's decision is against)."""
        p = np.array(cost.params(), dtype=np.int64)
        leaf_s = NO_LEAF_S if table is None else leaf_values(table, self.dag, cost)
        return _least(self.arrays._replace(leaf_s=leaf_s), p, exact_only)


def _root_bit(graph: _Graph, d: int) -> int:
    if d >= graph.longest[0]:
        return ANY
    if d >= ANY:
        raise InputError(
            f"counting with a depth bound of {d} is not supported (at most {ANY - 1}): "
            "the table's trees are too deep"
        )
    return d


def count_min_trees(
    graph: _Graph, store, s_cost: Cost, bounds, q: int, exact_only: bool, guard=None
):
    """For each depth bound d in ``bounds`` (None: unbounded), the number of trees at the
    root with depth <= d whose S // q is the least among those trees (S: ``s_cost``, whose
    (depth, S) fronts are ``store``). ``guard`` (a :class:`~dagger_cli.engine.MemoryGuard`)
    stops it with :class:`LimitError` at its ceiling: the states' arrays are refused past
    what it leaves, and :func:`_multiply` reads it as its integers grow."""
    allow_long_counts()
    d = graph.dag
    watch = _Watch(guard)
    nodes = d.node_size.size
    watch.read(0, nodes, 8 * nodes)
    fronts = DepthFronts(
        store.fref.reshape(-1),
        store.fxy.reshape(-1),
        graph.longest,
        np.array(s_cost.params(), dtype=np.int64),
        int(q),
    )
    mask = np.zeros(nodes, dtype=np.int64)
    bits = [ANY if b is None else _root_bit(graph, int(b)) for b in bounds]
    for b in bits:
        mask[0] |= np.int64(1) << np.int64(b)
    _mark(graph.arrays, fronts, mask)
    room = watch.room()
    links = _link(graph.arrays, fronts, exact_only, mask, room)
    if links is None:
        raise LimitError(
            f"{guard.what} needs more than {size_text(guard.ceiling)} (--max-memory): the "
            f"links between its (subtable, depth bound) states take more than the "
            f"{size_text(room)} left"
        )
    base, st_leaf, st_tb, tb_e, cs = links
    counts = _multiply(st_leaf, st_tb, tb_e, cs, guard)
    root_mask = int(mask[0])
    out = []
    for b in bits:
        below = bin(root_mask & ((1 << b) - 1)).count("1")
        out.append(counts[int(base[0]) + below])
    return out


def _multiply(st_leaf, st_tb, tb_e, cs, guard=None) -> list[int]:
    """counts[s] = leaf[s] + sum over tight bundles of the product of their child states'
    (``guard``: an :class:`dagger_cli.engine.MemoryGuard` stepped once per state and read
    as the counts grow). The arrays become Python lists :data:`MULTIPLY_CHUNK` states at a
    time."""
    watch = _Watch(guard)
    n = len(st_leaf)
    watch.read(0, n, 8 * n)
    counts = [0] * n
    for s0 in range(0, n, MULTIPLY_CHUNK):
        s1 = min(n, s0 + MULTIPLY_CHUNK)
        leaf = st_leaf[s0:s1].tolist()
        tb = st_tb[s0 : s1 + 1].tolist()
        b0 = tb[0]
        te = tb_e[b0 : tb[-1] + 1].tolist()
        e0 = te[0]
        ch = cs[e0 : te[-1]].tolist()
        for k in range(s1 - s0):
            total = leaf[k]
            for b in range(tb[k] - b0, tb[k + 1] - b0):
                ea, eb = te[b] - e0, te[b + 1] - e0
                prod = counts[ch[ea]]
                for e in range(ea + 1, eb):
                    prod *= counts[ch[e]]
                total += prod
            counts[s0 + k] = total
            watch.step(s0 + k, n, total.bit_length() >> 3)
    return counts


# ----------------------------------------------------------------------------- two sums
def _sum_pair_counts(
    dag, store, cx: Cost, cy: Cost, exact_only: bool, guard=None, points=None
) -> list[int]:
    """The number of trees at each point of the root's front of two sum costs (``points``:
    the (x, y) of the points counted, in order; None: every point of the root's front).

    ``n`` is the node's weight (:attr:`Dag.weights`) and a leaf costs its least price
    (``node_mis``), as for the fronts; a leaf with a choice of two decisions
    (:attr:`Dag.leaf_xy`) counts once for each choice that is at the point (each tree
    counted once per labelling of its leaves by those choices).

    A state is (node, remaining depth r): r is None without a depth cap; under a cap the
    fronts are per (node, r) subproblem (:class:`dagger_cli.engine.FrontStore`), a split
    at r combines its children's fronts at r - 1, and r = 0 is the leaf only. ``guard``
    (a :class:`~dagger_cli.engine.MemoryGuard`) is read before every combination of a
    bundle's partial front with a child's (their arrays counted before they are made) and
    as the counts grow: past its ceiling the pass stops with :class:`LimitError`."""
    allow_long_counts()
    from ..fronts import pareto

    capped = store.sub_start is not None

    def norm(v, r):
        return None if not capped else min(r, store.subproblem_depth(v))

    order = np.argsort(dag.node_size, kind="stable")
    r0 = norm(0, store.subproblem_depth(0)) if capped else None
    rx, ry, _ = store.front(0, r0)
    at = {(int(x), int(y)): j for j, (x, y) in enumerate(zip(rx.tolist(), ry.tolist()))}
    wanted_points = list(at) if points is None else [(int(x), int(y)) for x, y in points]
    if any(max(p) >= CAP for p in wanted_points):
        raise InputError("counting two sum costs supports costs below 2^31 - 1 (a smaller table)")
    need: dict[int, dict] = {0: {r0: {at[p] for p in wanted_points}}}
    plans: dict[tuple, list] = {}
    big = np.int64(1) << np.int64(31)

    def key(x, y):
        # Partial sums at or above CAP (a tree with an infeasible leaf, under a minimum
        # leaf size) share keys, and never make a counted point, all below CAP.
        return np.minimum(x, CAP) * big + np.minimum(y, CAP)

    weights = dag.weights
    two = dag.leaf_xy.size > 0
    watch = _Watch(guard)
    nodes = int(order.size)
    total = 2 * nodes
    for done, v in enumerate(order[::-1].tolist()):
        watch.step(done, total)
        for r, pts in need.get(v, {}).items():
            fx, fy, _ = store.front(v, r)
            n = int(weights[v])
            plan = []
            bundles = dag.bundles(v) if r is None or r > 0 else range(0)
            rc_of = {}
            for b in bundles:
                kids = [int(c) for c in dag.children(b)]
                ax = np.zeros(1, dtype=np.int64)
                ay = np.zeros(1, dtype=np.int64)
                levels = []
                for c in kids:
                    rc_of[c] = None if r is None else norm(c, r - 1)
                    gx, gy, _ = store.front(c, rc_of[c])
                    # px, py, kept (and, below, their keys and matches): about 64 bytes a pair.
                    watch.step(done, total, 64 * ax.size * gx.size)
                    px = ax[:, None] + gx[None, :]
                    py = ay[:, None] + gy[None, :]
                    keep = pareto(px.ravel(), py.ravel())
                    levels.append((ax, ay, px, py))
                    ax, ay = px.ravel()[keep], py.ravel()[keep]
                # The state's needed points that this bundle makes (indices of its front).
                sx = cx.split_const + cx.split_rows * n
                sy = cy.split_const + cy.split_rows * n
                k_final = key(ax, ay)
                targets = {}
                for j in sorted(pts):
                    hit = np.flatnonzero(k_final == key(fx[j] - sx, fy[j] - sy))
                    if hit.size:
                        targets[j] = int(hit[0])
                if not targets:
                    continue
                wanted = np.array(sorted(set(targets.values())), dtype=np.int64)
                steps = []
                for c, (bx, by, px, py) in zip(reversed(kids), reversed(levels)):
                    watch.step(done, total, 32 * px.size)
                    keys = key(px, py)
                    wkeys = key(ax[wanted], ay[wanted])
                    i, jj = np.nonzero(np.isin(keys, wkeys))
                    pos = {int(k): t for t, k in zip(wanted.tolist(), wkeys.tolist())}
                    t = np.array([pos[int(k)] for k in keys[i, jj].tolist()], dtype=np.int64)
                    steps.append(((c, rc_of[c]), i, jj, t, ax.size))
                    need.setdefault(c, {}).setdefault(rc_of[c], set()).update(jj.tolist())
                    wanted = np.unique(i)
                    ax, ay = bx, by
                steps.reverse()
                plan.append((targets, steps))
            plans[(v, r)] = plan
    counts: dict[tuple, dict] = {}
    for done, v in enumerate(order.tolist()):
        watch.step(nodes + done, total)
        for r, pts in need.get(v, {}).items():
            fx, fy, _ = store.front(v, r)
            leaf_ok = not exact_only or not dag.node_split[v] or not dag.node_mis[v]
            if two:  # a leaf with a choice of two decisions: x0 y0 x1 y1
                leaves = dag.leaf_xy[4 * v : 4 * v + 4].tolist()
                choices = [(leaves[0], leaves[1]), (leaves[2], leaves[3])]
            else:
                mis = int(dag.node_mis[v])
                choices = [(cx.leaf_const + cx.leaf_mis * mis, cy.leaf_const + cy.leaf_mis * mis)]
            mine = {
                j: int(leaf_ok) * sum(int(fx[j] == lx and fy[j] == ly) for lx, ly in choices)
                for j in pts
            }
            # A state's plan is read once: dropped as it is used.
            for targets, steps in plans.pop((v, r), ()):
                acc = [1]
                for state, i, jj, t, size in steps:
                    # The lists of the pairs and the next partial counts (8 bytes a slot).
                    watch.step(nodes + done, total, 8 * size + 108 * i.size)
                    child = counts[state]
                    nxt = [0] * size
                    for a, g, w in zip(i.tolist(), jj.tolist(), t.tolist()):
                        if acc[a]:
                            nxt[w] += acc[a] * child[g]
                    acc = nxt
                for j, w in targets.items():
                    mine[j] += acc[w]
            watch.step(nodes + done, total, sum(x.bit_length() for x in mine.values()) >> 3)
            counts[(v, r)] = mine
    root = counts[(0, r0)]
    return [root[at[p]] for p in wanted_points]


# ----------------------------------------------------------------------------- relate
def front_counts(relation, *, exact_only: bool = False, max_memory: int | None = None) -> list[int]:
    """The number of trees at each point of ``relation.front`` (fast engine), on the
    relation's own DAG: under a depth cap D the capped one, whose subtables within D splits
    hold every tree of depth <= D.

    Stops with :class:`LimitError` when the memory would pass ``max_memory`` bytes, the
    relation's DAG and fronts included: the fronts it computes get the room they leave,
    and its Python passes (exact integers, which live in no engine array) are watched by
    a :class:`~dagger_cli.engine.MemoryGuard`."""
    from .dag import build_dag, compute_fronts

    if relation.dag is None or relation.store is None:
        raise InputError("counting needs the fast engine (--engine fast)")
    front = relation.front
    cx, cy = front.x_cost, front.y_cost
    dag = relation.dag
    kept = _store_bytes(relation.store)
    guard = _guard(max_memory, "counting the trees", dag.nbytes() + kept)
    if cx.combine == SUM and cy.combine == SUM:
        return _sum_pair_counts(
            dag, relation.store, cx, cy, exact_only, guard, zip(front.x.tolist(), front.y.tolist())
        )
    depth_on_x = cx.combine == MAX
    s_cost = cy if depth_on_x else cx
    table = relation.table
    if dag.max_depth is None and depth_on_x:
        store = relation.store
    else:
        # The relation's fronts stay alive beside the ones computed here.
        room = None if max_memory is None else max(max_memory - kept, 0)
        if dag.max_depth is not None:
            # The states (node, depth bound d) of a root point of depth <= D are those of
            # nodes of level <= D - d: every tree of depth <= d below such a node is in the
            # capped DAG, whose nodes at the cap have no bundles (leaves). Counted on it as
            # on a whole DAG: its fronts are per node, over its trees.
            if dag.d2_level is not None:  # the last two levels were never built
                dag = build_dag(table, max_depth=dag.max_depth, max_memory=room)
            dag = replace(dag, max_depth=None)
        else:
            dag = replace(dag)
        # The leaves' choices of decisions (if any) as points of (depth, S).
        dag.decide(table, COSTS["depth"], s_cost)
        try:
            store = compute_fronts(
                dag, COSTS["depth"], s_cost, exact_only=exact_only, max_memory=room
            )
        except LimitError as err:
            if room is None or max_memory is None:
                raise
            detail = str(err).partition("(--max-memory)")[2].strip(" :.")
            raise LimitError(
                f"counting the trees needs more than {size_text(max_memory)} (--max-memory): "
                f"its fronts of (depth, {s_cost.name}) need more than the "
                f"{size_text(room)} left beside the relation's fronts "
                f"({size_text(kept)}){', ' + detail if detail else ''}."
            ) from None
    depths = front.x if depth_on_x else front.y
    graph = _Graph.of(dag, leaf_values(table, dag, s_cost))
    return count_min_trees(graph, store, s_cost, depths.tolist(), 1, exact_only, guard)


# ----------------------------------------------------------------------------- optimize
def _bound(
    cost: Cost,
    n_rows: int,
    depth: int,
    weight: int | None = None,
    mis: int | None = None,
    wrong: int | None = None,
) -> int:
    """The largest value a sum cost takes on a tree of a table of ``n_rows`` rows whose
    trees are at most ``depth`` deep (at most n leaves, n - 1 splits); ``weight``: the
    rows' weight (the ``n`` of the split costs; None: ``n_rows``), ``mis``: the most a
    tree's leaves cost together (None: ``n_rows``, a leaf costing its rows not of its
    decision), ``wrong``: the most they count in false positives or negatives (None:
    ``weight``)."""
    n = n_rows
    w = n if weight is None else weight
    most = n if mis is None else mis
    return (
        cost.leaf_const * n
        + cost.leaf_mis * most
        + (cost.leaf_fp + cost.leaf_fn) * (w if wrong is None else wrong)
        + cost.split_const * max(n - 1, 0)
        + (cost.split_rows * w * depth)
    )


def _most_mis(table) -> int | None:
    """The most the leaves of a tree of ``table`` cost together in misclassifications
    (None: its rows, unweighted): the rows' weight times the greatest price, or, under a
    minimum leaf size, a leaf's :attr:`~dagger_cli.weights.Weighting.infeasible` price
    for each of up to one leaf per row."""
    w = getattr(table, "weighting", None)
    if w is None:
        return None
    if w.min_leaf > 1:
        return int(w.rows.size) * w.infeasible
    most = int(w.prices.max()) if w.prices is not None and w.prices.size else 1
    return int(w.rows.sum()) * most


def _weighted(costs: list[Cost], weights: list[int]) -> Cost:
    """The sum cost sum_i w_i c_i (itself a cost of the same form: the rules are linear)."""
    p = [sum(w * c.params()[k] for c, w in zip(costs, weights)) for k in range(1, 5)]
    name = "+".join(c.name for c in costs) or "none"
    return Cost(
        name,
        name,
        name,
        SUM,
        p[0],
        p[1],
        p[2],
        p[3],
        "lexicographic combination",
        leaf_fp=sum(w * c.leaf_fp for c, w in zip(costs, weights)),
        leaf_fn=sum(w * c.leaf_fn for c, w in zip(costs, weights)),
    )


@dataclass
class Stage:
    """One stage of :func:`optimize`: the least ``value`` of ``cost`` among the trees left
    by the stages before, and the number of ``trees`` that reach it."""

    cost: str
    value: int
    trees: int

    def as_dict(self) -> dict:
        return {"cost": self.cost, "value": self.value, "trees": self.trees}


@dataclass
class Optimum:
    """Result of :func:`optimize`."""

    table: Any
    order: tuple
    exact_only: bool
    stages: list
    least: dict  #: cost name -> its least value over all trees
    tree: Any  #: one tree of the final set (a :class:`dagger_cli.trees.Tree`), or None
    stats: Any = None
    seconds: float = 0.0
    max_depth: int | None = None
    extra: dict = field(default_factory=dict)
    #: why there is no tree (``tree`` None)
    no_tree: str | None = None

    @property
    def total_optimality(self) -> list[dict]:
        """For each later cost: is its unconstrained least value reached by the final set?"""
        out = []
        for st in self.stages[1:]:
            least = self.least[st.cost]
            out.append(
                {
                    "cost": st.cost,
                    "least": least,
                    "final": st.value,
                    "totally_optimal": st.value == least,
                }
            )
        return out

    def as_dict(self) -> dict:
        t = self.table
        doc = {
            "table": table_doc(t),
            "order": list(self.order),
            "exact_only": self.exact_only,
            "max_depth": self.max_depth,
            "stages": [s.as_dict() for s in self.stages],
            "total_optimality": self.total_optimality,
            "tree": None if self.tree is None else self.tree.to_dict(),
        }
        if self.no_tree is not None:
            doc["no_tree"] = self.no_tree
        if self.stats is not None:
            doc["stats"] = self.stats.as_dict()
        return doc

    def to_text(self) -> str:
        t = self.table
        over = "trees without avoidable misclassifications" if self.exact_only else "all trees"
        if self.max_depth is not None:
            over += f" of depth <= {self.max_depth}"
        lines = [f"{table_line(t)}; staged optimisation over {over}"]
        cells = [["stage", "cost", "least", "trees left"]] + [
            [str(k + 1), s.cost, str(s.value), abbreviate(s.trees)]
            for k, s in enumerate(self.stages)
        ]
        widths = [max(len(r[j]) for r in cells) for j in range(4)]
        for r in cells:
            lines.append(
                "  ".join(
                    v.ljust(w) if j == 1 else v.rjust(w) for j, (v, w) in enumerate(zip(r, widths))
                )
            )
        first = self.stages[0].cost
        for rec in self.total_optimality:
            verdict = "yes" if rec["totally_optimal"] else "no"
            lines.append(
                f"totally optimal for ({first}, {rec['cost']}): {verdict} (least {rec['cost']} "
                f"{rec['least']}, final {rec['final']})"
            )
        if self.stats is not None:
            from ..text import stats_text

            lines.append(stats_text(self.stats))
        if self.no_tree is not None:
            lines.append(f"no tree: {self.no_tree}")
        return "\n".join(lines) + "\n"


def check_order(order) -> list[Cost]:
    """Cost names (a list or ``"a,b,c"``) -> Cost objects; distinct, at least one."""
    if isinstance(order, str):
        order = [s for s in order.split(",")]
    names = [s.strip() for s in order]
    if not names or any(not s for s in names):
        raise InputError(
            "--order needs cost names separated by commas, e.g. "
            "misclassifications,depth,total-path-length"
        )
    costs = [get_cost(s) for s in names]
    seen = set()
    for c in costs:
        if c.name in seen:
            raise InputError(f"--order names {c.name!r} twice")
        seen.add(c.name)
    return costs


def optimize(
    table,
    order,
    *,
    exact_only: bool = False,
    max_subtables: int | None = None,
    max_memory="auto",
    progress: bool = False,
    max_depth: int | None = None,
) -> Optimum:
    """Staged optimisation: stage by stage, the least value of each cost in ``order``
    among the trees the stages before left, and how many trees are left.

    Parameters
    ----------
    table : DecisionTable
    order : list of str or str
        Cost names, first stage first (``"misclassifications,depth,total-path-length"``).
    exact_only : bool
        Only trees without avoidable misclassifications (see :func:`dagger_cli.relate`).
    max_subtables, max_memory, progress
        As for :func:`dagger_cli.relate`.
    max_depth : int, optional
        Only trees of depth <= ``max_depth`` (every stage, count and least value is
        over those trees).

    Returns
    -------
    Optimum
        ``stages`` (cost, least value, trees left), ``least`` (each cost's unconstrained
        least value: total optimality), ``tree`` (one tree of the final set).
    """
    import time

    from .dag import build_dag, compute_fronts
    from .memory import MemoryGuard, memory_ceiling
    from .progress import Progress

    costs = check_order(order)
    decides = [c.name for c in costs if c.reads_decision]
    if decides:
        from ..weights import positive_table

        table = positive_table(table)
        if exact_only:
            raise InputError("--exact-only with false positives or negatives is not supported yet")
    w = getattr(table, "weighting", None)
    if w is not None and w.min_leaf > 1 and exact_only:
        raise InputError("--min-leaf and --exact-only do not go together yet")
    if max_depth is not None and max_depth < 0:
        raise InputError(f"the depth bound must be >= 0, not {max_depth}")
    ceiling = memory_ceiling(max_memory)[0]
    guard = MemoryGuard(ceiling, "counting the optimal trees")
    # Numeric columns split by thresholds are binary tests col <= t here, as in relate.
    if getattr(table, "ordered", None):
        from .registry import warn_expansion

        warn_expansion(
            table, "counting trees and staged optimisation build the DAG of every subtable"
        )
    table = table.binarized(max_bytes=ceiling)
    t0 = time.perf_counter()
    prog = Progress(progress)
    try:
        # A sorting table without a depth cap: one node per class of partial orders.
        dag = build_dag(
            table,
            max_depth=max_depth,
            max_subtables=max_subtables,
            max_memory=ceiling,
            progress=prog,
            classes=max_depth is None,
        )
        stats = dag.stats
        if max_depth is not None:
            # Every tree of depth <= max_depth is in the capped DAG, whose nodes at the cap
            # have no bundles (leaves); every stage below is restricted to depth <=
            # max_depth, so it is read as a whole DAG (as in front_counts).
            dag = replace(dag, max_depth=None)
        graph = _Graph.of(dag)
        sums = [c for c in costs if c.combine == SUM]
        j = next((k for k, c in enumerate(costs) if c.combine == MAX), None)
        depth_max = int(graph.longest[0])
        # Weighted rows: n is their weight and a leaf costs its least price (Dag.weigh).
        weight, most = int(dag.weights[0]), _most_mis(table)
        # (under a minimum leaf size a leaf of fewer rows costs the infeasible price in
        # false positives and negatives too, up to one such leaf per row, as in most)
        wrong = most if w is not None and w.min_leaf > 1 else None
        bounds = [_bound(c, table.n_rows, depth_max, weight, most, wrong) for c in sums]
        weights = [1] * len(sums)
        for k in range(len(sums) - 2, -1, -1):
            weights[k] = weights[k + 1] * (bounds[k + 1] + 1)
        top = weights[0] * (bounds[0] + 1) if sums else 1
        if top * (dag.n_attributes + 2) >= 2**62:
            raise InputError(
                f"{len(sums)} sum costs in stages need numbers beyond 64 bits on this table; "
                "give fewer costs in --order"
            )
        s_cost = _weighted(sums, weights)
        # A leaf with a choice of two decisions (false positives or negatives): its two
        # points of (depth, S) for the fronts, its two values of S for the counts.
        dag.decide(table, COSTS["depth"], s_cost)
        graph.leaf_s = leaf_values(table, dag, s_cost)
        store = compute_fronts(
            dag, COSTS["depth"], s_cost, progress=prog, max_memory=ceiling, exact_only=exact_only
        )
        fx, fy, _ = store.front(0)
        fx, fy = fx.tolist(), fy.tolist()
        if max_depth is not None:
            fy = [y for x, y in zip(fx, fy) if x <= max_depth]
            fx = fx[: len(fy)]
        if not fx:  # only under --exact-only: a leaf at the root is a tree otherwise
            raise InputError(
                f"no tree has depth <= {max_depth} (--max-depth) under --exact-only (a leaf "
                "only where no attribute splits); raise --max-depth or drop --exact-only"
            )

        def f_at(d):
            return [y for x, y in zip(fx, fy) if x <= d][-1]

        s_inf = fy[-1]  # the least S over the trees allowed (depth <= max_depth)
        # Divisors: S // q[k] is the lexicographic code of the sums up to the k-th.
        qs = [weights[k] for k in range(len(sums))]
        if j is None:
            d_star = None
            s_star = s_inf
        else:
            q_a = qs[j - 1] if j > 0 else top
            d_star = next(x for x, y in zip(fx, fy) if y // q_a == s_inf // q_a)
            s_star = f_at(d_star)
        plan = []  # (cost, value, depth bound, divisor) of each stage
        k_sum = 0
        for k, c in enumerate(costs):
            if c.combine == MAX:
                assert d_star is not None
                plan.append((c, d_star, d_star, qs[k_sum - 1] if k_sum > 0 else top))
                continue
            after_depth = j is not None and k > j
            s_val = s_star if after_depth or j is None else s_inf
            value = (s_val // weights[k_sum]) % (bounds[k_sum] + 1)
            plan.append((c, value, d_star if after_depth else max_depth, qs[k_sum]))
            k_sum += 1
        # One counting pass per divisor, for all the depth bounds that use it.
        trees = {}
        for q in dict.fromkeys(qd for *_, qd in plan):
            bnds = list(dict.fromkeys(b for *_, b, qd in plan if qd == q))
            for b, cnt in zip(
                bnds, count_min_trees(graph, store, s_cost, bnds, q, exact_only, guard)
            ):
                trees[(b, q)] = cnt
        stages = [Stage(c.name, int(v), trees[(b, q)]) for c, v, b, q in plan]
        least = {}
        for c in costs[1:]:
            # The least depth is the first point of the (depth, S) front.
            if c.combine == MAX:
                least[c.name] = fx[0]
            elif max_depth is None:
                least[c.name] = int(graph.least(c, exact_only, table)[0])
            else:  # the least c among trees of depth <= max_depth: its (depth, c) front
                alone = replace(dag)
                alone.decide(table, COSTS["depth"], c)
                cf = compute_fronts(alone, COSTS["depth"], c, exact_only=exact_only)
                cx_, cy_, _ = cf.front(0)
                least[c.name] = int(cy_[cx_ <= max_depth][-1])
        top_bound = d_star if d_star is not None else max_depth
        no_tree = dag.tree_refusal(table)
        tree = None
        if no_tree is None:
            tree = _final_tree(table, dag, graph, store, s_cost, top_bound, exact_only)
    finally:
        prog.close()
    return Optimum(
        table=table,
        order=tuple(c.name for c in costs),
        exact_only=exact_only,
        stages=stages,
        least=least,
        tree=tree,
        stats=stats,
        seconds=time.perf_counter() - t0,
        max_depth=max_depth,
        no_tree=no_tree,
    )


def _final_tree(table, dag, graph, store, s_cost, d_star, exact_only):
    """One tree of the final set: from the root with depth bound ``d_star``, the first
    minimiser of S listed (the leaf, then bundles in attribute order), as tree extraction
    breaks ties."""
    from ..trees import Tree, TreeNode, leaf_price, node_labels

    fref = store.fref.reshape(-1)
    fxy = store.fxy.reshape(-1)
    p = s_cost.params()

    def f(v, d):
        return _f(fref, fxy, v, d)

    def build(v, d):
        counts, decision = node_labels(table, dag, v)
        target = f(v, d)
        b0, b1 = int(dag.node_bundle_start[v]), int(dag.node_bundle_start[v + 1])
        leaf_ok = not exact_only or not dag.node_split[v] or not dag.node_mis[v]
        if graph.leaf_s.size:  # a leaf with a choice of two decisions: the first at target
            for k in range(2):
                if leaf_ok and int(graph.leaf_s[2 * v + k]) == target:
                    said = table.decision_values[int(dag.leaf_dec[v, k])]
                    return TreeNode(counts, said, price=leaf_price(table, counts))
        elif leaf_ok and p[1] + p[2] * int(dag.node_mis[v]) == target:
            return TreeNode(counts, decision, price=leaf_price(table, counts))
        n = int(dag.weights[v])
        for b in range(b0, b1):
            kids = [int(c) for c in dag.children(b)]
            vals = [f(c, d - 1) for c in kids] if d >= 1 else [int(NONE)]
            if any(x >= NONE for x in vals) or p[3] + p[4] * n + sum(vals) != target:
                continue
            attr = int(dag.bundle_attr[b])
            children = tuple(
                (table.values[attr][int(table.codes[attr][dag.rows(c)[0]])], build(c, d - 1))
                for c in kids
            )
            return TreeNode(
                counts, decision, table.attributes[attr], children, leaf_price(table, counts)
            )
        raise AssertionError("no minimiser at a node (a bug in dagger)")

    root = build(0, UNBOUNDED if d_star is None else d_star)
    return Tree.for_table(table, dag.mapped(table, root))


__all__ = ["Optimum", "Stage", "abbreviate", "front_counts", "optimize"]
