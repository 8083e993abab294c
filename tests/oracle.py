"""An independent brute-force oracle for the costs of ALL decision trees of a table.

Nothing here imports ``dagger_cli``: the oracle works on plain Python lists so that it
cannot share a bug with the engine.  It follows the definitions of the paper (sections
2-3) literally:

* a decision tree for a subtable Θ is either a leaf (labelled with the most common
  decision of Θ), or -- only if Θ has at least two distinct decisions -- a node labelled
  with an attribute that is not constant on Θ, with one child per value of that
  attribute present in Θ, each child being a decision tree for the corresponding
  restriction of Θ;
* the cost vector of a tree is ``(depth, total_path_length, nodes, leaves,
  misclassifications)``.

``all_cost_vectors`` enumerates the vectors of EVERY tree.  Memoising the *set* of
vectors per subtable (a frozenset of row indices) is still exhaustive: the vector of a
split tree depends on its children only through their vectors, so the set of vectors of
the split trees is exactly the image of the cartesian product of the children's sets.
The product is folded one child at a time (the partial combination -- max of depths,
sums of the rest -- is associative), which produces the same set, only faster.
"""

from __future__ import annotations

import math
from collections import Counter, deque
from functools import cache
from itertools import permutations

COSTS = ("depth", "total-path-length", "nodes", "leaves", "misclassifications")
COST_INDEX = {name: i for i, name in enumerate(COSTS)}
#: The 20 ordered pairs (x, y) of different costs.
COST_PAIRS = tuple(permutations(COSTS, 2))

Vector = tuple  # (depth, total_path_length, nodes, leaves, misclassifications)


# --------------------------------------------------------------------------- helpers
def _check(rows, decisions):
    rows = [tuple(r) for r in rows]
    decisions = list(decisions)
    if len(rows) != len(decisions):
        raise ValueError(f"{len(rows)} rows but {len(decisions)} decisions")
    if not rows:
        raise ValueError("empty table")
    m = len(rows[0])
    if any(len(r) != m for r in rows):
        raise ValueError("rows of different lengths")
    return rows, decisions, m


def _leaf_mis(subset, decisions):
    counts = Counter(decisions[i] for i in subset)
    return len(subset) - max(counts.values())


def _is_pure(subset, decisions):
    return len({decisions[i] for i in subset}) == 1


def _children(subset, rows, attr):
    """The restrictions of ``subset`` by the values of ``attr`` present in it."""
    groups = {}
    for i in subset:
        groups.setdefault(rows[i][attr], []).append(i)
    return [frozenset(g) for g in groups.values()]


def _split_attributes(subset, rows, m):
    """Attributes that are not constant on ``subset``."""
    return [a for a in range(m) if len({rows[i][a] for i in subset}) >= 2]


# --------------------------------------------------------------------------- oracle
def all_cost_vectors(rows, decisions) -> set:
    """The set of (depth, Λ, nodes, leaves, µ) over every decision tree for the table."""
    rows, decisions, m = _check(rows, decisions)

    @cache
    def vectors(subset: frozenset) -> frozenset:
        n = len(subset)
        # The leaf (trivial tree) is always a decision tree for Θ.
        out = {(0, 0, 1, 1, _leaf_mis(subset, decisions))}
        if not _is_pure(subset, decisions):
            for a in _split_attributes(subset, rows, m):
                # Partial vectors over the children seen so far:
                # (max depth, sum Λ, sum nodes, sum leaves, sum µ).
                acc = {(0, 0, 0, 0, 0)}
                for child in _children(subset, rows, a):
                    acc = {
                        (max(p[0], c[0]), p[1] + c[1], p[2] + c[2], p[3] + c[3], p[4] + c[4])
                        for p in acc
                        for c in vectors(child)
                    }
                for d, lam, nodes, leaves, mis in acc:
                    out.add((1 + d, n + lam, 1 + nodes, leaves, mis))
        return frozenset(out)

    return set(vectors(frozenset(range(len(rows)))))


def cost_vector_counts(rows, decisions, exact_only=False) -> Counter:
    """How many trees for the table have each cost vector (depth, Λ, nodes, leaves, µ).

    The same enumeration as :func:`all_cost_vectors` with multiplicities: the trees of a
    split are the cartesian product of the children's trees, so the number of split trees
    with a combined vector is a sum of products of the children's numbers. With
    ``exact_only`` a subtable with several decisions is a leaf only if no attribute splits it.
    """
    rows, decisions, m = _check(rows, decisions)

    @cache
    def counts(subset: frozenset) -> Counter:
        n = len(subset)
        out = Counter()
        attrs = [] if _is_pure(subset, decisions) else _split_attributes(subset, rows, m)
        if not exact_only or not attrs:
            out[(0, 0, 1, 1, _leaf_mis(subset, decisions))] += 1
        for a in attrs:
            acc = Counter({(0, 0, 0, 0, 0): 1})
            for child in _children(subset, rows, a):
                nxt = Counter()
                for p, k in acc.items():
                    for c, j in counts(child).items():
                        v = (max(p[0], c[0]), p[1] + c[1], p[2] + c[2], p[3] + c[3], p[4] + c[4])
                        nxt[v] += k * j
                acc = nxt
            for (d, lam, nodes, leaves, mis), k in acc.items():
                out[(1 + d, n + lam, 1 + nodes, leaves, mis)] += k
        return out

    return Counter(counts(frozenset(range(len(rows)))))


def staged_brute(vector_counts: Counter, order) -> list:
    """Filter the trees stage by stage: for each cost of ``order``, (least value among the
    trees left, number of trees left after keeping those with that value)."""
    left = dict(vector_counts)
    out = []
    for name in order:
        i = COST_INDEX[name]
        best = min(v[i] for v in left)
        left = {v: k for v, k in left.items() if v[i] == best}
        out.append((best, sum(left.values())))
    return out


def capped_cost_vectors(rows, decisions, max_depth: int, exact_only: bool = False) -> set:
    """The set of (depth, Λ, nodes, leaves, µ) over every decision tree of depth at most
    ``max_depth`` for the table, by its own recursion over (subset, remaining depth).

    ``exact_only``: only trees whose leaves are pure or cannot be split (no attribute is
    non-constant on them), i.e. without avoidable misclassifications; may be empty."""
    rows, decisions, m = _check(rows, decisions)

    @cache
    def vectors(subset: frozenset, r: int) -> frozenset:
        n = len(subset)
        out = set()
        split_attrs = [] if _is_pure(subset, decisions) else _split_attributes(subset, rows, m)
        if not exact_only or not split_attrs:
            out.add((0, 0, 1, 1, _leaf_mis(subset, decisions)))
        if r > 0:
            for a in split_attrs:
                acc = {(0, 0, 0, 0, 0)}
                for child in _children(subset, rows, a):
                    acc = {
                        (max(p[0], c[0]), p[1] + c[1], p[2] + c[2], p[3] + c[3], p[4] + c[4])
                        for p in acc
                        for c in vectors(child, r - 1)
                    }
                for d, lam, nodes, leaves, mis in acc:
                    out.add((1 + d, n + lam, 1 + nodes, leaves, mis))
        return frozenset(out)

    return set(vectors(frozenset(range(len(rows))), max_depth))


def count_trees(rows, decisions) -> int:
    """The number of distinct decision trees for the table."""
    rows, decisions, m = _check(rows, decisions)

    @cache
    def count(subset: frozenset) -> int:
        total = 1  # the leaf
        if not _is_pure(subset, decisions):
            for a in _split_attributes(subset, rows, m):
                total += math.prod(count(c) for c in _children(subset, rows, a))
        return total

    return count(frozenset(range(len(rows))))


def pareto_front(points) -> list:
    """Pareto-optimal (x, y) pairs (minimise both), x ascending, y strictly descending."""
    front = []
    for x, y in sorted(set(points)):
        if not front or y < front[-1][1]:
            front.append((x, y))
    return front


def project(vectors, x: str, y: str) -> set:
    ix, iy = COST_INDEX[x], COST_INDEX[y]
    return {(v[ix], v[iy]) for v in vectors}


def brute_front(rows, decisions, x="total-path-length", y="misclassifications") -> list:
    """The Pareto front of cost ``x`` against cost ``y`` over all trees for the table."""
    if x == y:
        raise ValueError("the two costs must differ")
    return pareto_front(project(all_cost_vectors(rows, decisions), x, y))


def least_y_brute(vectors, x: str, y: str, n: int):
    """F(n): least y over trees with x <= n (None if there is none)."""
    ix, iy = COST_INDEX[x], COST_INDEX[y]
    ys = [v[iy] for v in vectors if v[ix] <= n]
    return min(ys) if ys else None


def least_x_brute(vectors, x: str, y: str, k: int):
    """G(k): least x over trees with y <= k (None if there is none)."""
    return least_y_brute(vectors, y, x, k)


# --------------------------------------------------------------------------- DAG Δ(T)
def dag_nodes(rows, decisions) -> dict:
    """The nodes of the paper's graph Δ(T), built by BFS from the whole table.

    Returns ``{frozenset(row indices): [(attribute, [child subsets]), ...]}``: a node
    with at least two distinct decisions has one bundle per non-constant attribute
    (one edge per present value); a node with one decision has no bundles.
    """
    rows, decisions, m = _check(rows, decisions)
    root = frozenset(range(len(rows)))
    nodes = {}
    queue = deque([root])
    while queue:
        subset = queue.popleft()
        if subset in nodes:
            continue
        bundles = []
        if not _is_pure(subset, decisions):
            for a in _split_attributes(subset, rows, m):
                kids = _children(subset, rows, a)
                bundles.append((a, kids))
                queue.extend(k for k in kids if k not in nodes)
        nodes[subset] = bundles
    return nodes


def dag_stats(rows, decisions) -> tuple:
    """(subtables, bundles, edges) of Δ(T): nodes, bundles and edges of the graph."""
    nodes = dag_nodes(rows, decisions)
    bundles = sum(len(b) for b in nodes.values())
    edges = sum(len(kids) for b in nodes.values() for _, kids in b)
    return len(nodes), bundles, edges


def dag_terminal_counts(rows, decisions) -> tuple:
    """(nodes with one decision, nodes without bundles) of Δ(T).

    The two differ only when a node has several decisions but no non-constant
    attribute (equal rows with different decisions, kept).
    """
    rows, decisions, _ = _check(rows, decisions)
    nodes = dag_nodes(rows, decisions)
    pure = sum(1 for s in nodes if _is_pure(s, decisions))
    no_bundles = sum(1 for b in nodes.values() if not b)
    return pure, no_bundles


# --------------------------------------------------------------------------- preprocessing
def _as_number(text):
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(v) else v


def decision_sort_key(labels):
    """A key ordering decision labels numerically if all parse as numbers, else as strings."""
    labels = [str(v) for v in labels]
    if labels and all(_as_number(v) is not None for v in labels):
        return lambda v: (_as_number(str(v)), str(v))
    return lambda v: str(v)


def most_common_decision(decisions, key):
    counts = Counter(decisions)
    best = max(counts.values())
    return min((d for d, c in counts.items() if c == best), key=key)


def merge_rows(rows, decisions):
    """Merge rows with equal attribute values into one row with the group's most common
    decision (smallest on a tie, in the order of :func:`decision_sort_key` over all the
    decisions of the table).  Values and decisions are compared as strings.

    Returns (rows, decisions) in first-occurrence order.
    """
    rows = [tuple(str(v) for v in r) for r in rows]
    decisions = [str(d) for d in decisions]
    key = decision_sort_key(decisions)
    groups = {}
    for r, d in zip(rows, decisions):
        groups.setdefault(r, []).append(d)
    out_rows = list(groups)
    return out_rows, [most_common_decision(groups[r], key) for r in out_rows]


#: The costs of a vector of :func:`weighted_cost_vectors` with a positive class.
DECISION_COSTS = (*COSTS, "false-positives", "false-negatives")
DECISION_INDEX = {name: i for i, name in enumerate(DECISION_COSTS)}


def weighted_cost_vectors(
    rows, decisions, weights, prices=None, max_depth=None, min_leaf: int = 1, positive=None
) -> set:
    """The set of (depth, Λ, nodes, leaves, µ) over every decision tree for the table *and
    every labelling of its leaves* when row i weighs ``weights[i]`` and deciding d for a
    row of decision c costs ``prices[c][d]`` (a dict of dicts; None: 1 if c != d).

    Λ sums each row's weight times its depth, µ each row's weight times the price of its
    leaf's decision; depth, nodes and leaves do not read weights. Splits as in
    :func:`capped_cost_vectors` (a subtable with one decision is a leaf). Only trees whose
    every leaf holds at least ``min_leaf`` rows (a split only where each child holds that
    many: the whole table alone is always a leaf). With a ``positive`` decision each vector
    also has its false positives and false negatives (:data:`DECISION_COSTS`)."""
    rows, decisions, m = _check(rows, decisions)
    labels = sorted(set(decisions))

    def price(c, d):
        if prices is None:
            return int(c != d)
        return prices[c][d]

    @cache
    def vectors(subset: frozenset, r) -> frozenset:
        n = sum(weights[i] for i in subset)
        out = set()
        if len(subset) >= min_leaf or len(subset) == len(rows):
            for d in labels:
                leaf = (0, 0, 1, 1, sum(weights[i] * price(decisions[i], d) for i in subset))
                if positive is not None:
                    pos = sum(weights[i] for i in subset if decisions[i] == positive)
                    fp = sum(weights[i] for i in subset) - pos if d == positive else 0
                    leaf = (*leaf, fp, 0 if d == positive else pos)
                out.add(leaf)
        if r is None or r > 0:
            split_attrs = [] if _is_pure(subset, decisions) else _split_attributes(subset, rows, m)
            for a in split_attrs:
                acc = {(0,) * (5 if positive is None else 7)}
                for child in _children(subset, rows, a):
                    acc = {
                        (max(p[0], c[0]), *(u + v for u, v in zip(p[1:], c[1:])))
                        for p in acc
                        for c in vectors(child, None if r is None else r - 1)
                    }
                for d, lam, nodes, *rest in acc:
                    out.add((1 + d, n + lam, 1 + nodes, *rest))
        return frozenset(out)

    return set(vectors(frozenset(range(len(rows))), max_depth))


def weighted_cost_vector_counts(
    rows,
    decisions,
    weights,
    prices=None,
    max_depth=None,
    min_leaf: int = 1,
    positive=None,
    exact_only: bool = False,
) -> Counter:
    """How many trees have each cost vector when row i weighs ``weights[i]`` and deciding
    d for a row of decision c costs ``prices[c][d]`` (as :func:`weighted_cost_vectors`).

    A tree is the paper's (a subtable with one decision is a leaf; a split on an attribute
    not constant on it), of depth at most ``max_depth``, every leaf of at least
    ``min_leaf`` rows (the whole table aside); under ``exact_only`` a leaf only where no
    attribute splits or its least price is 0 (no misclassification it could avoid costs).
    Each leaf takes the decision of least price (its price does not depend on which one a
    tie picks). With a ``positive`` decision each leaf takes either of two decisions, the
    positive one or the other decision of least price (their false positives, false
    negatives and price do not depend on which one a tie picks), and a tree is counted
    once for each labelling of its leaves by those choices; the vectors then also have
    false positives and false negatives."""
    rows, decisions, m = _check(rows, decisions)
    labels = sorted(set(decisions))

    def price(c, d):
        return int(c != d) if prices is None else prices[c][d]

    def cost(subset, d):
        return sum(weights[i] * price(decisions[i], d) for i in subset)

    width = 5 if positive is None else 7

    @cache
    def counts(subset: frozenset, r) -> Counter:
        n = sum(weights[i] for i in subset)
        out: Counter = Counter()
        split_attrs = [] if _is_pure(subset, decisions) else _split_attributes(subset, rows, m)
        leaf_ok = len(subset) >= min_leaf or len(subset) == len(rows)
        least = min(cost(subset, d) for d in labels)
        if leaf_ok and (not exact_only or not split_attrs or least == 0):
            if positive is None:
                out[(0, 0, 1, 1, least)] += 1
            else:
                pos = sum(weights[i] for i in subset if decisions[i] == positive)
                out[(0, 0, 1, 1, cost(subset, positive), n - pos, 0)] += 1
                others = [d for d in labels if d != positive]
                out[(0, 0, 1, 1, min(cost(subset, d) for d in others), 0, pos)] += 1
        if r is None or r > 0:
            for a in split_attrs:
                acc = Counter({(0,) * width: 1})
                for child in _children(subset, rows, a):
                    nxt: Counter = Counter()
                    for p, k in acc.items():
                        for c, j in counts(child, None if r is None else r - 1).items():
                            v = (max(p[0], c[0]), *(u + w for u, w in zip(p[1:], c[1:])))
                            nxt[v] += k * j
                    acc = nxt
                for (d, lam, nodes, *rest), k in acc.items():
                    out[(1 + d, n + lam, 1 + nodes, *rest)] += k
        return out

    return Counter(counts(frozenset(range(len(rows))), max_depth))
