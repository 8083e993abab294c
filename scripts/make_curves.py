"""`make curves`: regenerate the golden curves in ``datasets/curves/`` after a deliberate change.

Each golden curve ``datasets/curves/<name>.csv`` is the Pareto front of total path length
against misclassifications over every decision tree for the registered dataset ``<name>``,
byte for byte what ``dagger relate <name> -o <name>.csv`` writes. ``tests/test_golden.py``
recomputes every file of that folder and compares it exactly, so run this script only when a
change of the curves is intended (and say why in the commit).

    python scripts/make_curves.py [NAME ...] [--out datasets/curves] [--check]

Without NAMEs it regenerates the curves that are already in the folder, or the four tables
of the paper (lymphography, mushroom, zoo, nursery) when it is empty. Tables are fetched like
the CLI does (offline from ``$DAGGER_UCI_MIRROR`` when set). ``--check`` writes nothing and
exits with status 1 when a stored curve differs from the recomputed one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from dagger_cli.data.datasets import load_table  # noqa: E402
from dagger_cli.engine import relate  # noqa: E402
from dagger_cli.output import front_csv  # noqa: E402

CURVES = REPO / "datasets" / "curves"
#: The tables of the paper's Figs. 5-8.
PAPER_TABLES = ("lymphography", "mushroom", "zoo", "nursery")


def curve_csv(name: str) -> str:
    """The golden curve of dataset ``name``: what ``dagger relate NAME -o`` writes."""
    return front_csv(relate(load_table(name)).front)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help="registered dataset names")
    parser.add_argument("--out", type=Path, default=CURVES, help="folder (default: %(default)s)")
    parser.add_argument(
        "--check", action="store_true", help="compare with the stored files instead of writing them"
    )
    args = parser.parse_args(argv)

    names = args.names or sorted(p.stem for p in args.out.glob("*.csv")) or list(PAPER_TABLES)
    failed = []
    for name in names:
        t0 = time.perf_counter()
        text = curve_csv(name)
        path = args.out / f"{name}.csv"
        points = text.count("\n") - 1
        took = f"{time.perf_counter() - t0:.1f} s"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if args.check:
            ok = old == text
            if not ok:
                failed.append(name)
            state = "same" if ok else ("missing" if old is None else "DIFFERS")
            print(f"{name}: {points} points, {state} ({path}, {took})")
            continue
        state = "unchanged" if old == text else ("new" if old is None else "changed")
        if old != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))  # bytes: "\n" line ends on every OS
        print(f"{name}: {points} points, {state} -> {path} ({took})")
    if failed:
        print(
            f"{len(failed)} curve(s) differ from the stored ones: {', '.join(failed)}; "
            f"run `make curves` if the change is intended",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
