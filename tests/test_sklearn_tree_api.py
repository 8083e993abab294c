"""The estimator's tree API (apply, decision_path, depth, leaves, importances) and its export
to a fitted scikit-learn tree: the same predictions on the training rows, drawn by
scikit-learn's own exporters."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sklearn")

from sklearn.datasets import load_iris, load_wine  # noqa: E402
from sklearn.tree import export_graphviz, export_text, plot_tree  # noqa: E402

from dagger_cli.sklearn import DaggerTreeClassifier, _float32_cut  # noqa: E402


def _fits():
    """Fitted estimators on their training rows: threshold splits, a leaf, missing values,
    multiway splits on numbers."""
    X, y = load_iris(return_X_y=True)
    yield DaggerTreeClassifier(max_depth=3, thresholds="all").fit(X, y), X, y
    yield DaggerTreeClassifier(max_depth=3, alpha=1.0).fit(X, y), X, y  # a single leaf
    Xw, yw = load_wine(return_X_y=True, as_frame=True)
    Xw = Xw.iloc[:, :5]
    yield DaggerTreeClassifier(max_depth=2, thresholds=8).fit(Xw, yw), Xw, yw
    rng = np.random.default_rng(3)
    holes = X.copy()
    holes[rng.random(X.shape) < 0.15] = np.nan  # filled by each column's median
    yield DaggerTreeClassifier(max_depth=2, thresholds=6).fit(holes, y), holes, y
    small = rng.integers(0, 4, size=(80, 3)).astype(float)
    small[rng.random(small.shape) < 0.1] = np.nan
    labels = (small[:, 0] + np.nan_to_num(small[:, 1]) > 3).astype(int) ^ (rng.random(80) < 0.1)
    yield DaggerTreeClassifier(max_depth=2, thresholds=None).fit(small, labels), small, labels


FITS = list(_fits())
IDS = ["iris", "leaf", "wine-frame", "missing", "multiway"]


@pytest.mark.parametrize("clf, X, y", FITS, ids=IDS)
def test_the_export_predicts_as_the_estimator_on_its_training_rows(clf, X, y):
    sk = clf.to_sklearn()
    assert list(sk.predict(X)) == list(clf.predict(X))
    assert np.array_equal(sk.predict_proba(X), clf.predict_proba(X))
    assert sk.get_n_leaves() >= clf.get_n_leaves() and sk.get_depth() >= clf.get_depth()
    assert list(sk.classes_) == list(clf.classes_)


@pytest.mark.parametrize("clf, X, y", FITS[:4], ids=IDS[:4])
def test_apply_and_decision_path_are_the_exported_trees(clf, X, y):
    """Threshold splits only: one node of the export per node, numbered alike."""
    sk = clf.to_sklearn()
    leaves = clf.apply(X)
    assert np.array_equal(leaves, sk.apply(X))
    path = clf.decision_path(X)
    assert path.shape == (len(y), sk.tree_.node_count)
    assert (path != sk.decision_path(X)).nnz == 0
    assert clf.get_depth() == sk.get_depth() == clf.tree_.costs()["depth"]
    assert clf.get_n_leaves() == sk.get_n_leaves() == clf.tree_.costs()["leaves"]


@pytest.mark.parametrize("clf, X, y", FITS, ids=IDS)
def test_apply_and_decision_path_agree_with_predict(clf, X, y):
    nodes = {k: node for k, node in enumerate(clf._preorder()[0])}
    stops = clf.apply(X)
    by_node = [clf.classes_[int(np.argmax(nodes[k].counts))] for k in stops]
    assert list(by_node) == list(clf.predict(X))
    path = clf.decision_path(X).tocsr()
    for i in range(len(y)):
        on = path.indices[path.indptr[i] : path.indptr[i + 1]]
        assert on[0] == 0 and on[-1] == stops[i]  # from the root to where the row stops
        for parent, child in zip(on[:-1], on[1:]):  # each node a child of the one before
            assert any(c is nodes[child] for _, c in nodes[parent].children)


@pytest.mark.parametrize("clf, X, y", FITS, ids=IDS)
def test_feature_importances_are_the_shares_of_the_total_path_length(clf, X, y):
    """Counted here from the decision paths: the training rows through each split."""
    imp = clf.feature_importances_
    assert imp.shape == (clf.n_features_in_,)
    path = clf.decision_path(X)
    through = np.asarray(path.sum(axis=0)).ravel()
    rows = np.zeros(clf.n_features_in_)
    names = list(clf._names())
    for k, node in enumerate(clf._preorder()[0]):
        if not node.is_leaf:
            rows[names.index(clf.tree_.node_label(node))] += through[k]
    total = clf.tree_.costs()["total_path_length"]
    assert rows.sum() == total
    if total:
        assert np.allclose(imp, rows / total) and np.isclose(imp.sum(), 1.0)
    else:
        assert not imp.any()


def test_scikit_learn_draws_an_exported_tree():
    X, y = load_iris(return_X_y=True, as_frame=True)
    clf = DaggerTreeClassifier(max_depth=2, thresholds="all").fit(X, y)
    sk = clf.to_sklearn()
    text = export_text(sk, feature_names=list(X.columns))
    for node in clf._preorder()[0]:
        if not node.is_leaf:
            assert clf.tree_.node_label(node) in text
    assert text.count("class:") == clf.get_n_leaves()
    import matplotlib.pyplot as plt

    try:
        drawn = plot_tree(sk, feature_names=list(X.columns), class_names=["a", "b", "c"])
        boxes = [t.get_text() for t in drawn if "samples = " in t.get_text()]
        assert len(boxes) == sk.tree_.node_count
        assert sum("<=" in box for box in boxes) == sk.tree_.node_count - sk.get_n_leaves()
        assert "samples = 150" in boxes[0]
    finally:
        plt.close("all")
    assert export_graphviz(sk).startswith("digraph")


def test_a_categorical_split_is_not_exported():
    pd = pytest.importorskip("pandas")
    X = pd.DataFrame({"color": pd.Categorical(["red", "blue", "green", "red"] * 10)})
    y = (X.color == "red").to_numpy()
    clf = DaggerTreeClassifier(max_depth=1).fit(X, y)
    with pytest.raises(ValueError, match="categorical column 'color'"):
        clf.to_sklearn()


def test_values_that_are_one_float32_number_are_not_exported():
    X = np.array([[1.0], [1.0 + 1e-12]] * 5)
    y = np.array([0, 1] * 5)
    clf = DaggerTreeClassifier(max_depth=1, thresholds="all").fit(X, y)
    assert (clf.predict(X) == y).all()  # float64 tells them apart
    with pytest.raises(ValueError, match="one float32 number"):
        clf.to_sklearn()


def test_a_threshold_moves_to_separate_the_float32_numbers():
    lo, hi = 1 + 0.6e-7, 1 + 1.8e-7
    a, b = float(np.float32(lo)), float(np.float32(hi))
    assert a < b
    cut = _float32_cut(lo, hi, lo + 0.1e-7)  # below float32(lo): moved
    assert a <= cut < b
    assert _float32_cut(lo, hi, a) == a  # already separating: kept


def test_the_tree_api_needs_a_fit():
    from sklearn.exceptions import NotFittedError

    clf = DaggerTreeClassifier()
    for call in (clf.get_depth, clf.get_n_leaves, clf.to_sklearn):
        with pytest.raises(NotFittedError):
            call()
    assert not hasattr(clf, "feature_importances_")
