"""What the ``dagger`` commands share: error handling, the shared options, table loading,
tree output.

:func:`handle_errors` turns dagger's errors into a message and an exit code; the option
decorators declare the options several commands take, once, and build from them the value
the core takes: :func:`source_options` a :class:`Source` (the table argument, ``--example``
and :func:`table_options`' :class:`~dagger_cli.data.recipe.Recipe`), :func:`query_options` a
:class:`~dagger_cli.engine.query.Query` (:func:`pair_options`, :func:`engine_options` and
the options of the engine), so a command receives whole values and a new option is one
entry of a group.
"""

from __future__ import annotations

import functools
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from ..errors import DaggerError, InputError

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
#: When the command line was imported: a first command's --time-limit counts from there
#: (reading the table counts, so does loading the engine).
_IMPORTED = time.perf_counter()
_COMMANDS: list[float] = []


def _command_start() -> float:
    """When the command began: the import for the process's first, else now."""
    now = time.perf_counter()
    start = now if _COMMANDS else _IMPORTED
    _COMMANDS.append(now)
    return start


#: The exit status of an answer cut short by --time-limit or a first Ctrl-C: the outputs
#: are written, each point marked proven or not (not an error: errors exit 2 to 5).
EXIT_PARTIAL = 6


def echo_err(msg: str) -> None:
    """A ``dagger: ...`` line on stderr."""
    click.echo(f"dagger: {msg}", err=True)


class DaggerGroup(click.Group):
    """The ``dagger`` group: click's own errors (an unknown option, a missing argument, a
    bad value) in dagger's one style, ``dagger: error: ...`` and the command's usage, with
    click's exit code (2); dagger's warnings as ``dagger: warning: ...`` lines."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        import warnings

        from ..engine.progress import mark_start

        mark_start(_command_start())
        plain = {"args": args, "prog_name": prog_name, "complete_var": complete_var, **extra}
        if not standalone_mode:
            return super().main(standalone_mode=False, **plain)
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning
            try:
                super().main(standalone_mode=False, **plain)
            except click.exceptions.Abort:
                echo_err("interrupted; nothing was written")
                sys.exit(130)
            except click.ClickException as err:
                echo_err(f"error: {err.format_message()}")
                ctx = getattr(err, "ctx", None)
                if ctx is not None:
                    hint = f"'{ctx.command_path} {max(ctx.help_option_names, key=len)}'"
                    click.echo(f"{ctx.get_usage()}\nTry {hint} for help.", err=True)
                sys.exit(err.exit_code)
        sys.exit(0)


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """A warning on the command line: one ``dagger: warning:`` line, no source line."""
    echo_err(f"warning: {message}")


def handle_errors(func):
    """User errors become a message and a non-zero exit, never a traceback."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except DaggerError as err:
            echo_err(f"error: {err}")
            sys.exit(err.exit_code)
        except KeyboardInterrupt:
            echo_err("interrupted; nothing was written")
            sys.exit(130)
        except MemoryError:
            echo_err(
                "error: out of memory; nothing was written. --max-memory SIZE or "
                "--max-subtables N stop a run early with an estimate of its size"
            )
            sys.exit(3)
        except BrokenPipeError:
            sys.exit(0)
        except OSError as err:  # an I/O failure no layer below turned into a DaggerError
            where = f"{err.filename}: " if err.filename else ""
            echo_err(f"error: {where}{err.strerror or err}")
            sys.exit(5)

    return wrapper


def table_options(func):
    """Options shared by every command that reads a decision table.

    They arrive as one :class:`~dagger_cli.data.recipe.Recipe` in the command's ``recipe``
    argument, so every command hands the table builder the whole recipe and none can drop
    an option on the way.
    """
    from ..data.recipe import DUPLICATES_CHOICES, FIELDS, MISSING_CHOICES, Recipe

    @functools.wraps(func)
    @handle_errors
    def with_recipe(**kwargs):
        given = {k: kwargs.pop(k) for k in sorted(FIELDS & set(kwargs))}
        given["drop"] = tuple(given.get("drop") or ()) or None  # not given: the table's own
        given["drop_unlabeled"] = given.get("drop_unlabeled") or None  # a flag: True or unset
        return func(recipe=Recipe.of(**given), **kwargs)

    opts = [
        click.option(
            "--decision",
            metavar="COL",
            default=None,
            help=(
                "Decision column (default: the last column left after --drop and --weight; "
                "a registered dataset's own)."
            ),
        ),
        click.option(
            "--drop",
            metavar="COL",
            multiple=True,
            help="Drop this column before anything else (repeatable).",
        ),
        click.option(
            "--drop-unlabeled",
            is_flag=True,
            help="Leave out the rows without a decision (a missing value in the decision "
            "column); without it such rows are refused.",
        ),
        click.option(
            "--missing",
            type=click.Choice(MISSING_CHOICES),
            default=None,
            help="Missing values (?, empty, NA): fill with the column's most common value, a "
            "numeric column's under --thresholds or --bins with its median (mode, default), "
            "keep as a value of their own '?' (value), or refuse (error).",
        ),
        click.option(
            "--duplicates",
            type=click.Choice(DUPLICATES_CHOICES),
            default=None,
            help="Equal rows (on every attribute, as prepared): keep them all, so that "
            "every count is of the rows read (keep, default), or merge them into one row "
            "with their most common decision (merge: the paper's convention, the default "
            "of its registered tables).",
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
        click.option(
            "--weight",
            metavar="COL",
            default=None,
            help="Row weights: a column of positive numbers, not an attribute (a row of "
            "weight k counts as k copies of it in total path length and misclassifications; "
            "decimals are exact).",
        ),
        click.option(
            "--class-weight",
            metavar="balanced|CLASS=W,...",
            default=None,
            help="Class weights: 'balanced' (scikit-learn's: rows / (classes x rows of the "
            "class)) or weights per class, e.g. 'yes=5' (others weigh 1).",
        ),
        click.option(
            "--min-leaf",
            type=click.IntRange(min=1),
            default=None,
            metavar="K",
            help="Only trees whose every leaf holds at least K rows (with misclassifications, "
            "false positives or false negatives among the costs).",
        ),
        click.option(
            "--positive",
            metavar="CLASS",
            default=None,
            help="The positive class of the costs false-positives and false-negatives (the "
            "others are negative; default on a two-class table: its second class).",
        ),
        click.option(
            "--cost-matrix",
            metavar="FILE",
            default=None,
            help="Prices of errors: a CSV whose first column names the true class and whose "
            "header the predicted classes; a leaf takes the decision of least price and "
            "misclassifications is the priced sum.",
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
        from ..data.thresholds import parse_spec

        try:
            return parse_spec(value)
        except InputError as err:
            self.fail(str(err), param, ctx)


class EngineChoice(click.Choice):
    """``--engine``: the solvers of :data:`dagger_cli.engine.registry.SOLVERS`, by name.

    The names are read from the registry when first needed (a command's help or a run),
    not when the command line is built: importing the engine costs a tenth of a second
    that ``dagger --help`` or ``dagger datasets`` need not pay."""

    def __init__(self) -> None:
        super().__init__(())

    @property
    def choices(self):
        from ..engine.registry import ENGINES

        return ENGINES

    @choices.setter
    def choices(self, value) -> None:
        pass  # click.Choice.__init__ sets them; they are the registry's


def load_table(source: str, recipe, *, quiet: bool = False, sep: str | None = None):
    """A registered dataset name or a CSV path -> prepared DecisionTable (report on stderr)."""
    from ..data.datasets import resolve_table
    from ..data.table import parse_separator

    table = resolve_table(source, recipe, sep=None if sep is None else parse_separator(sep))
    if not quiet:
        for line in table.report.lines():
            echo_err(f"{table.name}: {line}")
    return table


@dataclass(frozen=True)
class Source:
    """The table a command reads, as the command line names it: a registered dataset or a
    CSV file (``table``), or the paper's example (``example``), prepared by ``recipe``."""

    table: str | None
    example: bool
    recipe: Any
    sep: str | None = None

    def load(self, quiet: bool = False):
        """The prepared :class:`~dagger_cli.data.table.DecisionTable` (its report on
        stderr unless ``quiet``)."""
        return get_table(self.table, self.example, self.recipe, quiet, self.sep)

    def inputs(self) -> list:
        """The files it reads (outputs may never be one of them)."""
        return inputs_of(self.table, self.example)

    @property
    def name(self) -> str:
        """The name the table will have (file stem or dataset name), known before reading
        it."""
        from ..data.datasets import get_dataset, is_registered

        if self.example or self.table is None:
            return "paper-fig4"
        if is_registered(self.table) and not Path(self.table).exists():
            return get_dataset(self.table).name
        from ..data.compression import stem

        return stem(self.table)


def source_options(func):
    """The table argument, :func:`table_options` and ``--example`` as one :class:`Source`
    (the command's ``source`` argument)."""

    def build(table, example, recipe, sep=None, quiet=False) -> Source:
        if example == (table is not None):
            raise InputError("give either a TABLE (CSV path or dataset name) or --example")
        return Source(table, example, recipe, sep)

    opts = [
        click.argument("table", required=False),
        click.option("--example", is_flag=True, help="Use the paper's Fig. 4 table."),
    ]
    keys = ["table", "example"]

    def decorate(f):
        @functools.wraps(f)
        @handle_errors
        def wrapper(**kwargs):
            given = {k: kwargs.pop(k) for k in [*keys, "recipe", "sep"]}
            kwargs["source"] = build(**given)
            return f(**kwargs)

        wrapped = table_options(wrapper)
        for opt in reversed(opts):
            wrapped = opt(wrapped)
        return wrapped

    return decorate(func)


class DurationType(click.ParamType):
    """A duration: ``90s``, ``5m``, ``1.5h`` or seconds."""

    name = "DURATION"

    def convert(self, value, param, ctx):
        from ..engine.query import parse_duration

        try:
            return parse_duration(value)
        except InputError as err:
            self.fail(str(err), param, ctx)


def time_limit_option(func):
    """``--time-limit DURATION``: the best answer found in time (see its help)."""
    return click.option(
        "--time-limit",
        type=DurationType(),
        default=None,
        metavar="DURATION",
        help="Stop after DURATION (90s, 5m, 1.5h) with the best front found: greedy and "
        "shallower trees at once, then exact fronts over deeper and deeper trees; every "
        "point a real tree, marked proven (on the exact front) or not, with a bound below "
        "every tree and each point's gap to it. A first Ctrl-C does the same. Exit status "
        f"{EXIT_PARTIAL} when it stopped short (the outputs are written); a limit long enough "
        "gives the exact answer, byte for byte.",
    )(func)


def exit_if_partial(relation, quiet: bool) -> None:
    """After the outputs of an answer cut short (time limit, Ctrl-C): say so on stderr and
    exit with :data:`EXIT_PARTIAL`."""
    if relation.status == "exact":
        return
    if not quiet:
        from ..output import anytime_summary

        echo_err(str(anytime_summary(relation)))
    sys.exit(EXIT_PARTIAL)


def query_options(
    *,
    engine: bool = False,
    count: bool = False,
    least_y: bool = False,
    time_limit: bool = True,
    cluster: bool = False,
):
    """:func:`pair_options` and :func:`engine_options` (and, when asked, ``--engine``,
    ``--count`` and ``--least-y``) as one :class:`~dagger_cli.engine.query.Query` (the
    command's ``query`` argument; ``quiet`` stays an argument of its own): the named bounds
    folded into the pair's (:func:`fold_bounds`), progress unless ``--quiet``."""
    extra = []
    if engine:
        extra.append(
            click.option(
                "--engine",
                type=EngineChoice(),
                default="fast",
                show_default=True,
                help=_engines_help(),
            )
        )
    if least_y:
        extra.append(
            click.option(
                "--least-y",
                is_flag=True,
                help="Only the point of least y (least x among those trees): the end of the "
                "front, computed alone (faster).",
            )
        )
    if time_limit:
        extra.append(time_limit_option)
    if cluster:
        extra.append(
            click.option(
                "--scheduler",
                default=None,
                metavar="ADDRESS|local",
                help="Run the search across a Dask cluster: the scheduler at ADDRESS "
                "(tcp://host:port), or 'local' for worker processes on this machine. Under "
                "--max-depth: on numeric columns (--thresholds, --x depth) the least "
                "misclassifications at each depth, otherwise the last two levels of the DAG "
                "of subtables (any cost pair), cut into pieces that the workers share; the "
                "answer is the one-process answer. Needs dagger-cli[dask].",
            )
        )
        extra.append(
            click.option(
                "--workers",
                type=int,
                default=None,
                metavar="N",
                help="With --scheduler local: N worker processes (default: one per core).",
            )
        )
    if count:
        extra.append(
            click.option(
                "--count",
                is_flag=True,
                help="Add a column 'trees': the number of trees at each point (exact; the text "
                "abbreviates huge counts).",
            )
        )

    def build(x_cost, y_cost, max_x, max_y, max_mis, max_tpl, exact_only, max_depth, **rest):
        from ..costs import check_pair
        from ..engine.query import Query

        check_pair(x_cost, y_cost)
        max_x, max_y = fold_bounds(x_cost, y_cost, max_x, max_y, max_mis, max_tpl)
        return Query(
            x_cost,
            y_cost,
            engine=rest.get("engine", "fast"),
            max_depth=max_depth,
            max_x=max_x,
            max_y=max_y,
            least_y=rest.get("least_y", False),
            count=rest.get("count", False),
            exact_only=exact_only,
            max_subtables=rest["max_subtables"],
            max_memory=rest["max_memory"],
            progress=not rest["quiet"],
            time_limit=rest.get("time_limit"),
            scheduler=rest.get("scheduler"),
            workers=rest.get("workers"),
        )

    def decorate(func):
        keys = ["x_cost", "y_cost", "max_x", "max_y", "max_mis", "max_tpl", "exact_only"]
        keys += ["max_depth", "engine", "least_y", "count", "max_subtables", "max_memory"]
        keys += ["time_limit", "scheduler", "workers"]

        @functools.wraps(func)
        @handle_errors
        def wrapper(**kwargs):
            given = {k: kwargs.pop(k) for k in keys if k in kwargs}
            kwargs["query"] = build(**given, quiet=kwargs["quiet"])
            return func(**kwargs)

        wrapped = wrapper
        for opt in reversed(extra):
            wrapped = opt(wrapped)
        return pair_options(engine_options(wrapped))

    return decorate


def _engines_help() -> str:
    from ..engine.registry import engines_help

    return engines_help()


def pair_options(func):
    """--x/--y cost pair and the bounds that query it."""
    from ..costs import COSTS, DEFAULT_X, DEFAULT_Y

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


def fold_bounds(x_cost, y_cost, max_x, max_y, max_mis, max_tpl):
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


def get_table(table, example, recipe, quiet, sep=None):
    if example == (table is not None):
        raise InputError("give either a TABLE (CSV path or dataset name) or --example")
    if example:
        from ..data.recipe import Recipe
        from ..data.table import example_table

        if recipe != Recipe() or sep is not None:
            raise InputError(
                "--example is the paper's table as it is; the table options "
                "(--decision, --drop, --missing, --duplicates, --bins, --sep, --weight, ...) "
                "apply to a TABLE"
            )

        return example_table()
    return load_table(table, recipe, quiet=quiet, sep=sep)


TREE_FORMATS = {
    "png": "png",
    "svg": "svg",
    "pdf": "pdf",
    "json": "json",
    "dot": "dot",
    "gv": "dot",
    "txt": "text",
}


def extension(path, default: str) -> str:
    ext = Path(path).suffix.lower().lstrip(".")
    return ext or default


def is_stdout(output) -> bool:
    """Whether an output option names standard output (``-o -``): then its content is all
    that goes to stdout, byte for byte what a file of that name would hold."""
    from ..safeio import STDOUT

    return output is not None and str(output) == STDOUT


def output_name(output) -> str:
    """An output's name in messages ("stdout" for ``-``)."""
    return "stdout" if is_stdout(output) else str(output)


def inputs_of(table, example) -> list:
    """The files a command reads: the table's file, or a dataset's cached copy."""
    from ..data.datasets import cache_path, is_registered

    if example or table is None:
        return []
    if Path(table).exists():
        return [Path(table)]
    if is_registered(table):
        return [cache_path(table)]
    return []


def check_tree_output(table, example, output, fmt) -> str:
    """Check `tree -o` before any work; return the format to write."""
    from ..safeio import check_output, is_special

    if is_special(output):
        check_output(output, inputs=inputs_of(table, example))
        return fmt
    check_output(
        output, extensions=tuple(TREE_FORMATS), what="-o", inputs=inputs_of(table, example)
    )
    return TREE_FORMATS[extension(output, "")]


def emit_tree(
    t, fmt: str, output: Path | None, name: str, quiet: bool, formats=None, note=None
) -> None:
    """A tree to stdout in ``fmt``, or to ``output``: .png/.svg/.pdf drawn, .json/.dot/.txt
    in that format, any other name in ``fmt``. ``formats`` ({"text": function, ...})
    replaces the tree's own renderings (``t`` None: only those). ``note`` (``(text, {json
    fields})``, e.g. a tree not proven optimal) goes into every format: a comment line under
    the costs (text), a comment (DOT), fields (JSON), the title (a drawing)."""
    from ..safeio import write_file

    own = {} if t is None else {"text": t.to_text, "json": t.to_json, "dot": t.to_dot}
    render = {**own, **(formats or {})}
    if note is not None:
        render = _with_note(render, *note)
    if output is None:
        click.echo(render[fmt](), nl=False)
        return
    if fmt in ("png", "svg", "pdf"):
        from ..plots import draw_tree, figure_bytes

        title = f"{name}: {_costs_line(t)}" + (f"\n{note[0]}" if note is not None else "")
        data = figure_bytes(draw_tree(t, title=title), fmt)
    else:
        data = render[fmt]()
    write_file(output, data)
    if not quiet and not is_stdout(output):
        echo_err(f"wrote {output}")


def _with_note(render: dict, text: str, fields: dict) -> dict:
    """The renderings of :func:`emit_tree` with a note in each."""
    import json

    def plain():
        head, _, rest = render["text"]().partition("\n")
        return f"{head}\n# {text}\n{rest}"

    def doc():
        return json.dumps({**json.loads(render["json"]()), **fields}, indent=2) + "\n"

    def dot():
        return f"// {text}\n{render['dot']()}"

    return {**render, "text": plain, "json": doc, "dot": dot}


def _costs_line(t) -> str:
    """The tree's costs in one line, for a drawing's title (every cost, default pair first)."""
    from ..costs import summary_costs

    c = t.costs()
    return ", ".join(
        f"{cost.name.replace('-', ' ')} {c[cost.column]}"
        for cost in summary_costs()
        if cost.column in c
    )
