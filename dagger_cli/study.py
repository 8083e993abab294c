"""Studies: many tables x cost pairs x depth caps as one batch of tasks on Dask.

A study is a TOML file that declares tables, ordered cost pairs and optional depth caps;
every combination is a *task*: one ``relate`` run whose front is written exactly as
``dagger relate TABLE --x X --y Y [--max-depth D] -o curve.csv`` writes it (the same
:func:`dagger_cli.output.front_csv`, the same atomic writer). The tasks are independent,
so they run on Dask's ``distributed`` scheduler (a local cluster sized to the machine, or
an existing cluster): dagger does not schedule anything itself.

Why the pieces are where they are:

* The client prepares each table once (reading, preprocessing) and ships the prepared
  table with its tasks, so workers on other machines need neither the CSV files nor the
  dataset cache, and the content hash is computed from exactly what the engine sees.
* Workers compute; the client writes. A result reaches ``DIR`` only through the client,
  as whole files renamed into place, so an interrupted study never leaves a half-written
  curve, and workers need no shared file system.
* A curve's sidecar ``<stem>.json`` holds the content hash (prepared table bytes, the
  task's options, dagger's version). It is written after the curve, so its presence with
  an equal hash means the curve is complete and current: a re-run skips that task.
* Each worker runs one task at a time and gives the engine's threads its share of
  the cores, so workers x engine threads never oversubscribe a machine.

Dask is an optional dependency (``pip install 'dagger-cli[dask]'``); it is imported only
inside the functions that need it, so ``import dagger_cli`` stays cheap.
"""

from __future__ import annotations

import csv
import difflib
import hashlib
import io
import json
import os
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .data.recipe import Recipe
from .engine.dask_setup import (
    interrupt_after,
    local_cluster,
    machine_memory,
    quiet_dask,
    require_dask,
    workers_ignore_ctrl_c,
)
from .errors import DaggerError, InputError, LimitError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

#: Columns of ``DIR/results.csv``, in order.
RESULT_COLUMNS = (
    "table",
    "rows",
    "attributes",
    "x",
    "y",
    "max_depth",
    "points",
    "proven",
    "subtables",
    "edges",
    "seconds",
    "peak_memory_mib",
    "status",
    "error",
    "curve",
)
#: Keys a study file may have at its top level.
STUDY_KEYS = (
    "tables",
    "pairs",
    "max_depth",
    "exact_only",
    "count",
    "max_memory",
    "max_subtables",
    "time_limit",
    "split",
)
#: What a task's curve holds: the exact front ("ok"), or the best found within the study's
#: time limit (its points marked proven or not, :mod:`dagger_cli.engine.anytime`).
WITH_CURVE = ("ok", "time_limit", "interrupted")
#: The table options of a study's table entry: those of the command line's TABLE (the
#: preprocessing recipe's fields, :class:`dagger_cli.data.recipe.Recipe`, and ``sep``,
#: with the same defaults; a new field of the recipe is a table option here too).
TABLE_OPTIONS = (*(f.name for f in fields(Recipe)), "sep")
#: Keys of a table entry given as a TOML table; exactly one of the first three.
TABLE_KEYS = ("name", "path", "suite", "label", *TABLE_OPTIONS)
#: Retries of a task whose code raised (not a user error); a worker's death is retried by
#: the scheduler itself (``distributed.scheduler.allowed-failures``).
RETRIES = 2
#: Share of a worker's memory the engine's arrays may use; the rest is Python, the table
#: and the result, so a task too big fails with a LimitError, not a killed worker.
MEMORY_SHARE = 0.7
_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


class StudyError(InputError):
    """A study file that cannot be used (message names the file and line)."""


# --------------------------------------------------------------------------- the study file
@dataclass(frozen=True)
class TableSpec:
    """One table of a study: where it comes from and its preprocessing options."""

    source: str  #: a registered dataset name or an absolute CSV path
    label: str  #: file-name-safe name used in curves/ and results.csv
    options: tuple = ()  #: sorted (option, value) pairs of table options

    def load(self):
        """The prepared :class:`~dagger_cli.data.table.DecisionTable`, as ``dagger relate``
        prepares it: a dataset by its recipe, a file by ``from_csv`` (whatever the
        current folder holds: the study file decided which one this is)."""
        from .data.datasets import is_registered, load_table
        from .data.table import DecisionTable

        options = dict(self.options)
        sep = options.pop("sep", None)
        if is_registered(self.source) and not Path(self.source).is_absolute():
            return load_table(self.source, **options)
        return DecisionTable.from_csv(self.source, sep=sep, **options)


@dataclass(frozen=True)
class Task:
    """One combination: a table, an ordered cost pair and an optional depth cap."""

    table: TableSpec
    x: str
    y: str
    max_depth: int | None

    @property
    def stem(self) -> str:
        cap = "" if self.max_depth is None else f"__d{self.max_depth}"
        return f"{self.table.label}__{self.x}__{self.y}{cap}"


@dataclass(frozen=True)
class Study:
    """A parsed and validated study file (see :func:`parse_study`)."""

    path: Path
    tables: tuple[TableSpec, ...]
    pairs: tuple[tuple[str, str], ...]
    max_depths: tuple[int | None, ...] = (None,)
    exact_only: bool = False
    count: bool = False
    max_memory: int | None = None
    max_subtables: int | None = None
    #: seconds per task: the best front found in them (None: the exact front)
    time_limit: float | None = None
    #: each task's search cut into pieces across the study's cluster where the cluster
    #: runs it (:func:`run_task`'s ``split``), not one task per worker
    split: bool = False

    def tasks(self) -> list[Task]:
        """Every combination, tables outermost, in the order of the file."""
        return [
            Task(t, x, y, d) for t in self.tables for (x, y) in self.pairs for d in self.max_depths
        ]


class _Where:
    """Turns a key or value of the study file into ``FILE, line N`` for messages."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.lines = text.splitlines()

    def line_of(self, key: str, value: object = None) -> int | None:
        start = None
        for i, line in enumerate(self.lines):
            if re.match(rf"\s*(\[\[)?\s*{re.escape(key)}\s*(=|\]\])", line):
                start = i
                break
        if start is None:
            return None
        if value is not None:
            needle = json.dumps(value) if isinstance(value, str) else str(value)
            for i in range(start, len(self.lines)):
                if needle in self.lines[i]:
                    return i + 1
        return start + 1

    def error(self, key: str, message: str, value: object = None) -> StudyError:
        line = self.line_of(key, value)
        at = f", line {line}" if line is not None else ""
        return StudyError(f"{self.path}{at}: {key}: {message}")


def parse_study(path, *, has_depth_caps: bool | None = None) -> Study:
    """Read and validate a study file.

    Parameters
    ----------
    path : str or path-like
        The TOML file. CSV paths in it are relative to its folder.
    has_depth_caps : bool, optional
        Whether the engine accepts ``max_depth`` (default: look at :func:`relate`).

    Raises
    ------
    StudyError
        With the file, the line and the key when something is missing or wrong.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyError(f"{path}: no such study file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise StudyError(f"{path}: cannot read ({err})") from None
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        msg = str(err)
        at = re.search(r" \(at line (\d+), column (\d+)\)$", msg)
        if at:
            where_ = f", line {at.group(1)}, column {at.group(2)}"
            msg = msg[: at.start()]
        else:
            where_ = ""
        raise StudyError(f"{path}{where_}: not valid TOML: {msg}") from None
    where = _Where(path, text)
    for key in doc:
        if key not in STUDY_KEYS:
            close = difflib.get_close_matches(key, STUDY_KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise where.error(
                key, f"unknown key{hint}; a study has: {', '.join(STUDY_KEYS)}", value=None
            )
    if "tables" not in doc:
        raise StudyError(f'{path}: no `tables`: list the tables to study, e.g. tables = ["zoo"]')
    tables = _parse_tables(doc["tables"], path.absolute().parent, where)
    pairs = _parse_pairs(doc.get("pairs"), where)
    depths = _parse_depths(doc.get("max_depth"), where, has_depth_caps)
    exact_only = doc.get("exact_only", False)
    if not isinstance(exact_only, bool):
        raise where.error("exact_only", f"expected true or false, not {exact_only!r}")
    count = doc.get("count", False)
    if not isinstance(count, bool):
        raise where.error("count", f"expected true or false, not {count!r}")
    split = doc.get("split", False)
    if not isinstance(split, bool):
        raise where.error("split", f"expected true or false, not {split!r}")
    return Study(
        path=path,
        tables=tables,
        pairs=pairs,
        max_depths=depths,
        exact_only=exact_only,
        count=count,
        max_memory=_parse_memory(doc.get("max_memory"), where),
        max_subtables=_positive_int(doc.get("max_subtables"), "max_subtables", where),
        time_limit=_parse_time_limit(doc.get("time_limit"), where),
        split=split,
    )


def _parse_time_limit(value, where: _Where) -> float | None:
    """A task's time limit: seconds or a duration ("90s", "5m"), as --time-limit reads it."""
    if value is None:
        return None
    from .engine.query import parse_duration

    try:
        return parse_duration(value)
    except InputError as err:
        raise where.error("time_limit", str(err), value) from None


def _parse_tables(value, folder: Path, where: _Where) -> tuple[TableSpec, ...]:
    from .data.datasets import REGISTRY, SUITES, is_registered

    if not isinstance(value, list) or not value:
        raise where.error("tables", "expected a non-empty list of names, paths or tables")
    specs: list[TableSpec] = []
    for entry in value:
        if isinstance(entry, str):
            entry = {"name": entry} if _is_name(entry, folder, is_registered) else {"path": entry}
        if not isinstance(entry, dict):
            raise where.error("tables", f"expected a name, a path or a table, not {entry!r}")
        unknown = sorted(set(entry) - set(TABLE_KEYS))
        if unknown:
            raise where.error(
                "tables",
                f"unknown option {unknown[0]!r}; a table has: {', '.join(TABLE_KEYS)}",
                unknown[0],
            )
        kinds = [k for k in ("name", "path", "suite") if k in entry]
        if len(kinds) != 1:
            raise where.error("tables", "each table needs exactly one of name, path or suite")
        kind, source = kinds[0], entry[kinds[0]]
        if not isinstance(source, str) or not source:
            raise where.error("tables", f"{kind} must be a non-empty string, not {source!r}")
        options = _table_options(entry, where, source)
        if kind == "suite":
            if source not in SUITES:
                raise where.error(
                    "tables", f"unknown suite {source!r}; known: {', '.join(SUITES)}", source
                )
            if "label" in entry:
                raise where.error("tables", "a suite has several tables: no label", source)
            specs.extend(TableSpec(n, n, options) for n, d in REGISTRY.items() if d.suite == source)
            continue
        if kind == "name":
            if not is_registered(source):
                raise where.error(
                    "tables",
                    f"{source!r} is not a registered dataset (see `dagger datasets`); "
                    "give a CSV file as path = ...",
                    source,
                )
            source = source.lower()
            label = source
        else:
            full = Path(source).expanduser()
            source = str(full if full.is_absolute() else folder / full)
            label = Path(source).stem
        label = entry.get("label", label)
        if not isinstance(label, str) or not _LABEL.match(label):
            raise where.error(
                "tables",
                f"label {label!r} cannot name a file: use letters, digits, '.', '_' or '-' "
                '(set label = "...")',
                source if kind == "name" else entry[kind],
            )
        specs.append(TableSpec(source, label, options))
    seen: dict[str, TableSpec] = {}
    for spec in specs:
        if spec.label in seen:
            raise where.error(
                "tables",
                f"two tables are labelled {spec.label!r} ({seen[spec.label].source} and "
                f'{spec.source}); give one a label = "..."',
                spec.label,
            )
        seen[spec.label] = spec
    return tuple(specs)


def _is_name(text: str, folder: Path, is_registered: Callable[[str], bool]) -> bool:
    """As on the command line: an existing file wins over a dataset of the same name."""
    return is_registered(text) and not (folder / text).exists()


def _table_options(entry: dict, where: _Where, source: str) -> tuple:
    """A table entry's options, checked as the command line checks them: the recipe's
    fields by :class:`~dagger_cli.data.recipe.Recipe` (the same messages), ``sep`` by
    :func:`~dagger_cli.data.table.parse_separator`."""
    from .data.table import parse_separator

    options: dict[str, Any] = {k: entry[k] for k in TABLE_OPTIONS if k in entry}
    if "drop" in options:
        drop = options["drop"]
        drop = [drop] if isinstance(drop, str) else drop
        if not isinstance(drop, list) or not all(isinstance(c, str) for c in drop):
            raise where.error("tables", f"drop of {source!r}: expected column names", source)
        options["drop"] = tuple(drop)
    sep = options.get("sep")
    try:
        if sep is not None:
            if not isinstance(sep, str):
                raise InputError(f"sep: expected one character or tab, not {sep!r}")
            options["sep"] = parse_separator(sep)
        recipe = Recipe(**{k: v for k, v in options.items() if k != "sep"})
    except InputError as err:
        key = next((k for k in options if k in str(err)), next(iter(options), source))
        raise where.error("tables", f"{source!r}: {err}", options.get(key, source)) from None
    if recipe.thresholds is not None:
        options["thresholds"] = recipe.thresholds  # "16" read as 16, as on the command line
    return tuple(sorted(options.items()))


def _parse_pairs(value, where: _Where) -> tuple[tuple[str, str], ...]:
    from .costs import DEFAULT_X, DEFAULT_Y, ROW_COSTS, check_pair

    if value is None:
        return ((DEFAULT_X, DEFAULT_Y),)
    if value == "all":
        return tuple((x, y) for x in ROW_COSTS for y in ROW_COSTS if x != y)
    if not isinstance(value, list) or not value:
        raise where.error("pairs", 'expected "all" or a list of [x, y] cost pairs')
    pairs: list[tuple[str, str]] = []
    for pair in value:
        if not (
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(c, str) for c in pair)
        ):
            raise where.error("pairs", f"expected [x, y], two cost names, not {pair!r}")
        try:
            cx, cy = check_pair(*pair)
        except InputError as err:
            raise where.error("pairs", str(err), pair[0]) from None
        if (cx.name, cy.name) in pairs:
            raise where.error("pairs", f"[{cx.name}, {cy.name}] is listed twice", pair[0])
        pairs.append((cx.name, cy.name))
    return tuple(pairs)


def _parse_depths(value, where: _Where, has_depth_caps: bool | None) -> tuple[int | None, ...]:
    if value is None:
        return (None,)
    values = value if isinstance(value, list) else [value]
    depths: list[int | None] = []
    for v in values:
        if v == "none":
            d = None
        elif isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            d = v
        else:
            raise where.error("max_depth", f'expected integers >= 0 or "none", not {v!r}')
        if d in depths:
            raise where.error("max_depth", f"{v!r} is listed twice")
        depths.append(d)
    if not depths:
        raise where.error("max_depth", 'expected integers >= 0 or "none", not an empty list')
    if has_depth_caps is None:
        has_depth_caps = engine_has_depth_caps()
    if not has_depth_caps and any(d is not None for d in depths):
        raise where.error("max_depth", "this version of dagger has no depth caps")
    return tuple(depths)


def engine_has_depth_caps() -> bool:
    """Whether :func:`dagger_cli.engine.relate` takes ``max_depth``."""
    import inspect

    from .engine import relate

    return "max_depth" in inspect.signature(relate).parameters


def _parse_memory(value, where: _Where) -> int | None:
    from .engine import parse_size

    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise where.error("max_memory", f'expected a size such as "2G", not {value!r}')
    try:
        size = parse_size(value)
    except InputError as err:
        raise where.error("max_memory", str(err)) from None
    if size is None or size <= 0:
        raise where.error("max_memory", f"expected a positive size, not {value!r}")
    return size


def _positive_int(value, key: str, where: _Where) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise where.error(key, f"expected an integer >= 1, not {value!r}")
    return value


# --------------------------------------------------------------------------- content hash
def table_digest(table) -> str:
    """SHA-256 of the prepared table as ``dagger prepare`` writes it (decision last)."""
    header, records = table.to_records()
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(records)
    return hashlib.sha256(buf.getvalue().encode("utf-8")).hexdigest()


def task_hash(task: Task, digest: str, exact_only: bool, count: bool = False) -> str:
    """The content hash of a task's result: what the curve's bytes depend on."""
    from . import __version__

    doc = {
        "table": digest,
        "x": task.x,
        "y": task.y,
        "max_depth": task.max_depth,
        "exact_only": exact_only,
        "dagger": __version__,
    }
    if count:  # a curve with a trees column (absent: the hashes of studies without counts)
        doc["count"] = True
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()


# --------------------------------------------------------------------------- on the worker
def run_task(
    table,
    x: str,
    y: str,
    max_depth: int | None,
    *,
    exact_only: bool = False,
    count: bool = False,
    max_memory: int | None = None,
    max_subtables: int | None = None,
    threads: dict | int | None = None,
    trees: bool = False,
    time_limit: float | None = None,
    split: bool = False,
) -> dict:
    """Compute one task's front; a user error or a limit is a result, not an exception.

    Runs on a Dask worker (or anywhere). ``threads`` is the engine's thread count, or a
    mapping host -> count chosen by the client for each machine. Returns a dict with
    ``status`` ("ok", "limit" or "error"), ``csv`` (the curve, as ``dagger relate -o``
    writes it), the DAG's size, seconds and the peak memory of the process during the task;
    with ``trees``, also ``trees``: the report's data of the trees behind the front's
    points (:func:`dagger_cli.report.tree_data`, at most :data:`~dagger_cli.report.MAX_TREES`
    of them), extracted here, where the DAG is.

    With ``split``, on a Dask worker, a query that a cluster runs in pieces
    (:func:`dagger_cli.engine.api.runs_on_cluster`: depth caps, see
    :mod:`dagger_cli.engine.cluster`) sends its pieces to this worker's cluster, the task
    seceding from its worker's threads while they run (so that the pieces, and other
    tasks, get them); any other query runs here whole. The curve is the same.
    """
    from .engine.api import solve
    from .engine.query import Query
    from .output import front_csv

    _set_engine_threads(threads)
    limit = max_memory if max_memory is not None else worker_memory_budget()
    reset = _reset_peak_memory()
    t0 = time.perf_counter()
    out: dict[str, Any] = {"status": "ok", "error": ""}
    try:
        query = Query(
            x,
            y,
            max_depth=max_depth,
            max_subtables=max_subtables,
            max_memory=limit,
            exact_only=exact_only,
            count=count,
            time_limit=time_limit,
        )
        address = _own_scheduler() if split else None
        if address is not None:
            from dataclasses import replace

            from .engine.api import runs_on_cluster

            there = replace(query, scheduler=address)
            if runs_on_cluster(table, there):
                import distributed

                distributed.secede()
                try:
                    rel = solve(table, there)
                finally:
                    distributed.rejoin()
            else:
                rel = solve(table, query)
        else:
            rel = solve(table, query)
    except LimitError as err:
        out.update(status="limit", error=str(err))
    except MemoryError:
        out.update(status="limit", error="out of memory")
    except DaggerError as err:
        out.update(status="error", error=str(err))
    else:
        proven = rel.proven if rel.proven is not None else [True] * len(rel.front)
        out.update(
            status="ok" if rel.status == "exact" else rel.status,
            csv=front_csv(rel.front, rel),
            points=len(rel.front),
            proven=f"{int(sum(proven))}/{len(rel.front)}",
            subtables=rel.stats.subtables if rel.stats is not None else "",
            edges=rel.stats.edges if rel.stats is not None else "",
        )
        if trees:
            from .report import picked_points, tree_data
            from .trees import extract_tree

            out["trees"] = {
                str(k): tree_data(extract_tree(rel, k)) for k in picked_points(len(rel.front))
            }
    out["seconds"] = round(time.perf_counter() - t0, 4)
    out["peak_memory_mib"] = round(_peak_memory() / 2**20, 1) if reset else ""
    return out


def _own_scheduler() -> str | None:
    """The address of the scheduler of the Dask worker running this task (None: not on a
    worker)."""
    try:
        from distributed import get_worker

        return str(get_worker().scheduler.address)
    except (ImportError, ValueError):
        return None


def _set_engine_threads(threads) -> None:
    """The engine's thread count for this (executor) thread: the client's share of the
    cores (a ceiling, :func:`dagger_cli.engine.threads.set_ceiling`)."""
    if isinstance(threads, dict):
        threads = threads.get(_worker_host(), None)
    if not threads:
        return
    from .engine.threads import set_ceiling

    set_ceiling(int(threads))


def _worker_host() -> str | None:
    try:
        from distributed import get_worker

        return _host(get_worker().address)
    except (ImportError, ValueError):
        return None


def _host(address: str) -> str:
    return address.split("://")[-1].rsplit(":", 1)[0]


def worker_memory_budget() -> int:
    """Bytes the engine may use in this process: a share of the Dask worker's memory
    limit, else of the machine's memory divided among its cores."""
    limit = None
    try:
        from distributed import get_worker

        limit = get_worker().memory_manager.memory_limit
    except (ImportError, ValueError, AttributeError):
        pass
    if not limit:
        limit = machine_memory() // max(1, os.cpu_count() or 1)
    return int(limit * MEMORY_SHARE)


def _reset_peak_memory() -> bool:
    """Reset the process's peak RSS (Linux: VmHWM) so it measures this task only."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _peak_memory() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


# --------------------------------------------------------------------------- on the client
@dataclass
class Outcome:
    """What a study run did: its rows (task order) and counts by status."""

    rows: list[dict]
    results: Path
    counts: dict = field(default_factory=dict)
    seconds: float = 0.0
    #: ``{table label: dagger_cli.report.Summary}`` of the tables read (for ``--report``)
    summaries: dict = field(default_factory=dict)

    @property
    def failed(self) -> int:
        return sum(n for s, n in self.counts.items() if s not in (*WITH_CURVE, "skipped"))


class StudyProgress:
    """A one-line progress bar on stderr: tasks done / running / failed."""

    def __init__(self, total: int, enabled: bool, stream=None, every: float = 1.0):
        self.total = total
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.tty = getattr(self.stream, "isatty", lambda: False)()
        self.every = every if self.tty else max(every, 5.0)
        self.t0 = time.perf_counter()
        self.last = -1e9
        self.state: tuple = ()
        self.shown = False

    def update(self, done: int, running: int, failed: int, skipped: int, force=False) -> None:
        if not self.enabled:
            return
        now = time.perf_counter() - self.t0
        state = (done, running, failed, skipped)
        if state == self.state or (not force and now - self.last < self.every):
            return
        self.last, self.state = now, state
        width = 24
        fill = int(width * (done + failed + skipped) / max(1, self.total))
        bar = "#" * fill + "." * (width - fill)
        line = (
            f"study [{bar}] {done + skipped}/{self.total} done ({skipped} up to date), "
            f"{running} running, {failed} failed, {now:.1f} s"
        )
        self.stream.write(line + ("\r" if self.tty else "\n"))
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.enabled and self.shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def _save(path: Path, data: str) -> None:
    """The one place a study writes a file: the project's atomic writer."""
    from .safeio import write_file

    write_file(path, data)


def run_study(
    study: Study,
    out_dir,
    *,
    workers: int | None = None,
    threads: int | None = None,
    scheduler: str | None = None,
    max_memory: int | None = None,
    max_subtables: int | None = None,
    progress: bool = True,
    stream=None,
    report: bool = False,
) -> Outcome:
    """Run every task of ``study`` not already done, writing into ``out_dir``.

    Parameters
    ----------
    study : Study
    out_dir : path-like
        Gets ``curves/<stem>.csv`` (+ ``.json`` sidecar) per task and ``results.csv``.
    workers : int, optional
        Worker processes of the local cluster (default: one per core).
    threads : int, optional
        The engine's threads per task (default: the cores of a machine divided among
        the worker threads on it).
    scheduler : str, optional
        Address of an existing Dask scheduler instead of a local cluster.
    max_memory, max_subtables : int, optional
        Per-task limits overriding the study file's (memory default: a share of the
        worker's memory).
    progress : bool
        The progress bar on stderr.
    report : bool
        Also keep the trees behind every curve's points (``curves/<stem>.trees.json``,
        extracted on the workers) for :func:`report_study`; a task whose trees are missing
        is run again.

    Returns
    -------
    Outcome
        Rows of results.csv and counts by status. Ctrl-C propagates after results.csv
        is written; every finished curve stays in place.
    """
    t0 = time.perf_counter()
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out}: exists and is not a folder")
    curves = out / "curves"
    curves.mkdir(parents=True, exist_ok=True)
    tasks = study.tasks()
    rows = [_base_row(t) for t in tasks]
    prog = StudyProgress(len(tasks), progress, stream)
    summaries: dict = {}
    todo = _prepare(study, tasks, rows, curves, report=report, summaries=summaries)
    limits = {
        "trees": report,
        "exact_only": study.exact_only,
        "count": study.count,
        "max_memory": max_memory if max_memory is not None else study.max_memory,
        "max_subtables": max_subtables if max_subtables is not None else study.max_subtables,
        "time_limit": study.time_limit,
        "split": study.split,
    }
    results = out / "results.csv"
    try:
        if todo:
            _run_on_dask(todo, rows, curves, limits, workers, threads, scheduler, prog, results)
    except BaseException as err:
        why = "interrupted" if isinstance(err, KeyboardInterrupt) else f"stopped: {err}"
        for row in rows:
            if row["status"] in ("pending", "running"):
                row.update(status="interrupted", error=f"the study was {why}")
        raise
    finally:
        prog.close()
        _save(results, _results_csv(rows))
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return Outcome(rows, results, counts, time.perf_counter() - t0, summaries)


def _base_row(task: Task) -> dict:
    row: dict[str, Any] = {c: "" for c in RESULT_COLUMNS}
    row.update(
        table=task.table.label,
        x=task.x,
        y=task.y,
        max_depth="" if task.max_depth is None else task.max_depth,
        status="pending",
        curve=f"curves/{task.stem}.csv",
    )
    return row


def _prepare(
    study: Study,
    tasks: list[Task],
    rows: list[dict],
    curves: Path,
    *,
    report: bool = False,
    summaries: dict | None = None,
) -> list:
    """Load each table once; mark up-to-date tasks skipped and bad tables' tasks failed.

    Returns the (index, task, table, hash) of every task that still has to run. With
    ``report``, a task is up to date only with its trees; ``summaries`` gets each table's
    :class:`~dagger_cli.report.Summary`.
    """
    loaded: dict[TableSpec, tuple] = {}
    todo = []
    for i, (task, row) in enumerate(zip(tasks, rows)):
        if task.table not in loaded:
            try:
                table = task.table.load()
                loaded[task.table] = (table, table_digest(table), None)
                if summaries is not None and report:
                    from .report import summary_of

                    summaries[task.table.label] = summary_of(table)
            except DaggerError as err:
                loaded[task.table] = (None, None, str(err))
        table, digest, error = loaded[task.table]
        if table is None:
            row.update(status="error", error=error)
            continue
        row.update(rows=table.n_rows, attributes=table.n_attributes)
        digest_ = task_hash(task, digest, study.exact_only, study.count)
        done = _done_record(curves, task, digest_, trees=report)
        if done is not None:
            row.update({k: done.get(k, "") for k in ("points", "subtables", "edges")})
            row.update(
                seconds=done.get("seconds", ""),
                peak_memory_mib=done.get("peak_memory_mib", ""),
                status="skipped",
            )
            continue
        todo.append((i, task, table, digest_))
    return todo


def _done_record(curves: Path, task: Task, digest: str, trees: bool = False) -> dict | None:
    """The sidecar of a finished task if its hash matches and its curve exists (and, with
    ``trees``, its trees of the same hash)."""
    side = curves / f"{task.stem}.json"
    try:
        record = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or record.get("hash") != digest:
        return None
    if not (curves / f"{task.stem}.csv").is_file():
        return None
    if trees and read_trees(curves / f"{task.stem}.trees.json", digest) is None:
        return None
    return record


def read_trees(path: Path, digest: str | None = None) -> dict | None:
    """The trees a study kept beside a curve (``--report``), if readable and of ``digest``."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("trees"), dict):
        return None
    if digest is not None and doc.get("hash") != digest:
        return None
    return doc["trees"]


def _run_on_dask(todo, rows, curves, limits, workers, threads, scheduler, prog, results):
    distributed = require_dask()
    cluster = None
    with quiet_dask():
        if scheduler is None:
            with workers_ignore_ctrl_c():
                cluster = local_cluster(distributed, workers, threads)
            client = distributed.Client(cluster)
        else:
            try:
                client = distributed.Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as err:
                raise DaggerError(
                    f"cannot reach the Dask scheduler at {scheduler}: {err}"
                ) from None
    try:
        share = threads if threads else _threads_by_host(client)
        futures = {}
        for i, task, table, digest in todo:
            fut = client.submit(
                run_task,
                table,
                task.x,
                task.y,
                task.max_depth,
                threads=share,
                retries=RETRIES,
                pure=False,
                key=f"dagger-study-{task.stem}-{digest[:12]}",
                **limits,
            )
            futures[fut] = (i, task, digest)
            rows[i]["status"] = "running"
        slots = max(1, sum(client.nthreads().values()))
        counts = {"done": 0, "failed": 0}
        skipped = sum(r["status"] == "skipped" for r in rows)
        last_save = time.perf_counter()

        def show(force=False):
            running = min(slots, len(futures) - counts["done"] - counts["failed"])
            prog.update(counts["done"], running, counts["failed"], skipped, force)

        show(force=True)
        for fut in distributed.as_completed(list(futures)):
            i, task, digest = futures[fut]
            result = _result_of(fut)
            _record(rows[i], task, digest, result, curves, limits["exact_only"])
            counts["done" if rows[i]["status"] in WITH_CURVE else "failed"] += 1
            fut.release()
            show()
            if time.perf_counter() - last_save > 2.0:
                _save(results, _results_csv(rows))
                last_save = time.perf_counter()
        show(force=True)
    finally:
        with interrupt_after(), quiet_dask():
            client.close()
            if cluster is not None:
                cluster.close()


def _result_of(fut) -> dict:
    """A task's result, or its failure (a worker killed too often, an unexpected error)."""
    try:
        return fut.result()
    except KeyboardInterrupt:
        raise
    except Exception as err:  # noqa: BLE001 - every failure is recorded, the study goes on
        name = type(err).__name__
        if name == "KilledWorker":
            msg = f"every worker that ran this task died (out of memory?): {err}"
        else:
            msg = f"{name}: {err}"
        return {"status": "error", "error": msg}


def _record(row, task, digest, result, curves: Path, exact_only: bool) -> None:
    """Write a finished task's curve, then its sidecar; update its row."""
    row.update(
        status=result["status"],
        error=result.get("error", ""),
        seconds=result.get("seconds", ""),
        peak_memory_mib=result.get("peak_memory_mib", ""),
    )
    if result["status"] not in WITH_CURVE:
        return
    row.update(
        points=result["points"],
        proven=result.get("proven", ""),
        subtables=result["subtables"],
        edges=result["edges"],
    )
    _save(curves / f"{task.stem}.csv", result["csv"])
    if result["status"] != "ok":  # cut short: no sidecar, so a re-run tries it again
        return
    if "trees" in result:  # before the sidecar, which marks the task done
        doc = {"hash": digest, "trees": result["trees"]}
        _save(curves / f"{task.stem}.trees.json", json.dumps(doc, sort_keys=True) + "\n")
    side = {k: row[k] for k in RESULT_COLUMNS if k not in ("status", "error", "curve")}
    side.update(hash=digest, exact_only=exact_only)
    _save(curves / f"{task.stem}.json", json.dumps(side, indent=1, sort_keys=True) + "\n")


def _results_csv(rows: list[dict]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=RESULT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def _threads_by_host(client) -> dict:
    """Engine threads per task on each machine: its cores over its worker threads."""
    cores = client.run(os.cpu_count)
    per_host: dict[str, int] = {}
    for addr, n in client.nthreads().items():
        per_host[_host(addr)] = per_host.get(_host(addr), 0) + n
    share = {}
    for addr, n_cores in cores.items():
        host = _host(addr)
        share[host] = max(1, (n_cores or 1) // max(1, per_host.get(host, 1)))
    return share


# --------------------------------------------------------------------------- plots
def read_curve(path, x: str, y: str, n_rows: int):
    """A curve CSV written by a study (or ``dagger relate -o``) back as a Front."""
    import numpy as np

    from .costs import get_cost
    from .fronts import Front

    cx, cy = get_cost(x), get_cost(y)
    with open(path, newline="", encoding="utf-8") as fh:
        # A front cut short by a time limit starts with comment lines (how it stopped, its bound).
        recs = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    xs = np.array([int(r[cx.column]) for r in recs], dtype=np.int64)
    ys = np.array([int(r[cy.column]) for r in recs], dtype=np.int64)
    return Front(cx, cy, xs, ys, n_rows)


def report_study(outcome: Outcome, out_dir, study: Study | None = None) -> list[Path]:
    """The study's pages: ``DIR/report/<table>.html`` (every front of a table, with its
    points and trees, as ``dagger relate --report``) and ``DIR/report/index.html`` (every
    task, linking to its table's page). Needs a run with ``report=True``. With the
    ``study``, a point whose tree a page does not carry names the ``dagger tree`` command
    that prints it (:func:`dagger_cli.report.tree_command`)."""
    from .engine.query import Query
    from .report import index_html, report_html, section_of, tree_command

    specs = {t.label: t for t in study.tables} if study is not None else {}

    def command(row) -> str:
        spec = specs.get(row["table"])
        if spec is None:
            return ""
        options = dict(spec.options)
        sep = options.pop("sep", None)
        depth = None if row["max_depth"] == "" else int(row["max_depth"])
        query = Query(
            row["x"],
            row["y"],
            max_depth=depth,
            exact_only=study.exact_only if study is not None else False,
            max_subtables=study.max_subtables if study is not None else None,
        )
        return tree_command(spec.source, Recipe(**options), query, sep=sep)

    out = Path(out_dir)
    folder = out / "report"
    folder.mkdir(exist_ok=True)
    by_table: dict[str, list] = {}
    for row in outcome.rows:
        by_table.setdefault(row["table"], []).append(row)
    written, index_rows = [], []
    for label, rows in by_table.items():
        sections: list = []
        page = f"{label}.html"
        summary = outcome.summaries.get(label)
        for row in rows:
            entry = {**row, "report": ""}
            if row["status"] in ("ok", "skipped") and summary is not None:
                front = read_curve(out / row["curve"], row["x"], row["y"], int(row["rows"]))
                cap = "" if row["max_depth"] == "" else f", trees of depth <= {row['max_depth']}"
                sec = section_of(
                    f"{row['x']} vs {row['y']}{cap}",
                    front,
                    None,
                    [v for v, _ in summary.decisions],
                    trees=read_trees(out / row["curve"].replace(".csv", ".trees.json")),
                    why_no_trees="The trees of this front were not kept.",
                    command=command(row),
                )
                entry["report"] = f"{page}#s{len(sections)}"
                sections.append(sec)
            index_rows.append(entry)
        if sections:
            path = folder / page
            _save(path, report_html(f"{label}: {len(sections)} front(s)", summary, sections))
            written.append(path)
    columns = ["table", "x", "y", "max_depth", "points", "status", "seconds", "error"]
    index = folder / "index.html"
    _save(index, index_html(f"study: {len(outcome.rows)} task(s)", index_rows, columns))
    written.append(index)
    return written


def plot_study(outcome: Outcome, out_dir) -> list[Path]:
    """A grid of fronts per table, ``DIR/plots/<table>.png``, from the finished curves."""
    from .plots import front_grid, save_figure

    out = Path(out_dir)
    by_table: dict[str, list] = {}
    for row in outcome.rows:
        if row["status"] in (*WITH_CURVE, "skipped"):
            by_table.setdefault(row["table"], []).append(row)
    written = []
    for label, rows in by_table.items():
        panels = []
        for r in rows:
            front = read_curve(out / r["curve"], r["x"], r["y"], int(r["rows"]))
            cap = "" if r["max_depth"] == "" else f", depth <= {r['max_depth']}"
            panels.append((front, f"{r['x']} vs {r['y']}{cap}"))
        first = rows[0]
        title = f"{label}: {first['rows']} rows, {first['attributes']} attributes"
        path = out / "plots" / f"{label}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_figure(front_grid(panels, title=title), path)
        written.append(path)
    return written
