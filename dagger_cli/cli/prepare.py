"""The ``dagger prepare`` command: a table preprocessed once, written as CSV."""

from __future__ import annotations

from pathlib import Path

import click

from .common import (
    CONTEXT,
    echo_err,
    handle_errors,
    inputs_of,
    is_stdout,
    load_table,
    table_options,
)


@click.command(context_settings=CONTEXT)
@click.argument("table")
@table_options
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the prepared table here (default: stdout).",
)
@click.option("--quiet", "-q", is_flag=True, help="Nothing on stderr but errors.")
@handle_errors
def prepare(table, recipe, sep, output, quiet):
    """Write the decision table after preprocessing, as CSV (decision column last).

    This is exactly the table `relate` computes on; a numeric column split by
    thresholds (--thresholds) is written as its binary attributes col<=t, which read back
    give the same trees.
    """
    from ..data.csv import write_prepared
    from ..engine.memory import memory_ceiling
    from ..safeio import atomic_write, check_output

    if output is not None:
        check_output(output, extensions=("csv",), what="-o", inputs=inputs_of(table, False))
    tab = load_table(table, recipe, quiet=quiet, sep=sep)
    tab = tab.binarized(max_bytes=memory_ceiling()[0])
    with atomic_write("-" if output is None else output, "wb") as fh:
        write_prepared(tab, fh)
    if output is not None and not quiet and not is_stdout(output):
        echo_err(f"wrote {tab.n_rows} rows x {tab.n_attributes + 1} columns to {output}")
