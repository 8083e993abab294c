"""Hypothesis strategies for small random decision tables (plain Python lists)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from hypothesis import strategies as st

#: Decision label sets: numeric (ordered as numbers, "10" > "9"), and mixed (string order).
DECISION_LABELS = (
    ("0", "1", "2"),
    ("9", "10", "2.5"),
    ("b", "a", "10"),
)


@dataclass(frozen=True)
class Table:
    rows: tuple  # tuple of tuples of ints (attribute values)
    decisions: tuple  # tuple of str

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    @property
    def n_attributes(self) -> int:
        return len(self.rows[0])

    def header(self) -> list[str]:
        return [f"f{i + 1}" for i in range(self.n_attributes)] + ["d"]

    def records(self) -> list[list[str]]:
        return [[str(v) for v in r] + [str(d)] for r, d in zip(self.rows, self.decisions)]

    def __repr__(self) -> str:  # readable in hypothesis' falsifying examples
        return f"Table(rows={list(self.rows)!r}, decisions={list(self.decisions)!r})"


def tables(
    min_rows=1,
    max_rows=7,
    max_attributes=4,
    max_values=3,
    max_decisions=3,
    labels=None,
    nontrivial=False,
):
    """Tables of ``min_rows..max_rows`` rows, 1..max_attributes attributes with
    1..max_values values each and 1..max_decisions decisions.

    Rows are drawn independently (so equal rows, possibly with different decisions, are
    common); sometimes a duplicate of an earlier row is forced in as well.  Half of the
    tables come from hypothesis' own draws (which favour small, simple tables and shrink
    well), half from a uniform generator seeded by hypothesis (which gives varied tables: more
    distinct rows and decisions, hence longer fronts).

    ``nontrivial=True`` makes sure that the table has two distinct decisions and two
    distinct attribute rows (needs ``max_rows``, ``max_values`` and ``max_decisions`` >= 2
    and ``labels`` with two or more labels), so that some tree splits.
    """
    if nontrivial:
        assert max_rows >= 2 and max_values >= 2 and max_decisions >= 2
        min_rows = max(min_rows, 2)
    args = (min_rows, max_rows, max_attributes, max_values, max_decisions, labels, nontrivial)
    return st.one_of(_drawn_tables(*args), _uniform_tables(*args))


def _pool(draw, max_decisions, labels, nontrivial):
    k = draw(st.integers(2 if nontrivial else 1, max_decisions))
    pool = draw(st.sampled_from(DECISION_LABELS)) if labels is None else tuple(labels)
    return pool[:k]


def _force_duplicate(draw, rows, decisions, pool, nontrivial):
    n = len(rows)
    if n >= 2 and draw(st.booleans()):
        # Force a duplicate of an earlier row, usually with a different decision.
        i = draw(st.integers(0, n - 2))
        j = draw(st.integers(i + 1, n - 1))
        rows[j] = rows[i]
        if len(pool) > 1 and draw(st.integers(0, 3)) > 0:
            decisions[j] = draw(st.sampled_from([d for d in pool if d != decisions[i]]))
    if nontrivial:
        # attribute 0 has at least two values (see the generators)
        if len(set(rows)) < 2:
            rows[-1] = ((rows[-1][0] + 1) % 2,) + tuple(rows[-1][1:])
        if len(set(decisions)) < 2:
            decisions[-1] = next(d for d in pool if d != decisions[-1])
    return Table(tuple(rows), tuple(decisions))


@st.composite
def _drawn_tables(
    draw, min_rows, max_rows, max_attributes, max_values, max_decisions, labels, nontrivial
):
    m = draw(st.integers(1, max_attributes))
    arity = [draw(st.integers(2 if nontrivial and i == 0 else 1, max_values)) for i in range(m)]
    pool = _pool(draw, max_decisions, labels, nontrivial)
    n = draw(st.integers(min_rows, max_rows))
    row = st.tuples(*[st.integers(0, a - 1) for a in arity])
    rows = [draw(row) for _ in range(n)]
    decisions = [draw(st.sampled_from(pool)) for _ in range(n)]
    return _force_duplicate(draw, rows, decisions, pool, nontrivial)


@st.composite
def _uniform_tables(
    draw, min_rows, max_rows, max_attributes, max_values, max_decisions, labels, nontrivial
):
    rnd = random.Random(draw(st.integers(0, 2**32 - 1)))
    m = rnd.randint(1, max_attributes)
    arity = [rnd.randint(2 if nontrivial and i == 0 else 1, max_values) for i in range(m)]
    pool = DECISION_LABELS[rnd.randrange(len(DECISION_LABELS))] if labels is None else tuple(labels)
    pool = pool[: rnd.randint(2 if nontrivial else 1, max_decisions)]
    n = rnd.randint(min_rows, max_rows)
    rows = [tuple(rnd.randrange(a) for a in arity) for _ in range(n)]
    decisions = [rnd.choice(pool) for _ in range(n)]
    return _force_duplicate(draw, rows, decisions, pool, nontrivial)


@st.composite
def random_trees(draw, table: Table):
    """A random (valid) decision tree for ``table`` as a JSON-like dict.

    Built from the definitions directly: at each subtable choose the leaf or a split on a
    non-constant attribute (only when the subtable has two or more decisions).
    """
    header = table.header()
    records = table.records()
    labels = [r[-1] for r in records]
    numeric = all(_is_number(d) for d in labels)
    key = (lambda d: (float(d), d)) if numeric else (lambda d: d)

    def build(sub):
        counts = {}
        for r in sub:
            counts[r[-1]] = counts.get(r[-1], 0) + 1
        best = max(counts.values())
        leaf = {"decision": min((d for d, c in counts.items() if c == best), key=key)}
        if len(counts) < 2:
            return leaf
        attrs = [j for j in range(len(header) - 1) if len({r[j] for r in sub}) >= 2]
        choice = draw(st.integers(-1, len(attrs) - 1))
        if choice < 0:
            return leaf
        j = attrs[choice]
        children = {}
        for v in sorted({r[j] for r in sub}):
            children[v] = build([r for r in sub if r[j] == v])
        return {"attribute": header[j], "children": children}

    return build(records)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def mixed_tables(**kwargs):
    """Half :func:`tables`, half ``tables(nontrivial=True)`` (longer fronts)."""
    return st.one_of(tables(**kwargs), tables(nontrivial=True, **kwargs))
