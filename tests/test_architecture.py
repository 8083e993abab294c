"""The package's layers (ARCHITECTURE.md): no import cycle, and a light engine.

Every import of every module of ``dagger_cli`` counts, at module level and inside
functions alike: a lazy import is a dependency too, only a later one.
"""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "dagger_cli"


def _modules() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``'s)."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _resolve(name: str, modules: dict) -> str | None:
    """``name`` or its longest prefix that is a module of the package (None: outside)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules it imports (``from . import x`` with x a module
    imports x; importing a package imports its ``__init__``)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for mod, path in modules.items():
        here = mod if _is_package(path) else mod.rpartition(".")[0]
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    if node.module:
                        base += node.module.split(".")
                    source = ".".join(base)
                else:
                    source = node.module or ""
                # ``from X import y``: the submodule X.y when it is one, else X itself.
                targets = [
                    f"{source}.{a.name}" if f"{source}.{a.name}" in modules else source
                    for a in node.names
                ]
            else:
                continue
            for t in targets:
                r = _resolve(t, modules)
                if r is not None and r != mod:
                    edges.add(r)
        graph[mod] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of ``graph`` as a list of modules (first == last), or None."""
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    stack: list[str] = []

    def visit(v: str) -> list[str] | None:
        state[v] = 1
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w) :] + [w]
            if w not in state:
                found = visit(w)
                if found:
                    return found
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            found = visit(v)
            if found:
                return found
    return None


def test_the_graph_sees_every_kind_of_import():
    graph = import_graph()
    assert "dagger_cli.engine.kernels.fronts" in graph["dagger_cli.engine.kernels.depth_two"]
    # a lazy import inside a function
    assert "dagger_cli.engine.posets" in graph["dagger_cli.engine.dag"]
    # ``from . import x`` with x a module
    assert "dagger_cli.engine.threads" in graph["dagger_cli.engine.dag"]
    # a package's __init__
    assert "dagger_cli.engine" in graph["dagger_cli.cli.study"]


def test_no_import_cycle():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_find_cycle_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_layers():
    """What may import what: the data and cost layer imports neither the engine nor any
    front end, the engine imports no front end and not the rules (which sit beside the
    trees, on the engine's DAG), only the CLI imports click."""
    graph = import_graph()
    front_ends = ("dagger_cli.cli", "dagger_cli.sklearn", "dagger_cli.validate")
    front_ends += ("dagger_cli.study", "dagger_cli.plots", "dagger_cli.report")
    for mod, deps in graph.items():
        for dep in deps:
            if mod.startswith("dagger_cli.data") or mod in (
                "dagger_cli.costs",
                "dagger_cli.fronts",
            ):
                assert not dep.startswith("dagger_cli.engine"), (mod, dep)
            if mod.startswith("dagger_cli.engine") or mod.startswith("dagger_cli.data"):
                assert not dep.startswith(front_ends), (mod, dep)
                assert not dep.startswith("dagger_cli.rules"), (mod, dep)
            if mod.startswith("dagger_cli.rules"):
                assert not dep.startswith(front_ends), (mod, dep)
                assert dep != "dagger_cli.output", (mod, dep)
    for mod, path in _modules().items():
        if not mod.startswith("dagger_cli.cli"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            names |= {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
            assert "click" not in names, mod
    # Each front end's library is its own: matplotlib in plots.py, plotly in report.py.
    for lib, owner in (("matplotlib", "dagger_cli.plots"), ("plotly", "dagger_cli.report")):
        for mod, path in _modules().items():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
            names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
            if any(n == lib or n.startswith(lib + ".") for n in names):
                assert mod == owner, (lib, mod)


def test_the_engine_loads_no_front_end_library():
    code = (
        "import sys\n"
        "import dagger_cli.engine\n"
        "from dagger_cli.data.table import example_table\n"
        "dagger_cli.engine.relate(example_table())\n"
        "heavy = ('click', 'matplotlib', 'sklearn', 'dask', 'plotly')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


# ------------------------------------------------------------ the seams (one query, solvers)
def _trees() -> dict[str, ast.Module]:
    return {
        mod: ast.parse(path.read_text(encoding="utf-8"), str(path))
        for mod, path in _modules().items()
    }


#: The compiled core: a private module that only the kernels' declarations call.
CORE = "dagger_cli._core"
CORE_USERS = {
    "dagger_cli.engine.threads",
    "dagger_cli.engine.kernels",
    "dagger_cli.engine.kernels.discovery",
    "dagger_cli.engine.kernels.fronts",
    "dagger_cli.engine.kernels.depth_two",
    "dagger_cli.engine.kernels.ordered",
    "dagger_cli.engine.counting",
    "dagger_cli.engine.posets",
    "dagger_cli.engine.ordered",
    "dagger_cli.data.csv",
    "dagger_cli.rules.kernels",
}


def test_no_private_name_is_imported_across_modules():
    """Modules share public names only (a name with a leading underscore is its
    module's own); the compiled core is imported by the kernels' declarations alone."""
    for mod, tree in _trees().items():
        here = mod if _modules()[mod].name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            if node.level:
                base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                source = ".".join(base + (node.module.split(".") if node.module else []))
            else:
                source = node.module or ""
            if not source.startswith("dagger_cli"):
                continue
            for alias in node.names:
                name = alias.name
                if f"{source}.{name}" == CORE:
                    assert mod in CORE_USERS, f"{mod} imports the compiled core"
                    continue
                assert not (name.startswith("_") and not name.startswith("__")), (
                    f"{mod} imports the private {name} of {source}"
                )


def test_the_package_builds_queries_and_calls_solve():
    """No module calls the keyword convenience relate(...) but the API that defines it:
    the front ends build a Query once and call solve."""
    for mod, tree in _trees().items():
        if mod == "dagger_cli.engine.api":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", None)
                assert name != "relate", f"{mod}, line {node.lineno}: relate(...)"


ENGINE_NAMES = {"fast", "baseline", "paper", "ordered"}
#: The registry and the solvers' own modules (a solver names itself in its relations).
SOLVER_MODULES = {
    "dagger_cli.engine.registry",
    "dagger_cli.engine.dag",
    "dagger_cli.engine.ordered",
    "dagger_cli.engine.baseline",
}


def test_no_engine_name_outside_the_registry_and_its_solvers():
    """No module routes by an engine's name (``engine == "fast"``, ``engine="ordered"``):
    what a solver can do is the registry's (:class:`dagger_cli.engine.registry.Solver`)."""
    for mod, tree in _trees().items():
        if mod in SOLVER_MODULES:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    if isinstance(side, ast.Constant) and side.value in ENGINE_NAMES:
                        raise AssertionError(f"{mod}, line {node.lineno}: == {side.value!r}")
            if isinstance(node, ast.keyword) and node.arg == "engine":
                v = node.value
                if isinstance(v, ast.Constant) and v.value in ENGINE_NAMES:
                    raise AssertionError(f"{mod}, line {v.lineno}: engine={v.value!r}")


def test_relate_takes_its_options_as_groups():
    """The relate command receives whole values (a Source, Outputs, a Query), not one
    parameter per option."""
    import importlib
    import inspect

    command = importlib.import_module("dagger_cli.cli.relate").relate
    params = inspect.signature(inspect.unwrap(command.callback)).parameters
    assert len(params) < 12, list(params)
