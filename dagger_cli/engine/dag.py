"""The fast engine's driver: the DAG Δ(T) and its fronts from the compiled kernels.

:func:`build_dag` discovers the DAG (:mod:`dagger_cli.engine.kernels.discovery`; a sorting
table from partial orders, :mod:`dagger_cli.engine.posets`), :func:`compute_fronts` runs the
fronts kernels over it (:mod:`dagger_cli.engine.kernels.fronts`, and first the depth-two
layer, :mod:`dagger_cli.engine.kernels.depth_two`, when :func:`use_depth_two` says so), and
:func:`solve_fast` is the ``fast`` solver of :mod:`dagger_cli.engine.registry`: a validated
:class:`~dagger_cli.engine.query.Query` in, a :class:`Relation` out. Each kernel is
resumable: the driver grows its arrays (:class:`~dagger_cli.engine.memory.GrowableArrays`)
within ``max_memory``, shows progress and calls it again.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass

import numpy as np

from ..data.report import row_groups
from ..errors import InputError, LimitError
from ..fronts import Front
from ..text import size_text
from . import threads
from .kernels import NO_CAP, PIECES, Status
from .memory import GrowableArrays, memory_ceiling
from .progress import Progress
from .structures import Dag, DagStats, FrontStore, Relation

#: Units of kernel work between two returns to Python (progress, Ctrl-C).
BUDGET = 4_000_000
SEED = 20121129  # fixed: row keys, hence everything, are reproducible


def _run(kernel, *args) -> int:
    """A kernel call whose failed allocation becomes the OUT_OF_MEMORY status.

    Inside a parallel loop a piece whose allocation fails stops and the kernel returns
    OUT_OF_MEMORY (``parallel_for`` in ``core/common.hpp``); outside one the failure
    reaches Python as a MemoryError (nanobind's translation of ``std::bad_alloc``)."""
    try:
        return threads.run(kernel, *args)
    except MemoryError:
        return Status.OUT_OF_MEMORY


def _out_of_memory(what: str, max_memory: int | None, detail: str) -> LimitError:
    """The limit message of a phase that ran out of room (``what``: "the DAG needs")."""
    if max_memory is None:
        return LimitError(f"out of memory: {what} more than the system could give: {detail}")
    return LimitError(f"{what} more than {size_text(max_memory)} (--max-memory): {detail}")


def build_dag(
    table,
    *,
    max_subtables: int | None = None,
    max_memory: int | None = None,
    progress: Progress | None = None,
    max_depth: int | None = None,
    special: bool = True,
    depth2: bool = False,
    limits: np.ndarray | None = None,
    initial_room: int | None = None,
    classes: bool = False,
) -> Dag:
    """Discover Δ(T) with the compiled kernel (see :mod:`dagger_cli.engine.kernels.discovery`); with
    ``max_depth`` D, only the subtables reachable within D splits (those at depth D are
    not expanded). With ``depth2`` (and D >= 2) only those within D - 2 splits: the
    depth-two layer solves the last two levels from class counts (see :class:`Dag`).
    ``limits`` (:func:`_limits`) leaves unexpanded the subtables that no tree within
    bounds on its costs splits. ``initial_room`` (tests) starts every growable array and
    the hash table with that many items (and batches of at most that many nodes), so that
    every growth path runs.

    A sorting table (``dagger example sorting``) is discovered from partial orders
    instead of row sets (:mod:`dagger_cli.engine.posets`; the same graph) unless ``special`` is
    False or a depth cap is given; with ``classes`` its DAG has one node per isomorphism
    class of partial orders (the same least values, fronts and counts; its trees mapped
    back by :meth:`Dag.mapped`)."""
    from .kernels import discovery as disc

    if getattr(table, "weighting", None) is not None:
        # Weighted rows: the subtables are the same, their weights and leaves are
        # computed from their rows (Dag.weigh), the depth-two layer's from the counts of
        # the rows' classes of (decision, weight) (weighted_leaves; the caller asks for
        # it only where it serves the query: depth_two_serves); partial orders, which
        # count rows themselves, are not used.
        special = False
    if special and max_depth is None:
        from .posets import poset_dag

        dag = poset_dag(table, max_subtables=max_subtables, max_memory=max_memory, classes=classes)
        if dag is not None:
            return dag
    progress = progress or Progress(False)
    codes = np.ascontiguousarray(table.codes, dtype=np.int32)
    m, n = codes.shape
    nvals = np.array([len(v) for v in table.values], dtype=np.int64)
    dec = np.ascontiguousarray(table.decisions, dtype=np.int32)
    # Row-major copy in the smallest integer type: one row's attributes share a cache line.
    small = np.uint8 if nvals.max(initial=1) <= 256 else np.int32
    rc = np.ascontiguousarray(codes.T, dtype=small).ravel()
    rng = np.random.default_rng(SEED)
    key1 = rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
    key2 = rng.integers(0, 2**64 - 1, size=n, dtype=np.uint64, endpoint=True)
    # key2's low bits are 1: a sum of key2 also counts its rows (there are fewer than
    # 2**cbits), so the identity of a subtable (two sums) carries its size for free.
    cbits = max(1, int(n).bit_length())
    cmask = np.uint64((1 << cbits) - 1)
    key2 = (key2 << np.uint64(cbits)) | np.uint64(1)
    # The number of each row's distinct attribute row: some attribute splits a subtable
    # iff its rows have two of them (one pass over its rows, even where it is not expanded).
    if n:
        rclass = row_groups(codes).astype(np.int32)
    else:
        rclass = np.zeros(0, np.int32)
    max_level = NO_CAP if max_depth is None else int(max_depth)
    d2_level = None
    if depth2 and max_depth is not None and max_depth >= 2:
        d2_level = max_level = int(max_depth) - 2

    room = initial_room
    cap = 1024 if room is None else room
    a = GrowableArrays(
        {
            "node_start": (cap, np.int64),
            "node_size": (cap, np.int32),
            "node_attr_start": (cap, np.int64),
            "node_attr_len": (cap, np.int32),
            "node_mis": (cap, np.int32),
            "node_major": (cap, np.int32),
            "node_split": (cap, np.int8),
            "node_level": (cap, np.int32),
            "node_bundle_start": (cap + 1, np.int64),
            "row_pool": (max(4 * n, 1024) if room is None else max(n, room), np.int32),
            "attr_pool": (
                max(4 * m, 1024) if room is None else max(m, room),
                np.int16 if m < 2**15 else np.int32,
            ),
            "bundle_attr": (cap, np.int32),
            "bundle_edge_start": (cap + 1, np.int64),
            "edge_child": (4 * cap if room is None else room, np.int32),
        }
    )
    # One batch's buffers (see discovery.discover): per node, per non-constant attribute, per child.
    bn = disc.BATCH_NODES if room is None else room
    qn = max(4 * m, 4096) if room is None else room
    vn = 16384 if room is None else room
    pn = 4096 if room is None else room
    b = GrowableArrays(
        {
            "b_k": (bn, np.int32),
            "b_qoff": (bn + 1, np.int64),
            "b_voff": (bn + 1, np.int64),
            "q_attr": (qn, np.int32),
            "q_nv": (qn, np.int32),
            "v_val": (vn, np.int32),
            "v_h1": (vn, np.uint64),
            "v_h2": (vn, np.uint64),
            "p_node": (pn, np.int64),
            "p_attr": (pn, np.int32),
            "p_val": (pn, np.int32),
            "p_child": (pn, np.int64),
            "p_grp": (pn + 1, np.int64),
        }
    )
    # 4096 slots (see discovery.ht_insert); a power of two >= initial_room.
    slots = 4096 if room is None else 1 << max(int(room) - 1, 0).bit_length()
    ht = np.zeros(2 * slots, np.uint64)
    # The root: every row, every attribute a candidate.
    a["node_size"][0] = n
    a["row_pool"][:n] = np.arange(n, dtype=np.int32)
    a["node_attr_len"][0] = m
    a["node_level"][0] = 0
    a["attr_pool"][:m] = np.arange(m)
    disc.ht_insert(ht, int(key1.sum(dtype=np.uint64)), int(key2.sum(dtype=np.uint64)), 0)
    counters = np.zeros(disc.N_COUNTERS, np.int64)
    counters[disc.C_NODES] = 1
    counters[disc.C_ROWS] = n
    counters[disc.C_ATTRS] = m
    limit = max_subtables if max_subtables is not None else np.iinfo(np.int64).max
    node_keys = (
        "node_start",
        "node_size",
        "node_attr_start",
        "node_attr_len",
        "node_mis",
        "node_major",
        "node_split",
        "node_level",
    )
    # The codes attribute-major, for the depth-two layer only (a copy of the table).
    cc = np.ascontiguousarray(codes, dtype=small).ravel() if d2_level is not None else rc[:0]
    tables = disc.TableArrays(
        rc, nvals, dec, len(table.decision_values), key1, key2, cmask, rclass, cc
    )
    # Besides the growable arrays: the table as the kernels read it and each thread's
    # scratch of a batch (key sums per attribute value, a row map per value), all sized
    # before the first call.
    workers = min(threads.current_choice(), PIECES)
    per_piece = 8 * (
        2 * int(nvals.sum())
        + int(nvals.max(initial=1))
        + 2 * m
        + max(len(table.decision_values), 1)
    )
    fixed = sum(x.nbytes for x in (rc, cc, key1, key2, rclass, codes)) + workers * per_piece
    first_used = a.nbytes() + b.nbytes() + ht.nbytes + fixed
    if max_memory is not None and first_used > max_memory:
        raise LimitError(
            f"the DAG needs more than {size_text(max_memory)} (--max-memory): "
            f"{size_text(first_used)} for the table's arrays and the first batch."
        )
    while True:
        needs = np.zeros(disc.N_NEEDS, np.int64)
        status = _run(
            disc.discover,
            tables,
            disc.NodeArrays(*(a[k] for k in disc.NodeArrays._fields)),
            disc.DagPools(*(a[k] for k in disc.DagPools._fields)),
            disc.BatchBuffers(*(b[k] for k in disc.BatchBuffers._fields)),
            ht,
            counters,
            needs,
            BUDGET,
            limit,
            max_level,
            _limits() if limits is None else limits,
        )
        nodes, done = int(counters[disc.C_NODES]), int(counters[disc.C_CUR])
        if status == Status.TOO_MANY_NODES:
            raise LimitError(
                f"the DAG has more than {max_subtables:,} subtables (--max-subtables); "
                f"stopped after processing {done:,} of {nodes:,} discovered. "
                f"{_estimate(done, nodes)}"
            )
        if status == Status.OUT_OF_MEMORY:
            raise _out_of_memory(
                "the DAG needs",
                max_memory,
                f"a batch's arrays failed to allocate after {nodes:,} subtables discovered, "
                f"{done:,} processed. {_estimate(done, nodes)}",
            )
        if status == Status.MUST_GROW:
            nb = int(counters[disc.C_BUNDLES])
            if needs[disc.N_NODES]:
                for k in node_keys:
                    a.grow(k, int(needs[disc.N_NODES]), nodes)
                a.grow("node_bundle_start", a["node_size"].size + 1, nodes + 1)
            if needs[disc.N_ROWS]:
                a.grow("row_pool", int(needs[disc.N_ROWS]), int(counters[disc.C_ROWS]))
            if needs[disc.N_ATTRS]:
                a.grow("attr_pool", int(needs[disc.N_ATTRS]), int(counters[disc.C_ATTRS]))
            if needs[disc.N_BUNDLES]:
                a.grow("bundle_attr", int(needs[disc.N_BUNDLES]), nb)
                a.grow("bundle_edge_start", a["bundle_attr"].size + 1, nb + 1)
            if needs[disc.N_EDGES]:
                a.grow("edge_child", int(needs[disc.N_EDGES]), int(counters[disc.C_EDGES]))
            if needs[disc.N_HASH]:
                slots = ht.size // 2
                while slots < needs[disc.N_HASH]:
                    slots *= 2
                ht = disc.rehash(ht, slots)
            # Batch buffers: filled by phase A, which has not run when they must grow.
            if needs[disc.N_QBUF]:
                for k in ("q_attr", "q_nv"):
                    b.grow(k, int(needs[disc.N_QBUF]), 0)
            if needs[disc.N_VBUF]:
                for k in ("v_val", "v_h1", "v_h2"):
                    b.grow(k, int(needs[disc.N_VBUF]), 0)
            if needs[disc.N_PEND]:
                pend = int(counters[disc.C_PEND])
                for k in ("p_node", "p_attr", "p_val", "p_child"):
                    b.grow(k, int(needs[disc.N_PEND]), pend)
                b.grow("p_grp", b["p_node"].size + 1, 0)
        used = a.nbytes() + b.nbytes() + ht.nbytes + fixed
        if max_memory is not None and used > max_memory:
            raise LimitError(
                f"the DAG needs more than {size_text(max_memory)} (--max-memory): "
                f"{size_text(used)} for {nodes:,} subtables discovered, {done:,} processed. "
                f"{_estimate(done, nodes)}"
            )
        progress.update("subtables", done, None)
        if status == Status.DONE:
            break
    nodes = int(counters[disc.C_NODES])
    nb = int(counters[disc.C_BUNDLES])
    ne = int(counters[disc.C_EDGES])
    rows_used = int(counters[disc.C_ROWS])
    # Views, not copies: the spare room at the ends was never written, so it costs no memory.
    built = Dag(
        node_start=a["node_start"][:nodes],
        node_size=a["node_size"][:nodes],
        node_mis=a["node_mis"][:nodes],
        node_major=a["node_major"][:nodes],
        node_split=a["node_split"][:nodes],
        node_level=a["node_level"][:nodes],
        node_attr_len=a["node_attr_len"][:nodes],
        node_bundle_start=a["node_bundle_start"][: nodes + 1],
        row_pool=a["row_pool"][:rows_used],
        bundle_attr=a["bundle_attr"][:nb],
        bundle_edge_start=a["bundle_edge_start"][: nb + 1],
        edge_child=a["edge_child"][:ne],
        terminal=int(counters[disc.C_TERMINAL]),
        n_attributes=m,
        max_depth=max_depth,
        d2_level=d2_level,
        table_arrays=tables if d2_level is not None else None,
        limits=limits,
    )
    built.weigh(table)
    return built


def _limits(x_cost=None, y_cost=None, max_x: int | None = None, max_y: int | None = None):
    """The bounds discovery reads (``expands`` of ``core/bounds.hpp``): per
    cost, its bound (INF: none), split_const, split_rows and leaf_const. Without arguments:
    no bounds."""
    inf = np.iinfo(np.int64).max
    out = []
    for cost, bound in ((x_cost, max_x), (y_cost, max_y)):
        if cost is None or bound is None:
            out += [inf, 0, 0, 0]
        else:
            out += [int(bound), cost.split_const, cost.split_rows, cost.leaf_const]
    return np.array(out, dtype=np.int64)


def _estimate(done: int, nodes: int) -> str:
    if done <= 0:
        return ""
    # Each processed node so far discovered nodes/done others on average; a rough lower bound.
    return (
        f"Estimate: at least {nodes:,} subtables in all (every processed subtable found "
        f"{nodes / done:.1f} on average)."
    )


def compute_fronts(
    dag: Dag,
    x_cost,
    y_cost,
    *,
    progress: Progress | None = None,
    max_memory: int | None = None,
    exact_only: bool = False,
    max_x: int | None = None,
    max_y: int | None = None,
    least_y: bool = False,
    leaves_at_cap: bool = False,
    cluster=None,
) -> FrontStore:
    """Every subproblem's Pareto front, smallest subtables first (a topological order).

    Uncapped, a subproblem is a node. Under the DAG's depth cap it is (node, remaining
    depth r), r = 0 .. R (:meth:`Dag.subproblem_counts`), computed together in ascending
    r; (i, 0) is the leaf and (i, r) combines the children's (c, r - 1).

    With ``max_x`` / ``max_y`` the fronts keep only the points that can still make a
    root point within them, and with ``least_y`` (y summed over children) only each
    subproblem's point of least y: the root's front is then the whole front's points
    within the bounds, or its last point, with the same trees (see
    :mod:`dagger_cli.engine.kernels.fronts`). With ``leaves_at_cap`` a node's two leaf
    points (``Dag.leaf_xy``) are its subproblems' at remaining depth 0 only, a plain leaf
    above (:func:`dagger_cli.engine.anytime.relaxed_bound`). With ``cluster`` (a
    :class:`dagger_cli.engine.cluster_layer.LayerCluster`) the depth-two layer runs on a
    Dask cluster, its pieces' fronts appended to the pool in entry order (the same bytes).

    The kernels (compiled, :mod:`dagger_cli._core`) read the named tuples of
    :mod:`dagger_cli.engine.kernels.fronts` and :mod:`~dagger_cli.engine.kernels.depth_two`
    (the order of subproblems, the DAG, the point pool, the depth-two entries) and the
    table as discovery keeps it (``Dag.table_arrays``, by field names)."""

    from .kernels import depth_two as d2
    from .kernels import fronts as fk

    progress = progress or Progress(False)
    nodes = dag.node_size.size
    by_size = np.argsort(dag.node_size, kind="stable").astype(np.int64)
    capped = dag.max_depth is not None
    if capped:
        counts = dag.subproblem_counts()
        sub_start = np.zeros(nodes + 1, np.int64)
        np.cumsum(counts, out=sub_start[1:])
        per = counts[by_size]
        ord_node = np.repeat(by_size, per)
        ends = np.cumsum(per)
        ord_r = np.arange(ord_node.size, dtype=np.int64) - np.repeat(ends - per, per)
    else:
        sub_start = np.zeros(1, np.int64)
        ord_node = by_size
        ord_r = np.full(nodes, NO_CAP, np.int64)
    subs = ord_node.size
    inf = np.iinfo(np.int64).max
    bounds = (
        inf if max_x is None else int(max_x),
        inf if max_y is None else int(max_y),
        int(least_y),
    )
    params = np.array(
        x_cost.params() + y_cost.params() + (int(exact_only),) + bounds + (int(leaves_at_cap),),
        dtype=np.int64,
    )
    fref = np.zeros((subs, 2), np.int64)
    cap = max(2 * subs, 1024)
    pool = GrowableArrays({"fxy": (2 * cap, np.int64), "fch": (cap, np.int32)})
    counters = np.zeros(2, np.int64)
    ready = np.zeros(max(subs, 1), np.uint8)
    workers = min(threads.current_choice(), PIECES)
    arrays = fk.dag_arrays(dag)
    # The table as the depth-two layer reads it, kept with the DAG.
    kept_arrays = dag.table_arrays if isinstance(dag.table_arrays, tuple) else ()
    kept_arrays += () if dag.d2_leaves is None else tuple(dag.d2_leaves)
    kept = sum(x.nbytes for x in kept_arrays if isinstance(x, np.ndarray))
    slack = [0]  # slots added to every front's bound (weighted rows: see drive)
    leaves = d2.PLAIN if dag.d2_leaves is None else dag.d2_leaves

    def drive(call, phase, total, unit, reserve, piece):
        """Run a resumable fronts kernel (``call(pool, allow)``: its own structures bound,
        then the point pool and each piece's allowance of bytes) to the end: the pool grown
        within ``max_memory``, progress shown. The allowance is each thread's share of what
        the ceiling leaves beside the DAG, the pool and ``reserve`` (the kernel's output
        buffers), taken again before every call as the pool grows; the kernels size every
        array of a piece against it before they make it."""
        while True:
            needs = np.zeros(1, np.int64)
            beside = dag.nbytes() + pool.nbytes() + kept
            if max_memory is None:
                allow = NO_LIMIT
            else:
                allow = max(max_memory - beside - reserve, 0) // workers
            # (No reference to the pool's arrays is kept: they must be free to grow.)
            status = _run(
                call,
                fk.FrontPool(fref.reshape(-1), pool["fxy"], pool["fch"], counters, needs),
                allow,
            )
            if status == Status.FRONT_TOO_LONG:
                if dag.node_weight is None or slack[0] > 1 << 40:
                    raise AssertionError(
                        f"a front is longer than its proven bound ({phase}; a bug)"
                    )
                # Weighted costs take more values than rows: the slots grow (2n + m + 2
                # bounds an unweighted front only).
                slack[0] = 2 * slack[0] + 64
                continue
            done = f"after {int(counters[0]):,} of {total:,} {unit}"
            if status == Status.OUT_OF_MEMORY:
                want = int(needs[0])
                detail = (
                    f"{piece} {size_text(want)}, and each of {workers} "
                    f"threads may use {size_text(allow)} beside the DAG and the fronts "
                    f"({size_text(beside)}), {done}."
                    if want
                    else f"a thread's arrays failed to allocate, {done}."
                )
                raise _out_of_memory(f"the {phase} need", max_memory, detail)
            if status == Status.MUST_GROW:
                need, used = int(needs[0]), int(counters[1])
                pool.grow("fxy", 2 * need, 2 * used)
                pool.grow("fch", need, used)
                if max_memory is not None and dag.nbytes() + pool.nbytes() > max_memory:
                    raise LimitError(
                        f"the fronts need more than {size_text(max_memory)} (--max-memory) {done}."
                    )
            progress.update(phase, int(counters[0]), total, unit=unit)
            if status == Status.DONE:
                return

    depth_two = None
    if capped and dag.d2_level is not None:
        # The depth-two layer first: its subproblems need no other front.
        d2n = np.flatnonzero((dag.node_level == dag.d2_level) & (counts > 1)).astype(np.int64)
        per = counts[d2n] - 1
        e_node = np.repeat(d2n, per)
        ends = np.cumsum(per)
        e_r = np.arange(e_node.size, dtype=np.int64) - np.repeat(ends - per, per) + 1
        e_sub = sub_start[e_node] + e_r
        ready[e_sub] = 1
        depth_two = int(e_node.size)
        entries = d2.D2Entries(e_node, e_r, e_sub)
        slots = 2 * dag.node_size[e_node].astype(np.int64) + dag.n_attributes + 2
        reserve = 20 * max(min(fk.CHUNK_ENTRIES, int(slots.sum())), int(slots.max(initial=0)))
        many = D2_MANY_VALUES

        def d2_call(shared, allow):
            return d2.d2_fronts(
                entries,
                dag.table_arrays,
                arrays,
                params,
                shared,
                dag.n_attributes + slack[0],
                many,
                allow,
                BUDGET,
                leaves,
            )

        if cluster is None:
            drive(
                d2_call,
                "depth-two fronts",
                depth_two,
                "subproblems",
                reserve,
                "one subtable's arrays need",
            )
        else:

            def append(lo: int, lens: np.ndarray, fxy: np.ndarray, fch: np.ndarray) -> None:
                """Entries lo.. of the layer, their fronts computed elsewhere: appended to
                the pool as the kernel appends them (the same bytes)."""
                used, total = int(counters[1]), int(fch.size)
                pool.grow("fxy", 2 * (used + total), 2 * used)
                pool.grow("fch", used + total, used)
                if max_memory is not None and dag.nbytes() + pool.nbytes() > max_memory:
                    raise LimitError(
                        f"the fronts need more than {size_text(max_memory)} (--max-memory) "
                        f"after {lo:,} of {depth_two:,} depth-two subproblems."
                    )
                subs = e_sub[lo : lo + lens.size]
                fref[subs, 0] = used + np.cumsum(lens) - lens
                fref[subs, 1] = lens
                pool["fxy"][2 * used : 2 * (used + total)] = fxy
                pool["fch"][used : used + total] = fch
                counters[1] = used + total

            ta = dag.table_arrays
            assert isinstance(ta, tuple)  # discovery's TableArrays, kept with the layer
            job = LayerJob(
                LayerTable(*ta[:4]),
                leaves,
                params,
                dag.n_attributes,
                many,
            )
            slack[0] = max(slack[0], cluster.depth_two(dag, entries, job, append, progress))
        counters[0] = 0
    order = fk.FrontOrder(ord_node, ord_r, sub_start, ready, capped)

    def fronts_call(shared, allow):
        return fk.fronts(order, arrays, params, shared, dag.n_attributes + slack[0], allow, BUDGET)

    # The output buffers of a chunk (20 bytes a slot, grown by doubling): a chunk holds
    # subproblems of nodes of one size s, each with a slot of bound 2s + m + 2, at most
    # CHUNK_NODES of them and CHUNK_ENTRIES slots (or one).
    sizes, per_size = np.unique(dag.node_size[ord_node], return_counts=True)
    slot = 2 * sizes.astype(np.int64) + dag.n_attributes + 2
    room = np.minimum(np.minimum(per_size, fk.CHUNK_NODES), np.maximum(fk.CHUNK_ENTRIES // slot, 1))
    reserve = 40 * int((room * slot).max(initial=0))
    unit = "subproblems" if capped else "subtables"
    drive(fronts_call, "fronts", subs, unit, reserve, "one batch of subtables needs")
    used = int(counters[1])
    return FrontStore(
        fref,
        pool["fxy"][: 2 * used].reshape(-1, 2),
        pool["fch"][:used],
        sub_start if capped else None,
        depth_two,
    )


#: The table as the depth-two layer reads it (the fields of discovery's ``TableArrays``
#: that :func:`~dagger_cli.engine.kernels.depth_two.d2_fronts` reads).
LayerTable = namedtuple("LayerTable", "rc nvals dec n_dec")


@dataclass(frozen=True)
class LayerJob:
    """What every piece of a query's depth-two layer shares: the table as the layer reads
    it, how a leaf reads its counts (``D2Leaves``), the cost pair's parameters (as
    :func:`compute_fronts` makes them), the table's attributes and the most values of a
    small attribute (:data:`D2_MANY_VALUES`)."""

    table: LayerTable
    leaves: object
    params: np.ndarray
    n_attributes: int
    many: int


@dataclass(frozen=True)
class LayerPiece:
    """A run of the depth-two layer's entries with their subtables, numbered from 0 (what
    a cluster's worker needs of the DAG): entry k is subtable ``node[k]`` at remaining
    depth ``r[k]``; subtable i has the rows ``rows[start[i]:start[i] + size[i]]``, the
    weight ``weight[i]``, its leaf's misclassifications ``mis[i]`` and the level
    ``level[i]``."""

    node: np.ndarray
    r: np.ndarray
    size: np.ndarray
    weight: np.ndarray
    mis: np.ndarray
    level: np.ndarray
    start: np.ndarray
    rows: np.ndarray

    @property
    def nbytes(self) -> int:
        return sum(getattr(self, f).nbytes for f in self.__dataclass_fields__)


def layer_work(dag: Dag, entries) -> np.ndarray:
    """The depth-two kernel's own estimate of each entry's work (``core/depth_two.cpp``,
    ``run``): its rows, and at remaining depth 2 a word of the rows' bitsets per pair of
    attributes."""
    n = dag.node_size[entries.node].astype(np.float64)
    m = float(dag.n_attributes)
    return n + np.where(entries.r >= 2, m * m * (np.floor(n / 64) + 1) / 8, m)


def layer_piece(dag: Dag, entries, lo: int, hi: int) -> LayerPiece:
    """Entries ``lo:hi`` of the layer (their subtables' entries consecutive, as
    :func:`compute_fronts` makes them) with their subtables."""
    ta = dag.table_arrays
    assert isinstance(ta, tuple)  # discovery's TableArrays, kept with the layer
    nodes, local = np.unique(entries.node[lo:hi], return_inverse=True)
    size = dag.node_size[nodes].astype(np.int64)
    start = np.cumsum(size) - size
    where = np.repeat(dag.node_start[nodes] - start, size) + np.arange(int(size.sum()))
    return LayerPiece(
        node=local.astype(np.int64),
        r=np.ascontiguousarray(entries.r[lo:hi], dtype=np.int64),
        size=size.astype(np.int32),
        weight=np.ascontiguousarray(dag.weights[nodes], dtype=np.int32),
        mis=np.ascontiguousarray(dag.node_mis[nodes], dtype=np.int32),
        level=np.ascontiguousarray(dag.node_level[nodes], dtype=np.int32),
        start=start.astype(np.int64),
        # (half the bytes to send where the row numbers fit in 16 bits)
        rows=dag.row_pool[where].astype(np.uint16 if ta[2].size <= 1 << 16 else np.int32),
    )


def run_layer_piece(job: LayerJob, piece: LayerPiece, allow: int, stopped=lambda: False):
    """The fronts of a piece of the depth-two layer (on a cluster's worker): ``(status,
    lens, fxy, fch, needs, slack)``, each entry's number of points and the points and tags
    of all of them in entry order, as :func:`compute_fronts` appends them. ``status``:
    DONE, OUT_OF_MEMORY (``needs`` the bytes a subtable wanted) or BUDGET_SPENT when
    ``stopped()`` (asked between two kernel calls) said to stop; ``slack`` the slots the
    fronts' bounds needed beyond the attributes (weighted costs)."""
    from .kernels import depth_two as d2
    from .kernels import fronts as fk

    k, n = int(piece.node.size), int(piece.size.size)
    arrays = fk.DagArrays(
        node_start=piece.start,
        node_size=piece.size,
        node_mis=piece.mis,
        node_split=np.zeros(n, np.int8),
        node_level=piece.level,
        node_bundle_start=np.zeros(n + 1, np.int64),
        bundle_edge_start=np.zeros(1, np.int64),
        edge_child=np.zeros(0, np.int32),
        row_pool=piece.rows.astype(np.int32),
        node_weight=piece.weight,
        leaf_xy=np.zeros(0, np.int64),
    )
    entries = d2.D2Entries(piece.node, piece.r, np.arange(k, dtype=np.int64))
    fref = np.zeros(2 * k, np.int64)
    cap = max(4 * k, 1024)
    pool = GrowableArrays({"fxy": (2 * cap, np.int64), "fch": (cap, np.int32)}, use_mmap=False)
    counters = np.zeros(2, np.int64)
    slack = 0
    empty = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int32))
    while True:
        needs = np.zeros(1, np.int64)
        status = _run(
            d2.d2_fronts,
            entries,
            job.table,
            arrays,
            job.params,
            fk.FrontPool(fref, pool["fxy"], pool["fch"], counters, needs),
            job.n_attributes + slack,
            job.many,
            allow,
            BUDGET,
            job.leaves,
        )
        if status == Status.FRONT_TOO_LONG:
            if slack > 1 << 40:
                raise AssertionError("a depth-two front is longer than its proven bound (a bug)")
            slack = 2 * slack + 64  # weighted costs take more values than rows
            continue
        if status == Status.OUT_OF_MEMORY:
            return int(status), *empty, int(needs[0]), slack
        if status == Status.MUST_GROW:
            used = int(counters[1])
            pool.grow("fxy", 2 * int(needs[0]), 2 * used)
            pool.grow("fch", int(needs[0]), used)
        if status == Status.DONE:
            break
        if stopped():
            return int(Status.BUDGET_SPENT), *empty, 0, slack
    used = int(counters[1])
    return (
        int(Status.DONE),
        fref[1::2].copy(),
        pool["fxy"][: 2 * used].copy(),
        pool["fch"][:used].copy(),
        0,
        slack,
    )


def layer_refusal(table, query) -> str | None:
    """Why the whole-DAG route does not run ``query`` on a Dask cluster (None: it runs its
    depth-two layer there)."""
    cap = query.cap(table.n_attributes)
    if query.max_depth is None or (cap is not None and cap < 2):
        return "a depth cap of 2 or more (--max-depth) for the last two levels to run there"
    if cap is None:
        return (
            f"a depth cap below its {table.n_attributes} attributes (no tree is deeper: "
            "the cap is no cap) for the last two levels to run there"
        )
    if query.exact_only or query.count:
        return "neither --exact-only nor --count (the last two levels are then built whole)"
    if query.depth_two is False:
        return "the depth-two layer (depth_two=False keeps the last two levels in the DAG)"
    if not depth_two_serves(table, query.x_cost, query.y_cost):
        return (
            f"a cost pair and weights that the depth-two layer computes ({query.x} vs "
            f"{query.y} on this table are computed by the whole DAG)"
        )
    return None


#: The depth-two layer's "small" attributes: at most this many present values in a
#: subtable (see :mod:`dagger_cli.engine.kernels.depth_two`). A pair of small
#: attributes is counted from bitsets over the rows (about a x b x rows / 64 popcounts
#: per class), a pair with a larger one row by row (a few memory accesses per row,
#: whatever the values). Measured on 20,000 rows, six attributes of k values, three
#: classes, D = 3 (least of 3): k = 4-8 bitsets 0.03-0.04 s against rows 0.05-0.09 s;
#: k = 12 0.10 s against 0.09 s; k = 16-128 0.2-1.1 s against 0.13-0.30 s.
D2_MANY_VALUES = 12
#: "No ceiling" for a kernel's allowance of bytes.
NO_LIMIT = 1 << 62

#: The depth-two layer's automatic choice (:func:`use_depth_two`).
D2_AUTO_MAX_DEPTH = 4
D2_AUTO_MIN_ATTRIBUTES = 24


#: The most classes of (decision, weight) pairs the depth-two layer counts a weighted
#: table's rows in (:func:`depth_two_serves`): its pair counts take one popcount and its
#: bitsets a bit per class and row, so rows of many distinct weights (survey weights) keep
#: the plain DAG's last levels. Measured at D = 3 (depth vs misclassifications, weights
#: drawn from 1..k, medians of 3, load 3.4): vote, kr-vs-kp, australian-credit with 8
#: classes 0.03, 0.06, 0.13 s against 0.31, 1.02, 0.98 s without the layer; 32 classes
#: 0.07, 0.13, 0.31 s against 0.40, 1.06, 4.02 s; about 125 classes 0.18, 0.38, 1.51 s
#: against 0.26, 2.07, 11.9 s.
D2_MAX_CLASSES = 64


def depth_two_serves(table, cx, cy) -> bool:
    """Whether the depth-two layer computes the fronts of ``table`` for the cost pair
    ``cx``, ``cy`` exactly as the DAG does: always unweighted; with weights, class
    weights, prices and a minimum leaf size when its rows' (decision, weight) pairs are
    at most :data:`D2_MAX_CLASSES` (:func:`~dagger_cli.engine.kernels.depth_two.weighted_leaves`),
    and not for costs that read a leaf's decision (false positives and negatives: a leaf
    of two points, which the layer does not keep)."""
    w = getattr(table, "weighting", None)
    if w is None:
        return True
    if cx.reads_decision or cy.reads_decision:
        return False
    from .kernels.depth_two import weighted_classes

    return weighted_classes(w, table.decisions) <= D2_MAX_CLASSES


def use_depth_two(choice: bool | str, cap: int | None, n_attributes: int) -> bool:
    """Whether the depth-two layer runs: ``choice`` True or False, or ``"auto"``.

    The layer evaluates the last two levels of each subtable at level D - 2 on its own,
    while the plain DAG builds a subtable of level D - 1 or D once for all the parents
    that reach it (conditions commute: one at depth k is reached by up to k orders of
    its splits). On narrow tables that sharing wins from D = 5 on (lymphography, 18
    attributes, D = 5: 0.42 s against 0.18 s plain; D = 6: 1.5-2.1x; zoo, mushroom
    likewise), while on wider ones the plain DAG's last levels explode (odt-tic-tac-toe,
    27 attributes, D = 5: 0.5-0.7 s against 3.7-5.4 s plain; the 12 benchmark tables
    all have 27 or more). At D <= 4 the layer was as fast or faster on every table
    measured (0.4-1.2x).

    >>> use_depth_two("auto", 5, 18), use_depth_two("auto", 5, 27), use_depth_two("auto", 4, 9)
    (False, True, True)
    """
    if choice == "auto":
        return cap is not None and (
            cap <= D2_AUTO_MAX_DEPTH or n_attributes >= D2_AUTO_MIN_ATTRIBUTES
        )
    if not isinstance(choice, bool):
        raise InputError(f"depth_two must be True, False or 'auto', got {choice!r}")
    return choice


def solve_fast(table, query, cluster=None) -> Relation:
    """The ``fast`` solver (:mod:`dagger_cli.engine.registry`): the front of a validated
    :class:`~dagger_cli.engine.query.Query` by the compiled kernels, with the DAG and the
    fronts that tree extraction and counting read. With ``query.scheduler``,
    ``cluster(max_memory)`` gives the executor of the depth-two layer
    (:class:`~dagger_cli.engine.cluster_layer.LayerCluster`). The bounds (``max_x``, ``max_y``,
    ``least_y``) are pushed into the kernels (:attr:`Query.pushed_bounds`); what is left of the
    query (counting, the final restriction) is :func:`dagger_cli.engine.api.solve`'s."""
    cx, cy = query.x_cost, query.y_cost
    cap = query.cap(table.n_attributes)
    push_x, push_y = query.pushed_bounds
    max_memory = memory_ceiling(query.max_memory)[0]
    prog = Progress(query.progress)
    try:
        dag = build_dag(
            table,
            max_subtables=query.max_subtables,
            max_memory=max_memory,
            progress=prog,
            max_depth=cap,
            # (on a cluster the layer is what runs there; the same fronts and trees)
            depth2=(
                query.scheduler is not None
                or use_depth_two(query.depth_two, cap, table.n_attributes)
            )
            and query.depth_two is not False
            and not query.exact_only
            and not query.count
            and depth_two_serves(table, cx, cy),
            limits=_limits(cx, cy, push_x, push_y),
            classes=True,  # a sorting table: one node per class of partial orders
        )
        dag.decide(table, cx, cy)
        kwargs = dict(
            progress=prog,
            max_memory=max_memory,
            exact_only=query.exact_only,
            max_x=push_x,
            max_y=push_y,
            least_y=query.push_least,
        )
        if query.scheduler is not None and dag.d2_level is not None:
            if cluster is None:
                raise AssertionError("a query for a cluster without one (a bug)")
            store = compute_fronts(dag, cx, cy, cluster=cluster(max_memory), **kwargs)
        else:
            store = compute_fronts(dag, cx, cy, **kwargs)
    finally:
        prog.close()
    fx, fy, _ = store.front(0)
    stats = dag.stats
    if cap is not None:
        stats = DagStats(
            **{
                **stats.__dict__,
                "subproblems": int(store.fref.shape[0]),
                "depth_two": store.depth_two,
            }
        )
    fx, fy = feasible(table, cx, cy, np.array(fx, dtype=np.int64), np.array(fy, dtype=np.int64))
    front = Front(cx, cy, fx, fy, table.weight_total)
    return Relation(
        table=table,
        front=front,
        stats=stats,
        engine="fast",
        seconds=0.0,
        dag=dag,
        store=store,
        max_depth=query.max_depth,
    )


def feasible(table, cx, cy, fx: np.ndarray, fy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of a front whose trees respect the table's minimum leaf size: a leaf of
    fewer rows costs :attr:`dagger_cli.weights.Weighting.infeasible` misclassifications,
    false positives and false negatives, so those trees' points are the ones at or above it
    in such a cost (never dominating a feasible one)."""
    w = getattr(table, "weighting", None)
    if w is None or w.min_leaf == 1:
        return fx, fy
    keep = np.ones(fx.size, dtype=bool)
    for cost, values in ((cx, fx), (cy, fy)):
        if cost.reads_errors:
            keep &= values < w.infeasible
    return fx[keep], fy[keep]
