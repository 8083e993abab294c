"""Plain-text renderings shared by the engine and the writers (no package imports).

:func:`abbreviate` writes a count of trees for people, :func:`size_text` a number of
bytes, :func:`stats_text` the line of a DAG's statistics; :mod:`dagger_cli.output`
(fronts) and :mod:`dagger_cli.engine.counting` (staged optimisation) both print them.
"""

from __future__ import annotations

import math


def abbreviate(count: int, digits: int = 15) -> str:
    """A count for people: exact with thousands separators up to ``digits`` digits, else
    four significant digits and a power of ten.

    >>> abbreviate(2418647040), abbreviate(10**20 + 5 * 10**16)
    ('2,418,647,040', '1.001e+20')
    """
    if count < 10**digits:
        return f"{count:,}"
    e = int((count.bit_length() - 1) * math.log10(2))
    while 10 ** (e + 1) <= count:
        e += 1
    while 10**e > count:
        e -= 1
    lead = count // 10 ** (e - 4)  # five digits
    r = (lead + 5) // 10
    if r >= 10_000:
        r //= 10
        e += 1
    return f"{r // 1000}.{r % 1000:03d}e+{e}"


def size_text(nbytes: float) -> str:
    """A number of bytes for people, in the largest binary unit that keeps it at least 1
    (three significant digits below 100 of a unit).

    >>> size_text(1024), size_text(1536), size_text(300), size_text(5 * 2**30), size_text(0)
    ('1 KiB', '1.5 KiB', '300 bytes', '5 GiB', '0 bytes')
    """
    units = ("KiB", "MiB", "GiB", "TiB")
    if nbytes < 1024:
        return f"{nbytes:,.0f} bytes"
    value, unit = float(nbytes), "bytes"
    for u in units:
        if value < 1024:
            break
        value, unit = value / 1024, u
    text = f"{value:,.0f}" if value >= 100 else f"{value:.3g}"
    return f"{text} {unit}"


def stats_text(stats) -> str:
    if hasattr(stats, "text"):  # a solver's own statistics (the ordered solver's)
        return stats.text()
    text = (
        f"DAG: {stats.subtables:,} subtables ({stats.terminal:,} terminal), "
        f"{stats.bundles:,} bundles, {stats.edges:,} edges"
    )
    if getattr(stats, "max_depth", None) is not None:
        text += f"; {stats.subproblems:,} subproblems (subtable, remaining depth)"
    if getattr(stats, "depth_two", None):
        text += (
            f", {stats.depth_two:,} of them solved by the depth-two layer "
            "(the last two levels, from class counts)"
        )
    return text
