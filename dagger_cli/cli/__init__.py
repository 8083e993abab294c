"""The ``dagger`` command line: parse options, call the core, print, map errors to exit codes.

The click group :func:`main` (the ``dagger`` entry point) and one module per command or
command group: :mod:`.relate`, :mod:`.tree`, :mod:`.optimize`, :mod:`.example`,
:mod:`.fetch` (``fetch`` and ``datasets``), :mod:`.prepare`, :mod:`.study`,
:mod:`.validate`, :mod:`.rules`; what they share (:func:`handle_errors`, the option
decorators, table loading) is :mod:`.common`. This package is the only one that imports click.
"""

from __future__ import annotations

import click

from .common import (
    CONTEXT,
    DaggerGroup,
    engine_options,
    handle_errors,
    load_table,
    pair_options,
    table_options,
)
from .example import example
from .fetch import datasets_cmd, fetch
from .optimize import optimize
from .prepare import prepare
from .relate import relate
from .rules import rules
from .study import study
from .tree import tree
from .validate import validate

__all__ = [
    "CONTEXT",
    "engine_options",
    "handle_errors",
    "load_table",
    "main",
    "pair_options",
    "table_options",
]


@click.group(cls=DaggerGroup, context_settings=CONTEXT)
@click.version_option(package_name="dagger-cli", prog_name="dagger")
def main():
    """dagger: exact trade-offs between the costs of decision trees.

    For a discrete decision table, dagger builds the DAG of its separable subtables and
    computes, over every decision tree for the table, the Pareto-optimal pairs of two costs
    (by default total path length vs number of misclassifications).
    """


for _command in (
    relate,
    tree,
    optimize,
    rules,
    example,
    fetch,
    datasets_cmd,
    prepare,
    study,
    validate,
):
    main.add_command(_command)
