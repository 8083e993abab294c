"""The tree of the greatest F1 or balanced accuracy (``dagger tree --best``) by a few queries
of the least priced misclassifications, without the whole front of false positives against
false negatives.

A query prices a false positive ``a`` and a false negative ``c`` (the price matrix of
:func:`priced`) and asks for the least priced misclassifications within the depth cap: the
least ``a FP + c FN`` over every tree, which the depth search answers about as fast as
the least misclassifications themselves, where the front of FP against FN has a point per
trade-off and costs far more (issue 38's benchmark row).

- Balanced accuracy is ``1 - (FP / N + FN / P) / 2`` (P positive and N negative rows'
  weight): the greatest is the least ``P FP + N FN``, one query.
- F1 is ``2 TP / (2 TP + FP + FN)``, a ratio: Dinkelbach's method. A tree of F1 greater than
  an incumbent's (``TP = t``, ``FP + FN = e``) is one with ``t FP + (t + e) FN < P e``
  (expand ``2 TP' / (2 TP' + e') > 2 t / (2 t + e)`` with ``TP' = P - FN'``); the query of
  those prices finds one whenever there is one, and that tree is the next incumbent.
  Starting from the leaf deciding positive (F1 ``2P / (2P + N)``), each query raises F1
  strictly until one finds nothing better: the incumbent's F1 is then the greatest.

Ties: the trees of the greatest score are the trees of the least ``a FP + c FN`` (prices
reduced to coprime integers); of these the one of fewest false positives is chosen, as the
front's scan (:func:`dagger_cli.scores.best_point`) chooses its first point. Another tree
of that least value has ``k c`` fewer false positives and ``k a`` more negatives for some
k >= 1, so there is none when the tree found has fewer than ``c`` false positives; else
one more query, of prices ``(M a + 1, M c)`` with ``M`` one more than the found tree's false
positives, makes every tree of a greater value cost more than the found one and breaks the
ties by false positives. The tree itself is the query's (its search order's first tree of
those costs, the shallowest).

When the prices would exceed the engine's limit on priced weight
(:data:`dagger_cli.engine.kernels.ordered.WEIGHT_LIMIT` units in all), or a class is
absent, :func:`best_tree` returns None and the caller scans the front instead, as it does
when the queries do not end within half a time limit (the front found in the rest answers).

The same queries give an ROC front cut short by a time limit its supported points
(:func:`hull_search`, :class:`Hull`; ``dagger_cli.engine.anytime``): the vertices of the
front's convex hull, each a tree on the exact front, and a line below every tree per query.
"""

from __future__ import annotations

from dataclasses import replace
from math import gcd

import numpy as np

from .fronts import pareto
from .scores import class_split, f1


def least_query(query):
    """``query`` turned into the query of one tree of the least misclassifications (priced,
    on a :func:`priced` table) within its depth cap: depth against misclassifications, the
    least y alone, no bounds."""
    return replace(query, x="depth", y="misclassifications", least_y=True, max_x=None, max_y=None)


def least_tree(solve, query):
    """The ``least`` of :func:`best_tree` and :func:`hull_search`: a priced table's tree of
    the least misclassifications within ``query``'s cap (the last point of
    :func:`least_query`'s front), solved by ``solve(table, query)``."""
    from .trees import extract_tree

    least = least_query(query)

    def run(table):
        rel = solve(table, least)
        return extract_tree(rel, len(rel.front) - 1)

    return run


def priced(table, fp_price: int, fn_price: int):
    """``table`` (with a positive class) priced for false positives and negatives: a row of
    a negative class decided positive costs ``fp_price``, a positive row decided otherwise
    ``fn_price``, anything else 0, each per unit of the rows' weight (so the cost
    ``misclassifications`` is ``fp_price * FP + fn_price * FN``).

    >>> from dagger_cli.data.table import example_table
    >>> t = example_table().weighted(positive="1")
    >>> priced(t, 3, 5).weighting.prices.tolist()
    [[0, 3], [5, 0]]
    """
    w = table.weighting
    n = len(table.decision_values)
    pos = w.positive
    prices = np.zeros((n, n), dtype=np.int64)
    prices[:, pos] = fp_price
    prices[pos, :] = fn_price
    prices[pos, pos] = 0
    # (a row of a negative class decided as another negative class costs nothing)
    weighting = replace(
        w, prices=prices, price_scale=1, label="priced misclassifications", positive=None
    )
    return replace(table, weighting=weighting)


def _fits(table, fp_price: int, fn_price: int) -> bool:
    """Whether the priced table's weight times its largest price stays within the limit of
    the engines' priced weights (the ordered solver's, the least of them)."""
    from .engine.kernels.ordered import WEIGHT_LIMIT

    return table.weight_total * max(fp_price, fn_price) + 1 <= WEIGHT_LIMIT


def relabelled(table, tree):
    """``tree`` (found on :func:`priced` ``table``) as a tree of ``table``: each leaf's false
    positives, negatives and price against its own weighting, and a leaf that decides a
    negative class the one the front's leaves decide (the negative class of least price, the
    heaviest without prices: :meth:`~dagger_cli.weights.Weighting.decision_leaves`; the
    priced query cannot tell the negative classes apart)."""
    from .trees import TreeNode, tree_costs, with_decision_terms

    w = table.weighting
    values = list(table.decision_values)
    index = {v: k for k, v in enumerate(values)}

    def walk(n: TreeNode) -> TreeNode:
        if not n.is_leaf:
            return replace(n, children=tuple((v, walk(c)) for v, c in n.children))
        if index[n.decision] == w.positive:
            return n
        counts = np.asarray(n.counts, dtype=np.int64)
        dec = w.decision_leaves(counts[None, :])[0][0]
        other = int(dec[0]) if int(dec[0]) != w.positive else int(dec[1])
        return replace(n, decision=values[other])

    root = with_decision_terms(table, walk(tree.root))
    return replace(tree, root=root, table_costs=tree_costs(root, table.weight_total))


def _ask(table, least, a: int, c: int):
    """The query of prices ``(a, c)``: its tree as a tree of ``table``, the tree's false
    positives and false negatives; None where the prices pass the engines' limit."""
    if not _fits(table, a, c):
        return None
    tree = relabelled(table, least(priced(table, a, c)))
    costs = tree.costs()
    return tree, int(costs["false_positives"]), int(costs["false_negatives"])


def _reduced(a: int, c: int) -> tuple[int, int]:
    """Prices ``(a, c)`` over their greatest common divisor (the same trees, smaller sums)."""
    g = gcd(a, c)
    return a // g, c // g


def best_tree(table, score: str, least):
    """The tree of the greatest ``score`` ("f1" or "balanced-accuracy") of ``table`` (with
    a positive class), its false positives and its false negatives, by queries
    ``least(priced_table)`` that return a tree of the least priced misclassifications (within
    the caller's depth cap); None when the prices would exceed the engines' limit or a class
    is absent (then the front's scan answers).

    >>> from dagger_cli.data.table import example_table
    >>> from dagger_cli.engine import relate
    >>> from dagger_cli.trees import extract_tree
    >>> def least(t):
    ...     rel = relate(t, "depth", "misclassifications", max_depth=1)
    ...     return extract_tree(rel, len(rel.front) - 1)
    >>> t = example_table().weighted(positive="1")
    >>> tree, fp, fn = best_tree(t, "f1", least)
    >>> fp, fn
    (0, 0)
    """
    positives, negatives = class_split(table)
    if positives == 0 or negatives == 0:
        return None
    if score == "balanced-accuracy":
        a, c = _reduced(positives, negatives)
        found = _ask(table, least, a, c)
        if found is None:
            return None
    else:
        # the incumbent: the leaf deciding positive (TP = P, FP = N, FN = 0)
        best = f1(positives, negatives, 0)
        t, e = positives, negatives
        while True:
            a, c = _reduced(t, t + e)
            found = _ask(table, least, a, c)
            if found is None:
                return None
            _, fp, fn = found
            value = f1(positives - fn, fp, fn)
            if value <= best:
                break  # (value == best: the least of a FP + c FN is the incumbent's)
            best, t, e = value, positives - fn, fp + fn
    tree, fp, fn = found
    if fp >= c:
        # a tree of the same value with fewer false positives may exist
        m = fp + 1
        found = _ask(table, least, m * a + 1, m * c)
        if found is None:
            return None
    return found


class Hull:
    """What :func:`hull_search` found so far (kept when a time limit cuts it short): the
    half-planes ``a FP + c FN >= v`` below every tree, and each query's tree with its false
    positives and negatives (every one on the exact front: no tree has a smaller value)."""

    def __init__(self):
        self.planes: list[tuple[int, int, int]] = []
        self.trees: list = []

    def staircase(self, span: int, swap: bool = False, most: int = 50_000):
        """The bound of the half-planes as a staircase ``(x, y)`` below every tree, x in
        ``0..span`` (FP, or FN when ``swap``: the pair's x), at every integer x when
        ``span < most``, else at ``most`` points, each step the least the planes allow up to
        the next (the planes' bound only falls as x grows). None without planes."""
        if not self.planes:
            return None
        if span < most:
            xs = np.arange(span + 1, dtype=np.int64)
            at = xs
        else:
            xs = np.unique(np.linspace(0, span, most).astype(np.int64))
            at = np.append(xs[1:] - 1, span)  # the step's last x: its least bound
        y = np.zeros(xs.size, dtype=np.int64)
        for a, c, v in self.planes:
            if swap:
                a, c = c, a
            y = np.maximum(y, -((a * at - v) // c))  # ceil((v - a x) / c)
        keep = pareto(xs, y)
        return xs[keep], y[keep]


def hull_search(table, least, hull: Hull) -> None:
    """The supported points of the front of false positives against false negatives (the
    vertices of its convex hull) by queries ``least(priced_table)`` (as :func:`best_tree`'s),
    Aneja and Nair's dichotomic search: from the two leaves (every row negative, every row
    positive), each segment between two points found asks the query of the prices normal to
    it; a tree below the segment splits it in two, else the segment is an edge of the hull.
    The longest segment first; each query's tree and half-plane go to ``hull`` as they come
    (so a caller that stops it keeps them). Stops early where the prices pass the engines'
    limit."""
    positives, negatives = class_split(table)
    if positives == 0 or negatives == 0:
        return
    import heapq

    def query(a: int, c: int):
        found = _ask(table, least, a, c)
        if found is None:
            return None
        tree, fp, fn = found
        hull.planes.append((a, c, a * fp + c * fn))
        hull.trees.append((fp, fn, tree))
        return fp, fn

    todo: list = []

    def push(p, q):
        if q[0] > p[0] and p[1] > q[1]:
            size = (q[0] - p[0]) ** 2 + (p[1] - q[1]) ** 2
            heapq.heappush(todo, (-size, len(hull.planes), p, q))

    push((0, positives), (negatives, 0))
    while todo:
        _, _, p, q = heapq.heappop(todo)
        a, c = _reduced(p[1] - q[1], q[0] - p[0])
        r = query(a, c)
        if r is None:
            return
        if a * r[0] + c * r[1] < a * p[0] + c * p[1]:
            push(p, r)
            push(r, q)
