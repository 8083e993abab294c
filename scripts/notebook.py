"""Run a notebook top to bottom without Jupyter, and write it as a documentation page.

The tutorial (``docs/tutorial.ipynb``) is committed without outputs. ``run_notebook`` runs its
code cells in order in one namespace, in the current folder, as a kernel would: a cell's
printed text is its stream output, its last expression, if any, its result, with the
object's ``_repr_html_`` beside its ``repr`` (what Jupyter shows). ``tests/test_notebook.py``
runs it so (a failing cell fails the test); ``scripts/docs_outputs.py`` writes the page of
the documentation site from the outputs (``page``) and the notebook with its outputs
(``executed``). Only the standard library: no kernel, no nbclient.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
from pathlib import Path


def read_notebook(path) -> dict:
    """A notebook's JSON (nbformat 4), or ValueError saying what is wrong with it."""
    nb = json.loads(Path(path).read_text(encoding="utf-8"))
    if nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
        raise ValueError(f"{path}: not a version 4 notebook")
    for k, cell in enumerate(nb["cells"]):
        if cell.get("cell_type") not in ("code", "markdown") or "source" not in cell:
            raise ValueError(f"{path}: cell {k} is neither code nor Markdown with a source")
        if cell["cell_type"] == "code" and cell.get("outputs"):
            raise ValueError(f"{path}: cell {k} is committed with outputs; clear them")
    return nb


def source(cell) -> str:
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)


def run_notebook(nb: dict, name: str = "notebook") -> list[list[dict]]:
    """Every cell's outputs (nbformat's ``stream`` and ``execute_result`` dicts; none for a
    Markdown cell). An exception in a cell propagates, naming the cell."""
    namespace: dict = {"__name__": "__main__"}
    outputs: list[list[dict]] = []
    count = 0
    for k, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            outputs.append([])
            continue
        count += 1
        tree = ast.parse(source(cell), f"{name}, cell {k}")
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(tree, f"{name}, cell {k}", "exec"), namespace)
            value = None
            if last is not None:
                expression = ast.Expression(last.value)
                value = eval(compile(expression, f"{name}, cell {k}", "eval"), namespace)
        out: list[dict] = []
        if printed.getvalue():
            out.append({"output_type": "stream", "name": "stdout", "text": printed.getvalue()})
        if value is not None:
            data = {"text/plain": repr(value)}
            html = getattr(value, "_repr_html_", None)
            if callable(html):
                data["text/html"] = html()
            out.append(
                {
                    "output_type": "execute_result",
                    "data": data,
                    "metadata": {},
                    "execution_count": count,
                }
            )
        outputs.append(out)
    return outputs


def executed(nb: dict, outputs: list[list[dict]]) -> dict:
    """The notebook with its outputs (to open in Jupyter as it ran)."""
    cells = []
    count = 0
    for cell, out in zip(nb["cells"], outputs):
        cell = dict(cell)
        if cell["cell_type"] == "code":
            count += 1
            cell["outputs"], cell["execution_count"] = out, count
        cells.append(cell)
    return {**nb, "cells": cells}


def page(nb: dict, outputs: list[list[dict]]) -> str:
    """The notebook as Markdown for the documentation site: Markdown cells as they are, code
    in fenced blocks, printed text in plain blocks, results as their HTML (or text)."""
    parts = []
    for cell, out in zip(nb["cells"], outputs):
        if cell["cell_type"] == "markdown":
            parts.append(source(cell).strip())
            continue
        parts.append(f"```python\n{source(cell).strip()}\n```")
        for o in out:
            if o["output_type"] == "stream":
                parts.append(f"```text\n{o['text'].rstrip()}\n```")
            elif "text/html" in o["data"]:
                parts.append(f'<div class="nb-output">{o["data"]["text/html"]}</div>')
            else:
                parts.append(f"```text\n{o['data']['text/plain']}\n```")
    return "\n\n".join(parts) + "\n"
