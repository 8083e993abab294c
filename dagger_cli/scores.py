"""Scores of a classifier's false positives and negatives, read off an exact front.

F1 and balanced accuracy both grow as false positives or false negatives fall, so the tree
of the greatest score lies on the Pareto front of false positives against false negatives
(any other tree is dominated by one on it, whose score is no smaller): scanning that front
is exact. Scores are compared as exact fractions; ties go to the first point of the front
(the fewest false positives).

>>> str(f1(tp=6, fp=1, fn=1)), str(balanced_accuracy(tp=6, fp=1, fn=1, negatives=4))
('6/7', '45/56')
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def f1(tp: int, fp: int, fn: int) -> Fraction:
    """``2 TP / (2 TP + FP + FN)`` (0 when nothing is positive, predicted or true)."""
    den = 2 * tp + fp + fn
    return Fraction(2 * tp, den) if den else Fraction(0)


def balanced_accuracy(tp: int, fp: int, fn: int, negatives: int) -> Fraction:
    """The mean of the true positive and true negative rates (of the classes present)."""
    rates = []
    if tp + fn:
        rates.append(Fraction(tp, tp + fn))
    if negatives:
        rates.append(Fraction(negatives - fp, negatives))
    return sum(rates, Fraction(0)) / len(rates) if rates else Fraction(0)


SCORES = {"f1": "F1", "balanced-accuracy": "balanced accuracy"}


def class_split(table) -> tuple[int, int]:
    """The positive and the negative rows of a table with a positive class (their weight
    in the weighting's units when weighted)."""
    w = table.weighting
    totals = np.bincount(
        table.decisions, weights=w.rows, minlength=len(table.decision_values)
    ).astype(np.int64)
    positives = int(totals[w.positive])
    return positives, int(totals.sum()) - positives


def score_value(score: str, positives: int, negatives: int, fp: int, fn: int) -> Fraction:
    """The ``score`` ("f1" or "balanced-accuracy") of a tree of ``fp`` false positives and
    ``fn`` false negatives against ``positives`` and ``negatives``."""
    tp = positives - fn
    return f1(tp, fp, fn) if score == "f1" else balanced_accuracy(tp, fp, fn, negatives)


def score_line(table, score: str, fp: int, fn: int) -> str:
    """The line that says a tree's ``score`` and its counts (in the table's weight units
    when weighted)."""
    w = table.weighting
    positives, negatives = class_split(table)
    value = score_value(score, positives, negatives, fp, fn)
    label = table.decision_values[w.positive]
    line = (
        f"{SCORES[score]} = {float(value):.6g} ({value}): true positives {positives - fn}, "
        f"false positives {fp}, false negatives {fn} of {positives} positive ({label!s}) and "
        f"{negatives} negative"
    )
    if not w.plain and w.scale != 1:
        line += f" (in units of 1/{w.scale:,} of a row of weight 1)"
    return line


def best_point(relation, score: str) -> tuple[int, str]:
    """The index of the point of greatest ``score`` ("f1" or "balanced-accuracy") on a
    front of false positives (x) against false negatives (y), and a line saying it (in the
    table's weight units when weighted)."""
    table = relation.table
    positives, negatives = class_split(table)
    front = relation.front
    best, best_k = Fraction(-1), 0
    for k, (fp, fn) in enumerate(zip(front.x.tolist(), front.y.tolist())):
        value = score_value(score, positives, negatives, fp, fn)
        if value > best:
            best, best_k = value, k
    return best_k, score_line(table, score, int(front.x[best_k]), int(front.y[best_k]))
