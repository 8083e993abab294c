"""Rules within a time limit: every row's front over longer and longer rules.

:func:`rules_within` runs :func:`~dagger_cli.rules.rules` with ``max_length`` 0, 1, 2, ...
(each run exact over the rules of at most that many conditions, on the DAG built that many
steps deep), then once without the cap, and returns the last run that finished in time. A
run whose DAG has no subtable more than the one before it has every subtable (no node is
first found at that depth), so the uncapped run comes next.

What a cut-short answer proves: the rules of at most L conditions were all searched. When
length is one of the two costs, a rule that dominates a point shown is at most as long, so
was searched: every point shown is on its row's exact front, only points of longer rules
are missing. Otherwise (coverage vs misclassifications) a longer rule may dominate a point
shown: the points are real rules, not proven.

The answer's ``status`` is ``"exact"``, ``"time_limit"`` or ``"interrupted"`` (a first
Ctrl-C, as for :func:`dagger_cli.engine.anytime.solve_within`).
"""

from __future__ import annotations

import dataclasses
import time

from ..engine.anytime import INTERRUPTED, MARGIN, MARGIN_SHARE, TIME_LIMIT
from ..engine.progress import TimeLimitReached, deadline, started
from . import RuleFronts, rules


def rules_within(
    table,
    x: str,
    y: str,
    time_limit: float,
    *,
    max_length: int | None = None,
    **options,
) -> RuleFronts | None:
    """The rules of :func:`~dagger_cli.rules.rules` (same arguments, ``options``) found
    within ``time_limit`` seconds, counted from the command's start when one set it
    (:func:`dagger_cli.engine.progress.mark_start`). None when not even the rules of
    length 0 were found in time."""
    t0 = time.perf_counter()
    limit = float(time_limit)
    at = started(t0) + limit - min(MARGIN, MARGIN_SHARE * limit)
    top = table.n_attributes if max_length is None else min(max_length, table.n_attributes)
    best: RuleFronts | None = None
    status = TIME_LIMIT
    try:
        with deadline(at):
            before = None
            for length in range(top):
                best = rules(table, x, y, max_length=length, **options)
                if best.stats.subtables == before:
                    break  # no subtable first found at this depth: the DAG is whole
                before = best.stats.subtables
            return rules(table, x, y, max_length=max_length, **options)
    except TimeLimitReached:
        pass
    except KeyboardInterrupt:
        status = INTERRUPTED
    if best is None:
        return None
    return dataclasses.replace(
        best, status=status, time_limit=limit, seconds=time.perf_counter() - t0
    )


def proven(fronts: RuleFronts) -> bool:
    """Whether every point of a cut-short answer is on its row's exact front (length is
    one of the costs: see the module docstring)."""
    return fronts.status == "exact" or "length" in (fronts.x, fronts.y)


def stop_line(fronts: RuleFronts) -> str:
    """What a cut-short answer is, in a line (for the summary, stderr and CSV comments)."""
    why = (
        f"stopped at the {fronts.time_limit:g} s limit"
        if fronts.status == TIME_LIMIT
        else "interrupted"
    )
    searched = (
        f"every rule of at most {fronts.max_length} condition(s) searched (as --max-length "
        f"{fronts.max_length}), longer ones not"
    )
    if proven(fronts):
        what = "every point shown is on its row's exact front (length is a cost)"
    else:
        what = "a longer rule may dominate a point shown (points not proven)"
    return f"{why}: {searched}; {what}"
