"""Property-based tests: the engines against an independent brute force (tests/oracle.py).

The first half tests the oracle and the tree evaluator themselves on hand-computed
cases and against an explicit enumeration of trees; it does not need the engine.  The
second half compares ``dagger_cli.engine.relate`` with the oracle on random small tables.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

try:  # tests/ as a package or as a rootdir-inserted directory
    from .evaluate import check_valid_tree, cost_vector, evaluate_tree
    from .oracle import (
        COST_INDEX,
        COST_PAIRS,
        all_cost_vectors,
        brute_front,
        count_trees,
        dag_stats,
        dag_terminal_counts,
        least_x_brute,
        least_y_brute,
        merge_rows,
        pareto_front,
    )
    from .strategies import Table, mixed_tables, random_trees, tables
except ImportError:  # pragma: no cover
    from evaluate import check_valid_tree, cost_vector, evaluate_tree
    from oracle import (
        COST_INDEX,
        COST_PAIRS,
        all_cost_vectors,
        brute_front,
        count_trees,
        dag_stats,
        dag_terminal_counts,
        least_x_brute,
        least_y_brute,
        merge_rows,
        pareto_front,
    )
    from strategies import Table, mixed_tables, random_trees, tables

FIG4_ROWS = [(0, 0, 1), (1, 0, 1), (2, 1, 0), (3, 1, 0)]
FIG4_DECISIONS = [0, 1, 0, 1]

LAMBDA, MU = "total-path-length", "misclassifications"


# =========================================================================== oracle
def test_cost_names():
    assert COST_INDEX == {
        "depth": 0,
        "total-path-length": 1,
        "nodes": 2,
        "leaves": 3,
        "misclassifications": 4,
    }
    assert len(COST_PAIRS) == 20 and len(set(COST_PAIRS)) == 20


def test_fig4_by_hand():
    # Root: leaf; f1 split into 4 singletons; f2 (= f3) split into {r0,r1},{r2,r3}, each
    # child being a leaf (µ 1) or an f1 split (Λ 2, µ 0).
    assert all_cost_vectors(FIG4_ROWS, FIG4_DECISIONS) == {
        (0, 0, 1, 1, 2),  # leaf
        (1, 4, 5, 4, 0),  # f1
        (1, 4, 3, 2, 2),  # f2 or f3, two leaves
        (2, 6, 5, 3, 1),  # f2 or f3, one child split
        (2, 8, 7, 4, 0),  # f2 or f3, both children split
    }
    assert count_trees(FIG4_ROWS, FIG4_DECISIONS) == 1 + 1 + 4 + 4
    assert brute_front(FIG4_ROWS, FIG4_DECISIONS, LAMBDA, MU) == [(0, 2), (4, 0)]
    assert brute_front(FIG4_ROWS, FIG4_DECISIONS, "depth", MU) == [(0, 2), (1, 0)]
    assert brute_front(FIG4_ROWS, FIG4_DECISIONS, "nodes", MU) == [(1, 2), (5, 0)]
    assert brute_front(FIG4_ROWS, FIG4_DECISIONS, "leaves", MU) == [(1, 2), (3, 1), (4, 0)]
    assert brute_front(FIG4_ROWS, FIG4_DECISIONS, MU, LAMBDA) == [(0, 4), (2, 0)]
    assert brute_front(FIG4_ROWS, FIG4_DECISIONS, "nodes", "depth") == [(1, 0)]
    # Δ(T): root, 4 singletons, {r0,r1}, {r2,r3}; bundles: 3 at the root + 1 + 1;
    # edges: 4 + 2 + 2 at the root + 2 + 2.
    assert dag_stats(FIG4_ROWS, FIG4_DECISIONS) == (7, 5, 12)
    assert dag_terminal_counts(FIG4_ROWS, FIG4_DECISIONS) == (4, 4)


def test_two_rows_one_attribute_by_hand():
    rows, dec = [(0,), (1,)], [0, 1]
    assert all_cost_vectors(rows, dec) == {(0, 0, 1, 1, 1), (1, 2, 3, 2, 0)}
    assert count_trees(rows, dec) == 2
    assert brute_front(rows, dec, LAMBDA, MU) == [(0, 1), (2, 0)]
    assert brute_front(rows, dec, "depth", MU) == [(0, 1), (1, 0)]
    assert brute_front(rows, dec, "nodes", MU) == [(1, 1), (3, 0)]
    assert brute_front(rows, dec, "leaves", MU) == [(1, 1), (2, 0)]
    assert brute_front(rows, dec, "depth", "nodes") == [(0, 1)]
    assert dag_stats(rows, dec) == (3, 1, 2)


def test_three_rows_by_hand():
    # f1 separates {r0} from {r1, r2}; f2 separates {r0, r1} from {r2}.
    rows, dec = [(0, 0), (1, 0), (1, 1)], ["a", "b", "a"]
    # leaf: µ 1.  f1: {r0} pure, {r1,r2} leaf (µ 1) or f2 split.  f2: {r0,r1} leaf (µ 1)
    # or f1 split, {r2} pure.
    assert all_cost_vectors(rows, dec) == {
        (0, 0, 1, 1, 1),
        (1, 3, 3, 2, 1),
        (2, 5, 5, 3, 0),
    }
    assert count_trees(rows, dec) == 1 + 2 + 2
    assert brute_front(rows, dec, LAMBDA, MU) == [(0, 1), (5, 0)]
    # nodes: root, {r0}, {r1,r2}, {r0,r1}, {r1}, {r2}; bundles: root 2, {r1,r2} 1, {r0,r1} 1
    assert dag_stats(rows, dec) == (6, 4, 8)


def test_single_row():
    assert all_cost_vectors([(0, 1, 2)], [5]) == {(0, 0, 1, 1, 0)}
    assert count_trees([(0, 1, 2)], [5]) == 1
    assert dag_stats([(0, 1, 2)], [5]) == (1, 0, 0)


def test_equal_rows_with_different_decisions():
    # No attribute separates the rows: only the leaf, although R(Θ) > 0.
    rows, dec = [(0, 1), (0, 1), (0, 1)], [0, 1, 1]
    assert all_cost_vectors(rows, dec) == {(0, 0, 1, 1, 1)}
    assert count_trees(rows, dec) == 1
    assert dag_stats(rows, dec) == (1, 0, 0)
    assert dag_terminal_counts(rows, dec) == (0, 1)
    # With a separating row: the duplicates stay together in a leaf with µ 1.
    rows, dec = [(0,), (0,), (1,)], [0, 1, 1]
    assert all_cost_vectors(rows, dec) == {(0, 0, 1, 1, 1), (1, 3, 3, 2, 1)}
    assert brute_front(rows, dec, LAMBDA, MU) == [(0, 1)]


def test_pure_table_only_leaf():
    rows, dec = [(0, 0), (1, 0), (1, 1), (2, 1)], [3, 3, 3, 3]
    assert all_cost_vectors(rows, dec) == {(0, 0, 1, 1, 0)}
    assert count_trees(rows, dec) == 1
    assert dag_stats(rows, dec) == (1, 0, 0)


def test_merge_rows_by_hand():
    rows = [(0, 1), (0, 1), (1, 1), (0, 1), (1, 1), (1, 1)]
    dec = ["10", "9", "1", "10", "10", "9"]
    # numeric order: 9 < 10, so the tie of (1,1) -> ["1","10","9"] goes to "1".
    assert merge_rows(rows, dec) == ([("0", "1"), ("1", "1")], ["10", "1"])
    # string order once a label is not a number: "10" < "9"
    assert merge_rows([(0,), (0,)], ["9", "10"]) == ([("0",)], ["9"])
    assert merge_rows([(0,), (0,), (1,)], ["9", "10", "x"]) == ([("0",), ("1",)], ["10", "x"])


def test_pareto_front_helper():
    assert pareto_front([(3, 0), (0, 2), (1, 2), (4, 0), (2, 1), (2, 3)]) == [
        (0, 2),
        (2, 1),
        (3, 0),
    ]
    assert pareto_front([(1, 1), (1, 1)]) == [(1, 1)]


# =========================================================================== evaluator
FIG4_HEADER = ["f1", "f2", "f3", "d"]
FIG4_RECORDS = [[str(v) for v in r] + [str(d)] for r, d in zip(FIG4_ROWS, FIG4_DECISIONS)]


def test_evaluator_fig4():
    leaf = {"decision": "0"}
    assert evaluate_tree(leaf, FIG4_HEADER, FIG4_RECORDS) == {
        "depth": 0,
        "total_path_length": 0,
        "nodes": 1,
        "leaves": 1,
        "misclassifications": 2,
    }
    check_valid_tree(leaf, FIG4_HEADER, FIG4_RECORDS)
    tree = {
        "attribute": "f2",
        "extra": "ignored",
        "children": {
            "0": {
                "attribute": "f1",
                "children": {"0": {"decision": "0"}, "1": {"decision": "1", "n": 1}},
            },
            "1": {"decision": "0"},
        },
    }
    check_valid_tree(tree, FIG4_HEADER, FIG4_RECORDS)
    assert evaluate_tree(tree, FIG4_HEADER, FIG4_RECORDS) == {
        "depth": 2,
        "total_path_length": 6,
        "nodes": 5,
        "leaves": 3,
        "misclassifications": 1,
    }


def _rejects(tree, header, records, fragment):
    with pytest.raises(AssertionError) as err:
        check_valid_tree(tree, header, records)
    assert fragment in str(err.value), str(err.value)


def test_check_valid_tree_rejects():
    h, r = FIG4_HEADER, FIG4_RECORDS
    _rejects({"decision": "1"}, h, r, "most common")  # tie 0/1 -> 0
    # split on a pure subtable
    _rejects(
        {
            "attribute": "f1",
            "children": {
                "0": {"attribute": "f2", "children": {"0": {"decision": "0"}}},
                "1": {"decision": "1"},
                "2": {"decision": "0"},
                "3": {"decision": "1"},
            },
        },
        h,
        r,
        "only a leaf",
    )
    # constant attribute (f3 after f2)
    _rejects(
        {
            "attribute": "f2",
            "children": {
                "0": {"attribute": "f3", "children": {"1": {"decision": "0"}}},
                "1": {"decision": "0"},
            },
        },
        h,
        r,
        "constant",
    )
    # missing child
    _rejects({"attribute": "f2", "children": {"0": {"decision": "0"}}}, h, r, "children")
    # extra child (value absent from the subtable) -> empty subtable / children mismatch
    _rejects(
        {
            "attribute": "f2",
            "children": {"0": {"decision": "0"}, "1": {"decision": "0"}, "2": {"decision": "0"}},
        },
        h,
        r,
        "children",
    )
    # unknown attribute / the decision column
    _rejects(
        {"attribute": "d", "children": {"0": {"decision": "0"}, "1": {"decision": "1"}}},
        h,
        r,
        "not a conditional attribute",
    )
    # wrong leaf below a split
    _rejects(
        {"attribute": "f2", "children": {"0": {"decision": "1"}, "1": {"decision": "0"}}},
        h,
        r,
        "most common",
    )


def test_check_valid_tree_tie_order():
    h = ["a", "d"]
    numeric = [["0", "9"], ["0", "10"]]
    check_valid_tree({"decision": "9"}, h, numeric)  # 9 < 10 as numbers
    _rejects({"decision": "10"}, h, numeric, "most common")
    mixed = [["0", "9"], ["0", "10"], ["1", "x"]]
    check_valid_tree(
        {"attribute": "a", "children": {"0": {"decision": "10"}, "1": {"decision": "x"}}}, h, mixed
    )  # "10" < "9" as strings
    _rejects(
        {"attribute": "a", "children": {"0": {"decision": "9"}, "1": {"decision": "x"}}},
        h,
        mixed,
        "most common",
    )


def enumerate_trees(table: Table):
    """Every decision tree for the table as a dict, straight from the definition."""
    header, records = table.header(), table.records()
    labels = [r[-1] for r in records]
    try:
        [float(x) for x in labels]
        key = lambda d: (float(d), d)  # noqa: E731
    except ValueError:
        key = lambda d: d  # noqa: E731

    def trees(sub):
        counts = Counter(r[-1] for r in sub)
        best = max(counts.values())
        yield {"decision": min((d for d, c in counts.items() if c == best), key=key)}
        if len(counts) < 2:
            return
        for j in range(len(header) - 1):
            values = sorted({r[j] for r in sub})
            if len(values) < 2:
                continue
            child_sets = [list(trees([r for r in sub if r[j] == v])) for v in values]
            for combo in itertools.product(*child_sets):
                yield {"attribute": header[j], "children": dict(zip(values, combo))}

    return trees(records)


@settings(max_examples=80, deadline=None)
@given(mixed_tables(max_rows=6, max_attributes=3))
def test_oracle_matches_explicit_enumeration(table):
    n = count_trees(table.rows, table.decisions)
    assume(n <= 3000)
    header, records = table.header(), table.records()
    vectors = set()
    seen = 0
    for tree in enumerate_trees(table):
        check_valid_tree(tree, header, records)
        vectors.add(cost_vector(tree, header, records))
        seen += 1
    assert seen == n
    assert vectors == all_cost_vectors(table.rows, table.decisions)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_random_tree_is_valid_and_in_oracle(data):
    table = data.draw(mixed_tables(max_rows=9))
    tree = data.draw(random_trees(table))
    header, records = table.header(), table.records()
    check_valid_tree(tree, header, records)
    c = evaluate_tree(tree, header, records)
    assert (
        c["depth"],
        c["total_path_length"],
        c["nodes"],
        c["leaves"],
        c["misclassifications"],
    ) in all_cost_vectors(table.rows, table.decisions)
    assert c["total_path_length"] <= c["depth"] * table.n_rows
    assert c["leaves"] <= c["nodes"]


@settings(max_examples=100, deadline=None)
@given(mixed_tables())
def test_brute_front_properties(table):
    vectors = all_cost_vectors(table.rows, table.decisions)
    n = table.n_rows
    most = max(Counter(table.decisions).values())
    assert (0, 0, 1, 1, n - most) in vectors
    front = brute_front(table.rows, table.decisions, LAMBDA, MU)
    assert front[0] == (0, n - most)
    for x, y in COST_PAIRS:
        f = brute_front(table.rows, table.decisions, x, y)
        _check_front_shape(f)
        _check_proposition3(
            functools.partial(least_y_brute, vectors, x, y),
            functools.partial(least_x_brute, vectors, x, y),
            f,
        )


# =========================================================================== helpers
def _check_front_shape(points):
    assert points, "empty front"
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        assert x0 < x1, f"x not strictly ascending: {points}"
        assert y0 > y1, f"y not strictly descending: {points}"
    for p in points:
        assert all(isinstance(v, int) for v in p), f"non-int point {p!r}"


def _check_proposition3(F, G, points):
    """F(n) = min{k : G(k) <= n} and G(k) = min{n : F(n) <= k} over 0..max+1."""
    max_x = max(p[0] for p in points)
    max_y = max(p[1] for p in points)
    xs, ys = range(max_x + 2), range(max_y + 2)
    for n in xs:
        ks = [k for k in ys if G(k) is not None and G(k) <= n]
        assert F(n) == (min(ks) if ks else None), f"F({n}) != min{{k : G(k) <= {n}}}"
    for k in ys:
        ns = [n for n in xs if F(n) is not None and F(n) <= k]
        assert G(k) == (min(ns) if ns else None), f"G({k}) != min{{n : F(n) <= {k}}}"


# =========================================================================== engine
ENGINE_FILE = Path(__file__).resolve().parents[1] / "dagger_cli" / "engine" / "__init__.py"
HAVE_ENGINE = ENGINE_FILE.exists()
needs_engine = pytest.mark.skipif(not HAVE_ENGINE, reason="dagger_cli/engine.py not written yet")


def _engine():
    # Imported lazily so that a broken engine fails these tests instead of hiding them.
    from dagger_cli.data.table import DecisionTable
    from dagger_cli.engine import ENGINES, relate
    from dagger_cli.errors import DaggerError

    return relate, ENGINES, DecisionTable, DaggerError


def _prepare(table: Table, duplicates: str):
    """The engine's table and the rows/decisions the oracle must use for it."""
    _, _, DecisionTable, _ = _engine()
    t = DecisionTable.from_rows(list(table.rows), list(table.decisions), duplicates=duplicates)
    if duplicates == "keep":
        rows, dec = list(table.rows), list(table.decisions)
        assert t.n_rows == table.n_rows
    else:
        rows, dec = t.rows(), t.decision_labels()
        expected = merge_rows(table.rows, table.decisions)
        assert sorted(zip(rows, dec)) == sorted(zip(*expected)), "merge preprocessing differs"
    return t, rows, dec


def _relate(t, x, y, engine):
    relate, _, _, _ = _engine()
    return relate(t, x=x, y=y, engine=engine)


def _explain(table, duplicates, engine, x, y, got, want):
    return (
        f"{engine} engine, duplicates={duplicates}, x={x}, y={y}: {table!r}\n"
        f"  engine front: {got}\n  brute front:  {want}"
    )


@needs_engine
def test_engine_names():
    _, ENGINES, _, _ = _engine()
    assert tuple(ENGINES) == ("fast", "baseline", "paper", "ordered")


@needs_engine
@pytest.mark.parametrize("engine", ["fast", "baseline", "paper"])
def test_fig4_engine(engine):
    _, _, DecisionTable, _ = _engine()
    t = DecisionTable.from_rows(FIG4_ROWS, FIG4_DECISIONS)
    r = _relate(t, LAMBDA, MU, engine)
    assert r.front.points() == [(0, 2), (4, 0)]
    assert r.front.n_rows == 4
    if engine != "paper":
        for x, y in COST_PAIRS:
            assert _relate(t, x, y, engine).front.points() == brute_front(
                FIG4_ROWS, FIG4_DECISIONS, x, y
            )
        s = r.stats
        assert (s.subtables, s.bundles, s.edges) == (7, 5, 12)


def _minimal_table(table: Table, fails, budget: int = 400) -> Table:
    """Greedy shrink of ``table`` while ``fails(table)``: drop rows, drop attributes,
    lower values and decisions.  (The uniform half of the strategy shrinks poorly in
    hypothesis; this gives a small reproducer in the failure message.)"""
    rows, dec = [list(r) for r in table.rows], list(table.decisions)
    labels = sorted(set(dec))

    def ok(r, d):
        nonlocal budget
        if budget <= 0:
            return False
        budget -= 1
        return fails(Table(tuple(tuple(x) for x in r), tuple(d)))

    changed = True
    while changed and budget > 0:
        changed = False
        for i in reversed(range(len(rows))):
            if len(rows) > 1 and i < len(rows):
                r, d = rows[:i] + rows[i + 1 :], dec[:i] + dec[i + 1 :]
                if ok(r, d):
                    rows, dec, changed = r, d, True
        for j in reversed(range(len(rows[0]))):
            if len(rows[0]) > 1 and j < len(rows[0]):
                r = [x[:j] + x[j + 1 :] for x in rows]
                if ok(r, dec):
                    rows, changed = r, True
        for i in range(len(rows)):
            for j in range(len(rows[0])):
                for v in range(rows[i][j]):
                    r = [list(x) for x in rows]
                    r[i][j] = v
                    if ok(r, dec):
                        rows, changed = r, True
                        break
            for lab in labels:
                if lab != dec[i]:
                    d = dec[:i] + [lab] + dec[i + 1 :]
                    if ok(rows, d):
                        dec, changed = d, True
                        break
    return Table(tuple(tuple(x) for x in rows), tuple(dec))


def _minimized(check):
    """Run ``check(table, *args)``; on failure add a greedily minimised failing table."""

    def run(table, *args):
        try:
            check(table, *args)
        except Exception as err:  # noqa: BLE001 - crashes of the engine count as failures

            def fails(t):
                try:
                    check(t, *args)
                except Exception:  # noqa: BLE001
                    return True
                return False

            small = _minimal_table(table, fails)
            try:
                check(small, *args)
                detail = "(passes?)"
            except Exception as err2:  # noqa: BLE001
                detail = f"{type(err2).__name__}: {err2}"
            raise AssertionError(
                f"{type(err).__name__}: {err}\n\n"
                f"MINIMAL FAILING TABLE {small!r}, args {args}:\n{detail}"
            ) from err

    return run


def _check_default_pair(table):
    for duplicates in ("keep", "merge"):
        t, rows, dec = _prepare(table, duplicates)
        want = brute_front(rows, dec, LAMBDA, MU)
        for engine in ("fast", "baseline", "paper"):
            r = _relate(t, LAMBDA, MU, engine)
            got = r.front.points()
            assert got == want, _explain(table, duplicates, engine, LAMBDA, MU, got, want)
            assert r.front.n_rows == len(rows)


@needs_engine
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mixed_tables())
def test_default_pair_matches_bruteforce(table):
    """(Λ, µ): fast, baseline and paper engines == brute force, duplicates keep and merge."""
    _minimized(_check_default_pair)(table)


def _check_pair(table, x, y, duplicates):
    t, rows, dec = _prepare(table, duplicates)
    want = brute_front(rows, dec, x, y)
    for engine in ("fast", "baseline"):
        got = _relate(t, x, y, engine).front.points()
        assert got == want, _explain(table, duplicates, engine, x, y, got, want)


@needs_engine
@pytest.mark.parametrize("x,y", COST_PAIRS, ids=[f"{x}-vs-{y}" for x, y in COST_PAIRS])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=mixed_tables(), duplicates=st.sampled_from(["keep", "merge"]))
def test_all_pairs_match_bruteforce(x, y, table, duplicates):
    """Every ordered pair of costs: fast and baseline == brute force."""
    _minimized(_check_pair)(table, x, y, duplicates)


def _check_invariants(table, x, y, duplicates, engine):
    t, rows, dec = _prepare(table, duplicates)
    vectors = all_cost_vectors(rows, dec)
    front = _relate(t, x, y, engine).front
    points = front.points()
    _check_front_shape(points)
    ix, iy = COST_INDEX[x], COST_INDEX[y]
    # every point is realised by a tree, and no tree dominates a point
    for px, py in points:
        assert any(v[ix] == px and v[iy] == py for v in vectors), f"({px}, {py}) is no tree's costs"
        assert not any(
            v[ix] <= px and v[iy] <= py and (v[ix], v[iy]) != (px, py) for v in vectors
        ), f"({px}, {py}) is dominated"
    assert points[0][0] == min(v[ix] for v in vectors)
    assert points[-1][1] == min(v[iy] for v in vectors)
    if (x, y) == (LAMBDA, MU):
        assert points[0] == (0, len(rows) - max(Counter(dec).values()))
    _check_proposition3(front.least_y, front.least_x, points)
    for n in range(points[-1][0] + 2):
        assert front.least_y(n) == least_y_brute(vectors, x, y, n), f"F({n})"
    for k in range(points[0][1] + 2):
        assert front.least_x(k) == least_x_brute(vectors, x, y, k), f"G({k})"


@needs_engine
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=mixed_tables(),
    pair=st.sampled_from(COST_PAIRS),
    duplicates=st.sampled_from(["keep", "merge"]),
    engine=st.sampled_from(["fast", "baseline"]),
)
def test_front_invariants(table, pair, duplicates, engine):
    """Shape, non-domination, end points, Proposition 3 (F/G inverse), F and G == brute."""
    _minimized(_check_invariants)(table, pair[0], pair[1], duplicates, engine)


def _check_stats(table, duplicates):
    t, rows, dec = _prepare(table, duplicates)
    want = dag_stats(rows, dec)
    terminal = dag_terminal_counts(rows, dec)
    for engine in ("fast", "baseline", "paper"):
        s = _relate(t, LAMBDA, MU, engine).stats
        got = (s.subtables, s.bundles, s.edges)
        assert got == want, (
            f"{engine}, duplicates={duplicates}: {table!r}\n"
            f"  engine (subtables, bundles, edges) = {got}, DAG = {want}"
        )
        # terminal = nodes without bundles (differs from "nodes with one decision" only for
        # equal rows with different decisions, kept)
        assert s.terminal == terminal[1], (
            f"{engine}: terminal {s.terminal}, DAG (one decision, no bundles) = {terminal}"
        )


@needs_engine
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=mixed_tables(), duplicates=st.sampled_from(["keep", "merge"]))
def test_stats_match_dag(table, duplicates):
    """subtables/bundles/edges/terminal of Δ(T) == an independent BFS (oracle.dag_stats)."""
    _minimized(_check_stats)(table, duplicates)


def _check_larger(table, x, y, duplicates):
    t, rows, dec = _prepare(table, duplicates)
    want = brute_front(rows, dec, x, y)
    engines = ("fast", "baseline", "paper") if (x, y) == (LAMBDA, MU) else ("fast", "baseline")
    for engine in engines:
        got = _relate(t, x, y, engine).front.points()
        assert got == want, _explain(table, duplicates, engine, x, y, got, want)
    s = _relate(t, x, y, "fast").stats
    assert (s.subtables, s.bundles, s.edges) == dag_stats(rows, dec)


@needs_engine
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=mixed_tables(
        min_rows=6,
        max_rows=12,
        max_attributes=5,
        max_values=4,
        max_decisions=4,
        labels=("0", "1", "2", "3"),
    ),
    pair=st.sampled_from(COST_PAIRS),
    duplicates=st.sampled_from(["keep", "merge"]),
)
def test_larger_tables_match_bruteforce(table, pair, duplicates):
    """Beyond the 7-row tables of the brief: up to 12 rows, 5 attributes, 4 values."""
    _minimized(_check_larger)(table, pair[0], pair[1], duplicates)


TREES_FILE = ENGINE_FILE.parents[1] / "trees.py"


def _check_extracted_trees(table, x, y, duplicates):
    from dagger_cli.trees import extract_tree

    t, rows, dec = _prepare(table, duplicates)
    header, records = t.to_records()
    vectors = all_cost_vectors(rows, dec)
    r = _relate(t, x, y, "fast")
    key = {"total-path-length": "total_path_length"}
    for k, (px, py) in enumerate(r.front.points()):
        tree = extract_tree(r, k)
        d = tree.root.to_dict()
        check_valid_tree(d, header, records)
        c = evaluate_tree(d, header, records)
        assert (c[key.get(x, x)], c[key.get(y, y)]) == (px, py), (
            f"tree of point {k} = ({px}, {py}) has costs {c}: {d}"
        )
        assert cost_vector(d, header, records) in vectors
        for name, v in c.items():
            assert tree.table_costs[name] == v, f"Tree.table_costs[{name!r}]"


@needs_engine
@pytest.mark.skipif(not TREES_FILE.exists(), reason="dagger_cli/trees.py not written yet")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=mixed_tables(max_rows=9),
    pair=st.sampled_from(COST_PAIRS),
    duplicates=st.sampled_from(["keep", "merge"]),
)
def test_extracted_trees_are_valid_and_realise_their_points(table, pair, duplicates):
    """(Beyond the contract) dagger_cli.trees.extract_tree: every front point's tree is a
    valid decision tree for the prepared table whose evaluated costs are the point."""
    _minimized(_check_extracted_trees)(table, pair[0], pair[1], duplicates)


# --------------------------------------------------------------------------- edge cases
@needs_engine
@settings(max_examples=30, deadline=None)
@given(table=tables(max_rows=1), duplicates=st.sampled_from(["keep", "merge"]))
def test_single_row_engine(table, duplicates):
    t, _, _ = _prepare(table, duplicates)
    for engine in ("fast", "baseline"):
        for x, y in COST_PAIRS:
            leaf = (0, 0, 1, 1, 0)
            assert _relate(t, x, y, engine).front.points() == [
                (leaf[COST_INDEX[x]], leaf[COST_INDEX[y]])
            ]
    assert _relate(t, LAMBDA, MU, "paper").front.points() == [(0, 0)]


@needs_engine
@settings(max_examples=40, deadline=None)
@given(table=tables(max_attributes=1, max_values=3), duplicates=st.sampled_from(["keep", "merge"]))
def test_single_attribute_engine(table, duplicates):
    t, rows, dec = _prepare(table, duplicates)
    for engine in ("fast", "baseline", "paper"):
        pairs = [(LAMBDA, MU)] if engine == "paper" else COST_PAIRS
        for x, y in pairs:
            got = _relate(t, x, y, engine).front.points()
            want = brute_front(rows, dec, x, y)
            assert got == want, _explain(table, duplicates, engine, x, y, got, want)


@needs_engine
@settings(max_examples=30, deadline=None)
@given(table=tables(max_decisions=1), duplicates=st.sampled_from(["keep", "merge"]))
def test_one_decision_engine(table, duplicates):
    t, _, _ = _prepare(table, duplicates)
    for engine in ("fast", "baseline", "paper"):
        assert _relate(t, LAMBDA, MU, engine).front.points() == [(0, 0)]
    for engine in ("fast", "baseline"):
        s = _relate(t, LAMBDA, MU, engine).stats
        assert (s.subtables, s.bundles, s.edges) == (1, 0, 0)
        for x, y in COST_PAIRS:
            leaf = (0, 0, 1, 1, 0)
            assert _relate(t, x, y, engine).front.points() == [
                (leaf[COST_INDEX[x]], leaf[COST_INDEX[y]])
            ]


@needs_engine
def test_equal_rows_conflicting_keep():
    _, _, DecisionTable, _ = _engine()
    t = DecisionTable.from_rows([(0, 0), (0, 0), (0, 0), (1, 0)], [1, 0, 0, 1], duplicates="keep")
    want = brute_front([(0, 0), (0, 0), (0, 0), (1, 0)], [1, 0, 0, 1], LAMBDA, MU)
    assert want == [(0, 2), (4, 1)]
    for engine in ("fast", "baseline", "paper"):
        assert _relate(t, LAMBDA, MU, engine).front.points() == want


@needs_engine
@pytest.mark.parametrize("x,y", [p for p in COST_PAIRS if p != (LAMBDA, MU)])
def test_paper_engine_rejects_other_pairs(x, y):
    _, _, DecisionTable, DaggerError = _engine()
    t = DecisionTable.from_rows(FIG4_ROWS, FIG4_DECISIONS)
    with pytest.raises(DaggerError):
        _relate(t, x, y, "paper")
