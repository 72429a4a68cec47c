"""The shared library imports no service and no page (issue 31): the services and the portal are
found through entry points (``gomoku.services``, ``gomoku.pages``), so the library can be read,
type-checked and installed without them. Every import counts: at module level, inside a function,
or only for the type checker."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT / "shared/src/gomoku_shared"
SERVICES = {"registration", "pairing", "gameplay", "awards", "partners", "portal"}


def _imported(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            found.append((node.lineno, node.module))
    return found


def test_the_shared_library_imports_no_service() -> None:
    offending = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in sorted(SHARED.rglob("*.py"))
        for line, name in _imported(ast.parse(path.read_text(encoding="utf-8")))
        if name.split(".")[0] in SERVICES
    ]
    assert offending == []


def test_the_check_sees_an_import_inside_a_function() -> None:
    tree = ast.parse("def f():\n    from portal.app import create_app\n")
    assert _imported(tree) == [(2, "portal.app")]
