"""The scikit-learn estimator: conventions, exactness against CART, choice of the point."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

sklearn = pytest.importorskip("sklearn")

from sklearn.datasets import load_iris, load_wine  # noqa: E402
from sklearn.model_selection import GridSearchCV, cross_val_score  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import FunctionTransformer  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

from dagger_cli.engine import relate  # noqa: E402
from dagger_cli.errors import LimitError  # noqa: E402
from dagger_cli.sklearn import DaggerTreeClassifier  # noqa: E402

CAPPED = "max_depth" in inspect.signature(relate).parameters
needs_cap = pytest.mark.skipif(not CAPPED, reason="the engine has no depth cap (max_depth)")
#: Parameters that fit every table of the checks quickly, with or without a depth cap.
SMALL = {"max_depth": 3 if CAPPED else None, "thresholds": 4}


#: The one check the estimator fails by design, and why.
EXPECTED_FAILURES = {
    "check_class_weight_classifiers": (
        "it gives class 0 a weight of 1000 and the others 0.0001 and expects 87 % of the "
        "predictions to be 0, which CART meets through min_weight_fraction_leaf=0.01; the "
        "exact tree of least weighted error still separates every class it can at depth 3 "
        "(test_class_weight_changes_the_tree checks that class weights act)"
    )
}


def test_check_estimator():
    check_estimator(DaggerTreeClassifier(**SMALL), expected_failed_checks=EXPECTED_FAILURES)


@needs_cap
def test_check_estimator_with_the_defaults():
    check_estimator(DaggerTreeClassifier(), expected_failed_checks=EXPECTED_FAILURES)


@needs_cap
@pytest.mark.parametrize("loader, depth", [(load_iris, 2), (load_iris, 3), (load_wine, 2)])
def test_exact_tree_beats_or_ties_cart_on_its_training_rows(loader, depth):
    """Every CART threshold is a candidate under thresholds="all", and CART's tree has depth
    <= D, so the exact tree with the fewest training errors cannot have more."""
    X, y = loader(return_X_y=True)
    cart = DecisionTreeClassifier(max_depth=depth, random_state=0).fit(X, y)
    ours = DaggerTreeClassifier(max_depth=depth, thresholds="all").fit(X, y)
    cart_errors = int((cart.predict(X) != y).sum())
    our_errors = int((ours.predict(X) != y).sum())
    assert our_errors == ours.front_.y[ours.front_index_] == min(ours.front_.y)
    assert our_errors <= cart_errors
    assert ours.tree_.costs()["depth"] <= depth


def _route(node, record):
    """Route one raw record through the exported JSON tree; the node where it stops."""
    path = [node]
    while "children" in node:
        value = record[node["attribute"]]
        if "threshold" in node:
            le, gt = node["children"]
            key = le if float(value) <= node["threshold"] else gt
        else:
            key = str(value)
        if key not in node["children"]:
            break
        node = node["children"][key]
        path.append(node)
    return node


def _mixed_frame(n, rng, categories=("red", "green", "blue")):
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame(
        {
            "age": rng.integers(18, 80, size=n),
            "income": rng.normal(50, 15, size=n).round(1),
            "color": pd.Categorical(rng.choice(categories, size=n)),
        }
    )
    y = np.where((df.age > 40) & (df.color != "blue") | (df.income > 60), "yes", "no")
    flip = rng.random(n) < 0.1
    return df, np.where(flip, np.where(y == "yes", "no", "yes"), y)


def test_dataframes_with_categories_and_unseen_values():
    rng = np.random.default_rng(7)
    df, y = _mixed_frame(120, rng)
    clf = DaggerTreeClassifier(**SMALL).fit(df, y)
    assert list(clf.feature_names_in_) == ["age", "income", "color"]
    assert clf.n_features_in_ == 3 and list(clf.classes_) == ["no", "yes"]
    assert "age" in clf.table_.ordered  # numeric: one ordered attribute, split by thresholds
    assert any(a.startswith("age<=") for a in clf.table_.binarized().attributes)
    assert "color" in clf.table_.attributes  # categorical: one multiway attribute
    text = clf.tree_.to_text()
    assert "<=" in text and ">" in text
    assert clf.tree_.to_dot().startswith("digraph")
    # New rows, with a category never seen in training.
    test, _ = _mixed_frame(300, rng, categories=("red", "green", "blue", "violet"))
    doc = clf.tree_.to_dict()["tree"]
    train_records = df.astype(object).to_dict("records")
    expected = []
    for rec in test.astype(object).to_dict("records"):
        stop = _route(doc, rec)
        if "decision" in stop:
            expected.append(stop["decision"])
            continue
        # Stopped inside: the most common class of the training rows that reach that node
        # (the smaller class on a tie).
        reach = [label for r, label in zip(train_records, y) if _stops_below(doc, r, stop)]
        labels, counts = np.unique(reach, return_counts=True)
        expected.append(labels[np.argmax(counts)])
    assert any(rec == "violet" for rec in test.color)
    assert list(clf.predict(test)) == expected
    proba = clf.predict_proba(test)
    assert np.allclose(proba.sum(axis=1), 1)
    assert list(clf.classes_[proba.argmax(axis=1)]) == expected


def _stops_below(node, record, target):
    """Whether ``record`` passes through ``target`` on its way down from ``node``."""
    while True:
        if node is target:
            return True
        if "children" not in node:
            return False
        value = record[node["attribute"]]
        if "threshold" in node:
            le, gt = node["children"]
            key = le if float(value) <= node["threshold"] else gt
        else:
            key = str(value)
        if key not in node["children"]:
            return False
        node = node["children"][key]


def test_predict_proba_is_the_leaf_class_frequencies():
    X, y = load_iris(return_X_y=True)
    clf = DaggerTreeClassifier(**SMALL, max_x=300).fit(X, y)
    leaves = {}

    def collect(node):
        if node.is_leaf:
            leaves[node.rows] = np.array(node.counts) / node.rows
        for _, c in node.children:
            collect(c)

    collect(clf.tree_.root)
    proba = clf.predict_proba(X)
    assert all(any(np.allclose(p, q) for q in leaves.values()) for p in proba)
    assert (clf.predict(X) != y).sum() == clf.tree_.costs()["misclassifications"]


def test_which_point_is_taken():
    X, y = load_iris(return_X_y=True)
    front = DaggerTreeClassifier(**SMALL, alpha=0.0).fit(X, y).front_  # the whole front
    base = DaggerTreeClassifier(**SMALL).fit(X, y)
    # the fewest errors (ties: least x), the only point computed
    assert base.front_.points() == [front.points()[-1]] and base.front_index_ == 0
    k = int(front.y[-1]) + 2
    g = DaggerTreeClassifier(**SMALL, max_misclassifications=k).fit(X, y)
    assert g.front_.points() == [p for p in front.points() if p[1] <= k]
    assert g.front_.x[g.front_index_] == front.least_x(k)
    assert g.tree_.costs()["misclassifications"] <= k
    n = 200
    f = DaggerTreeClassifier(**SMALL, max_x=n).fit(X, y)
    assert f.front_.points() == [p for p in front.points() if p[0] <= n]
    assert f.front_.y[f.front_index_] == front.least_y(n)
    assert f.tree_.costs()["total_path_length"] <= n
    for alpha in (0.0, 0.05, 0.2, 1.0):
        a = DaggerTreeClassifier(**SMALL, alpha=alpha).fit(X, y)
        scores = front.y + alpha * front.x
        assert scores[a.front_index_] == scores.min()
        assert a.front_index_ == min(np.flatnonzero(scores == scores.min()))
    assert DaggerTreeClassifier(**SMALL, alpha=1.0).fit(X, y).front_index_ == 0  # a leaf
    with pytest.raises(ValueError, match="at most one of"):
        DaggerTreeClassifier(alpha=0.1, max_x=3).fit(X, y)
    coarse = {"max_depth": SMALL["max_depth"], "thresholds": 1}
    least = int(DaggerTreeClassifier(**coarse, alpha=0.0).fit(X, y).front_.y.min())
    assert least > 0
    with pytest.raises(ValueError, match=f"no tree has at most {least - 1} .* the least is"):
        DaggerTreeClassifier(**coarse, max_misclassifications=least - 1).fit(X, y)
    with pytest.raises(ValueError, match="thresholds"):
        DaggerTreeClassifier(thresholds="some").fit(X, y)
    with pytest.raises(ValueError, match="x"):
        DaggerTreeClassifier(x="misclassifications").fit(X, y)


def test_the_ordered_solver_and_the_dag_engine_agree():
    """Numeric columns under a cap take the ordered solver; the DAG engine on the columns'
    binary expansion gives the same front, and a categorical column joins the search."""
    pd = pytest.importorskip("pandas")
    from dagger_cli.engine import relate

    X, y = load_iris(return_X_y=True, as_frame=True)
    X = X.iloc[:, 2:]
    clf = DaggerTreeClassifier(max_depth=2, thresholds="all", alpha=0.0).fit(X, y)
    assert clf.solver_ == "ordered"
    dag = relate(clf.table_.binarized(), clf.x, "misclassifications", max_depth=2)
    assert dag.engine == "fast" and dag.front.points() == clf.front_.points()
    mixed = X.assign(tag=pd.Categorical(["t", "u"] * (len(X) // 2)))
    with_tag = DaggerTreeClassifier(max_depth=2, thresholds="all", alpha=0.0).fit(mixed, y)
    assert with_tag.solver_ == "ordered"
    dag = relate(with_tag.table_.binarized(), clf.x, "misclassifications", max_depth=2)
    assert dag.front.points() == with_tag.front_.points()
    # The trees may differ between equally good ones, their training errors may not.
    assert (with_tag.predict(mixed) != y).sum() == int(with_tag.front_.y[-1])


def test_other_costs_as_x():
    X, y = load_iris(return_X_y=True)
    clf = DaggerTreeClassifier(**SMALL, x="leaves", max_x=3).fit(X, y)
    assert clf.tree_.costs()["leaves"] <= 3
    assert clf.front_.x_cost.name == "leaves"


def test_pipeline_cross_validation_and_grid_search():
    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(FunctionTransformer(), DaggerTreeClassifier(**SMALL))
    scores = cross_val_score(pipe, X, y, cv=3)
    assert scores.shape == (3,) and scores.min() > 0.8
    grid = GridSearchCV(
        DaggerTreeClassifier(thresholds=4),
        {"max_depth": [1, 2] if CAPPED else [None], "alpha": [0.0, 0.02, 1.0]},
        cv=3,
    )
    grid.fit(X, y)
    assert grid.best_params_["alpha"] < 1.0  # the single leaf (alpha=1) guesses a third
    assert grid.best_score_ > 0.8
    assert len(grid.cv_results_["params"]) == (6 if CAPPED else 3)


def test_too_big_a_table_stops_with_a_limit_error_that_suggests_max_depth():
    from dagger_cli.errors import CostWarning

    X, y = load_iris(return_X_y=True)
    with pytest.raises(LimitError, match="max_depth") as err, pytest.warns(CostWarning) as said:
        DaggerTreeClassifier(max_depth=None, thresholds="all", max_subtables=1000).fit(X, y)
    # The warning before the work, too: the estimator's parameters, at the caller's line.
    (w,) = [w for w in said if issubclass(w.category, CostWarning)]
    assert "--" not in str(w.message) and "thresholds=K" in str(w.message)
    assert w.filename == __file__
    # In the estimator's terms: its parameters, no command-line option, each way through.
    text = str(err.value)
    assert "--" not in text and "Try" not in text
    assert "max_depth=3" in text and "thresholds=8" in text and "larger max_subtables" in text


def test_a_minimum_leaf_size_on_many_thresholds_stays_with_the_ordered_solver():
    """min_samples_leaf with every threshold and the default x (total path length): the
    solver that keeps numeric columns whole reads it, without a warning, and every leaf of
    the fitted tree holds at least that many training rows."""
    import warnings

    from dagger_cli.errors import CostWarning

    X, y = load_iris(return_X_y=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", CostWarning)
        est = DaggerTreeClassifier(max_depth=2, thresholds="all", min_samples_leaf=5).fit(X, y)
    assert est.solver_ == "ordered"
    assert np.bincount(est.apply(X)).max() > 0
    assert min(c for c in np.bincount(est.apply(X)) if c) >= 5


def test_a_memory_stop_names_max_memory_and_the_ways_through():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(LimitError) as err:
        DaggerTreeClassifier(max_depth=2, thresholds="all", max_memory="1K").fit(X, y)
    text = str(err.value)
    assert "--" not in text and "(max_memory)" in text and "1 KiB" in text
    assert "a smaller max_depth (now 2)" in text and "larger max_memory" in text
    assert "max_subtables" not in text  # not the limit that stopped it


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_input_is_read_as_the_dense_array_it_stands_for(fmt):
    import scipy.sparse
    from sklearn.preprocessing import OneHotEncoder

    rng = np.random.default_rng(3)
    raw = rng.integers(0, 4, size=(120, 3)).astype(str)
    y = (raw[:, 0] == "1") | (raw[:, 1] == raw[:, 2])
    pipe = make_pipeline(OneHotEncoder(), DaggerTreeClassifier(max_depth=2)).fit(raw, y)
    dense = OneHotEncoder(sparse_output=False).fit_transform(raw)
    on_dense = DaggerTreeClassifier(max_depth=2).fit(dense, y)
    X = scipy.sparse.csr_matrix(dense) if fmt == "csr" else scipy.sparse.csc_matrix(dense)
    on_sparse = DaggerTreeClassifier(max_depth=2).fit(X, y)
    tree = on_dense.tree_.to_text()
    assert on_sparse.tree_.to_text() == tree == pipe[-1].tree_.to_text()
    assert (on_sparse.predict(X) == on_dense.predict(dense)).all()
    assert (pipe.predict(raw) == on_dense.predict(dense)).all()
    assert np.allclose(on_sparse.predict_proba(X), on_dense.predict_proba(dense))


def _hard_table():
    rng = np.random.default_rng(8)
    X = np.round(rng.random((200, 6)) * 9, 2)
    return X, (X[:, 0] * X[:, 1] > 20).astype(int) ^ (X[:, 2] > 7)


def test_a_fit_stopped_by_its_time_limit_warns_with_its_gap():
    from sklearn.exceptions import ConvergenceWarning

    from dagger_cli.sklearn import TimeLimitWarning

    X, y = _hard_table()
    with pytest.warns(TimeLimitWarning) as caught:
        quick = DaggerTreeClassifier(max_depth=4, thresholds="all", time_limit=0).fit(X, y)
    assert not quick.optimal_ and quick.gap_ > 0
    (w,) = [w for w in caught if issubclass(w.category, TimeLimitWarning)]
    assert issubclass(w.category, ConvergenceWarning)
    assert f"up to {quick.gap_} (gap_" in str(w.message) and "time_limit=0" in str(w.message)
    assert w.filename == __file__  # points at the caller's fit
    # Proven in time: no warning.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", TimeLimitWarning)
        slow = DaggerTreeClassifier(max_depth=2, thresholds="all", time_limit="1h").fit(X, y)
    assert slow.optimal_


def test_cross_validation_of_time_limited_fits_says_so():
    from sklearn.exceptions import ConvergenceWarning

    X, y = _hard_table()
    clf = DaggerTreeClassifier(max_depth=4, thresholds="all", time_limit=0)
    with pytest.warns(ConvergenceWarning, match="time_limit"):
        cross_val_score(clf, X, y, cv=2)


def test_deterministic():
    X, y = load_wine(return_X_y=True)
    X = X[:, :4]
    a = DaggerTreeClassifier(**SMALL).fit(X, y)
    b = DaggerTreeClassifier(**SMALL).fit(X, y)
    assert a.tree_.to_text() == b.tree_.to_text()
    assert a.front_.points() == b.front_.points()


def test_missing_values_are_filled_as_the_command_line_fills_them(tmp_path):
    """A numeric column's missing values take its median, a categorical one's its most
    common value, in fit and in predict, the same as `dagger relate --missing mode`."""
    pd = pytest.importorskip("pandas")
    from dagger_cli.data.table import DecisionTable
    from dagger_cli.engine import relate

    rng = np.random.default_rng(4)
    n = 40
    a = rng.integers(0, 30, n).astype(float)
    a[[3, 7, 11, 20]] = np.nan
    b = rng.choice(["x", "y", "z"], n).astype(object)
    b[[5, 9]] = None
    y = (np.nan_to_num(a, nan=13) > 12).astype(int) ^ (b == "y")
    df = pd.DataFrame({"a": a, "b": b})
    clf = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(df, y)
    present = np.sort(a[~np.isnan(a)])
    assert clf.fill_values_[0] == float(present[(present.size - 1) // 2])
    counts = pd.Series(b[b != None]).value_counts()  # noqa: E711
    assert clf.fill_values_[1] == sorted(counts[counts == counts.max()].index)[0]
    path = tmp_path / "t.csv"
    df.assign(d=y).to_csv(path, index=False)
    table = DecisionTable.from_csv(path, thresholds="all")
    cli = relate(table, max_depth=2)
    assert clf.front_.points() == cli.front.points()[-1:]  # the fit computes the last point
    filled = df.fillna({"a": clf.fill_values_[0], "b": clf.fill_values_[1]})
    assert (clf.predict(df) == clf.predict(filled)).all()
    # Infinity is no missing value: refused.
    with pytest.raises(ValueError, match="inf"):
        DaggerTreeClassifier(**SMALL).fit([[1.0], [np.inf]], [0, 1])


@needs_cap
def test_class_weight_changes_the_tree():
    """A class weight is a row weight of its rows: class_weight and the equal sample_weight
    give the same tree, and a heavy class is never misclassified where a tree can help it."""
    X, y = load_iris(return_X_y=True)
    heavy = {0: 1, 1: 50, 2: 1}
    a = DaggerTreeClassifier(max_depth=1, class_weight=heavy).fit(X, y)
    b = DaggerTreeClassifier(max_depth=1).fit(X, y, sample_weight=[heavy[c] for c in y])
    assert a.tree_.to_text() == b.tree_.to_text()
    assert (a.predict(X)[y == 1] == 1).all()
    plain = DaggerTreeClassifier(max_depth=1).fit(X, y)
    assert not (plain.predict(X)[y == 1] == 1).any()


@needs_cap
def test_sample_weight_is_repeated_rows():
    """Integer weights are repeated rows (thresholds at the weighted quantiles too), weight 0
    leaves a row out, and fractions are exact."""
    X, y = load_wine(return_X_y=True)
    rng = np.random.default_rng(0)
    w = rng.integers(0, 4, size=y.size)
    a = DaggerTreeClassifier(max_depth=2, thresholds=8).fit(X, y, sample_weight=w)
    b = DaggerTreeClassifier(max_depth=2, thresholds=8).fit(X.repeat(w, axis=0), y.repeat(w))
    assert a.front_.y.tolist() == b.front_.y.tolist()
    assert a.tree_.to_text() == b.tree_.to_text()
    half = DaggerTreeClassifier(max_depth=2, thresholds=8).fit(X, y, sample_weight=w / 3)
    assert half.table_.weighting.scale == 3
    assert half.front_.y.tolist() == a.front_.y.tolist()


def test_a_weighted_fit_within_a_time_limit_is_the_exact_fit():
    """Long enough, a time limit changes nothing of a weighted fit (its tree proven)."""
    X, y = load_wine(return_X_y=True)
    w = np.random.default_rng(1).integers(1, 4, size=y.size)
    kw = dict(max_depth=2, thresholds=8, min_samples_leaf=3, class_weight={0: 2})
    a = DaggerTreeClassifier(**kw).fit(X, y, sample_weight=w)
    b = DaggerTreeClassifier(**kw, time_limit=3600).fit(X, y, sample_weight=w)
    assert b.optimal_ and a.tree_.to_text() == b.tree_.to_text()


def test_bad_sample_weight_is_a_value_error():
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="Negative values in data passed to `?sample_weight"):
        DaggerTreeClassifier(max_depth=1).fit(X, y, sample_weight=-np.ones(y.size))
    with pytest.raises(ValueError, match="class_weight names 7"):
        DaggerTreeClassifier(max_depth=1, class_weight={7: 2}).fit(X, y)


@needs_cap
@pytest.mark.parametrize("k", [5, 0.1])
def test_min_samples_leaf_is_exact_and_beats_cart(k):
    """Every leaf holds at least k training rows, and CART's tree under the same
    min_samples_leaf and depth is one of the trees searched (thresholds="all"), so it has
    no fewer training errors."""
    X, y = load_iris(return_X_y=True)
    ours = DaggerTreeClassifier(max_depth=2, thresholds="all", min_samples_leaf=k).fit(X, y)
    least = k if isinstance(k, int) else int(np.ceil(k * y.size))
    sizes = [sum(leaf.counts) for leaf in _leaves_of(ours.tree_.root)]
    assert min(sizes) >= least
    cart = DecisionTreeClassifier(max_depth=2, min_samples_leaf=k, random_state=0).fit(X, y)
    assert (ours.predict(X) != y).sum() <= (cart.predict(X) != y).sum()
    free = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(X, y)
    assert (free.predict(X) != y).sum() <= (ours.predict(X) != y).sum()
    alone = DaggerTreeClassifier(max_depth=2, min_samples_leaf=10_000).fit(X, y)
    assert alone.tree_.root.is_leaf  # as scikit-learn's: the root is always a leaf


def _leaves_of(node):
    if node.is_leaf:
        return [node]
    return [leaf for _, child in node.children for leaf in _leaves_of(child)]
