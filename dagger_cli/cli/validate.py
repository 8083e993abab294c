"""The ``dagger validate`` command: cross-validated errors of the front's trees."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import InputError
from .common import (
    CONTEXT,
    EXIT_PARTIAL,
    echo_err,
    engine_options,
    inputs_of,
    is_stdout,
    table_options,
    time_limit_option,
)


@click.command(context_settings=CONTEXT)
@click.argument("table")
@table_options
@click.option(
    "--folds",
    type=click.IntRange(min=2),
    metavar="K",
    help="K stratified folds: each fold's rows are held out from its training part.",
)
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the fold assignment.")
@click.option(
    "--test",
    "test_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Instead of folds: train on all of TABLE and hold out this CSV's rows.",
)
@click.option(
    "--max-depth",
    type=click.IntRange(min=0),
    metavar="D",
    help="Only trees of depth at most D.",
)
@click.option(
    "--x",
    "x_cost",
    type=click.Choice(["total-path-length", "depth", "nodes", "leaves"]),
    default="total-path-length",
    show_default=True,
    help="The cost traded against misclassifications.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the CSV here (default: stdout).",
)
@click.option(
    "--plot",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="PATH",
    help="Draw training and held-out error rates against x (png, svg or pdf).",
)
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="PATH.html",
    help="Write an interactive page (self-contained HTML): the whole table's front and "
    "trees, with the held-out error along it.",
)
@time_limit_option
@engine_options
def validate(
    table,
    recipe,
    sep,
    folds,
    seed,
    test_file,
    max_depth,
    x_cost,
    output,
    plot,
    report_path,
    time_limit,
    max_subtables,
    max_memory,
    quiet,
):
    """Held-out error along the front: K stratified folds of TABLE, or a --test file.

    For every fold, the front on its training part and, for each point, the tree's errors
    on the held-out rows. CSV columns: fold, the x cost (and average_depth),
    misclassifications (training), train_rows, heldout_rows, heldout_errors. With --weight,
    --class-weight or --cost-matrix the held-out errors are the weighted (priced) sum over
    the held-out rows, and train_weight, heldout_weight and units follow: every number of
    a line counts in units of 1/units of a row of weight 1 (class weights "balanced" are
    computed on each fold's training part).
    """
    from .. import validate as val
    from ..data.table import parse_separator
    from ..plots import FORMATS
    from ..safeio import check_distinct, check_output, write_file

    if (folds is None) == (test_file is None):
        raise InputError("give either --folds K or --test FILE")
    inputs = inputs_of(table, False) + ([test_file] if test_file is not None else [])
    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=inputs)
    if plot is not None:
        check_output(plot, extensions=FORMATS, what="--plot", inputs=inputs)
    if report_path is not None:
        check_output(report_path, extensions=("html", "htm"), what="--report", inputs=inputs)
    check_distinct([output, plot, report_path])
    given_sep, sep = sep, None if sep is None else parse_separator(sep)
    # Held-out rows are all counted, so training rows are too: equal rows stay unless the
    # user asks for merging (training error rates then compare with held-out ones).
    from ..data.recipe import Recipe
    from ..engine.query import Query
    from ..report import tree_command

    recipe = Recipe.of(recipe, duplicates=recipe.duplicates or "keep")
    raw = val.read_raw(table, recipe, sep=sep)
    test = val.read_raw(test_file, file_only=True, sep=sep) if test_file is not None else None
    results = val.validate(
        raw,
        folds=folds,
        seed=seed,
        test=test,
        x=x_cost,
        max_depth=max_depth,
        max_subtables=max_subtables,
        max_memory=max_memory,
        time_limit=time_limit,
    )
    page = None
    if report_path is not None:
        asked = Query(x_cost, max_depth=max_depth, max_subtables=max_subtables)
        command = tree_command(table, recipe, asked, sep=given_sep)
        page = _report(raw, results, folds, test_file, x_cost, max_depth, max_subtables, command)
    text = val.results_csv(results)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_file(output, text)
        if not quiet and not is_stdout(output):
            echo_err(
                f"wrote {text.count(chr(10)) - 1} point(s) of {len(results)} fold(s) to {output}"
            )
    if plot is not None:
        from ..plots import PlotError, plot_validation, save_figure

        cap = "" if max_depth is None else f", depth <= {max_depth}"
        how = f"{folds}-fold validation" if folds else f"held out: {test_file.name}"
        fig = plot_validation(results, title=f"{raw.name}: {how}{cap}")
        try:
            save_figure(fig, plot)
        except PlotError as err:
            raise InputError(str(err)) from None
        if not quiet:
            echo_err(f"wrote {plot}")
    if page is not None:
        write_file(report_path, page)
        if not quiet:
            echo_err(f"wrote {report_path}")
    short = [r.fold for r in results if r.status != "exact"]
    if short:
        if not quiet:
            echo_err(
                f"the training fronts of fold(s) {', '.join(short)} are the best found in "
                "time (--time-limit), each point marked proven or not in the CSV"
            )
        sys.exit(EXIT_PARTIAL)


def _report(raw, results, folds, test_file, x_cost, max_depth, max_subtables, command) -> str:
    """The page of ``--report``: the whole table's front and trees, the held-out errors
    (``command``: :func:`dagger_cli.report.tree_command`'s, for a point without its tree)."""
    from .. import validate as val
    from ..report import heldout_of, report_html, section_of, summary_of

    table, front, trees = val.whole_front(
        raw, x=x_cost, max_depth=max_depth, max_subtables=max_subtables
    )
    how = f"mean of {folds} folds" if folds else f"held out: {test_file.name}"
    cap = "" if max_depth is None else f", trees of depth <= {max_depth}"
    facts = [
        ("costs", f"{front.x_cost.name} (x) vs {front.y_cost.name} (y)"),
        ("validation", f"{folds}-fold, stratified" if folds else f"test file {test_file.name}"),
    ]
    if max_depth is not None:
        facts.append(("depth cap", f"trees of depth <= {max_depth}"))
    section = section_of(
        f"{front.x_cost.name} vs {front.y_cost.name}{cap}: the whole table's front",
        front,
        trees.__getitem__,
        table.decision_values,
        heldout=heldout_of(results, front, how),
        command=command,
    )
    title = f"{table.name}: held-out error along the front"
    return report_html(title, summary_of(table, facts), [section])
