"""The machine a run measures on: the load average (the one reader every section uses), the
cores, the date, and the record of when a section ran and under what load.

The machine is shared: every section prints the load average at its start and its end, and
its JSON keeps them beside the figures.
"""

from __future__ import annotations

import json
import os
import time
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path


def load_average() -> tuple[float, float, float]:
    """The 1, 5 and 15-minute load averages (``/proc/loadavg`` on Linux)."""
    return os.getloadavg()


def loads(values: tuple[float, ...] | None = None) -> str:
    """Load averages as text, ``2.19 2.37 1.50`` (the current ones by default)."""
    return " ".join(f"{v:.2f}" for v in (load_average() if values is None else values))


def load_text() -> str:
    """``load 2.19 2.37 1.50``: the current load averages, for a section's header line."""
    return "load " + loads()


def cores() -> int:
    return os.cpu_count() or 1


def now() -> str:
    """The date and time in UTC, to the minute: ``2026-12-01 14:50 UTC``."""
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


class Record:
    """When a section started, under what load; :meth:`done` adds its end."""

    def __init__(self) -> None:
        self.started = now()
        self.load_start = load_average()

    def done(self) -> dict:
        return {
            "started": self.started,
            "finished": now(),
            "cores": cores(),
            "load_start": self.load_start,
            "load_end": load_average(),
        }


def package_version(package: str) -> str | None:
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def write_json(out_dir: Path, name: str, data) -> Path:
    """``data`` as ``out_dir/name`` (indented JSON); says so on stdout."""
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / name
    path.write_text(json.dumps(data, indent=2))
    print(f"wrote {path}")
    return path
