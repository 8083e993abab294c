"""dagger: exact trade-offs between the costs of decision trees.

>>> import dagger_cli
>>> rel = dagger_cli.relate(dagger_cli.example_table())
>>> rel.front.points()
[(0, 2), (4, 0)]

The names below are loaded on first use, so ``import dagger_cli`` stays cheap.
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_EXPORTS = {
    "DecisionTable": "data.table",
    "Recipe": "data.recipe",
    "example_table": "data.table",
    "relate": "engine",
    "Relation": "engine",
    "ENGINES": "engine",
    "Query": "engine",
    "Front": "fronts",
    "COSTS": "costs",
    "DaggerError": "errors",
    "InputError": "errors",
    "LimitError": "errors",
    "DownloadError": "errors",
    "load_table": "data.datasets",
    "fetch": "data.datasets",
    "REGISTRY": "data.datasets",
    "extract_tree": "trees",
    "extract_trees": "trees",
    "Tree": "trees",
    "optimize": "engine.counting",
    "Optimum": "engine.counting",
    "sorting": "data.families",
    "rules": "rules",
    "optimize_rules": "rules",
    "compare_tree": "rules",
    "RuleFronts": "rules",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module 'dagger_cli' has no attribute {name!r}")
