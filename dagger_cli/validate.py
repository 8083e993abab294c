"""Held-out error along the front (``dagger validate``).

The exact front is a training-set object: its last point classifies the training rows best,
and nothing on it says which point generalises. :func:`validate` splits the raw rows into K
stratified folds (or takes a separate test file); for every fold it prepares the training
part with the user's recipe (so thresholds, bins, missing-value fills and merges see only
training rows), computes its front, extracts the tree of every point and counts that tree's
errors on the held-out rows, routed on their raw values as
:meth:`dagger_cli.trees.Tree.predict` routes them: a missing value reads as the value the
training part's missing values were filled with (a numeric column's median, another
column's most common value, ``?`` under ``--missing value``), as the estimator's
``predict`` reads it; a value no training row of a split had stops the row at that node.
Such stops are said once per column, over every fold and every point's tree.

Folds (:func:`stratified_folds`) are made with numpy alone, so the command needs no
scikit-learn: the rows of each decision value (in value order) are shuffled by a generator
seeded with ``seed`` and dealt round-robin to the folds, continuing from where the previous
value stopped, so every fold has each decision in proportion and the fold sizes differ by at
most one. Same table, options and seed: same folds, same bytes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .data.recipe import Recipe
from .errors import InputError
from .fronts import Front
from .output import value_text
from .values import value_order


@dataclass(frozen=True)
class RawTable:
    """A table's raw cells, before any preparation (column-major strings)."""

    name: str
    source: str
    header: list
    columns: list
    lines: list | None
    recipe: Recipe  #: the user's recipe over the dataset's own (not yet resolved)

    @property
    def decision(self) -> str:
        chosen = self.recipe.resolved().decision
        return self.header[-1] if chosen is None else chosen

    @property
    def n_rows(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def subset(self, rows) -> list:
        return [[col[i] for i in rows] for col in self.columns]


def read_raw(
    source, recipe: Recipe | None = None, *, file_only: bool = False, sep: str | None = None
) -> RawTable:
    """The raw cells of a registered dataset (with its own recipe under ``recipe``) or a CSV
    file (always a file with ``file_only``)."""
    from .data.compression import stem
    from .data.datasets import is_registered, read_records
    from .data.table import read_csv

    recipe = recipe or Recipe()
    text = os.fspath(source)
    if not file_only and is_registered(text) and not Path(text).exists():
        ds, records = read_records(text)
        columns = [[r[j].strip() for r in records] for j in range(len(ds.columns))]
        return RawTable(ds.name, ds.name, list(ds.columns), columns, None, recipe.over(ds.recipe))
    names, columns, lines, _ = read_csv(text, sep=sep)
    return RawTable(stem(text), text, list(names), columns, lines, recipe)


def stratified_folds(labels, k: int, seed: int = 0) -> np.ndarray:
    """The fold (0 .. k-1) of every row, stratified by ``labels`` (see the module docstring).

    >>> stratified_folds(list("aaaabbbb"), 2, seed=1).tolist().count(0)
    4
    """
    labels = list(labels)
    n = len(labels)
    if isinstance(k, bool) or not isinstance(k, int) or k < 2:
        raise InputError(f"the number of folds must be an integer of at least 2, got {k!r}")
    if k > n:
        raise InputError(f"{k} folds for {n} rows: give at most {n} folds")
    rng = np.random.default_rng(seed)
    fold = np.empty(n, dtype=np.int64)
    offset = 0
    by_value: dict = {}
    for i, v in enumerate(labels):
        by_value.setdefault(v, []).append(i)
    for v in value_order(by_value):
        rows = rng.permutation(np.array(by_value[v], dtype=np.int64))
        fold[rows] = (offset + np.arange(rows.size)) % k
        offset += rows.size
    return fold


@dataclass(frozen=True)
class FoldResult:
    """One fold: the training front and every point's errors on the held-out rows."""

    fold: str
    front: Front  #: the front of the training part (the best found, under a time limit)
    train_rows: int  #: rows of the prepared training table (after merging)
    heldout_rows: int
    heldout_errors: np.ndarray  #: per front point
    #: "exact", or how the training front's search was cut short ("time_limit")
    status: str = "exact"
    #: ``((column, value), rows)``: held-out cells that stopped rows at a split (the most
    #: rows over the fold's trees)
    unseen: tuple = ()

    def records(self) -> list[dict]:
        out = []
        for rec, errors in zip(self.front.records(), self.heldout_errors.tolist()):
            out.append(
                {
                    "fold": self.fold,
                    **rec,
                    "train_rows": self.train_rows,
                    "heldout_rows": self.heldout_rows,
                    "heldout_errors": errors,
                }
            )
        return out


def _heldout_errors(trees, raw: RawTable, rows) -> tuple[np.ndarray, dict]:
    """Errors of every tree (one per front point) on the raw rows ``rows`` of ``raw``, and
    ``{(column, value): rows}``: the held-out cells that stopped a row at a split of some
    tree (:meth:`dagger_cli.trees.Tree.unseen`; said once per column by :func:`validate`)."""
    import warnings

    import pandas as pd

    from .trees import UnseenValueWarning

    df = pd.DataFrame(
        {h: [raw.columns[j][i] for i in rows] for j, h in enumerate(raw.header)}, dtype=str
    )
    stopped: dict = {}
    errors = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnseenValueWarning)
        for tree in trees:
            errors.append(tree.costs(df)["misclassifications"] if len(df) else 0)
            for key, n in (tree.unseen(df) if len(df) else {}).items():
                stopped[key] = max(stopped.get(key, 0), n)
    return np.array(errors, dtype=np.int64), stopped


def _warn_stopped(results) -> None:
    """One warning per column whose held-out values stopped rows at a split (a value no
    training row of the split had, or a missing value without a fill), over every fold
    and every point's tree."""
    import warnings

    from .trees import UnseenValueWarning
    from .values import MISSING_MARKERS

    by_column: dict = {}
    for r in results:
        for (column, value), n in r.unseen:
            counts = by_column.setdefault(column, {})
            counts[value] = counts.get(value, 0) + n
    held = sum(r.heldout_rows for r in results)
    for column, counts in by_column.items():
        new = {v: n for v, n in counts.items() if v not in MISSING_MARKERS}
        missing = sum(n for v, n in counts.items() if v in MISSING_MARKERS)
        parts = []
        if new:
            shown = sorted(new, key=lambda v: (-new[v], v))
            values = ", ".join(map(repr, shown[:5])) + (", ..." if len(shown) > 5 else "")
            parts.append(
                f"{sum(new.values())} of {held} held-out row(s) have a value no training row "
                f"of a split on it had ({values})"
            )
        if missing:
            parts.append(
                f"{missing} of {held} held-out row(s) have a missing value, which the "
                "training table has no fill for (--missing error)"
            )
        warnings.warn(
            UnseenValueWarning(
                f"column {column!r}: {' and '.join(parts)}; each stopped at that split and "
                "got its decision (counted once per fold, for the tree that stopped most)"
            ),
            stacklevel=3,
        )


def _front_and_trees(table, x, max_depth, max_subtables, max_memory="auto", time_limit=None):
    """The training front, the tree of every point and the front's status (numeric columns
    under a cap by the ordered solver, :mod:`dagger_cli.engine.ordered`; else by the DAG
    engine; both exact; with ``time_limit``, the best front found in that time)."""
    from .engine.api import solve
    from .engine.query import Query
    from .trees import extract_trees

    query = Query(
        x,
        "misclassifications",
        max_depth=max_depth,
        max_subtables=max_subtables,
        max_memory=max_memory,
        time_limit=time_limit,
    )
    rel = solve(table, query)
    return rel.front, extract_trees(rel, range(len(rel.front))), rel.status


def _fold(
    raw, train, test, label, *, x, max_depth, max_subtables, max_memory, time_limit, test_raw=None
):
    from .data.table import from_columns

    lines = None if raw.lines is None else [raw.lines[i] for i in train]
    table = from_columns(
        raw.header, raw.subset(train), raw.recipe, name=raw.name, source=raw.source, lines=lines
    )
    front, trees, status = _front_and_trees(
        table, x, max_depth, max_subtables, max_memory, time_limit
    )
    held = test_raw if test_raw is not None else raw
    errors, stopped = _heldout_errors(trees, held, test)
    return FoldResult(
        fold=label,
        front=front,
        train_rows=table.n_rows,
        heldout_rows=len(test),
        heldout_errors=errors,
        status=status,
        unseen=tuple(sorted(stopped.items())),
    )


def _binned(raw: RawTable) -> RawTable:
    """``bins`` applied to all rows at once (interval labels are the attribute values, so a
    held-out row needs the same intervals); the recipe then has no bins left."""
    from dataclasses import replace

    from .data.discretize import discretize

    bins = raw.recipe.bins
    if bins is None:
        return raw
    skip = (raw.decision, *(raw.recipe.resolved().drop or ()))
    columns, _ = discretize(raw.header, raw.columns, bins, skip=skip)
    return replace(raw, columns=columns, recipe=replace(raw.recipe, bins=None))


def validate(
    raw: RawTable,
    *,
    folds: int | None = None,
    seed: int = 0,
    test: RawTable | None = None,
    x: str = "total-path-length",
    max_depth: int | None = None,
    max_subtables: int | None = None,
    max_memory="auto",
    time_limit: float | None = None,
) -> list[FoldResult]:
    """The front of every training part and its held-out errors.

    Parameters
    ----------
    raw : RawTable
        The table (:func:`read_raw`).
    folds : int, optional
        K stratified folds: fold ``k`` (1..K) trains on the other folds' rows.
    seed : int
        Seed of the fold assignment.
    test : RawTable, optional
        Instead of folds: train on all of ``raw`` and hold out these rows (fold ``test``).
    x : str
        The cost traded against misclassifications.
    max_depth : int, optional
        Only trees of at most this depth.
    max_subtables : int, optional
        Limit of the engine, as in :func:`dagger_cli.engine.relate`.
    max_memory : int, str or None
        The engine's memory ceiling, as in :func:`dagger_cli.engine.relate` (default: 80 %
        of the memory available at start).
    time_limit : float, optional
        Seconds per fold: its training front is the best found in them (each point marked
        proven or not, :mod:`dagger_cli.engine.anytime`); the held-out errors are those of
        its real trees.
    """
    if (folds is None) == (test is None):
        raise InputError("give either --folds K or --test FILE")
    r = raw.recipe
    if r.weight is not None or r.class_weight is not None or r.cost_matrix is not None:
        raise InputError(
            "validation does not read row weights, class weights or prices yet; `dagger "
            "relate` and `dagger tree` give the exact weighted front and its trees"
        )
    if test is not None and raw.recipe.bins is not None:
        raise InputError(
            "--bins with --test: the test file's numbers would need the table's intervals; "
            "use --thresholds all|K (threshold splits read raw numbers) or --folds"
        )
    raw = _binned(raw)
    opts = {
        "x": x,
        "max_depth": max_depth,
        "max_subtables": max_subtables,
        "max_memory": max_memory,
        "time_limit": time_limit,
    }
    if test is not None:
        missing = [h for h in raw.header if h not in test.header]
        if missing:
            raise InputError(
                f"{test.source}: no column(s) {', '.join(map(repr, missing))} of {raw.name}"
            )
        aligned = RawTable(
            test.name,
            test.source,
            list(raw.header),
            [test.columns[test.header.index(h)] for h in raw.header],
            test.lines,
            raw.recipe,
        )
        everything = list(range(raw.n_rows))
        held = list(range(aligned.n_rows))
        out = [_fold(raw, everything, held, "test", test_raw=aligned, **opts)]
        _warn_stopped(out)
        return out
    assert folds is not None
    decision = raw.decision
    if decision not in raw.header:
        raise InputError(f"{raw.source}: no column named {decision!r}")
    fold_of = stratified_folds(raw.columns[raw.header.index(decision)], folds, seed)
    out = []
    for k in range(folds):
        train = np.flatnonzero(fold_of != k).tolist()
        test_rows = np.flatnonzero(fold_of == k).tolist()
        out.append(_fold(raw, train, test_rows, str(k + 1), **opts))
    _warn_stopped(out)
    return out


def whole_front(
    raw: RawTable,
    *,
    x: str = "total-path-length",
    max_depth: int | None = None,
    max_subtables: int | None = None,
):
    """The prepared table of all of ``raw``'s rows, its front and the tree of every point
    (what ``dagger validate --report`` draws the held-out errors along)."""
    from .data.table import from_columns

    raw = _binned(raw)
    table = from_columns(
        raw.header, raw.columns, raw.recipe, name=raw.name, source=raw.source, lines=raw.lines
    )
    front, trees, _ = _front_and_trees(table, x, max_depth, max_subtables)
    return table, front, trees


def results_csv(results: list[FoldResult]) -> str:
    """One line per (fold, front point): fold, the costs, training and held-out counts."""
    recs = [r for res in results for r in res.records()]
    cols = max((list(r) for r in recs), key=len) if recs else ["fold"]
    # A fold cut short by a time limit marks its points proven or not; an exact fold's are.
    exact = {"proven": True, "gap": 0}
    lines = [",".join(cols)]
    lines += [",".join(value_text(rec.get(c, exact.get(c))) for c in cols) for rec in recs]
    return "\n".join(lines) + "\n"


def x_values(result: FoldResult) -> np.ndarray:
    """The plotted x of every point: its per-row mean for a cost that has one (average depth
    for total path length), else x itself."""
    x = result.front.x.astype(np.float64)
    if result.front.x_cost.mean_column is not None:  # a per-row mean (average depth)
        return x / result.train_rows
    return x


def error_curves(result: FoldResult) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, training error rate, held-out error rate) of one fold's points."""
    train = result.front.y / result.train_rows
    held = result.heldout_errors / max(result.heldout_rows, 1)
    return x_values(result), train, held


def mean_curves(results: list[FoldResult]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The folds' mean error rates on the union of their x values.

    At a value v each fold contributes its point with the largest x <= v (the tree F gives
    for that budget), so each fold's curve is the step function its front defines.
    """
    grid = np.unique(np.concatenate([x_values(r) for r in results]))
    trains, helds = [], []
    for r in results:
        x, train, held = error_curves(r)
        k = np.searchsorted(x, grid, side="right") - 1  # x[0] is the least: k >= 0 from there
        k = np.maximum(k, 0)
        trains.append(train[k])
        helds.append(held[k])
    return grid, np.mean(trains, axis=0), np.mean(helds, axis=0)


__all__ = [
    "FoldResult",
    "RawTable",
    "error_curves",
    "mean_curves",
    "read_raw",
    "results_csv",
    "stratified_folds",
    "validate",
    "whole_front",
]
