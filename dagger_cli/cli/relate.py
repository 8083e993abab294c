"""The ``dagger relate`` command: the Pareto front of two costs, its files, plot and trees."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from ..errors import InputError
from .common import (
    CONTEXT,
    EngineChoice,
    _bounds,
    _echo_err,
    _extension,
    _get_table,
    _inputs,
    _is_stdout,
    engine_options,
    handle_errors,
    pair_options,
    table_options,
)


@click.command(context_settings=CONTEXT)
@click.argument("table", required=False)
@table_options
@click.option(
    "--example", is_flag=True, help="Use the paper's Fig. 4 table (4 rows, 3 attributes)."
)
@pair_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the front as CSV to this file.",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "csv", "json"]),
    default="text",
    show_default=True,
    help="Format of what is printed on stdout.",
)
@click.option(
    "--stats", is_flag=True, help="Also print the DAG's size (subtables, bundles, edges)."
)
@click.option(
    "--engine",
    type=EngineChoice(),
    default="fast",
    show_default=True,
    help="fast: compiled kernels; baseline: plain recursion (slow "
    "oracle); paper: the paper's dense algorithm (small tables).",
)
@click.option(
    "--plot",
    "plot",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[PATH]",
    help="Draw the front (png, svg or pdf from the extension). Without PATH: beside "
    "the CSV of -o, or <table>.curve.png (and <table>.curve.csv) in the current folder.",
)
@click.option(
    "--kind",
    type=click.Choice(["lambda", "average-depth", "inverse"]),
    default="lambda",
    show_default=True,
    help="Plot view: x vs y; average depth vs y; or y vs average depth.",
)
@click.option(
    "--drop-base", is_flag=True, help="Leave the single-leaf tree's point out of the plot."
)
@click.option(
    "--trees",
    "trees_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write the tree of every Pareto point into this folder (JSON and text).",
)
@click.option(
    "--greedy",
    is_flag=True,
    help="Compare greedy heuristics (error, entropy, gini, gain ratio) with the front; "
    "overlay their points on the plot.",
)
@click.option(
    "--report",
    "report_path",
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="PATH.html",
    help="Write an interactive page (one self-contained HTML file, no network): the front "
    "as a chart (click a point: its tree), every point in a table, the table's summary.",
)
@click.option(
    "--least-y",
    is_flag=True,
    help="Only the point of least y (least x among those trees): the end of the front, "
    "computed alone (faster).",
)
@click.option(
    "--count",
    is_flag=True,
    help="Add a column 'trees': the number of trees at each point (exact; the text "
    "abbreviates huge counts).",
)
@engine_options
@handle_errors
def relate(
    table,
    recipe,
    sep,
    example,
    x_cost,
    y_cost,
    max_x,
    max_y,
    max_mis,
    max_tpl,
    exact_only,
    max_depth,
    output,
    fmt,
    stats,
    engine,
    plot,
    kind,
    drop_base,
    trees_dir,
    greedy,
    count,
    report_path,
    least_y,
    max_subtables,
    max_memory,
    quiet,
):
    """Pareto-optimal points of two tree costs over every decision tree for TABLE.

    TABLE is a registered dataset name (see `dagger datasets`) or a CSV file with a header.
    By default the costs are total path length and misclassifications (the paper's F and G).
    """
    from .. import output as out
    from ..costs import check_pair
    from ..engine import relate as run
    from ..safeio import write_file

    check_pair(x_cost, y_cost)
    max_x, max_y = _bounds(x_cost, y_cost, max_x, max_y, max_mis, max_tpl)
    piped = _is_stdout(output)
    if piped and fmt != "text":
        raise InputError(
            f"-o - writes the front as CSV to stdout, and so would --format {fmt}: give one"
        )
    output, plot_path = _relate_outputs(
        table, example, output, plot, trees_dir, kind, x_cost, y_cost, report_path
    )
    tab = _get_table(table, example, recipe, quiet, sep)
    rel = run(
        tab,
        x_cost,
        y_cost,
        engine=engine,
        max_subtables=max_subtables,
        max_memory=max_memory,
        progress=not quiet,
        exact_only=exact_only,
        count=count,
        max_depth=max_depth,
        # The engine computes only what the bounds keep (--greedy compares whole fronts);
        # F(N) and G(K) need the bounded front, not only its last point.
        max_x=None if greedy else max_x,
        max_y=None if greedy else max_y,
        least_y=least_y and not greedy and max_x is None and max_y is None,
    )
    front = rel.front
    queries = {}
    if max_y is not None:
        queries["G"] = {
            "function": "G",
            "bound": max_y,
            "value": front.least_x(max_y),
            "of": front.x_cost.name,
            "given": front.y_cost.name,
        }
    if max_x is not None:
        queries["F"] = {
            "function": "F",
            "bound": max_x,
            "value": front.least_y(max_x),
            "of": front.y_cost.name,
            "given": front.x_cost.name,
        }
    shown = front.restrict(x_max=max_x, y_max=max_y)
    if least_y and len(shown):
        shown = shown.restrict(y_max=int(shown.y[-1]))
    comparison = points = None
    if greedy:
        from ..greedy import compare, comparison_text, greedy_points

        points = greedy_points(tab, x_cost, y_cost, max_depth=max_depth)
        comparison = compare(front, points)
    # Everything is rendered in memory first, then written: a figure that cannot be drawn
    # leaves no CSV behind, and each file is written atomically (dagger_cli.safeio).
    written = []
    if output is not None:
        written.append((output, out.front_csv(shown)))
    if trees_dir is not None:
        written.extend(_tree_files(rel, trees_dir))
    if plot_path is not None:
        from ..plots import figure_bytes, plot_front

        extra = [(name, xs, ys) for name, (xs, ys) in points.items()] if points else None
        fig = plot_front(
            shown,
            kind=kind,
            drop_base=drop_base,
            table_name=tab.name,
            n_rows=tab.n_rows,
            n_attributes=tab.n_attributes,
            extra=extra,
            max_depth=max_depth,
        )
        written.append((plot_path, figure_bytes(fig, _extension(plot_path, "png"))))
    if report_path is not None:
        written.append(
            (
                report_path,
                _report(table, tab, rel, shown, engine, exact_only, points, comparison, queries),
            )
        )
    if trees_dir is not None:
        from ..safeio import make_folder

        make_folder(trees_dir)
    for path, data in written:
        write_file(path, data)
    if output is not None and not quiet and not piped:
        _echo_err(f"wrote {len(shown)} point(s) to {output}")
    if trees_dir is not None and not quiet:
        _echo_err(f"wrote the trees of {len(front)} point(s) to {trees_dir}/")
    if plot_path is not None and not quiet:
        _echo_err(f"wrote {plot_path}")
    if report_path is not None and not quiet:
        _echo_err(f"wrote {report_path}")
    st = rel.stats if stats else None
    if piped:
        # stdout holds the CSV, byte for byte what -o FILE writes: the rest goes to stderr.
        if st is not None:
            _echo_err(out.stats_text(st))
        return
    if fmt == "csv":
        click.echo(out.front_csv(shown), nl=False)
        if st is not None:
            _echo_err(out.stats_text(st))
    elif fmt == "json":
        doc = out.front_json(
            shown,
            table=tab,
            stats=st,
            engine=engine,
            queries=queries or None,
            greedy=comparison,
            max_depth=max_depth,
        )
        click.echo(doc, nl=False)
    else:
        click.echo(
            out.front_text(shown, table=tab, stats=st, queries=queries, max_depth=max_depth),
            nl=False,
        )
        if comparison is not None:
            click.echo(comparison_text(front, points), nl=False)


def _report(table, tab, rel, shown, engine, exact_only, points, comparison, queries) -> str:
    """The page of ``--report``: the table's summary and the shown front with its trees."""
    from ..costs import DEFAULT_X, DEFAULT_Y
    from ..report import relation_section, report_html, summary_of
    from ..text import stats_text

    front = rel.front
    facts = [("costs", f"{front.x_cost.name} (x) vs {front.y_cost.name} (y)")]
    if rel.max_depth is not None:
        facts.append(("depth cap", f"trees of depth <= {rel.max_depth}"))
    if exact_only:
        facts.append(("trees", "only trees without avoidable misclassifications"))
    for q in queries.values():
        facts.append(
            (
                f"{q['function']}({q['bound']})",
                f"{q['value']}: least {q['of']} among trees with {q['given']} <= {q['bound']}",
            )
        )
    facts.append(("engine", engine))
    if rel.stats is not None:
        facts.append(("DAG", stats_text(rel.stats).removeprefix("DAG: ")))
    command = ["dagger", "tree", "--example" if table is None else shlex.quote(table)]
    if (front.x_cost.name, front.y_cost.name) != (DEFAULT_X, DEFAULT_Y):
        command += ["--x", front.x_cost.name, "--y", front.y_cost.name]
    if rel.max_depth is not None:
        command += ["--max-depth", str(rel.max_depth)]
    if exact_only:
        command.append("--exact-only")
    command += ["--max-y", "{y}"]
    section = relation_section(
        rel, shown, greedy=points, comparison=comparison, command=" ".join(command)
    )
    title = f"{tab.name}: {front.x_cost.name} vs {front.y_cost.name}"
    return report_html(title, summary_of(tab, facts), [section])


def _tree_files(rel, folder: Path):
    from ..trees import extract_tree

    width = len(str(len(rel.front)))
    for k, (a, b) in enumerate(rel.front.points()):
        tree = extract_tree(rel, k)
        stem = f"point-{k:0{width}d}-{rel.front.x_cost.column}-{a}-{rel.front.y_cost.column}-{b}"
        yield folder / f"{stem}.json", tree.to_json()
        yield folder / f"{stem}.txt", tree.to_text()


#: Extensions of the files `tree -o` writes, and the format each means.
def _table_name(table, example) -> str:
    """The name the table will have (file stem or dataset name), known before reading it."""
    from ..data.datasets import get_dataset, is_registered

    if example or table is None:
        return "paper-fig4"
    if is_registered(table) and not Path(table).exists():
        return get_dataset(table).name
    from ..data.compression import stem

    return stem(table)


def _relate_outputs(table, example, output, plot, trees_dir, kind, x_cost, y_cost, report=None):
    """Check every output of `relate` before any work; return (csv path, figure path).

    ``--plot`` without a path writes the figure beside ``-o`` (same stem, ``.png``), or,
    without ``-o``, ``<table>.curve.csv`` and ``<table>.curve.png`` in the current folder:
    names that are never the input (``t.csv`` gives ``t.curve.csv``). Every path is checked
    (format from its extension, folder existing and writable, not an input, not another
    output), so a mistake costs no computation and leaves no file.
    """
    from ..plots import FORMATS, check_view
    from ..safeio import check_distinct, check_output, check_output_folder, is_special

    inputs = _inputs(table, example)
    if plot is not None:
        check_view(kind, x_cost, y_cost)
    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=inputs)
    plot_path = None
    if plot == "":
        if output is None:
            output = Path(f"{_table_name(table, example)}.curve.csv")
            check_output(output, extensions=("csv",), what="-o", inputs=inputs)
        if is_special(output):
            plot_path = Path(f"{_table_name(table, example)}.curve.png")
        else:
            plot_path = output.with_suffix(".png")
    elif plot is not None:
        plot_path = Path(plot)
    if plot_path is not None:
        check_output(plot_path, extensions=FORMATS, what="--plot", inputs=inputs)
    if report is not None:
        check_output(report, extensions=("html", "htm"), what="--report", inputs=inputs)
    if trees_dir is not None:
        check_output_folder(trees_dir)
    check_distinct([output, plot_path, report])
    return output, plot_path
