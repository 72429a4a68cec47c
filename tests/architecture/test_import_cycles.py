"""No import cycle inside a service, the web pages, the shared library or the Python client
(issues 13 and 31), counting the imports that exist only for the type checker.

The graph is built from the source (no module is imported): one node per module, one edge per
`import` / `from … import` at module level, inside a function or under `if TYPE_CHECKING:`,
resolved to the module it loads (`from .x import name` is an edge to `x`, or to the submodule
`x.name` if there is one). A type-only import is a dependency all the same (the module cannot be
understood, nor type-checked, without the other), so it counts (issue 31: "counting type-only
imports"). A compiled module (Cython) is a node too, read from its type stub (`.pyi`), so
`from . import _compiled` is an edge to it rather than to the package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "registration": ROOT / "services/registration/src/registration",
    "awards": ROOT / "services/awards/src/awards",
    "gameplay": ROOT / "services/gameplay/src/gameplay",
    "pairing": ROOT / "services/pairing/src/pairing",
    "partners": ROOT / "services/partners/src/partners",
    "portal": ROOT / "services/portal/src/portal",
    "gomoku_shared": ROOT / "shared/src/gomoku_shared",
    "gomoku_client": ROOT / "clients/python/src/gomoku_client",
}


#: Cycles tolerated for now, per package (issue 13 removed gameplay's decisions <-> games, issue 31
#: event_config's event <-> schedule <-> validation and the client's aio/sync <-> endpoints): none.
NOT_YET_CONVERTED: dict[str, list[list[str]]] = {}


def _modules(name: str, root: Path) -> dict[str, Path]:
    out = {}
    stubs = [path for path in root.rglob("*.pyi") if not path.with_suffix(".py").exists()]
    for path in sorted([*root.rglob("*.py"), *stubs]):
        rel = path.relative_to(root).with_suffix("")
        parts = [name, *rel.parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _targets(module: str, is_package: bool, node: ast.stmt, known: dict[str, Path]) -> set[str]:
    found: set[str] = set()
    if isinstance(node, ast.Import):
        candidates = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[: len(base) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        candidates = [f"{source}.{alias.name}" for alias in node.names] + [source]
        # `from .x import name`: the submodule x.name if it exists, else x itself
        subs = [c for c in candidates[:-1] if c in known]
        candidates = subs if subs and len(subs) == len(node.names) else candidates
    else:
        return found
    for name in candidates:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.add(name)
    return found


def import_graph(name: str, root: Path) -> dict[str, set[str]]:
    known = _modules(name, root)
    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                edges |= _targets(module, path.name == "__init__.py", node, known)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_finds_a_cycle_and_counts_type_checking(tmp_path):
    pkg = tmp_path / "demo"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..a import x\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .d import y\n")
    (pkg / "d.py").write_text("from .c import z\n")
    graph = import_graph("demo", pkg)
    assert graph["demo.a"] == {"demo.sub.b"} and graph["demo.c"] == {"demo.d"}
    assert cycles(graph) == [["demo.a", "demo.sub.b"], ["demo.c", "demo.d"]]


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_import_cycle(package):
    graph = import_graph(package, PACKAGES[package])
    assert len(graph) > 5, "the package's modules were not found"
    tolerated = NOT_YET_CONVERTED.get(package, [])
    assert [c for c in cycles(graph) if c not in tolerated] == []


def test_registration_had_the_cycle_that_is_gone():
    """Registration's handlers <-> stages cycle (issue 13) is broken: stages depends on the command
    and the views, and nothing it imports depends on stages."""
    graph = import_graph("registration", PACKAGES["registration"])
    stages = "registration.service_layer.stages"
    reach, todo = set(), list(graph[stages])
    while todo:
        node = todo.pop()
        if node not in reach:
            reach.add(node)
            todo.extend(graph[node])
    assert stages not in reach and "registration.service_layer.command" in reach
