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
from fractions import Fraction
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
    """One fold: the training front and every point's errors on the held-out rows.

    With weighted rows, class weights or prices (:mod:`dagger_cli.weights`) the held-out
    errors are the weighted (priced) sum over the held-out rows, and ``units`` says what
    they count in: units of 1/``units`` of a row of weight 1 (at price 1), the units of the
    training front's misclassifications; ``train_weight`` and ``heldout_weight`` are the
    two parts' weights in those units, so each error over its weight is a rate (a mean
    price per unit of weight under prices)."""

    fold: str
    front: Front  #: the front of the training part (the best found, under a time limit)
    train_rows: int  #: rows of the prepared training table (after merging)
    heldout_rows: int
    #: per front point (an int; a float when held-out weights need a finer unit than the
    #: training part's)
    heldout_errors: np.ndarray
    #: "exact", or how the training front's search was cut short ("time_limit")
    status: str = "exact"
    #: ``((column, value), rows)``: held-out cells that stopped rows at a split (the most
    #: rows over the fold's trees)
    unseen: tuple = ()
    #: weighted validation: units per row of weight 1 of the errors and weights (None:
    #: unweighted, every row counts 1 and the weights are the rows)
    units: int | None = None
    train_weight: int | float | None = None
    heldout_weight: int | float | None = None
    #: weighted validation: what the errors count ("weighted misclassifications", "priced
    #: misclassifications": :attr:`dagger_cli.weights.Weighting.label`)
    counted: str | None = None

    @property
    def train_total(self) -> float:
        """What the training errors are a rate of: the training weight, or rows."""
        return float(self.train_rows if self.train_weight is None else self.train_weight)

    @property
    def heldout_total(self) -> float:
        """What the held-out errors are a rate of: the held-out weight, or rows."""
        return float(self.heldout_rows if self.heldout_weight is None else self.heldout_weight)

    def records(self) -> list[dict]:
        out = []
        for rec, errors in zip(self.front.records(), self.heldout_errors.tolist()):
            row = {
                "fold": self.fold,
                **rec,
                "train_rows": self.train_rows,
                "heldout_rows": self.heldout_rows,
                "heldout_errors": errors,
            }
            if self.units is not None:
                row["train_weight"] = self.train_weight
                row["heldout_weight"] = self.heldout_weight
                row["units"] = self.units
            out.append(row)
        return out


@dataclass(frozen=True)
class Pricing:
    """How weighted validation weighs and prices a row (None when the recipe has no row
    weights, class weights or prices): the weight column, the class weights' spec, and
    the price of every (true class, predicted class) pair of the table's classes (None:
    1 for a wrong decision). Class weights ``balanced`` are computed on each fold's
    training part (as scikit-learn computes them on the rows ``fit`` sees), and its
    held-out rows weigh by them."""

    weight: str | None
    class_weight: str | None
    prices: dict | None

    @classmethod
    def of(cls, raw: RawTable, labels) -> Pricing | None:
        r = raw.recipe
        if r.weight is None and r.class_weight is None and r.cost_matrix is None:
            return None
        from .weights import read_cost_matrix

        prices = None
        if r.cost_matrix is not None:
            known = [str(v) for v in labels]
            matrix = read_cost_matrix(r.cost_matrix, known)
            prices = {
                (t, p): matrix[i][j] for i, t in enumerate(known) for j, p in enumerate(known)
            }
        return cls(r.weight, r.class_weight, prices)

    def training_recipe(self, recipe: Recipe, labels) -> Recipe:
        """The recipe of a training part whose classes are ``labels``: class weights of
        classes it lacks left out (a rare class may sit in one fold), prices applied by
        :meth:`priced` (the table's price matrix has its classes only)."""
        from dataclasses import replace

        cw = self.class_weight
        if cw is not None and not _is_balanced(cw):
            given = _class_weight_pairs(cw)
            present = {str(v) for v in labels}
            kept = {k: v for k, v in given.items() if k in present}
            cw = ",".join(f"{k}={v}" for k, v in kept.items()) or None
        return replace(recipe, class_weight=cw, cost_matrix=None)

    def priced(self, table):
        """The training ``table`` with its part of the price matrix (itself without one)."""
        if self.prices is None:
            return table
        from fractions import Fraction

        w = table.weighting
        weights = None if w is None else [Fraction(int(v), w.scale) for v in w.rows]
        known = [str(v) for v in table.decision_values]
        matrix = [[self.prices[(t, p)] for p in known] for t in known]
        return table.weighted(
            weights,
            prices=matrix,
            min_leaf=None if w is None else w.min_leaf,
            positive=None if w is None or w.positive is None else known[w.positive],
        )

    def row_weights(self, table, raw: RawTable, rows) -> list:
        """The exact weight of each held-out row (``rows`` of ``raw``): its weight cell
        times its class's weight on the training ``table``."""
        from fractions import Fraction

        from .weights import Weighting, balanced, exact

        decision = raw.columns[raw.header.index(raw.decision)]
        classes = [decision[i] for i in rows]
        if self.weight is None:
            cells = [Fraction(1)] * len(rows)
        else:
            if self.weight not in raw.header:
                raise InputError(
                    f"{raw.source}: no column named {self.weight!r} for the row weights"
                )
            column = raw.columns[raw.header.index(self.weight)]
            lines = raw.lines

            def where(k):
                i = rows[k]
                return f"{raw.source}, line {lines[i]}" if lines else f"{raw.source}, row {i + 1}"

            text = [column[i] for i in rows]
            # The same checks as the training rows' (positive numbers, named by line).
            Weighting.make(text, decisions=[0] * len(rows), n_classes=1, where=where)
            cells = [exact(v, "weight") for v in text]
        cw: dict = {}
        if self.class_weight is not None:
            labels = [str(v) for v in table.decision_values]
            if _is_balanced(self.class_weight):
                cw = dict(zip(labels, balanced(table.decisions, len(labels))))
            else:
                cw = {
                    k: exact(v, f"class weight of {k!r}")
                    for k, v in _class_weight_pairs(self.class_weight).items()
                }
        return [c * cw.get(str(k), Fraction(1)) for c, k in zip(cells, classes)]

    def price(self, true: str, said: str):
        if self.prices is None:
            return int(true != said)
        return self.prices[(true, said)]


def _is_balanced(spec) -> bool:
    return isinstance(spec, str) and spec.strip().lower() == "balanced"


def _class_weight_pairs(spec: str) -> dict:
    """Class weights ``CLASS=W,...`` as ``{class: weight text}``."""
    out = {}
    for part in spec.split(","):
        if part.strip() and "=" in part:
            k, v = part.rsplit("=", 1)
            out[k.strip()] = v.strip()
    return out


def _exact_number(v):
    """An exact fraction as an int when it is one, else its float."""
    return int(v) if v.denominator == 1 else float(v)


def _heldout_errors(
    trees, raw: RawTable, rows, weights=None, pricing: Pricing | None = None, unit: int = 1
) -> tuple[np.ndarray, dict]:
    """Errors of every tree (one per front point) on the raw rows ``rows`` of ``raw``, and
    ``{(column, value): rows}``: the held-out cells that stopped a row at a split of some
    tree (:meth:`dagger_cli.trees.Tree.unseen`; said once per column by :func:`validate`).

    With ``weights`` (each row's exact weight) the errors are the sum over the rows of
    weight times the price of the tree's decision (``pricing``), times ``unit``."""
    import warnings

    import pandas as pd

    from .trees import UnseenValueWarning

    df = pd.DataFrame(
        {h: [raw.columns[j][i] for i in rows] for j, h in enumerate(raw.header)}, dtype=str
    )
    truth = raw.columns[raw.header.index(raw.decision)] if weights is not None else None
    stopped: dict = {}
    errors: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnseenValueWarning)
        for tree in trees:
            if not len(df):
                errors.append(0)
            elif weights is None:
                errors.append(tree.costs(df)["misclassifications"])
            else:
                assert pricing is not None and truth is not None
                said = tree.predict(df)
                total = sum(
                    w * pricing.price(truth[i], str(d)) for w, i, d in zip(weights, rows, said)
                )
                errors.append(_exact_number(total * unit))
            for key, n in (tree.unseen(df) if len(df) else {}).items():
                stopped[key] = max(stopped.get(key, 0), n)
    kind = np.int64 if all(isinstance(e, int) for e in errors) else np.float64
    return np.array(errors, dtype=kind), stopped


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
    raw,
    train,
    test,
    label,
    *,
    x,
    max_depth,
    max_subtables,
    max_memory,
    time_limit,
    test_raw=None,
    pricing: Pricing | None = None,
):
    from .data.table import from_columns

    lines = None if raw.lines is None else [raw.lines[i] for i in train]
    recipe = raw.recipe
    if pricing is not None:
        decision = raw.columns[raw.header.index(raw.decision)]
        recipe = pricing.training_recipe(recipe, {decision[i] for i in train})
    table = from_columns(
        raw.header, raw.subset(train), recipe, name=raw.name, source=raw.source, lines=lines
    )
    if pricing is not None:
        table = pricing.priced(table)
    front, trees, status = _front_and_trees(
        table, x, max_depth, max_subtables, max_memory, time_limit
    )
    held = test_raw if test_raw is not None else raw
    weighed: dict = {}
    if pricing is None:
        errors, stopped = _heldout_errors(trees, held, test)
    else:
        # Weighted: the held-out rows weigh as the training rows do (class weights of the
        # training part), their errors priced, all in the training front's units.
        w = table.weighting
        unit = 1 if w is None else w.unit
        scale = 1 if w is None else w.scale
        weights = pricing.row_weights(table, held, test)
        errors, stopped = _heldout_errors(trees, held, test, weights, pricing, unit)
        weighed = {
            "units": unit,
            "train_weight": _exact_number(Fraction(table.weight_total * unit, scale)),
            "heldout_weight": _exact_number(sum(weights, Fraction(0)) * unit),
            "counted": None if w is None else w.label,
        }
    return FoldResult(
        fold=label,
        front=front,
        train_rows=table.n_rows,
        heldout_rows=len(test),
        heldout_errors=errors,
        status=status,
        unseen=tuple(sorted(stopped.items())),
        **weighed,
    )


def _labels(*raws: RawTable) -> list:
    """The decision values of ``raws`` (in value order), the classes a price matrix needs."""
    values: dict = {}
    for raw in raws:
        if raw.decision in raw.header:
            for v in raw.columns[raw.header.index(raw.decision)]:
                values[v] = True
    return list(value_order(values))


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
        pricing = Pricing.of(raw, _labels(raw, aligned))
        out = [_fold(raw, everything, held, "test", test_raw=aligned, pricing=pricing, **opts)]
        _warn_stopped(out)
        return out
    assert folds is not None
    decision = raw.decision
    if decision not in raw.header:
        raise InputError(f"{raw.source}: no column named {decision!r}")
    fold_of = stratified_folds(raw.columns[raw.header.index(decision)], folds, seed)
    pricing = Pricing.of(raw, _labels(raw))
    out = []
    for k in range(folds):
        train = np.flatnonzero(fold_of != k).tolist()
        test_rows = np.flatnonzero(fold_of == k).tolist()
        out.append(_fold(raw, train, test_rows, str(k + 1), pricing=pricing, **opts))
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
    for total path length; per unit of weight with weighted rows), else x itself."""
    x = result.front.x.astype(np.float64)
    if result.front.x_cost.mean_column is not None:  # a per-row mean (average depth)
        return x / max(result.front.n_rows, 1)
    return x


def error_curves(result: FoldResult) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, training error rate, held-out error rate) of one fold's points: errors over
    rows, or, weighted, over weight (both in the fold's units)."""
    train = result.front.y / max(result.train_total, 1e-300)
    held = result.heldout_errors / (result.heldout_total or 1)
    return x_values(result), train, held


def rate_label(results: list[FoldResult]) -> str:
    """What the error rates of ``results`` are, for a plot's axis.

    >>> rate_label([])
    'error rate (misclassified rows / rows)'
    """
    counted = results[0].counted if results else None
    if counted is None:
        return "error rate (misclassified rows / rows)"
    if counted.startswith("priced"):
        return f"mean price per unit of weight ({counted} / weight)"
    return f"error rate ({counted} / weight)"


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
    "rate_label",
    "read_raw",
    "results_csv",
    "stratified_folds",
    "validate",
    "whole_front",
]
