"""The ``dagger example`` group: classic decision tables written as CSV (``sorting``)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import InputError
from .common import CONTEXT, echo_err, handle_errors


@click.group(context_settings=CONTEXT)
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
    from ..data.families import sorting_csv
    from ..safeio import check_output, write_file

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
    echo_err(f"wrote {path}: {data.count(chr(10)) - 1} rows, {n * (n - 1) // 2} attributes")
