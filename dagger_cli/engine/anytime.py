"""Anytime fronts: the best front found within a time limit, each point marked proven or
not, with a proven bound below which no tree lies.

``solve(table, Query(..., time_limit=T))`` runs :func:`solve_within`. It answers at once
with the greedy trees (:func:`dagger_cli.greedy.greedy_trees`, every heuristic's sweeps
within the query's depth cap); when misclassifications are one of the costs, it finds the
least of them over the trees within the cap (a quick search of one point, whose tree joins
the candidates); then it computes the exact front over the trees of depth at most d for
d = 1, 2, ... (iterative deepening: each front is exact over its trees, and each costs
little beside the next), and last the query itself.

Without a depth cap the depth-one front comes first (before the greedy trees, which grow
whole trees), the least misclassifications are those the equal rows force (every other
subtable can be split), and the capped fronts of depth 2, 3, ... take at most
:data:`DEEPEN_SHARE` of the limit (each predicted from the growth of the last two) before
the query itself runs: the query's front, once it ends, is the exact answer. Before each of
them the query itself is tried for :data:`TRIAL_FACTOR` times the time spent so far (its
work dropped if it does not end; the tries count in that share): a query much shorter than
the limit ends within a few times its own run. After
each capped front the bound below every tree is computed from the same subtables with
optimistic leaves at the cap (:func:`relaxed_bound`): the points it meets are proven
before the query ends. So a limit about 10 % longer than the query's own run gives the exact front,
every point proven, exit status 0. When the time runs out (or at
the first Ctrl-C) the work in progress is dropped and the answer is made of what finished.
For false positives against false negatives under a cap, before the query itself the
front's supported points come from queries of the least priced misclassifications for at
most :data:`HULL_SHARE` of the limit (:func:`_hull`): their trees join the candidates and
their lines bound every tree. The answer:

* **the front**: the Pareto-optimal points of the deepest finished front and of the greedy
  trees, every one a real tree whose costs are exactly its point's (``extract_tree`` gives
  it: the finished front's trees from their solver, the greedy ones from their sweep);
* **the bound**: every tree either has depth at most d, and then a point of the finished
  front is at or below its costs, or it is deeper, and then each of its costs is at least
  what any tree of depth d + 1 costs (:func:`deep_corner`: d + 1 splits on one path, of at
  least the table's rows at the root and 2 rows below; d + 2 leaves; at least the least
  misclassifications of any tree, once found, else those no tree avoids: rows equal on
  every attribute with another decision). So the staircase of the finished front and that
  corner is below every tree;
* **proven**: a point is on the exact front when no tree dominates it: no finished point
  does (the front is Pareto-optimal), and no deeper tree does unless the corner is at or
  below it. Its gap is its y less the bound's least y at its x.

If the query itself finishes in time, the answer is exactly its answer (``status ==
"exact"``), the same points, trees and bytes as without a limit. A second Ctrl-C stops at
once (KeyboardInterrupt, as without a limit).
"""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np

from ..costs import MAX, ROC
from ..errors import LimitError
from ..fronts import Front, pareto
from .progress import Progress, TimeLimitReached, deadline
from .structures import Relation

MIS = "misclassifications"
#: The share of a time limit the supported points of an ROC front may take (:func:`_hull`),
#: before the query itself: a limit up to a third longer than the query's own run gives its
#: exact front (less when the hull is whole sooner: raisin at depth 3, 3.7 s beside the
#: query's 23 s); a tenth proved half as many points or fewer on rice and raisin (4 of 219
#: against 10 of 163 in 30 s; 11 of 24 against 20 of 20 in 10 s).
HULL_SHARE = 0.25
#: Without a depth cap, the share of the limit the capped fronts (depth 2, 3, ...) may take
#: before the query itself runs: a limit this much longer than the query's own run gives
#: its exact front.
DEEPEN_SHARE = 0.1
#: Without a depth cap, before each capped front the query itself is tried for this many
#: times the time spent so far (a failed try's work is dropped): a query much shorter than
#: the deepening ends within a few times its own run instead of after it.
TRIAL_FACTOR = 1
#: The depth caps solved before the least misclassifications within the query's cap: the
#: shallow fronts are quick and make the bound below them exact.
SHALLOW = 2
#: The part of a time limit kept back for what follows it (the outputs, the exit): at
#: most this many seconds, at most this share of the limit.
MARGIN = 0.3
MARGIN_SHARE = 0.05
#: What a relation's ``status`` is when its front is the best found in time.
TIME_LIMIT = "time_limit"
INTERRUPTED = "interrupted"


def deep_corner(cost, table, depth: int, least_mis: int) -> int:
    """The least ``cost`` of any tree of depth at least ``depth`` + 1 for ``table``: it has
    a path of ``depth`` + 1 splits (the root's of every row, each below it of at least 2
    rows), ``depth`` + 2 leaves at least, and at least ``least_mis`` misclassifications (a
    lower bound of every tree's).

    >>> from dagger_cli.costs import COSTS
    >>> from dagger_cli.data.table import example_table
    >>> t = example_table()
    >>> [deep_corner(COSTS[c], t, 1, 0) for c in ("depth", "total-path-length", "nodes")]
    [2, 6, 5]
    """
    splits = depth + 1
    # every row weighs at least 1 (in the weighting's units: :mod:`dagger_cli.weights`)
    rows = table.weight_total + 2 * depth
    split_terms = splits * cost.split_const + cost.split_rows * rows
    if cost.combine == MAX:
        return split_terms + cost.leaf_const
    return split_terms + (depth + 2) * cost.leaf_const + cost.leaf_mis * least_mis


def staircase(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Pareto-optimal points of ``x, y`` (x ascending)."""
    keep = pareto(np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64))
    return np.asarray(x, dtype=np.int64)[keep], np.asarray(y, dtype=np.int64)[keep]


def bound_at(bound: tuple, x: int) -> int | None:
    """The least y of the bound at x (None: no tree has that small an x)."""
    bx, by = bound
    k = int(np.searchsorted(bx, x, side="right")) - 1
    return None if k < 0 else int(by[k])


class _Found:
    """The solver of an anytime answer: the tree behind each of its points, from the
    finished relation's solver or from the greedy sweep that made it."""

    trees = True
    name = "anytime"

    def __init__(self, inner: Relation | None, greedy: dict, table):
        self.inner, self.greedy, self.table = inner, greedy, table

    def tree(self, relation, point: int):
        from ..trees import Tree, extract_tree

        p = (int(relation.front.x[point]), int(relation.front.y[point]))
        if self.inner is not None:
            index = {q: k for k, q in enumerate(self.inner.front.points())}
            if p in index:
                return extract_tree(self.inner, index[p])
        return Tree.for_table(self.table, self.greedy[p]())

    def trees_of(self, relation, points: list[int], progress=None) -> list:
        """The trees of many points: the finished relation's in one pass
        (:func:`~dagger_cli.trees.extract_trees`), the greedy ones from their sweeps."""
        from ..trees import Tree, extract_trees

        index = {}
        if self.inner is not None:
            index = {q: k for k, q in enumerate(self.inner.front.points())}
        xy = [(int(relation.front.x[k]), int(relation.front.y[k])) for k in points]
        inner = [index[p] for p in xy if p in index]
        found = dict(zip(inner, extract_trees(self.inner, inner, progress))) if inner else {}
        return [
            found[index[p]] if p in index else Tree.for_table(self.table, self.greedy[p]())
            for p in xy
        ]


def limit_at(limit: float, now: float | None = None) -> float:
    """When the work of a run with a time limit of ``limit`` seconds must stop
    (:func:`time.perf_counter`'s clock): the limit counted from the command's start when a
    command marked it (:func:`~dagger_cli.engine.progress.mark_start`), else from ``now``,
    less what the answer still needs after it (its outputs, the exit)."""
    from .progress import started

    now = time.perf_counter() if now is None else now
    return started(now) + limit - min(MARGIN, MARGIN_SHARE * limit)


def solve_within(table, query, exact_solve) -> Relation:
    """The best front of ``query`` within ``query.time_limit`` seconds (see the module
    docstring); ``exact_solve(table, query)`` solves a query without a limit."""
    from ..greedy import greedy_trees
    from .progress import check_deadline

    t0 = time.perf_counter()
    limit = float(query.time_limit)
    at = limit_at(limit, t0)
    exact = query.exact
    progress = Progress(query.progress)
    cx, cy = query.x_cost, query.y_cost
    tests = getattr(table, "n_tests", table.n_attributes)
    cap = exact.cap(tests)
    top = tests if cap is None else cap  # no tree is deeper
    status = INTERRUPTED
    done: Relation | None = None  # the deepest finished front (depth 0: the leaf alone)
    depth_done = 0
    greedy: dict = {}
    for p, leaf in _leaves(table, cx, cy):
        greedy.setdefault(p, lambda leaf=leaf: leaf)
    least_mis = _forced(table)  # no tree avoids these
    relaxed = None  # the deepest relaxed_bound made (without a cap)

    def capped(d: int) -> None:
        """The exact front over the trees of depth <= d (without a cap, and the bound
        below every tree from its subtables), and the progress line."""
        nonlocal done, depth_done, relaxed
        sub = replace(exact, max_depth=d, progress=False)
        if d < 2:  # (nothing of a depth-one front goes to a cluster)
            sub = replace(sub, scheduler=None, workers=None)
        done = exact_solve(table, sub)
        depth_done = d
        if cap is None:
            try:
                relaxed = relaxed_bound(table, exact, d) or relaxed
            except LimitError:  # beside the capped front it passed --max-memory: skipped
                pass
        if progress.enabled:  # the answer's state if it stopped now
            now = _relation_of(table, query, done, d, greedy, least_mis, TIME_LIMIT, t0, relaxed)
            _say(progress, d, now)

    def attempt(seconds: float) -> Relation | None:
        """The query itself if it ends within ``seconds`` (else None, its work dropped):
        a small query ends before the deepening would."""
        try:
            with deadline(min(at, time.perf_counter() + seconds)):
                return exact_solve(table, replace(exact, progress=False))
        except TimeLimitReached:
            if time.perf_counter() >= at:
                raise  # the limit itself
            return None

    try:
        with deadline(at):
            if cap is None and top >= 1:
                capped(1)  # the depth-one front first: quick on any table
            for costs, tree in greedy_trees(table, max_depth=cap, check=check_deadline):
                p = (costs[cx.column], costs[cy.column])
                greedy.setdefault(p, tree)  # the first sweep listed wins a tie
            if cap is None:
                # Without a cap no tree has fewer misclassifications than the equal rows
                # force (every other subtable can be split), so least_mis is exact. The
                # capped fronts only prove what the query's own front does when it ends:
                # they get a share of the limit, the query the rest.
                found = _deepen(
                    capped, top, limit * DEEPEN_SHARE, time.perf_counter() - t0, attempt
                )
                if found is not None:
                    found.seconds = time.perf_counter() - t0
                    found.query = query
                    return found
            else:
                for d in range(1, top):
                    if d == SHALLOW + 1 and MIS in (cx.name, cy.name):
                        one = _least_misclassifications(table, exact, exact_solve)
                        least_mis = int(one.front.y[-1])  # proven, even if its tree is not made
                        _add_least_tree(one, exact, greedy)
                    capped(d)
                if {cx.name, cy.name} == ROC:
                    stairs: list = []
                    try:
                        _hull(table, exact, exact_solve, greedy, limit, at, stairs)
                    finally:  # (kept when the limit stops it)
                        relaxed = stairs[0] if stairs else relaxed
            rel = exact_solve(table, exact)
            rel.seconds = time.perf_counter() - t0
            rel.query = query  # what it answers: the time limit holds for its trees too
            return rel
    except TimeLimitReached:
        status = TIME_LIMIT
    except KeyboardInterrupt:
        status = INTERRUPTED
    finally:
        progress.close()
    return _answer(table, query, done, depth_done, greedy, least_mis, status, t0, relaxed)


def _deepen(capped, top: int, share: float, spent: float, attempt=None):
    """``capped(d)`` for d = 2, 3, ... below ``top`` while the next one, predicted from
    the growth of the last two (at least twice the last), keeps the time spent on them
    (``spent`` so far: the depth-one front's) within ``share`` seconds. Before each,
    ``attempt(seconds)`` (if given) tries the query itself for TRIAL_FACTOR times the
    time spent so far (so the tries cost about what the rest does, and a query that takes
    T seconds ends after about 3 T at most): its relation is returned, else None."""
    last, growth = spent, 2.0
    for d in range(2, top):
        if attempt is not None:
            t = time.perf_counter()
            found = attempt(TRIAL_FACTOR * spent)
            spent += time.perf_counter() - t
            if found is not None:
                return found
        if spent + last * growth > share:
            return None
        t = time.perf_counter()
        capped(d)
        took = time.perf_counter() - t
        growth = max(took / last, 2.0) if last > 0 else 2.0
        last, spent = took, spent + took
    return None


def _hull(table, exact, exact_solve, greedy: dict, limit: float, at: float, out: list) -> None:
    """False positives against false negatives under a cap: the supported points of the
    front (:func:`dagger_cli.best.hull_search`, queries of the least priced
    misclassifications, each about as quick as the least misclassifications) for at most
    :data:`HULL_SHARE` of the limit. Their trees join the candidates ``greedy`` (each on
    the exact front) and their half-planes make a staircase below every tree within the
    cap (appended to ``out``; None without one), which proves the points it meets. Kept as
    found when the limit stops it (then re-raised)."""
    from ..best import Hull, hull_search, least_tree
    from ..scores import class_split

    run = least_tree(exact_solve, replace(exact, progress=False))
    hull = Hull()
    try:
        with deadline(min(at, time.perf_counter() + HULL_SHARE * limit)):
            hull_search(table, run, hull)
    except TimeLimitReached:
        if time.perf_counter() >= at:
            raise  # the limit itself (what was found is kept: finally)
    finally:
        swap = exact.x_cost.name != "false-positives"  # (the pair's x is FN)
        for fp, fn, tree in hull.trees:
            greedy.setdefault((fn, fp) if swap else (fp, fn), lambda tree=tree: tree.root)
        positives, negatives = class_split(table)
        out.append(hull.staircase(positives if swap else negatives, swap))


def _least_misclassifications(table, exact, exact_solve) -> Relation:
    """The relation of the least misclassifications of any tree within the query's cap
    (the search of that one point, by depth): its front's last y."""
    from ..best import least_query

    return exact_solve(table, replace(least_query(exact), progress=False))


def _add_least_tree(rel: Relation, exact, greedy: dict) -> None:
    """The tree of the least misclassifications (``rel``'s last point) joins the
    candidates ``greedy`` at its costs of the query."""
    from ..trees import extract_tree

    tree = extract_tree(rel, len(rel.front) - 1)
    costs = tree.costs()
    p = (costs[exact.x_cost.column], costs[exact.y_cost.column])
    greedy.setdefault(p, lambda: tree.root)


def _leaves(table, cx, cy) -> list:
    """The trees of depth 0 and their points: the single leaf, and when the table has a
    positive class (false positives and negatives) the leaf of each decision (a leaf may
    carry any, :meth:`~dagger_cli.weights.Weighting.decision_leaves`): ``[((x, y),
    TreeNode), ...]``."""
    from dataclasses import replace as with_

    from ..trees import Tree, leaf_node

    leaf = leaf_node(table, np.arange(table.n_rows))
    roots = [leaf]
    w = getattr(table, "weighting", None)
    if w is not None and w.positive is not None:
        roots += [with_(leaf, decision=d) for d in table.decision_values if d != leaf.decision]
    out = []
    for root in roots:
        costs = Tree.for_table(table, root).costs()
        out.append(((costs[cx.column], costs[cy.column]), root))
    return out


def _forced(table) -> int:
    """The least misclassifications of any tree as the equal rows force them (in each
    group of rows equal on every attribute, those not of its most common decision; with
    weights or prices each group's least price: a leaf's price is at least the sum of its
    groups')."""
    return int(_forced_by_row(table).sum())


def _forced_by_row(table) -> np.ndarray:
    """Per row, what its group of equal rows forces every tree to misclassify (see
    :func:`_forced`), on the group's first row (0 on the others): a split never parts a
    group, so a subtable's floor is the sum over its rows."""
    from ..data.report import row_groups

    codes = np.asarray(table.codes)
    n = table.n_rows
    gid = row_groups(codes) if codes.size else np.zeros(n, dtype=np.int64)
    k = max(len(table.decision_values), 1)
    groups = int(gid.max(initial=-1)) + 1
    w = getattr(table, "weighting", None)
    weights = None if w is None else w.rows
    totals = np.bincount(gid * k + table.decisions, weights=weights, minlength=groups * k)
    totals = np.rint(totals).astype(np.int64).reshape(groups, k)
    if w is None:
        floor = totals.sum(axis=1) - totals.max(axis=1, initial=0)
    else:
        floor = w.leaf_prices(totals).min(axis=1)
    first = np.full(groups, n, dtype=np.int64)
    np.minimum.at(first, gid, np.arange(n, dtype=np.int64))
    out = np.zeros(n, dtype=np.int64)
    out[first] = floor
    return out


def relaxed_bound(table, query, d: int):
    """A staircase below every tree for ``table`` (of any depth), from the subtables
    within ``d`` splits: the front of the trees of depth <= d in which a subtable that
    some attribute splits may also end in an *optimistic leaf*, the least each cost can
    be of a subtree with a split there (:func:`deep_corner` of depth 0, with the
    misclassifications its equal rows force). A deeper tree cut at depth d is such a
    tree, at or above it in both costs. None when a cost reads a leaf's decision or the
    query asks for exact trees only. The optimistic leaves are at the cap only (above it
    a subtable's subtrees are there in full), so the staircase rises to the exact front
    as d grows.

    The whole DAG engine runs it (leaves of two points, ``Dag.leaf_xy``; no depth-two
    layer), at about the cost of the front capped at d."""
    from .dag import build_dag, compute_fronts
    from .memory import memory_ceiling

    cx, cy = query.x_cost, query.y_cost
    if cx.reads_decision or cy.reads_decision or query.exact_only:
        return None
    max_memory = memory_ceiling(query.max_memory)[0]
    dag = build_dag(table, max_memory=max_memory, max_depth=d, depth2=False)
    n = dag.weights.astype(np.int64)
    mis = dag.node_mis.astype(np.int64)
    # A subtable's floor: its rows' shares of their groups' (prefix sums over the pool).
    share = _forced_by_row(table)[dag.row_pool]
    csum = np.concatenate(([0], np.cumsum(share)))
    start = dag.node_start.astype(np.int64)
    floor = csum[start + dag.node_size] - csum[start]
    splits = np.diff(dag.node_bundle_start) > 0
    # (the whole DAG: a node at the cap has no bundles, yet an attribute splits it)
    splits |= (dag.node_split > 0) & (dag.node_attr_len > 0)

    def points(c):
        leaf = c.leaf_const + c.leaf_mis * mis
        below = c.leaf_const if c.combine == MAX else 2 * c.leaf_const + c.leaf_mis * floor
        return leaf, np.where(splits, c.split_const + c.split_rows * n + below, leaf)

    (lx, ox), (ly, oy) = points(cx), points(cy)
    dag.leaf_xy = np.ascontiguousarray(np.stack([lx, ly, ox, oy], axis=1).ravel(), np.int64)
    store = compute_fronts(dag, cx, cy, max_memory=max_memory, leaves_at_cap=True)
    fx, fy, _ = store.front(0)
    return staircase(np.asarray(fx, np.int64), np.asarray(fy, np.int64))


def _say(progress: Progress, d: int, so_far: Relation) -> None:
    """The progress line: the depths done and the answer's state if it stopped now (its
    points, how many are proven, the largest gap), so a user can decide to wait."""
    front = so_far.front
    proven = int(np.count_nonzero(so_far.proven)) if so_far.proven is not None else len(front)
    gap = max(front.gaps, default=0) if front.gaps is not None else 0
    progress.update(
        "anytime",
        d,
        None,
        unit=f"depth cap(s) exact; now {len(front)} point(s), {proven} proven, "
        f"the largest gap {gap}",
        rate=False,
    )


def _answer(table, query, done, depth_done, greedy, least_mis, status, t0, relaxed) -> Relation:
    """The answer returned when the limit cut the work short (:func:`_relation_of`; the
    benchmark's phases child times it)."""
    return _relation_of(table, query, done, depth_done, greedy, least_mis, status, t0, relaxed)


def _relation_of(
    table, query, done, depth_done, greedy, least_mis, status, t0, relaxed=None
) -> Relation:
    """The relation of what finished: the front, its proven points and the bound (also
    the progress line's state after each depth); ``relaxed``, a staircase below every
    tree (:func:`relaxed_bound`), tightens the bound."""
    cx, cy = query.x_cost, query.y_cost
    xs, ys = [], []
    if done is not None:
        xs += done.front.x.tolist()
        ys += done.front.y.tolist()
    for gx, gy in greedy:
        xs.append(gx)
        ys.append(gy)
    fx, fy = staircase(np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64))
    corner = (
        deep_corner(cx, table, depth_done, least_mis),
        deep_corner(cy, table, depth_done, least_mis),
    )
    # The trees of depth <= depth_done: the finished front's (depth 0: the leaf alone).
    shallow = done.front.points() if done is not None else [p for p, _ in _leaves(table, cx, cy)]
    bx = np.array([p[0] for p in shallow] + [corner[0]], dtype=np.int64)
    by = np.array([p[1] for p in shallow] + [corner[1]], dtype=np.int64)
    bound = staircase(bx, by)
    proven = (fx < corner[0]) | (fy < corner[1]) | ((fx == corner[0]) & (fy == corner[1]))
    if relaxed is not None:
        bound = _higher(bound, relaxed)
        proven |= _on(relaxed, fx, fy)
    gap = [0 if ok else _gap(bound, x, y) for ok, x, y in zip(proven, fx.tolist(), fy.tolist())]
    if query.least_y:
        # The query's one point is the exact front's last: proven only once no tree can
        # have less y than it; its gap is to the least y the bound allows anywhere.
        least = int(bound[1].min())
        proven &= fy == least
        gap = [int(y) - least for y in fy.tolist()]
    front = Front(
        cx, cy, fx, fy, table.weight_total, proven=tuple(proven.tolist()), gaps=tuple(gap)
    )
    keep = _within(front, query)
    rel = Relation(
        table=table,
        front=front,
        stats=done.stats if done is not None else None,
        engine=done.engine if done is not None else query.engine,
        seconds=time.perf_counter() - t0,
        max_depth=query.max_depth,
        query=query,
        status=status,
        bound=bound,
    )
    rel.proven = proven
    rel.solver = _Found(done, greedy, table)
    if keep is not None:
        rel.front = Front(
            cx,
            cy,
            fx[keep],
            fy[keep],
            table.weight_total,
            proven=tuple(proven[keep].tolist()),
            gaps=tuple(g for g, k in zip(gap, keep.tolist()) if k),
        )
        rel.proven = proven[keep]
    return rel


def _bounds_at(bound: tuple, xs: np.ndarray) -> np.ndarray:
    """:func:`bound_at` of each x (int64; -1 where no tree has that small an x)."""
    bx, by = bound
    k = np.searchsorted(bx, xs, side="right") - 1
    return np.where(k >= 0, np.asarray(by, np.int64)[np.maximum(k, 0)], -1)


def _higher(a: tuple, b: tuple) -> tuple[np.ndarray, np.ndarray]:
    """The staircase of the larger of two staircases below every tree (each a valid
    bound, so is their maximum): at each x the larger least y, none where either has
    none."""
    xs = np.union1d(a[0], b[0]).astype(np.int64)
    ya, yb = _bounds_at(a, xs), _bounds_at(b, xs)
    keep = (ya >= 0) & (yb >= 0)
    return staircase(xs[keep], np.maximum(ya, yb)[keep])


def _on(bound: tuple, fx: np.ndarray, fy: np.ndarray) -> np.ndarray:
    """Whether each point (x, y), a real tree's, is on the exact front by ``bound`` (below
    every tree): no tree has less y at its x or below (the bound's least y there is y),
    nor its y at a smaller x (the bound steps down exactly at x)."""
    here, before = _bounds_at(bound, fx), _bounds_at(bound, fx - 1)
    return (here == fy) & ((before < 0) | (before > fy))


def _gap(bound: tuple, x: int, y: int) -> int:
    b = bound_at(bound, x)
    return y if b is None else max(0, y - b)


def _within(front: Front, query) -> np.ndarray | None:
    """The points the query's bounds keep (None: all)."""
    if query.max_x is None and query.max_y is None and not query.least_y:
        return None
    keep = np.ones(len(front), dtype=bool)
    if query.max_x is not None:
        keep &= front.x <= query.max_x
    if query.max_y is not None:
        keep &= front.y <= query.max_y
    if query.least_y and keep.any():
        last = np.flatnonzero(keep)[-1]
        keep[:] = False
        keep[last] = True
    return keep
