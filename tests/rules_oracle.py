"""An independent brute force for decision rules: every conjunction of a row's values.

Nothing here imports ``dagger_cli``: plain lists in, plain tuples out. For row r of a
table (rows of attribute values, decisions), a rule is a set S of attributes, read as
the conjunction of ``attribute = r's value`` over S; its length is |S|, its coverage the
number of rows agreeing with r on S, its misclassifications those of them whose
decision is not r's. Every subset S (of size at most ``max_length``) is enumerated.
"""

from __future__ import annotations

from itertools import combinations

#: Each cost as a quantity to minimise.
SIGN = {"length": 1, "coverage": -1, "misclassifications": 1}


def row_rules(rows, decisions, r, max_length=None):
    """Every rule of row ``r``: (attribute subset, length, coverage, misclassifications)."""
    m = len(rows[0])
    top = m if max_length is None else min(m, max_length)
    out = []
    for k in range(top + 1):
        for subset in combinations(range(m), k):
            match = [i for i, row in enumerate(rows) if all(row[a] == rows[r][a] for a in subset)]
            mis = sum(1 for i in match if decisions[i] != decisions[r])
            out.append((subset, k, len(match), mis))
    return out


def evaluate(rows, decisions, r, attributes):
    """(length, coverage, misclassifications) of row ``r``'s rule on ``attributes``."""
    match = [i for i, row in enumerate(rows) if all(row[a] == rows[r][a] for a in attributes)]
    mis = sum(1 for i in match if decisions[i] != decisions[r])
    return len(attributes), len(match), mis


def front(rows, decisions, r, x, y, max_length=None, max_mis=None):
    """Row ``r``'s Pareto front of (x, y) over its rules with at most ``max_mis``
    misclassifications: a sorted list of (x, y, best third cost) with x's best value
    first; the third cost is the best one among the rules at that point."""
    index = {"length": 1, "coverage": 2, "misclassifications": 3}
    third = next(c for c in index if c not in (x, y))
    pts = []
    for rule in row_rules(rows, decisions, r, max_length):
        if max_mis is not None and rule[3] > max_mis:
            continue
        pts.append(tuple(SIGN[c] * rule[index[c]] for c in (x, y, third)))
    keep = set()
    for p in pts:
        dominated = any(q[0] <= p[0] and q[1] <= p[1] and (q[0], q[1]) != (p[0], p[1]) for q in pts)
        if not dominated:
            keep.add((p[0], p[1]))
    best = {}
    for p in pts:
        if (p[0], p[1]) in keep:
            best[(p[0], p[1])] = min(best.get((p[0], p[1]), p[2]), p[2])
    return [(SIGN[x] * a, SIGN[y] * b, SIGN[third] * c) for (a, b), c in sorted(best.items())]


def front_np(codes, decisions, r, x, y, max_length=None, max_mis=None):
    """:func:`front` for larger tables: ``codes`` an (N, m) numpy array, ``decisions``
    a numpy array; the subsets are walked depth first, each one's matching rows the
    parent's ANDed with one attribute's agreement with row r (numpy, still every
    subset)."""
    import numpy as np

    codes = np.asarray(codes)
    n, m = codes.shape
    agree = codes == codes[r]
    wrong = np.asarray(decisions) != decisions[r]
    top = m if max_length is None else min(m, max_length)
    index = {"length": 0, "coverage": 1, "misclassifications": 2}
    third = next(c for c in index if c not in (x, y))
    best = {}

    def visit(match, k, start):
        cov = int(match.sum())
        mis = int((match & wrong).sum())
        if max_mis is None or mis <= max_mis:
            vals = (k, cov, mis)
            key = (SIGN[x] * vals[index[x]], SIGN[y] * vals[index[y]])
            t = SIGN[third] * vals[index[third]]
            best[key] = min(best.get(key, t), t)
        if k < top:
            for a in range(start, m):
                visit(match & agree[:, a], k + 1, a + 1)

    visit(np.ones(n, dtype=bool), 0, 0)
    keys = sorted(best)
    out = []
    least = None
    for a, b in keys:  # x ascending (as minimised), then y: keep strict improvements of y
        if least is None or b < least:
            out.append((SIGN[x] * a, SIGN[y] * b, SIGN[third] * best[(a, b)]))
            least = b
    return out
