"""The ``dagger`` command line: parse options, call the core, print, map errors to exit codes.

This is the only module that imports click.
"""

from __future__ import annotations

import functools
import importlib
import sys
from pathlib import Path

import click

from .errors import DaggerError, InputError

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _echo_err(msg: str) -> None:
    click.echo(f"dagger: {msg}", err=True)


def handle_errors(func):
    """User errors become a message and a non-zero exit, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except DaggerError as err:
            _echo_err(f"error: {err}")
            sys.exit(err.exit_code)
        except KeyboardInterrupt:
            _echo_err("interrupted; nothing was written")
            sys.exit(130)
        except MemoryError:
            _echo_err(
                "error: out of memory; nothing was written. --max-memory SIZE or "
                "--max-subtables N stop a run early with an estimate of its size"
            )
            sys.exit(3)
        except BrokenPipeError:
            sys.exit(0)
        except OSError as err:  # an I/O failure no layer below turned into a DaggerError
            where = f"{err.filename}: " if err.filename else ""
            _echo_err(f"error: {where}{err.strerror or err}")
            sys.exit(5)

    return wrapper


def table_options(func):
    """Options shared by every command that reads a decision table.

    They arrive as one :class:`~dagger_cli.recipe.Recipe` in the command's ``recipe``
    argument, so every command hands the table builder the whole recipe and none can drop
    an option on the way.
    """
    from .recipe import DUPLICATES_CHOICES, FIELDS, MISSING_CHOICES, Recipe

    @functools.wraps(func)
    @handle_errors
    def with_recipe(**kwargs):
        given = {k: kwargs.pop(k) for k in sorted(FIELDS & set(kwargs))}
        given["drop"] = tuple(given.get("drop") or ()) or None  # not given: the table's own
        return func(recipe=Recipe.of(**given), **kwargs)

    opts = [
        click.option(
            "--decision",
            metavar="COL",
            default=None,
            help="Decision column (default: the last column; a registered dataset's own).",
        ),
        click.option(
            "--drop",
            metavar="COL",
            multiple=True,
            help="Drop this column before anything else (repeatable).",
        ),
        click.option(
            "--missing",
            type=click.Choice(MISSING_CHOICES),
            default=None,
            help="Missing values (?, empty, NA): fill with the column's most common value "
            "(mode, default), keep as a value of their own '?' (value), or refuse (error).",
        ),
        click.option(
            "--duplicates",
            type=click.Choice(DUPLICATES_CHOICES),
            default=None,
            help="Equal rows: merge into one row with the most common decision (merge, "
            "default) or keep them all (keep).",
        ),
        click.option(
            "--bins",
            type=click.IntRange(min=2),
            default=None,
            metavar="K",
            help="Discretize numeric columns with more than K distinct values into K "
            "equal-frequency bins.",
        ),
        click.option(
            "--sep",
            metavar="CHAR",
            default=None,
            help="Field separator of a CSV file: one character, or tab (default: detected "
            "among , ; tab |).",
        ),
        click.option(
            "--thresholds",
            type=ThresholdsType(),
            default=None,
            metavar="all|K",
            help="Numeric columns become binary splits col<=t: every midpoint between "
            "consecutive values (all) or at most K per column at quantiles (K).",
        ),
    ]
    wrapped = with_recipe
    for opt in reversed(opts):
        wrapped = opt(wrapped)
    return wrapped


class ThresholdsType(click.ParamType):
    """``all`` or a positive integer K."""

    name = "all|K"

    def convert(self, value, param, ctx):
        from .thresholds import parse_spec

        try:
            return parse_spec(value)
        except InputError as err:
            self.fail(str(err), param, ctx)


def load_table(source: str, recipe, *, quiet: bool = False, sep: str | None = None):
    """A registered dataset name or a CSV path -> prepared DecisionTable (report on stderr)."""
    from .datasets import resolve_table
    from .table import parse_separator

    table = resolve_table(source, recipe, sep=None if sep is None else parse_separator(sep))
    if not quiet:
        for line in table.report.lines():
            _echo_err(f"{table.name}: {line}")
    return table


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="dagger-cli", prog_name="dagger")
def main():
    """dagger: exact trade-offs between the costs of decision trees.

    For a discrete decision table, dagger builds the DAG of its separable subtables and
    computes, over every decision tree for the table, the Pareto-optimal pairs of two costs
    (by default total path length vs number of misclassifications).
    """


def pair_options(func):
    """--x/--y cost pair and the bounds that query it."""
    from .costs import COSTS, DEFAULT_X, DEFAULT_Y

    names = click.Choice(list(COSTS))
    opts = [
        click.option(
            "--x",
            "x_cost",
            type=names,
            default=DEFAULT_X,
            show_default=True,
            help="First cost (x axis).",
        ),
        click.option(
            "--y",
            "y_cost",
            type=names,
            default=DEFAULT_Y,
            show_default=True,
            help="Second cost (y axis).",
        ),
        click.option(
            "--max-x",
            type=click.IntRange(min=0),
            metavar="N",
            help="F(N): the least y among trees with x <= N.",
        ),
        click.option(
            "--max-y",
            type=click.IntRange(min=0),
            metavar="K",
            help="G(K): the least x among trees with y <= K.",
        ),
        click.option(
            "--max-misclassifications",
            "max_mis",
            type=click.IntRange(min=0),
            metavar="K",
            help="Bound on misclassifications (whichever axis has that cost).",
        ),
        click.option(
            "--max-total-path-length",
            "max_tpl",
            type=click.IntRange(min=0),
            metavar="N",
            help="Bound on total path length (whichever axis has that cost).",
        ),
        click.option(
            "--exact-only",
            is_flag=True,
            help="Only trees without avoidable misclassifications (a subtable with "
            "several decisions is a leaf only if nothing splits it); makes depth "
            "vs total-path-length informative.",
        ),
        click.option(
            "--max-depth",
            type=click.IntRange(min=0),
            metavar="D",
            help="Only trees of depth at most D (a single leaf has depth 0): the front "
            "over those trees, computed over the subtables reachable within D splits.",
        ),
    ]
    for opt in reversed(opts):
        func = opt(func)
    return func


def engine_options(func):
    opts = [
        click.option(
            "--max-subtables",
            type=click.IntRange(min=1),
            metavar="N",
            help="Stop with a message if the DAG has more than N subtables.",
        ),
        click.option(
            "--max-memory",
            metavar="SIZE",
            default="auto",
            show_default=True,
            help="Stop with a message if the engine needs more memory than SIZE (e.g. 500M, "
            "2G); auto: 80% of the memory available at start; none: no ceiling.",
        ),
        click.option(
            "--quiet", "-q", is_flag=True, help="No preprocessing report or progress on stderr."
        ),
    ]
    for opt in reversed(opts):
        func = opt(func)
    return func


def _bounds(x_cost, y_cost, max_x, max_y, max_mis, max_tpl):
    """Fold the named bounds into (max_x, max_y)."""
    for value, cost, flag in (
        (max_mis, "misclassifications", "--max-misclassifications"),
        (max_tpl, "total-path-length", "--max-total-path-length"),
    ):
        if value is None:
            continue
        if cost == x_cost:
            max_x = value if max_x is None else min(max_x, value)
        elif cost == y_cost:
            max_y = value if max_y is None else min(max_y, value)
        else:
            raise InputError(f"{flag} needs {cost} as --x or --y (they are {x_cost}, {y_cost})")
    return max_x, max_y


def _get_table(table, example, recipe, quiet, sep=None):
    if example == (table is not None):
        raise InputError("give either a TABLE (CSV path or dataset name) or --example")
    if example:
        from .recipe import Recipe
        from .table import example_table

        if recipe != Recipe() or sep is not None:
            raise InputError(
                "--example is the paper's table as it is; the table options "
                "(--decision, --drop, --missing, --duplicates, --bins, --sep) apply to a TABLE"
            )

        return example_table()
    return load_table(table, recipe, quiet=quiet, sep=sep)


@main.command(context_settings=CONTEXT)
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
    type=click.Choice(["fast", "baseline", "paper"]),
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
    least_y,
    max_subtables,
    max_memory,
    quiet,
):
    """Pareto-optimal points of two tree costs over every decision tree for TABLE.

    TABLE is a registered dataset name (see `dagger datasets`) or a CSV file with a header.
    By default the costs are total path length and misclassifications (the paper's F and G).
    """
    from . import output as out
    from .costs import check_pair
    from .engine import relate as run
    from .safeio import write_file

    check_pair(x_cost, y_cost)
    max_x, max_y = _bounds(x_cost, y_cost, max_x, max_y, max_mis, max_tpl)
    output, plot_path = _relate_outputs(
        table, example, output, plot, trees_dir, kind, x_cost, y_cost
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
        from .greedy import compare, comparison_text, greedy_points

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
        from .plots import figure_bytes, plot_front

        extra = [(name, xs, ys) for name, (xs, ys) in points.items()] if points else None
        fig = plot_front(
            shown,
            kind=kind,
            drop_base=drop_base,
            table_name=tab.name,
            n_rows=tab.n_rows,
            n_attributes=tab.n_attributes,
            extra=extra,
        )
        written.append((plot_path, figure_bytes(fig, _extension(plot_path, "png"))))
    if trees_dir is not None:
        from .safeio import make_folder

        make_folder(trees_dir)
    for path, data in written:
        write_file(path, data)
    if output is not None and not quiet:
        _echo_err(f"wrote {len(shown)} point(s) to {output}")
    if trees_dir is not None and not quiet:
        _echo_err(f"wrote the trees of {len(front)} point(s) to {trees_dir}/")
    if plot_path is not None and not quiet:
        _echo_err(f"wrote {plot_path}")
    st = rel.stats if stats else None
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


def _tree_files(rel, folder: Path):
    from .trees import extract_tree

    width = len(str(len(rel.front)))
    for k, (a, b) in enumerate(rel.front.points()):
        tree = extract_tree(rel, k)
        stem = f"point-{k:0{width}d}-{rel.front.x_cost.column}-{a}-{rel.front.y_cost.column}-{b}"
        yield folder / f"{stem}.json", tree.to_json()
        yield folder / f"{stem}.txt", tree.to_text()


#: Extensions of the files `tree -o` writes, and the format each means.
TREE_FORMATS = {
    "png": "png",
    "svg": "svg",
    "pdf": "pdf",
    "json": "json",
    "dot": "dot",
    "gv": "dot",
    "txt": "text",
}


def _extension(path, default: str) -> str:
    ext = Path(path).suffix.lower().lstrip(".")
    return ext or default


def _table_name(table, example) -> str:
    """The name the table will have (file stem or dataset name), known before reading it."""
    from .datasets import get_dataset, is_registered

    if example or table is None:
        return "paper-fig4"
    if is_registered(table) and not Path(table).exists():
        return get_dataset(table).name
    return Path(table).stem


def _inputs(table, example) -> list:
    """The files a command reads: the table's file, or a dataset's cached copy."""
    from .datasets import cache_path, is_registered

    if example or table is None:
        return []
    if Path(table).exists():
        return [Path(table)]
    if is_registered(table):
        return [cache_path(table)]
    return []


def _relate_outputs(table, example, output, plot, trees_dir, kind, x_cost, y_cost):
    """Check every output of `relate` before any work; return (csv path, figure path).

    ``--plot`` without a path writes the figure beside ``-o`` (same stem, ``.png``), or,
    without ``-o``, ``<table>.curve.csv`` and ``<table>.curve.png`` in the current folder:
    names that are never the input (``t.csv`` gives ``t.curve.csv``). Every path is checked
    (format from its extension, folder existing and writable, not an input, not another
    output), so a mistake costs no computation and leaves no file.
    """
    from .plots import FORMATS, check_view
    from .safeio import check_distinct, check_output, check_output_folder, is_special

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
    if trees_dir is not None:
        check_output_folder(trees_dir)
    check_distinct([output, plot_path])
    return output, plot_path


def _check_tree_output(table, example, output, fmt) -> str:
    """Check `tree -o` before any work; return the format to write."""
    from .safeio import check_output, is_special

    if is_special(output):
        check_output(output, inputs=_inputs(table, example))
        return fmt
    check_output(output, extensions=tuple(TREE_FORMATS), what="-o", inputs=_inputs(table, example))
    return TREE_FORMATS[_extension(output, "")]


@main.command(context_settings=CONTEXT)
@click.argument("table", required=False)
@table_options
@click.option("--example", is_flag=True, help="Use the paper's Fig. 4 table.")
@pair_options
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
    "--least-y",
    is_flag=True,
    help="Instead of a bound: a tree with the least y (the least x among those).",
)
@engine_options
@handle_errors
def tree(
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
    fmt,
    output,
    least_y,
    max_subtables,
    max_memory,
    quiet,
):
    """An optimal decision tree for TABLE at one point of the front.

    With --max-misclassifications K (or --max-y K): a tree with the least total path length
    (x) among trees with at most K misclassifications (y), i.e. G(K). With
    --max-total-path-length N (or --max-x N): one with the least y among trees with x <= N,
    i.e. F(N). With --least-y: one with the least y, the least x among those. Only the
    part of the front the query needs is computed. Ties are broken by a fixed rule (see
    the README).
    """
    from .costs import check_pair
    from .engine import relate as run
    from .trees import tree_for

    check_pair(x_cost, y_cost)
    max_x, max_y = _bounds(x_cost, y_cost, max_x, max_y, max_mis, max_tpl)
    if (max_x is not None) + (max_y is not None) + least_y != 1:
        raise InputError(
            "give exactly one query: --max-misclassifications/--max-y, "
            "--max-total-path-length/--max-x, or --least-y"
        )
    if output is not None:
        fmt = _check_tree_output(table, example, output, fmt)
    tab = _get_table(table, example, recipe, quiet, sep)

    def solve(cap, bounded=True):
        return run(
            tab,
            x_cost,
            y_cost,
            max_subtables=max_subtables,
            max_memory=max_memory,
            progress=not quiet,
            exact_only=exact_only,
            max_depth=cap,
            max_x=max_x if bounded else None,
            max_y=max_y if bounded else None,
            least_y=least_y,
        )

    if least_y:
        rel = solve(max_depth)
        t = tree_for(rel, max_y=int(rel.front.y[-1]))
    else:
        rel = _query_relation(solve, x_cost, y_cost, max_x, max_y, max_depth, tab.n_attributes)
        if not len(rel.front):
            # No tree within the bound: the whole front says what the least is.
            rel = solve(max_depth, bounded=False)
        t = tree_for(rel, max_x=max_x, max_y=max_y)
    _emit_tree(t, fmt, output, tab.name, quiet)


def _query_relation(solve, x_cost, y_cost, max_x, max_y, max_depth, n_attributes):
    """The relation ``tree`` needs for its one point, computed over as few trees as the
    query allows (``solve(cap)`` relates under a depth cap, None: ``max_depth``).

    When the bound is on depth (F(N) with x = depth, G(K) with y = depth), only trees of
    depth <= that bound can answer: the cap is lowered to it. When depth is the cost to
    minimise (G(K) with x = depth, F(N) with y = depth), the caps 0, 1, 2, ... are tried
    in turn (iterative deepening) and the first front with a point within the bound
    answers: it holds every tree of the least depth that qualifies. Exact either way; the
    tree may differ from the uncapped run's on a tie (the same costs)."""
    from .costs import get_cost

    x_is_depth = get_cost(x_cost).name == "depth"
    y_is_depth = get_cost(y_cost).name == "depth"
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


def _emit_tree(t, fmt: str, output: Path | None, name: str, quiet: bool, formats=None) -> None:
    """A tree to stdout in ``fmt``, or to ``output``: .png/.svg/.pdf drawn, .json/.dot/.txt
    in that format, any other name in ``fmt``. ``formats`` ({"text": function, ...})
    replaces the tree's own renderings."""
    from .safeio import write_file

    render = {"text": t.to_text, "json": t.to_json, "dot": t.to_dot, **(formats or {})}
    if output is None:
        click.echo(render[fmt](), nl=False)
        return
    if fmt in ("png", "svg", "pdf"):
        from .plots import draw_tree, figure_bytes

        data = figure_bytes(draw_tree(t, title=f"{name}: {_costs_line(t)}"), fmt)
    else:
        data = render[fmt]()
    write_file(output, data)
    if not quiet:
        _echo_err(f"wrote {output}")


def _costs_line(t) -> str:
    """The tree's costs in one line, for a drawing's title (every cost, default pair first)."""
    from .costs import summary_costs

    c = t.costs()
    return ", ".join(f"{cost.name.replace('-', ' ')} {c[cost.column]}" for cost in summary_costs())


@main.command(context_settings=CONTEXT)
@click.argument("table", required=False)
@table_options
@click.option("--example", is_flag=True, help="Use the paper's Fig. 4 table.")
@click.option(
    "--order",
    required=True,
    metavar="C1,C2,...",
    help="Costs to minimise in stages, first stage first, e.g. "
    "misclassifications,depth,total-path-length (any of depth, total-path-length, nodes, "
    "leaves, misclassifications).",
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
    table,
    recipe,
    sep,
    example,
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

    from .counting import check_order
    from .counting import optimize as run

    check_order(order)
    if output is not None:
        fmt = _check_tree_output(table, example, output, fmt)
    tab = _get_table(table, example, recipe, quiet, sep)
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

    def text():
        return res.to_text() + "\n" + t.to_text()

    def as_json():
        from .counting import _int_digits

        _int_digits()
        return json.dumps(res.as_dict(), indent=2) + "\n"

    _emit_tree(t, fmt, output, tab.name, quiet, formats={"text": text, "json": as_json})
    if output is not None:
        click.echo(res.to_text(), nl=False)


@main.group(context_settings=CONTEXT)
def example():
    """Write classic decision tables (CSV) to try dagger on."""


@example.command(name="sorting", context_settings=CONTEXT)
@click.argument("n", type=int)
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Where to write the table (default: sorting<N>.csv; '-': stdout).",
)
@click.option("--force", is_flag=True, help="Replace an existing file with other content.")
@handle_errors
def example_sorting(n, output, force):
    """The table of sorting N distinct elements by pairwise comparisons.

    Rows: the N! orders; attributes: the N(N-1)/2 comparisons xi<xj (1 if it holds, else
    0); decision: the order. A tree without misclassification (relate/optimize
    --exact-only) is a comparison sort.
    """
    from .families import sorting_csv
    from .safeio import check_output, write_file

    if output is not None and str(output) == "-":
        click.echo(sorting_csv(n), nl=False)
        return
    path = output or Path(f"sorting{n}.csv")
    check_output(path, extensions=("csv",), what="-o")
    data = sorting_csv(n)
    if path.exists() and not force:
        try:
            same = path.read_text(encoding="utf-8") == data
        except (OSError, UnicodeDecodeError):
            same = False
        if not same:
            raise InputError(f"{path}: exists with other content; use --force to replace it")
    write_file(path, data)
    _echo_err(f"wrote {path}: {data.count(chr(10)) - 1} rows, {n * (n - 1) // 2} attributes")


@main.command(context_settings=CONTEXT)
@click.argument("names", nargs=-1)
@click.option("--all", "fetch_all", is_flag=True, help="Fetch every registered dataset.")
@click.option(
    "--suite",
    type=click.Choice(["uci", "odt"]),
    help="Fetch every dataset of a suite: uci (the paper's four tables) or odt (the 12 "
    "tables of the optimal-decision-tree benchmark).",
)
@click.option(
    "--data-home",
    type=click.Path(file_okay=False, path_type=Path),
    help="Cache folder (default: $DAGGER_DATA, else the user cache, e.g. ~/.cache/dagger).",
)
@click.option(
    "--mirror",
    metavar="URL",
    help="Base URL instead of the source's (http(s)://, file:// or a folder); default "
    "$DAGGER_UCI_MIRROR (uci) or $DAGGER_ODT_MIRROR (odt).",
)
@click.option(
    "--offline",
    is_flag=True,
    default=None,
    help="Never touch the network (also DAGGER_OFFLINE=1): succeed only from the cache.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=0.1),
    default=30.0,
    show_default=True,
    help="Seconds to wait for the server to connect or send data.",
)
@handle_errors
def fetch(names, fetch_all, suite, data_home, mirror, offline, timeout):
    """Download registered datasets into the cache and verify their checksums."""
    from . import datasets

    if bool(fetch_all) + bool(names) + bool(suite) != 1:
        raise InputError("give dataset NAMES, --suite NAME or --all (see `dagger datasets`)")
    if fetch_all:
        todo = list(datasets.REGISTRY)
    elif suite:
        todo = [n for n, ds in datasets.REGISTRY.items() if ds.suite == suite]
    else:
        todo = [datasets.get_dataset(n).name for n in names]
    for name in todo:
        path = datasets.fetch(
            name, data_home=data_home, mirror=mirror, offline=offline, timeout=timeout
        )
        click.echo(f"{name}: {path}")


@main.command(name="datasets", context_settings=CONTEXT)
@click.option(
    "--data-home", type=click.Path(file_okay=False, path_type=Path), help="Cache folder to look in."
)
@handle_errors
def datasets_cmd(data_home):
    """List the registered datasets (never touches the network)."""
    from .datasets import dataset_table_rows

    rows = dataset_table_rows(data_home)
    head = ["name", "rows", "attributes", "classes", "cached", "source"]
    cells = [head] + [
        [
            r["name"],
            str(r["rows"]),
            str(r["attributes"]),
            str(r["classes"]),
            "yes" if r["cached"] else "no",
            r["url"],
        ]
        for r in rows
    ]
    widths = [max(len(c[j]) for c in cells) for j in range(len(head) - 1)]
    for c in cells:
        click.echo("  ".join([v.ljust(w) for v, w in zip(c, widths)] + [c[-1]]))


@main.command(context_settings=CONTEXT)
@click.argument("table")
@table_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the prepared table here (default: stdout).",
)
@handle_errors
def prepare(table, recipe, sep, output):
    """Write the decision table after preprocessing, as CSV (decision column last).

    This is exactly the table `relate` computes on.
    """
    from .csvfast import write_prepared
    from .safeio import atomic_write, check_output

    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=_inputs(table, False))
    tab = load_table(table, recipe, sep=sep)
    with atomic_write("-" if output is None else output, "wb") as fh:
        write_prepared(tab, fh)
    if output is not None:
        _echo_err(f"wrote {tab.n_rows} rows x {tab.n_attributes + 1} columns to {output}")


@main.command(context_settings=CONTEXT)
@click.argument("study_file", metavar="STUDY.toml", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for curves/, results.csv (and plots/).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    metavar="N",
    help="Worker processes of the local cluster (default: one per core).",
)
@click.option(
    "--threads",
    type=click.IntRange(min=1),
    metavar="T",
    help="Engine threads per task (default: a machine's cores over its worker threads).",
)
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run on an existing Dask cluster (e.g. tcp://10.0.0.5:8786) instead of a local one.",
)
@click.option(
    "--max-subtables",
    type=click.IntRange(min=1),
    metavar="N",
    help="A task whose DAG has more subtables fails with a limit (recorded; the rest goes on).",
)
@click.option(
    "--max-memory",
    metavar="SIZE",
    help="Memory per task for the engine (default: 70% of a worker's share of the machine).",
)
@click.option("--plot", is_flag=True, help="Also draw a grid of fronts per table in plots/.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary on stderr.")
@handle_errors
def study(study_file, output, workers, threads, scheduler, max_subtables, max_memory, plot, quiet):
    """Run every combination of a study's tables, cost pairs and depth caps on Dask.

    STUDY.toml lists `tables` (dataset names, CSV paths, {suite = "uci"}), `pairs` of costs
    and optional `max_depth` caps (see the README). Each curve goes to
    OUTPUT/curves/<table>__<x>__<y>[__d<D>].csv, byte for byte what `dagger relate -o`
    writes, and one row per task to OUTPUT/results.csv. A re-run skips the tasks whose
    curves are up to date. Exit 1 when some tasks failed (see results.csv).
    """
    from .engine import parse_size
    from .study import parse_study, plot_study, require_dask, run_study

    if workers is not None and scheduler is not None:
        raise InputError("--workers sizes the local cluster; with --scheduler it is already sized")
    require_dask()
    spec = parse_study(study_file)
    try:
        outcome = run_study(
            spec,
            output,
            workers=workers,
            threads=threads,
            scheduler=scheduler,
            max_memory=parse_size(max_memory),
            max_subtables=max_subtables,
            progress=not quiet,
        )
    except KeyboardInterrupt:
        _echo_err(f"interrupted; finished results are in {output}/ (re-run to resume)")
        sys.exit(130)
    if plot:
        for path in plot_study(outcome, output):
            if not quiet:
                _echo_err(f"wrote {path}")
    if not quiet:
        summary = ", ".join(f"{n} {s}" for s, n in sorted(outcome.counts.items()))
        _echo_err(
            f"study: {len(outcome.rows)} task(s): {summary} in {outcome.seconds:.1f} s; "
            f"see {outcome.results}"
        )
    if outcome.failed:
        _echo_err(f"{outcome.failed} task(s) failed; their errors are in {outcome.results}")
        sys.exit(1)


@main.command(context_settings=CONTEXT)
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
    "--max-subtables",
    type=click.IntRange(min=1),
    metavar="N",
    help="Stop with a message if a DAG has more than N subtables.",
)
@click.option("--quiet", "-q", is_flag=True, help="Nothing on stderr but errors.")
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
    max_subtables,
    quiet,
):
    """Held-out error along the front: K stratified folds of TABLE, or a --test file.

    For every fold, the front on its training part and, for each point, the tree's errors
    on the held-out rows. CSV columns: fold, the x cost (and average_depth),
    misclassifications (training), train_rows, heldout_rows, heldout_errors.
    """
    from . import validate as val
    from .plots import FORMATS
    from .safeio import check_distinct, check_output, write_file
    from .table import parse_separator

    if (folds is None) == (test_file is None):
        raise InputError("give either --folds K or --test FILE")
    inputs = _inputs(table, False) + ([test_file] if test_file is not None else [])
    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=inputs)
    if plot is not None:
        check_output(plot, extensions=FORMATS, what="--plot", inputs=inputs)
    check_distinct([output, plot])
    sep = None if sep is None else parse_separator(sep)
    # Held-out rows are all counted, so training rows are too: equal rows stay unless the
    # user asks for merging (training error rates then compare with held-out ones).
    from .recipe import Recipe

    raw = val.read_raw(table, Recipe.of(recipe, duplicates=recipe.duplicates or "keep"), sep=sep)
    test = val.read_raw(test_file, file_only=True, sep=sep) if test_file is not None else None
    results = val.validate(
        raw,
        folds=folds,
        seed=seed,
        test=test,
        x=x_cost,
        max_depth=max_depth,
        max_subtables=max_subtables,
    )
    text = val.results_csv(results)
    if output is None:
        click.echo(text, nl=False)
    else:
        write_file(output, text)
        if not quiet:
            _echo_err(
                f"wrote {text.count(chr(10)) - 1} point(s) of {len(results)} fold(s) to {output}"
            )
    if plot is not None:
        from .plots import PlotError, plot_validation, save_figure

        cap = "" if max_depth is None else f", depth <= {max_depth}"
        how = f"{folds}-fold validation" if folds else f"held out: {test_file.name}"
        fig = plot_validation(results, title=f"{raw.name}: {how}{cap}")
        try:
            save_figure(fig, plot)
        except PlotError as err:
            raise InputError(str(err)) from None
        if not quiet:
            _echo_err(f"wrote {plot}")


main.add_command(importlib.import_module(".cli_rules", __package__).rules)  # imports cli

if __name__ == "__main__":  # pragma: no cover
    main()
