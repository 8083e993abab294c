"""The ``dagger tree`` command: the tree of one Pareto point (a bound or the least y)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import click

from ..errors import InputError
from .common import (
    CONTEXT,
    check_tree_output,
    echo_err,
    emit_tree,
    exit_if_partial,
    handle_errors,
    query_options,
    source_options,
)


@click.command(context_settings=CONTEXT)
@source_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "dot"]),
    default="text",
    show_default=True,
    help="What is printed (or written to -o with another extension).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the tree: .png/.svg/.pdf draw it; .json, .dot, .txt write that format; "
    "any other name gets --format.",
)
@click.option(
    "--best",
    type=click.Choice(["f1", "balanced-accuracy"]),
    default=None,
    help="The tree of the greatest F1 or balanced accuracy on the rows against the positive "
    "class (--positive), within --max-depth: found by a few queries of the least priced "
    "misclassifications (ties: the fewest false positives; under --time-limit within half "
    "of it); without --max-depth, or when those do not end in time, read off the front of "
    "false positives against false negatives.",
)
@query_options(least_y=True, cluster=True)
@handle_errors
def tree(source, fmt, output, query, quiet, best):
    """An optimal decision tree for TABLE at one point of the front.

    With --max-misclassifications K (or --max-y K): a tree with the least total path length
    (x) among trees with at most K misclassifications (y), i.e. G(K). With
    --max-total-path-length N (or --max-x N): one with the least y among trees with x <= N,
    i.e. F(N). With --least-y: one with the least y, the least x among those. Only the
    part of the front the query needs is computed.

    Ties between equally good trees go to the first one listed, so the output is the same
    byte for byte every run: the leaf before any split, splits in column order, each
    split's children in value order. Numeric columns under --thresholds and --max-depth
    are searched in the ordered solver's fixed order instead (its best single split's
    column first, thresholds outwards from there; docs/commands/tree.md).
    """
    from ..engine.api import solve
    from ..trees import tree_for

    max_x, max_y = query.max_x, query.max_y
    if best is not None:
        if (max_x is not None) or (max_y is not None) or query.least_y:
            raise InputError("--best chooses the point itself: drop --max-x/--max-y/--least-y")
        return _best_tree(source, fmt, output, query, quiet, best)
    if (max_x is not None) + (max_y is not None) + query.least_y != 1:
        raise InputError(
            "give exactly one query: --max-misclassifications/--max-y, "
            "--max-total-path-length/--max-x, or --least-y"
        )
    if output is not None:
        fmt = check_tree_output(source.table, source.example, output, fmt)
    tab = source.load(quiet)

    def run(cap, bounded=True):
        bounds = {} if bounded else {"max_x": None, "max_y": None}
        return solve(tab, replace(query, max_depth=cap, **bounds))

    if query.least_y:
        rel = run(query.max_depth)
        t = tree_for(rel, max_y=int(rel.front.y[-1]))
    else:
        # Under a time limit the search goes deeper by itself (dagger_cli.engine.anytime).
        limited = query.time_limit is not None
        rel = run(query.max_depth) if limited else _query_relation(run, query, tab.n_attributes)
        if not len(rel.front):
            # No tree within the bound: the whole front says what the least is.
            rel = run(query.max_depth, bounded=False)
        t = tree_for(rel, max_x=max_x, max_y=max_y)
    note = None
    if rel.status != "exact":
        c = t.costs()
        point = (c[rel.front.x_cost.column], c[rel.front.y_cost.column])
        k = rel.front.points().index(point)
        proven = rel.front.proven[k] if rel.front.proven is not None else True
        gap = rel.front.gaps[k] if rel.front.gaps is not None else 0
        said = "proven optimal" if proven else f"not proven (gap {gap} {rel.front.y_cost.name})"
        if not proven:
            # The file says it too: a tree file outlives the run's stderr.
            note = (
                f"not proven optimal: the best tree found {_cut_short(query)} (gap {gap} "
                f"{rel.front.y_cost.name}: an optimal tree may have that many fewer)",
                {"proven": False, "gap": int(gap), "status": rel.status},
            )
        if not quiet:
            echo_err(f"this tree is the best found in time: {said}")
    emit_tree(t, fmt, output, tab.name, quiet, note=note)
    exit_if_partial(rel, quiet)


def _cut_short(query) -> str:
    """When the search of an answer not proven stopped, for its note."""
    if query.time_limit is not None:
        return f"within --time-limit {query.time_limit:g}s"
    return "before the run was interrupted"


def _query_relation(solve, query, n_attributes):
    """The relation ``tree`` needs for its one point, computed over as few trees as the
    query allows (``solve(cap)`` relates under a depth cap, None: ``max_depth``).

    When the bound is on depth (F(N) with x = depth, G(K) with y = depth), only trees of
    depth <= that bound can answer: the cap is lowered to it. When depth is the cost to
    minimise (G(K) with x = depth, F(N) with y = depth), the caps 0, 1, 2, ... are tried
    in turn (iterative deepening) and the first front with a point within the bound
    answers: it holds every tree of the least depth that qualifies. Exact either way; the
    tree may differ from the uncapped run's on a tie (the same costs)."""
    from ..costs import get_cost

    max_x, max_y, max_depth = query.max_x, query.max_y, query.max_depth
    x_is_depth = get_cost(query.x).name == "depth"
    y_is_depth = get_cost(query.y).name == "depth"
    limit = n_attributes if max_depth is None else min(max_depth, n_attributes)
    on_depth = max_x if x_is_depth else max_y if y_is_depth else None
    try:
        if on_depth is not None and on_depth >= 0:
            return solve(min(on_depth, limit))
        if (x_is_depth and max_y is not None) or (y_is_depth and max_x is not None):
            for cap in range(limit):
                rel = solve(cap)
                front = rel.front
                found = front.point_for_y(max_y) if x_is_depth else front.point_for_x(max_x)
                if found is not None:
                    return rel
    except InputError:
        pass  # e.g. no exact tree under a low cap: the plain run says what there is
    return solve(max_depth)


def _best_tree(source, fmt, output, query, quiet, best: str) -> None:
    """``tree --best``: the tree of the greatest F1 or balanced accuracy and its figures, by
    queries of the least priced misclassifications (:mod:`dagger_cli.best`) under a depth
    cap (within half of a time limit); without one, when they do not end in time, or where
    those prices would exceed the engine's limit, the point of the greatest score on the
    front of false positives against false negatives (found in the time left)."""
    from ..engine.api import solve
    from ..scores import SCORES, best_point, score_line
    from ..trees import extract_tree

    if output is not None:
        fmt = check_tree_output(source.table, source.example, output, fmt)
    tab = source.load(quiet)
    found = None
    if query.max_depth is not None:
        # (without a cap the whole DAG answers either way, and one front of FP against FN
        # over it costs less than the queries' DAGs: mushroom 2.9 s against 4.9 s)
        found = _best_by_prices(tab, query, best)
    if found is not None:
        t, fp, fn, table = found
        emit_tree(t, fmt, output, tab.name, quiet)
        if not quiet:
            echo_err(score_line(table, best, fp, fn))
        return
    rel = solve(tab, replace(query, x="false-positives", y="false-negatives"))
    k, score = best_point(rel, best)
    t = extract_tree(rel, k)
    note = None
    if rel.status != "exact":
        # The front was cut short: its best tree may not be the best of every tree.
        proven = rel.front.proven
        n_proven = len(rel.front) if proven is None else int(sum(proven))
        name = SCORES[best]
        note = (
            f"not proven optimal: the greatest {name} among the trees found {_cut_short(query)} "
            f"({n_proven} of {len(rel.front)} points of their front proven: a tree of "
            f"greater {name} may exist)",
            {"proven": False, "status": rel.status},
        )
    emit_tree(t, fmt, output, tab.name, quiet, note=note)
    if not quiet:
        echo_err(score)
        if note is not None:
            echo_err(f"this tree is {note[0]}")
    exit_if_partial(rel, quiet)


def _best_by_prices(tab, query, best: str):
    """``(tree, FP, FN, table)`` of the greatest score by :func:`dagger_cli.best.best_tree`
    (the table with its positive class), or None where its prices do not fit. Under a time
    limit the queries get half of it, and None when they do not end in it (the front found
    in the rest answers then)."""
    from ..best import best_tree, least_tree
    from ..engine.api import solve, with_positive
    from ..engine.progress import TimeLimitReached, deadline

    table = with_positive(tab, query)
    run = least_tree(solve, replace(query, time_limit=None))
    at = None
    if query.time_limit is not None:
        import time

        from ..engine.anytime import limit_at

        now = time.perf_counter()
        at = now + (limit_at(float(query.time_limit), now) - now) / 2
    try:
        with deadline(at):
            found = best_tree(table, best, run)
    except TimeLimitReached:
        return None
    return None if found is None else (*found, table)
