"""The ``dagger`` command line: parse options, call the core, print, map errors to exit codes.

This is the only module that imports click.
"""

from __future__ import annotations

import functools
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
        except BrokenPipeError:
            sys.exit(0)

    return wrapper


def table_options(func):
    """Options shared by every command that reads a decision table."""
    opts = [
        click.option("--decision", metavar="COL", default=None,
                     help="Decision column (default: the last column; a registered dataset's own)."),
        click.option("--drop", metavar="COL", multiple=True,
                     help="Drop this column before anything else (repeatable)."),
        click.option("--missing", type=click.Choice(["mode", "value", "error"]), default=None,
                     help="Missing values (?, empty, NA): fill with the column's most common value "
                          "(mode, default), keep as a value of their own '?' (value), or refuse (error)."),
        click.option("--duplicates", type=click.Choice(["merge", "keep"]), default=None,
                     help="Equal rows: merge into one row with the most common decision (merge, "
                          "default) or keep them all (keep)."),
        click.option("--bins", type=click.IntRange(min=2), default=None, metavar="K",
                     help="Discretize numeric columns with more than K distinct values into K "
                          "equal-frequency bins."),
    ]
    for opt in reversed(opts):
        func = opt(func)
    return func


def load_table(source: str, *, decision=None, drop=(), missing=None, duplicates=None, bins=None,
               quiet=False):
    """A registered dataset name or a CSV path -> prepared DecisionTable (report on stderr)."""
    from .datasets import resolve_table

    table = resolve_table(source, decision=decision, drop=tuple(drop) or None, missing=missing,
                          duplicates=duplicates, bins=bins)
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


@main.command(context_settings=CONTEXT)
@click.argument("table", required=False)
@table_options
@click.option("--example", is_flag=True, help="Use the paper's Fig. 4 table (4 rows, 3 attributes).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the front as CSV to this file.")
@click.option("--format", "fmt", type=click.Choice(["text", "csv", "json"]), default="text",
              show_default=True, help="Format of what is printed on stdout.")
@click.option("--max-misclassifications", "max_mis", type=click.IntRange(min=0), metavar="K",
              help="Answer G(K): the least total path length among trees with at most K "
                   "misclassifications; print only points with misclassifications <= K.")
@click.option("--max-total-path-length", "max_tpl", type=click.IntRange(min=0), metavar="N",
              help="Answer F(N): the least number of misclassifications among trees with total "
                   "path length <= N; print only points with total path length <= N.")
@click.option("--stats", is_flag=True, help="Also print the DAG's size (subtables, bundles, edges).")
@click.option("--engine", type=click.Choice(["fast", "baseline", "paper"]), default="fast",
              show_default=True, help="fast: compiled kernels; baseline: plain recursion (slow "
                                      "oracle); paper: the paper's dense algorithm (small tables).")
@click.option("--max-subtables", type=click.IntRange(min=1), metavar="N",
              help="Stop with a message if the DAG has more than N subtables.")
@click.option("--max-memory", metavar="SIZE", help="Stop with a message if the engine needs more "
                                                   "memory than SIZE (e.g. 500M, 2G).")
@click.option("--quiet", "-q", is_flag=True, help="No preprocessing report or progress on stderr.")
@handle_errors
def relate(table, decision, drop, missing, duplicates, bins, example, output, fmt, max_mis,
           max_tpl, stats, engine, max_subtables, max_memory, quiet):
    """Pareto-optimal (total path length, misclassifications) points of TABLE.

    TABLE is a registered dataset name (see `dagger datasets`) or a CSV file with a header.
    """
    from . import output as out
    from .engine import relate as run

    if example == (table is not None):
        raise InputError("give either a TABLE (CSV path or dataset name) or --example")
    if example:
        from .table import example_table

        tab = example_table()
    else:
        tab = load_table(table, decision=decision, drop=drop, missing=missing,
                         duplicates=duplicates, bins=bins, quiet=quiet)
    rel = run(tab, engine=engine, max_subtables=max_subtables, max_memory=max_memory,
              progress=not quiet)
    front = rel.front
    queries = {}
    if max_mis is not None:
        queries["G"] = {"function": "G", "bound": max_mis, "value": front.least_x(max_mis),
                        "of": front.x_cost.name, "given": front.y_cost.name}
    if max_tpl is not None:
        queries["F"] = {"function": "F", "bound": max_tpl, "value": front.least_y(max_tpl),
                        "of": front.y_cost.name, "given": front.x_cost.name}
    shown = front.restrict(x_max=max_tpl, y_max=max_mis)
    if output is not None:
        out.atomic_write(output, out.front_csv(shown))
        if not quiet:
            _echo_err(f"wrote {len(shown)} point(s) to {output}")
    st = rel.stats if stats else None
    if fmt == "csv":
        click.echo(out.front_csv(shown), nl=False)
        if st is not None:
            _echo_err(out.front_text(shown.restrict(x_max=-1), stats=st).splitlines()[-1])
    elif fmt == "json":
        click.echo(out.front_json(shown, table=tab, stats=st, engine=engine, queries=queries or None),
                   nl=False)
    else:
        click.echo(out.front_text(shown, table=tab, stats=st, queries=queries), nl=False)


@main.command(context_settings=CONTEXT)
@click.argument("names", nargs=-1)
@click.option("--all", "fetch_all", is_flag=True, help="Fetch every registered dataset.")
@click.option("--data-home", type=click.Path(file_okay=False, path_type=Path),
              help="Cache folder (default: $DAGGER_DATA, else the user cache, e.g. ~/.cache/dagger).")
@click.option("--mirror", metavar="URL",
              help="Base URL instead of UCI's (http(s)://, file:// or a folder); default "
                   "$DAGGER_UCI_MIRROR.")
@click.option("--offline", is_flag=True, default=None,
              help="Never touch the network (also DAGGER_OFFLINE=1): succeed only from the cache.")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="Seconds to wait for the server to connect or send data.")
@handle_errors
def fetch(names, fetch_all, data_home, mirror, offline, timeout):
    """Download registered datasets into the cache and verify their checksums."""
    from . import datasets

    if fetch_all == bool(names):
        raise InputError("give dataset NAMES or --all (see `dagger datasets`)")
    todo = list(datasets.REGISTRY) if fetch_all else [datasets.get_dataset(n).name for n in names]
    for name in todo:
        path = datasets.fetch(name, data_home=data_home, mirror=mirror, offline=offline,
                              timeout=timeout)
        click.echo(f"{name}: {path}")


@main.command(name="datasets", context_settings=CONTEXT)
@click.option("--data-home", type=click.Path(file_okay=False, path_type=Path),
              help="Cache folder to look in.")
@handle_errors
def datasets_cmd(data_home):
    """List the registered datasets (never touches the network)."""
    from .datasets import dataset_table_rows

    rows = dataset_table_rows(data_home)
    head = ["name", "rows", "attributes", "classes", "cached", "source"]
    cells = [head] + [[r["name"], str(r["rows"]), str(r["attributes"]), str(r["classes"]),
                       "yes" if r["cached"] else "no", r["url"]] for r in rows]
    widths = [max(len(c[j]) for c in cells) for j in range(len(head) - 1)]
    for c in cells:
        click.echo("  ".join([v.ljust(w) for v, w in zip(c, widths)] + [c[-1]]))


@main.command(context_settings=CONTEXT)
@click.argument("table")
@table_options
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the prepared table here (default: stdout).")
@handle_errors
def prepare(table, decision, drop, missing, duplicates, bins, output):
    """Write the decision table after preprocessing, as CSV (decision column last).

    This is exactly the table `relate` computes on.
    """
    import csv
    import io

    from .output import atomic_write

    tab = load_table(table, decision=decision, drop=drop, missing=missing,
                     duplicates=duplicates, bins=bins)
    header, records = tab.to_records()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(records)
    if output is None:
        click.echo(buf.getvalue(), nl=False)
    else:
        atomic_write(output, buf.getvalue())
        _echo_err(f"wrote {tab.n_rows} rows x {len(header)} columns to {output}")


if __name__ == "__main__":  # pragma: no cover
    main()
