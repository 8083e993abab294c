"""The report in a real browser: headless Chromium (Debian's package) driven by Playwright.

``dagger relate zoo --report R.html`` is opened from disk (file://) with the network
refused; the test reads every Pareto point of zoo's front from the page's table, hovers a
point of the chart and reads its costs, clicks it and finds its tree, then clicks a row.

It needs ``/usr/bin/chromium`` (``apt-get install chromium``; ``.ci/run`` installs it) and
the ``playwright`` package (the ``test`` and ``browser`` extras); Playwright's own browser
download is not used. Where either is missing the test is skipped with the reason, except
in CI (``CI`` set), where it must run and fails instead.
"""

from __future__ import annotations

import os
import shutil

import pytest
from click.testing import CliRunner

from dagger_cli.cli import main
from tests.conftest import MIRROR

#: The flags a sandboxed, offline machine needs (no background connections, no sandbox as root).
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.browser


def _chromium() -> str:
    """The Chromium to drive, or a skip (a failure in CI) saying what is missing."""
    path = os.environ.get("DAGGER_CHROMIUM") or shutil.which("chromium")
    why = None
    if path is None:
        why = "Chromium is not installed (apt-get install chromium); .ci/run installs it"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            why = "playwright is not installed (pip install -e '.[browser]')"
    if why is None and not MIRROR.is_dir():
        why = f"the UCI mirror (zoo) is not at {MIRROR}"
    if why is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser test must run in CI: {why}")
        pytest.skip(why)
    assert path is not None
    return path


@pytest.fixture
def page(tmp_path):
    chromium = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh profile
            executable_path=chromium,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1300, "height": 1000},
        )
        try:
            pg = context.new_page()
            pg.requests = []  # type: ignore[attr-defined]
            pg.errors = []  # type: ignore[attr-defined]
            pg.on("request", lambda r: pg.requests.append(r.url))  # type: ignore[attr-defined]
            pg.on("pageerror", lambda e: pg.errors.append(str(e)))  # type: ignore[attr-defined]
            pg.on(
                "console",
                lambda m: pg.errors.append(m.text) if m.type == "error" else None,  # type: ignore[attr-defined]
            )
            yield pg
        finally:
            context.close()


def _leaves(node, out):
    """Leaf texts in drawing order: the decision, then its class counts."""
    if node.is_leaf:
        out.append(node)
    for _, child in node.children:
        _leaves(child, out)
    return out


def test_zoo_report_in_chromium(page, tmp_path, monkeypatch):
    from dagger_cli import engine
    from dagger_cli.data.datasets import load_table
    from dagger_cli.trees import extract_tree

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["relate", "zoo", "--report", "R.html", "-q"])
    assert result.exit_code == 0, result.output
    table = load_table("zoo")
    rel = engine.relate(table)
    points = rel.front.points()

    url = (tmp_path / "R.html").as_uri()
    page.goto(url)
    page.wait_for_selector("#s0-chart[data-ready]", timeout=30_000)

    # Every Pareto point is a row of the table, with its x and y.
    rows = page.locator("#s0-points tbody tr")
    assert rows.count() == len(points) == 18
    heads = page.locator("#s0-points thead th").all_inner_texts()
    ix, iy = heads.index("total_path_length"), heads.index("misclassifications")
    shown = []
    for k in range(rows.count()):
        cells = rows.nth(k).locator("td").all_inner_texts()
        shown.append((int(cells[ix]), int(cells[iy])))
    assert shown == points

    # The chart has one marker per point; hovering one shows its costs.
    markers = page.locator("#s0-chart .scatterlayer .trace").first.locator(".points path")
    assert markers.count() == len(points)
    k = next(i for i, (_, y) in enumerate(points) if y == 4)  # G(4) = 116
    box = markers.nth(k).bounding_box()
    assert box is not None
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    hover = page.locator("#s0-chart .hoverlayer .hovertext")
    hover.wait_for(timeout=5_000)
    text = hover.text_content() or ""
    assert f"point {k}" in text
    assert f"total path length: {points[k][0]}" in text
    assert f"misclassifications: {points[k][1]}" in text

    # Clicking it draws its tree: its costs, its split attributes, its leaves' counts.
    page.mouse.click(cx, cy)
    panel = page.locator("#s0-tree")
    page.wait_for_selector(f'#s0-tree[data-point="{k}"] .tree')
    tree = extract_tree(rel, k)
    head = panel.locator(".tree-head").first.inner_text()
    assert f"total_path_length = {points[k][0]}" in head
    costs = panel.locator(".costs").inner_text()
    assert "misclassifications = 4" in costs and "depth = 4" in costs
    leaves = panel.locator(".node.leaf")
    expected = _leaves(tree.root, [])
    assert leaves.count() == len(expected) == tree.costs()["leaves"]
    for j, leaf in enumerate(expected):
        counts = ", ".join(f"{d}: {n}" for d, n in zip(tree.decision_values, leaf.counts) if n)
        drawn = leaves.nth(j).inner_text()
        assert drawn.startswith(leaf.decision) and f"[{counts}]" in drawn, (j, drawn)
    splits = panel.locator(".node.split").all_inner_texts()
    assert splits[0].startswith(tree.root.attribute)  # "milk"
    assert page.locator("#s0-points tbody tr.selected").get_attribute("data-point") == str(k)
    # ... and as text, line for line what `dagger tree` prints (after its costs line).
    panel.locator(".tree-text summary").click()
    drawn_text = panel.locator(".tree-text pre").inner_text().splitlines()
    assert drawn_text == tree.to_text().splitlines()[1:]

    # A row of the table shows its tree too: the last point, no misclassification.
    rows.nth(len(points) - 1).click()
    page.wait_for_selector(f'#s0-tree[data-point="{len(points) - 1}"] .tree')
    assert "misclassifications = 0" in panel.locator(".costs").inner_text()

    # Nothing but the page itself was loaded, and no script failed.
    assert page.requests == [url], page.requests
    assert page.errors == [], page.errors
