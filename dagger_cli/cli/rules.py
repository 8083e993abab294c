"""``dagger rules TABLE``: every row's Pareto-optimal decision rules (issue 24)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import InputError
from .common import (
    CONTEXT,
    EXIT_PARTIAL,
    DurationType,
    echo_err,
    engine_options,
    source_options,
)

RULE_COSTS = ("length", "coverage", "misclassifications")


@click.command("rules", context_settings=CONTEXT)
@source_options
@click.option(
    "--x",
    "x_cost",
    type=click.Choice(RULE_COSTS),
    default="length",
    show_default=True,
    help="First cost of the fronts (length and misclassifications are minimised, "
    "coverage maximised).",
)
@click.option(
    "--y",
    "y_cost",
    type=click.Choice(RULE_COSTS),
    default="coverage",
    show_default=True,
    help="Second cost of the fronts.",
)
@click.option(
    "--max-length",
    type=click.IntRange(min=0),
    metavar="L",
    help="Only rules of at most L conditions (the DAG is built L steps deep).",
)
@click.option(
    "--max-misclassifications",
    "max_mis",
    type=click.IntRange(min=0),
    metavar="K",
    help="Only rules matching at most K rows of other decisions (default: 0, exact rules, "
    "unless misclassifications is --x, --y or in --optimize).",
)
@click.option(
    "--row",
    type=click.IntRange(min=0),
    metavar="K",
    help="Only row K of the prepared table (0-based, as `dagger prepare` writes it), in full.",
)
@click.option(
    "--optimize",
    "order",
    metavar="C1,C2,...",
    help="Sequential optimisation of each row's rule, e.g. length,coverage (least length, "
    "then most coverage); prints the stages, writes each row's rule.",
)
@click.option(
    "--compare-tree",
    is_flag=True,
    help="Compare with the rules of a tree's leaves: the tree of least misclassifications, "
    "then least total path length (of depth <= --tree-max-depth).",
)
@click.option(
    "--tree-max-depth",
    type=click.IntRange(min=0),
    metavar="D",
    help="With --compare-tree: the tree's depth cap (default: --max-length).",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the rules as CSV (row,length,coverage,misclassifications,rule).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "csv", "json"]),
    default="text",
    show_default=True,
    help="What stdout gets: text (a summary, or row K in full), csv (the rules) or json.",
)
@click.option("--stats", is_flag=True, help="Also print the size of the DAG.")
@click.option(
    "--time-limit",
    type=DurationType(),
    default=None,
    metavar="DURATION",
    help="Stop after DURATION (90s, 5m, 1.5h) with the fronts over the longest rules searched "
    "in time: rules of at most 0, 1, 2, ... conditions, each length searched whole; with "
    "length as a cost every point shown is on its row's exact front. A first Ctrl-C does "
    f"the same. Exit status {EXIT_PARTIAL} when it stopped short (the outputs are written); "
    "a limit long enough gives the exact answer, byte for byte. Not with --optimize or "
    "--compare-tree.",
)
@engine_options
def rules(
    source,
    x_cost,
    y_cost,
    max_length,
    max_mis,
    row,
    order,
    compare_tree,
    tree_max_depth,
    output,
    fmt,
    stats,
    time_limit,
    max_subtables,
    max_memory,
    quiet,
):
    """Every row's Pareto-optimal decision rules for TABLE.

    A rule for a row is a conjunction of the row's own attribute values, followed by its
    decision; by default the front of length (least) vs coverage (most rows matched) over
    the exact rules (no row of another decision matched).
    """
    from .. import rules as lib
    from ..rules import output as out
    from ..safeio import check_output, write_file

    if x_cost == y_cost:
        raise InputError(f"--x and --y must differ (both are {x_cost})")
    names = lib.check_order(order, lib.COSTS) if order is not None else None
    if compare_tree and names is not None:
        raise InputError("--compare-tree compares rule fronts, not --optimize; give one of them")
    if compare_tree and {x_cost, y_cost} != {"length", "coverage"}:
        raise InputError(
            f"--compare-tree needs the fronts of length vs coverage, not {x_cost} vs {y_cost}"
        )
    if time_limit is not None and (names is not None or compare_tree):
        raise InputError(
            "--time-limit applies to the rules' fronts, not to --optimize or --compare-tree"
        )
    if tree_max_depth is not None and not compare_tree:
        raise InputError("--tree-max-depth is the depth cap of --compare-tree's tree")
    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=source.inputs())
    tab = source.load(quiet)
    if row is not None and row >= tab.n_rows:
        raise InputError(
            f"--row {row}: the prepared table has rows 0 to {tab.n_rows - 1} (0-based, as "
            "`dagger prepare` writes them)"
        )
    rows = None if row is None else [row]
    common = dict(
        max_length=max_length,
        max_misclassifications=max_mis,
        max_subtables=max_subtables,
        max_memory=max_memory,
        progress=not quiet,
    )
    if names is not None:
        opt = lib.optimize_rules(tab, names, **common)
        fronts = opt.fronts
        csv_text = out.rules_csv(fronts, rows, first_only=True)
        if output is not None:
            write_file(output, csv_text)
            if not quiet:
                echo_err(
                    f"wrote the rules of {len(rows or range(tab.n_rows)):,} row(s) to {output}"
                )
        st = fronts.stats if stats else None
        if fmt == "csv":
            click.echo(csv_text, nl=False)
            if st is not None:
                echo_err(out.stats_line(st))
        elif fmt == "json":
            click.echo(out.optimum_json(opt, rows, st), nl=False)
        else:
            click.echo(out.optimum_text(opt), nl=False)
            if row is not None:
                click.echo(out.row_text(fronts, row, first_only=True), nl=False)
            if st is not None:
                click.echo(out.stats_line(st))
        return
    if time_limit is None:
        fronts = lib.rules(tab, x_cost, y_cost, **common)
    else:
        from ..rules.anytime import rules_within

        found = rules_within(tab, x_cost, y_cost, time_limit, **common)
        if found is None:
            echo_err(
                f"no rules within the {time_limit:g} s limit (not even those of length 0); "
                "nothing written: give more time"
            )
            sys.exit(EXIT_PARTIAL)
        fronts = found
    comparison = None
    tree_what = ""
    if compare_tree:
        from ..engine.api import solve
        from ..engine.query import Query
        from ..errors import LimitError
        from ..trees import extract_tree

        if tree_max_depth is None:
            tree_max_depth = max_length  # the tree's paths: rules of at most that length
        try:
            query = Query(
                "total-path-length",
                "misclassifications",
                least_y=True,
                max_depth=tree_max_depth,
                max_subtables=max_subtables,
                max_memory=max_memory,
                progress=not quiet,
            )
            rel = solve(tab, query)
        except LimitError as err:  # the tree's cap is --tree-max-depth here
            raise LimitError(
                f"the tree of --compare-tree: {str(err).replace('--max-depth', '--tree-max-depth')}"
            ) from None
        comparison = lib.compare_tree(extract_tree(rel, 0), fronts)
        cap = "" if tree_max_depth is None else f" among trees of depth <= {tree_max_depth}"
        tree_what = f"least misclassifications, then least total path length{cap}"
    csv_text = out.rules_csv(fronts, rows)
    if output is not None:
        write_file(output, csv_text)
        if not quiet:
            lines = len([ln for ln in csv_text.splitlines() if not ln.startswith("#")]) - 1
            echo_err(f"wrote {lines:,} line(s) of rules to {output}")
    st = fronts.stats if stats else None
    if fmt == "csv":
        click.echo(csv_text, nl=False)
        if st is not None:
            echo_err(out.stats_line(st))
    elif fmt == "json":
        click.echo(out.rules_json(fronts, rows=rows, stats=st, comparison=comparison), nl=False)
    elif row is not None:
        click.echo(out.row_text(fronts, row, comparison=comparison), nl=False)
        if st is not None:
            click.echo(out.stats_line(st))
    else:
        click.echo(out.rules_text(fronts, stats=st), nl=False)
        if comparison is not None:
            click.echo(out.comparison_text(comparison, tree_what), nl=False)
    if fronts.status != "exact":
        if not quiet and (fmt != "text" or row is not None):
            from ..rules.anytime import stop_line

            echo_err(f"{fronts.status}: {stop_line(fronts)}")
        sys.exit(EXIT_PARTIAL)
