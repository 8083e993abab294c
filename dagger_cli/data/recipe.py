"""The preprocessing recipe: every choice that turns a raw table into a decision table.

A :class:`Recipe` is one frozen value, validated once when it is made, that travels whole
from the command line or the Python API to the table builder
(:func:`dagger_cli.data.table.from_columns`). A new preprocessing option is one field here: no
signature in between has to learn it, so none can drop it on the way (as ``--bins`` once was
on registered datasets).

A field left at None is *unset*. Recipes layer: :meth:`Recipe.over` fills a recipe's unset
fields from another one, so a registered dataset's own recipe (its decision column, its
identifier columns) sits under the user's, and :data:`DEFAULTS` (the paper authors'
convention) under both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import InputError

#: ``missing``: fill with the column's most common value, keep as a value ``?``, or refuse.
MISSING_CHOICES = ("mode", "value", "error")
#: ``duplicates``: merge equal rows (most common decision) or keep them all.
DUPLICATES_CHOICES = ("merge", "keep")


@dataclass(frozen=True)
class Recipe:
    """How to prepare a table; None means "not set here" (see :meth:`over`).

    Parameters
    ----------
    decision : str, optional
        The decision column (default: the last column; a registered dataset's own).
    drop : sequence of str, optional
        Columns dropped before anything else (stored as a tuple). An empty sequence is a
        choice (drop nothing), unlike None.
    missing : {"mode", "value", "error"}, optional
        Missing values (:data:`dagger_cli.values.MISSING_MARKERS`): filled with the
        column's most common value (default), kept as a value ``?`` of their own, or an error.
    duplicates : {"merge", "keep"}, optional
        Equal rows (on every attribute, as prepared): kept (default: every count is of the
        rows read) or merged into one row with their most common decision (the paper's
        convention, the default of its registered tables).
    bins : int, optional
        Discretize each numeric column with more than ``bins`` distinct values into ``bins``
        equal-frequency intervals (at least 2).
    thresholds : "all" or int, optional
        Numeric columns become binary attributes ``col<=t``
        (:mod:`dagger_cli.data.thresholds`): every midpoint between consecutive distinct values
        ("all") or at most K per column at quantiles (K, at least 1; text such as "16" is
        read as a number). Not together with ``bins``.
    weight : str, optional
        A column of positive numbers, each its row's weight (a row of weight k counts as k
        copies of it): taken out of the attributes (:mod:`dagger_cli.weights`).
    class_weight : str or mapping, optional
        ``"balanced"`` (scikit-learn's meaning), ``"CLASS=W,..."`` text or a mapping
        class -> weight (classes not named weigh 1); stored as text.
    cost_matrix : str, optional
        The path of a CSV price matrix (:func:`dagger_cli.weights.read_cost_matrix`): a
        leaf takes the decision of least price.
    min_leaf : int, optional
        Only trees whose every leaf holds at least this many rows (:mod:`dagger_cli.weights`).

    Raises
    ------
    InputError
        For a value outside these choices, naming the field and what it accepts.

    Examples
    --------
    >>> user = Recipe(bins=2)
    >>> both = user.over(Recipe(decision="type", drop=["animal_name"]))
    >>> both.decision, both.drop, both.missing, both.bins
    ('type', ('animal_name',), None, 2)
    >>> Recipe(missing="drop")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    dagger_cli.errors.InputError: unknown missing-value policy 'drop'; expected one of: ...
    """

    decision: str | None = None
    drop: Sequence[str] | None = None  # a tuple once made
    missing: str | None = None
    duplicates: str | None = None
    bins: int | None = None
    thresholds: str | int | None = None
    weight: str | None = None
    class_weight: str | None = None
    cost_matrix: str | None = None
    min_leaf: int | None = None

    def __post_init__(self) -> None:
        if self.min_leaf is not None:
            from ..weights import check_min_leaf

            object.__setattr__(self, "min_leaf", check_min_leaf(self.min_leaf))
        if self.weight is not None and not isinstance(self.weight, str):
            raise InputError(f"the weight column must be a name, got {self.weight!r}")
        if isinstance(self.class_weight, Mapping):
            text = ",".join(f"{k}={v}" for k, v in self.class_weight.items())
            object.__setattr__(self, "class_weight", text)
        if self.class_weight is not None and not isinstance(self.class_weight, str):
            raise InputError(
                f"class weights must be 'balanced', 'CLASS=W,...' or a mapping, got "
                f"{self.class_weight!r}"
            )
        if self.cost_matrix is not None:
            object.__setattr__(self, "cost_matrix", os.fspath(self.cost_matrix))
        if self.decision is not None and not isinstance(self.decision, str):
            raise InputError(f"the decision column must be a name, got {self.decision!r}")
        if self.drop is not None:
            drop = (self.drop,) if isinstance(self.drop, str) else tuple(self.drop)
            bad = [c for c in drop if not isinstance(c, str)]
            if bad:
                raise InputError(f"columns to drop must be names, got {bad[0]!r}")
            object.__setattr__(self, "drop", drop)
        if self.missing is not None and self.missing not in MISSING_CHOICES:
            raise InputError(
                f"unknown missing-value policy {self.missing!r}; "
                f"expected one of: {', '.join(MISSING_CHOICES)}"
            )
        if self.duplicates is not None and self.duplicates not in DUPLICATES_CHOICES:
            raise InputError(
                f"unknown duplicates policy {self.duplicates!r}; "
                f"expected one of: {', '.join(DUPLICATES_CHOICES)}"
            )
        if self.bins is not None and (
            isinstance(self.bins, bool) or not isinstance(self.bins, int) or self.bins < 2
        ):
            raise InputError(
                f"the number of bins must be an integer of at least 2, got {self.bins!r}"
            )
        if self.thresholds is not None:
            from .thresholds import parse_spec

            object.__setattr__(self, "thresholds", parse_spec(self.thresholds))
            if self.bins is not None:
                raise InputError(
                    "give either bins (multiway intervals) or thresholds (binary splits), not both"
                )

    def over(self, base: Recipe | None) -> Recipe:
        """This recipe with its unset fields taken from ``base`` (its set fields win). Bins
        and thresholds are one choice (how numeric columns split): setting either here
        replaces the other of ``base``.

        >>> Recipe(bins=3).over(Recipe(thresholds="all")).thresholds is None
        True
        """
        if base is None:
            return self
        mine = {f.name: v for f in fields(self) if (v := getattr(self, f.name)) is not None}
        if "bins" in mine or "thresholds" in mine:
            base = replace(base, bins=None, thresholds=None)
        return replace(base, **mine)

    def resolved(self) -> Recipe:
        """This recipe over :data:`DEFAULTS`: every policy set (``decision`` may stay None,
        meaning the last column)."""
        return self.over(DEFAULTS)

    @classmethod
    def of(cls, recipe: Recipe | None = None, **options: Any) -> Recipe:
        """``recipe`` (or an empty one) with the given fields replaced; None options are unset.

        The keyword form of the Python API: ``from_csv(path, bins=3)`` is
        ``from_csv(path, recipe=Recipe(bins=3))``.

        >>> r = Recipe.of(Recipe(bins=3), missing="value", drop=None)
        >>> r.drop, r.missing, r.bins
        (None, 'value', 3)
        """
        unknown = sorted(set(options) - FIELDS)
        if unknown:
            raise TypeError(
                f"unknown preprocessing option(s) {', '.join(unknown)}; "
                f"the recipe has: {', '.join(sorted(FIELDS))}"
            )
        base = recipe if recipe is not None else cls()
        return Recipe(**{k: v for k, v in options.items() if v is not None}).over(base)

    @classmethod
    def split(
        cls, recipe: Recipe | None, kwargs: Mapping[str, Any]
    ) -> tuple[Recipe, dict[str, Any]]:
        """Separate a recipe's fields from other keyword arguments (e.g. a fetch's).

        Returns the recipe built by :meth:`of` and the remaining arguments.
        """
        mine = {k: v for k, v in kwargs.items() if k in FIELDS}
        rest = {k: v for k, v in kwargs.items() if k not in FIELDS}
        return cls.of(recipe, **mine), rest


#: The names of a recipe's fields.
FIELDS = frozenset(f.name for f in fields(Recipe))
#: The defaults: missing values filled (:func:`dagger_cli.data.table.from_columns`), equal
#: rows kept, so that every count (misclassifications, a leaf's class counts, a rule's
#: coverage) is of the rows read. The paper's registered tables merge equal rows into one
#: with their most common decision, as its authors did (their own recipes,
#: :mod:`dagger_cli.data.datasets`).
DEFAULTS = Recipe(missing="mode", duplicates="keep")
