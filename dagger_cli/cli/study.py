"""The ``dagger study`` command: many fronts from a STUDY.toml, run on Dask."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..errors import InputError
from .common import CONTEXT, EXIT_PARTIAL, echo_err, handle_errors


@click.command(context_settings=CONTEXT)
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
@click.option(
    "--report",
    is_flag=True,
    help="Also write interactive pages: OUTPUT/report/<table>.html (every front of a table, "
    "its points and trees) and OUTPUT/report/index.html.",
)
@click.option("--quiet", "-q", is_flag=True, help="No progress bar or summary on stderr.")
@handle_errors
def study(
    study_file, output, workers, threads, scheduler, max_subtables, max_memory, plot, report, quiet
):
    """Run every combination of a study's tables, cost pairs and depth caps on Dask.

    STUDY.toml lists `tables` (dataset names, CSV paths, {suite = "uci"}), `pairs` of costs
    and optional `max_depth` caps (see the README). Each curve goes to
    OUTPUT/curves/<table>__<x>__<y>[__d<D>].csv, byte for byte what `dagger relate -o`
    writes, and one row per task to OUTPUT/results.csv. A re-run skips the tasks whose
    curves are up to date. `time_limit = "5m"` gives each task that long: the best front
    found, each point marked proven or not (see `dagger relate --help`). Exit 1 when some
    tasks failed (see results.csv), 6 when some stopped at the time limit.
    """
    from ..engine import parse_size
    from ..study import parse_study, plot_study, report_study, require_dask, run_study

    if workers is not None and scheduler is not None:
        raise InputError("--workers sizes the local cluster; with --scheduler it is already sized")
    if str(output) == "-":
        raise InputError(
            "-o -: a study writes a folder (curves/, results.csv, plots/), which stdout cannot "
            "hold; give a folder name (-o results)"
        )
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
            report=report,
        )
    except KeyboardInterrupt:
        echo_err(f"interrupted; finished results are in {output}/ (re-run to resume)")
        sys.exit(130)
    if plot:
        for path in plot_study(outcome, output):
            if not quiet:
                echo_err(f"wrote {path}")
    if report:
        for path in report_study(outcome, output, spec):
            if not quiet:
                echo_err(f"wrote {path}")
    if not quiet:
        summary = ", ".join(f"{n} {s}" for s, n in sorted(outcome.counts.items()))
        echo_err(
            f"study: {len(outcome.rows)} task(s): {summary} in {outcome.seconds:.1f} s; "
            f"see {outcome.results}"
        )
    if outcome.failed:
        echo_err(f"{outcome.failed} task(s) failed; their errors are in {outcome.results}")
        sys.exit(1)
    short = sum(n for s, n in outcome.counts.items() if s in ("time_limit", "interrupted"))
    if short:
        echo_err(
            f"{short} task(s) stopped at the time limit: their curves hold the best fronts "
            "found, each point marked proven or not (a re-run computes them again)"
        )
        sys.exit(EXIT_PARTIAL)
