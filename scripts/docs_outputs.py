"""Regenerate what the documentation site shows of real runs (``make docs`` runs it first).

Every command below is run for real (the venv's ``dagger``, in a scratch folder) and
its output, stdout and stderr as a terminal shows them, goes to ``docs/outputs/<name>.txt``,
which the pages include (``--8<-- "<name>.txt"``); so the pages never show stale text. It
also writes ``docs/outputs/zoo-report.html`` (the interactive report of zoo, linked from the
report's page) and ``docs/reproduction.md`` (REPRODUCTION.md with its figures' paths made
relative to the site). ``docs/outputs/`` and ``docs/reproduction.md`` are generated, not
committed.

It runs the tutorial notebook (``docs/tutorial.ipynb``, :mod:`scripts.notebook`) too: its
page's body ``docs/outputs/tutorial.txt`` and the notebook with its outputs
``docs/outputs/tutorial.ipynb``.

Usage: ``python -m scripts.docs_outputs [--only NAME ...]`` from the repository's folder.
The UCI tables come from the cache or the mirror (``DAGGER_UCI_MIRROR``, which the Makefile
sets on these machines).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "outputs"

STUDY = """tables = ["zoo", "lymphography"]
pairs = [["total-path-length", "misclassifications"], ["depth", "misclassifications"]]
max_depth = [2, "none"]
"""

#: name -> (arguments of ``dagger``, the most lines shown (None: all)); in run order.
RUNS: dict[str, tuple[list[str], int | None]] = {
    "help": (["--help"], None),
    "relate-example": (["relate", "--example"], None),
    "relate-zoo": (["relate", "zoo", "--count"], None),
    "relate-lymphography": (
        ["relate", "lymphography", "--stats", "--max-misclassifications", "10", "-q"],
        None,
    ),
    "relate-depth": (["relate", "zoo", "--x", "depth", "--max-depth", "4", "--stats", "-q"], None),
    "relate-greedy": (["relate", "zoo", "--greedy", "-q"], None),
    "relate-report": (["relate", "zoo", "--count", "--report", "zoo-report.html", "-q"], None),
    "tree-zoo": (["tree", "zoo", "--max-misclassifications", "5", "-q"], None),
    "tree-json": (["tree", "zoo", "--max-misclassifications", "10", "--format", "json", "-q"], 40),
    "optimize-lymphography": (
        ["optimize", "lymphography", "--order", "misclassifications,depth,total-path-length"],
        12,
    ),
    "rules-zoo": (["rules", "zoo", "-q"], None),
    "example-sorting": (["example", "sorting", "5"], None),
    "optimize-sorting": (
        ["optimize", "sorting5.csv", "--order", "total-path-length,depth", "--exact-only", "-q"],
        12,
    ),
    "validate-zoo": (["validate", "zoo", "--folds", "3", "--max-depth", "3", "-q"], 12),
    "datasets": (["datasets"], None),
    "prepare-zoo": (["prepare", "zoo", "--bins", "2", "-o", "-"], 9),
    "study": (["study", "study.toml", "-o", "results", "--workers", "2"], None),
}
#: Commands whose ``--help`` each command page shows.
HELPS = ("relate", "tree", "optimize", "rules", "example", "validate", "fetch", "datasets")
HELPS += ("prepare", "study")


def run(args: list[str], cwd: Path, most: int | None) -> str:
    env = {**os.environ, "COLUMNS": "100", "PYTHONWARNINGS": "ignore"}
    dagger = Path(sys.executable).parent / "dagger"  # the entry point: `Usage: dagger ...`
    command = [str(dagger)] if dagger.exists() else [sys.executable, "-m", "dagger_cli.cli"]
    proc = subprocess.run(
        [*command, *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    if proc.returncode not in (0, 1):
        raise SystemExit(f"dagger {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}")
    lines = proc.stdout.splitlines()
    if most is not None and len(lines) > most:
        lines = lines[:most] + ["..."]
    shown = " ".join(a if re.fullmatch(r"[\w.,:=/<>-]+", a) else repr(a) for a in args)
    return f"$ dagger {shown}\n" + "\n".join(lines) + "\n"


def reproduction() -> None:
    """REPRODUCTION.md as a page of the site: its figures' paths relative to docs/."""
    text = (ROOT / "REPRODUCTION.md").read_text(encoding="utf-8")
    text = text.replace("](docs/figures/", "](figures/")
    note = "<!-- generated from REPRODUCTION.md by scripts/docs_outputs.py; edit that file -->\n"
    (ROOT / "docs" / "reproduction.md").write_text(note + text, encoding="utf-8")


def tutorial(folder: Path) -> None:
    """The tutorial notebook run in ``folder``: its page and the notebook with its outputs."""
    from scripts.notebook import executed, page, read_notebook, run_notebook

    nb = read_notebook(ROOT / "docs" / "tutorial.ipynb")
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        outputs = run_notebook(nb, "docs/tutorial.ipynb")
    finally:
        os.chdir(cwd)
    (OUT / "tutorial.txt").write_text(page(nb, outputs), encoding="utf-8")
    text = json.dumps(executed(nb, outputs), indent=1, ensure_ascii=False) + "\n"
    (OUT / "tutorial.ipynb").write_text(text, encoding="utf-8")
    print("docs/outputs/tutorial.txt, docs/outputs/tutorial.ipynb", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="regenerate only these outputs")
    opts = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    reproduction()
    with tempfile.TemporaryDirectory(prefix="dagger-docs-") as tmp:
        here = Path(tmp)
        (here / "study.toml").write_text(STUDY, encoding="utf-8")
        for name, (args, most) in RUNS.items():
            if opts.only and name not in opts.only:
                continue
            (OUT / f"{name}.txt").write_text(run(args, here, most), encoding="utf-8")
            print(f"docs/outputs/{name}.txt", flush=True)
        if not opts.only or "tutorial" in opts.only:
            tutorial(here)
        if (here / "zoo-report.html").exists():
            shutil.copyfile(here / "zoo-report.html", OUT / "zoo-report.html")
        for cmd in HELPS:
            name = f"help-{cmd}"
            if opts.only and name not in opts.only:
                continue
            (OUT / f"{name}.txt").write_text(run([cmd, "--help"], here, None), encoding="utf-8")
    print(f"docs/outputs/help-*.txt ({len(HELPS)} commands)")


if __name__ == "__main__":
    main()
