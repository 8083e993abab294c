"""The columnar CSV reader gives exactly the Python reader's table, or hands over to it; its
compiled parts (``core/csv.cpp``: the dense vote, the factorization of row keys) against
the sorting vote and a dictionary."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dagger_cli import _core
from dagger_cli.data import csv as csvfast
from dagger_cli.data.table import DecisionTable
from dagger_cli.errors import InputError

VALUES = ["0", "1", "2", " 1", "1 ", "10", "a", "b", "?", "", "NA", "1.0", "x y"]
OPTIONS = [{}, {"missing": "value"}, {"duplicates": "keep"}, {"decision": "c0"}, {"drop": ("c1",)}]


def read(path, reader, monkeypatch, **kw):
    monkeypatch.setenv(csvfast.ENV_READER, reader)
    try:
        return DecisionTable.from_csv(path, **kw), None
    except InputError as err:
        return None, str(err)


def assert_same(a, b):
    assert (a.name, a.attributes, a.decision_name) == (b.name, b.attributes, b.decision_name)
    assert a.values == b.values
    assert a.codes.dtype == b.codes.dtype == np.int32
    np.testing.assert_array_equal(a.codes, b.codes)
    assert a.decision_values == b.decision_values
    np.testing.assert_array_equal(a.decisions, b.decisions)
    assert a.report == b.report
    assert a.fills == b.fills  # what a missing value reads as at prediction


@pytest.mark.parametrize("seed", range(3))
def test_columnar_reader_equals_the_python_reader(tmp_path, monkeypatch, seed):
    rng = random.Random(seed)
    used = []
    original = csvfast.read_table

    def counting(*args, **kwargs):
        table = original(*args, **kwargs)
        used.append(table is not None)
        return table

    monkeypatch.setattr(csvfast, "read_table", counting)
    for trial in range(60):
        m, n = rng.randint(1, 5), rng.randint(1, 60)
        sep = rng.choice([",", ";", "\t", "|"])
        pool = [rng.sample(VALUES, rng.randint(1, 5)) for _ in range(m + 1)]
        lines = [sep.join(f"c{j}" for j in range(m + 1))]
        lines += [sep.join(rng.choice(pool[j]) for j in range(m + 1)) for _ in range(n)]
        if rng.random() < 0.3 and n > 2:
            lines += rng.sample(lines[1:], 2)
        path = tmp_path / f"t{trial}.csv"
        path.write_text("\n".join(lines) + "\n")
        kw = rng.choice(OPTIONS)
        a, err_a = read(path, "python", monkeypatch, **kw)
        b, err_b = read(path, "columnar", monkeypatch, **kw)
        assert err_a == err_b
        if a is not None:
            assert_same(a, b)
    # Both paths ran: tables read by the columnar reader, and hand-overs to the Python one.
    assert sum(used) >= 15 and used.count(False) >= 5


def test_bad_line_is_reported_by_the_python_reader(tmp_path, monkeypatch):
    path = tmp_path / "bad.csv"
    path.write_text("a,b,d\n1,2,x\n1,2\n")
    monkeypatch.setenv(csvfast.ENV_READER, "columnar")
    with pytest.raises(InputError, match="line 3: 2 fields, expected 3"):
        DecisionTable.from_csv(path)


def test_many_columns_renumber_the_row_keys(tmp_path, monkeypatch):
    rng = np.random.default_rng(5)
    rows = rng.integers(0, 2, (400, 70))
    rows[200:] = rows[:200]  # every row twice: 200 groups
    rows[:, -1] = rng.integers(0, 2, 400)
    path = tmp_path / "wide.csv"
    head = ",".join(f"a{j}" for j in range(70))
    path.write_text(head + "\n" + "\n".join(",".join(map(str, r)) for r in rows) + "\n")
    a, _ = read(path, "python", monkeypatch, duplicates="merge")
    b, _ = read(path, "columnar", monkeypatch, duplicates="merge")
    assert a.n_rows == 200
    assert_same(a, b)
    a, _ = read(path, "python", monkeypatch)
    b, _ = read(path, "columnar", monkeypatch)
    assert a.n_rows == 400 and a.report.equal_rows == 200
    assert_same(a, b)


def test_vote_dense_and_sparse_agree():
    rng = np.random.default_rng(2)
    for groups, n_dec in [(1, 1), (5, 3), (50, 7), (300, 40)]:
        gid = rng.integers(0, groups, 2000).astype(np.int32)
        gid[:groups] = np.arange(groups)
        dec = rng.integers(0, n_dec, 2000).astype(np.int32)
        dense = csvfast._vote(gid, dec, groups, n_dec, dense=True)
        sparse = csvfast._vote(gid, dec, groups, n_dec, dense=False)
        np.testing.assert_array_equal(dense[0], sparse[0])
        assert dense[1:] == sparse[1:]
        counts = np.zeros((groups, n_dec), int)
        np.add.at(counts, (gid, dec), 1)
        np.testing.assert_array_equal(dense[0], counts.argmax(axis=1))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 30), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_vote_dense_equals_the_sorting_vote(groups, n_dec, seed):
    rng = np.random.default_rng(seed)
    gid = np.r_[np.arange(groups), rng.integers(0, groups, 50)].astype(np.int32)
    dec = rng.integers(0, n_dec, gid.size).astype(np.int32)
    dense = csvfast._vote(gid, dec, groups, n_dec, dense=True)
    sparse = csvfast._vote(gid, dec, groups, n_dec, dense=False)
    np.testing.assert_array_equal(dense[0], sparse[0])
    assert dense[0].dtype == np.int32 and dense[1:] == sparse[1:]
    with pytest.raises(ValueError):  # a group id out of range is refused, not written
        _core.csv_vote_dense(gid, dec, groups - 1 if groups > 1 else 0, n_dec)


def test_factorize_numbers_in_order_of_appearance():
    keys = np.array([7, -3, 7, 2**62, -3, 0], dtype=np.int64)
    ids, first = csvfast._factorize(keys)
    assert ids.tolist() == [0, 1, 0, 2, 1, 3]
    assert first.tolist() == [0, 1, 3, 5]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3), max_size=200))
def test_factorize_numbers_keys_by_first_appearance(keys):
    ids, first = csvfast._factorize(np.array(keys, dtype=np.int64))
    seen: dict[int, int] = {}
    want = [seen.setdefault(v, len(seen)) for v in keys]
    assert ids.dtype == np.int32 and ids.tolist() == want
    assert first.dtype == np.int32 and first.tolist() == [keys.index(v) for v in seen]


@pytest.mark.parametrize("structural", [False, True])
def test_fast_writer_writes_the_csv_writer_bytes(structural):
    import csv
    import io

    from dagger_cli.data.csv import write_prepared

    rng = random.Random(7)
    vals = ["0", "1", "2", "a", "b b", "1.5", "?", "é"] + (["x,y", 'q"q'] if structural else [])
    for _ in range(40):
        m, n = rng.randint(1, 4), rng.randint(1, 50)
        rows = [[rng.choice(vals) for _ in range(m)] for _ in range(n)]
        dec = [rng.choice(["y", "n", "1"] + (["z,z"] if structural else [])) for _ in range(n)]
        table = DecisionTable.from_rows(rows, dec, missing=rng.choice(["mode", "value"]))
        want = io.StringIO()
        header, records = table.to_records()
        csv.writer(want, lineterminator="\n").writerows([header, *records])
        fast = io.BytesIO()
        write_prepared(table, fast, min_rows=0)
        assert fast.getvalue() == want.getvalue().encode("utf-8")


def test_thresholds_reach_a_file_of_more_than_4_mib(tmp_path, monkeypatch):
    """A file big enough for the columnar reader (which implements no thresholds) with
    ``thresholds=8``: every numeric column becomes one ordered attribute of at most 8
    thresholds, as on a small file (issue 26: the numbers stayed nominal values, silently)."""
    monkeypatch.delenv(csvfast.ENV_READER, raising=False)
    rng = np.random.default_rng(3)
    n = 150_000
    x = rng.integers(10**7, 10**8, size=(n, 3))
    lines = ["a,b,c,label"] + [f"{p},{q},{r},{'yn'[p % 2]}" for p, q, r in x.tolist()]
    path = tmp_path / "big.csv"
    path.write_text("\n".join(lines) + "\n")
    assert path.stat().st_size > csvfast.MIN_BYTES
    table = DecisionTable.from_csv(path, thresholds=8)
    assert sorted(table.ordered) == ["a", "b", "c"] and 3 < table.n_tests <= 24


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 40),
    st.lists(st.sampled_from([1, 2, 3, 7, 1 << 20, 1 << 31]), min_size=0, max_size=6),
    st.integers(0, 2**32 - 1),
)
def test_row_groups_rank_the_rows_as_a_sort_of_whole_rows(n, widths, seed):
    """Each row's rank among the distinct rows, lexicographically: the same numbers as
    numpy's sort of whole rows, also when a row's joined number must be renumbered
    (columns of up to 2^31 values)."""
    from dagger_cli.data.report import row_groups

    rng = np.random.default_rng(seed)
    codes = np.array([rng.integers(0, w, n) for w in widths], dtype=np.int64).reshape(-1, n)
    # a few rows repeated, so that groups have several rows
    codes[:, n // 2 :] = codes[:, : n - n // 2]
    want = (
        np.unique(codes.T, axis=0, return_inverse=True)[1].reshape(-1)
        if codes.shape[0]
        else np.zeros(n, dtype=np.int64)
    )
    assert row_groups(codes).tolist() == want.tolist()
