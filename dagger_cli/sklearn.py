"""A scikit-learn estimator: the exact tree of one point of the front, fit/predict.

>>> from sklearn.datasets import load_iris
>>> X, y = load_iris(return_X_y=True)
>>> clf = DaggerTreeClassifier(max_depth=2, thresholds=4).fit(X, y)   # doctest: +SKIP
>>> print(clf.tree_.to_text())                                          # doctest: +SKIP

This is the only module that imports scikit-learn (``pip install dagger-cli[sklearn]``).

How a fit works: the columns of ``X`` become a :class:`~dagger_cli.data.table.DecisionTable` with
every row kept (equal rows are not merged, so misclassifications count training rows): a
numeric column becomes one ordered attribute split by thresholds ``col <= t``
(:mod:`dagger_cli.data.thresholds`), a categorical column (pandas
``category``/``object``/``string``/``bool``, or values that are not all numbers) stays a
multiway nominal split on its values. The engine computes the exact front of ``x`` (default
total path length) against misclassifications over every tree of depth at most
``max_depth`` (by the ordered solver, :mod:`dagger_cli.engine.ordered`, which sweeps the
thresholds of each column; with ``max_depth=None`` by the DAG engine on the columns' binary
expansion), and the estimator keeps the tree of one point: by default the least
misclassifications (ties: the least ``x``); or G(K), F(N), or the least
``misclassifications + alpha * x``.

Missing values (NaN, None) are filled as ``dagger relate --missing mode`` fills them: a
numeric column's with its median over the training rows (the lower middle of its present
numbers), a categorical column's with its most common training value (the smallest on a
tie); ``fill_values_`` keeps them, and ``predict`` fills a missing value with the same
value, so a row with one goes down the same branch as a training row with it.

Prediction routes each row down the tree on its raw values. A row whose value at a split is
one the training rows of that node never had (an unseen category, or any value of a nominal
numeric column that was not there) stops at that node and gets its most common training class
(the smallest class on a tie); ``predict_proba`` gives that node's class frequencies.

The tree API of scikit-learn's trees: :meth:`~DaggerTreeClassifier.apply` (the node where each
row stops), :meth:`~DaggerTreeClassifier.decision_path` (the nodes on its way, a sparse CSR
indicator), :meth:`~DaggerTreeClassifier.get_depth`, :meth:`~DaggerTreeClassifier.get_n_leaves`,
:attr:`~DaggerTreeClassifier.feature_importances_` and
:meth:`~DaggerTreeClassifier.to_sklearn`, a fitted scikit-learn ``DecisionTreeClassifier`` with
the same tree (for ``sklearn.tree.plot_tree``, ``export_text``, ``export_graphviz``). Nodes are
numbered in preorder, a split's children in print order (a threshold's ``<=`` branch first,
nominal values in value order): for a tree of threshold splits, the numbering of the exported
tree.
"""

from __future__ import annotations

import numbers
import re

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .costs import COSTS
from .data.table import DecisionTable, PreprocessReport, value_order
from .data.thresholds import (
    NO,
    YES,
    Ordered,
    between,
    candidate_thresholds,
    format_threshold,
)
from .errors import LimitError

#: The costs ``x`` can be (misclassifications is always the other one).
X_COSTS = tuple(c for c in COSTS if c != "misclassifications")


class DaggerTreeClassifier(ClassifierMixin, BaseEstimator):
    """An exactly optimal decision tree of bounded depth, chosen on the Pareto front.

    Parameters
    ----------
    max_depth : int or None, default=3
        Only trees of at most this depth. None: any depth (only small tables fit).
    x : {"total-path-length", "depth", "nodes", "leaves"}, default="total-path-length"
        The cost traded against misclassifications (total path length: the sum over training
        rows of the depth of their leaf).
    thresholds : "all", int or None, default=16
        Numeric columns as binary splits ``col <= t``: every midpoint between consecutive
        distinct values ("all"), or at most K per column at quantiles (K). None: every distinct
        number is a nominal value (multiway splits).
    max_misclassifications : int or None, default=None
        Take G(K)'s tree: the least ``x`` among trees with at most K training errors.
    max_x : int or None, default=None
        Take F(N)'s tree: the fewest training errors among trees with ``x`` at most N.
    alpha : float or None, default=None
        Take the point minimising ``misclassifications + alpha * x`` (ties: the least ``x``),
        a complexity penalty to tune with ``GridSearchCV`` like ``ccp_alpha``.
    max_subtables : int, default=2_000_000
        Stop with :class:`dagger_cli.errors.LimitError` if the engine's DAG gets larger.
    time_limit : float, str or None, default=None
        Seconds (or ``"90s"``, ``"5m"``): keep the tree chosen on the best front found in
        that time (:mod:`dagger_cli.engine.anytime`); ``optimal_`` says whether it is proven
        optimal, ``gap_`` how far from the proven bound it may be. None: the exact front.

    At most one of ``max_misclassifications``, ``max_x`` and ``alpha`` may be given; without
    them the tree has the least training errors (ties: the least ``x``).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when ``X`` has string column names (a DataFrame).
    front_ : dagger_cli.fronts.Front
        The part of the Pareto front the tree was chosen from (``front_.points()``: (x,
        errors) pairs), as much as the choice needs, which the engine computes faster: the
        whole front with ``alpha``; its points with at most ``max_misclassifications``
        errors, or with ``x`` at most ``max_x``; by default its last point alone (the least
        errors, then the least ``x``).
    front_index_ : int
        The chosen point's index in ``front_``.
    optimal_ : bool
        Whether the chosen tree is proven optimal (always, without ``time_limit``).
    gap_ : int
        Its misclassifications less the proven bound's at its ``x`` (0 when proven).
    tree_ : dagger_cli.trees.Tree
        The chosen tree: ``tree_.to_text()``, ``tree_.to_dot()``, ``tree_.to_json()``.
    table_ : dagger_cli.data.table.DecisionTable
        The training table the engine saw (numeric columns in ``table_.ordered``).
    solver_ : str
        The solver that computed the front, by its engine name
        (:data:`dagger_cli.engine.registry.SOLVERS`): under a depth cap with a numeric
        column, the one that keeps numeric columns whole and sweeps their thresholds; else
        the DAG engine (on the binary expansion of the numeric columns). Both give the
        exact front; the tests check that they agree.
    """

    _parameter_constraints: dict = {
        "max_depth": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "x": [StrOptions(set(X_COSTS))],
        "thresholds": [
            StrOptions({"all"}),
            Interval(numbers.Integral, 1, None, closed="left"),
            None,
        ],
        "max_misclassifications": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "max_x": [Interval(numbers.Integral, 0, None, closed="left"), None],
        "alpha": [Interval(numbers.Real, 0, None, closed="left"), None],
        "max_subtables": [Interval(numbers.Integral, 1, None, closed="left")],
        "time_limit": [Interval(numbers.Real, 0, None, closed="left"), str, None],
    }

    def __init__(
        self,
        *,
        max_depth=3,
        x="total-path-length",
        thresholds=16,
        max_misclassifications=None,
        max_x=None,
        alpha=None,
        max_subtables=2_000_000,
        time_limit=None,
    ):
        self.max_depth = max_depth
        self.x = x
        self.thresholds = thresholds
        self.max_misclassifications = max_misclassifications
        self.max_x = max_x
        self.alpha = alpha
        self.max_subtables = max_subtables
        self.time_limit = time_limit

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True  # filled as fill_values_ says
        return tags

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Compute the exact front on (X, y) and keep the tree of the chosen point.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric and categorical columns (see the module docstring).
        y : array-like of shape (n_samples,)

        Returns
        -------
        self
        """
        from dataclasses import replace

        from .engine.api import solve

        chosen = [
            name
            for name in ("max_misclassifications", "max_x", "alpha")
            if getattr(self, name) is not None
        ]
        if len(chosen) > 1:
            raise ValueError(
                f"give at most one of max_misclassifications, max_x and alpha, got {chosen}"
            )
        kinds = _column_kinds(X)
        X, y = validate_data(self, X, y, dtype=None, ensure_all_finite="allow-nan")
        check_classification_targets(y)
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        self._kinds = kinds if kinds is not None else _guess_kinds(X)
        self.fill_values_ = [self._fill_value(X[:, j], j) for j in range(X.shape[1])]
        self.table_ = self._table(X, y_codes)
        query = self._query()
        try:
            rel = solve(self.table_, query)
            if not len(rel.front):  # nothing within the bound: the message needs the least
                rel = solve(self.table_, replace(query, max_x=None, max_y=None))
        except LimitError as err:
            depth = "any depth" if self.max_depth is None else f"depth <= {self.max_depth}"
            raise LimitError(
                f"{_estimator_terms(str(err))} The table is too big for an exact front over "
                f"trees of {depth}: give a smaller max_depth (e.g. 2 or 3) or fewer "
                "thresholds (e.g. 8)."
            ) from None
        self.solver_ = rel.engine
        self.front_ = rel.front
        self.front_index_ = self._choose(rel.front)
        self.optimal_, self.gap_ = _certainty(
            rel, self.front_index_, self.max_misclassifications, self.max_x, self.alpha
        )
        from .trees import extract_tree

        self.tree_ = extract_tree(rel, self.front_index_)
        return self

    def _query(self):
        """The query of the parameters (a :class:`~dagger_cli.engine.query.Query`): only
        the part of the front the choice reads (the engine computes less for it)."""
        from .engine.query import Query

        return Query(
            self.x,
            "misclassifications",
            max_depth=self.max_depth,
            max_subtables=self.max_subtables,
            max_y=self.max_misclassifications,
            max_x=self.max_x if self.max_misclassifications is None else None,
            least_y=self.alpha is None
            and self.max_x is None
            and self.max_misclassifications is None,
            time_limit=self.time_limit,
        )

    def _choose(self, front) -> int:
        """The index of the front point the parameters ask for."""
        if self.max_misclassifications is not None:
            k = front.point_for_y(self.max_misclassifications)
            if k is None:
                raise ValueError(
                    f"no tree has at most {self.max_misclassifications} misclassification(s); "
                    f"the least is {int(front.y[-1])}"
                )
            return k
        if self.max_x is not None:
            k = front.point_for_x(self.max_x)
            if k is None:
                raise ValueError(f"no tree has {self.x} <= {self.max_x}; the least is {front.x[0]}")
            return k
        if self.alpha is not None:
            # argmin takes the first minimum: x ascending, so the least x on a tie.
            return int(np.argmin(front.y + self.alpha * front.x))
        return len(front) - 1

    def _names(self) -> list[str]:
        names = getattr(self, "feature_names_in_", None)
        if names is not None:
            return [str(n) for n in names]
        return [f"x{j}" for j in range(self.n_features_in_)]

    def _fill_value(self, column, j):
        """What fills column ``j``'s missing values: its median (numeric) or its most
        common value (categorical), over the training rows."""
        if self._kinds[j] == "numeric":
            xs = np.asarray(column, dtype=np.float64)
            xs = np.sort(xs[~np.isnan(xs)])
            if xs.size == 0:
                raise ValueError(f"column {self._names()[j]!r} has no value, only NaN")
            return float(xs[(xs.size - 1) // 2])
        present = [str(v) for v in column if not _missing(v)]
        if not present:
            raise ValueError(f"column {self._names()[j]!r} has no value, only missing ones")
        values, counts = np.unique(np.array(present, dtype=object), return_counts=True)
        best = [str(v) for v, c in zip(values, counts) if c == counts.max()]
        return value_order(best)[0]

    def _numbers_of(self, column, j) -> np.ndarray:
        """Column ``j``'s numbers, missing ones filled (:attr:`fill_values_`)."""
        xs = np.array(column, dtype=np.float64)
        xs[np.isnan(xs)] = self.fill_values_[j]
        return xs

    def _table(self, X, y_codes) -> DecisionTable:
        """The training table, built straight from the arrays (no strings for numbers)."""
        self._float32_cuts: dict[str, tuple] = {}
        n = X.shape[0]
        attributes: list[str] = []
        values: list[tuple] = []
        codes: list[np.ndarray] = []
        ordered: dict[str, Ordered] = {}
        for j, name in enumerate(self._names()):
            if self._kinds[j] == "numeric" and self.thresholds is not None:
                xs = self._numbers_of(X[:, j], j)
                ts = candidate_thresholds(xs, self.thresholds)
                if ts:
                    attr = Ordered(name, tuple(ts))
                    ordered[name] = attr
                    self._float32_cuts[name] = _float32_cuts(xs, ts)
                    attributes.append(name)
                    values.append(attr.labels())
                    codes.append(attr.codes_of(xs).astype(np.int32))
                continue  # a constant column splits nothing
            keys = self._keys(X[:, j], j)
            order = value_order(keys)
            rank = {v: k for k, v in enumerate(order)}
            attributes.append(name)
            values.append(tuple(order))
            codes.append(np.fromiter((rank[k] for k in keys), dtype=np.int32, count=n))
        if len(set(attributes)) != len(attributes):
            dup = sorted({a for a in attributes if attributes.count(a) > 1})
            raise ValueError(f"attribute name(s) {dup} occur twice; rename the column(s)")
        return DecisionTable(
            name="X",
            attributes=tuple(attributes),
            decision_name="y",
            values=tuple(values),
            codes=np.array(codes, dtype=np.int32).reshape(len(codes), n),
            decision_values=tuple(str(c) for c in self.classes_),
            decisions=np.asarray(y_codes, dtype=np.int32).reshape(n),
            report=PreprocessReport(rows_read=n, rows_after=n),
            ordered=ordered,
        )

    def _keys(self, column, j) -> list[str]:
        """A nominal column's values as the strings the tree stores."""
        if self._kinds[j] == "numeric":
            return [format_threshold(v) for v in self._numbers_of(column, j)]
        fill = self.fill_values_[j]
        return [fill if _missing(v) else str(v) for v in column]

    # ------------------------------------------------------------------ predict
    def _leaves(self, X) -> list:
        """The node where each row stops (a leaf, or a split that never saw its value)."""
        check_is_fitted(self)
        X = validate_data(self, X, dtype=None, reset=False, ensure_all_finite="allow-nan")
        tree = self.tree_
        index = {name: j for j, name in enumerate(self._names())}
        numeric: dict[int, np.ndarray] = {}
        nominal: dict[int, np.ndarray] = {}
        out: list = [None] * X.shape[0]
        stack = [(tree.root, np.arange(X.shape[0]))]
        while stack:
            node, rows = stack.pop()
            if node.is_leaf or rows.size == 0:
                for i in rows:
                    out[i] = node
                continue
            split = tree.splits.get(node.attribute)
            children = dict(node.children)
            if split is not None:
                j = index[split.column]
                if j not in numeric:
                    numeric[j] = self._numbers_of(X[:, j], j)
                below = numeric[j][rows] <= split.threshold
                stack.append((children[YES], rows[below]))
                stack.append((children[NO], rows[~below]))
                continue
            j = index[node.attribute]
            if j not in nominal:
                nominal[j] = np.array(self._keys(X[:, j], j), dtype=object)
            keys = nominal[j][rows]
            seen = np.zeros(rows.size, dtype=bool)
            for value, child in node.children:
                hit = keys == value
                seen |= hit
                stack.append((child, rows[hit]))
            for i in rows[~seen]:
                out[i] = node
        return out

    def predict_proba(self, X):
        """Class frequencies of the training rows in the node each row reaches.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        nodes = self._leaves(X)
        proba = np.array([node.counts for node in nodes], dtype=np.float64)
        proba = proba.reshape(len(nodes), len(self.classes_))
        return proba / proba.sum(axis=1, keepdims=True)

    def predict(self, X):
        """The most common training class of the node each row reaches (smallest on a tie).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        nodes = self._leaves(X)
        counts = np.array([node.counts for node in nodes], dtype=np.int64)
        return self.classes_[np.argmax(counts.reshape(len(nodes), -1), axis=1)]

    # ------------------------------------------------------------------ the tree API
    def _preorder(self) -> tuple[list, np.ndarray, np.ndarray]:
        """The tree's nodes in preorder (a split's children in print order), each node's
        parent (-1: the root) and depth."""
        nodes: list = []
        parents: list[int] = []
        depths: list[int] = []
        stack = [(self.tree_.root, -1, 0)]
        while stack:
            node, parent, depth = stack.pop()
            k = len(nodes)
            nodes.append(node)
            parents.append(parent)
            depths.append(depth)
            if not node.is_leaf:
                kids = [child for _, child in self.tree_.branches(node)]
                stack.extend((child, k, depth + 1) for child in reversed(kids))
        return nodes, np.array(parents, dtype=np.intp), np.array(depths, dtype=np.intp)

    def apply(self, X):
        """The node where each row stops: a leaf, or a split whose training rows never had
        the row's value there (see the module docstring), by its preorder number.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            Node numbers in preorder, a split's children in print order: for a tree of
            threshold splits, the exported tree's (:meth:`to_sklearn`) ``apply``.
        """
        stops = self._leaves(X)
        number = {id(node): k for k, node in enumerate(self._preorder()[0])}
        return np.array([number[id(node)] for node in stops], dtype=np.intp)

    def decision_path(self, X):
        """The nodes each row goes through, from the root to the node :meth:`apply` gives.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        scipy.sparse.csr_matrix of shape (n_samples, n_nodes)
            Row i's entry at node k is 1 when row i passes through node k (numbered as
            :meth:`apply` numbers them), as scikit-learn's ``decision_path``.
        """
        from scipy.sparse import csr_matrix

        stops = self.apply(X)
        nodes, parents, _ = self._preorder()
        paths = []
        for k in range(len(nodes)):
            path = [k]
            while parents[path[-1]] >= 0:
                path.append(int(parents[path[-1]]))
            paths.append(np.array(path[::-1], dtype=np.intp))
        lengths = np.array([paths[k].size for k in stops], dtype=np.intp)
        indptr = np.concatenate(([0], np.cumsum(lengths))).astype(np.intp)
        indices = np.concatenate([paths[k] for k in stops] or [np.zeros(0, dtype=np.intp)])
        data = np.ones(indices.size, dtype=np.intp)
        return csr_matrix((data, indices, indptr), shape=(len(stops), len(nodes)))

    def get_depth(self) -> int:
        """The tree's depth: the most splits on a path from the root to a leaf."""
        check_is_fitted(self)
        return int(self._preorder()[2].max())

    def get_n_leaves(self) -> int:
        """The tree's number of leaves."""
        check_is_fitted(self)
        return sum(node.is_leaf for node in self._preorder()[0])

    @property
    def feature_importances_(self) -> np.ndarray:
        """Each feature's share of the training rows the tree's splits separate.

        A split credits the feature it tests with the training rows that reach it (they
        are separated among its children), so a feature's importance is its share of the
        tree's total path length (the sum over training rows of their leaf's depth), not
        scikit-learn's impurity decrease. Sums to 1; all zeros for a tree with no split.
        """
        check_is_fitted(self)
        column = {name: j for j, name in enumerate(self._names())}
        rows = np.zeros(self.n_features_in_, dtype=np.int64)
        for node in self._preorder()[0]:
            if not node.is_leaf:
                rows[column[self.tree_.node_label(node)]] += node.rows
        total = int(rows.sum())
        return rows / total if total else rows.astype(np.float64)

    def to_sklearn(self):
        """The tree as a fitted scikit-learn ``DecisionTreeClassifier``.

        For ``sklearn.tree.plot_tree``, ``export_text``, ``export_graphviz`` and any tool
        that reads ``tree_``. A threshold split ``col <= t`` is one node of the exported tree
        (its ``<=`` branch the left child), with ``t`` moved, if need be, to where it
        separates the same training values once scikit-learn reads them as float32
        numbers. A multiway split on a numeric column's values (``thresholds=None``)
        becomes a chain of threshold splits between consecutive values, the first value's
        branch the left child of the first; the tree gets deeper, and a value the split
        never had goes to the interval it falls in, where this estimator stops at the
        split. Missing values go the way their fill value (:attr:`fill_values_`) goes.
        Predictions (and ``predict_proba``) on the training rows are this estimator's.

        Returns
        -------
        sklearn.tree.DecisionTreeClassifier

        Raises
        ------
        ValueError
            The tree splits a categorical column (scikit-learn's trees take numbers only:
            encode it as numbers, e.g. one column per category, and fit again), or two
            training values on either side of a threshold are one float32 number.
        """
        from sklearn.tree import DecisionTreeClassifier
        from sklearn.tree._tree import NODE_DTYPE
        from sklearn.tree._tree import Tree as SklearnTree

        check_is_fitted(self)
        nodes, depth = self._binary_nodes()
        n_classes = len(self.classes_)
        array = np.zeros(len(nodes), dtype=NODE_DTYPE)
        values = np.zeros((len(nodes), 1, n_classes), dtype=np.float64)
        for k, (counts, feature, threshold, missing_left, left, right) in enumerate(nodes):
            share = np.asarray(counts, dtype=np.float64) / sum(counts)
            values[k, 0] = share
            array[k] = (
                left,
                right,
                feature,
                threshold,
                1.0 - float((share**2).sum()),  # Gini impurity, as scikit-learn's default
                sum(counts),
                float(sum(counts)),
                missing_left,
            )
        tree = SklearnTree(self.n_features_in_, np.array([n_classes], dtype=np.intp), 1)
        tree.__setstate__(
            {"max_depth": depth, "node_count": len(nodes), "nodes": array, "values": values}
        )
        out = DecisionTreeClassifier()
        out.n_features_in_ = self.n_features_in_
        if hasattr(self, "feature_names_in_"):
            out.feature_names_in_ = self.feature_names_in_
        out.n_outputs_ = 1
        out.classes_ = self.classes_
        out.n_classes_ = n_classes
        out.max_features_ = self.n_features_in_
        out.tree_ = tree
        return out

    def _binary_nodes(self) -> tuple[list[tuple], int]:
        """The exported tree's nodes in preorder (:meth:`to_sklearn`): (class counts,
        feature, threshold, whether a missing value goes left, left child, right child),
        -1 / -2 for a leaf's children and feature, as scikit-learn's; and its depth."""
        column = {name: j for j, name in enumerate(self._names())}
        tree = self.tree_
        nodes: list[list] = []
        # (a dagger node, or (a multiway numeric split, the index of the chain's first
        # value)), its parent's number and side (4: left, 5: right), its depth
        stack: list[tuple] = [(tree.root, -1, 4, 0)]
        depth = 0
        while stack:
            item, parent, side, d = stack.pop()
            k = len(nodes)
            if parent >= 0:
                nodes[parent][side] = k
            depth = max(depth, d)
            node, first = item if isinstance(item, tuple) else (item, 0)
            if node.is_leaf:
                nodes.append([node.counts, -2, -2.0, 0, -1, -1])
                continue
            j = column[tree.node_label(node)]
            fill = self.fill_values_[j]
            split = tree.splits.get(node.attribute)
            if split is not None:
                cuts = self._float32_cuts[split.column]
                ts = self.table_.ordered[split.column].thresholds
                cut = cuts[ts.index(split.threshold)]
                children = dict(node.children)
                left, right = children[YES], children[NO]
                t = split.threshold
                counts = node.counts
            elif self._kinds[j] != "numeric":
                raise ValueError(
                    f"the tree splits the categorical column {tree.node_label(node)!r} on its "
                    "values; scikit-learn's trees take numbers only: encode it as numbers "
                    "(e.g. one column per category) and fit again"
                )
            else:  # a multiway split on numbers: a chain of thresholds between them
                kids = sorted(node.children, key=lambda vc: float(vc[0]))
                a, b = float(kids[first][0]), float(kids[first + 1][0])
                t = between(a, b)
                cut = _float32_cut(a, b, t)
                left = kids[first][1]
                right = kids[-1][1] if first + 2 == len(kids) else (node, first + 1)
                counts = tuple(np.sum([c.counts for _, c in kids[first:]], axis=0).tolist())
            if cut is None:
                raise ValueError(
                    f"column {tree.node_label(node)!r} has training values on either side of "
                    f"{format_threshold(t)} that are one float32 number, which scikit-learn's "
                    "trees read: their split cannot be exported"
                )
            nodes.append([counts, j, cut, int(fill <= t), -1, -1])
            stack.append((right, k, 5, d + 1))
            stack.append((left, k, 4, d + 1))
        return [tuple(n) for n in nodes], depth


def _float32_cut(lo: float, hi: float, t: float) -> float | None:
    """A threshold that sends ``lo`` left and ``hi`` right once both are float32 numbers
    (scikit-learn's trees compare ``float32(x) <= threshold``): ``t`` itself when it does,
    else a number between the two float32 numbers; None when they are one number.

    >>> _float32_cut(1.0, 2.0, 1.5), _float32_cut(1.0, 1.0 + 1e-12, 1.0)
    (1.5, None)
    """
    with np.errstate(over="ignore"):
        a, b = float(np.float32(lo)), float(np.float32(hi))
    if a <= t < b:
        return float(t)
    return between(a, b) if a < b else None


def _float32_cuts(xs: np.ndarray, ts: list[float]) -> tuple:
    """:func:`_float32_cut` of each threshold of a numeric column (its training numbers
    ``xs``), between the largest number at most the threshold and the next."""
    distinct = np.unique(xs)
    k = np.searchsorted(distinct, ts, side="right")
    return tuple(
        _float32_cut(float(lo), float(hi), t) for lo, hi, t in zip(distinct[k - 1], distinct[k], ts)
    )


def _certainty(rel, k: int, max_mis, max_x, alpha) -> tuple[bool, int]:
    """Whether the point ``k`` chosen on a front found within a time limit is proven to be
    the one the exact front would give, and its gap (its misclassifications less the least
    the proven bound allows where the choice could land instead)."""
    front = rel.front
    if rel.status == "exact" or front.proven is None or front.gaps is None:
        return True, 0
    x, y, gap = int(front.x[k]), int(front.y[k]), int(front.gaps[k])
    bx, by = rel.bound
    proven = bool(front.proven[k])
    if max_mis is not None:  # G(K): no tree of less x with at most K errors may exist
        return proven and not bool(((bx < x) & (by <= max_mis)).any()), gap
    if max_x is not None:  # F(N): no tree of x <= N with fewer errors may exist
        below = by[bx <= max_x]
        return proven and not bool((below < y).any()), y - int(below.min(initial=y))
    if alpha is not None:  # least errors + alpha * x: no tree of a lower sum may exist
        best = float((by + alpha * bx).min())
        return proven and best >= y + alpha * x, gap
    return proven, gap  # least errors: the anytime answer's own proof and gap


#: The engine's messages name command-line options; the estimator's say its parameters.
_TERMS = (
    (re.compile(r"--max-depth( D)?"), "max_depth"),
    (re.compile(r"--max-subtables( N)?"), "max_subtables"),
    (re.compile(r"--thresholds( K)?"), "thresholds=K"),
    (re.compile(r"\(--max-memory\)"), "(the memory ceiling: 80 % of the memory available)"),
    (re.compile(r"--max-memory( SIZE)?"), "the memory ceiling"),
)


def _estimator_terms(text: str) -> str:
    """An engine message in the estimator's terms: its parameters, not the CLI's options.

    >>> _estimator_terms("more than 10 (--max-subtables); try --max-depth D")
    'more than 10 (max_subtables); try max_depth'
    """
    for pattern, term in _TERMS:
        text = pattern.sub(term, text)
    return text


def _missing(value) -> bool:
    """None or NaN (pandas' NA too)."""
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN, pd.NA's comparisons
    except TypeError:
        return True


def _column_kinds(X) -> list[str] | None:
    """``numeric``/``categorical`` per column of a DataFrame, from its dtypes (else None)."""
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(X, "columns"):
        return None
    import pandas as pd

    kinds = []
    for j, dtype in enumerate(dtypes):
        if pd.api.types.is_bool_dtype(dtype) or not pd.api.types.is_numeric_dtype(dtype):
            if pd.api.types.is_object_dtype(dtype) and _all_numbers(X.iloc[:, j]):
                kinds.append("numeric")
            else:
                kinds.append("categorical")
        else:
            kinds.append("numeric")
    return kinds


def _all_numbers(values) -> bool:
    """Whether every present value is a number (and one is): missing ones do not count."""
    present = [v for v in values if not _missing(v)]
    return bool(present) and all(
        isinstance(v, (numbers.Real, np.number)) and not isinstance(v, (bool, np.bool_))
        for v in present
    )


def _guess_kinds(X: np.ndarray) -> list[str]:
    """For arrays: numeric dtype -> numeric; object columns -> numeric iff all numbers."""
    if X.dtype.kind in "iuf":
        return ["numeric"] * X.shape[1]
    return ["numeric" if _all_numbers(X[:, j]) else "categorical" for j in range(X.shape[1])]


__all__ = ["DaggerTreeClassifier"]
