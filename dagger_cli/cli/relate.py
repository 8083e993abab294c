"""The ``dagger relate`` command: the Pareto front of two costs, its files, plot and trees."""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from pathlib import Path

import click

from ..errors import InputError
from .common import (
    CONTEXT,
    echo_err,
    exit_if_partial,
    extension,
    handle_errors,
    is_stdout,
    query_options,
    source_options,
)


@dataclass(frozen=True)
class Outputs:
    """What ``relate`` writes besides stdout, and how it prints: checked before the work
    (:meth:`check`)."""

    output: Path | None  #: -o: the front as CSV (``-``: to stdout)
    fmt: str  #: --format of stdout
    stats: bool
    plot: str | None  #: --plot: None, "" (beside -o or <table>.curve.png) or a path
    kind: str
    drop_base: bool
    trees_dir: Path | None
    report: Path | None

    @property
    def piped(self) -> bool:
        return is_stdout(self.output)

    def check(self, source, query) -> Outputs:
        """These outputs with their paths settled (``--plot`` without a path names its
        files), each checked before any work (see :func:`_relate_outputs`)."""
        if self.piped and self.fmt != "text":
            raise InputError(
                f"-o - writes the front as CSV to stdout, and so would --format {self.fmt}: "
                "give one"
            )
        output, plot_path = _relate_outputs(
            source, self.output, self.plot, self.trees_dir, self.kind, query, self.report
        )
        return replace(self, output=output, plot=None if plot_path is None else str(plot_path))


def output_options(func):
    """The options of :class:`Outputs`, as the command's ``outputs`` argument."""
    opts = [
        click.option(
            "-o",
            "--output",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Write the front as CSV to this file.",
        ),
        click.option(
            "--format",
            "fmt",
            type=click.Choice(["text", "csv", "json"]),
            default="text",
            show_default=True,
            help="Format of what is printed on stdout.",
        ),
        click.option(
            "--stats", is_flag=True, help="Also print the DAG's size (subtables, bundles, edges)."
        ),
        click.option(
            "--plot",
            "plot",
            is_flag=False,
            flag_value="",
            default=None,
            metavar="[PATH]",
            help="Draw the front (png, svg or pdf from the extension). Without PATH: beside "
            "the CSV of -o, or <table>.curve.png (and <table>.curve.csv) in the current folder.",
        ),
        click.option(
            "--kind",
            type=click.Choice(["lambda", "average-depth", "inverse", "roc"]),
            default="lambda",
            show_default=True,
            help="Plot view: x vs y; average depth vs y; y vs average depth; or, for "
            "false-positives against false-negatives, the true positive rate against the "
            "false positive rate (roc).",
        ),
        click.option(
            "--drop-base", is_flag=True, help="Leave the single-leaf tree's point out of the plot."
        ),
        click.option(
            "--trees",
            "trees_dir",
            type=click.Path(file_okay=False, path_type=Path),
            help="Write the tree of every Pareto point into this folder (JSON and text).",
        ),
        click.option(
            "--report",
            "report",
            type=click.Path(dir_okay=False, path_type=Path),
            metavar="PATH.html",
            help="Write an interactive page (one self-contained HTML file, no network): the "
            "front as a chart (click a point: its tree), every point in a table, the table's "
            "summary.",
        ),
    ]
    keys = ["output", "fmt", "stats", "plot", "kind", "drop_base", "trees_dir", "report"]

    @functools.wraps(func)
    @handle_errors
    def wrapper(**kwargs):
        kwargs["outputs"] = Outputs(**{k: kwargs.pop(k) for k in keys})
        return func(**kwargs)

    wrapped = wrapper
    for opt in reversed(opts):
        wrapped = opt(wrapped)
    return wrapped


@click.command(context_settings=CONTEXT)
@source_options
@output_options
@click.option(
    "--greedy",
    is_flag=True,
    help="Compare greedy heuristics (error, entropy, gini, gain ratio) with the front; "
    "overlay their points on the plot.",
)
@query_options(engine=True, count=True, least_y=True, cluster=True)
@handle_errors
def relate(source, outputs, greedy, query, quiet):
    """Pareto-optimal points of two tree costs over every decision tree for TABLE.

    TABLE is a registered dataset name (see `dagger datasets`) or a CSV file with a header.
    By default the costs are total path length and misclassifications (the paper's F and G).
    """
    from .. import output as out
    from ..engine.api import solve
    from ..safeio import write_file

    outputs = outputs.check(source, query)
    tab = source.load(quiet)
    max_x, max_y, least_y = query.max_x, query.max_y, query.least_y
    # The engine computes only what the bounds keep (--greedy compares whole fronts);
    # F(N) and G(K) need the bounded front, not only its last point.
    rel = solve(
        tab,
        replace(
            query,
            max_x=None if greedy else max_x,
            max_y=None if greedy else max_y,
            least_y=least_y and not greedy and max_x is None and max_y is None,
        ),
    )
    tab = rel.table  # as the engine read it (a positive class chosen for it, say)
    front = rel.front
    queries = _queries(front, max_x, max_y)
    shown = front.restrict(x_max=max_x, y_max=max_y)
    if least_y and len(shown):
        shown = shown.restrict(y_max=int(shown.y[-1]))
    comparison = points = None
    if greedy:
        from ..greedy import compare, comparison_text, greedy_points

        points = greedy_points(tab, query.x, query.y, max_depth=query.max_depth)
        comparison = compare(front, points)
    # The front's CSV is written first: it is the answer, and it stays even if the trees,
    # the figure or the page, which can take long on a long front, are stopped. The rest
    # is rendered in memory first, then written: a figure that cannot be drawn leaves no
    # page behind, and each file is written atomically (dagger_cli.safeio).
    output, plot_path = outputs.output, outputs.plot
    if output is not None:
        write_file(output, out.front_csv(shown, rel))
    written = []
    if outputs.trees_dir is not None:
        written.extend(_tree_files(rel, outputs.trees_dir))
    if plot_path is not None:
        from ..plots import figure_bytes, plot_front
        from ..scores import class_split
        from ..text import cost_units, mis_label

        extra = [(name, xs, ys) for name, (xs, ys) in points.items()] if points else None
        fig = plot_front(
            shown,
            kind=outputs.kind,
            drop_base=outputs.drop_base,
            table_name=tab.name,
            n_rows=tab.n_rows,
            n_attributes=tab.n_attributes,
            extra=extra,
            max_depth=query.max_depth,
            mis_label=mis_label(tab),
            units=cost_units(tab),
            classes=class_split(tab) if outputs.kind == "roc" else None,
        )
        written.append((Path(plot_path), figure_bytes(fig, extension(plot_path, "png"))))
    if outputs.report is not None:
        page = _report(source, query, tab, rel, shown, points, comparison, queries)
        written.append((outputs.report, page))
    if outputs.trees_dir is not None:
        from ..safeio import make_folder

        make_folder(outputs.trees_dir)
    for path, data in written:
        write_file(path, data)
    if not quiet:
        if output is not None and not outputs.piped:
            echo_err(f"wrote {len(shown)} point(s) to {output}")
        if outputs.trees_dir is not None:
            echo_err(f"wrote the trees of {len(front)} point(s) to {outputs.trees_dir}/")
        for path in (plot_path, outputs.report):
            if path is not None:
                echo_err(f"wrote {path}")
    st = rel.stats if outputs.stats else None
    if outputs.piped:
        # stdout holds the CSV, byte for byte what -o FILE writes: the rest goes to stderr.
        if st is not None:
            echo_err(out.stats_text(st))
    elif outputs.fmt == "csv":
        click.echo(out.front_csv(shown, rel), nl=False)
        if st is not None:
            echo_err(out.stats_text(st))
    elif outputs.fmt == "json":
        doc = out.front_json(
            shown,
            table=tab,
            stats=st,
            engine=query.engine,
            queries=queries or None,
            greedy=comparison,
            max_depth=query.max_depth,
            relation=rel,
        )
        click.echo(doc, nl=False)
    else:
        text = out.front_text(
            shown, table=tab, stats=st, queries=queries, max_depth=query.max_depth, relation=rel
        )
        click.echo(text, nl=False)
        if comparison is not None:
            click.echo(comparison_text(front, points), nl=False)
    exit_if_partial(rel, quiet or outputs.fmt == "text" and not outputs.piped)


def _queries(front, max_x, max_y) -> dict:
    """F(N) and G(K) of the bounds given, for the outputs."""
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
    return queries


def _report(source, asked, tab, rel, shown, points, comparison, queries) -> str:
    """The page of ``--report``: the table's summary and the shown front with its trees
    (``asked``: the query of the command line, for the hint's command)."""
    from ..report import relation_section, report_html, summary_of, tree_command
    from ..text import stats_text

    front, query = rel.front, rel.query
    facts = [("costs", f"{front.x_cost.name} (x) vs {front.y_cost.name} (y)")]
    if rel.max_depth is not None:
        facts.append(("depth cap", f"trees of depth <= {rel.max_depth}"))
    if query.exact_only:
        facts.append(("trees", "only trees without avoidable misclassifications"))
    for q in queries.values():
        facts.append(
            (
                f"{q['function']}({q['bound']})",
                f"{q['value']}: least {q['of']} among trees with {q['given']} <= {q['bound']}",
            )
        )
    facts.append(("engine", query.engine))
    if rel.stats is not None:
        facts.append(("DAG", stats_text(rel.stats).removeprefix("DAG: ")))
    command = tree_command(
        None if source.example else source.table, source.recipe, asked, sep=source.sep
    )
    section = relation_section(rel, shown, greedy=points, comparison=comparison, command=command)
    title = f"{tab.name}: {front.x_cost.name} vs {front.y_cost.name}"
    return report_html(title, summary_of(tab, facts), [section])


def _tree_files(rel, folder: Path):
    from ..engine.progress import Progress
    from ..trees import extract_trees

    width = len(str(len(rel.front)))
    progress = Progress(bool(rel.query is not None and rel.query.progress))
    try:
        trees = extract_trees(rel, range(len(rel.front)), progress)  # in one pass
    finally:
        progress.close()
    for k, ((a, b), tree) in enumerate(zip(rel.front.points(), trees)):
        stem = f"point-{k:0{width}d}-{rel.front.x_cost.column}-{a}-{rel.front.y_cost.column}-{b}"
        yield folder / f"{stem}.json", tree.to_json()
        yield folder / f"{stem}.txt", tree.to_text()


def _relate_outputs(source, output, plot, trees_dir, kind, query, report=None):
    """Check every output of `relate` before any work; return (csv path, figure path).

    ``--plot`` without a path writes the figure beside ``-o`` (same stem, ``.png``), or,
    without ``-o``, ``<table>.curve.csv`` and ``<table>.curve.png`` in the current folder:
    names that are never the input (``t.csv`` gives ``t.curve.csv``). Every path is checked
    (format from its extension, folder existing and writable, not an input, not another
    output), so a mistake costs no computation and leaves no file.
    """
    from ..plots import FORMATS, check_view
    from ..safeio import check_distinct, check_output, check_output_folder, is_special

    inputs = source.inputs()
    if plot is not None:
        check_view(kind, query.x, query.y)
    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=inputs)
    plot_path = None
    if plot == "":
        if output is None:
            output = Path(f"{source.name}.curve.csv")
            check_output(output, extensions=("csv",), what="-o", inputs=inputs)
        if is_special(output):
            plot_path = Path(f"{source.name}.curve.png")
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
