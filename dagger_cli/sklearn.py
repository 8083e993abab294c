"""A scikit-learn estimator: the exact tree of one point of the front, fit/predict.

>>> from sklearn.datasets import load_iris
>>> X, y = load_iris(return_X_y=True)
>>> clf = DaggerTreeClassifier(max_depth=2, thresholds=4).fit(X, y)   # doctest: +SKIP
>>> print(clf.tree_.to_text())                                          # doctest: +SKIP

This is the only module that imports scikit-learn (``pip install dagger-cli[sklearn]``).

How a fit works: the columns of ``X`` become a :class:`~dagger_cli.data.table.DecisionTable`
with every row kept (equal rows are not merged, so misclassifications count training rows):
a numeric column becomes one ordered attribute split by thresholds ``col <= t``
(:mod:`dagger_cli.data.thresholds`), a categorical column (pandas ``category``/``bool``)
stays a multiway nominal split on its values; an ``object`` or ``string`` column is read as
the command line reads a CSV column (numbers make it numeric; under ``thresholds`` a few
stray words are missing values, with a warning; else categorical). Infinity is refused. The
engine computes the exact front of ``x`` (default total path length) against
misclassifications over every tree of depth at most ``max_depth`` (by the ordered solver,
:mod:`dagger_cli.engine.ordered`, which sweeps the thresholds of each column; with
``max_depth=None`` by the DAG engine on the columns' binary expansion), and the estimator
keeps the tree of one point: by default the least misclassifications (ties: the least
``x``); or G(K), F(N), or the least ``misclassifications + alpha * x``.

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

import math
import numbers
import re
from collections.abc import Sequence

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import _check_sample_weight, check_is_fitted, validate_data

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
from .errors import InputError, LimitError
from .values import cell_text, mostly_numeric, numeric_column, parse_number

#: The costs ``x`` can be (misclassifications is always the other one).
X_COSTS = tuple(c for c in COSTS if c != "misclassifications" and not COSTS[c].reads_decision)


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
    max_memory : int, str or None, default="auto"
        Stop with :class:`dagger_cli.errors.LimitError` if the engine needs more bytes
        (``"2G"``, ``"500M"``); ``"auto"``: 80 % of the memory available at the fit; None
        (or ``"none"``): no ceiling.
    time_limit : float, str or None, default=None
        Seconds (or ``"90s"``, ``"5m"``): keep the tree chosen on the best front found in
        that time (:mod:`dagger_cli.engine.anytime`); ``optimal_`` says whether it is proven
        optimal, ``gap_`` how far from the proven bound it may be, and a fit whose tree is
        not proven warns (:class:`TimeLimitWarning`, with the gap). None: the exact front.
    class_weight : dict, "balanced" or None, default=None
        scikit-learn's meaning: a class's weight multiplies its rows' weights (``"balanced"``:
        ``n_samples / (n_classes * rows of the class)``); misclassifications are then the
        weighted sum and a leaf predicts the class of greatest weight (see ``fit``'s
        ``sample_weight``).
    min_samples_leaf : int or float, default=1
        Only trees whose every leaf holds at least this many training rows (a float in
        (0, 1): that fraction of the rows, rounded up), scikit-learn's meaning; exact
        (:mod:`dagger_cli.weights`).
    scheduler : str, distributed.Client or None, default=None
        A Dask scheduler's address (or ``"local"``), or a client of one: under
        ``max_depth``, with ``x="depth"`` on numeric columns the search for the least
        errors at each depth runs on that cluster's workers
        (:mod:`dagger_cli.engine.cluster`), on nominal and binary columns the last two
        levels of the DAG of subtables (:mod:`dagger_cli.engine.cluster_layer`); the
        same tree. Other queries refuse it (ValueError).

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
        "max_memory": [Interval(numbers.Integral, 1, None, closed="left"), str, None],
        "time_limit": [Interval(numbers.Real, 0, None, closed="left"), str, None],
        "class_weight": [dict, StrOptions({"balanced"}), None],
        "min_samples_leaf": [
            Interval(numbers.Integral, 1, None, closed="left"),
            Interval(numbers.Real, 0.0, 1.0, closed="neither"),
        ],
        "scheduler": "no_validation",
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
        max_memory="auto",
        time_limit=None,
        class_weight=None,
        min_samples_leaf=1,
        scheduler=None,
    ):
        self.max_depth = max_depth
        self.x = x
        self.thresholds = thresholds
        self.max_misclassifications = max_misclassifications
        self.max_x = max_x
        self.alpha = alpha
        self.max_subtables = max_subtables
        self.max_memory = max_memory
        self.time_limit = time_limit
        self.class_weight = class_weight
        self.min_samples_leaf = min_samples_leaf
        self.scheduler = scheduler

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        tags.input_tags.allow_nan = True  # filled as fill_values_ says
        tags.input_tags.sparse = True  # CSR/CSC, read as the dense array they stand for
        return tags

    # ------------------------------------------------------------------ fit
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Compute the exact front on (X, y) and keep the tree of the chosen point.

        Parameters
        ----------
        X : array-like, sparse matrix or DataFrame of shape (n_samples, n_features)
            Numeric and categorical columns (see the module docstring); a CSR or CSC matrix
            (``OneHotEncoder``'s output) is read as the dense array it stands for.
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
        X, y = validate_data(self, X, y, dtype=None, ensure_all_finite=False, accept_sparse=SPARSE)
        X = _dense(X)
        check_classification_targets(y)
        self.classes_, y_codes = np.unique(y, return_inverse=True)
        weighted = sample_weight is not None or self.class_weight is not None
        least = self._least_leaf(y.shape[0])
        # "balanced" counts every row of y, as scikit-learn's does (weight 0 included).
        cw = self._class_weights(y_codes) if self.class_weight is not None else None
        if sample_weight is not None:
            sample_weight = _check_sample_weight(sample_weight, X, ensure_non_negative=True)
            kept = sample_weight > 0
            if not kept.any():
                raise ValueError("every sample_weight is 0: there is nothing to fit")
            X, y_codes, sample_weight = X[kept], y_codes[kept], sample_weight[kept]
        self._kinds = kinds if kinds is not None else _guess_kinds(X)
        self._kinds = self._read_text_columns(X, self._kinds)
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
            with _in_estimator_terms():
                rel = solve(self.table_, query)
                if not len(rel.front):  # nothing within the bound: the message needs the least
                    rel = solve(self.table_, replace(query, max_x=None, max_y=None))
        except LimitError as err:
            why = ""
            if self.table_.weighting is not None and self.table_.ordered:
                from .engine.ordered import reads_weights

                if not reads_weights(self.table_):
                    why = (
                        " The weights (over a common denominator of "
                        f"{self.table_.weighting.scale:,}) are too fine for the solver that "
                        "keeps numeric columns whole, which counts them in units of that "
                        "denominator: integer sample weights, or class weights that are "
                        "small integers, keep it."
                    )
            raise LimitError(self._too_big(str(err)) + why) from None
        self.solver_ = rel.engine
        self.front_ = rel.front
        self.front_index_ = self._choose(rel.front)
        self.optimal_, self.gap_ = _certainty(
            rel, self.front_index_, self.max_misclassifications, self.max_x, self.alpha
        )
        if not self.optimal_:
            import warnings

            # (3: past _fit_context, at the caller of fit)
            warnings.warn(TimeLimitWarning(self._stopped_text(rel)), stacklevel=3)
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

    def _stopped_text(self, rel) -> str:
        """What a fit cut short by ``time_limit`` says (:class:`TimeLimitWarning`)."""
        x, y = (int(v[self.front_index_]) for v in (self.front_.x, self.front_.y))
        proven = int(sum(self.front_.proven)) if self.front_.proven is not None else 0
        return (
            f"time_limit={self.time_limit!r} stopped the search before the chosen tree was "
            f"proven optimal: it is the best found ({self.x} {x}, {y} training "
            f"misclassification(s)), which an optimal tree may beat by up to {self.gap_} "
            f"(gap_; {proven} of {len(self.front_)} point(s) of front_ proven). "
            "Give a longer time_limit, a smaller max_depth or fewer thresholds for a proven "
            "tree (optimal_ says whether a fit's tree is)"
        )

    def _too_big(self, message: str) -> str:
        """A limit's message in the estimator's terms, with the parameters that would let
        the fit through (the engine's command line advice left out)."""
        if self.max_depth is None:
            ways = ["max_depth=3 (or 2; now None: trees of any depth)"]
        else:
            ways = [f"a smaller max_depth (now {self.max_depth})"]
        if self.thresholds != 1:
            ways.append(f"fewer thresholds (e.g. thresholds=8; now {self.thresholds!r})")
        if "--max-subtables" in message:
            ways.append(f"a larger max_subtables (now {self.max_subtables:,})")
        if "memory" in message:
            ways.append(f"a larger max_memory if the machine has it (now {self.max_memory!r})")
        depth = "any depth" if self.max_depth is None else f"depth <= {self.max_depth}"
        give = ways[0] if len(ways) == 1 else f"{', '.join(ways[:-1])} or {ways[-1]}"
        text = re.sub(r"[:.;]?\s*[Tt]ry (a lower )?--max-depth.*$", ".", message.strip())
        return (
            f"{_estimator_terms(text)} The table is too big for an exact front over trees of "
            f"{depth}: give {give}."
        )

    def _query(self):
        """The query of the parameters (a :class:`~dagger_cli.engine.query.Query`): only
        the part of the front the choice reads (the engine computes less for it)."""
        from .engine.query import Query

        return Query(
            self.x,
            "misclassifications",
            max_depth=self.max_depth,
            max_subtables=self.max_subtables,
            max_memory=self.max_memory,
            max_y=self.max_misclassifications,
            max_x=self.max_x if self.max_misclassifications is None else None,
            least_y=self.alpha is None
            and self.max_x is None
            and self.max_misclassifications is None,
            time_limit=self.time_limit,
            scheduler=_address(self.scheduler),
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

    def _read_text_columns(self, X, kinds) -> list[str]:
        """The kinds of the columns of text cells (an ``object`` column whose kind its
        dtype does not say), read as the command line reads a CSV file's columns
        (:func:`dagger_cli.data.table.stray_cells`): a column of numbers is numeric; under
        ``thresholds``, one numeric but for a few cells (one present cell in twenty:
        a stray word) is numeric too, those cells read as missing values (filled with the
        median), with a warning naming the column and the rows; any other is categorical."""
        import warnings

        out = list(kinds)
        names = self._names()
        for j, kind in enumerate(kinds):
            if kind != "text":
                continue
            texts = [cell_text(v) for v in X[:, j]]
            count, stray = numeric_column(texts)
            infinite = [i for i in stray if parse_number(texts[i]) is not None]
            words = [i for i in stray if i not in infinite]
            count += len(infinite)  # a number, refused as infinite when it is read
            if count and not words:
                out[j] = "numeric"
            elif self.thresholds is not None and mostly_numeric(count, words):
                out[j] = "numeric"
                shown = ", ".join(f"row {i} {texts[i]!r}" for i in words[:3])
                shown += ", ..." if len(words) > 3 else ""
                warnings.warn(
                    UserWarning(
                        f"column {names[j]!r} is numeric but for {len(words)} cell(s) that are "
                        f"not numbers ({shown}; rows counted from 0); thresholds reads them as "
                        "missing values, filled with the column's median, as the command line "
                        "reads such a column (dagger relate --thresholds)"
                    ),
                    stacklevel=4,
                )
            else:
                out[j] = "categorical"
        return out

    def _fill_value(self, column, j):
        """What fills column ``j``'s missing values: its median (numeric) or its most
        common value (categorical), over the training rows."""
        if self._kinds[j] == "numeric":
            xs = self._floats(column, j)
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

    def _floats(self, column, j) -> np.ndarray:
        """Column ``j``'s cells as numbers: a missing value, or a cell that is not a number,
        is NaN; infinity is refused, naming the column and the row."""
        try:
            xs = np.array(column, dtype=np.float64)
        except (TypeError, ValueError):
            xs = np.array(
                [np.nan if (v := parse_number(cell_text(c))) is None else v for c in column],
                dtype=np.float64,
            )
        bad = np.flatnonzero(np.isinf(xs))
        if bad.size:
            i = int(bad[0])
            raise ValueError(
                f"column {self._names()[j]!r}, row {i} (counted from 0): {column[i]!r} is "
                f"infinite ({bad.size} such cell(s) in this column); a threshold cannot "
                "order infinity: replace it with a finite number, or with NaN (a missing "
                "value, filled with the column's median)"
            )
        return xs

    def _numbers_of(self, column, j) -> np.ndarray:
        """Column ``j``'s numbers, missing ones filled (:attr:`fill_values_`)."""
        xs = self._floats(column, j)
        xs[np.isnan(xs)] = self.fill_values_[j]
        return xs

    def _table(self, X, y_codes, weights=None) -> DecisionTable:
        """The training table, built straight from the arrays (no strings for numbers)."""
        self._float32_cuts: dict[str, tuple] = {}
        n = X.shape[0]
        attributes: list[str] = []
        values: list[Sequence[str]] = []
        codes: list[np.ndarray] = []
        ordered: dict[str, Ordered] = {}
        for j, name in enumerate(self._names()):
            if self._kinds[j] == "numeric" and self.thresholds is not None:
                xs = self._numbers_of(X[:, j], j)
                ts = candidate_thresholds(xs, self.thresholds, weights)
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
            # tree_.predict(df) reads a missing value as predict does
            fills={
                name: format_threshold(v) if self._kinds[j] == "numeric" else v
                for j, (name, v) in enumerate(zip(self._names(), self.fill_values_))
            },
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
        X = validate_data(
            self, X, dtype=None, reset=False, ensure_all_finite=False, accept_sparse=SPARSE
        )
        X = _dense(X)
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


#: The sparse formats ``fit`` and ``predict`` take (as scikit-learn's trees do).
SPARSE = ("csr", "csc")


class TimeLimitWarning(ConvergenceWarning):
    """A fit stopped by ``time_limit`` before its tree was proven optimal: the tree is
    the best found, ``gap_`` says how far from the proven bound it may be.

    A :class:`sklearn.exceptions.ConvergenceWarning`, so that ``warnings.filterwarnings``
    and scikit-learn's own handling of non-converged fits (``cross_validate``'s folds)
    treat it as the same kind of news."""


def _dense(X):
    """A sparse matrix as the dense array it stands for (the engine reads every cell)."""
    import scipy.sparse

    return X.toarray() if scipy.sparse.issparse(X) else X


#: The engine's messages name command-line options; the estimator's say its parameters.
_TERMS = (
    (re.compile(r"--max-depth( D)?"), "max_depth"),
    (re.compile(r"--max-subtables( N)?"), "max_subtables"),
    (re.compile(r"--thresholds( K)?"), "thresholds=K"),
    (re.compile(r"--max-memory( SIZE)?"), "max_memory"),
    (re.compile(r"--min-leaf"), "min_samples_leaf"),
)


class _in_estimator_terms:
    """The engine's warnings before the work (:class:`dagger_cli.errors.CostWarning`,
    which name command-line options) said again in the estimator's terms, at the caller
    of ``fit``; other warnings pass unchanged."""

    def __enter__(self):
        import warnings

        self._catch = warnings.catch_warnings(record=True)
        self._said = self._catch.__enter__()
        warnings.simplefilter("always")
        return self

    def __exit__(self, *exc):
        import warnings

        from .errors import CostWarning

        self._catch.__exit__(*exc)
        for w in self._said:
            if issubclass(w.category, CostWarning):
                text = _estimator_terms(str(w.message))
                warnings.warn(CostWarning(text), stacklevel=4)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return False


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
    """``numeric``/``categorical`` per column of a DataFrame, from its dtypes (else None);
    ``text`` for an ``object`` or ``string`` column, whose cells decide
    (:meth:`DaggerTreeClassifier._read_text_columns`)."""
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(X, "columns"):
        return None
    import pandas as pd

    kinds = []
    for dtype in dtypes:
        if pd.api.types.is_object_dtype(dtype) or (
            pd.api.types.is_string_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)
        ):
            kinds.append("text")
        elif pd.api.types.is_bool_dtype(dtype) or not pd.api.types.is_numeric_dtype(dtype):
            kinds.append("categorical")
        else:
            kinds.append("numeric")
    return kinds


def _guess_kinds(X: np.ndarray) -> list[str]:
    """For arrays: numeric dtype -> numeric; an object column's cells decide (``text``)."""
    if X.dtype.kind in "iuf":
        return ["numeric"] * X.shape[1]
    return ["text"] * X.shape[1]


def _address(scheduler):
    """A scheduler's address from an address, ``"local"`` or a Dask client (None: none)."""
    if scheduler is None or isinstance(scheduler, str):
        return scheduler
    inner = getattr(scheduler, "scheduler", None)
    address = getattr(inner, "address", None)
    if not isinstance(address, str):
        raise ValueError(
            f"scheduler must be a Dask scheduler's address, 'local' or a distributed.Client, "
            f"not {type(scheduler).__name__}"
        )
    return address


__all__ = ["DaggerTreeClassifier", "TimeLimitWarning"]
