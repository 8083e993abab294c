"""The DAG Δ(T) of a sorting table, built from partial orders instead of row sets.

A subtable of the sorting table (:func:`dagger_cli.data.families.sorting`) reached by splits is
the set of orders consistent with the comparisons made so far: the linear extensions of a
partial order. So its identity is the partial order (a 64-bit matrix for n <= 8 elements),
a split on ``xi<xj`` is possible where i and j are incomparable, its children add
``j before i`` (value 0) and ``i before j`` (value 1) and close transitively, and its size
is the number of linear extensions (a count over the order's down-sets). Nothing reads
the rows: discovery costs a few bit operations per edge instead of a pass over
the rows per node, which for n = 7 (6,129,859 subtables whose rows add up to 486 million)
is the difference between minutes and seconds. The DAG is the same graph as the generic
discovery's (same subtables, bundles and edges, numbered in another order), and the
fronts, counts and trees computed on it are the same (tests/test_counting.py).

Rows are produced on demand (:meth:`PosetDag.rows`, for tree extraction): the linear
extensions of a node's order, mapped to the table's rows.

**Isomorphism classes** (``classes=True``, the route of staged optimisation): two orders that
differ by a relabelling of the elements have the same number of linear extensions, and
relabelling maps their trees one to one with the same costs (total path length, depth,
nodes, misclassifications: each row has its own decision). So every least value, front and
count of a node is that of its class, and the DAG can hold one node per class, each child
replaced by its canonical form (``canonical`` in ``core/posets.cpp``: colour refinement by
numbers of predecessors and successors, then the least key over the labellings that keep
the colours in order). A bundle is still one incomparable pair of the representative, two
bundles may lead to the same two classes and both children may be one class: the trees are
counted as they are. For 8 elements that is 16,999 classes (OEIS A000112) instead of
431,723,379 orders. The trees extracted on it are in the representatives' labels;
:meth:`PosetDag.mapped` carries them back to the table's elements, node by node.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from .. import _core
from ..errors import LimitError
from ..text import size_text
from .structures import Dag

#: Partial orders fit one 64-bit word (bit 8x + y: x before y) up to 8 elements, and two
#: (a 128-bit word, bit 9x + y, low word first) for 9; see :func:`stride`.
MAX_N = 9
#: Trees of a sorting table are extracted up to this many nodes (a tree with no
#: misclassification has 2 n! - 1: 725,759 for 9 elements; each node keeps only the
#: decisions of its rows, :class:`dagger_cli.trees.SparseCounts`).
MAX_TREE_NODES = 1 << 21
#: What :func:`_discover` returns first: done, more than ``limit`` subtables, more than
#: ``mem_limit`` bytes.
DISCOVERED, TOO_MANY, TOO_BIG = 0, 3, 4


def _discover(n, pi, pj, limit, mem_limit, classes=False):
    """Breadth-first from the empty order of ``n`` elements, attribute a comparing
    ``pi[a]`` with ``pj[a]`` (int64 arrays), by the compiled kernel (``core/posets.cpp``).

    Returns (status, nodes, bundles, edges, nodes processed, then the arrays: each node's
    order (int64), level (int32), first bundle (int64, one more), each bundle's attribute
    (int32) and first edge (int64, one more), each edge's child (int32)); status
    :data:`DISCOVERED`, :data:`TOO_MANY` (more than ``limit`` subtables) or :data:`TOO_BIG`
    (its arrays past ``mem_limit`` bytes).

    A parent's children keys are computed first and their hash slots prefetched, so the
    cache misses of its (up to 2m) lookups overlap. Sizes are counted afterwards
    (:func:`_sizes`, in parallel); a total order (m relations) is the only leaf. With
    ``classes`` every child is its canonical form (:func:`canonical`)."""
    return _core.posets_discover(int(n), pi, pj, int(limit), int(mem_limit), bool(classes))


def canonical(orders, n: int) -> tuple[list[int], np.ndarray]:
    """Each order's canonical form (Python ints) and the labelling that gives it (int64,
    ``(k, n)``: element x of order k is element ``labels[k, x]`` of its canonical form).

    >>> forms, labels = canonical([0b10, 0b1 << 8], 2)  # "0 before 1" and "1 before 0"
    >>> forms[0] == forms[1], labels.tolist()
    (True, [[0, 1], [1, 0]])
    """
    forms, labels = _core.posets_canonical(words(orders, n), int(n))
    return [order_of(w) for w in forms], labels


def add_relation(p: int, a: int, b: int, n: int) -> int:
    """The transitive closure of the order ``p`` (closed) plus "a before b" (``add`` in
    ``core/posets.cpp``)."""
    s = stride(n)
    up = ((p >> (s * b)) & ((1 << s) - 1)) | (1 << b)
    out = p
    for x in range(n):
        if x == a or (p >> (s * x + a)) & 1:
            out |= up << (s * x)
    return out


def relabelled(p: int, labels, n: int) -> int:
    """The order ``p`` with element x renamed ``labels[x]``."""
    s = stride(n)
    out = 0
    for x in range(n):
        for y in range(n):
            if (p >> (s * x + y)) & 1:
                out |= 1 << (s * int(labels[x]) + int(labels[y]))
    return out


def stride(n: int) -> int:
    """Bits per element's row in an order's word: 8 up to 8 elements, 9 for 9."""
    return 8 if n <= 8 else 9


def words(orders, n: int) -> np.ndarray:
    """Orders (Python ints) as the kernels take them: int64, two per order (low word
    first) for 9 elements.

    >>> words([1 << 64 | 5], 9).tolist()
    [[5, 1]]
    """
    if n <= 8:
        return np.array([int(p) for p in orders], dtype=np.int64).reshape(-1)
    low = [int(p) & (2**64 - 1) for p in orders]
    return np.array([[w, int(p) >> 64] for w, p in zip(low, orders)], dtype=np.uint64).view(
        np.int64
    )


def order_of(word) -> int:
    """An order as a Python int from its row of :func:`words` (one int64, or two)."""
    parts = np.atleast_1d(np.asarray(word, dtype=np.int64)).view(np.uint64).tolist()
    return sum(int(w) << (64 * k) for k, w in enumerate(parts))


def _sizes(poset, n):
    """Every order's number of linear extensions (int32; independent: in parallel pieces)."""
    return _core.posets_sizes(np.ascontiguousarray(poset, dtype=np.int64), int(n))


def _extension_rows(p: int, n, count, row_of_rank):
    """The rows of the linear extensions of ``p`` (depth-first, ``count`` of them): an
    extension lists the elements in increasing order; its row is that of its ranks."""
    return _core.posets_extension_rows(words([p], n), int(n), int(count), row_of_rank)


@dataclass(eq=False)
class PosetDag(Dag):
    """A :class:`Dag` whose nodes are partial orders; rows computed on demand."""

    posets: np.ndarray = None  # type: ignore[assignment]
    n: int = 0
    row_of_rank: np.ndarray = None  # type: ignore[assignment]
    #: one node per isomorphism class (its canonical form), see the module's account
    classes: bool = False

    @property
    def route(self) -> str:
        """Which DAG answered, in words (the outputs print it)."""
        what = "isomorphism classes of" if self.classes else "labelled"
        return f"sorting table: the DAG of {what} partial orders of {self.n} elements"

    def rows(self, node: int) -> np.ndarray:
        """The table rows of node ``node``: the linear extensions of its order."""
        return self._order_rows(order_of(self.posets[node]), int(self.node_size[node]))

    def _order_rows(self, p: int, size: int) -> np.ndarray:
        return np.sort(_extension_rows(p, self.n, size, self.row_of_rank))

    def tree_refusal(self, table) -> str | None:
        """A tree of more than :data:`MAX_TREE_NODES` nodes is not extracted."""
        nodes = 2 * table.n_rows - 1
        if nodes <= MAX_TREE_NODES:
            return None
        return (
            f"a tree of this table can have {nodes:,} nodes, more than the "
            f"{MAX_TREE_NODES:,} extracted; not built"
        )

    def mapped(self, table, root):
        """The tree ``root`` extracted on this DAG as a tree of ``table``: itself, or on
        the DAG of classes, each node's split and labels carried from its class
        representative to the order it stands for (a relabelling ``sigma``, from the
        representative's elements to the table's, composed down the tree)."""
        if not self.classes:
            return root
        from itertools import combinations

        from ..trees import TreeNode, rows_labels

        n = self.n
        attr_of = {pair: a for a, pair in enumerate(combinations(range(n), 2))}
        # an order's size is its class's (relabelling keeps the linear extensions' number)
        size_of = {order_of(w): int(k) for w, k in zip(self.posets, self.node_size)}

        def walk(node, rep: int, sigma: list[int]):
            actual = relabelled(rep, sigma, n)
            size = size_of[rep]
            counts, decision = rows_labels(table, self._order_rows(actual, size))
            if node.is_leaf:
                return TreeNode(counts, decision)
            i, j = (int(s) - 1 for s in node.attribute[1:].split("<x"))
            si, sj = sigma[i], sigma[j]
            a = attr_of[(min(si, sj), max(si, sj))]
            values = list(table.values[a])
            kids = []
            # The children come in the bundle's edge order, value 0 then 1 (their labels
            # were read off the representatives' rows, which are in other labels).
            for k, (_, child) in enumerate(node.children):
                # value 1: "x_i < x_j", i before j (the representative's labels)
                lo, hi = (i, j) if k == 1 else (j, i)
                value = str(k)
                form, labels = canonical([add_relation(rep, lo, hi, n)], n)
                down = [0] * n
                for x in range(n):
                    down[int(labels[0, x])] = sigma[x]
                # in the table's labels the value says whether sigma(i) < sigma(j) there
                v = value if si < sj else ("1" if value == "0" else "0")
                kids.append((v, walk(child, form[0], down)))
            kids.sort(key=lambda vc: values.index(vc[0]))
            return TreeNode(counts, decision, table.attributes[a], tuple(kids))

        return walk(root, 0, list(range(n)))


def _lex_ranks(perms: np.ndarray) -> np.ndarray:
    """Rank of each permutation (a column of ``perms``, of 0..n-1) in lexicographic order
    (itertools.permutations'): its Lehmer code, the later entries below each entry.

    >>> _lex_ranks(np.array([[0, 0, 2], [1, 2, 1], [2, 1, 0]])).tolist()
    [0, 1, 5]
    """
    n = perms.shape[0]
    rank = np.zeros(perms.shape[1], dtype=np.int64)
    for k in range(n):
        below = (perms[k + 1 :] < perms[k]).sum(axis=0)
        rank += below * math.factorial(n - 1 - k)
    return rank


def sorting_rows(table) -> np.ndarray | None:
    """If ``table`` is a sorting table (attributes ``xi<xj`` for all i < j in column order,
    0/1 values, one row per order of n <= 9 elements with its own decision), the row of
    each order (indexed by the lexicographic rank of its ranks tuple); else None."""
    m = table.n_attributes
    n = int(round((1 + math.sqrt(1 + 8 * m)) / 2))
    if n < 2 or n > MAX_N or n * (n - 1) // 2 != m:
        return None
    pairs = list(combinations(range(n), 2))
    if list(table.attributes) != [f"x{i + 1}<x{j + 1}" for i, j in pairs]:
        return None
    rows = table.n_rows
    if rows != math.factorial(n) or len(set(table.decisions.tolist())) != rows:
        return None
    bits = np.empty((m, rows), dtype=np.int64)
    for a in range(m):
        labels = np.array(table.values[a], dtype=object)
        col = labels[table.codes[a]]
        if not set(col.tolist()) <= {"0", "1"}:
            return None
        bits[a] = col == "1"
    # rank of x_i = number of j with x_j < x_i
    ranks = np.zeros((n, rows), dtype=np.int64)
    for a, (i, j) in enumerate(pairs):
        ranks[j] += bits[a]  # x_i < x_j
        ranks[i] += 1 - bits[a]
    if not np.array_equal(
        np.sort(ranks, axis=0), np.broadcast_to(np.arange(n)[:, None], ranks.shape)
    ):
        return None  # a row is not a consistent total order
    for a, (i, j) in enumerate(pairs):
        if not np.array_equal(bits[a], (ranks[i] < ranks[j]).astype(np.int64)):
            return None
    lex = _lex_ranks(ranks)
    if np.unique(lex).size != rows:
        return None
    out = np.empty(rows, dtype=np.int64)
    out[lex] = np.arange(rows)
    return out


def poset_dag(table, *, max_subtables=None, max_memory=None, classes=False) -> PosetDag | None:
    """The DAG of a sorting table from partial orders, or None if ``table`` is not one;
    with ``classes``, one node per isomorphism class of partial orders."""
    row_of_rank = sorting_rows(table)
    if row_of_rank is None:
        return None
    m = table.n_attributes
    n = int(round((1 + math.sqrt(1 + 8 * m)) / 2))
    pairs = list(combinations(range(n), 2))
    pi = np.array([i for i, _ in pairs], dtype=np.int64)
    pj = np.array([j for _, j in pairs], dtype=np.int64)
    limit = max_subtables if max_subtables is not None else np.iinfo(np.int64).max
    mem = max_memory if max_memory is not None else np.iinfo(np.int64).max
    status, nn, nb, ne, head, poset, level, bstart, battr, bedge, child = _discover(
        n, pi, pj, limit, mem, classes
    )
    if status == TOO_MANY:
        raise LimitError(
            f"the DAG has more than {max_subtables:,} subtables (--max-subtables); stopped after "
            f"processing {head:,} of {nn:,} discovered partial orders"
        )
    if status == TOO_BIG:
        raise LimitError(
            f"the DAG needs more than {size_text(max_memory)} (--max-memory) for "
            f"{nn:,} partial orders discovered, {head:,} processed, {ne:,} edges"
        )
    size = _sizes(poset[:nn], n)
    has_bundles = bstart[1 : nn + 1] > bstart[:nn]
    return PosetDag(
        node_start=np.zeros(nn, dtype=np.int64),
        node_size=size,
        node_mis=(size - 1).astype(np.int32),
        node_major=np.full(nn, -1, dtype=np.int32),  # rows on demand: see trees.node_labels
        # Impure and split by some comparison: every order but a total one (no bundles).
        node_split=(has_bundles).astype(np.int8),
        node_level=level[:nn],
        node_attr_len=np.diff(bstart[: nn + 1]).astype(np.int32),  # incomparable pairs
        node_bundle_start=bstart[: nn + 1],
        row_pool=np.zeros(0, dtype=np.int32),
        bundle_attr=battr[:nb],
        bundle_edge_start=bedge[: nb + 1],
        edge_child=child[:ne],
        terminal=int((~has_bundles).sum()),
        n_attributes=m,
        posets=poset[:nn],
        n=n,
        row_of_rank=row_of_rank,
        classes=classes,
    )
