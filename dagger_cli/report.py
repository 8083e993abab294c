"""The interactive report: one self-contained HTML page of a front and its trees.

``dagger relate TABLE --report R.html`` (and ``dagger validate --report``, ``dagger study
--report``) write a page that a browser opens from disk with no network: the chart library
(plotly.js, shipped inside the ``plotly`` wheel), the styles, the script and the data are
all inline, and nothing is fetched. The page shows

* the table's summary: rows, attributes, decisions, the preprocessing report;
* each front as an interactive chart (plotly): hovering a point shows its costs, clicking
  it draws its tree beside the chart (HTML and CSS), with the tree's costs and the class
  counts of every leaf; the greedy heuristics' points overlaid with ``--greedy``;
* every Pareto point in a table (x, y, the per-row mean, the trees' count with
  ``--count``, the held-out error from ``validate``); clicking a row draws its tree too.

The trees come from the engine, all in one pass (:func:`dagger_cli.trees.extract_trees`).
A front of more than :data:`MAX_TREES` points carries the trees of :data:`MAX_TREES` of
them, evenly spaced and always both ends (the page says which; ``dagger tree`` gives any
other).

Same input, same bytes: no timestamp, no random identifier, JSON with sorted keys.
Only this module imports plotly, and only inside functions.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .costs import ROC
from .fronts import Front
from .text import abbreviate

#: The most trees a front's page carries (evenly spaced along the front, both ends kept).
MAX_TREES = 250

#: Colours of the decisions in the tree drawing and of the greedy heuristics' markers.
PALETTE = (
    "#4c72b0",
    "#dd8452",
    "#55a868",
    "#c44e52",
    "#8172b3",
    "#937860",
    "#da8bc3",
    "#8c8c8c",
    "#ccb974",
    "#64b5cd",
)


@dataclass(frozen=True)
class Heldout:
    """Held-out errors along a front (``dagger validate --report``).

    ``rates`` is the held-out error rate of each point of the section's front (None where
    unknown); ``curves`` are the lines of the error-rate chart: ``(name, xs, ys, width)``.
    """

    label: str
    rates: tuple
    curves: tuple = ()
    x_label: str = ""


@dataclass(frozen=True)
class Section:
    """One front of a page, with the trees behind (some of) its points.

    Parameters
    ----------
    title : str
        The section's heading (the cost pair, a depth cap).
    front : Front
        The Pareto points shown (in the table and the chart).
    trees : dict
        ``{point index: tree data}`` (:func:`tree_data`) for the points that carry a tree.
    decisions : sequence of str
        The table's decision values, in the order of the trees' class counts.
    note : str
        What the page says about the trees (how many, which).
    greedy : dict, optional
        ``{heuristic: (xs, ys)}``: points overlaid on the chart.
    comparison : dict, optional
        :func:`dagger_cli.greedy.compare` of those points with the front.
    heldout : Heldout, optional
        Held-out error rates along the front.
    """

    title: str
    front: Front
    trees: dict
    decisions: tuple
    note: str = ""
    greedy: dict | None = None
    comparison: dict | None = None
    heldout: Heldout | None = None
    #: the command that prints a point's tree, ``{y}`` standing for its y (for the points
    #: whose tree the page does not carry), e.g. ``dagger tree zoo --max-y {y}``
    command: str = ""
    #: of a front found within a time limit: the proven bound's points (x, y), drawn under
    #: the front (no tree is below its staircase)
    bound: tuple | None = None
    #: of a front of false positives against false negatives: the positive and the negative
    #: rows (or their weight), for its ROC chart (the true against the false positive rate)
    roc: tuple | None = None


@dataclass(frozen=True)
class Summary:
    """What the page says about the table and the run, before the fronts."""

    name: str
    rows: int
    attributes: tuple  #: ``(name, number of values)`` per attribute
    decision: str
    decisions: tuple  #: ``(value, rows)`` per decision value
    preprocessing: tuple = ()  #: the preprocessing report's lines
    facts: tuple = ()  #: ``(label, text)`` about the run: costs, depth cap, engine, DAG
    extra: dict = field(default_factory=dict)


def summary_of(table, facts: Sequence[tuple[str, str]] = ()) -> Summary:
    """The :class:`Summary` of a prepared :class:`~dagger_cli.data.table.DecisionTable`."""
    import numpy as np

    counts = np.bincount(table.decisions, minlength=len(table.decision_values)).tolist()
    report = getattr(table, "report", None)
    return Summary(
        name=table.name,
        rows=int(table.n_rows),
        attributes=tuple((a, len(v)) for a, v in zip(table.attributes, table.values)),
        decision=table.decision_name,
        decisions=tuple(zip(table.decision_values, counts)),
        preprocessing=tuple(report.lines()) if report is not None else (),
        facts=tuple(facts),
    )


def tree_data(tree) -> dict:
    """A :class:`~dagger_cli.trees.Tree` as the page's compact JSON: a leaf is
    ``{"n": rows, "c": class counts, "d": decision}`` (``"s": [[decision index, rows],
    ...]`` instead of ``"c"`` for sparse counts), a split ``{"n": rows, "a": what it
    tests, "k": [[edge label, child], ...]}`` (children in print order); ``"costs"`` (``[[column,
    value], ...]``, the tree's costs on its table) at the top."""

    from .trees import SparseCounts

    def node(n) -> dict:
        if n.is_leaf:
            if isinstance(n.counts, SparseCounts):  # many decisions: those with rows
                return {
                    "n": n.rows,
                    "s": [[int(d), int(k)] for d, k in n.counts.items()],
                    "d": str(n.decision),
                }
            return {"n": n.rows, "c": [int(c) for c in n.counts], "d": str(n.decision)}
        kids = [[str(v), node(c)] for v, c in tree.branches(n)]
        return {"n": n.rows, "a": tree.node_label(n), "k": kids}

    costs = [[k, round(v, 6) if isinstance(v, float) else v] for k, v in tree.costs().items()]
    return {"costs": costs, "root": node(tree.root)}


def picked_points(n: int, cap: int = MAX_TREES) -> list[int]:
    """The points whose trees a page carries: all of ``n`` up to ``cap``, else ``cap`` of
    them evenly spaced, both ends included.

    >>> picked_points(5), picked_points(1000, 5)
    ([0, 1, 2, 3, 4], [0, 250, 500, 749, 999])
    """
    if n <= cap:
        return list(range(n))
    if cap <= 1:
        return [n - 1][:cap]
    return sorted({round(i * (n - 1) / (cap - 1)) for i in range(cap)})


def section_of(
    title: str,
    front: Front,
    tree_of: Callable[[int], Any] | None,
    decisions: Sequence[str],
    *,
    cap: int = MAX_TREES,
    trees: dict | None = None,
    greedy: dict | None = None,
    comparison: dict | None = None,
    heldout: Heldout | None = None,
    why_no_trees: str = "",
    command: str = "",
    bound: tuple | None = None,
) -> Section:
    """A :class:`Section` whose trees are ``tree_of(k)`` for the points :func:`picked_points`
    chooses, or ``trees`` (``{point: tree data}``, made elsewhere, e.g. on a study's
    workers); with neither, no trees, and ``why_no_trees`` says why."""
    n = len(front)
    if trees is None and tree_of is not None:
        trees = {k: tree_data(tree_of(k)) for k in picked_points(n, cap)}
    trees = {int(k): v for k, v in (trees or {}).items()}
    if not trees:
        note = why_no_trees or "The trees are not part of this page."
    elif len(trees) == n:
        note = "Click a point of the chart or a row of the table to see its tree."
    else:
        note = (
            f"This front has {n:,} points; the page carries the trees of {len(trees):,} "
            f"of them, evenly spaced along the front (both ends included, marked ● in "
            f"the table). `dagger tree` gives the tree of any other point."
        )
    return Section(
        title=title,
        front=front,
        trees=trees,
        decisions=tuple(str(d) for d in decisions),
        note=note,
        greedy=greedy,
        comparison=comparison,
        heldout=heldout,
        command=command,
        bound=bound,
    )


def tree_command(table: str | None, recipe, query, *, sep: str | None = None) -> str:
    """The ``dagger tree`` command line that prints the tree of a point of a run's front,
    ``{y}`` standing for the point's y (G(y): the least x among the trees of at most that y,
    the point's own x): the table as the run named it (None: ``--example``), every option of
    its recipe (:class:`~dagger_cli.data.recipe.Recipe`: each field is the option of its
    name, so a new field is carried without a change here), ``--sep``, and the query's
    options that choose the trees (the costs, ``--max-depth``, ``--exact-only``, the memory
    and subtable ceilings). Every word is quoted for a POSIX shell (:func:`shlex.join`).

    The one builder of every hint that names the command (the report's points whose tree
    the page does not carry).

    >>> from dagger_cli.data.recipe import Recipe
    >>> from dagger_cli.engine.query import Query
    >>> r = Recipe(decision="yes no", drop=["id"], thresholds=8)
    >>> tree_command("my t.csv", r, Query(max_depth=3))
    "dagger tree 'my t.csv' --decision 'yes no' --drop id --thresholds 8 --max-depth 3 --max-y {y}"
    """
    import shlex
    from dataclasses import fields

    from .costs import DEFAULT_X, DEFAULT_Y
    from .engine.memory import AUTO

    words = ["dagger", "tree", *(["--example"] if table is None else [str(table)])]
    for f in fields(recipe):
        value = getattr(recipe, f.name)
        flag = "--" + f.name.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            words.append(flag)
        elif isinstance(value, tuple):
            words += [w for v in value for w in (flag, str(v))]
        else:
            words += [flag, str(value)]
    if sep is not None:
        words += ["--sep", sep]
    x, y = query.x_cost.name, query.y_cost.name
    if (x, y) != (DEFAULT_X, DEFAULT_Y):
        words += ["--x", x, "--y", y]
    if query.max_depth is not None:
        words += ["--max-depth", str(query.max_depth)]
    if query.exact_only:
        words.append("--exact-only")
    if query.max_subtables is not None:
        words += ["--max-subtables", str(query.max_subtables)]
    if query.max_memory is None or str(query.max_memory).lower() != AUTO:
        words += ["--max-memory", "none" if query.max_memory is None else str(query.max_memory)]
    return shlex.join(words) + " --max-y {y}"


def relation_section(
    relation,
    front: Front | None = None,
    *,
    title: str | None = None,
    cap: int = MAX_TREES,
    greedy: dict | None = None,
    comparison: dict | None = None,
    heldout: Heldout | None = None,
    command: str = "",
) -> Section:
    """The :class:`Section` of a :class:`~dagger_cli.engine.Relation`: ``front`` (default:
    the relation's; a restriction of it, e.g. to the bounds' points) with the trees that
    :func:`~dagger_cli.trees.extract_trees` finds behind its points, in one pass, showing
    its progress when the relation's query does."""
    whole = relation.front
    front = whole if front is None else front
    index = {p: k for k, p in enumerate(whole.points())}
    ks = [index[p] for p in front.points()]
    trees = None
    why = ""
    late = ""
    if relation.keeps_trees:
        js = picked_points(len(front), cap)
        made = _trees_in_time(relation, [ks[j] for j in js])
        trees = {j: tree_data(made[ks[j]]) for j in js if ks[j] in made}
        if len(trees) < len(js):
            late = (
                f"The time limit left room for the trees of {len(made):,} of the "
                f"{len(js):,} points whose trees the page would carry (marked ● in the "
                "table); `dagger tree` gives any other."
            )
    else:
        why = f"The {relation.engine} engine keeps no trees: the trees need the fast engine."
    if title is None:
        title = f"{whole.x_cost.name} vs {whole.y_cost.name}"
        if relation.max_depth is not None:
            title += f", trees of depth <= {relation.max_depth}"
    from .output import anytime_summary

    stopped = anytime_summary(relation)
    if stopped is not None:
        title += f" ({stopped.split(':')[0]}: the best front found)"
    table = relation.table
    section = section_of(
        title,
        front,
        None,
        table.decision_values,
        cap=cap,
        trees=trees,
        greedy=greedy,
        comparison=comparison,
        heldout=heldout,
        why_no_trees=why,
        command=command,
        bound=relation.bound if relation.status != "exact" else None,
    )
    if _is_roc(front) and getattr(table.weighting, "positive", None) is not None:
        from .scores import class_split

        section = replace(section, roc=class_split(table))
    return replace(section, note=late) if late else section


def _is_roc(front: Front) -> bool:
    """Whether ``front`` is of false positives against false negatives (either way)."""
    return {front.x_cost.name, front.y_cost.name} == ROC


#: The trees of a run with a time limit are made this many points at a time, so that
#: those made when the limit passes are kept.
TREES_AT_ONCE = 25


def _trees_in_time(relation, points: list[int]) -> dict:
    """``{point: tree}`` for ``points`` (in one pass, with progress when the query shows
    it); under the query's time limit, those made in time, :data:`TREES_AT_ONCE` at a time
    spread along the front (every b-th point, then the next b-th, ...), so the page comes
    within the limit too."""
    from .engine.anytime import limit_at
    from .engine.progress import Progress, TimeLimitReached, deadline
    from .trees import extract_trees

    query = relation.query
    progress = _Counted(Progress(bool(query is not None and query.progress)), len(points))
    limit = None if query is None else query.time_limit
    made: dict = {}
    try:
        if limit is None:
            return dict(zip(points, extract_trees(relation, points, progress)))
        batches = max(-(-len(points) // TREES_AT_ONCE), 1)
        with deadline(limit_at(float(limit))):
            for b in range(batches):
                some = points[b::batches]
                made.update(zip(some, extract_trees(relation, some, progress)))
                progress.base = len(made)
    except TimeLimitReached:
        pass
    finally:
        progress.inner.close()
    return made


class _Counted:
    """A progress line of ``total`` trees made in batches: each batch's count after
    ``base``, the trees of the batches before."""

    def __init__(self, inner, total: int):
        self.inner, self.total, self.base = inner, total, 0

    def update(self, phase: str, done: int, total=None, unit: str = "", rate: bool = True):
        self.inner.update(phase, self.base + done, self.total, unit=unit, rate=rate)


def heldout_of(results, front: Front, how: str) -> Heldout:
    """The held-out errors of ``dagger validate``'s folds (``results``) along ``front`` (the
    whole table's): each point gets the folds' mean held-out error rate at its x (each fold
    by the step function of its own front, as :func:`dagger_cli.validate.mean_curves`);
    the chart has the folds' mean training and held-out rates and each fold's held-out."""
    import numpy as np

    from .validate import error_curves, mean_curves

    grid, train, held = mean_curves(results)
    x = front.x.astype(np.float64)
    if front.x_cost.mean_column is not None:
        x = x / max(front.n_rows, 1)
    k = np.maximum(np.searchsorted(grid, x, side="right") - 1, 0)
    rates = tuple(float(round(v, 6)) for v in held[k].tolist())
    curves = [("training (mean)", grid, train, 3), ("held-out (mean)", grid, held, 3)]
    if len(results) > 1:
        for r in results:
            fx, _, fh = error_curves(r)
            curves.append((f"held-out, fold {r.fold}", fx, fh, 1))
    cost = front.x_cost
    return Heldout(
        label=f"held-out error rate ({how})",
        rates=rates,
        curves=tuple(curves),
        x_label=(cost.mean_label or cost.label) if cost.mean_column else cost.label,
    )


# ----------------------------------------------------------------------------- the page
def report_html(title: str, summary: Summary | None, sections: Sequence[Section]) -> str:
    """The whole page, self-contained (see the module docstring)."""
    from . import __version__

    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        # Nothing may be fetched: no network, no external font, image or script.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
        "img-src data: blob:; font-src data:; connect-src 'none'\">",
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f'<header><h1>{_e(title)}</h1><p class="sub">dagger {_e(__version__)} · '
        "exact Pareto fronts of decision-tree costs · this page needs no network</p></header>",
    ]
    if summary is not None:
        parts.append(_summary_html(summary))
    data = []
    for i, sec in enumerate(sections):
        sid = f"s{i}"
        parts.append(_section_html(sid, sec))
        data.append(_section_data(sid, sec))
    parts.append(_json_script("dagger-data", {"sections": data}))
    parts.append(f"<script>{_plotly_js()}</script>")
    parts.append(f"<script>{_JS}</script>")
    parts.append("</body>\n</html>\n")
    return "\n".join(parts)


def index_html(title: str, rows: Sequence[dict], columns: Sequence[str]) -> str:
    """A study's index page: one line per task, each linking to its table's page
    (``row["report"]``); plain HTML, no script."""
    from . import __version__

    head = "".join(f"<th>{_e(c)}</th>" for c in columns)
    body = []
    for row in rows:
        cells = []
        for c in columns:
            v = row.get(c, "")
            if c == "table" and row.get("report"):
                cells.append(f'<td><a href="{_e(row["report"])}">{_e(v)}</a></td>')
            else:
                cells.append(f"<td>{_e(v)}</td>")
        body.append(f"<tr>{''.join(cells)}</tr>")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            '<head><meta charset="utf-8">',
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "style-src 'unsafe-inline'\">",
            f"<title>{_e(title)}</title><style>{_CSS}</style></head>",
            "<body>",
            f'<header><h1>{_e(title)}</h1><p class="sub">dagger {_e(__version__)} · one page '
            "per table: its fronts, their points and trees</p></header>",
            '<section><table class="points" id="tasks">',
            f"<thead><tr>{head}</tr></thead>",
            f"<tbody>{''.join(body)}</tbody>",
            "</table></section>",
            "</body>",
            "</html>",
            "",
        ]
    )


def _e(value) -> str:
    return html.escape(str(value), quote=True)


def _json_script(element_id: str, obj) -> str:
    """JSON inside ``<script type="application/json">``: ``<``, ``>``, ``&`` escaped so no
    text of the data can close the element."""
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _plotly_js() -> str:
    from plotly.offline import get_plotlyjs

    js = get_plotlyjs()
    if "</script" in js.lower():  # would end the inline element early
        raise AssertionError("plotly.js contains '</script'; it cannot be inlined as is")
    return js


def _summary_html(s: Summary) -> str:
    facts = [("rows", f"{s.rows:,}"), ("attributes", f"{len(s.attributes):,}")]
    facts.append(("decision", f"{s.decision} ({len(s.decisions)} values)"))
    facts.extend(s.facts)
    dl = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in facts)
    decisions = "".join(
        f'<li><span class="swatch" style="background:{PALETTE[i % len(PALETTE)]}"></span>'
        f"{_e(v)}: {n:,}</li>"
        for i, (v, n) in enumerate(s.decisions)
    )
    attrs = ", ".join(f"{_e(a)} ({n})" for a, n in s.attributes)
    prep = "".join(f"<li>{_e(line)}</li>" for line in s.preprocessing)
    prep_html = f"<ul>{prep}</ul>" if prep else "<p>Nothing changed.</p>"
    return (
        '<section class="summary" id="summary">'
        f"<h2>The table: {_e(s.name)}</h2>"
        f'<dl class="facts">{dl}</dl>'
        f'<h3>Decisions</h3><ul class="decisions">{decisions}</ul>'
        f"<details><summary>Attributes and their numbers of values</summary><p>{attrs}</p>"
        "</details>"
        f"<h3>Preprocessing</h3>{prep_html}"
        "</section>"
    )


def _columns(front: Front, heldout: Heldout | None) -> list[tuple[str, str]]:
    """(key, heading) of the points table's columns."""
    cols = [("k", "#"), ("x", front.x_cost.column)]
    if front.x_cost.mean_column:
        cols.append(("xm", front.x_cost.mean_column))
    cols.append(("y", front.y_cost.column))
    if front.y_cost.mean_column:
        cols.append(("ym", front.y_cost.mean_column))
    if front.counts is not None:
        cols.append(("trees", "trees"))
    if heldout is not None:
        cols.append(("heldout", heldout.label))
    cols.append(("tree", "tree"))
    return cols


def _section_html(sid: str, sec: Section) -> str:
    front = sec.front
    cols = _columns(front, sec.heldout)
    head = "".join(f'<th class="{k}">{_e(h)}</th>' for k, h in cols)
    rows = []
    n = max(front.n_rows, 1)
    for k, (a, b) in enumerate(front.points()):
        cells = []
        for key, _ in cols:
            if key == "k":
                text = str(k)
            elif key == "x":
                text = str(a)
            elif key == "xm":
                text = f"{a / n:.4f}"
            elif key == "y":
                text = str(b)
            elif key == "ym":
                text = f"{b / n:.4f}"
            elif key == "trees":
                count = int(front.counts[k])  # type: ignore[index]
                cells.append(f'<td class="trees" title="{count}">{abbreviate(count)}</td>')
                continue
            elif key == "heldout":
                assert sec.heldout is not None
                r = sec.heldout.rates[k]
                text = "" if r is None else f"{r:.4f}"
            else:
                text = "●" if k in sec.trees else ""
            cells.append(f'<td class="{key}">{_e(text)}</td>')
        has = ' class="has-tree"' if k in sec.trees else ""
        rows.append(f'<tr data-point="{k}"{has}>{"".join(cells)}</tr>')
    extra = ""
    if sec.roc is not None:
        extra += (
            '<p class="sub">The same front as an ROC curve: the true positive rate against '
            "the false positive rate of each tree (click a point for its tree).</p>"
            f'<div class="chart small" id="{sid}-roc"></div>'
        )
    if sec.heldout is not None:
        extra += f'<div class="chart small" id="{sid}-heldout"></div>'
    if sec.comparison:
        extra += _comparison_html(sec.comparison)
    return (
        f'<section class="front" id="{sid}" data-section="{sid}">'
        f"<h2>{_e(sec.title)}</h2>"
        f'<p class="sub">{len(front):,} Pareto-optimal point(s) of {_e(front.x_cost.name)} '
        f"vs {_e(front.y_cost.name)}. {_e(sec.note)}</p>"
        '<div class="pair">'
        f'<div class="chart" id="{sid}-chart"></div>'
        f'<div class="tree-panel" id="{sid}-tree"><p class="hint">Click a point to see its '
        "tree.</p></div>"
        "</div>"
        f"{extra}"
        f'<div class="table-box"><table class="points" id="{sid}-points">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        "</section>"
    )


def _comparison_html(comparison: dict) -> str:
    head = "<tr><th>heuristic</th><th>points</th><th>on front</th><th>extra x at min y</th>"
    head += "<th>area</th><th>area/box</th></tr>"
    rows = []
    for name, r in comparison.items():
        extra = "never" if r["extra_x_at_min_y"] is None else str(r["extra_x_at_min_y"])
        norm = "-" if r["area_normalized"] is None else f"{r['area_normalized']:.4f}"
        rows.append(
            f"<tr><td>{_e(name)}</td><td>{r['points']}</td><td>{r['on_front']}</td>"
            f"<td>{_e(extra)}</td><td>{r['area']}</td><td>{_e(norm)}</td></tr>"
        )
    return (
        '<details class="greedy" open><summary>Greedy heuristics against the exact front'
        '</summary><table class="points greedy-table">'
        f"<thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"
        "<p>extra x at min y: the least x of a greedy tree with the front's least y, minus "
        "the exact least x (never: no greedy tree gets there). area: the sum over x of "
        "(greedy staircase − exact staircase); area/box: that area over the front's box."
        "</p></details>"
    )


def _section_data(sid: str, sec: Section) -> dict:
    front = sec.front
    return {
        "id": sid,
        "x": front.x_cost.column,
        "y": front.y_cost.column,
        "points": [[a, b] for a, b in front.points()],
        "decisions": list(sec.decisions),
        "colors": [PALETTE[i % len(PALETTE)] for i in range(len(sec.decisions))],
        "trees": {str(k): v for k, v in sorted(sec.trees.items())},
        "figure": _figure(sec),
        "heldout": _heldout_figure(sec.heldout, front) if sec.heldout is not None else None,
        "roc": _roc_figure(front, sec.roc) if sec.roc is not None else None,
        "command": sec.command,
    }


def _figure(sec: Section) -> dict:
    """The chart of a front as plotly's JSON (data and layout, keys sorted)."""
    import plotly.graph_objects as go

    front = sec.front
    n = max(front.n_rows, 1)
    xs, ys = front.x.tolist(), front.y.tolist()
    custom = []
    for k, (a, b) in enumerate(zip(xs, ys)):
        bits = []
        for cost, v in ((front.x_cost, a), (front.y_cost, b)):
            if cost.mean_column:
                bits.append(f"{cost.mean_column.replace('_', ' ')}: {v / n:.4f}")
        if front.counts is not None:
            bits.append(f"trees: {abbreviate(int(front.counts[k]))}")
        if front.proven is not None and front.gaps is not None:
            bits.append(
                "proven optimal" if front.proven[k] else f"not proven (gap {front.gaps[k]})"
            )
        bits.append("click: its tree" if k in sec.trees else "tree not in this page")
        custom.append([k, "<br>".join(bits)])
    xl, yl = front.x_cost.column.replace("_", " "), front.y_cost.column.replace("_", " ")
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            mode="lines+markers",
            line={"shape": "hv", "color": "#4c72b0", "width": 1.5},
            marker={
                "size": 8,
                "color": "#4c72b0",
                "symbol": "circle"
                if front.proven is None
                else ["circle" if ok else "circle-open" for ok in front.proven],
            },
            name="exact front" if sec.bound is None else "best front found (open: not proven)",
            customdata=custom,
            hovertemplate=f"point %{{customdata[0]}}<br>{xl}: %{{x}}<br>{yl}: %{{y}}"
            "<br>%{customdata[1]}<extra></extra>",
        )
    )
    for i, (name, (gx, gy)) in enumerate((sec.greedy or {}).items()):
        fig.add_trace(
            go.Scatter(
                x=[int(v) for v in gx],
                y=[int(v) for v in gy],
                mode="markers",
                name=name,
                marker={"size": 7, "symbol": "x-thin-open", "color": PALETTE[(i + 1) % 10]},
                hovertemplate=f"{name}<br>{xl}: %{{x}}<br>{yl}: %{{y}}<extra></extra>",
            )
        )
    if sec.bound is not None:
        bx, by = (list(map(int, a)) for a in sec.bound)
        fig.add_trace(
            go.Scatter(
                x=bx,
                y=by,
                mode="lines",
                line={"shape": "hv", "color": "#8c8c8c", "width": 1.5, "dash": "dash"},
                name="proven bound (no tree below)",
                hovertemplate=f"bound<br>{xl}: %{{x}}<br>{yl}: %{{y}}<extra></extra>",
            )
        )
    fig.add_trace(  # the point whose tree is shown (moved by the page's script)
        go.Scatter(
            x=[],
            y=[],
            mode="markers",
            name="selected",
            marker={"size": 16, "color": "rgba(0,0,0,0)", "line": {"color": "#c44e52", "width": 3}},
            hoverinfo="skip",
            showlegend=False,
        )
    )
    fig.update_layout(
        template="plotly_white",
        xaxis_title=front.x_cost.label,
        yaxis_title=front.y_cost.label,
        margin={"l": 60, "r": 20, "t": 20, "b": 50},
        hovermode="closest",
        clickmode="event",
        legend={"orientation": "h", "y": -0.2},
        showlegend=bool(sec.greedy) or sec.bound is not None,
        height=420,
    )
    return _plotly_dict(fig)


def _roc_figure(front: Front, classes: tuple) -> dict:
    """The ROC chart of a front of false positives against false negatives: each point's
    true positive rate against its false positive rate (``classes``: the positive and the
    negative rows or weight), the step the greatest rate at each false positive rate, and
    the diagonal of a leaf that decides at random."""
    import plotly.graph_objects as go

    from .plots import roc_rates

    fp_is_x = front.x_cost.name == "false-positives"
    fp, fn = (front.x, front.y) if fp_is_x else (front.y, front.x)
    order = np.argsort(np.asarray(fp), kind="stable")
    fpr, tpr = (
        r.tolist() for r in roc_rates(np.asarray(fp)[order], np.asarray(fn)[order], classes)
    )
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=fpr,
            y=tpr,
            mode="lines+markers",
            line={"shape": "hv", "color": "#4c72b0", "width": 1.5},
            marker={"size": 7, "color": "#4c72b0"},
            name="trees on the front",
            customdata=[[int(k)] for k in order],
            hovertemplate="point %{customdata[0]}<br>false positive rate: %{x:.4f}"
            "<br>true positive rate: %{y:.4f}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            line={"color": "#8c8c8c", "width": 1, "dash": "dot"},
            name="chance",
            hoverinfo="skip",
        )
    )
    fig.update_layout(
        template="plotly_white",
        xaxis={"title": "False positive rate", "range": [-0.02, 1.02]},
        yaxis={"title": "True positive rate", "range": [-0.02, 1.02]},
        margin={"l": 60, "r": 20, "t": 20, "b": 50},
        height=360,
        legend={"orientation": "h", "y": -0.25},
    )
    return _plotly_dict(fig)


def _heldout_figure(held: Heldout, front: Front) -> dict:
    import plotly.graph_objects as go

    fig = go.Figure()
    for name, xs, ys, width in held.curves:
        fig.add_trace(
            go.Scatter(
                x=[float(v) for v in xs],
                y=[float(v) for v in ys],
                mode="lines",
                line={"shape": "hv", "width": width},
                name=name,
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
            )
        )
    fig.update_layout(
        template="plotly_white",
        xaxis_title=held.x_label or front.x_cost.label,
        yaxis_title="error rate",
        margin={"l": 60, "r": 20, "t": 20, "b": 50},
        height=320,
        legend={"orientation": "h", "y": -0.25},
    )
    return _plotly_dict(fig)


def _plotly_dict(fig) -> dict:
    import plotly.io as pio

    doc = json.loads(pio.to_json(fig, validate=True, pretty=False))
    return {"data": doc["data"], "layout": doc["layout"]}


_CSS = """
:root { --fg: #222; --muted: #666; --line: #bbb; --bg: #fff; --accent: #c44e52; }
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); margin: 0 auto; padding: 1rem 1.5rem 3rem; max-width: 1400px; }
h1 { font-size: 1.6rem; margin: 0.2rem 0; } h2 { font-size: 1.25rem; margin-top: 2rem; }
h3 { font-size: 1rem; margin-bottom: 0.3rem; }
.sub { color: var(--muted); margin-top: 0.2rem; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; }
ul.decisions { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; }
.swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.3em;
  border-radius: 2px; vertical-align: -0.05em; }
.pair { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; }
@media (max-width: 900px) { .pair { grid-template-columns: 1fr; } }
.chart { min-height: 420px; } .chart.small { min-height: 320px; }
.tree-panel { border: 1px solid #ddd; border-radius: 6px; padding: 0.6rem; overflow: auto;
  max-height: 640px; }
.tree-panel .hint { color: var(--muted); }
.tree-head { margin: 0 0 0.5rem; font-size: 0.9rem; }
.table-box { max-height: 480px; overflow: auto; margin-top: 1rem; border: 1px solid #eee; }
table.points { border-collapse: collapse; font-variant-numeric: tabular-nums; font-size: 0.9rem; }
table.points th, table.points td { padding: 0.2rem 0.7rem; text-align: right;
  border-bottom: 1px solid #eee; }
table.points th { position: sticky; top: 0; background: #f7f7f7; }
table.points tbody tr.has-tree { cursor: pointer; }
table.points tbody tr:hover { background: #f3f6fb; }
table.points tbody tr.selected { background: #fde8e8; }
details { margin: 0.6rem 0; }
.tree { width: max-content; min-width: 100%; }
.tree ul { position: relative; display: flex; justify-content: center; margin: 0;
  padding: 18px 0 0; }
.tree > ul { padding-top: 0; }
.tree li { list-style: none; position: relative; padding: 18px 3px 0; text-align: center; }
.tree li::before, .tree li::after { content: ""; position: absolute; top: 0; right: 50%;
  width: 50%; height: 18px; border-top: 1px solid var(--line); }
.tree li::after { right: auto; left: 50%; border-left: 1px solid var(--line); }
.tree li:only-child::before, .tree li:only-child::after { display: none; }
.tree li:only-child { padding-top: 0; }
.tree li:first-child::before, .tree li:last-child::after { border: 0 none; }
.tree li:last-child::before { border-right: 1px solid var(--line); }
.tree ul ul::before { content: ""; position: absolute; top: 0; left: 50%; height: 18px;
  border-left: 1px solid var(--line); }
.tree > ul > li { padding-top: 0; }
.tree > ul > li::before, .tree > ul > li::after { display: none; }
.edge { display: block; font-size: 0.75rem; color: var(--muted); margin-bottom: 2px; }
.node { display: inline-block; border: 1px solid #999; border-radius: 4px; padding: 2px 6px;
  font-size: 0.8rem; background: #fafafa; white-space: nowrap; }
.node.split { font-weight: 600; }
.node.leaf { border-width: 2px; background: #fff; }
.node .counts { display: block; font-weight: normal; color: var(--muted); font-size: 0.72rem; }
.node .errors { color: var(--accent); }
.tree-text pre { font-size: 0.8rem; text-align: left; }
"""

_JS = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("dagger-data").textContent);
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function pairs(node) {
    if (node.s) return node.s;
    var out = [];
    node.c.forEach(function (n, i) { if (n) out.push([i, n]); });
    return out;
  }
  function countsText(sec, node) {
    return pairs(node).map(function (p) { return sec.decisions[p[0]] + ": " + p[1]; }).join(", ");
  }
  function nodeItem(sec, node, edge) {
    var li = el("li");
    if (edge !== null) li.appendChild(el("span", "edge", edge));
    var box;
    if (node.k) {
      box = el("span", "node split", node.a);
      box.appendChild(el("span", "counts", node.n + " rows"));
      li.appendChild(box);
      var ul = el("ul");
      node.k.forEach(function (kv) { ul.appendChild(nodeItem(sec, kv[1], kv[0])); });
      li.appendChild(ul);
    } else {
      box = el("span", "node leaf", node.d);
      var i = sec.decisions.indexOf(node.d);
      if (i >= 0) box.style.borderColor = sec.colors[i];
      var max = Math.max.apply(null, pairs(node).map(function (p) { return p[1]; }).concat([0]));
      box.appendChild(el("span", "counts", "[" + countsText(sec, node) + "]"));
      if (node.n - max > 0) {
        box.appendChild(el("span", "counts errors", (node.n - max) + " misclassified"));
      }
      box.setAttribute("data-leaf", node.d);
      li.appendChild(box);
    }
    return li;
  }
  function textLines(sec, node, indent, out) {
    var pad = new Array(indent + 1).join("|   ");
    node.k.forEach(function (kv) {
      var edge = kv[0], child = kv[1];
      var test = /^[<>]/.test(edge) ? node.a + " " + edge : node.a + " = " + edge;
      if (child.k) {
        out.push(pad + test);
        textLines(sec, child, indent + 1, out);
      } else {
        out.push(pad + test + ": " + child.d + "  [" + countsText(sec, child) + "]");
      }
    });
    return out;
  }
  function treeText(sec, root) {
    if (!root.k) return root.d + "  [" + countsText(sec, root) + "]";
    return textLines(sec, root, 0, []).join("\n");
  }
  function showTree(sec, k) {
    var panel = document.getElementById(sec.id + "-tree");
    panel.innerHTML = "";
    var p = sec.points[k];
    var tree = sec.trees[String(k)];
    panel.setAttribute("data-point", String(k));
    var head = el("p", "tree-head");
    var what = "Point " + k + ": " + sec.x + " = " + p[0] + ", " + sec.y + " = " + p[1];
    head.appendChild(el("strong", null, what));
    panel.appendChild(head);
    if (!tree) {
      panel.appendChild(el("p", "hint", "This page does not carry this point's tree " +
        "(see the note above); this command prints it (with this run's table options):"));
      if (sec.command) panel.appendChild(el("pre", "command", sec.command.replace("{y}", p[1])));
    } else {
      var costs = tree.costs.map(function (c) { return c[0] + " = " + c[1]; }).join(", ");
      panel.appendChild(el("p", "tree-head costs", costs));
      var div = el("div", "tree");
      var ul = el("ul");
      ul.appendChild(nodeItem(sec, tree.root, null));
      div.appendChild(ul);
      panel.appendChild(div);
      var details = el("details", "tree-text");
      details.appendChild(el("summary", null, "The tree as text (as dagger tree prints it)"));
      details.appendChild(el("pre", null, treeText(sec, tree.root)));
      panel.appendChild(details);
      // A wide tree: show its root, in the middle, first.
      panel.scrollLeft = Math.max(0, (div.scrollWidth - panel.clientWidth) / 2);
    }
    var rows = document.querySelectorAll("#" + sec.id + "-points tbody tr");
    rows.forEach(function (r) {
      r.classList.toggle("selected", r.getAttribute("data-point") === String(k));
    });
    var chart = document.getElementById(sec.id + "-chart");
    if (window.Plotly && chart.data) {
      var last = chart.data.length - 1;
      Plotly.restyle(chart, { x: [[p[0]]], y: [[p[1]]] }, [last]);
    }
  }
  data.sections.forEach(function (sec) {
    var chart = document.getElementById(sec.id + "-chart");
    var config = { displaylogo: false, responsive: true };
    if (window.Plotly) {
      Plotly.newPlot(chart, sec.figure.data, sec.figure.layout, config).then(function () {
        chart.setAttribute("data-ready", "1");
      });
      chart.on("plotly_click", function (ev) {
        var pt = ev.points[0];
        if (pt && pt.curveNumber === 0) showTree(sec, pt.customdata[0]);
      });
      if (sec.heldout) {
        var held = document.getElementById(sec.id + "-heldout");
        Plotly.newPlot(held, sec.heldout.data, sec.heldout.layout, config);
      }
      if (sec.roc) {
        var roc = document.getElementById(sec.id + "-roc");
        Plotly.newPlot(roc, sec.roc.data, sec.roc.layout, config);
        roc.on("plotly_click", function (ev) {
          var pt = ev.points[0];
          if (pt && pt.curveNumber === 0) showTree(sec, pt.customdata[0]);
        });
      }
    }
    document.querySelectorAll("#" + sec.id + "-points tbody tr").forEach(function (row) {
      row.addEventListener("click", function () {
        showTree(sec, Number(row.getAttribute("data-point")));
      });
    });
  });
})();
"""

__all__ = [
    "MAX_TREES",
    "Heldout",
    "Section",
    "Summary",
    "heldout_of",
    "index_html",
    "picked_points",
    "relation_section",
    "report_html",
    "section_of",
    "summary_of",
    "tree_data",
]
