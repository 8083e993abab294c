"""Bounds pushed into the fast engine (issue 17): ``relate(..., max_x=N, max_y=K,
least_y=True)`` computes only the part of the front the query keeps.

What must hold, whatever the engine skips: the bounded front is EXACTLY the whole front
restricted (:meth:`Front.restrict`), ``least_y`` gives exactly its last point, and the
tree extracted at every point is the very tree the unbounded run extracts there (the same
tie rule). Checked for every ordered cost pair, with and without a depth cap (depth-two
layer on and off), with ``exact_only``; against the unbounded run on random tables and
against the independent brute force (tests/oracle.py) on tiny ones. Also: discovery
really builds fewer subtables under a tight bound (a behaviour, not a timing), the
command line's --max-x / --max-y / --least-y, and the API's checks of the bounds.
"""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from dagger_cli.cli import main
from dagger_cli.costs import COSTS, ROW_COSTS, SUM
from dagger_cli.data.table import DecisionTable
from dagger_cli.engine import relate
from dagger_cli.errors import InputError
from dagger_cli.trees import extract_tree, tree_for
from tests.oracle import (
    COST_INDEX,
    capped_cost_vectors,
    cost_vector_counts,
    pareto_front,
)
from tests.strategies import mixed_tables
from tests.test_fast_engine import random_table

SLOW = [HealthCheck.too_slow]
#: Every ordered pair of different costs, from the engine's own list of costs.
PAIRS = list(itertools.permutations(ROW_COSTS, 2))
IDS = [f"{x}-vs-{y}" for x, y in PAIRS]
#: The pairs whose y sums over children: least_y keeps one point per subproblem.
SUM_Y = [(x, y) for x, y in PAIRS if COSTS[y].combine == SUM]
#: XOR of two 0/1 attributes: front (0, 2), (6, 1), (8, 0) of total path length vs
#: misclassifications; the point (6, 1) splits once, then one child only.
XOR_ROWS = [(0, 0), (0, 1), (1, 0), (1, 1)]
XOR_DECISIONS = ["0", "1", "1", "0"]


# --------------------------------------------------------------------------- helpers
@st.composite
def small_tables(draw):
    """Either a hypothesis table of up to 10 rows and 5 attributes (many ties, equal
    rows with different decisions), or a numpy one of up to 40 rows and 6 attributes
    whose decision is a noisy function of three of them (longer fronts, deeper trees,
    so that bounds cut the DAG in its middle)."""
    if draw(st.booleans()):
        data = draw(mixed_tables(max_rows=10, max_attributes=5))
        dup = draw(st.sampled_from(["keep", "merge"]))
        return DecisionTable.from_rows(list(data.rows), list(data.decisions), duplicates=dup)
    m = draw(st.integers(3, 6))
    n = draw(st.integers(8, 40))
    values = draw(st.integers(2, 3))
    decisions = draw(st.integers(2, 3))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(0, values, size=(n, m))
    y = (X[:, 0] + X[:, 1] * X[:, 2]) % decisions
    flip = rng.random(n) < 0.15
    y[flip] = rng.integers(0, decisions, size=int(flip.sum()))
    return DecisionTable.from_rows(X.tolist(), y.tolist(), duplicates="keep", name=f"r{seed}")


def bound_values(values) -> list[int]:
    """Bounds worth trying against a front's values of one cost: 0, each value and its
    neighbours (on a point, just inside, just outside), and beyond the largest."""
    out = {0}
    for v in values:
        out.update((int(v) - 1, int(v), int(v) + 1))
    out.add(max(out) + 3)
    return sorted(v for v in out if v >= 0)


def bounds(values):
    """No bound, or one of :func:`bound_values`."""
    return st.one_of(st.none(), st.sampled_from(bound_values(values)))


def whole_relation(t, x, y, **kw):
    """The unbounded relation, or None when no tree qualifies (exact trees under a cap)."""
    try:
        return relate(t, x, y, **kw)
    except InputError as err:
        assert kw.get("exact_only") and kw.get("max_depth") is not None, err
        return None


def no_tree(t, x, y, **kw) -> bool:
    """Whether relate says there is no tree for a query with bounds when there is no
    tree at all: an empty front or the error saying so (the engines differ on which, see
    :func:`test_no_tree_at_all_is_one_answer_whatever_the_engine`)."""
    try:
        return len(relate(t, x, y, **kw).front) == 0
    except InputError as err:
        return "every tree of depth <=" in str(err)


def shape(node) -> tuple:
    """A tree node as plain data: decision, counts per decision, split attribute and
    children by value (everything extraction decides)."""
    kids = tuple((v, shape(c)) for v, c in node.children)
    return (node.decision, node.counts, node.attribute, kids)


def assert_same_trees(bounded, whole):
    """Each point of ``bounded`` is on ``whole`` and extracts the same tree there."""
    index = {p: k for k, p in enumerate(whole.front.points())}
    for k, p in enumerate(bounded.front.points()):
        got = shape(extract_tree(bounded, k).root)
        want = shape(extract_tree(whole, index[p]).root)
        assert got == want, (k, p)


def brute(t, x, y, depth, exact_only):
    """The front by the independent oracle: every tree enumerated (depth <= ``depth``)."""
    rows, labels = t.rows(), t.decision_labels()
    if depth is not None:
        vecs = capped_cost_vectors(rows, labels, depth, exact_only)
    else:
        vecs = cost_vector_counts(rows, labels, exact_only=exact_only).keys()
    return pareto_front([(v[COST_INDEX[x]], v[COST_INDEX[y]]) for v in vecs])


def within(points, max_x=None, max_y=None):
    return [
        (a, b) for a, b in points if (max_x is None or a <= max_x) and (max_y is None or b <= max_y)
    ]


# ------------------------------------------------------------- against the whole front
#: A table, a cap (or none), the depth-two layer on or off, exact trees only or not.
ENGINE_CASES = given(
    data=st.data(),
    t=small_tables(),
    depth=st.one_of(st.none(), st.integers(0, 4)),
    depth_two=st.booleans(),
    exact=st.booleans(),
)


@pytest.mark.parametrize("x,y", PAIRS, ids=IDS)
@settings(max_examples=20, deadline=None, suppress_health_check=SLOW)
@ENGINE_CASES
def test_bounded_front_is_the_whole_front_restricted(x, y, data, t, depth, depth_two, exact):
    """max_x / max_y drawn on, next to, outside the front's own values: the same points
    as the whole front restricted, and the same tree at each of them."""
    kw = dict(max_depth=depth, depth_two=depth_two, exact_only=exact)
    whole = whole_relation(t, x, y, **kw)
    xs, ys = (whole.front.x, whole.front.y) if whole is not None else ([], [])
    for _ in range(3):
        mx, my = data.draw(bounds(xs), label="max_x"), data.draw(bounds(ys), label="max_y")
        if whole is None:
            # No tree at all: an empty answer within bounds, the error without any.
            if mx is None and my is None:
                with pytest.raises(InputError, match="every tree of depth <="):
                    relate(t, x, y, **kw)
            else:
                assert no_tree(t, x, y, max_x=mx, max_y=my, **kw)
            continue
        rel = relate(t, x, y, max_x=mx, max_y=my, **kw)
        assert rel.front.points() == whole.front.restrict(x_max=mx, y_max=my).points()
        assert_same_trees(rel, whole)
        if mx is not None and rel.front.points():
            k = whole.front.point_for_x(mx)
            assert shape(tree_for(rel, max_x=mx).root) == shape(extract_tree(whole, k).root)


@pytest.mark.parametrize("x,y", PAIRS, ids=IDS)
@settings(max_examples=15, deadline=None, suppress_health_check=SLOW)
@ENGINE_CASES
def test_least_y_is_the_whole_fronts_last_point(x, y, data, t, depth, depth_two, exact):
    """least_y: the last point (least y, least x among those) and its tree, alone or
    with a bound on y. (A y that is a max, depth, falls back to restricting.)"""
    kw = dict(max_depth=depth, depth_two=depth_two, exact_only=exact)
    whole = whole_relation(t, x, y, **kw)
    if whole is None:
        with pytest.raises(InputError, match="every tree of depth <="):
            relate(t, x, y, least_y=True, **kw)
        return
    rel = relate(t, x, y, least_y=True, **kw)
    assert rel.front.points() == whole.front.points()[-1:]
    assert_same_trees(rel, whole)
    my = data.draw(bounds(whole.front.y), label="max_y")
    rel = relate(t, x, y, least_y=True, max_y=my, **kw)
    assert rel.front.points() == whole.front.restrict(y_max=my).points()[-1:]
    assert_same_trees(rel, whole)


@settings(max_examples=30, deadline=None, suppress_health_check=SLOW)
@given(t=small_tables(), pair=st.sampled_from(SUM_Y), pick=st.integers(0, 99))
# The minimal reproduction (bound_values of its x, 0, 6, 8, are 0, 1, 5, 6, ...: max_x=6).
@example(
    t=DecisionTable.from_rows(XOR_ROWS, XOR_DECISIONS),
    pair=("total-path-length", "misclassifications"),
    pick=3,
)
def test_least_y_within_max_x_is_the_last_point_within(t, pair, pick):
    """least_y with a bound on x: the last point of the whole front within the bound."""
    x, y = pair
    whole = relate(t, x, y)
    values = bound_values(whole.front.x)
    mx = values[pick % len(values)]
    rel = relate(t, x, y, max_x=mx, least_y=True)
    assert rel.front.points() == whole.front.restrict(x_max=mx).points()[-1:]
    assert_same_trees(rel, whole)


def test_count_with_bounds_is_the_whole_count_restricted():
    """Counting needs every tree (bounds not pushed): the counts of the points kept."""
    t = random_table(5, 40, 2, 3, 4, structured=True)
    for x, y in (("total-path-length", "misclassifications"), ("misclassifications", "depth")):
        whole = relate(t, x, y, count=True).front
        assert len(whole) >= 3
        mx, my = int(whole.x[-2]), int(whole.y[1])
        got = relate(t, x, y, count=True, max_x=mx, max_y=my).front
        want = whole.restrict(x_max=mx, y_max=my)
        assert got.points() == want.points() and got.counts == want.counts
        assert len(got) == len(whole) - 2
        last = relate(t, x, y, count=True, least_y=True).front
        assert last.points() == whole.points()[-1:] and last.counts == whole.counts[-1:]


# --------------------------------------------------------------- against the brute force
@pytest.mark.parametrize("x,y", PAIRS, ids=IDS)
@settings(max_examples=12, deadline=None, suppress_health_check=SLOW)
@given(
    data=st.data(),
    table=mixed_tables(max_rows=6),
    depth=st.one_of(st.none(), st.integers(0, 3)),
    exact=st.booleans(),
    duplicates=st.sampled_from(["keep", "merge"]),
)
def test_bounded_fronts_match_bruteforce(x, y, data, table, depth, exact, duplicates):
    """Every tree enumerated by the oracle, its front restricted: the fast engine's
    bounded front (and least_y's point), and the baseline's."""
    t = DecisionTable.from_rows(list(table.rows), list(table.decisions), duplicates=duplicates)
    want = brute(t, x, y, depth, exact)
    xs, ys = [p[0] for p in want], [p[1] for p in want]
    for _ in range(2):
        mx, my = data.draw(bounds(xs), label="max_x"), data.draw(bounds(ys), label="max_y")
        kw = dict(max_depth=depth, exact_only=exact, max_x=mx, max_y=my)
        if not want:
            for engine in ("fast", "baseline"):
                assert no_tree(t, x, y, engine=engine, **kw)
            continue
        assert relate(t, x, y, **kw).front.points() == within(want, mx, my)
        assert relate(t, x, y, engine="baseline", **kw).front.points() == within(want, mx, my)
    if want:
        got = relate(t, x, y, max_depth=depth, exact_only=exact, least_y=True)
        assert got.front.points() == want[-1:]


def test_no_tree_at_all_is_one_answer_whatever_the_engine():
    """One call, one answer: the engines (and counting) agree when no tree exists."""
    t = DecisionTable.from_rows([(0, 0)] * 5 + [(1, 0)], list("000001"), duplicates="keep")
    x, y = "misclassifications", "nodes"

    def answer(**kw):
        try:
            return relate(t, x, y, max_depth=0, exact_only=True, max_y=0, **kw).front.points()
        except InputError as err:
            return str(err)

    outcomes = [answer(), answer(engine="baseline"), answer(count=True)]
    assert outcomes[0] == outcomes[1] == outcomes[2], outcomes


# --------------------------------------------------------------- discovery is pruned
def skewed_table(seed, n=60, m=6):
    """0/1 attributes that are 1 in about a fifth of the rows: a split leaves most rows
    in one child, which a tree within a tight bound on total path length cannot split."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, m)) < 0.2).astype(int)
    y = (X[:, 0] | X[:, 1]) ^ (rng.random(n) < 0.1)
    return DecisionTable.from_rows(X.tolist(), y.astype(int).tolist(), duplicates="keep")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_tight_bound_on_total_path_length_builds_fewer_subtables(seed):
    """A tree within Λ <= N splits no subtable of more than N rows at the root, of more
    than N / 2 rows below it, ...: discovery leaves them unexpanded. Fewer subtables,
    the same answer."""
    t = skewed_table(seed)
    x, y = "total-path-length", "misclassifications"
    whole = relate(t, x, y)
    n = t.n_rows
    # Below the rows: not even the root splits; the single leaf is the answer.
    rel = relate(t, x, y, max_x=n - 1)
    assert rel.stats.subtables == 1 and rel.stats.bundles == 0
    assert rel.front.points() == whole.front.restrict(x_max=n - 1).points()
    assert rel.front.points() == whole.front.points()[:1]
    # Room for a split and a half: fewer subtables, the same points and trees.
    mx = n + n // 2
    rel = relate(t, x, y, max_x=mx)
    assert rel.stats.subtables < whole.stats.subtables
    assert rel.front.points() == whole.front.restrict(x_max=mx).points()
    assert len(rel.front) >= 2
    assert_same_trees(rel, whole)
    # The same bound on the y axis prunes as much.
    mirror = relate(t, y, x)
    rel_y = relate(t, y, x, max_y=mx)
    assert rel_y.stats.subtables == rel.stats.subtables
    assert rel_y.front.points() == mirror.front.restrict(y_max=mx).points()
    assert_same_trees(rel_y, mirror)
    # Under a cap with the depth-two layer: its level's big subtables are not split.
    whole = relate(t, x, y, max_depth=3)
    rel = relate(t, x, y, max_depth=3, max_x=mx)
    assert rel.stats.subproblems < whole.stats.subproblems
    assert rel.stats.depth_two < whole.stats.depth_two
    assert rel.front.points() == whole.front.restrict(x_max=mx).points()
    assert_same_trees(rel, whole)


def test_tight_bound_on_nodes_builds_fewer_subtables():
    """A bound on nodes stops discovery at a level (a split at level L makes at least
    L + 2 nodes); under a depth cap the depth-two layer's level is left unsplit."""
    t = random_table(7, 80, 2, 2, 5, structured=True)
    x, y = "nodes", "misclassifications"
    whole = relate(t, x, y)
    for mx in (1, 3, 5):
        rel = relate(t, x, y, max_x=mx)
        assert rel.stats.subtables < whole.stats.subtables, mx
        assert rel.front.points() == whole.front.restrict(x_max=mx).points()
        assert_same_trees(rel, whole)
    whole = relate(t, x, y, max_depth=3)
    rel = relate(t, x, y, max_depth=3, max_x=2)
    assert rel.stats.subproblems < whole.stats.subproblems
    assert rel.stats.depth_two == 0 < whole.stats.depth_two
    assert rel.front.points() == whole.front.restrict(x_max=2).points()
    assert rel.front.points() == whole.front.points()[:1]


# --------------------------------------------------------------------------- the CLI
def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def table_csv(tmp_path):
    t = random_table(5, 50, 2, 3, 7, structured=True)
    df = t.to_dataframe()
    path = tmp_path / "t.csv"
    df.to_csv(path, index=False)
    opts = [path, "--decision", df.columns[-1], "--duplicates", "keep", "-q"]
    return t, opts


def _ok(*args) -> str:
    r = _invoke(*args)
    assert r.exit_code == 0, r.output
    return r.stdout


def _error(*args) -> str:
    r = _invoke(*args)
    assert r.exit_code != 0, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r.output


@pytest.mark.parametrize("pair", [[], ["--x", "misclassifications", "--y", "total-path-length"]])
def test_cli_relate_least_y_and_max_y(table_csv, pair):
    _, opts = table_csv
    whole = _ok("relate", *opts, *pair, "--format", "csv").splitlines()
    assert len(whole) >= 4  # a header and three points at least
    last = _ok("relate", *opts, *pair, "--format", "csv", "--least-y").splitlines()
    assert last == [whole[0], whole[-1]]
    y_col = whole[0].split(",").index("misclassifications" if not pair else "total_path_length")
    for line in whole[1:]:
        k = int(line.split(",")[y_col])
        kept = [ln for ln in whole[1:] if int(ln.split(",")[y_col]) <= k]
        got = _ok("relate", *opts, *pair, "--format", "csv", "--max-y", k).splitlines()
        assert got == [whole[0], *kept]


def test_cli_tree_least_y_is_the_tree_at_the_least_y(table_csv):
    _, opts = table_csv
    for pair in ([], ["--x", "nodes", "--y", "misclassifications"]):
        least = _ok("tree", *opts, *pair, "--least-y", "--format", "json")
        costs = json.loads(least)["costs"]
        k = costs["misclassifications"]
        assert least == _ok("tree", *opts, *pair, "--max-y", k, "--format", "json")
        assert _ok("tree", *opts, *pair, "--least-y") == _ok("tree", *opts, *pair, "--max-y", k)


def test_cli_tree_needs_exactly_one_query(table_csv):
    _, opts = table_csv
    for extra in (
        [],
        ["--least-y", "--max-y", "3"],
        ["--least-y", "--max-misclassifications", "3"],
        ["--max-x", "100", "--max-y", "3"],
    ):
        r = _invoke("tree", *opts, *extra)
        assert r.exit_code == 2, (extra, r.output)
        assert "give exactly one query" in r.output and "Traceback" not in r.output


def test_cli_unreachable_bounds_say_the_least(tmp_path):
    path = tmp_path / "xor.csv"
    path.write_text("a,b,d\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n")
    out = _error("tree", path, "-q", "--x", "nodes", "--max-x", 0)
    assert "no tree has nodes <= 0; the least is 1" in out
    # depth <= 1: each child of a split still has one error
    out = _error("tree", path, "-q", "--max-depth", 1, "--max-misclassifications", 1)
    assert "no tree has misclassifications <= 1; the least is 2" in out
    out = _error("tree", path, "-q", "--x", "depth", "--max-x", 1, "--max-y", 0)
    assert "give exactly one query" in out
    for query in (["--least-y"], ["--max-y", 2], ["--max-x", 10]):
        out = _error("tree", path, "-q", "--exact-only", "--max-depth", 1, *query)
        assert "every tree of depth <= 1 has an avoidable misclassification" in out
    # relate: no point within the bounds is an answer (no tree), not an error
    out = _ok("relate", path, "-q", "--max-x", 3, "--max-y", 0, "--format", "csv")
    assert out == "total_path_length,average_depth,misclassifications\n"


def test_cli_queries_with_least_y_are_the_whole_fronts(tmp_path):
    path = tmp_path / "xor.csv"
    path.write_text("a,b,d\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n")

    def query(*args):
        doc = json.loads(_ok("relate", path, "-q", "--format", "json", *args))
        return {k: v["value"] for k, v in doc["queries"].items()}

    for args in (["--max-y", 1], ["--max-x", 6], ["--max-x", 7, "--max-y", 2]):
        assert query(*args, "--least-y") == query(*args), args


# ------------------------------------------------------------------- API validation
@pytest.mark.parametrize("name", ["max_x", "max_y"])
@pytest.mark.parametrize("bad", [-1, -10, 1.5, 2.0, "3", True, [3]])
def test_bad_bounds_are_input_errors(name, bad):
    t = DecisionTable.from_rows(XOR_ROWS, XOR_DECISIONS)
    for engine in ("fast", "baseline"):
        with pytest.raises(InputError, match=f"{name} must be an integer >= 0"):
            relate(t, engine=engine, **{name: bad})


def test_numpy_integer_bounds_are_accepted():
    t = DecisionTable.from_rows(XOR_ROWS, XOR_DECISIONS)
    rel = relate(t, max_x=np.int64(6), max_y=np.int32(1))
    assert rel.front.points() == [(6, 1)]
    assert relate(t, max_x=0).front.points() == [(0, 2)]
