"""dagger's benchmark, section by section (``make bench`` runs every section once).

    python -m scripts.bench run                         every section, in order
    python -m scripts.bench run --only odt,bounds       these sections alone
    python -m scripts.bench run --skip study,sorting    every section but these
    python -m scripts.bench sections                    the sections and their files
    python -m scripts.bench run --help                  every option, by section

Each section prints its figures and verdicts (``[met]``, ``[NOT MET]``, ``[info]``) with the
load average, and writes its JSON file in ``--out`` (default ``out/bench``); a run of several
sections also writes them all to ``bench.json``. Run it from the repository's folder.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import (
    anytime,
    bounds,
    cores,
    estimator,
    firstcall,
    load,
    machine,
    num,
    odt,
    procs,
    read,
    report,
    rules,
    scaling,
    sorting,
    study,
    uci,
    weights,
)

#: Every section, in the order a full run takes them.
SECTIONS = [
    uci,
    scaling,
    odt,
    bounds,
    sorting,
    read,
    estimator,
    load,
    rules,
    num,
    study,
    firstcall,
    anytime,
    weights,
    report,
    cores,
]
BY_NAME = {s.NAME: s for s in SECTIONS}


def section_names(text: str) -> list[str]:
    """A comma-separated list of sections, each checked."""
    names = [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in BY_NAME]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"unknown section(s) {', '.join(bad) or '(none given)'}; known: {', '.join(BY_NAME)}"
        )
    return names


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m scripts.bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("sections", help="list the sections, what each measures, its file")
    run = sub.add_parser(
        "run",
        help="run the sections (all of them, or --only some)",
        description="Run the benchmark's sections: all of them, or those of --only.",
    )
    common = run.add_argument_group("every section")
    common.add_argument(
        "--only", type=section_names, metavar="SECTION,...", help=f"of {', '.join(BY_NAME)}"
    )
    common.add_argument(
        "--skip", type=section_names, default=[], metavar="SECTION,...", help="leave these out"
    )
    common.add_argument("--runs", type=int, default=5, help="runs per figure (median; 5)")
    common.add_argument(
        "--out", type=Path, default=procs.REPO / "out" / "bench", help="output folder"
    )
    common.add_argument(
        "--tables",
        default=",".join(uci.TABLES),
        help="UCI tables of the uci and study sections (default: the four)",
    )
    for s in SECTIONS:
        s.add_arguments(run.add_argument_group(f"{s.NAME}: {s.HELP}"))
    return ap


def selected(args) -> list:
    return [
        s
        for s in SECTIONS
        if (args.only is None or s.NAME in args.only) and s.NAME not in args.skip
    ]


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "sections":
        for s in SECTIONS:
            print(f"{s.NAME:<10} {s.HELP} ({s.OUTPUT})")
        return 0
    sections = selected(args)
    args.alone = len(sections) == 1
    results = {}
    for s in sections:
        print(f"## {s.NAME} ({machine.now()}, {machine.load_text()})", flush=True)
        results[s.NAME] = s.run(args)
    if len(sections) > 1:
        machine.write_json(args.out, "bench.json", results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
