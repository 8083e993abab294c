"""Greedy decision trees, swept into trade-off curves, and their distance to the exact front.

Greedy trees
------------
:func:`greedy_tree` grows the usual top-down multiway tree: at a node whose subtable
Θ has two or more distinct decisions and at least one attribute that is non-constant
in Θ, it splits on the non-constant attribute chosen by an impurity criterion, with
one child per value present in Θ (value order); any other node is a leaf labelled with
the most common decision of Θ (the smallest decision code on a tie). Every tree built
here is therefore a decision tree for the table in the sense of the paper (sec. 2).

Criteria (``CRITERIA``), with ``c[v, k]`` the rows of Θ with value ``v`` and decision
``k`` and ``n_v`` the rows with value ``v``:

* ``"error"``: minimise the misclassification error of the children,
  ``Σ_v (n_v − max_k c[v, k])`` (exact integers);
* ``"entropy"``: minimise the weighted entropy of the children
  ``Σ_v n_v·H(c[v, ·]/n_v)`` (= maximise the information gain);
* ``"gini"``: minimise the weighted Gini impurity ``Σ_v n_v·(1 − Σ_k (c[v, k]/n_v)²)``;
* ``"gain-ratio"``: maximise the information gain divided by the split information
  ``H(n_v/n)`` (C4.5's ratio, without C4.5's "at least average gain" filter).

Ties go to the first attribute in column order. Float scores (all but ``error``) count
as tied when they differ by at most ``1e-9`` relative (the same partition listed in a
different value order must not win or lose by rounding).
Contingency tables of all attributes at a node come from one ``numpy.bincount`` over
the node's rows, so the full tree of mushroom or nursery takes a fraction of a second.

Sweeps (trade-off curves)
-------------------------
A single greedy tree is one point; two stopping rules turn it into a curve of trees
from the full greedy tree down to the single leaf. Neither rule changes the attribute
chosen at a node (the choice depends only on the node's subtable), so the full tree is
grown once and every swept tree is a pruning of it (a node is cut to a leaf).

* **threshold** (named after the criterion, e.g. ``"entropy"``): a node becomes a leaf
  when its share of rows not of its most common decision, ``mis/n``, is ``<= θ``.
  ``θ = 0`` gives the full greedy tree (a node with ``mis = 0`` is a leaf anyway);
  ``θ >=`` the root's share gives the single leaf. A node of the full tree survives as
  a split exactly when ``θ < π(v)``, ``π(v)`` being the least ``mis/n`` on the path from
  the root to ``v`` (both included), so the tree changes exactly at the values ``π(v)``
  of the full tree's split nodes. :func:`greedy_sweep` uses ``θ ∈ {0} ∪ {π(v)}``: these
  are the distinct values of ``mis/n`` among the full tree's nodes at which the pruning
  changes, and every distinct pruning appears exactly once (thresholds in between
  repeat the tree of the next smaller one).
* **depth cap** (``"<criterion>/depth"``): the full tree cut at depth ``d`` (nodes at depth
  ``d`` become leaves), ``d = 0 .. depth of the full tree``.

Comparison with the exact front
-------------------------------
:func:`greedy_points` gives, per heuristic, the Pareto-optimal (x, y) costs of its
swept trees. :func:`compare` measures them against the exact front (every greedy tree
is a tree for the table, so no greedy point lies below the front):

* ``points``: how many Pareto-optimal greedy points; ``on_front``: how many of them are
  points of the exact front;
* ``extra_x_at_min_y``: the least x of a greedy point whose y is the front's least y
  (``front.y[-1]``), minus ``G(front.y[-1])`` (the least x of any tree with that y);
  ``None`` when no greedy tree reaches that y;
* ``area``: the area between the two staircases. Both are step functions
  ``F(n) = least y of a point with x <= n``; with ``x0 = front.x[0]`` (the least x of
  any tree) and ``X`` the largest x among the front's and the heuristic's points,
  ``area = Σ_{n = x0}^{X − 1} (F_greedy(n) − F_exact(n))`` (an integer >= 0). Where
  the heuristic has no point with ``x <= n`` yet, ``F_greedy(n)`` counts as
  ``max(front.y[0], y of the heuristic's first point)``, which is never below
  ``F_exact(n)``. (For the default costs ``x0 = 0``: the single leaf has total path
  length 0 and every sweep contains it.)
* ``area_normalized``: ``area / ((X − x0) · (front.y[0] − front.y[-1]))``, the share of
  the box spanned by the front that separates the staircases (0 = greedy reaches the
  front everywhere); ``0.0`` when that box is empty and the area is 0, ``None`` when the
  box is empty but the area is not.
"""

from __future__ import annotations

import numpy as np

from .costs import COSTS, DEFAULT_X, DEFAULT_Y, MAX, Cost, check_pair
from .data.thresholds import NO, YES
from .errors import InputError
from .fronts import Front, pareto
from .trees import TreeNode, leaf_price

CRITERIA = ("error", "entropy", "gini", "gain-ratio")
SWEEPS = ("threshold", "depth")
#: Relative tolerance under which two float scores count as tied.
TIE_TOLERANCE = 1e-9


def _check_criterion(criterion: str) -> str:
    if criterion not in CRITERIA:
        raise InputError(
            f"unknown greedy criterion {criterion!r}; expected one of: {', '.join(CRITERIA)}"
        )
    return criterion


def _xlogx(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a, dtype=np.float64)
    out = np.zeros_like(a)
    pos = a > 0
    out[pos] = a[pos] * np.log(a[pos])
    return out


def _first_best(scores: np.ndarray, ok: np.ndarray, maximize: bool, exact: bool) -> int:
    """Index of the first candidate (``ok``) with the best score, ties within tolerance."""
    cand = np.flatnonzero(ok)
    s = scores[cand]
    if maximize:
        s = -s
    best = s.min()
    tol = 0.0 if exact else TIE_TOLERANCE * max(1.0, abs(float(best)))
    return int(cand[np.flatnonzero(s <= best + tol)[0]])


def choose_attribute(cont: np.ndarray, criterion: str) -> int | None:
    """The attribute a criterion picks from contingency tables ``cont[i, v, k]``
    (rows of the node with value ``v`` of attribute ``i`` and decision ``k``).

    None when every attribute is constant on the node.

    >>> cont = np.array([[[2, 0], [0, 2]], [[1, 1], [1, 1]]])
    >>> choose_attribute(cont, "entropy")
    0
    """
    cont = np.asarray(cont, dtype=np.int64)
    scores, ok = split_scores(cont, criterion, cont[0].sum(axis=0))
    if not ok.any():
        return None
    return _first_best(scores, ok, **_SENSE[criterion])


#: How each criterion's scores rank (maximised or not, compared exactly or not).
_SENSE = {
    "error": {"maximize": False, "exact": True},
    "entropy": {"maximize": False, "exact": False},
    "gini": {"maximize": False, "exact": False},
    "gain-ratio": {"maximize": True, "exact": False},
}


def split_scores(cont: np.ndarray, criterion: str, counts: np.ndarray):
    """The scores of candidate splits ``cont[i, v, k]`` (rows of the node in child ``v``
    of split ``i`` with decision ``k``) of a node whose class counts are ``counts``, and
    which splits make two children or more. See :data:`_SENSE` for how they rank."""
    _check_criterion(criterion)
    nv = cont.sum(axis=2)  # (m, V)
    ok = (nv > 0).sum(axis=1) >= 2
    if criterion == "error":
        return (nv - cont.max(axis=2, initial=0)).sum(axis=1), ok
    # n * weighted child entropy (natural log)
    wh = _xlogx(nv).sum(axis=1) - _xlogx(cont).sum(axis=(1, 2))
    if criterion == "entropy":
        return wh, ok
    if criterion == "gini":
        with np.errstate(divide="ignore", invalid="ignore"):
            sq = np.where(
                nv > 0, (cont.astype(np.float64) ** 2).sum(axis=2) / np.maximum(nv, 1), 0.0
            )
        n = nv.sum(axis=1).astype(np.float64)
        return n - sq.sum(axis=1), ok
    # gain ratio
    n = float(counts.sum())
    parent = float(_xlogx(np.array([n]))[0] - _xlogx(counts).sum())  # n * H(parent)
    gain = np.maximum(parent - wh, 0.0)
    split = float(_xlogx(np.array([n]))[0]) - _xlogx(nv).sum(axis=1)  # n * split info
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ok & (split > 0), gain / np.where(split > 0, split, 1.0), 0.0)
    return ratio, ok


class _Grown:
    """A greedy tree as flat preorder arrays (node 0 is the root).

    A nominal attribute splits a node into one child per value present; an ordered
    attribute (a numeric column kept whole, :mod:`dagger_cli.data.thresholds`) offers one
    binary split ``col <= t`` per threshold, its ``<=`` child first. The candidates are
    scored in column order, an ordered attribute's thresholds ascending in its place:
    the splits, order and ties of the same table's binary expansion
    (:meth:`~dagger_cli.data.table.DecisionTable.binarized`), without making it."""

    def __init__(self, table, criterion, threshold=0.0, max_depth=None, check=None):
        _check_criterion(criterion)
        self.table = table
        self.criterion = criterion
        codes = np.asarray(table.codes, dtype=np.int64)
        dec = np.asarray(table.decisions, dtype=np.int64)
        m = codes.shape[0]
        k = len(table.decision_values)
        ordered = [table.ordered.get(a) for a in table.attributes]
        nominal = np.array([o is None for o in ordered], dtype=bool)
        nom = np.flatnonzero(nominal)
        vmax = max((len(table.values[i]) for i in nom), default=1) or 1
        # key of (nominal attribute i, value v, decision d) in one bincount
        base = (np.arange(nom.size, dtype=np.int64) * vmax)[:, None]
        self.n, self.mis, self.depth, self.major, self.attr = [], [], [], [], []
        self.counts, self.kids, self.parent = [], [], []
        self.cut: list[int] = []  # an ordered split's code j (col <= t_j); -1: nominal
        weighting = getattr(table, "weighting", None)
        # Row weights (:mod:`dagger_cli.weights`): every count below is the rows' weight
        # (exact in float64 below 2^53; the weights total below 2^31).
        wts = None if weighting is None else weighting.rows.astype(np.float64)
        # A minimum leaf size: a split is a candidate only when every child keeps that many
        # rows (as scikit-learn's min_samples_leaf), so every swept tree respects it.
        least = 1 if weighting is None else weighting.min_leaf

        def count(keys, idx, size, times=1):
            if wts is None:
                return np.bincount(keys, minlength=size)
            w = wts[idx] if times == 1 else np.tile(wts[idx], times)
            return np.rint(np.bincount(keys, weights=w, minlength=size)).astype(np.int64)

        #: the threshold tests of the tree's ordered splits: name -> Threshold
        self.splits: dict = {}

        def candidates(idx, cnt):
            """Every split's (attribute, code) and score at the node of rows ``idx``, in
            column order; None when nothing splits it."""
            scores, oks, where = [], [], []
            if nom.size:
                sub = codes[nom][:, idx]
                keys = ((base + sub) * k + dec[idx][None, :]).ravel()
                cont = count(keys, idx, nom.size * vmax * k, nom.size)
                sc, ok = split_scores(cont.reshape(nom.size, vmax, k), criterion, cnt)
                if least > 1:
                    sizes = np.bincount((base + sub).ravel(), minlength=nom.size * vmax)
                    sizes = sizes.reshape(nom.size, vmax)
                    ok = ok & ((sizes == 0) | (sizes >= least)).all(axis=1)
                for j, i in enumerate(nom.tolist()):
                    where.append((i, -1, sc[j : j + 1], ok[j : j + 1]))
            for i, o in enumerate(ordered):
                if o is None:
                    continue
                kk = len(o.thresholds)
                c = count(codes[i, idx] * k + dec[idx], idx, (kk + 1) * k)
                left = np.cumsum(c.reshape(kk + 1, k), axis=0)[:-1]  # codes <= j
                cont = np.stack([left, cnt[None, :] - left], axis=1)
                sc, ok = split_scores(cont, criterion, cnt)
                if least > 1:
                    below = np.cumsum(np.bincount(codes[i, idx], minlength=kk + 1))[:-1]
                    ok = ok & (below >= least) & (idx.size - below >= least)
                where.append((i, 0, sc, ok))
            where.sort(key=lambda w: w[0])
            for _, _, sc, ok in where:
                scores.append(sc)
                oks.append(ok)
            if not where:
                return None
            allok = np.concatenate(oks)
            if not allok.any():
                return None
            best = _first_best(np.concatenate(scores), allok, **_SENSE[criterion])
            for i, kind, sc, _ in where:
                if best < sc.size:
                    return i, (best if kind == 0 else -1)
                best -= sc.size
            raise AssertionError("no candidate at the best index (a bug)")

        def grow(idx, depth, parent):
            if check is not None:
                check()
            v = len(self.n)
            cnt = count(dec[idx], idx, k)
            n = int(cnt.sum())
            if weighting is None:
                major = int(np.argmax(cnt))
                mis = n - int(cnt[major])
            else:
                major, mis = weighting.leaf(cnt)
            self.n.append(n)
            self.mis.append(mis)
            self.depth.append(depth)
            self.major.append(major)
            self.counts.append(tuple(int(c) for c in cnt))
            self.parent.append(parent)
            self.attr.append(-1)
            self.cut.append(-1)
            self.kids.append(())
            if (
                mis == 0
                or m == 0
                or mis / n <= threshold
                or (max_depth is not None and depth >= max_depth)
            ):
                return v
            pick = candidates(idx, cnt)
            if pick is None:
                return v
            a, cut = pick
            col = codes[a, idx]
            kids = []
            if cut >= 0:
                below = col <= cut
                test = ordered[a].split(cut)
                self.splits[test.name] = test
                for value, part in ((YES, idx[below]), (NO, idx[~below])):
                    kids.append((value, grow(part, depth + 1, v)))
            else:
                order = np.argsort(col, kind="stable")
                cuts = np.flatnonzero(np.diff(col[order])) + 1
                for part in np.split(order, cuts):
                    code = int(col[part[0]])
                    kids.append((table.values[a][code], grow(idx[part], depth + 1, v)))
            self.attr[v] = a
            self.cut[v] = cut
            self.kids[v] = tuple(kids)
            return v

        grow(np.arange(table.n_rows, dtype=np.int64), 0, -1)
        self.n = np.array(self.n, dtype=np.int64)
        self.mis = np.array(self.mis, dtype=np.int64)
        self.depth = np.array(self.depth, dtype=np.int64)
        self.internal = np.array(self.attr) >= 0
        self.ratio = self.mis / np.maximum(self.n, 1)
        # least mis/n over the strict ancestors (inf at the root) and over the path
        above = np.full(self.n.size, np.inf)
        for v in range(1, self.n.size):  # preorder: the parent comes first
            p = self.parent[v]
            above[v] = min(above[p], self.ratio[p])
        self.above = above
        self.path_min = np.minimum(above, self.ratio)
        self._terms_cache = {}  # cost name -> _path_terms(cost)
        # Per node its leaf's false positives and negatives against the table's positive
        # class, its decision the node's (None: the table has no positive class).
        self.fp = self.fn = None
        pos = None if weighting is None else weighting.positive
        if pos is not None:
            per = np.array(self.counts, dtype=np.int64).reshape(self.n.size, k)
            on = np.array(self.major) == pos
            self.fp = np.where(on, self.n - per[:, pos], 0)
            self.fn = np.where(on, 0, per[:, pos])

    # ------------------------------------------------------------------ trees
    def tree(self, leaf=lambda v: False) -> TreeNode:
        """The tree with the nodes for which ``leaf(v)`` holds cut to leaves."""
        t = self.table

        def build(v):
            decision = t.decision_values[self.major[v]]
            price = leaf_price(t, self.counts[v])
            if self.attr[v] < 0 or leaf(v):
                return TreeNode(self.counts[v], decision, price=price)
            a = self.attr[v]
            name = t.attributes[a]
            if self.cut[v] >= 0:
                name = t.ordered[name].split(self.cut[v]).name
            kids = tuple((val, build(u)) for val, u in self.kids[v])
            return TreeNode(self.counts[v], decision, name, kids, price)

        return build(0)

    def thresholds(self) -> list[float]:
        vals = {0.0}
        vals.update(float(x) for x in self.path_min[self.internal])
        return sorted(vals)

    # ------------------------------------------------------------------ costs
    def _path_terms(self, cost: Cost) -> np.ndarray:
        """Per node, the sum of ``cost``'s split terms over its strict ancestors.

        A MAX cost unfolds to ``max over leaves (leaf term + split terms on the path)``, as
        max distributes over the sums, so it needs no bottom-up pass per pruning.
        """
        key = cost.name
        if key not in self._terms_cache:
            term = cost.split_const + cost.split_rows * self.n
            above = np.zeros(self.n.size, dtype=np.int64)
            for v in range(1, self.n.size):  # preorder: the parent comes first
                p = self.parent[v]
                above[v] = above[p] + term[p]
            self._terms_cache[key] = above
        return self._terms_cache[key]

    def _costs(self, present, leaf) -> dict:
        """Every cost of :data:`dagger_cli.costs.COSTS` (by column) of the pruning whose
        nodes are ``present`` and whose leaves are ``leaf`` (boolean masks)."""
        split = present & ~leaf
        out = {}
        for cost in COSTS.values():
            leaf_terms = cost.leaf_const + cost.leaf_mis * self.mis[leaf]
            if cost.reads_decision:  # its leaves' decisions against the positive class
                if self.fp is None:
                    continue
                leaf_terms = (
                    leaf_terms + cost.leaf_fp * self.fp[leaf] + cost.leaf_fn * self.fn[leaf]
                )
            if cost.combine == MAX:
                value = (leaf_terms + self._path_terms(cost)[leaf]).max()
            else:
                split_terms = cost.split_const + cost.split_rows * self.n[split]
                value = leaf_terms.sum() + split_terms.sum()
            out[cost.column] = int(value)
        return out

    def threshold_costs(self, theta: float) -> dict:
        present = self.above > theta
        leaf = present & (~self.internal | (self.ratio <= theta))
        return self._costs(present, leaf)

    def depth_costs(self, cap: int) -> dict:
        present = self.depth <= cap
        leaf = present & (~self.internal | (self.depth == cap))
        return self._costs(present, leaf)


def greedy_tree(
    table, criterion: str, threshold: float = 0.0, max_depth: int | None = None
) -> TreeNode:
    """The greedy tree of ``criterion`` for ``table``.

    A node is a leaf when its subtable has one decision, no non-constant attribute,
    ``mis/n <= threshold`` or depth ``max_depth``; else it splits on the attribute the
    criterion picks (see the module docstring).
    """
    if max_depth is not None and max_depth < 0:
        raise InputError(f"max_depth must be >= 0, got {max_depth}")
    return _Grown(table, criterion, threshold, max_depth).tree()


def greedy_sweep(table, criterion: str) -> list[tuple[float, TreeNode]]:
    """(θ, tree) for every distinct pruning of the full greedy tree by the threshold
    rule, θ ascending (θ = 0: the full tree; the last: the single leaf)."""
    g = _Grown(table, criterion)
    return [(th, g.tree(lambda v, th=th: g.ratio[v] <= th)) for th in g.thresholds()]


def greedy_depth_sweep(table, criterion: str) -> list[tuple[int, TreeNode]]:
    """(d, the full greedy tree cut at depth d) for d = 0 .. depth of the full tree."""
    g = _Grown(table, criterion)
    top = int(g.depth.max())
    return [(d, g.tree(lambda v, d=d: g.depth[v] >= d)) for d in range(top + 1)]


def sweep_costs(table, criterion: str, sweep: str = "threshold") -> list[tuple[float, dict]]:
    """(θ or d, costs as :func:`dagger_cli.trees.tree_costs` without the average depth)
    for the trees of a sweep, computed from the full tree without building them."""
    g = _Grown(table, criterion)
    if sweep == "threshold":
        return [(th, g.threshold_costs(th)) for th in g.thresholds()]
    if sweep == "depth":
        return [(d, g.depth_costs(d)) for d in range(int(g.depth.max()) + 1)]
    raise InputError(f"unknown sweep {sweep!r}; expected one of: {', '.join(SWEEPS)}")


def heuristic_name(criterion: str, sweep: str) -> str:
    return criterion if sweep == "threshold" else f"{criterion}/{sweep}"


def greedy_points(
    table,
    x: str = DEFAULT_X,
    y: str = DEFAULT_Y,
    *,
    criteria=CRITERIA,
    sweeps=SWEEPS,
    max_depth: int | None = None,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per heuristic (``"entropy"``: threshold sweep, ``"entropy/depth"``: depth cap), the
    Pareto-optimal (x, y) costs of its swept trees, x ascending (int64 arrays).

    With ``max_depth`` D the greedy trees are grown to depth D at most (so every swept
    tree has depth <= D, comparable with the capped exact front)."""
    if max_depth is not None and max_depth < 0:
        raise InputError(f"max_depth must be >= 0, got {max_depth}")
    cx, cy = check_pair(x, y)
    for s in sweeps:
        if s not in SWEEPS:
            raise InputError(f"unknown sweep {s!r}; expected one of: {', '.join(SWEEPS)}")
    out = {}
    for crit in criteria:
        g = _Grown(table, _check_criterion(crit), max_depth=max_depth)
        for s in sweeps:
            if s == "threshold":
                costs = [g.threshold_costs(th) for th in g.thresholds()]
            else:
                costs = [g.depth_costs(d) for d in range(int(g.depth.max()) + 1)]
            px = np.array([c[cx.column] for c in costs], dtype=np.int64)
            py = np.array([c[cy.column] for c in costs], dtype=np.int64)
            keep = pareto(px, py)
            out[heuristic_name(crit, s)] = (px[keep], py[keep])
    return out


def greedy_trees(table, max_depth: int | None = None, check=None):
    """Every tree of every heuristic's sweeps (:func:`greedy_points`' trees), yielded as
    ``(costs, tree)``: costs by column (:func:`dagger_cli.trees.tree_costs`' without the
    average depth), ``tree()`` building that tree's root node. With ``max_depth`` D the
    greedy trees are grown to depth D at most. ``check()`` is called at every node grown
    (a time limit's check: it may raise, and what was yielded stays)."""
    for crit in CRITERIA:
        g = _Grown(table, crit, max_depth=max_depth, check=check)
        for th in g.thresholds():
            yield g.threshold_costs(th), lambda g=g, th=th: g.tree(lambda v: g.ratio[v] <= th)
        for d in range(int(g.depth.max()) + 1):
            yield g.depth_costs(d), lambda g=g, d=d: g.tree(lambda v: g.depth[v] >= d)


def _staircase(xs: np.ndarray, ys: np.ndarray, n: np.ndarray, before) -> np.ndarray:
    """F(n) = least y with x <= n for Pareto points (x ascending, y descending)."""
    k = np.searchsorted(xs, n, side="right") - 1
    return np.where(k >= 0, ys[np.maximum(k, 0)], before)


def compare(front: Front, points: dict) -> dict[str, dict]:
    """Distance of each heuristic's points to the exact front (see the module docstring).

    >>> f = Front(COSTS["total-path-length"], COSTS["misclassifications"], [0, 4], [2, 0], 4)
    >>> r = compare(f, {"g": (np.array([0, 6]), np.array([2, 0]))})["g"]
    >>> r["extra_x_at_min_y"], r["area"], r["on_front"]
    (2, 4, 1)
    """
    fx = np.asarray(front.x, dtype=np.int64)
    fy = np.asarray(front.y, dtype=np.int64)
    if fx.size == 0:
        raise InputError("the exact front is empty")
    y_min = int(fy[-1])
    g_min = int(fx[-1])  # G(y_min): y strictly descends, so the last point has the least y
    front_set = set(zip(fx.tolist(), fy.tolist()))
    out = {}
    for name, (gx, gy) in points.items():
        gx = np.asarray(gx, dtype=np.int64)
        gy = np.asarray(gy, dtype=np.int64)
        keep = pareto(gx, gy)
        gx, gy = gx[keep], gy[keep]
        at = gx[gy <= y_min]
        extra = None if at.size == 0 else int(at.min()) - int(g_min)
        x0 = int(fx[0])
        top = int(max(fx.max(), gx.max() if gx.size else fx.max()))
        # breakpoints of both staircases inside [x0, top)
        bps = np.unique(np.concatenate(([x0], fx, gx)))
        bps = bps[(bps >= x0) & (bps < top)]
        if bps.size:
            widths = np.diff(np.append(bps, top))
            before = max(int(fy[0]), int(gy[0])) if gy.size else int(fy[0])
            fg = _staircase(gx, gy, bps, before)
            fe = _staircase(fx, fy, bps, int(fy[0]))
            area = int(((fg - fe) * widths).sum())
        else:
            area = 0
        box = (top - x0) * (int(fy[0]) - y_min)
        norm = area / box if box > 0 else (0.0 if area == 0 else None)
        on = sum((a, b) in front_set for a, b in zip(gx.tolist(), gy.tolist()))
        out[name] = {
            "points": int(gx.size),
            "on_front": int(on),
            "extra_x_at_min_y": extra,
            "area": area,
            "area_normalized": norm,
        }
    return out


def comparison_text(front: Front, points: dict) -> str:
    """A plain-text table of :func:`compare` for the CLI."""
    res = compare(front, points)
    y_min = int(front.y[-1])
    xn, yn = front.x_cost.name, front.y_cost.name
    lines = [
        f"x = {xn}, y = {yn}; exact front: {len(front)} point(s), least y = {y_min} "
        f"needs x >= {front.least_x(y_min)}",
    ]
    head = ("heuristic", "points", "on front", "extra x at min y", "area", "area/box")
    rows = []
    for name, r in res.items():
        extra = "never" if r["extra_x_at_min_y"] is None else str(r["extra_x_at_min_y"])
        norm = "-" if r["area_normalized"] is None else f"{r['area_normalized']:.4f}"
        rows.append((name, str(r["points"]), str(r["on_front"]), extra, str(r["area"]), norm))
    widths = [
        max(len(h), *(len(r[j]) for r in rows)) if rows else len(h) for j, h in enumerate(head)
    ]

    def fmt(cells):
        return "  ".join(
            c.ljust(w) if j == 0 else c.rjust(w) for j, (c, w) in enumerate(zip(cells, widths))
        ).rstrip()

    lines.append(fmt(head))
    lines.append("  ".join("-" * w for w in widths))
    lines.extend(fmt(r) for r in rows)
    lines.append(
        "extra x at min y: least x of a greedy tree with the front's least y, minus the "
        "exact least x (never: no greedy tree gets there)"
    )
    lines.append(
        "area: sum over x of (greedy staircase - exact staircase); area/box: area / "
        "(x span * y span of the front)"
    )
    return "\n".join(lines) + "\n"


__all__ = [
    "CRITERIA",
    "SWEEPS",
    "choose_attribute",
    "greedy_tree",
    "greedy_sweep",
    "greedy_depth_sweep",
    "sweep_costs",
    "greedy_points",
    "compare",
    "comparison_text",
    "heuristic_name",
]
