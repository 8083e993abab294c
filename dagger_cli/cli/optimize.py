"""The ``dagger optimize`` command: staged (lexicographic) optimisation and tree counts."""

from __future__ import annotations

from pathlib import Path

import click

from .common import (
    CONTEXT,
    check_tree_output,
    emit_tree,
    engine_options,
    handle_errors,
    is_stdout,
    source_options,
)


@click.command(context_settings=CONTEXT)
@source_options
@click.option(
    "--order",
    required=True,
    metavar="C1,C2,...",
    help="Costs to minimise in stages, first stage first, e.g. "
    "misclassifications,depth,total-path-length (any of depth, total-path-length, nodes, "
    "leaves, misclassifications, false-positives, false-negatives: the last two against "
    "--positive CLASS, a leaf then taking either decision).",
)
@click.option(
    "--exact-only",
    is_flag=True,
    help="Only trees without avoidable misclassifications (see relate).",
)
@click.option(
    "--max-depth",
    type=click.IntRange(min=0),
    metavar="D",
    help="Only trees of depth at most D (every stage, count and least value).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "dot"]),
    default="text",
    show_default=True,
    help="text: the stages and the tree; json: all of it; dot: the tree.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the result: .png/.svg/.pdf draw the tree; .json, .dot, .txt write that "
    "format; any other name gets --format.",
)
@engine_options
@handle_errors
def optimize(
    source,
    order,
    exact_only,
    max_depth,
    fmt,
    output,
    max_subtables,
    max_memory,
    quiet,
):
    """Minimise costs in stages over every decision tree for TABLE.

    Stage by stage: the least value of each cost of --order among the trees the stages
    before left, and how many trees are left; then, for each later cost, whether the final
    trees also reach its least value over all trees (totally optimal), and one final tree.
    """
    import json

    from ..engine.counting import check_order
    from ..engine.counting import optimize as run
    from ..errors import InputError

    check_order(order)
    if output is not None:
        fmt = check_tree_output(source.table, source.example, output, fmt)
    tab = source.load(quiet)
    res = run(
        tab,
        order,
        exact_only=exact_only,
        max_subtables=max_subtables,
        max_memory=max_memory,
        progress=not quiet,
        max_depth=max_depth,
    )
    t = res.tree
    if t is None and fmt not in ("text", "json"):
        raise InputError(f"no tree to write as {fmt}: {res.no_tree}")

    def text():
        return res.to_text() + ("" if t is None else "\n" + t.to_text())

    def as_json():
        from ..engine.counting import allow_long_counts

        allow_long_counts()
        return json.dumps(res.as_dict(), indent=2) + "\n"

    emit_tree(t, fmt, output, tab.name, quiet, formats={"text": text, "json": as_json})
    if output is not None and not is_stdout(output):
        click.echo(res.to_text(), nl=False)
