"""Weights and prices: rows that count as several, classes that count more, a price for
every (true class, predicted class) pair.

The cost algebra of :mod:`dagger_cli.costs` reads a subtable through two numbers: ``n``,
its rows, and ``mis``, the rows its leaf misclassifies. Weights and prices generalise both
without changing a rule:

* ``n`` becomes the subtable's **weight** ``W = sum of its rows' weights`` (a row of
  weight k counts as k copies of it in every cost that counts rows: total path length,
  misclassifications);
* a leaf's decision is the one of **least price** ``sum_c W_c * P[c][d]`` over the
  classes c of its rows (``W_c`` their weight, ``P`` the price matrix, by default
  ``1 - I``: the price of a wrong decision is 1), and ``mis`` is that least price;
  ties go to the decision first in the table's decision order (ascending labels), as
  the unweighted "most common decision" does.

Depth, nodes and leaves never read ``n`` or ``mis``, so they are unchanged. Since the
DAG of subtables does not depend on weights, every engine runs as before on these two
per-subtable numbers (:meth:`Weighting.terms`).

A **minimum leaf size** k (scikit-learn's ``min_samples_leaf``, STreeD's
``min_leaf_node_size``: rows, not weight; a split is allowed only if each child holds k
rows, so the whole table is always a leaf) is one more leaf price: a leaf of fewer than k
rows, below the root, costs :attr:`Weighting.infeasible`, more than every tree of leaves
of k rows or more can cost, so the fronts over all trees, restricted to the points below
it, are exactly the fronts over the trees whose every leaf holds k rows (such a point is
never dominated by a tree with a small leaf, whose cost is at least that much).

Exactness: every weight, class weight and price is read as an exact rational number
(decimal text such as ``0.1`` is exactly 1/10, never a binary float); all of them are
brought to integers by one common denominator, the **scale** (1 for integer weights), and
every output counts in those units (the CLI says so when the scale is not 1). Nothing is
rounded. Weights must be positive, prices non-negative.

>>> w = Weighting.make(["2", "0.5", "1"], decisions=[0, 1, 1], n_classes=2)
>>> w.scale, w.rows.tolist()
(2, [4, 1, 2])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .errors import InputError

#: The kernels hold a subtable's weight and its leaf's price in 32-bit integers.
LIMIT = 2**31 - 1
#: The largest denominator a float is read back to (2/3 from 0.6666666666666666).
FLOAT_DENOMINATOR = 10**6
#: The largest common denominator taken (a decimal grid of 10^-6 and its like).
MAX_SCALE = 10**9


def exact(text, what: str) -> Fraction:
    """``text`` (a number, or its decimal or ``p/q`` text) as an exact fraction; ``what``
    names it in the error (which file, line and column).

    >>> exact("0.1", "w"), exact(3, "w"), exact("1e-2", "w"), exact(2 / 3, "w")
    (Fraction(1, 10), Fraction(3, 1), Fraction(1, 100), Fraction(2, 3))
    """
    if isinstance(text, Fraction):
        return text
    if isinstance(text, (bool, np.bool_)):
        raise InputError(f"{what}: {text!r} is not a number")
    if isinstance(text, (int, np.integer)):
        return Fraction(int(text))
    if isinstance(text, (float, np.floating)):
        x = float(text)
        if not math.isfinite(x):
            raise InputError(f"{what}: {text!r} is not a finite number")
        # The shortest decimal that reads back as this float: what the user typed; or, for
        # a float computed as a fraction (2/3), that fraction when it reads back the same.
        typed = Fraction(repr(x))
        if typed.denominator <= FLOAT_DENOMINATOR:
            return typed
        made = Fraction(x).limit_denominator(FLOAT_DENOMINATOR)
        return made if float(made) == x else typed
    s = str(text).strip()
    try:
        value = Fraction(s)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{what}: {s!r} is not a number") from None
    return value


@dataclass(frozen=True, eq=False)
class Weighting:
    """Row weights and a price matrix as integers over one common denominator.

    ``rows[i]`` is row i's weight times ``scale`` (class weights already folded in);
    ``prices[c, d]`` the price of deciding d for a row of class c, times ``price_scale``
    (None: 1 for a wrong decision, 0 for a right one). ``label`` says in outputs what the
    cost ``misclassifications`` then counts.
    """

    rows: np.ndarray
    scale: int = 1
    prices: np.ndarray | None = None
    price_scale: int = 1
    label: str = "weighted misclassifications"
    #: the least rows of a leaf (1: any leaf)
    min_leaf: int = 1
    #: the positive class's code, for false positives and negatives (None: none chosen)
    positive: int | None = None

    @classmethod
    def make(
        cls,
        weights: Sequence | None = None,
        *,
        decisions: Sequence[int] | np.ndarray,
        n_classes: int,
        class_weight: Sequence | None = None,
        prices: Sequence[Sequence] | None = None,
        where=None,
        min_leaf: int = 1,
    ) -> Weighting:
        """The weighting of rows ``weights`` (None: 1 each), class weights per class code
        (None: 1 each) and a price matrix (None: ``1 - I``). ``where(i)`` names row i in
        errors (a file's line)."""
        dec = np.asarray(decisions, dtype=np.int64)
        n = dec.size

        def name(i):
            return where(i) if where is not None else f"row {i + 1}"

        if weights is None:
            w = [Fraction(1)] * n
        else:
            if len(weights) != n:
                raise InputError(f"{len(weights)} weights for {n} rows")
            from .values import MISSING_MARKERS

            for i, v in enumerate(weights):
                if isinstance(v, str) and v.strip() in MISSING_MARKERS:
                    raise InputError(
                        f"{name(i)}: the weight is missing ({v!r}); every row needs a "
                        "positive weight (fill it in or remove the row)"
                    )
            w = [exact(v, f"{name(i)}: weight") for i, v in enumerate(weights)]
            for i, v in enumerate(w):
                if v <= 0:
                    raise InputError(
                        f"{name(i)}: weight {weights[i]!r} is not positive; every row's "
                        "weight must be > 0 (drop a row to give it no weight)"
                    )
        cw = [Fraction(1)] * n_classes
        if class_weight is not None:
            cw = [exact(v, f"class weight {k}") for k, v in enumerate(class_weight)]
            for k, v in enumerate(cw):
                if v <= 0:
                    raise InputError(f"class weight {class_weight[k]!r} is not positive")
        rw = [w[i] * cw[int(dec[i])] for i in range(n)]
        advice = None if class_weight is None else ROUND_CLASS_WEIGHTS
        scale = _common_denominator(rw, "the row weights", advice)
        ints = np.array([int(v * scale) for v in rw], dtype=np.int64)
        p = None
        pscale = 1
        if prices is not None:
            fp = [
                [exact(v, f"price [{c}][{d}]") for d, v in enumerate(row)]
                for c, row in enumerate(prices)
            ]
            if any(v < 0 for row in fp for v in row):
                raise InputError("a price is negative; prices must be >= 0")
            pscale = _common_denominator([v for row in fp for v in row], "the prices")
            p = np.array([[int(v * pscale) for v in row] for row in fp], dtype=np.int64)
        top = int(ints.sum()) * (int(p.max()) if p is not None and p.size else 1)
        if top + 1 > LIMIT:
            raise InputError(
                f"the weights add up to {top:,} units (at a scale of {scale * pscale:,} "
                f"units per row of weight 1), more than the engine's limit of {LIMIT:,}; "
                + (advice or "give weights with fewer decimals or smaller numbers")
            )
        if p is not None:
            label = "priced misclassifications"
        elif weights is None and class_weight is None:
            label = "misclassifications"
        else:
            label = "weighted misclassifications"
        return cls(ints, scale, p, pscale, label, check_min_leaf(min_leaf))

    @property
    def infeasible(self) -> int:
        """The price of a leaf of fewer than :attr:`min_leaf` rows: one more than any tree
        of larger leaves can cost in misclassifications, false positives or false
        negatives (these count weight, at most the rows' weight)."""
        most = int(self.prices.max()) if self.prices is not None and self.prices.size else 1
        return int(self.rows.sum()) * max(most, 1) + 1

    def too_small(self, sizes: np.ndarray) -> np.ndarray:
        """Per subtable of ``sizes`` rows whether its leaf costs :attr:`infeasible`: fewer
        rows than :attr:`min_leaf`, the whole table aside (the root is always a leaf)."""
        sizes = np.asarray(sizes)
        return (sizes < self.min_leaf) & (sizes < self.rows.size)

    def decision_leaves(self, totals: np.ndarray) -> tuple[np.ndarray, ...]:
        """Per subtable (rows of ``totals``: its classes' weights) the two decisions a leaf
        may take against the positive class, in code order: the positive class and the
        other one of least price, the heaviest without prices (the first on a tie): every
        other negative decision has the same false positives (0) and negatives and no
        fewer misclassifications, so these two leave out no point of any front. Returns
        the decisions (subtables x 2) and, for each, its misclassifications (price), false
        positives and false negatives."""
        assert self.positive is not None
        t = totals.astype(np.int64)
        nodes, classes = t.shape
        pos = self.positive
        prices = self.leaf_prices(t)
        others = prices.astype(np.float64)
        others[:, pos] = np.inf
        rest = np.argmin(others, axis=1) if classes > 1 else np.zeros(nodes, np.int64)
        first = np.minimum(rest, pos)
        dec = np.stack([first, np.where(first == pos, rest, pos)], axis=1)
        mis = np.take_along_axis(prices, dec, axis=1)
        on = dec == pos
        p = t[:, pos][:, None]
        fp = np.where(on, t.sum(axis=1, keepdims=True) - p, 0)
        fn = np.where(on, 0, p)
        return dec, mis, fp, fn

    @property
    def plain(self) -> bool:
        """Whether every row weighs 1 and a wrong decision costs 1 (a minimum leaf size
        alone)."""
        return self.label == "misclassifications"

    @property
    def unit(self) -> int:
        """Units of the cost ``misclassifications`` per misclassified row of weight 1."""
        return self.scale * self.price_scale

    def class_totals(self, decisions: np.ndarray, rows: np.ndarray, n_classes: int) -> np.ndarray:
        """The weight of each class among ``rows`` (int64, scale units)."""
        return np.bincount(decisions[rows], weights=self.rows[rows], minlength=n_classes).astype(
            np.int64
        )

    def leaf(self, totals: np.ndarray) -> tuple[int, int]:
        """``(decision, price)`` of a leaf whose classes weigh ``totals``: the decision of
        least price, the first on a tie."""
        cost = self.leaf_prices(totals[None, :])[0]
        d = int(np.argmin(cost))
        return d, int(cost[d])

    def leaf_prices(self, totals: np.ndarray) -> np.ndarray:
        """Per row of ``totals`` (subtables x classes) the price of each decision."""
        t = totals.astype(np.int64)
        if self.prices is None:
            return t.sum(axis=1, keepdims=True) - t
        return t @ self.prices

    def node_totals(
        self,
        decisions: np.ndarray,
        row_pool: np.ndarray,
        node_start: np.ndarray,
        node_size: np.ndarray,
        n_classes: int,
    ) -> np.ndarray:
        """Per node of a DAG its classes' weights (nodes x classes, int64)."""
        nodes = node_size.size
        sizes = node_size.astype(np.int64)
        total = int(sizes.sum())
        node_of = np.repeat(np.arange(nodes, dtype=np.int64), sizes)
        first = np.repeat(node_start.astype(np.int64) - np.cumsum(sizes) + sizes, sizes)
        at = first + np.arange(total, dtype=np.int64)
        rows = row_pool[at].astype(np.int64)
        key = node_of * n_classes + decisions[rows]
        totals = np.bincount(key, weights=self.rows[rows], minlength=nodes * n_classes)
        return np.rint(totals).astype(np.int64).reshape(nodes, n_classes)

    def terms(
        self, totals: np.ndarray, node_size: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per node of a DAG, from its classes' weights (:meth:`node_totals`) and its rows:
        its weight, its leaf's price and decision (int32 each, as the kernels read them)."""
        nodes, n_classes = totals.shape
        sizes = node_size.astype(np.int64)
        cost = self.leaf_prices(totals)
        major = np.argmin(cost, axis=1) if n_classes else np.zeros(nodes, np.int64)
        price = cost[np.arange(nodes), major] if n_classes else np.zeros(nodes, np.int64)
        if self.min_leaf > 1:
            price = np.where(self.too_small(sizes), self.infeasible, price)
        return (
            totals.sum(axis=1).astype(np.int32),
            price.astype(np.int32),
            major.astype(np.int32),
        )


def positive_table(table):
    """``table`` with a positive class for false positives and negatives: its own, or a
    two-class table's second class (an error naming the classes otherwise)."""
    w = getattr(table, "weighting", None)
    classes = [str(v) for v in table.decision_values]
    if w is None or w.positive is None:
        if len(classes) != 2:
            raise InputError(
                f"false positives and negatives need a positive class: give --positive CLASS "
                f"(the table has {len(classes)} classes: {', '.join(classes)}; the others "
                "are then negative)"
            )
        table = table.weighted(positive=classes[1])
    return table


def check_min_leaf(k) -> int:
    """A minimum leaf size: an integer >= 1."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
        raise InputError(f"the minimum leaf size must be an integer >= 1, got {k!r}")
    return int(k)


def refuse(table, what: str) -> None:
    """Raise a clear :class:`InputError` when ``table`` is weighted and ``what`` (a
    command or an option) does not read weights yet."""
    if getattr(table, "weighting", None) is not None:
        raise InputError(
            f"{what} does not read row weights, class weights, prices or a minimum leaf "
            "size yet; `dagger relate` and `dagger tree` give the exact front and its trees"
        )


#: What to do when class weights (folded into the rows' weights) need too fine a scale.
ROUND_CLASS_WEIGHTS = (
    "class weights such as 'balanced' on classes of very different sizes need that scale to "
    "be exact: give rounded ones instead (--class-weight CLASS=W,... or class_weight={class: "
    "W}, W with few decimals)"
)


def _common_denominator(values: Sequence[Fraction], what: str, advice: str | None = None) -> int:
    scale = 1
    for v in values:
        scale = math.lcm(scale, v.denominator)
        if scale > MAX_SCALE:
            raise InputError(
                f"{what} need a common denominator above {MAX_SCALE:,} to be exact; "
                + (advice or "give them with at most 6 decimals, or as integers")
            )
    return scale


def balanced(decisions: np.ndarray, n_classes: int) -> list[Fraction]:
    """scikit-learn's ``class_weight="balanced"``: ``n / (classes * rows of the class)``,
    exactly (classes without rows get 1).

    >>> balanced(np.array([0, 0, 0, 1]), 2)
    [Fraction(2, 3), Fraction(2, 1)]
    """
    counts = np.bincount(np.asarray(decisions), minlength=n_classes)
    present = int((counts > 0).sum())
    n = int(counts.sum())
    return [Fraction(n, present * int(c)) if c else Fraction(1) for c in counts]


def parse_class_weight(spec: str | Mapping | None, labels: Sequence[str], decisions) -> list | None:
    """Class weights per class code from ``"balanced"``, ``"CLASS=W,..."`` text or a
    mapping (label -> weight); classes not named weigh 1."""
    if spec is None:
        return None
    if isinstance(spec, str) and spec.strip().lower() == "balanced":
        return balanced(np.asarray(decisions), len(labels))
    if isinstance(spec, str):
        pairs = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise InputError(
                    f"--class-weight: {part.strip()!r} is not CLASS=WEIGHT; expected "
                    "'balanced' or e.g. 'yes=3,no=1'"
                )
            k, v = part.rsplit("=", 1)
            pairs[k.strip()] = v.strip()
        spec = pairs
    known = {str(v): k for k, v in enumerate(labels)}
    out: list = [Fraction(1)] * len(labels)
    for k, v in spec.items():
        if str(k) not in known:
            raise InputError(
                f"class weight for {k!r}: no such class; the classes are: "
                f"{', '.join(map(str, labels))}"
            )
        out[known[str(k)]] = exact(v, f"class weight of {k!r}")
    return out


def read_cost_matrix(path, labels: Sequence[str]) -> list[list[Fraction]]:
    """A price matrix from a CSV file: the first column names the true class, the header
    the predicted classes, each cell the price of that prediction for a row of that class.
    Every class of the table must have a row and a column (others are an error)."""
    import csv

    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"{path}: cannot read the cost matrix ({err})") from None
    rows = [r for r in csv.reader(text.splitlines()) if any(c.strip() for c in r)]
    if not rows:
        raise InputError(f"{path}: the cost matrix is empty")
    header = [c.strip() for c in rows[0]]
    predicted = header[1:]
    known = [str(v) for v in labels]
    for j, p in enumerate(predicted):
        if p not in known:
            raise InputError(
                f"{path}, line 1, column {j + 2}: {p!r} is not a class of the table; "
                f"the classes are: {', '.join(known)}"
            )
    prices: dict[tuple[str, str], Fraction] = {}
    for line, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            raise InputError(
                f"{path}, line {line}: {len(row)} cells, expected {len(header)} (a true "
                "class and one price per predicted class)"
            )
        true = row[0].strip()
        if true not in known:
            raise InputError(
                f"{path}, line {line}, column 1: {true!r} is not a class of the table; "
                f"the classes are: {', '.join(known)}"
            )
        for j, cell in enumerate(row[1:]):
            prices[(true, predicted[j])] = exact(cell, f"{path}, line {line}, column {j + 2}")
    missing = [(t, p) for t in known for p in known if (t, p) not in prices]
    if missing:
        t, p = missing[0]
        raise InputError(
            f"{path}: no price for predicting {p!r} on a row of class {t!r}; the matrix "
            f"needs a row and a column for every class ({', '.join(known)})"
        )
    return [[prices[(t, p)] for p in known] for t in known]
