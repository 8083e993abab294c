"""The columnar CSV reader: a large clean file to a DecisionTable without Python lists.

:meth:`DecisionTable.from_csv` tries this reader first. pyarrow parses the file in parallel
straight into dictionary-encoded columns (one small int32 index per cell, each distinct string
stored once), and every preprocessing step of :mod:`dagger_cli.data.table` is done on those codes
with numpy: stripping, filling missing values, merging equal rows, ordering values. A 5 M-row
file is read in a few seconds in about twice its size of memory, where lists of Python strings
took a minute and 25 times its size.

It gives exactly the table of the Python reader (the tests compare them), and it never reports
an error itself: on anything unusual (a bad line, a missing decision, an unknown column, a blank
row, an encoding error, ``header=``, a recipe field it does not implement: ``--bins``,
``--thresholds``, see :func:`handles`) it returns None and the Python reader runs, whose
messages name the line, the column and the value.
"""

from __future__ import annotations

import os
from collections import Counter

import numpy as np

from ..values import DECIMAL_COMMA, MISSING_LABEL, MISSING_MARKERS, value_order
from .report import (
    IDENTIFIER_MIN_ROWS,
    IDENTIFIER_SHARE,
    MEMORISE_SHARE,
    PreprocessReport,
    decision_note,
    default_decision,
    identifier_notes,
    memorising,
    memorising_notes,
    numeric_decision_notes,
    wide_notes,
)

#: Environment variable: ``python`` forces the Python reader (for comparisons and benches).
ENV_READER = "DAGGER_CSV_READER"
#: Files smaller than this go to the Python reader: importing pyarrow costs more than it saves.
MIN_BYTES = 4 * 2**20


#: The recipe fields this reader implements; a recipe that sets any other (``bins``,
#: ``thresholds``, a field added later) goes to the Python reader.
HANDLED = frozenset({"decision", "drop", "missing", "duplicates"})


def handles(recipe) -> bool:
    """Whether this reader implements every field that ``recipe`` sets.

    >>> from dagger_cli.data.recipe import Recipe
    >>> handles(Recipe(missing="value")), handles(Recipe(thresholds=8)), handles(Recipe(bins=3))
    (True, False, False)
    """
    from dataclasses import fields

    return all(getattr(recipe, f.name) is None for f in fields(recipe) if f.name not in HANDLED)


def wanted(path) -> bool:
    """Whether to try the columnar reader on ``path`` (big enough, pyarrow importable)."""
    choice = os.environ.get(ENV_READER, "auto").lower()
    if choice == "python":
        return False
    try:
        if choice != "columnar" and os.path.getsize(path) < MIN_BYTES:
            return False
        import pyarrow.csv  # noqa: F401
    except (OSError, ImportError):
        return False
    return True


def read_table(path, names, *, delimiter, decision, drop, name, missing, duplicates):
    """The prepared table of a CSV file whose header is ``names``, as the keyword arguments
    of :class:`~dagger_cli.data.table.DecisionTable` (this module builds no table itself:
    :mod:`dagger_cli.data.table` imports it), or None (use the Python reader). Arguments
    as in :meth:`DecisionTable.from_csv`."""
    if len(set(names)) != len(names) or missing not in ("mode", "value"):
        return None
    if duplicates not in ("merge", "keep"):
        return None
    header = [n.strip() for n in names]
    defaulted = decision is None
    if decision is None:
        decision = default_decision(header, drop) if header else None
    if decision not in header or decision in drop or any(d not in header for d in drop):
        return None
    keep = [j for j, h in enumerate(header) if h != decision and h not in drop]
    if not keep or len(set(header)) != len(header):
        return None
    columns = _read_columns(path, names, delimiter)
    if columns is None:
        return None
    if delimiter != "," and any(DECIMAL_COMMA.fullmatch(v) for c in columns for v in c.labels):
        return None  # decimal commas: the Python reader reads them as numbers
    n = columns[0].n
    if n == 0:
        return None
    if all("" in c.labels for c in columns):
        return None  # perhaps a blank row, which the Python reader skips: let it read
    return _prepare(columns, header, keep, decision, defaulted, drop, name, missing, duplicates, n)


#: Bytes pyarrow parses at a time; only a block or two is held at once (bigger blocks were no
#: faster and held more memory: 1 MiB 540 MiB peak on the bench file, 16 MiB 780 MiB).
BLOCK_BYTES = 2**20


def _read_columns(path, names, delimiter):
    """The file's columns as :class:`_Column`, read block by block (pyarrow's streaming
    reader, dictionary-encoded strings): each block's indices are mapped to the column's
    labels and the block is dropped, so the file is never held whole in Arrow form."""
    import pyarrow as pa
    import pyarrow.csv as pacsv

    types = {n: pa.dictionary(pa.int32(), pa.string()) for n in names}
    guess = max(1024, os.path.getsize(path) // max(8, 2 * len(names)))
    columns = [_Column(guess) for _ in names]
    try:
        reader = pacsv.open_csv(
            path,
            read_options=pacsv.ReadOptions(
                column_names=list(names), skip_rows=1, block_size=BLOCK_BYTES
            ),
            parse_options=pacsv.ParseOptions(delimiter=delimiter),
            convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
        )
        for batch in reader:
            for col, arr in zip(columns, batch.columns):
                col.append(arr)
    except (pa.ArrowException, OSError, ValueError):
        return None
    for col in columns:
        col.finish()
    return columns


class _Column:
    """One column as it is read: ``ids[i]`` numbers row i's stripped value in order of first
    appearance, ``labels[g]`` is value g and ``counts[g]`` its rows (after :meth:`finish`).

    ``ids`` grows by ``ndarray.resize`` (realloc; for large arrays the system remaps pages
    rather than copying), and is released by :meth:`write`.
    """

    def __init__(self, capacity: int):
        self.ids = np.empty(capacity, dtype=np.int32)
        self.n = 0
        self.index: dict = {}
        self.labels: list = []
        self.counts = np.zeros(0, dtype=np.int64)

    def append(self, arr) -> None:
        index = self.index
        raw = arr.dictionary.to_pylist()
        local = np.array([index.setdefault(str(v).strip(), len(index)) for v in raw], np.int32)
        k = len(arr)
        if self.n + k > len(self.ids):
            self.ids.resize(max(self.n + k, len(self.ids) * 3 // 2), refcheck=False)
        idx = arr.indices.to_numpy(zero_copy_only=False)
        np.take(local, idx, out=self.ids[self.n : self.n + k])
        self.n += k

    def finish(self) -> None:
        self.ids.resize(self.n, refcheck=False)
        self.labels = list(self.index)
        self.index = {}
        self.counts = np.bincount(self.ids, minlength=len(self.labels))

    def write(self, rank: np.ndarray, out: np.ndarray) -> None:
        """``out[i]`` = ``rank`` of row i's value; ``ids`` is released."""
        np.take(rank.astype(out.dtype), self.ids, out=out)
        self.ids = np.zeros(0, dtype=np.int32)


def _prepare(columns, header, keep, decision, defaulted, drop, name, missing, duplicates, n):
    """:func:`dagger_cli.data.table._build` on codes (the table's keyword arguments); None
    where it would raise."""
    from .discretize import numeric_values, wide_columns

    skip = (decision, *drop)
    distinct = [c.labels for c in columns]
    ids = [
        h
        for h, labels in zip(header, distinct)
        if h not in skip and n > IDENTIFIER_MIN_ROWS and len(labels) > IDENTIFIER_SHARE * n
    ]
    wide = wide_columns(header, distinct, skip=(*skip, *ids))
    notes = [decision_note(header, decision, defaulted)]
    notes += numeric_decision_notes(decision, columns[header.index(decision)].labels, defaulted)
    notes += wide_notes(wide)
    numeric = [h for h, labels in zip(header, distinct) if h in ids and numeric_values(labels)]
    notes += identifier_notes(ids, n, numeric=numeric)

    dec = columns[header.index(decision)]
    if any(v in MISSING_MARKERS for v in dec.labels):
        return None
    # Attributes whose split alone memorises the rows (the codes of the cells as read).
    many = [
        (h, c)
        for h, c in zip(header, columns)
        if h not in skip and h not in ids and len(c.labels) > MEMORISE_SHARE * n
    ]
    notes += memorising_notes(
        memorising([h for h, _ in many], [c.ids for _, c in many], dec.ids), n
    )
    dec_order = value_order(dec.labels)
    dec_rank = {v: r for r, v in enumerate(dec_order)}
    decisions = np.empty(n, dtype=np.int32)
    dec.write(np.array([dec_rank[v] for v in dec.labels], dtype=np.int64), decisions)

    filled = {}
    fills = {}  # what a missing value reads as at prediction (DecisionTable.fills)
    values = []
    codes = np.empty((len(keep), n), dtype=np.int32)
    for row, j in enumerate(keep):
        col = columns[j]
        final = list(col.labels)
        holes = [g for g, v in enumerate(final) if v in MISSING_MARKERS]
        present = Counter({v: int(col.counts[g]) for g, v in enumerate(final) if g not in holes})
        if missing == "value":
            fills[header[j]] = MISSING_LABEL
        elif missing == "mode" and present:
            best = max(present.values())
            fills[header[j]] = value_order(v for v, c in present.items() if c == best)[0]
        if holes and missing == "value":
            for g in holes:
                final[g] = MISSING_LABEL
        elif holes:
            if not present:
                return None
            fill = fills[header[j]]
            for g in holes:
                final[g] = fill
            filled[header[j]] = (int(col.counts[holes].sum()), fill)
        order = value_order(final)
        rank = {v: r for r, v in enumerate(order)}
        col.write(np.array([rank[v] for v in final], dtype=np.int64), codes[row])
        columns[j] = None
        values.append(tuple(order))

    merged = conflicting = outvoted = 0
    if duplicates == "merge":
        groups = _groups(codes, [len(v) for v in values])
        if groups is not None:
            first, gid = groups
            chosen, conflicting, outvoted = _vote(gid, decisions, len(first), len(dec_order))
            del gid
            merged = n - len(first)
            codes = _compact(codes, first)
            # The order of the decisions left (all numbers now, say) may differ.
            present = [dec_order[k] for k in np.unique(chosen)]
            new_order = value_order(present)
            new_rank = {v: r for r, v in enumerate(new_order)}
            recode = np.zeros(len(dec_order), dtype=np.int32)
            for v in present:
                recode[dec_rank[v]] = new_rank[v]
            dec_order = new_order
            decisions = recode[chosen]
    report = PreprocessReport(
        rows_read=n,
        rows_after=int(decisions.shape[0]),
        merged_rows=merged,
        conflicting_groups=conflicting,
        outvoted_rows=outvoted,
        filled=filled,
        dropped=tuple(d for d in header if d in drop),
        notes=tuple(notes),
    )
    return dict(
        name=name,
        attributes=tuple(header[j] for j in keep),
        decision_name=decision,
        values=tuple(values),
        codes=codes,
        decision_values=tuple(dec_order),
        decisions=decisions,
        report=report,
        fills=fills,
    )


def _compact(codes: np.ndarray, first: np.ndarray) -> np.ndarray:
    """``codes[:, first]`` without a second copy of the table: row j is gathered into flat
    positions [j*G, (j+1)*G), which lie before the rows still to be read (G < N), then the
    array is shrunk in place (realloc)."""
    m, n = codes.shape
    g = len(first)
    flat = codes.reshape(-1)
    for j in range(m):
        flat[j * g : (j + 1) * g] = flat[j * n : (j + 1) * n][first]
    del flat
    if codes.base is None and codes.flags.c_contiguous:
        codes.resize((m * g,), refcheck=False)  # no view of it survives this function
        return codes.reshape(m, g)
    return codes.reshape(-1)[: m * g].copy().reshape(m, g)


def _groups(codes: np.ndarray, cards: list[int]):
    """(first row of each group of equal rows in order of appearance, group of every row),
    or None when all rows differ.

    A row's key is its codes in mixed radix; when the next column would overflow 62 bits the
    keys are first renumbered densely (:func:`_factorize`), so any number of columns works.
    """
    n = codes.shape[1]
    key = np.zeros(n, dtype=np.int64)
    span = 1
    for row, card in zip(codes, cards):
        if span * card >= 2**62:
            ids, first = _factorize(key)
            key[:] = ids
            del ids
            span = len(first)
        key *= card
        key += row
        span *= card
    gid, first = _factorize(key)
    del key
    if len(first) == n:
        return None
    return first, gid


def _factorize(keys: np.ndarray):
    """Dense ids of ``keys`` in order of first appearance, and the first row of each id
    (int32 both): open addressing on a power-of-two table of int32 ids, compiled
    (``core/csv.cpp``)."""
    from .. import _core

    return _core.csv_factorize(np.ascontiguousarray(keys, dtype=np.int64))


def _vote(gid: np.ndarray, decisions: np.ndarray, groups: int, n_dec: int, dense=None):
    """Each group's most common decision code (the smallest on a tie), the number of groups
    with several decisions, and the rows whose decision lost its group's vote."""
    if dense or (dense is None and groups * n_dec <= 4 * len(gid)):
        from .. import _core

        # A (groups x decisions) count table, compiled (``core/csv.cpp``).
        chosen, stats = _core.csv_vote_dense(
            np.ascontiguousarray(gid, dtype=np.int32),
            np.ascontiguousarray(decisions, dtype=np.int32),
            int(groups),
            int(n_dec),
        )
        return chosen, int(stats[0]), int(stats[1])
    pair, count = np.unique(gid.astype(np.int64) * n_dec + decisions, return_counts=True)
    g, d = pair // n_dec, pair % n_dec
    order = np.lexsort((d, -count, g))
    firsts = order[np.r_[True, g[order][1:] != g[order][:-1]]]
    chosen = np.empty(groups, dtype=np.int32)
    chosen[g[firsts]] = d[firsts]
    best = np.zeros(groups, dtype=np.int64)
    best[g[firsts]] = count[firsts]
    kinds = np.bincount(g, minlength=groups)
    sizes = np.bincount(gid, minlength=groups)
    several = kinds > 1
    return chosen, int(several.sum()), int((sizes - best)[several].sum())


# ---------------------------------------------------------------------------- writing
#: Tables of at least this many rows are written by pyarrow's CSV writer.
WRITE_MIN_ROWS = 100_000
#: Rows per batch handed to pyarrow's writer.
WRITE_BATCH = 1 << 18
_STRUCTURAL = (",", '"', "\r", "\n")


def write_prepared(table, fh, *, min_rows: int = WRITE_MIN_ROWS) -> None:
    """Write ``table`` as CSV (header, then rows, decision last) to the binary file ``fh``.

    Byte for byte what :class:`csv.writer` writes (``\\n`` line ends, minimal quoting). A
    large table whose values need no quoting goes through pyarrow's writer in batches, from
    the codes (each value's text built once); otherwise rows are built in Python.
    """
    import csv
    import io

    header = [*table.attributes, table.decision_name]
    head = io.StringIO()
    csv.writer(head, lineterminator="\n").writerow(header)
    fh.write(head.getvalue().encode("utf-8"))
    labels = [*table.values, table.decision_values]
    plain = not any(c in v for vals in labels for v in vals for c in _STRUCTURAL)
    plain = plain and all(v != "" for vals in labels for v in vals)
    if table.n_rows < min_rows or not plain:
        _, records = table.to_records()
        body = io.StringIO()
        csv.writer(body, lineterminator="\n").writerows(records)
        fh.write(body.getvalue().encode("utf-8"))
        return
    import pyarrow as pa
    import pyarrow.csv as pacsv

    dictionaries = [pa.array(list(v), type=pa.string()) for v in labels]
    rows = [*table.codes, table.decisions]
    names = [f"c{j}" for j in range(len(rows))]
    options = pacsv.WriteOptions(include_header=False, quoting_style="none")
    schema = pa.schema([(nm, pa.string()) for nm in names])
    with pacsv.CSVWriter(fh, schema, write_options=options) as writer:
        for start in range(0, table.n_rows, WRITE_BATCH):
            stop = min(start + WRITE_BATCH, table.n_rows)
            cols = [
                pa.DictionaryArray.from_arrays(pa.array(r[start:stop]), d).cast(pa.string())
                for r, d in zip(rows, dictionaries)
            ]
            writer.write_batch(pa.record_batch(cols, names=names))


def midpoints(lo: np.ndarray, hi: np.ndarray, rounding: float) -> list[float]:
    """:func:`dagger_cli.data.thresholds.between` of each pair ``(lo[k], hi[k])`` by the
    compiled core (``thresholds_between`` in ``core/csv.cpp``: the same numbers, for the
    hundreds of thousands of thresholds a long numeric column has)."""
    from .. import _core

    lo = np.ascontiguousarray(lo, dtype=np.float64)
    hi = np.ascontiguousarray(hi, dtype=np.float64)
    return _core.thresholds_between(lo, hi, float(rounding)).tolist()
