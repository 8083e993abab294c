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
"""

from __future__ import annotations

import math
import numbers
import re

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

from .costs import COSTS
from .data.table import DecisionTable, PreprocessReport, value_order
from .data.thresholds import NO, YES, Ordered, candidate_thresholds, format_threshold
from .errors import InputError, LimitError

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
    class_weight : dict, "balanced" or None, default=None
        scikit-learn's meaning: a class's weight multiplies its rows' weights (``"balanced"``:
        ``n_samples / (n_classes * rows of the class)``); misclassifications are then the
        weighted sum and a leaf predicts the class of greatest weight (see ``fit``'s
        ``sample_weight``). Not with ``time_limit``.
    min_samples_leaf : int or float, default=1
        Only trees whose every leaf holds at least this many training rows (a float in
        (0, 1): that fraction of the rows, rounded up), scikit-learn's meaning; exact
        (:mod:`dagger_cli.weights`). Not with ``time_limit``.

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
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "min_samples_leaf": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0.0, 1.0, closed="neither"),
        ],
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
        class_weight=None,
        min_samples_leaf=1,
    ):
        self.max_depth = max_depth
        self.x = x
        self.thresholds = thresholds
        self.max_misclassifications = max_misclassifications
        self.max_x = max_x
        self.alpha = alpha
        self.max_subtables = max_subtables
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.min_samples_leaf = min_samples_leaf

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True  # filled as fill_values_ says
        return tags

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Compute the exact front on (X, y) and keep the tree of the chosen point.

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)
            Numeric and categorical columns (see the module docstring).
        y : array-like of shape (n_samples,)
        sample_weight : array-like of shape (n_samples,), optional
            Row weights (>= 0): a row of weight k counts as k copies of it in
            misclassifications and total path length; a row of weight 0 is left out. The
            weights are read exactly (:mod:`dagger_cli.weights`: a float is the fraction it
            was computed as, e.g. 2/3, when that fraction reads back as the same float and
            its denominator is at most 10^6; weights that need a common denominator above
            10^9 are refused). ``front_`` then counts in units of ``1 / table_.weighting.unit``.

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
        weighted = sample_weight is not None or self.class_weight is not None
        least = self._least_leaf(y.shape[0])
        if (weighted or least > 1) and self.time_limit is not None:
            raise ValueError(
                "time_limit with sample_weight, class_weight or min_samples_leaf is not "
                "supported yet; drop time_limit (the exact front) or them"
            )
        # "balanced" counts every row of y, as scikit-learn's does (weight 0 included).
        cw = self._class_weights(y_codes) if self.class_weight is not None else None
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, ensure_non_negative=True)
            kept = sample_weight > 0
            if not kept.any():
                raise ValueError("every sample_weight is 0: there is nothing to fit")
            X, y_codes, sample_weight = X[kept], y_codes[kept], sample_weight[kept]
        self._kinds = kinds if kinds is not None else _guess_kinds(X)
        self.fill_values_ = [self._fill_value(X[:, j], j) for j in range(X.shape[1])]
        rows = None  # the rows' weights, for the thresholds' quantiles
        if weighted:
            rows = np.ones(y_codes.size) if sample_weight is None else sample_weight
            if cw is not None:
                rows = rows * np.array([float(c) for c in cw])[y_codes]
        self.table_ = self._table(X, y_codes, rows)
        if weighted:
            labels = self.table_.decision_values
            try:
                self.table_ = self.table_.weighted(
                    None if sample_weight is None else sample_weight.tolist(),
                    class_weight=None if cw is None else dict(zip(labels, cw)),
                )
            except InputError as err:
                raise ValueError(str(err).replace("row ", "sample ")) from None
        if least > 1:
            self.table_ = self.table_.weighted(min_leaf=least)
        query = self._query()
        try:
            rel = solve(self.table_, query)
            if not len(rel.front):  # nothing within the bound: the message needs the least
                rel = solve(self.table_, replace(query, max_x=None, max_y=None))
        except LimitError as err:
            depth = "any depth" if self.max_depth is None else f"depth <= {self.max_depth}"
            why = ""
            if self.table_.weighting is not None and self.table_.ordered:
                from .engine.ordered import expandable

                if not expandable(self.table_):
                    why = (
                        " The weights (over a common denominator of "
                        f"{self.table_.weighting.scale:,}) are too fine for the solver that "
                        "keeps numeric columns whole, which reads a row of weight k as k "
                        "copies: integer sample weights, or class weights that are small "
                        "integers, keep it."
                    )
            raise LimitError(
                f"{_estimator_terms(str(err))} The table is too big for an exact front over "
                f"trees of {depth}: give a smaller max_depth (e.g. 2 or 3) or fewer "
                f"thresholds (e.g. 8).{why}"
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

    def _least_leaf(self, n: int) -> int:
        """``min_samples_leaf`` in rows (a fraction of ``n`` rounded up, as scikit-learn)."""
        k = self.min_samples_leaf
        if isinstance(k, numbers.Integral):
            return int(k)
        return max(1, math.ceil(k * n))

    def _class_weights(self, y_codes) -> list:
        """``class_weight`` as exact weights per class (in ``classes_`` order)."""
        from .weights import parse_class_weight

        labels = [str(c) for c in self.classes_]
        cw = self.class_weight
        if isinstance(cw, dict):
            unknown = [k for k in cw if k not in set(self.classes_.tolist())]
            if unknown:
                raise ValueError(
                    f"class_weight names {unknown[0]!r}, not a class of y; the classes "
                    f"are {self.classes_.tolist()}"
                )
            cw = {str(k): v for k, v in cw.items()}
        try:
            out = parse_class_weight(cw, labels, y_codes)
        except InputError as err:
            raise ValueError(str(err)) from None
        assert out is not None
        return out

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

    def _table(self, X, y_codes, weights=None) -> DecisionTable:
        """The training table, built straight from the arrays (no strings for numbers)."""
        n = X.shape[0]
        attributes: list[str] = []
        values: list[tuple] = []
        codes: list[np.ndarray] = []
        ordered: dict[str, Ordered] = {}
        for j, name in enumerate(self._names()):
            if self._kinds[j] == "numeric" and self.thresholds is not None:
                xs = self._numbers_of(X[:, j], j)
                ts = candidate_thresholds(xs, self.thresholds, weights)
                if ts:
                    attr = Ordered(name, tuple(ts))
                    ordered[name] = attr
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
        """The most common training class of the node each row reaches (smallest on a tie;
        with weights the class of greatest weight).

        Parameters
        ----------
        X : array-like or DataFrame of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        nodes = self._leaves(X)
        index = {str(c): k for k, c in enumerate(self.classes_)}
        return self.classes_[np.array([index[node.decision] for node in nodes], dtype=np.int64)]


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
    (re.compile(r"--min-leaf"), "min_samples_leaf"),
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
