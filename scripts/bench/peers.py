"""The peers dagger is measured against, each in a fresh process of its own that imports only
numpy and the peer and reads the file, as the peer's users run it: STreeD (``pystreed``,
``child/streed.py``) on the odt tables, ConTree (``pycontree``, ``child/contree.py``) on the
numeric ones. Both are in the ``bench`` extra (``pip install -e '.[bench]'``)."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

from . import machine, procs

STREED = "pystreed"
CONTREE = "pycontree"


def available(module: str) -> bool:
    """Whether the peer's module is installed (found, not imported: pystreed imports
    scikit-learn, seconds this process does not need)."""
    return importlib.util.find_spec(module) is not None


def version(module: str) -> str | None:
    return machine.package_version(module)


def streed_cmd(path: Path, depths) -> list[str]:
    return procs.child("streed", path, ",".join(map(str, depths)))


def contree_cmd(path: Path, depths) -> list[str]:
    return procs.child("contree", path, ",".join(map(str, depths)))


def measure_streed(path: Path, depths, runs: int, limit: float, once_over: float) -> dict:
    """STreeD fitted at each of ``depths`` in one fresh process, up to ``runs`` times (once
    past ``once_over`` s): median wall time of the whole process, median sum of the fit
    times, the fits' training misclassifications per depth."""
    done, fail = procs.repeat(streed_cmd(path, depths), runs, limit, once_over)
    if fail:
        return {"depths": list(depths), **fail}
    outs = [procs.last_json(r) for r in done]
    walls = [r["wall"] for r in done]
    return {
        "depths": list(depths),
        "mis": outs[0]["mis"],
        "fit_s": statistics.median(sum(o["fit_s"]) for o in outs),
        "fits": [statistics.median(f) for f in zip(*(o["fit_s"] for o in outs))],
        "wall": statistics.median(walls),
        "walls": walls,
        "peak_mib": max(r["peak_mib"] for r in done),
    }


def fit_contree(path: Path, depths, limit: float) -> tuple[dict, dict | None]:
    """ConTree fitted at each of ``depths`` in one fresh process: the launch's report, and
    its figures (``fit_s`` and ``mis`` per depth; None if it failed)."""
    r = procs.launch(contree_cmd(path, depths), limit)
    return r, (procs.last_json(r) if r["code"] == 0 else None)
