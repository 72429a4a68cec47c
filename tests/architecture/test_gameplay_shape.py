"""Gameplay in the shape every service is held to (issue 13): small modules, short functions,
names that say what they hold. The source is read, not imported; migrations are left out."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMEPLAY = ROOT / "services/gameplay/src/gameplay"
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80
#: short names that are the thing's own name: board coordinates, the pairing players A/B
SHORT_NAMES_ALLOWED = {"x", "y", "dx", "dy", "x0", "y0", "A", "B", "_D4", "_"}
#: fields of a public shape: round points of players a and b, N of the opening (PLAY-2) and a
#: move's ``at`` in the API and the record, black 3's offset in the opening table
FIELDS_ALLOWED = {
    ("engine/rounds.py", "a"),
    ("engine/rounds.py", "b"),
    ("engine/records.py", "n"),
    ("engine/records.py", "at"),
    ("engine/opening_protocol.py", "n"),
    ("engine/openings.py", "b3"),
    ("entrypoints/api.py", "n"),
    ("entrypoints/api.py", "at"),
}


def _modules() -> list[Path]:
    return [path for path in sorted(GAMEPLAY.rglob("*.py")) if "migrations" not in path.parts]


def _short_names(tree: ast.Module) -> list[tuple[int, str]]:
    """Names bound outside comprehensions and lambdas that are one or two characters long."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
            inside.update(id(sub) for sub in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            name = node.id
        elif isinstance(node, ast.arg):
            name = node.arg
        elif isinstance(node, ast.ExceptHandler) and node.name:
            name = node.name
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = node.name
        else:
            continue
        if len(name.strip("_")) <= 2 and name not in SHORT_NAMES_ALLOWED:
            found.append((node.lineno, name))
    return found


def test_the_name_check_sees_short_names_but_not_comprehensions():
    sample = "def f(g):\n    st = [p for p in g]\n    return lambda h: st\n"
    assert sorted(_short_names(ast.parse(sample))) == [(1, "f"), (1, "g"), (2, "st")]


def test_no_large_module_and_no_long_function():
    assert len(_modules()) > 20
    large, long = [], []
    for path in _modules():
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_FILE_LINES:
            large.append(path.name)
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.end_lineno is not None and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES:
                    long.append(f"{path.name}:{node.name}")
    assert large == [] and long == []


def test_names_say_what_they_hold():
    short = []
    for path in _modules():
        module = path.relative_to(GAMEPLAY).as_posix()
        for line, name in _short_names(ast.parse(path.read_text(encoding="utf-8"))):
            if (module, name) not in FIELDS_ALLOWED:
                short.append(f"{module}:{line}: {name}")
    assert short == []
