"""An independent evaluator and validity checker for decision trees given as JSON dicts.

A leaf is ``{"decision": "<value>"}``; a split is
``{"attribute": "<column name>", "children": {"<value>": NODE, ...}}``.  Values are
strings exactly as in the table; other keys are ignored.  ``header`` lists the column
names with the decision column LAST; ``records`` are lists of strings (attribute values,
then the decision).  Nothing here imports ``dagger_cli``.
"""

from __future__ import annotations

import math
from collections import Counter


def _is_leaf(node) -> bool:
    assert isinstance(node, dict), (
        f"a tree node must be a dict, got {type(node).__name__}: {node!r}"
    )
    has_dec = "decision" in node
    has_attr = "attribute" in node
    assert has_dec != has_attr, (
        f"a node must have exactly one of 'decision' (leaf) or 'attribute' (split): {_short(node)}"
    )
    if has_attr:
        assert isinstance(node.get("children"), dict) and node["children"], (
            f"split on {node['attribute']!r} has no 'children' dict: {_short(node)}"
        )
    return has_dec


def _short(node, limit=200) -> str:
    text = repr(node)
    return text if len(text) <= limit else text[:limit] + "..."


def _columns(header):
    header = [str(h) for h in header]
    assert len(header) >= 1, "header is empty"
    assert len(set(header)) == len(header), f"duplicate column names in header {header}"
    return {name: j for j, name in enumerate(header[:-1])}


def _path(path) -> str:
    return " -> ".join(f"{a}={v}" for a, v in path) or "<root>"


def structure(tree) -> tuple[int, int, int]:
    """(depth, nodes, leaves) of the tree from its structure alone."""
    if _is_leaf(tree):
        return 0, 1, 1
    depth, nodes, leaves = 0, 1, 0
    for child in tree["children"].values():
        d, n, lv = structure(child)
        depth = max(depth, d + 1)
        nodes += n
        leaves += lv
    return depth, nodes, leaves


def route(tree, header, record):
    """The (leaf, depth of the leaf, path) reached by one record."""
    col = _columns(header)
    node, depth, path = tree, 0, []
    while not _is_leaf(node):
        attr = str(node["attribute"])
        assert attr in col, (
            f"at {_path(path)}: split attribute {attr!r} is not a conditional attribute "
            f"(columns: {list(col)})"
        )
        value = str(record[col[attr]])
        children = {str(k): v for k, v in node["children"].items()}
        assert value in children, (
            f"at {_path(path)}: row {record} has {attr}={value!r} but the split has children "
            f"only for {sorted(children)}"
        )
        path.append((attr, value))
        node, depth = children[value], depth + 1
    return node, depth, path


def evaluate_tree(tree, header, records) -> dict:
    """Costs of ``tree`` on the table (``records`` routed one by one)."""
    depth, nodes, leaves = structure(tree)
    total = mis = 0
    for rec in records:
        assert len(rec) == len(header), (
            f"record {rec} has {len(rec)} fields, header has {len(header)}"
        )
        leaf, d, _ = route(tree, header, rec)
        total += d
        if str(leaf["decision"]) != str(rec[-1]):
            mis += 1
    return {
        "depth": depth,
        "total_path_length": total,
        "nodes": nodes,
        "leaves": leaves,
        "misclassifications": mis,
    }


def cost_vector(tree, header, records) -> tuple:
    """(depth, total_path_length, nodes, leaves, misclassifications), as in tests/oracle.py."""
    c = evaluate_tree(tree, header, records)
    return (c["depth"], c["total_path_length"], c["nodes"], c["leaves"], c["misclassifications"])


def _number(text):
    try:
        v = float(text)
    except ValueError:
        return None
    return None if math.isnan(v) else v


def decision_key(all_decisions):
    """Order of decisions: numeric when every decision parses as a number, else string."""
    labels = [str(d) for d in all_decisions]
    if labels and all(_number(d) is not None for d in labels):
        return lambda d: (_number(str(d)), str(d))
    return lambda d: str(d)


def check_valid_tree(tree, header, records) -> None:
    """Raise AssertionError unless ``tree`` is a decision tree for the table (paper, sec. 2)."""
    col = _columns(header)
    records = [[str(v) for v in r] for r in records]
    for r in records:
        assert len(r) == len(header), f"record {r} has {len(r)} fields, header has {len(header)}"
    assert records, "the table has no rows"
    key = decision_key(r[-1] for r in records)

    def visit(node, sub, path):
        where = _path(path)
        assert sub, f"at {where}: the node's subtable is empty"
        counts = Counter(r[-1] for r in sub)
        if _is_leaf(node):
            best = max(counts.values())
            expected = min((d for d, c in counts.items() if c == best), key=key)
            got = str(node["decision"])
            assert got == expected, (
                f"at {where}: leaf decision {got!r} is not the most common decision "
                f"{expected!r} of its subtable (counts {dict(counts)})"
            )
            return
        attr = str(node["attribute"])
        assert len(counts) >= 2, (
            f"at {where}: split on {attr!r} but every row of the subtable has decision "
            f"{next(iter(counts))!r} (only a leaf is allowed)"
        )
        assert attr in col, (
            f"at {where}: split attribute {attr!r} is not a conditional attribute "
            f"(columns: {list(col)})"
        )
        j = col[attr]
        present = {r[j] for r in sub}
        assert len(present) >= 2, (
            f"at {where}: split attribute {attr!r} is constant ({next(iter(present))!r}) "
            "on its subtable"
        )
        keys = [str(k) for k in node["children"]]
        assert len(set(keys)) == len(keys), f"at {where}: duplicate child keys {keys}"
        assert set(keys) == present, (
            f"at {where}: children of {attr!r} are {sorted(keys)} but the subtable has values "
            f"{sorted(present)}"
        )
        for k, child in node["children"].items():
            k = str(k)
            visit(child, [r for r in sub if r[j] == k], path + [(attr, k)])

    visit(tree, records, [])
