"""The engines behind ``dagger relate`` and their common interface.

>>> from dagger_cli.table import example_table
>>> relate(example_table()).front.points()
[(0, 2), (4, 0)]

``relate(table, x, y, engine=...)`` returns a :class:`Relation`: the Pareto front of
cost ``x`` against cost ``y`` over every decision tree for the table, the statistics of
the DAG Δ(T), and (fast engine) what tree extraction needs.

Engines: ``fast`` (compiled kernels, :mod:`dagger_cli.fast`), ``baseline`` (plain
recursion with numpy Pareto merging, the oracle) and ``paper`` (the paper's dense
algorithm, total path length vs misclassifications only, small tables only).
"""

from __future__ import annotations

import contextlib
import enum
import mmap
import sys
import threading
import time
from dataclasses import dataclass

import numpy as np

from . import threads
from .costs import DEFAULT_X, DEFAULT_Y, SUM, check_pair
from .errors import InputError, LimitError
from .fronts import Front

ENGINES = ("fast", "baseline", "paper")
#: Units of kernel work between two returns to Python (progress, Ctrl-C).
BUDGET = 4_000_000
SEED = 20121129  # fixed: row keys, hence everything, are reproducible


class Status(enum.IntEnum):
    """What a resumable kernel returns (the constants of the same names in ``fast``)."""

    DONE = 0  #: finished
    BUDGET_SPENT = 1  #: its work budget is spent: report progress, call again
    MUST_GROW = 2  #: an array must grow (sizes in ``needs``), then call again
    TOO_MANY_NODES = 3  #: more subtables than --max-subtables
    FRONT_TOO_LONG = 4  #: a front longer than its proven bound (a bug)


@dataclass(frozen=True)
class DagStats:
    """Size of the DAG Δ(T): separable subtables (nodes), terminal nodes (no bundle),
    bundles (one per non-constant attribute of a non-terminal node) and edges.

    Under a depth cap D (``max_depth``) only what is reachable within D splits is built:
    a subtable at depth D is terminal (its leaf only); ``subproblems`` counts the
    (subtable, remaining depth) pairs whose fronts were computed (uncapped: one per
    subtable)."""

    subtables: int
    terminal: int
    bundles: int
    edges: int
    subproblems: int
    max_depth: int | None = None
    #: subproblems solved by the depth-two layer (from class counts, no subtables built)
    depth_two: int | None = None

    def as_dict(self) -> dict:
        out = {
            "subtables": self.subtables,
            "terminal": self.terminal,
            "bundles": self.bundles,
            "edges": self.edges,
            "subproblems": self.subproblems,
        }
        if self.max_depth is not None:
            out["max_depth"] = self.max_depth
        if self.depth_two is not None:
            out["depth_two"] = self.depth_two
        return out


@dataclass(eq=False)
class Dag:
    """The DAG Δ(T) as flat arrays (CSR), node 0 being the whole table.

    Node ``i`` has rows ``row_pool[node_start[i]:node_start[i] + node_size[i]]``, most
    common decision ``node_major[i]``, ``node_mis[i]`` rows of other decisions, and
    bundles ``node_bundle_start[i]:node_bundle_start[i + 1]``; bundle ``b`` splits on
    attribute ``bundle_attr[b]`` into the children
    ``edge_child[bundle_edge_start[b]:bundle_edge_start[b + 1]]`` (value order).
    ``node_split[i]`` is 1 if some attribute splits an impure node (its rows are not all
    equal), ``node_level[i]`` its least depth in a tree (breadth-first discovery) and
    ``node_attr_len[i]`` its number of candidate attributes (a bound on its subtrees'
    depth). Under a depth cap ``max_depth`` nodes of that level have no bundles.

    With the depth-two layer (``d2_level`` = D - 2, ``table_arrays`` the table as the
    kernels read it) nodes of level D - 2 are not expanded either: their fronts at
    remaining depth 1 and 2 come from class counts over their rows
    (:func:`dagger_cli.fast.d2_fronts`), so the two last levels are never built.
    """

    node_start: np.ndarray
    node_size: np.ndarray
    node_mis: np.ndarray
    node_major: np.ndarray
    node_split: np.ndarray
    node_level: np.ndarray
    node_attr_len: np.ndarray
    node_bundle_start: np.ndarray
    row_pool: np.ndarray
    bundle_attr: np.ndarray
    bundle_edge_start: np.ndarray
    edge_child: np.ndarray
    terminal: int
    n_attributes: int
    max_depth: int | None = None
    d2_level: int | None = None
    table_arrays: object = None
    #: the bounds discovery applied (:func:`_limits`; None: none)
    limits: np.ndarray | None = None

    def is_d2(self, node: int) -> bool:
        """Whether ``node``'s fronts at remaining depth >= 1 come from the depth-two layer."""
        return self.d2_level is not None and int(self.node_level[node]) == self.d2_level

    @property
    def stats(self) -> DagStats:
        return DagStats(
            int(self.node_size.size),
            int(self.terminal),
            int(self.bundle_attr.size),
            int(self.edge_child.size),
            int(self.node_size.size),
            self.max_depth,
        )

    def subproblem_counts(self) -> np.ndarray:
        """Per node, how many (node, remaining depth r) subproblems its front needs:
        r = 0 .. R with R = D - level, at most its candidate attributes (no subtree is
        deeper), 0 for a node without bundles (its leaf is its only tree)."""
        if self.max_depth is None:
            return np.ones(self.node_size.size, dtype=np.int64)
        top = np.minimum(self.max_depth - self.node_level.astype(np.int64), self.node_attr_len)
        has = self.node_bundle_start[1:] > self.node_bundle_start[:-1]
        if self.d2_level is not None:
            # Not expanded, but split by the depth-two layer when some attribute splits them.
            d2 = self.node_level == self.d2_level
            has = has | (d2 & (self.node_mis > 0) & (self.node_split > 0) & self._splittable())
        return np.where(has, np.maximum(top, 0), 0).astype(np.int64) + 1

    def _splittable(self) -> np.ndarray:
        """Per node, whether a tree within the bounds ``limits`` can split it."""
        if self.limits is None:
            return np.ones(self.node_size.size, dtype=bool)
        from . import fast

        return fast.splittable(self.node_level, self.node_size, self.limits)

    def rows(self, node: int) -> np.ndarray:
        s = self.node_start[node]
        return self.row_pool[s : s + self.node_size[node]]

    def bundles(self, node: int) -> range:
        return range(int(self.node_bundle_start[node]), int(self.node_bundle_start[node + 1]))

    def children(self, bundle: int) -> np.ndarray:
        return self.edge_child[self.bundle_edge_start[bundle] : self.bundle_edge_start[bundle + 1]]

    def nbytes(self) -> int:
        return sum(
            a.nbytes
            for a in (
                self.node_start,
                self.node_size,
                self.node_mis,
                self.node_major,
                self.node_split,
                self.node_level,
                self.node_attr_len,
                self.node_bundle_start,
                self.row_pool,
                self.bundle_attr,
                self.bundle_edge_start,
                self.edge_child,
            )
        )


@dataclass(eq=False)
class FrontStore:
    """Every subproblem's Pareto front: points ``fref[s, 0]:fref[s, 0] + fref[s, 1]`` of
    ``fxy`` (one (x, y) row per point); ``fch`` is the local bundle index that made the
    point (-1: leaf; for a depth-two subproblem, the split attribute's column).
    Uncapped, subproblem ``s`` is node ``s``; under a depth cap node ``i``'s subproblems
    are ``sub_start[i] + r``, r = 0 .. its count - 1 (remaining depth r; the top one
    stands for any larger r)."""

    fref: np.ndarray
    fxy: np.ndarray
    fch: np.ndarray
    sub_start: np.ndarray | None = None
    #: how many subproblems the depth-two layer solved (None: not used)
    depth_two: int | None = None

    def subproblem(self, node: int, r: int | None = None) -> int:
        """The subproblem of ``node`` with remaining depth ``r`` (None: the largest)."""
        if self.sub_start is None:
            return node
        s0, s1 = int(self.sub_start[node]), int(self.sub_start[node + 1])
        return s1 - 1 if r is None else s0 + min(r, s1 - s0 - 1)

    def subproblem_depth(self, node: int) -> int | None:
        """The remaining depth of ``node``'s top subproblem (None uncapped)."""
        if self.sub_start is None:
            return None
        return int(self.sub_start[node + 1] - self.sub_start[node]) - 1

    def front(self, node: int, r: int | None = None):
        """x, y and bundle index of the points of ``node``'s front at remaining depth
        ``r`` (None: the largest it has)."""
        sub = self.subproblem(node, r)
        s = self.fref[sub, 0]
        e = s + self.fref[sub, 1]
        return self.fxy[s:e, 0], self.fxy[s:e, 1], self.fch[s:e]


@dataclass(eq=False)
class Relation:
    """Result of :func:`relate`."""

    table: object
    front: Front
    stats: DagStats
    engine: str
    seconds: float
    dag: Dag | None = None
    store: FrontStore | None = None
    max_depth: int | None = None


class Progress:
    """Progress lines on stderr, only for work that runs longer than ``after`` seconds."""

    def __init__(self, enabled: bool, after: float = 2.0, stream=None):
        self.enabled = enabled
        self.after = after
        self.stream = stream or sys.stderr
        self.t0 = time.perf_counter()
        self.last = 0.0
        self.shown = False

    def update(self, phase: str, done: int, total: int | None = None, unit: str = "subtables"):
        if not self.enabled:
            return
        now = time.perf_counter() - self.t0
        if now < self.after or now - self.last < 1.0:
            return
        self.last = now
        rate = done / now if now > 0 else 0.0
        of = f" of {total:,}" if total is not None else ""
        tty = getattr(self.stream, "isatty", lambda: False)()
        end = "\r" if tty else "\n"
        self.stream.write(f"{phase}: {done:,}{of} {unit} ({rate:,.0f}/s, {now:.1f} s){end}")
        self.stream.flush()
        self.shown = True

    def first_call(self):
        """A context for a kernel's first call in this process: if it has not returned
        after 2 s, numba is compiling it (first run after installing); say so once."""
        return _CompileNote(self) if self.enabled else contextlib.nullcontext()

    def close(self):
        if self.shown and getattr(self.stream, "isatty", lambda: False)():
            self.stream.write("\n")
            self.stream.flush()


class _CompileNote:
    shown = False  # once per process
    delay = 2.0

    def __init__(self, progress):
        self.progress = progress
        self.timer = threading.Timer(self.delay, self._note)
        self.timer.daemon = True

    def _note(self):
        if not _CompileNote.shown:
            _CompileNote.shown = True
            self.progress.stream.write(
                "dagger: compiling the engine's kernels (first run after "
                "installing: about 20 s, cached afterwards)\n"
            )
            self.progress.stream.flush()

    def __enter__(self):
        self.timer.start()

    def __exit__(self, *exc):
        self.timer.cancel()


def parse_size(text: str | int | None) -> int | None:
    """``'500M'``, ``'2GiB'``, ``'1.5G'`` or a number of bytes -> bytes.

    >>> parse_size("2GiB"), parse_size("500M"), parse_size(1024)
    (2147483648, 524288000, 1024)
    """
    if text is None or isinstance(text, int):
        return text
    s = str(text).strip().upper().removesuffix("B").removesuffix("I")
    mult = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    try:
        if s and s[-1] in mult:
            return int(float(s[:-1]) * mult[s[-1]])
        return int(float(s))
    except ValueError:
        raise InputError(f"cannot read size {text!r}; expected e.g. 500M, 2G or 2GiB") from None


#: Share of the memory available at start that the engine may use when no --max-memory is
#: given: the rest is left to the system and other programs (and to the page cache).
DEFAULT_MEMORY_FRACTION = 0.8
#: Values of ``max_memory`` that mean "no ceiling" and "the default ceiling".
NO_LIMIT = ("none", "off", "unlimited")
AUTO = "auto"


def memory_available() -> int | None:
    """Bytes the system can give without swapping: ``MemAvailable`` of ``/proc/meminfo``,
    lowered to the room left under a cgroup (v2) memory limit; None when unknown.

    Under Linux overcommit an allocation "succeeds" far beyond this and the process is killed
    later without a word (exit 137), so a ceiling must be chosen from this figure up front.
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
        avail = int(fields["MemAvailable"].split()[0]) * 1024
    except (OSError, KeyError, ValueError, IndexError):
        return None
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
            current = int(fh.read().strip())
        if limit.isdigit():
            avail = min(avail, max(0, int(limit) - current))
    except (OSError, ValueError):
        pass
    return avail


def resident_bytes() -> int | None:
    """This process's resident memory (``/proc/self/statm``), None where unknown."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * mmap.PAGESIZE
    except (OSError, ValueError, IndexError):
        return None


#: Steps between two readings of a :class:`MemoryGuard` (a reading costs about 10 µs).
GUARD_EVERY = 1024


class MemoryGuard:
    """Stops a Python pass (counting's exact integers, which live in no engine array)
    before its memory passes ``ceiling`` bytes: the growth of the process's resident
    memory since the guard was made, read every ``every`` steps (no check where
    ``/proc`` does not say, or without a ceiling)."""

    def __init__(self, ceiling: int | None, what: str, every: int | None = None):
        self.ceiling, self.what = ceiling, what
        self.every = GUARD_EVERY if every is None else every
        self.start = resident_bytes() if ceiling is not None else None
        self.steps = 0

    def step(self, done: int, total: int) -> None:
        self.steps += 1
        if self.start is None or self.ceiling is None or self.steps % self.every:
            return
        now = resident_bytes()
        if now is not None and now - self.start > self.ceiling:
            raise LimitError(
                f"{self.what} needs more than {self.ceiling / 2**20:,.0f} MiB (--max-memory) "
                f"after {done:,} of {total:,} steps"
            )


def memory_ceiling(max_memory=AUTO) -> tuple[int | None, str]:
    """``max_memory`` as bytes (None: no ceiling) and the option to name in messages.

    ``"auto"`` (the default) is :data:`DEFAULT_MEMORY_FRACTION` of :func:`memory_available`
    at start (no ceiling where that is unknown); ``None``, ``"none"``, ``"off"`` and
    ``"unlimited"`` lift the ceiling; anything else goes through :func:`parse_size`.
    """
    if max_memory is None or (isinstance(max_memory, str) and max_memory.lower() in NO_LIMIT):
        return None, "--max-memory"
    if isinstance(max_memory, str) and max_memory.lower() == AUTO:
        avail = memory_available()
        if avail is None:
            return None, "--max-memory"
        ceiling = int(avail * DEFAULT_MEMORY_FRACTION)
        return ceiling, (
            f"the default ceiling, {DEFAULT_MEMORY_FRACTION:.0%} of the "
            f"{avail / 2**20:,.0f} MiB available at start; --max-memory SIZE or none changes it"
        )
    return parse_size(max_memory), "--max-memory"


_MMAP = sys.platform.startswith("linux") and hasattr(mmap, "MAP_ANONYMOUS")


class GrowableArrays:
    """The engine's growable work arrays, by name (``arrays["edge_child"]``).

    On Linux each lives on an anonymous memory map: growing it remaps its pages (mremap)
    instead of copying them, and the new part is not touched until written (the system
    maps zero pages on first use). Touching fresh memory is slow on virtual machines, and a
    copy would hold old and new arrays at once. Elsewhere they are numpy arrays, copied.
    An array obtained here must not be kept across :meth:`grow` of the same name."""

    def __init__(self, specs: dict, use_mmap: bool | None = None):
        self._mmap = _MMAP if use_mmap is None else use_mmap
        self._dtype, self._maps, self._views = {}, {}, {}
        for name, (size, dtype) in specs.items():
            self._dtype[name] = dt = np.dtype(dtype)
            if self._mmap:
                self._maps[name] = mmap.mmap(
                    -1, max(size, 1) * dt.itemsize, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS
                )
            else:
                self._views[name] = np.zeros(max(size, 1), dt)

    def __getitem__(self, name: str) -> np.ndarray:
        view = self._views.get(name)
        if view is None:
            view = self._views[name] = np.frombuffer(self._maps[name], self._dtype[name])
        return view

    def grow(self, name: str, need: int, used: int) -> None:
        """Room for ``need`` items (at least double), the first ``used`` kept."""
        size = self[name].size
        if need <= size:
            return
        if not self._mmap:  # a new array, only the used part copied
            out = np.empty(max(need, 2 * size), dtype=self._dtype[name])
            out[:used] = self._views[name][:used]
            self._views[name] = out
            return
        del self._views[name]  # release the buffer so that the map can move
        try:
            self._maps[name].resize(max(need, 2 * size) * self._dtype[name].itemsize)
        except OSError as err:  # ENOMEM: the system has no room for the bigger map
            raise MemoryError(f"cannot grow {name} to {need:,} items: {err}") from None

    def nbytes(self) -> int:
        return sum(self[name].nbytes for name in self._dtype)


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
) -> Dag:
    """Discover Δ(T) with the compiled kernel (see :mod:`dagger_cli.fast`); with
    ``max_depth`` D, only the subtables reachable within D splits (those at depth D are
    not expanded). With ``depth2`` (and D >= 2) only those within D - 2 splits: the
    depth-two layer solves the last two levels from class counts (see :class:`Dag`).
    ``limits`` (:func:`_limits`) leaves unexpanded the subtables that no tree within
    bounds on its costs splits.

    A sorting table (``dagger example sorting``) is discovered from partial orders
    instead of row sets (:mod:`dagger_cli.posets`; the same graph) unless ``special`` is
    False or a depth cap is given."""
    from . import fast

    if special and max_depth is None:
        from .posets import poset_dag

        dag = poset_dag(table, max_subtables=max_subtables, max_memory=max_memory)
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
        rclass = np.unique(codes.T, axis=0, return_inverse=True)[1].astype(np.int32).ravel()
    else:
        rclass = np.zeros(0, np.int32)
    max_level = fast.NO_CAP if max_depth is None else int(max_depth)
    d2_level = None
    if depth2 and max_depth is not None and max_depth >= 2:
        d2_level = max_level = int(max_depth) - 2

    cap = 1024
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
            "row_pool": (max(4 * n, 1024), np.int32),
            "attr_pool": (max(4 * m, 1024), np.int16 if m < 2**15 else np.int32),
            "bundle_attr": (cap, np.int32),
            "bundle_edge_start": (cap + 1, np.int64),
            "edge_child": (4 * cap, np.int32),
        }
    )
    # One batch's buffers (see fast.discover): per node, per non-constant attribute, per child.
    bn = fast.BATCH_NODES
    b = GrowableArrays(
        {
            "b_k": (bn, np.int32),
            "b_qoff": (bn + 1, np.int64),
            "b_voff": (bn + 1, np.int64),
            "q_attr": (max(4 * m, 4096), np.int32),
            "q_nv": (max(4 * m, 4096), np.int32),
            "v_val": (16384, np.int32),
            "v_h1": (16384, np.uint64),
            "v_h2": (16384, np.uint64),
            "p_node": (4096, np.int64),
            "p_attr": (4096, np.int32),
            "p_val": (4096, np.int32),
            "p_child": (4096, np.int64),
            "p_grp": (4097, np.int64),
        }
    )
    ht = np.zeros(2 * 4096, np.uint64)  # 4096 slots (see fast._ht_insert)
    # The root: every row, every attribute a candidate.
    a["node_size"][0] = n
    a["row_pool"][:n] = np.arange(n, dtype=np.int32)
    a["node_attr_len"][0] = m
    a["node_level"][0] = 0
    a["attr_pool"][:m] = np.arange(m)
    fast._ht_insert(
        ht, np.uint64(key1.sum(dtype=np.uint64)), np.uint64(key2.sum(dtype=np.uint64)), 0
    )
    counters = np.zeros(fast.N_COUNTERS, np.int64)
    counters[fast.C_NODES] = 1
    counters[fast.C_ROWS] = n
    counters[fast.C_ATTRS] = m
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
    tables = fast.TableArrays(
        rc, nvals, dec, len(table.decision_values), key1, key2, cmask, rclass, cc
    )
    first = progress.first_call()
    while True:
        needs = np.zeros(fast.N_NEEDS, np.int64)
        with first:
            status = threads.run(
                fast.discover,
                tables,
                fast.NodeArrays(*(a[k] for k in fast.NodeArrays._fields)),
                fast.DagPools(*(a[k] for k in fast.DagPools._fields)),
                fast.BatchBuffers(*(b[k] for k in fast.BatchBuffers._fields)),
                ht,
                counters,
                needs,
                BUDGET,
                limit,
                max_level,
                _limits() if limits is None else limits,
            )
        first = contextlib.nullcontext()
        nodes, done = int(counters[fast.C_NODES]), int(counters[fast.C_CUR])
        if status == Status.TOO_MANY_NODES:
            raise LimitError(
                f"the DAG has more than {max_subtables:,} subtables (--max-subtables); "
                f"stopped after processing {done:,} of {nodes:,} discovered. "
                f"{_estimate(done, nodes)}"
            )
        if status == Status.MUST_GROW:
            nb = int(counters[fast.C_BUNDLES])
            if needs[fast.N_NODES]:
                for k in node_keys:
                    a.grow(k, int(needs[fast.N_NODES]), nodes)
                a.grow("node_bundle_start", a["node_size"].size + 1, nodes + 1)
            if needs[fast.N_ROWS]:
                a.grow("row_pool", int(needs[fast.N_ROWS]), int(counters[fast.C_ROWS]))
            if needs[fast.N_ATTRS]:
                a.grow("attr_pool", int(needs[fast.N_ATTRS]), int(counters[fast.C_ATTRS]))
            if needs[fast.N_BUNDLES]:
                a.grow("bundle_attr", int(needs[fast.N_BUNDLES]), nb)
                a.grow("bundle_edge_start", a["bundle_attr"].size + 1, nb + 1)
            if needs[fast.N_EDGES]:
                a.grow("edge_child", int(needs[fast.N_EDGES]), int(counters[fast.C_EDGES]))
            if needs[fast.N_HASH]:
                slots = ht.size // 2
                while slots < needs[fast.N_HASH]:
                    slots *= 2
                ht = fast.rehash(ht, slots)
            # Batch buffers: filled by phase A, which has not run when they must grow.
            if needs[fast.N_QBUF]:
                for k in ("q_attr", "q_nv"):
                    b.grow(k, int(needs[fast.N_QBUF]), 0)
            if needs[fast.N_VBUF]:
                for k in ("v_val", "v_h1", "v_h2"):
                    b.grow(k, int(needs[fast.N_VBUF]), 0)
            if needs[fast.N_PEND]:
                pend = int(counters[fast.C_PEND])
                for k in ("p_node", "p_attr", "p_val", "p_child"):
                    b.grow(k, int(needs[fast.N_PEND]), pend)
                b.grow("p_grp", b["p_node"].size + 1, 0)
        used = a.nbytes() + b.nbytes() + ht.nbytes
        if max_memory is not None and used > max_memory:
            raise LimitError(
                f"the DAG needs more than {max_memory / 2**20:,.0f} MiB (--max-memory): "
                f"{used / 2**20:,.0f} MiB for {nodes:,} subtables discovered, {done:,} processed. "
                f"{_estimate(done, nodes)}"
            )
        progress.update("subtables", done, None)
        if status == Status.DONE:
            break
    nodes = int(counters[fast.C_NODES])
    nb = int(counters[fast.C_BUNDLES])
    ne = int(counters[fast.C_EDGES])
    rows_used = int(counters[fast.C_ROWS])
    # Views, not copies: the spare room at the ends was never written, so it costs no memory.
    return Dag(
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
        terminal=int(counters[fast.C_TERMINAL]),
        n_attributes=m,
        max_depth=max_depth,
        d2_level=d2_level,
        table_arrays=tables if d2_level is not None else None,
        limits=limits,
    )


def _limits(x_cost=None, y_cost=None, max_x: int | None = None, max_y: int | None = None):
    """The bounds discovery reads (:func:`dagger_cli.fast._expands`): per cost, its bound
    (INF: none), split_const, split_rows and leaf_const. Without arguments: no bounds."""
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
) -> FrontStore:
    """Every subproblem's Pareto front, smallest subtables first (a topological order).

    Uncapped, a subproblem is a node. Under the DAG's depth cap it is (node, remaining
    depth r), r = 0 .. R (:meth:`Dag.subproblem_counts`), computed together in ascending
    r; (i, 0) is the leaf and (i, r) combines the children's (c, r - 1).

    With ``max_x`` / ``max_y`` the fronts keep only the points that can still make a
    root point within them, and with ``least_y`` (y summed over children) only each
    subproblem's point of least y: the root's front is then the whole front's points
    within the bounds, or its last point, with the same trees (see
    :func:`dagger_cli.fast._node_front`)."""
    from . import fast

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
        ord_r = np.full(nodes, fast.NO_CAP, np.int64)
    subs = ord_node.size
    inf = np.iinfo(np.int64).max
    bounds = (
        inf if max_x is None else int(max_x),
        inf if max_y is None else int(max_y),
        int(least_y),
    )
    params = np.array(
        x_cost.params() + y_cost.params() + (int(exact_only),) + bounds, dtype=np.int64
    )
    fref = np.zeros((subs, 2), np.int64)
    cap = max(2 * subs, 1024)
    pool = GrowableArrays({"fxy": (2 * cap, np.int64), "fch": (cap, np.int32)})
    counters = np.zeros(2, np.int64)
    ready = np.zeros(max(subs, 1), np.uint8)
    first = progress.first_call()

    def drive(kernel, head, phase, total, unit):
        """Run a resumable fronts kernel (its own arguments ``head``, then the point pool
        they share) to the end: the pool grown within ``max_memory``, progress shown."""
        nonlocal first
        while True:
            needs = np.zeros(1, np.int64)
            with first:
                status = threads.run(
                    kernel,
                    *head,
                    fref.reshape(-1),
                    pool["fxy"],
                    pool["fch"],
                    counters,
                    needs,
                    BUDGET,
                )
            first = contextlib.nullcontext()
            if status == Status.FRONT_TOO_LONG:
                raise AssertionError(f"a front is longer than its proven bound ({phase}; a bug)")
            if status == Status.MUST_GROW:
                need, used = int(needs[0]), int(counters[1])
                pool.grow("fxy", 2 * need, 2 * used)
                pool.grow("fch", need, used)
                if max_memory is not None and dag.nbytes() + pool.nbytes() > max_memory:
                    raise LimitError(
                        f"the fronts need more than {max_memory / 2**20:,.0f} MiB "
                        f"(--max-memory) after {int(counters[0]):,} of {subs:,} subproblems"
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
        node_rows = (dag.node_start, dag.node_size, dag.node_mis, dag.node_level, dag.row_pool)
        d2_args = (e_node, e_r, e_sub, dag.table_arrays, *node_rows, params, dag.n_attributes)
        drive(fast.d2_fronts, d2_args, "depth-two fronts", depth_two, "subproblems")
        counters[0] = 0
    node_arrays = (
        dag.node_size,
        dag.node_mis,
        dag.node_split,
        dag.node_level,
        dag.node_bundle_start,
    )
    edges = (dag.bundle_edge_start, dag.edge_child)
    args = (
        ord_node,
        ord_r,
        *node_arrays,
        *edges,
        sub_start,
        capped,
        ready,
        params,
        dag.n_attributes,
    )
    drive(fast.fronts, args, "fronts", subs, "subproblems" if capped else "subtables")
    used = int(counters[1])
    return FrontStore(
        fref,
        pool["fxy"][: 2 * used].reshape(-1, 2),
        pool["fch"][:used],
        sub_start if capped else None,
        depth_two,
    )


#: The depth-two layer's automatic choice (:func:`use_depth_two`).
D2_AUTO_MAX_DEPTH = 4
D2_AUTO_MIN_ATTRIBUTES = 24


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


def relate(
    table,
    x: str = DEFAULT_X,
    y: str = DEFAULT_Y,
    *,
    engine: str = "fast",
    max_subtables: int | None = None,
    max_memory=AUTO,
    progress: bool = False,
    exact_only: bool = False,
    max_depth: int | None = None,
    count: bool = False,
    depth_two: bool | str = "auto",
    max_x: int | None = None,
    max_y: int | None = None,
    least_y: bool = False,
) -> Relation:
    """The exact Pareto front of cost ``x`` against cost ``y`` over all trees for ``table``
    (of depth at most ``max_depth``, if given).

    Parameters
    ----------
    table : DecisionTable
    x, y : str
        Two different cost names from :data:`dagger_cli.costs.COSTS`.
    engine : {"fast", "baseline", "paper"}
    max_subtables : int, optional
        Stop with :class:`LimitError` when the DAG has more subtables.
    max_memory : int, str or None
        Stop with :class:`LimitError` when the engine's arrays need more bytes (``"2G"``).
        The default ``"auto"`` is 80 % of the memory available at start
        (:func:`memory_ceiling`); ``None`` or ``"none"`` lifts the ceiling.
    progress : bool
        Print progress on stderr for runs longer than about 2 s.
    exact_only : bool
        Only trees without avoidable misclassifications: a subtable with several decisions
        is a leaf only if no attribute splits it (on a merged table: trees with µ = 0).
        Makes pairs such as depth vs total path length informative.
    max_depth : int, optional
        Only trees of depth at most ``max_depth`` (a single leaf has depth 0). A cap of at
        least the number of attributes changes nothing (no tree is deeper). Exact trees
        only (``exact_only``) under a cap may be none: :class:`InputError`.
    count : bool
        Also count the trees at every Pareto point (exact integers in ``front.counts``;
        fast engine only; see :mod:`dagger_cli.counting`).
    depth_two : bool or "auto"
        Under a cap D >= 2 (fast engine), solve the last two levels from class counts
        per attribute value and per pair of values, without building their subtables
        (the depth-two layer; the same fronts and trees). ``False`` builds every
        subtable within D splits: the slow path the layer is checked against. Not used
        with ``exact_only`` or ``count``, which need every subtable. ``"auto"`` (the
        default) uses it for D <= 4 and, deeper, on tables of at least 24 attributes
        (:func:`use_depth_two`).
    max_x, max_y : int, optional
        Only the front's points with x <= ``max_x`` and y <= ``max_y`` (the front may be
        empty). The fast engine computes less for them: every subproblem keeps only the
        points that can still make such a point (bounds; see
        :func:`dagger_cli.fast._node_front`), and a subtable that cannot be split within
        them is not expanded. The same points and trees as the whole front restricted.
    least_y : bool
        Only the front's last point: the least y, and the least x among the trees with
        that y (what a solver that minimises y alone finds). With the fast engine and a
        y that sums over children (misclassifications, total path length, nodes,
        leaves) each subproblem keeps its one such point.
    """
    cx, cy = check_pair(x, y)
    if engine not in ENGINES:
        raise InputError(f"unknown engine {engine!r}; expected one of {', '.join(ENGINES)}")
    if count and engine != "fast":
        raise InputError(f"counting trees needs the fast engine, not {engine!r}")
    if max_depth is not None:
        if isinstance(max_depth, bool) or not isinstance(max_depth, (int, np.integer)):
            raise InputError(f"max_depth must be an integer >= 0, got {max_depth!r}")
        if max_depth < 0:
            raise InputError(f"max_depth must be >= 0, got {max_depth}")
        if engine == "paper":
            raise InputError(
                "the paper engine has no depth cap (--max-depth); use --engine fast or baseline"
            )
        max_depth = int(max_depth)
    # No tree is deeper than the number of attributes: such a cap is no cap.
    cap = max_depth if max_depth is not None and max_depth < table.n_attributes else None
    for name, bound in (("max_x", max_x), ("max_y", max_y)):
        if bound is not None and (
            isinstance(bound, bool) or not isinstance(bound, (int, np.integer)) or bound < 0
        ):
            raise InputError(f"{name} must be an integer >= 0, got {bound!r}")
    # Bounds inside the fast engine, except for counting (which needs every tree).
    pushed = engine == "fast" and not count
    push_x = max_x if pushed else None
    push_y = max_y if pushed else None
    # The least y alone is each subproblem's own least-y point only without a bound on
    # x (under one, the children's least-y points may add up past it: a knapsack).
    push_least = bool(least_y and pushed and cy.combine == SUM and max_x is None)
    max_memory, which = memory_ceiling(max_memory)
    t0 = time.perf_counter()
    prog = Progress(progress)
    dag = store = None
    try:
        if engine == "fast":
            dag = build_dag(
                table,
                max_subtables=max_subtables,
                max_memory=max_memory,
                progress=prog,
                max_depth=cap,
                depth2=use_depth_two(depth_two, cap, table.n_attributes)
                and not exact_only
                and not count,
                limits=_limits(cx, cy, push_x, push_y),
            )
            store = compute_fronts(
                dag,
                cx,
                cy,
                progress=prog,
                max_memory=max_memory,
                exact_only=exact_only,
                max_x=push_x,
                max_y=push_y,
                least_y=push_least,
            )
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
        elif engine == "baseline":
            from .baseline import baseline_front

            fx, fy, st = baseline_front(
                table, cx, cy, max_subtables=max_subtables, exact_only=exact_only, max_depth=cap
            )
            stats = DagStats(**st, max_depth=cap)
        else:
            if (cx.name, cy.name) != (DEFAULT_X, DEFAULT_Y):
                raise InputError(
                    "the paper engine computes total-path-length vs misclassifications only; "
                    f"use --engine fast for {cx.name} vs {cy.name}"
                )
            from .baseline import paper_front

            if exact_only:
                raise InputError("the paper engine has no --exact-only; use --engine fast")

            fx, fy, st = paper_front(table, max_subtables=max_subtables)
            stats = DagStats(**st)
    except LimitError as err:
        raise _limit_hint(err, which, engine == "fast", cap) from None
    finally:
        prog.close()
    if len(fx) == 0 and exact_only and cap is not None and (push_x, push_y) != (None, None):
        # Empty within the bounds: is there no tree at all? (Then say so, as the unbounded
        # engines do; the rare case pays a second run.)
        relate(
            table,
            x,
            y,
            exact_only=True,
            max_depth=max_depth,
            max_memory=max_memory,
            max_subtables=max_subtables,
        )
    if len(fx) == 0 and push_x is None and push_y is None:
        raise InputError(
            f"every tree of depth <= {max_depth} has an avoidable misclassification "
            "(--exact-only: an impure leaf that some attribute splits); raise --max-depth "
            "or drop --exact-only"
        )
    front = Front(cx, cy, np.array(fx, dtype=np.int64), np.array(fy, dtype=np.int64), table.n_rows)
    rel = Relation(
        table=table,
        front=front,
        stats=stats,
        engine=engine,
        seconds=time.perf_counter() - t0,
        dag=dag,
        store=store,
        max_depth=max_depth,
    )
    if count:
        from .counting import front_counts

        try:
            counts = tuple(front_counts(rel, exact_only=exact_only, max_memory=max_memory))
        except LimitError as err:
            raise _limit_hint(err, which, False) from None
        rel.front = Front(cx, cy, front.x, front.y, table.n_rows, counts)
        rel.seconds = time.perf_counter() - t0
    # What the bounds keep (the fast engine's bounded front is already just that).
    rel.front = rel.front.restrict(x_max=max_x, y_max=max_y)
    if least_y and len(rel.front):
        rel.front = rel.front.restrict(y_max=int(rel.front.y[-1]))
    return rel


def _limit_hint(
    err: LimitError, which: str, depth_helps: bool, cap: int | None = None
) -> LimitError:
    """The limit message, naming the ceiling that applied and the way around it."""
    text = str(err).replace("(--max-memory)", f"({which})")
    if depth_helps and "--max-depth" not in text:
        if cap is None:
            text = text.rstrip() + (
                " Try --max-depth D (trees of depth at most D need fewer subtables)."
            )
        elif cap > 0:
            text = text.rstrip() + (
                f" Try a lower --max-depth than {cap} (each level fewer needs far fewer subtables)."
            )
    return LimitError(text)
