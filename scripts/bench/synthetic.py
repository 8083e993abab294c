"""A random numeric table for the ordered solver's long-table cases (issue 40): one
informative column and noise, made from a fixed seed (no data file in git).

Column ``x0`` decides the class (``x0 > 0.5``), a tenth of the labels flipped at random;
the other columns are uniform noise, rounded to 6 decimals (100,000 rows: about 95,000
distinct values, so thresholds, per column with ``--thresholds all``).

    python -m scripts.bench.synthetic OUT.csv [--rows 100000] [--cols 10] [--seed 40]
    python -m scripts.bench.synthetic OUT.csv --classes [--rows 12000]   # issue 39's

>>> X, y = table(rows=5, cols=3)
>>> X.shape, y.shape
((5, 3), (5,))
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

#: The generator's default seed (the issue's number).
SEED = 40
#: The share of labels flipped.
NOISE = 0.1


def table(rows: int = 100_000, cols: int = 10, seed: int = SEED):
    """``(X, y)``: ``rows`` x ``cols`` uniform values on [0, 1) rounded to 6 decimals, and
    the class of each row, ``x0 > 0.5`` with :data:`NOISE` of them flipped."""
    rng = np.random.default_rng(seed)
    X = rng.random(size=(rows, cols)).round(6)
    y = (X[:, 0] > 0.5).astype(np.int64)
    flip = rng.random(rows) < NOISE
    y[flip] = 1 - y[flip]
    return X, y


def write_csv(path: Path, rows: int = 100_000, cols: int = 10, seed: int = SEED) -> Path:
    """The table of :func:`table` as a CSV file (header ``x0..x{cols-1},y``) at ``path``."""
    X, y = table(rows, cols, seed)
    header = ",".join([f"x{j}" for j in range(cols)] + ["y"])
    fmt = ["%.6f"] * cols + ["%d"]
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header=header, comments="", fmt=fmt)
    return path


def classes_table(rows: int = 12_000, seed: int = SEED):
    """``(X, y)``: a long table of five numeric columns with few to many distinct values
    (two decimals to whole numbers, like a price list's) and four classes, each class a
    quarter of the rows, decided by a noisy score of all five columns (so no one column or
    threshold stands out). Issue 39's case for total path length under a cap.

    >>> X, y = classes_table(rows=8)
    >>> X.shape, sorted(set(y.tolist())) == [0, 1, 2, 3]
    ((8, 5), True)
    """
    rng = np.random.default_rng(seed)
    carat = np.round(rng.gamma(2.0, 0.4, rows), 2)
    depth = np.round(rng.normal(61.7, 1.4, rows), 1)
    table_ = np.round(rng.normal(57.4, 2.2, rows), 0)
    price = np.round(np.exp(8 + 1.6 * np.log(carat + 0.2) + rng.normal(0, 0.4, rows)), 0)
    x = np.round(carat ** (1 / 3) * 6.5 + rng.normal(0, 0.05, rows), 2)
    score = (
        price / (carat + 0.2) ** 1.6 / 3000
        - np.abs(depth - 61.7) / 3
        - np.abs(table_ - 57) / 4
        + rng.normal(0, 0.5, rows)
    )
    y = np.digitize(score, np.quantile(score, [0.25, 0.5, 0.75])).astype(np.int64)
    return np.column_stack([carat, depth, table_, price, x]), y


def write_classes_csv(path: Path, rows: int = 12_000, seed: int = SEED) -> Path:
    """The table of :func:`classes_table` as a CSV file (header ``x0..x4,y``) at ``path``."""
    X, y = classes_table(rows, seed)
    header = ",".join([f"x{j}" for j in range(X.shape[1])] + ["y"])
    fmt = ["%.2f", "%.1f", "%.0f", "%.0f", "%.2f", "%d"]
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", header=header, comments="", fmt=fmt)
    return path


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--cols", type=int, default=10)
    p.add_argument("--seed", type=int, default=SEED)
    p.add_argument(
        "--classes", action="store_true", help="the four-class table (classes_table) instead"
    )
    a = p.parse_args(argv)
    if a.classes:
        write_classes_csv(a.out, a.rows, a.seed)
    else:
        write_csv(a.out, a.rows, a.cols, a.seed)


if __name__ == "__main__":
    main()
