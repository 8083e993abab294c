"""Decision trees: extraction of the tree behind a Pareto point, evaluation, formats.

Extraction walks down the DAG from the root. Every stored front point remembers only
the bundle that made it (-1: the leaf), so memory stays proportional to the points.
At a split the children's points are found again by re-running the bundle's
combination for that one node with back-pointers.

Ties between equally good trees are broken deterministically, by the order in which
candidates are listed, the first one winning: the leaf before any split, splits in
attribute (column) order, and within a split the children in value order, each child's
points in front order (least first cost first).
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field, replace

import numpy as np

from .costs import COSTS, MAX, cost_record, evaluate
from .errors import InputError
from .fronts import pareto
from .text import leaf_counts_text
from .values import MISSING_MARKERS, cell_text, parse_number

#: Above this many decisions a node's rows per decision are kept sparse
#: (:class:`SparseCounts`): a table whose every row has its own decision (sorting 8: 40,320)
#: would otherwise hold a count per decision in each of its tree's nodes.
DENSE_DECISIONS = 4096


@dataclass(frozen=True)
class SparseCounts:
    """Rows per decision as the decisions that have rows (ascending) and their counts, for a
    table of ``size`` decisions: a sequence of ``size`` counts as a tuple would be, with
    its sum, maximum and nonzero entries at the cost of the nonzero ones.

    >>> c = SparseCounts(5, (1, 3), (2, 7))
    >>> list(c), c[3], len(c), c.total(), c.most(), list(c.items())
    ([0, 2, 0, 7, 0], 7, 5, 9, 7, [(1, 2), (3, 7)])
    """

    size: int
    idx: tuple
    val: tuple

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, k: int) -> int:
        k = range(self.size)[k]
        i = int(np.searchsorted(self.idx, k))
        return int(self.val[i]) if i < len(self.idx) and self.idx[i] == k else 0

    def __iter__(self):
        dense = [0] * self.size
        for i, v in zip(self.idx, self.val):
            dense[i] = v
        return iter(dense)

    def total(self) -> int:
        return int(sum(self.val))

    def most(self) -> int:
        return int(max(self.val, default=0))

    def items(self):
        """(decision index, count) of the decisions with rows, ascending."""
        return zip(self.idx, self.val)


def count_items(counts):
    """(decision index, count) of the decisions with rows, in decision order."""
    if isinstance(counts, SparseCounts):
        return counts.items()
    return ((d, k) for d, k in enumerate(counts) if k)


@dataclass(frozen=True, eq=False)
class TreeNode:
    """A node: a leaf (``attribute is None``) or a split with one child per value."""

    #: rows per decision (in the table's decision order); weights if weighted; sparse for
    #: tables of more than :data:`DENSE_DECISIONS` decisions
    counts: tuple | SparseCounts
    decision: str  #: most common decision of the node's subtable (smallest on a tie)
    attribute: str | None = None
    children: tuple = ()  #: ((value label, TreeNode), ...) in value order
    #: the price of its leaf under a price matrix (:mod:`dagger_cli.weights`); None: the
    #: rows (or weight) not of its decision
    price: int | None = None
    #: its leaf's false positives and negatives against the table's positive class (None:
    #: the table has none; :func:`with_decision_terms`)
    fp: int | None = None
    fn: int | None = None

    @property
    def is_leaf(self) -> bool:
        return self.attribute is None

    @property
    def rows(self) -> int:
        """Its rows, or their weight when the table's rows are weighted."""
        if isinstance(self.counts, SparseCounts):
            return self.counts.total()
        return int(sum(self.counts))

    @property
    def mis(self) -> int:
        """What its leaf costs in the cost ``misclassifications``."""
        if self.price is not None:
            return self.price
        if isinstance(self.counts, SparseCounts):
            return self.rows - self.counts.most()
        return self.rows - max(self.counts, default=0)

    def to_dict(self, splits=None) -> dict:
        """JSON-ready dict; a threshold split (``splits``, see :class:`Tree`) is written as
        ``{"attribute": column, "threshold": t, "children": {"<= t": ..., "> t": ...}}``."""
        if self.is_leaf:
            return {"decision": self.decision, "rows": self.rows}
        split = (splits or {}).get(self.attribute)
        if split is None:
            return {
                "attribute": self.attribute,
                "rows": self.rows,
                "children": {v: c.to_dict(splits) for v, c in self.children},
            }
        return {
            "attribute": split.column,
            "threshold": split.threshold,
            "rows": self.rows,
            "children": {
                split.branch(v)[len(split.column) + 1 :]: c.to_dict(splits)
                for v, c in _branch_order(self, splits)
            },
        }


def _ordered_tests(table, root: TreeNode) -> dict:
    """The threshold tests ``col<=t`` of ``root``'s splits on the table's ordered
    attributes (numeric columns kept whole, :class:`dagger_cli.data.thresholds.Ordered`):
    ``{name: Threshold}``."""
    ordered = getattr(table, "ordered", None)
    if not ordered:
        return {}
    tests = {}
    stack = [root]
    while stack:
        node = stack.pop()
        if node.is_leaf:
            continue
        stack.extend(c for _, c in node.children)
        name = node.attribute
        if name in tests or name in ordered:
            continue
        for o in ordered.values():
            test = o.test_named(name)
            if test is not None:
                tests[name] = test
                break
    return tests


def _branch_order(node: TreeNode, splits) -> tuple:
    """The children in print order: a threshold split's ``<=`` branch first."""
    if node.attribute in (splits or {}):
        from .data.thresholds import YES

        return tuple(sorted(node.children, key=lambda vc: vc[0] != YES))
    return node.children


@dataclass(frozen=True, eq=False)
class Tree:
    """A decision tree for a prepared table, with its costs on that table."""

    root: TreeNode
    attributes: tuple
    decision_name: str
    decision_values: tuple
    table_costs: dict = field(default_factory=dict)
    #: ``{attribute: Threshold}`` for attributes ``col<=t`` made from numeric columns: the tree
    #: prints ``col <= t`` / ``col > t`` and routes rows by their raw number in ``col``.
    splits: dict = field(default_factory=dict)
    #: ``{column: text}``: what a missing value in a new row reads as, the value the
    #: training table filled its missing values with
    #: (:attr:`dagger_cli.data.table.DecisionTable.fills`); a column without one stops the row
    fills: dict = field(default_factory=dict)

    @classmethod
    def for_table(cls, table, root: TreeNode) -> Tree:
        """The tree ``root`` for ``table``, with its costs on that table and the table's
        threshold splits (every way of building a tree ends here)."""
        root = with_decision_terms(table, root)
        return cls(
            root,
            tuple(table.attributes),
            table.decision_name,
            tuple(table.decision_values),
            tree_costs(root, table.weight_total),
            {**(getattr(table, "splits", {}) or {}), **_ordered_tests(table, root)},
            dict(getattr(table, "fills", {}) or {}),
        )

    # ------------------------------------------------------------------ evaluation
    def _step(self, node: TreeNode, record: dict) -> TreeNode | None:
        """The child a record goes to from split ``node`` (None: a value never seen there)."""
        split = self.splits.get(node.attribute)
        if split is None:
            value = record[node.attribute]
        else:  # a raw number that is not a number (missing) stops the walk like a new value
            value = split.value_of(record[split.column])
        return dict(node.children).get(value)

    def _route(self, record: dict) -> tuple[TreeNode, int, tuple | None]:
        """The node where ``record`` stops, its depth, and (attribute, value) if the walk
        stopped early at a value the split never had (else None)."""
        node, depth = self.root, 0
        while not node.is_leaf:
            nxt = self._step(node, record)
            if nxt is None:  # a value never seen in this subtable: stop here
                split = self.splits.get(node.attribute)
                column = node.attribute if split is None else split.column
                return node, depth, (column, record[column])
            node, depth = nxt, depth + 1
        return node, depth, None

    def predict(self, df) -> list[str]:
        """Decision for every row of ``df`` (columns named as the table's attributes).

        A value that the training subtable at a split never had stops the walk there and
        gives that node's most common decision; an :class:`UnseenValueWarning` says how
        many rows that happened to (:meth:`unseen` lists them by attribute and value). A
        threshold attribute ``col<=t`` is read from the raw number in column ``col``.
        """
        self._check_columns(df, need_decision=False)
        recs = self._records(df, self.input_columns())
        routes = [self._route(r) for r in recs]
        _warn_unseen(routes)
        return [node.decision for node, _, _ in routes]

    def costs(self, df=None) -> dict:
        """Costs of the tree (every cost of :data:`dagger_cli.costs.COSTS`, by column); on
        ``df`` (with the decision column) if given.

        On data, a node's rows are the rows of ``df`` that reach it, and a row stops where
        :meth:`predict` stops: at a leaf, or at a split that never saw its value, which then
        acts as a leaf for it (its misclassification counts there, its path ends there).
        Rows stopped early by an unseen value raise an :class:`UnseenValueWarning`.
        """
        if df is None:
            return dict(self.table_costs)
        self._check_columns(df, need_decision=True)
        recs = self._records(df, self.input_columns() + (self.decision_name,))
        _warn_unseen([self._route(r) for r in recs])
        passed: dict[int, int] = {}  # id(split node) -> rows that went on to a child
        missed: dict[int, int] = {}  # id(node) -> rows that stopped there misclassified
        for r in recs:
            node = self.root
            while not node.is_leaf:
                nxt = self._step(node, r)
                if nxt is None:
                    break
                passed[id(node)] = passed.get(id(node), 0) + 1
                node = nxt
            if node.decision != r[self.decision_name]:
                missed[id(node)] = missed.get(id(node), 0) + 1

        def value(cost, node):
            mis = missed.get(id(node), 0)
            if node.is_leaf:
                return cost.leaf(mis)
            kids = [value(cost, c) for _, c in node.children]
            return cost.split(passed.get(id(node), 0), kids) + cost.leaf_mis * mis

        # (false positives and negatives need a positive class, which a tree does not keep)
        values = {c.name: value(c, self.root) for c in COSTS.values() if not c.reads_decision}
        return cost_record(values, len(recs))

    def unseen(self, df) -> dict:
        """``{(attribute, value): rows}``: the values of ``df`` that stop a row's walk at a
        split whose training subtable never had them (empty when every row reaches a leaf)."""
        self._check_columns(df, need_decision=False)
        found: dict = {}
        for r in self._records(df, self.input_columns()):
            stop = self._route(r)[2]
            if stop is not None:
                found[stop] = found.get(stop, 0) + 1
        return found

    def node_label(self, node: TreeNode) -> str:
        """What a split node tests: its attribute, or a threshold's numeric column."""
        split = self.splits.get(node.attribute)
        return str(node.attribute) if split is None else split.column

    def branches(self, node: TreeNode) -> list[tuple[str, TreeNode]]:
        """A split's children with their edge labels (``<= 37.5`` / ``> 37.5`` for a
        threshold, else the value), in print order."""
        split = self.splits.get(node.attribute)
        return [
            (v if split is None else split.branch(v)[len(split.column) + 1 :], c)
            for v, c in _branch_order(node, self.splits)
        ]

    def _records(self, df, cols) -> list[dict]:
        """``df``'s rows as the strings a walk compares, missing values read as
        :attr:`fills` says."""
        recs = _string_records(df, cols)
        fills = {c: f for c, f in self.fills.items() if c in cols}
        # A threshold's column is numeric: a cell that is not a number reads as missing,
        # as the training table read it (dagger_cli.data.table.stray_cells).
        numeric = {s.column for s in self.splits.values()} & set(fills)
        if fills:
            for r in recs:
                for c, f in fills.items():
                    v = r[c]
                    if v in MISSING_MARKERS or (c in numeric and parse_number(v) is None):
                        r[c] = f
        return recs

    def input_columns(self) -> tuple:
        """The columns a row needs: the attributes, a threshold's numeric column in its place."""
        out: list[str] = []
        for a in self.attributes:
            col = self.splits[a].column if a in self.splits else a
            if col not in out:
                out.append(col)
        return tuple(out)

    def _check_columns(self, df, need_decision):
        cols = set(map(str, df.columns))
        need = list(self.input_columns()) + ([self.decision_name] if need_decision else [])
        missing = [c for c in need if c not in cols]
        if missing:
            raise InputError(f"the data lacks column(s) {', '.join(map(repr, missing))}")

    # ------------------------------------------------------------------ formats
    def to_dict(self) -> dict:
        return {
            "costs": dict(self.table_costs),
            "decision_column": self.decision_name,
            "tree": self.root.to_dict(self.splits),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2) + "\n"

    def summary(self) -> str:
        """The tree's costs on its table, as the first line of :meth:`to_text` says them."""
        return ", ".join(f"{k}={_num(v)}" for k, v in self.table_costs.items())

    def to_text(self) -> str:
        """Indented rules with the class counts at every leaf."""
        lines = [f"# {self.summary()}"]

        def counts(node):
            return ", ".join(f"{self.decision_values[d]}: {k}" for d, k in count_items(node.counts))

        def walk(node, indent):
            pad = "|   " * indent
            split = self.splits.get(node.attribute)
            for value, child in _branch_order(node, self.splits):
                cond = f"{node.attribute} = {value}" if split is None else split.branch(value)
                head = f"{pad}{cond}"
                if child.is_leaf:
                    lines.append(f"{head}: {child.decision}  [{counts(child)}]")
                else:
                    lines.append(head)
                    walk(child, indent + 1)

        if self.root.is_leaf:
            lines.append(f"{self.root.decision}  [{counts(self.root)}]")
        else:
            walk(self.root, 0)
        return "\n".join(lines) + "\n"

    def layout(self) -> tuple[dict, list]:
        """Where a drawing puts each node: ``{id(node): (x, depth)}``, the leaves at x = 0,
        1, 2, ... left to right in print order and every split centred over its children;
        and the edges ``(parent, child, label)`` (:meth:`branches`' labels), each subtree's
        before the edge into it."""
        pos: dict[int, tuple[float, int]] = {}
        edges: list[tuple] = []
        leaves = [0]

        def place(node, depth):
            if node.is_leaf:
                pos[id(node)] = (leaves[0], depth)
                leaves[0] += 1
                return
            xs = []
            for value, child in self.branches(node):
                place(child, depth + 1)
                xs.append(pos[id(child)][0])
                edges.append((node, child, value))
            pos[id(node)] = ((min(xs) + max(xs)) / 2, depth)

        place(self.root, 0)
        return pos, edges

    def _repr_html_(self) -> str:
        """The tree drawn in a notebook (:func:`dagger_cli.notebook.tree_html`)."""
        from .notebook import tree_html

        return tree_html(self)

    def to_dot(self) -> str:
        """Graphviz source (no Graphviz needed to produce it)."""
        out = ["digraph tree {", '  node [fontname="Helvetica"];']
        counter = [0]

        def esc(s):
            return str(s).replace("\\", "\\\\").replace('"', '\\"')

        def walk(node):
            k = counter[0]
            counter[0] += 1
            if node.is_leaf:
                cnt = leaf_counts_text(node.counts, self.decision_values, sep=", ")
                out.append(
                    f'  n{k} [shape=box, style=rounded, label="{esc(self.decision_name)} = '
                    f'{esc(node.decision)}\\n[{cnt}]"];'
                )
            else:
                split = self.splits.get(node.attribute)
                label = node.attribute if split is None else split.column
                out.append(f'  n{k} [shape=ellipse, label="{esc(label)}"];')
                for value, child in _branch_order(node, self.splits):
                    j = walk(child)
                    edge = value if split is None else split.branch(value)[len(label) + 1 :]
                    out.append(f'  n{k} -> n{j} [label="{esc(edge)}"];')
            return k

        walk(self.root)
        out.append("}")
        return "\n".join(out) + "\n"


def _num(v):
    return f"{v:.6g}" if isinstance(v, float) else str(v)


class UnseenValueWarning(UserWarning):
    """Some rows stopped at a split: a value its training rows never had, or a missing
    value the tree has no fill for; they got that node's decision."""


def unseen_text(stops, rows: int) -> str:
    """What :class:`UnseenValueWarning` says of the ``stops`` (``(column, value)`` per row
    that stopped early) among ``rows`` rows: missing values and new values apart, each
    with its first column and value.

    >>> print(unseen_text([("c", "purple"), ("c", "purple"), ("a", "")], 10))
    1 of 10 row(s) have a missing value (first: column 'a') and 2 a value no training row of \
the split had (first: c = 'purple'); each got the decision of the node where it stopped
    """
    missing = [s for s in stops if s[1] in MISSING_MARKERS]
    new = [s for s in stops if s[1] not in MISSING_MARKERS]
    parts = []
    if missing:
        parts.append(f"a missing value (first: column {missing[0][0]!r})")
    if new:
        parts.append(
            f"a value no training row of the split had (first: {new[0][0]} = {new[0][1]!r})"
        )
    counts = [len(missing)] if missing else []
    counts += [len(new)] if new else []
    if len(parts) == 2:
        head = f"{counts[0]} of {rows} row(s) have {parts[0]} and {counts[1]} {parts[1]}"
    else:
        head = f"{counts[0]} of {rows} row(s) have {parts[0]}"
    return f"{head}; each got the decision of the node where it stopped"


def _warn_unseen(routes) -> None:
    stops = [stop for _, _, stop in routes if stop is not None]
    if not stops:
        return
    warnings.warn(
        UnseenValueWarning(f"{unseen_text(stops, len(routes))}. Tree.unseen(df) lists them"),
        stacklevel=3,
    )


def _string_records(df, cols):
    data = {c: [cell_text(v) for v in df[c].tolist()] for c in cols}
    n = len(df)
    return [{c: data[c][i] for c in cols} for i in range(n)]


def tree_costs(root: TreeNode, n_rows: int) -> dict:
    """Every cost of :data:`dagger_cli.costs.COSTS` of a tree on the table it was built for
    (every node knows its rows), by column, with the average depth
    (:func:`dagger_cli.costs.cost_record`)."""
    values = {c.name: evaluate(c, root) for c in COSTS.values()}
    return cost_record({k: v for k, v in values.items() if v is not None}, n_rows)


def _combine(cost, a, b):
    if cost.combine == MAX:
        return np.maximum(a[:, None], b[None, :]).ravel()
    return (a[:, None] + b[None, :]).ravel()


def node_labels(table, dag, i: int) -> tuple[tuple | SparseCounts, str]:
    """Rows per decision and the leaf decision of DAG node ``i`` (for a :class:`TreeNode`):
    the most common, the smallest on a tie (the first maximum), as ``node_major``."""
    return rows_labels(table, dag.rows(i))


def extract_tree(relation, point: int) -> Tree:
    """The tree behind point ``point`` (an index into ``relation.front``), found by the
    solver that computed the relation (:meth:`dagger_cli.engine.registry.Solver.tree`)."""
    front = relation.front
    if not 0 <= point < len(front):
        raise InputError(f"no point {point}; the front has {len(front)} point(s)")
    if relation.solver is not None:
        tree = relation.solver.tree(relation, point)
    else:
        tree = dag_tree(relation, point)  # a relation made by the DAG engine's own driver
    return _with_fills(relation, tree)


def _with_fills(relation, tree: Tree) -> Tree:
    """``tree`` with its table's fills of missing values (a solver that builds its trees on
    another table, the ordered solver's, leaves them out)."""
    fills = getattr(relation.table, "fills", None)
    return replace(tree, fills=dict(fills)) if fills and not tree.fills else tree


def extract_trees(relation, points, progress=None) -> list[Tree]:
    """The trees behind many points of ``relation.front`` (indices), the same as
    :func:`extract_tree` gives one by one, found in one pass by the solver (subtrees shared
    by several points are found once; :meth:`dagger_cli.engine.registry.Solver.trees_of`).
    ``progress`` (a :class:`~dagger_cli.engine.progress.Progress`, which also checks a
    run's time limit) counts the trees made."""
    points = [int(k) for k in points]
    front = relation.front
    bad = [k for k in points if not 0 <= k < len(front)]
    if bad:
        raise InputError(f"no point {bad[0]}; the front has {len(front)} point(s)")
    if relation.solver is not None:
        trees = relation.solver.trees_of(relation, points, progress)
    else:
        trees = dag_trees(relation, points, progress)
    return [_with_fills(relation, t) for t in trees]


def dag_tree(relation, point: int) -> Tree:
    """The tree behind point ``point`` of a relation the DAG engine computed (it keeps the
    DAG and the fronts): the walk down from the root.

    Under a depth cap the walk follows the subproblems: a node reached with remaining
    depth r takes its point from its front at r and its children's from theirs at
    r - 1, so the tree's depth is at most the cap.
    """
    return dag_trees(relation, [point])[0]


def dag_trees(relation, points, progress=None) -> list[Tree]:
    """The trees behind points ``points`` of a relation the DAG engine computed, by the
    walk of :func:`dag_tree` for each, in one pass: a subproblem's subtree at a point is
    the same whichever tree reaches it, so it is found once (and a node's class counts
    once) and shared by the trees (:class:`TreeNode` is immutable)."""
    front = relation.front
    if relation.dag is None or relation.store is None:
        raise InputError("tree extraction needs the fast engine (--engine fast)")
    table, dag, store = relation.table, relation.dag, relation.store
    cx, cy = front.x_cost, front.y_cost
    refusal = dag.tree_refusal(table)
    if refusal is not None:
        raise InputError(f"no tree: {refusal}")
    made: dict = {}  # (node, remaining depth, x, y) -> its subtree
    labels: dict = {}  # node -> its class counts, decision and leaf price

    def node_for(i, r, tx, ty):
        key = (i, r, tx, ty)
        if key not in made:
            made[key] = walk(i, r, tx, ty)
        return made[key]

    def walk(i, r, tx, ty):
        fx, fy, fch = store.front(i, r)
        hit = np.flatnonzero((fx == tx) & (fy == ty))
        assert hit.size == 1, "extraction lost its way: the point is not on the node's front"
        ch = int(fch[hit[0]])
        if i not in labels:
            counts, decision = node_labels(table, dag, i)
            labels[i] = counts, decision, leaf_price(table, counts)
        counts, decision, price = labels[i]
        if ch < 0:
            if dag.leaf_dec is not None:  # a leaf with a choice of two decisions
                decision = table.decision_values[int(dag.leaf_dec[i, -ch - 1])]
            return TreeNode(counts, decision, price=price)
        if r is not None and r >= 1 and dag.is_d2(i):
            # Solved by the depth-two layer: no subtables below; ch is the attribute.
            return _d2_node(table, cx, cy, dag.rows(i), r, tx, ty, ch)
        b = int(dag.node_bundle_start[i]) + ch
        n = int(dag.weights[i])
        children = dag.children(b)
        fronts = [store.front(int(c), None if r is None else r - 1)[:2] for c in children]
        picks = pick_children(cx, cy, n, fronts, tx, ty)
        attr = int(dag.bundle_attr[b])
        values = table.values[attr]
        col = table.codes[attr]
        kids = []
        for c, (px_, py_) in zip(children, picks):
            v = values[int(col[dag.rows(int(c))[0]])]
            kids.append((v, node_for(int(c), None if r is None else r - 1, px_, py_)))
        return TreeNode(counts, decision, table.attributes[attr], tuple(kids), price)

    out = []
    r0 = store.subproblem_depth(0)
    for n, point in enumerate(points):
        root = node_for(0, r0, int(front.x[point]), int(front.y[point]))
        out.append(Tree.for_table(table, dag.mapped(table, root)))
        if progress is not None:
            progress.update("trees", n + 1, len(points), unit="points' trees")
    return out


def pick_children(cx, cy, n: int, fronts, tx: int, ty: int) -> list[tuple[int, int]]:
    """The children's points whose combination is the split node's point ``(tx, ty)``
    (``n`` rows; the children's fronts in value order): the bundle's combination re-run
    with back-pointers, in the kernel's order, so ties resolve as they did there."""
    bx = tx - cx.split_const - cx.split_rows * n
    by = ty - cy.split_const - cy.split_rows * n
    ax = np.zeros(1, dtype=np.int64)
    ay = np.zeros(1, dtype=np.int64)
    back = []
    for gx, gy in fronts:
        px, py = _combine(cx, ax, gx), _combine(cy, ay, gy)
        keep = pareto(px, py)
        back.append((keep // gx.size, keep % gx.size, gx, gy))
        ax, ay = px[keep], py[keep]
    hit = np.flatnonzero((ax == bx) & (ay == by))
    assert hit.size == 1, "extraction lost its way inside a bundle"
    k = int(hit[0])
    picks = []
    for prev, pt, gx, gy in reversed(back):
        picks.append((int(gx[pt[k]]), int(gy[pt[k]])))
        k = int(prev[k])
    picks.reverse()
    return picks


def rows_labels(table, rows: np.ndarray) -> tuple[tuple | SparseCounts, str]:
    """Rows per decision and the leaf decision of a row set (see :func:`node_labels`);
    with weighted rows their weight per decision and the decision of least price
    (:mod:`dagger_cli.weights`)."""
    n_dec = len(table.decision_values)
    w = table.weighting
    if w is not None:
        totals = w.class_totals(table.decisions, rows, n_dec)
        d, _ = w.leaf(totals)
        return tuple(totals.tolist()), table.decision_values[d]
    if n_dec > DENSE_DECISIONS:
        idx, val = np.unique(table.decisions[rows], return_counts=True)
        first = int(idx[int(np.argmax(val))]) if idx.size else 0  # the smallest on a tie
        return SparseCounts(n_dec, tuple(idx.tolist()), tuple(val.tolist())), (
            table.decision_values[first]
        )
    counts = np.bincount(table.decisions[rows], minlength=n_dec)
    return tuple(counts.tolist()), table.decision_values[int(np.argmax(counts))]


def leaf_node(table, rows: np.ndarray) -> TreeNode:
    """The leaf of a row set (its price set when the table has a price matrix)."""
    counts, decision = rows_labels(table, rows)
    return TreeNode(counts, decision, price=leaf_price(table, counts))


def with_decision_terms(table, node: TreeNode) -> TreeNode:
    """``node``'s tree with every leaf's false positives and negatives against the table's
    positive class (:attr:`dagger_cli.weights.Weighting.positive`), and its price that of
    its own decision (a leaf may take the positive class against the majority); the tree
    itself when the table has no positive class."""
    w = getattr(table, "weighting", None)
    if w is None or w.positive is None:
        return node
    from dataclasses import replace

    index = {v: k for k, v in enumerate(table.decision_values)}

    def walk(n: TreeNode) -> TreeNode:
        if not n.is_leaf:
            return replace(n, children=tuple((v, walk(c)) for v, c in n.children))
        counts = np.asarray(n.counts, dtype=np.int64)
        d = index[n.decision]
        on = d == w.positive
        fp = int(counts.sum() - counts[w.positive]) if on else 0
        fn = 0 if on else int(counts[w.positive])
        price = int(w.leaf_prices(counts[None, :])[0][d])
        return replace(n, fp=fp, fn=fn, price=price)

    return walk(node)


def leaf_price(table, counts) -> int | None:
    """The price of a leaf whose rows weigh ``counts`` per decision, when the table has a
    price matrix (None otherwise: the leaf costs the weight not of its decision)."""
    w = table.weighting
    if w is None or w.prices is None:
        return None
    return w.leaf(np.asarray(counts, dtype=np.int64))[1]


def _rows_mis(table, rows: np.ndarray) -> int:
    """What the leaf of a row set costs in the cost ``misclassifications``: the rows not of
    its most common decision; with weighted rows its least price, and
    :attr:`~dagger_cli.weights.Weighting.infeasible` for fewer rows than the minimum leaf
    size (the whole table aside), as :meth:`~dagger_cli.weights.Weighting.terms` has it."""
    counts, _ = rows_labels(table, rows)
    w = table.weighting
    if w is None:
        return int(rows.size - max(counts, default=0))
    if w.too_small(rows.size):
        return w.infeasible
    return w.leaf(np.asarray(counts, dtype=np.int64))[1]


def _rows_weight(table, rows: np.ndarray) -> int:
    """The ``n`` of the split costs of a row set: its rows, or their weight."""
    w = table.weighting
    return int(rows.size) if w is None else int(w.rows[rows].sum())


def _branches(table, rows: np.ndarray, attr: int) -> list[tuple[int, np.ndarray]]:
    """The rows of each present value of ``attr`` (value order)."""
    col = table.codes[attr][rows]
    return [(int(v), rows[col == v]) for v in np.unique(col)]


def _front_r1(table, cx, cy, rows: np.ndarray):
    """The front of a row set over trees of depth <= 1 (its leaf first, then splits in
    attribute order; the first of equal points kept), as the depth-two layer's
    branches: x, y and the split attribute (-1: the leaf)."""
    mis = _rows_mis(table, rows)
    n = _rows_weight(table, rows)
    xs, ys, ch = [cx.leaf(mis)], [cy.leaf(mis)], [-1]
    n_dec = len(table.decision_values)
    dec = table.decisions[rows]
    for a in range(table.n_attributes if rows.size > 1 else 0):
        # Counts over the present values only: a branch of an identifier-like split
        # costs its rows, not the attribute's number of values.
        present, inv = np.unique(table.codes[a][rows], return_inverse=True)
        if present.size < 2:
            continue
        if table.weighting is None:
            cnt = np.bincount(inv * n_dec + dec, minlength=present.size * n_dec)
            cnt = cnt.reshape(present.size, n_dec)
            leaves = (cnt.sum(axis=1) - cnt.max(axis=1)).tolist()
        else:
            leaves = [_rows_mis(table, rows[inv == k]) for k in range(present.size)]
        xs.append(cx.split(n, [cx.leaf(k) for k in leaves]))
        ys.append(cy.split(n, [cy.leaf(k) for k in leaves]))
        ch.append(a)
    keep = pareto(np.array(xs, dtype=np.int64), np.array(ys, dtype=np.int64))
    return (
        np.array(xs, dtype=np.int64)[keep],
        np.array(ys, dtype=np.int64)[keep],
        np.array(ch, dtype=np.int64)[keep],
    )


def _d2_node(table, cx, cy, rows: np.ndarray, r: int, tx: int, ty: int, attr: int) -> TreeNode:
    """The subtree, of depth <= ``r`` (1 or 2), at point ``(tx, ty)`` of a subtable
    solved by the depth-two layer, split on ``attr``: its branches' fronts are
    recomputed from their rows (:func:`_front_r1`; leaves at r = 1)."""
    counts, decision = rows_labels(table, rows)
    branches = _branches(table, rows, attr)
    if r >= 2:
        fronts = [_front_r1(table, cx, cy, br) for _, br in branches]
    else:
        fronts = []
        for _, br in branches:
            k = _rows_mis(table, br)
            fronts.append((np.array([cx.leaf(k)]), np.array([cy.leaf(k)]), np.array([-1])))
    picks = pick_children(cx, cy, _rows_weight(table, rows), [f[:2] for f in fronts], tx, ty)
    kids = []
    for (v, br), (gx, gy, gch), (px_, py_) in zip(branches, fronts, picks):
        k = int(np.flatnonzero((gx == px_) & (gy == py_))[0])
        b = int(gch[k])
        if b < 0:
            kid = leaf_node(table, br)
        else:
            leaves = tuple(
                (table.values[b][w], leaf_node(table, sub)) for w, sub in _branches(table, br, b)
            )
            c, d = rows_labels(table, br)
            kid = TreeNode(c, d, table.attributes[b], leaves, leaf_price(table, c))
        kids.append((table.values[attr][v], kid))
    price = leaf_price(table, counts)
    return TreeNode(counts, decision, table.attributes[attr], tuple(kids), price)


def tree_for(relation, *, max_x: int | None = None, max_y: int | None = None) -> Tree:
    """The tree with the least x among trees with y <= max_y (G), or the least y among
    trees with x <= max_x (F). Exactly one bound must be given."""
    front = relation.front
    if (max_x is None) == (max_y is None):
        raise InputError("give exactly one bound: a maximum of one cost")
    if max_y is not None:
        k = front.point_for_y(max_y)
        if k is None:
            raise InputError(
                f"no tree has {front.y_cost.name} <= {max_y}; the least is {int(front.y[-1])}"
            )
    else:
        k = front.point_for_x(max_x)
        if k is None:
            raise InputError(
                f"no tree has {front.x_cost.name} <= {max_x}; the least is {int(front.x[0])}"
            )
    return extract_tree(relation, k)


__all__ = ["Tree", "TreeNode", "extract_tree", "extract_trees", "tree_for", "tree_costs"]
