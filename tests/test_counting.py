"""Counting optimal trees and staged optimisation against the brute force (tests/oracle.py).

The oracle enumerates every tree's cost vector with its multiplicity
(:func:`tests.oracle.cost_vector_counts`); the count at a Pareto point is the number of
trees whose projection is that point, and staged optimisation is filtering those trees
stage by stage.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import replace

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.data.families import sorting, sorting_records
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import build_dag, relate
from dagger_cli.engine.counting import abbreviate, optimize
from dagger_cli.errors import InputError
from tests.oracle import (
    COST_INDEX,
    COST_PAIRS,
    COSTS,
    cost_vector_counts,
    pareto_front,
    staged_brute,
)
from tests.strategies import mixed_tables


def _table(data, duplicates):
    t = DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates=duplicates)
    return t, cost_vector_counts(t.rows(), t.decision_labels())


def _brute_counts(vc: Counter, x: str, y: str):
    ix, iy = COST_INDEX[x], COST_INDEX[y]
    proj: Counter = Counter()
    for v, k in vc.items():
        proj[(v[ix], v[iy])] += k
    front = pareto_front(proj)
    return front, [proj[p] for p in front]


# ------------------------------------------------------------------------------ oracle
def test_oracle_counts_add_up_to_all_trees():
    from tests.oracle import all_cost_vectors, count_trees

    rows = [(0, 0, 1), (1, 0, 1), (2, 1, 0), (3, 1, 0), (1, 1, 1)]
    dec = ["a", "b", "b", "a", "a"]
    vc = cost_vector_counts(rows, dec)
    assert sum(vc.values()) == count_trees(rows, dec)
    assert set(vc) == all_cost_vectors(rows, dec)


def test_oracle_counts_by_hand():
    # Two rows, one attribute: the leaf (µ 1) and the split (depth 1, Λ 2, 3 nodes).
    vc = cost_vector_counts([(0,), (1,)], ["a", "b"])
    assert vc == Counter({(0, 0, 1, 1, 1): 1, (1, 2, 3, 2, 0): 1})
    # Two attributes that both separate them: two split trees with the same vector.
    vc = cost_vector_counts([(0, 0), (1, 1)], ["a", "b"])
    assert vc[(1, 2, 3, 2, 0)] == 2
    assert cost_vector_counts([(0, 0), (1, 1)], ["a", "b"], exact_only=True) == Counter(
        {(1, 2, 3, 2, 0): 2}
    )


def test_staged_brute_by_hand():
    vc = Counter({(0, 0, 1, 1, 2): 1, (1, 4, 3, 2, 0): 3, (2, 4, 5, 3, 0): 2})
    assert staged_brute(vc, ["misclassifications", "depth"]) == [(0, 5), (1, 3)]
    assert staged_brute(vc, ["total-path-length"]) == [(0, 1)]


# ------------------------------------------------------------------------------ relate
@settings(max_examples=60, deadline=None)
@given(
    data=mixed_tables(max_rows=6, max_attributes=3),
    duplicates=st.sampled_from(["keep", "merge"]),
    exact=st.booleans(),
)
def test_counts_at_every_pareto_point_every_pair(data, duplicates, exact):
    t = DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates=duplicates)
    vc = cost_vector_counts(t.rows(), t.decision_labels(), exact_only=exact)
    for x, y in COST_PAIRS:
        front, counts = _brute_counts(vc, x, y)
        rel = relate(t, x, y, exact_only=exact, count=True)
        assert rel.front.points() == front, (x, y)
        assert list(rel.front.counts) == counts, (x, y, data)


@settings(max_examples=40, deadline=None)
@given(
    data=mixed_tables(max_rows=6, max_attributes=3),
    duplicates=st.sampled_from(["keep", "merge"]),
    exact=st.booleans(),
    cap=st.integers(0, 2),
)
def test_counts_under_a_depth_cap_every_pair(data, duplicates, exact, cap):
    t = DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates=duplicates)
    vc = cost_vector_counts(t.rows(), t.decision_labels(), exact_only=exact)
    vc = Counter({v: k for v, k in vc.items() if v[COST_INDEX["depth"]] <= cap})
    for x, y in COST_PAIRS:
        if not vc:
            with pytest.raises(InputError):
                relate(t, x, y, exact_only=exact, count=True, max_depth=cap)
            continue
        front, counts = _brute_counts(vc, x, y)
        rel = relate(t, x, y, exact_only=exact, count=True, max_depth=cap)
        assert rel.front.points() == front, (x, y)
        assert list(rel.front.counts) == counts, (x, y, cap, data)


def test_count_needs_fast_engine():
    t = DecisionTable.from_rows([(0,), (1,)], ["a", "b"])
    with pytest.raises(InputError, match="fast engine"):
        relate(t, engine="baseline", count=True)


def test_restrict_keeps_counts():
    t = DecisionTable.from_rows([(0, 0), (1, 1), (1, 0)], ["a", "b", "a"])
    front = relate(t, count=True).front
    sub = front.restrict(y_max=0)
    assert sub.points() == front.points()[-1:]
    assert sub.counts == front.counts[-1:]
    assert sub.records()[0]["trees"] == front.counts[-1]


# ------------------------------------------------------------------------------ optimize
ORDERS = st.permutations(COSTS).flatmap(
    lambda p: st.integers(1, len(p)).map(lambda k: tuple(p[:k]))
)


@settings(max_examples=80, deadline=None)
@given(
    data=mixed_tables(max_rows=6, max_attributes=3),
    duplicates=st.sampled_from(["keep", "merge"]),
    exact=st.booleans(),
    order=ORDERS,
    cap=st.one_of(st.none(), st.integers(0, 3)),
)
def test_staged_equals_filtering_every_tree(data, duplicates, exact, order, cap):
    t = DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates=duplicates)
    vc = cost_vector_counts(t.rows(), t.decision_labels(), exact_only=exact)
    if cap is not None:  # a depth cap: the same over the trees of depth <= cap
        vc = Counter({v: k for v, k in vc.items() if v[COST_INDEX["depth"]] <= cap})
        if not vc:
            with pytest.raises(InputError, match="no tree has depth"):
                optimize(t, list(order), exact_only=exact, max_depth=cap)
            return
    res = optimize(t, list(order), exact_only=exact, max_depth=cap)
    assert [(s.value, s.trees) for s in res.stages] == staged_brute(vc, order)
    # Under a cap, on the capped DAG (the subtables within cap splits), not the whole one.
    assert res.stats == build_dag(t, max_depth=cap).stats
    assert res.tree.costs()["depth"] <= (cap if cap is not None else 99)
    # Total optimality: each later cost's least value over every tree (within the cap).
    for rec in res.total_optimality:
        i = COST_INDEX[rec["cost"]]
        assert rec["least"] == min(v[i] for v in vc)
        assert rec["totally_optimal"] == (rec["final"] == rec["least"])
    # The tree shown is one of the final set.
    costs = res.tree.costs()
    for s in res.stages:
        assert costs[s.cost.replace("-", "_")] == s.value


def test_order_errors():
    t = DecisionTable.from_rows([(0,), (1,)], ["a", "b"])
    with pytest.raises(InputError, match="twice"):
        optimize(t, "depth,depth")
    with pytest.raises(InputError, match="unknown cost"):
        optimize(t, "depth,height")
    with pytest.raises(InputError, match="commas"):
        optimize(t, "depth,,nodes")


# ------------------------------------------------------------------------------ sorting
@pytest.mark.parametrize(
    "n, tpl, depth, trees", [(3, 16, 3, 12), (4, 112, 5, 27_744), (5, 832, 7, 2_418_647_040)]
)
def test_sorting_knuth_and_counts(n, tpl, depth, trees):
    t = sorting(n)
    res = optimize(t, ["total-path-length", "depth"], exact_only=True)
    assert [(s.value, s.trees) for s in res.stages] == [(tpl, trees), (depth, trees)]
    assert res.total_optimality[0]["totally_optimal"]
    rel = relate(t, "depth", "total-path-length", exact_only=True, count=True)
    assert rel.front.points() == [(depth, tpl)]
    assert rel.front.counts == (trees,)
    # Sorting trees never misclassify: the same over all trees with µ = 0.
    res = optimize(t, ["misclassifications", "total-path-length"])
    assert [(s.value, s.trees) for s in res.stages] == [(0, res.stages[0].trees), (tpl, trees)]


def test_sorting_table_shape():
    t = sorting(4)
    assert (t.n_rows, t.n_attributes) == (24, 6)
    assert len(set(t.decision_labels())) == 24
    recs = sorting_records(3)
    assert recs[0] == ["1", "1", "1", "x1<x2<x3"]
    assert recs[-1] == ["0", "0", "0", "x3<x2<x1"]
    with pytest.raises(InputError, match="2 <= N <= 9"):
        sorting(10)
    with pytest.raises(InputError, match="nothing to sort"):
        sorting(1)


def test_sorting_brute_force_small():
    # N = 3 through the oracle too (12 optimal trees of 16 comparisons in all).
    t = sorting(3)
    vc = cost_vector_counts(t.rows(), t.decision_labels(), exact_only=True)
    assert staged_brute(vc, ["total-path-length", "depth"]) == [(16, 12), (3, 12)]


# ------------------------------------------------------------------------------ text
def test_abbreviate():
    assert abbreviate(0) == "0"
    assert abbreviate(999_999_999_999_999) == "999,999,999,999,999"
    assert abbreviate(10**15) == "1.000e+15"
    assert abbreviate(8548 * 10**326362 + 7) == "8.548e+326365"
    assert abbreviate(99_995 * 10**20) == "1.000e+25"
    assert abbreviate(99_994 * 10**20) == "9.999e+24"


# ------------------------------------------------------------------------------ CLI
@pytest.fixture
def run():
    def _run(*args):
        return CliRunner().invoke(main, list(args), catch_exceptions=False)

    return _run


def test_cli_relate_count_formats(run, tmp_path):
    r = run("relate", "--example", "--count")
    assert r.exit_code == 0
    assert r.stdout.splitlines()[1].split()[-1] == "trees"
    r = run("relate", "--example", "--count", "--format", "csv")
    assert (
        r.stdout
        == "total_path_length,average_depth,misclassifications,trees\n0,0.0,2,1\n4,1.0,0,1\n"
    )
    doc = json.loads(run("relate", "--example", "--count", "--format", "json").stdout)
    assert [p["trees"] for p in doc["points"]] == [1, 1]
    r = run("relate", "--example", "--count", "--engine", "baseline")
    assert r.exit_code == 2 and "fast engine" in r.stderr


def test_cli_huge_count_exact_in_csv_abbreviated_in_text(run, tmp_path):
    csv_path = tmp_path / "s5.csv"
    assert run("example", "sorting", "5", "-o", str(csv_path)).exit_code == 0
    args = ["relate", str(csv_path), "--x", "misclassifications", "--y", "nodes", "--count", "-q"]
    text = run(*args).stdout
    out = run(*args, "--format", "csv").stdout
    count = int(out.splitlines()[1].split(",")[-1])
    assert count > 10**15
    assert abbreviate(count) in text and str(count) not in text


def test_cli_optimize(run, tmp_path):
    r = run("optimize", "--example", "--order", "misclassifications,total-path-length")
    assert r.exit_code == 0
    assert "totally optimal for (misclassifications, total-path-length): no" in r.stdout
    assert "f1 = 0" in r.stdout or "f2 = 0" in r.stdout or "f3 = 0" in r.stdout
    doc = json.loads(
        run("optimize", "--example", "--order", "depth,nodes", "--format", "json").stdout
    )
    assert doc["stages"] == [
        {"cost": "depth", "value": 0, "trees": 1},
        {"cost": "nodes", "value": 1, "trees": 1},
    ]
    assert doc["tree"]["tree"]["rows"] == 4
    dot = run("optimize", "--example", "--order", "misclassifications", "--format", "dot").stdout
    assert dot.startswith("digraph tree {")
    png = tmp_path / "t.png"
    r = run("optimize", "--example", "--order", "misclassifications", "-q", "-o", str(png))
    assert r.exit_code == 0 and png.read_bytes()[:4] == b"\x89PNG"
    assert "stage" in r.stdout
    r = run("optimize", "--example", "--order", "depth,depth")
    assert r.exit_code == 2 and "twice" in r.stderr


def test_cli_example_sorting(run, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("example", "sorting", "3")
    assert r.exit_code == 0
    assert (tmp_path / "sorting3.csv").read_text().splitlines()[:2] == [
        "x1<x2,x1<x3,x2<x3,order",
        "1,1,1,x1<x2<x3",
    ]
    assert run("example", "sorting", "3").exit_code == 0  # same content: fine
    (tmp_path / "mine.csv").write_text("precious\n")
    r = run("example", "sorting", "3", "-o", "mine.csv")
    assert r.exit_code == 2 and "--force" in r.stderr
    assert (tmp_path / "mine.csv").read_text() == "precious\n"
    assert run("example", "sorting", "3", "-o", "mine.csv", "--force").exit_code == 0
    r = run("example", "sorting", "10")
    assert r.exit_code == 2 and "3,628,800 rows" in r.stderr
    assert run("example", "sorting", "2", "-o", "-").stdout == "x1<x2,order\n1,x1<x2\n0,x2<x1\n"


# ------------------------------------------------------------------------------ posets
def _generic(monkeypatch):
    """Make every build_dag use the generic discovery (row sets)."""
    from dagger_cli.engine import dag as engine

    real = engine.build_dag
    monkeypatch.setattr(engine, "build_dag", lambda t, **kw: real(t, special=False, **kw))


@pytest.mark.parametrize("n", [3, 4, 5])
def test_poset_dag_same_results_as_row_sets(n, monkeypatch):
    from dagger_cli.engine import build_dag
    from dagger_cli.engine.posets import PosetDag
    from dagger_cli.trees import extract_tree

    t = sorting(n)
    special, generic = build_dag(t), build_dag(t, special=False)
    assert isinstance(special, PosetDag) and not isinstance(generic, PosetDag)
    assert special.stats == replace(generic.stats, route=special.route)
    assert sorted(special.node_size.tolist()) == sorted(generic.node_size.tolist())
    pairs = [("total-path-length", "misclassifications"), ("depth", "total-path-length")]
    orders = [["total-path-length", "depth"], ["misclassifications", "nodes", "depth"]]
    _labelled(monkeypatch)  # relate's and optimize's own route is the DAG of classes
    got = [
        [(r.front.points(), r.front.counts, extract_tree(r, 0).to_text()) for r in rels]
        for rels in [[relate(t, x, y, exact_only=True, count=True) for x, y in pairs]]
    ]

    def doc(o):  # all but the route, which says which DAG answered
        out = o.as_dict()
        out["stats"].pop("route", None)
        return out, o.tree.to_text()

    opt = [doc(o) for o in (optimize(t, od) for od in orders)]
    _generic(monkeypatch)
    want = [
        [(r.front.points(), r.front.counts, extract_tree(r, 0).to_text()) for r in rels]
        for rels in [[relate(t, x, y, exact_only=True, count=True) for x, y in pairs]]
    ]
    assert got == want
    assert opt == [doc(o) for o in (optimize(t, od) for od in orders)]


def test_poset_rows_and_detection():
    import random

    from dagger_cli.data.families import sorting_header
    from dagger_cli.engine import build_dag
    from dagger_cli.engine.posets import PosetDag, sorting_rows

    t = sorting(4)
    dag = build_dag(t)
    assert dag.rows(0).tolist() == list(range(24))
    # Shuffled rows and other decision labels: still a sorting table, rows mapped right.
    recs = sorting_records(4)
    random.Random(3).shuffle(recs)
    header = sorting_header(4)
    shuffled = DecisionTable.from_rows(
        [r[:-1] for r in recs], [f"o{k}" for k in range(24)], attributes=header[:-1]
    )
    dag = build_dag(shuffled)
    assert isinstance(dag, PosetDag)
    for node in range(len(dag.node_size)):
        rows = dag.rows(node)
        assert len(rows) == dag.node_size[node]
    # A table that is not one: a changed value, a missing row, other names.
    bad = [r[:-1] for r in recs]
    bad[0] = ["1" if v == "0" else "0" for v in bad[0]]
    for rows, attrs in ((bad, header[:-1]), ([r[:-1] for r in recs][1:], header[:-1])):
        t2 = DecisionTable.from_rows(rows, [f"o{k}" for k in range(len(rows))], attributes=attrs)
        assert sorting_rows(t2) is None
    t3 = DecisionTable.from_rows([r[:-1] for r in recs], [f"o{k}" for k in range(24)])
    assert sorting_rows(t3) is None


def test_cli_depth_cap_and_api_exports(run):
    import dagger_cli

    assert dagger_cli.optimize is optimize and dagger_cli.sorting is sorting
    r = run("optimize", "--example", "--order", "misclassifications", "--max-depth", "0", "-q")
    assert r.exit_code == 0 and "of depth <= 0" in r.stdout
    stage = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith("1 "))
    assert stage.split() == ["1", "misclassifications", "2", "1"]
    doc = json.loads(
        run("relate", "--example", "--count", "--max-depth", "1", "--format", "json", "-q").stdout
    )
    assert doc["max_depth"] == 1
    assert [(p["total_path_length"], p["trees"]) for p in doc["points"]] == [(0, 1), (4, 1)]
    r = run("optimize", "--example", "--order", "depth", "--exact-only", "--max-depth", "0")
    assert r.exit_code == 2 and "no tree has depth <= 0" in r.stderr


@pytest.mark.parametrize(
    "pair", [("total-path-length", "misclassifications"), ("depth", "misclassifications")]
)
def test_counting_stops_at_the_memory_ceiling(monkeypatch, pair):
    """Counting's exact integers live in Python objects, not the engine's arrays: a guard
    reads the process's resident memory and stops with a LimitError past the ceiling."""
    from dagger_cli.engine import memory as engine
    from dagger_cli.errors import LimitError
    from tests.test_fast_engine import random_table

    t = random_table(8, 300, 3, 2, 5, structured=True)
    readings = iter([0])
    monkeypatch.setattr(engine, "resident_bytes", lambda: next(readings, 2**40))
    monkeypatch.setattr(engine, "GUARD_EVERY", 16)
    with pytest.raises(LimitError, match="counting the trees needs more than 64 MiB"):
        relate(t, *pair, count=True, max_memory="64M")
    # Without a ceiling the guard never reads; the counts are there.
    assert relate(t, *pair, count=True, max_memory=None).front.counts


# ------------------------------------------------------------------- counting under a cap
@pytest.mark.parametrize("exact", [False, True])
def test_capped_counts_equal_the_whole_dags(exact, monkeypatch):
    """Counting under a depth cap works on the capped DAG (no uncapped DAG is built): the
    same counts as over the whole DAG (the state kernels on it, then the points of depth
    <= D), on tables beyond the brute force."""
    from dagger_cli.costs import COSTS as COST
    from dagger_cli.engine import dag as engine
    from dagger_cli.engine.counting import _Graph, count_min_trees
    from tests.test_fast_engine import random_table

    calls = []
    real = engine.build_dag

    def build(table, **kw):
        calls.append(kw.get("max_depth"))
        return real(table, **kw)

    for seed, m in ((1, 6), (2, 8)):
        t = random_table(m, 40, 3, 3, seed, structured=True)
        whole = real(t)
        graph = _Graph.of(whole)
        for pair in (("depth", "misclassifications"), ("nodes", "depth")):
            s_cost = COST[pair[1] if pair[0] == "depth" else pair[0]]
            store = engine.compute_fronts(whole, COST["depth"], s_cost, exact_only=exact)
            for cap in (1, 2, 3):
                monkeypatch.setattr(engine, "build_dag", build)
                try:
                    rel = relate(t, *pair, exact_only=exact, count=True, max_depth=cap)
                except InputError:  # no exact tree that shallow
                    assert exact and store.front(0)[0][0] > cap
                    continue
                finally:
                    monkeypatch.setattr(engine, "build_dag", real)
                depths = rel.front.x if pair[0] == "depth" else rel.front.y
                want = count_min_trees(graph, store, s_cost, depths.tolist(), 1, exact)
                assert list(rel.front.counts) == want, (seed, pair, cap)
    assert calls and None not in calls


def _memory_readings(monkeypatch, every=1):
    """A fake resident memory that jumps by 1 TiB once ``jump()`` is called."""
    from dagger_cli.engine import memory

    rss = {"now": 0}
    monkeypatch.setattr(memory, "resident_bytes", lambda: rss["now"])
    monkeypatch.setattr(memory, "GUARD_EVERY", every)

    def jump():
        rss["now"] = 2**40

    return jump


def _cli(*args):
    return CliRunner().invoke(main, ["relate", *args], catch_exceptions=False)


def test_cli_count_stops_in_discovery(tmp_path):
    r = _cli("--example", "--count", "--x", "depth", "--max-depth", "2", "--max-memory", "1K")
    assert r.exit_code == 3
    assert "the DAG needs more than 1 KiB (--max-memory)" in r.stderr


def test_cli_count_stops_in_its_fronts(monkeypatch):
    """The (depth, S) fronts counting computes get the ceiling less the relation's."""
    from dagger_cli.engine import counting

    real = counting._store_bytes
    monkeypatch.setattr(counting, "_store_bytes", lambda s: real(s) + (64 << 20) - 4096)
    r = _cli("--example", "--count", "--x", "depth", "--max-depth", "2", "--max-memory", "64M")
    assert r.exit_code == 3
    assert "counting the trees needs more than 64 MiB (--max-memory)" in r.stderr
    assert re.search(
        r"its fronts of \(depth, misclassifications\) need more than the [\d.]+ KiB left "
        r"beside the relation's fronts",
        r.stderr,
    )


@pytest.mark.parametrize(
    "phase, pair, what",
    [
        ("_sum_pair_counts", ("total-path-length", "misclassifications"), "steps"),
        ("_mark", ("depth", "misclassifications"), "the links between"),
        ("_multiply", ("nodes", "depth"), "steps"),
    ],
)
def test_cli_count_stops_in_its_python_passes(monkeypatch, tmp_path, phase, pair, what):
    """Counting's Python passes stop with exit 3 once the memory (the relation's DAG and
    fronts included) passes the ceiling: the sums' pass, the states' links (refused past
    what the guard leaves) and the products of the counts."""
    from dagger_cli.engine import counting

    jump = _memory_readings(monkeypatch)
    real = getattr(counting, phase)

    def grown(*args, **kw):
        if phase == "_mark":
            out = real(*args, **kw)
            jump()
            return out
        jump()
        return real(*args, **kw)

    monkeypatch.setattr(counting, phase, grown)
    csv_path = tmp_path / "t.csv"
    rng = __import__("random").Random(5)
    rows = [[rng.randrange(3) for _ in range(5)] + [rng.randrange(3)] for _ in range(40)]
    csv_path.write_text("a,b,c,d,e,y\n" + "\n".join(",".join(map(str, r)) for r in rows) + "\n")
    r = _cli(str(csv_path), "--x", pair[0], "--y", pair[1], "--count", "--max-memory", "64M")
    assert r.exit_code == 3, r.stderr
    assert "counting the trees needs more than 64 MiB (--max-memory)" in r.stderr
    assert what in r.stderr and "Traceback" not in r.stderr


# ------------------------------------------------------------------------------ poset classes
def _labelled(monkeypatch):
    """Make every build_dag of a sorting table use the labelled partial orders."""
    from dagger_cli.engine import dag as engine

    real = engine.build_dag
    monkeypatch.setattr(engine, "build_dag", lambda t, **kw: real(t, **{**kw, "classes": False}))


def _brute_form(p: int, n: int) -> int:
    """The least word over all n! relabellings (the class's identity, by brute force)."""
    from itertools import permutations

    from dagger_cli.engine.posets import relabelled

    return min(relabelled(p, perm, n) for perm in permutations(range(n)))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_poset_classes_are_the_isomorphism_classes(n):
    # Every labelled order of the sorting DAG: its canonical form is a relabelling of it
    # (by the labels returned), and two orders share a form iff brute force says they are
    # isomorphic; the class DAG has one node per class.
    from dagger_cli.engine.posets import canonical, relabelled

    t = sorting(n)
    labelled = build_dag(t).posets.tolist()
    forms, labels = canonical(labelled, n)
    for p, f, lab in zip(labelled, forms, labels.tolist()):
        assert sorted(lab) == list(range(n)) and relabelled(p, lab, n) == f
    brute = [_brute_form(p, n) for p in labelled]
    assert len(set(zip(forms, brute))) == len(set(brute)) == len(set(forms))
    classes = build_dag(t, classes=True)
    assert sorted(classes.posets.tolist()) == sorted(set(forms))


def test_poset_canonical_forms_of_relabelled_orders():
    # Random orders of up to 9 elements, relabelled at random: one form, reached by the
    # labels returned; orders of the same size that are not relabellings differ.
    import random

    from dagger_cli.engine.posets import add_relation, canonical, relabelled

    rng = random.Random(45)
    for n in range(1, 10):
        for _ in range(60):
            p, rank = 0, rng.sample(range(n), n)
            for _ in range(rng.randrange(2 * n)):
                a, b = sorted(rng.sample(range(n), 2), key=rank.index) if n > 1 else (0, 0)
                if a != b:
                    p = add_relation(p, a, b, n)
            sigma = rng.sample(range(n), n)
            q = relabelled(p, sigma, n)
            forms, labels = canonical([p, q], n)
            assert forms[0] == forms[1]
            assert relabelled(q, labels[1], n) == forms[1]
    # A chain of 4 and an antichain of 4 elements: different forms.
    chain = add_relation(add_relation(add_relation(0, 0, 1, 4), 1, 2, 4), 2, 3, 4)
    assert len(set(canonical([chain, 0], 4)[0])) == 2
    with pytest.raises(ValueError, match="1 to 9 elements"):
        canonical([0], 10)


def _frame(n):
    import pandas as pd

    from dagger_cli.data.families import sorting_header

    return pd.DataFrame(sorting_records(n), columns=sorting_header(n))


def _staged(res, order):
    """The final tree's costs that the stages fix (other costs may differ between trees)."""
    from dagger_cli.costs import get_cost

    costs = res.tree.costs()
    return {c: costs[get_cost(c).column] for c in order.split(",")}


@pytest.mark.parametrize(
    "n, orders",
    [
        (3, ["total-path-length,depth", "misclassifications,total-path-length,depth"]),
        (4, ["total-path-length,depth", "depth,total-path-length", "misclassifications,nodes"]),
        (5, ["total-path-length,depth", "misclassifications,depth,total-path-length"]),
        (6, ["misclassifications,total-path-length,depth"]),
    ],
)
def test_poset_classes_same_optimum_as_labelled_orders(n, orders, monkeypatch):
    # Staged optimisation on the DAG of classes against the labelled DAG: the same stages
    # (least values, counts), least values and total optimality; its tree (mapped back to
    # the table's elements, possibly another tree of the final set) has the staged costs,
    # and re-evaluated on the rows it keeps all its costs.
    t, df = sorting(n), _frame(n)
    got = []
    for order in orders:
        for exact in (True, False):
            res = optimize(t, order, exact_only=exact)
            assert "isomorphism classes" in res.stats.route
            assert res.tree.costs(df) == res.tree.costs()
            doc = res.as_dict()
            got.append((doc["stages"], doc["total_optimality"], _staged(res, order)))
    _labelled(monkeypatch)
    want = []
    for order in orders:
        for exact in (True, False):
            res = optimize(t, order, exact_only=exact)
            assert "labelled" in res.stats.route
            doc = res.as_dict()
            want.append((doc["stages"], doc["total_optimality"], _staged(res, order)))
    assert got == want


def test_cli_optimize_sorting_says_its_route(run, tmp_path):
    csv_path = tmp_path / "s4.csv"
    assert run("example", "sorting", "4", "-o", str(csv_path)).exit_code == 0
    r = run("optimize", str(csv_path), "--order", "misclassifications,total-path-length", "-q")
    assert r.exit_code == 0
    assert "edges (sorting table: the DAG of isomorphism classes" in r.stdout
    doc = json.loads(
        run("optimize", str(csv_path), "--order", "total-path-length", "--format", "json").stdout
    )
    assert "isomorphism classes" in doc["stats"]["route"] and doc["stats"]["subtables"] < 24


def test_optimize_without_a_tree_when_too_big(run, tmp_path, monkeypatch):
    # Past MAX_TREE_NODES the stages come without a tree, a format that is only a tree is
    # refused, and so is extracting one.
    from dagger_cli.engine import posets

    monkeypatch.setattr(posets, "MAX_TREE_NODES", 10)
    csv_path = tmp_path / "s3.csv"
    assert run("example", "sorting", "3", "-o", str(csv_path)).exit_code == 0
    r = run("optimize", str(csv_path), "--order", "total-path-length", "--exact-only", "-q")
    assert r.exit_code == 0 and "no tree: " in r.stdout and "x1<x2 =" not in r.stdout
    doc = json.loads(
        run("optimize", str(csv_path), "--order", "total-path-length", "--format", "json").stdout
    )
    assert doc["tree"] is None and "not built" in doc["no_tree"]
    r = run("optimize", str(csv_path), "--order", "total-path-length", "--format", "dot")
    assert r.exit_code == 2 and "no tree to write as dot" in r.stderr
    r = run("tree", str(csv_path), "--exact-only", "--least-y", "-q")
    assert r.exit_code == 2 and "no tree: a tree of this table can have 11 nodes" in r.stderr
    r = run("relate", str(csv_path), "--exact-only", "-q")  # the front needs no tree
    assert r.exit_code == 0


@pytest.mark.parametrize("n", [4, 5])
def test_sparse_counts_give_the_dense_trees(n, monkeypatch):
    # Tables of many decisions (sorting 8: 40,320, one per row) keep each tree node's rows
    # per decision sparse: the same tree in every format (a dot leaf lists its decisions
    # with rows by name, not every count), the same costs, every row right.
    import re

    from dagger_cli import trees

    t, df = sorting(n), _frame(n)
    order = "misclassifications,total-path-length,depth"

    def outputs():
        tree = optimize(t, order).tree
        rel = relate(t, "total-path-length", "misclassifications")
        other = trees.extract_tree(rel, len(rel.front) // 2)
        return [
            (
                x.to_text(),
                re.sub(r"\\n\[.*?\]", "", x.to_dot()),
                x.to_json(),
                x.costs(df),
                x.costs(),
            )
            for x in (tree, other)
        ], tree

    dense, tree = outputs()
    assert not isinstance(tree.root.counts, trees.SparseCounts)
    from dagger_cli.report import tree_data

    def leaves(doc):  # a report's leaves: (rows, decision, decisions with rows)
        if "k" in doc:
            return [leaf for _, kid in doc["k"] for leaf in leaves(kid)]
        pairs = doc.get("s") or [[i, c] for i, c in enumerate(doc["c"]) if c]
        return [(doc["n"], doc["d"], [tuple(p) for p in pairs])]

    page = leaves(tree_data(tree)["root"])
    monkeypatch.setattr(trees, "DENSE_DECISIONS", 1)
    sparse, tree = outputs()
    assert isinstance(tree.root.counts, trees.SparseCounts)
    assert sparse == dense
    assert leaves(tree_data(tree)["root"]) == page and '"s": ' in json.dumps(tree_data(tree))
    assert re.search(r"label=\"order = (x\d<)+x\d\\n\[(x\d<)+x\d: 1\]\"", tree.to_dot())
    rows = df.drop(columns="order")
    assert list(map(str, tree.predict(rows))) == df["order"].astype(str).tolist()


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_poset_classes_same_fronts_as_labelled_orders(n, monkeypatch):
    # relate on the DAG of classes against the labelled DAG: the same fronts and counts for
    # pairs of sum costs and with depth, with and without --exact-only; the tree of every
    # point (mapped back) has the point's costs and keeps them on the rows.
    from dagger_cli.trees import extract_tree

    t, df = sorting(n), _frame(n)
    pairs = [
        ("total-path-length", "misclassifications"),
        ("depth", "total-path-length"),
        ("nodes", "depth"),
    ]

    def fronts(check_trees):
        out = []
        for x, y in pairs:
            for exact in (True, False):
                rel = relate(t, x, y, exact_only=exact, count=n < 6)
                out.append((rel.front.points(), rel.front.counts))
                points = list(enumerate(rel.front.points())) if check_trees else []
                if n > 4 and points:  # the first, a middle and the last point
                    points = [points[k] for k in sorted({0, len(points) // 2, len(points) - 1})]
                for k, (px, py) in points:
                    tree = extract_tree(rel, k)
                    costs = tree.costs(df)
                    assert costs == tree.costs()
                    assert (costs[rel.front.x_cost.column], costs[rel.front.y_cost.column]) == (
                        px,
                        py,
                    )
        return out

    assert "isomorphism classes" in relate(t).stats.route
    got = fronts(True)
    _labelled(monkeypatch)
    assert "labelled" in relate(t).stats.route
    assert got == fronts(False)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_poset_classes_least_path_length_by_the_plain_recurrence(n):
    # On the DAG of classes, the least total path length of a sort and how many sorts reach
    # it by the recurrence written out (a class's least = its size + the least sum over its
    # splits; its count, the sum over those splits of the products), against optimize.
    import numpy as np

    dag = build_dag(sorting(n), classes=True)
    least = [0] * dag.node_size.size
    count = [0] * dag.node_size.size
    for v in np.argsort(dag.node_size, kind="stable").tolist():
        sums = {b: sum(least[c] for c in dag.children(b)) for b in dag.bundles(v)}
        if not sums:
            count[v] = 1
            continue
        best = min(sums.values())
        least[v] = int(dag.node_size[v]) + best
        for b in (b for b, s in sums.items() if s == best):
            prod = 1
            for c in dag.children(b):
                prod *= count[c]
            count[v] += prod
    res = optimize(sorting(n), "total-path-length", exact_only=True)
    assert [(s.value, s.trees) for s in res.stages] == [(least[0], count[0])]


@pytest.mark.slow
def test_a_sort_of_eight_elements_is_extracted_and_sorts_every_order():
    # The natural query on sorting 8 gives its tree (80,639 nodes, mapped back from the
    # classes): it has the stages' least values, and sorts each of the 40,320 orders.
    t, df = sorting(8), _frame(8)
    res = optimize(t, "misclassifications,total-path-length,depth")
    assert [s.value for s in res.stages] == [0, 620160, 16]
    assert res.tree is not None and res.no_tree is None
    costs = res.tree.costs()
    assert (costs["total_path_length"], costs["depth"], costs["leaves"]) == (620160, 16, 40320)
    rows = df.drop(columns="order")
    assert list(map(str, res.tree.predict(rows))) == df["order"].astype(str).tolist()
