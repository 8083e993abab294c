"""The dataset commands: ``dagger fetch`` (download into the cache) and ``dagger datasets``."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import InputError
from .common import CONTEXT, handle_errors


@click.command(context_settings=CONTEXT)
@click.argument("names", nargs=-1)
@click.option("--all", "fetch_all", is_flag=True, help="Fetch every registered dataset.")
@click.option(
    "--suite",
    type=click.Choice(["uci", "odt", "num"]),
    help="Fetch every dataset of a suite: uci (the paper's four tables), odt (the 12 "
    "tables of the optimal-decision-tree benchmark) or num (the 6 numeric tables of "
    "ConTree's benchmark).",
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
    "$DAGGER_UCI_MIRROR (uci), $DAGGER_ODT_MIRROR (odt) or $DAGGER_NUM_MIRROR (num).",
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
    from ..data import datasets

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


@click.command(name="datasets", context_settings=CONTEXT)
@click.option(
    "--data-home", type=click.Path(file_okay=False, path_type=Path), help="Cache folder to look in."
)
@handle_errors
def datasets_cmd(data_home):
    """List the registered datasets (never touches the network)."""
    from ..data.datasets import dataset_table_rows

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
