"""Names that explain themselves and modules of one job (issue 13), in the packages converted so far.

- No one- or two-letter name is bound outside comprehensions and lambdas (variables, parameters,
  loop targets, functions, classes, import aliases, ``except … as``), but for the names every
  reader knows (``_``, ``id``, ``os``, ``io``, ``op``, ``sa`` …) and the exceptions listed below,
  each with its reason.
- No file over 500 lines, no function over 80, outside migrations.

Add a package to CHECKED when it is converted."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKED = {
    "pairing": ROOT / "services/pairing/src/pairing",
    "gameplay": ROOT / "services/gameplay/src/gameplay",
}
#: names any reader knows
COMMON = {"_", "__", "id", "io", "os", "re", "op", "sa", "db", "ok", "tz"}
#: (file relative to the package, name): why the short name stays
EXCEPTIONS = {
    ("entrypoints/api.py", "n"): "the round routes' path parameter: its name is public (docs/api.md, OpenAPI)",
    ("entrypoints/views.py", "at"): "a field of the audit answer: its name is public",
    ("migrations/versions/0001_messaging.py", "TS"): "a frozen revision",
    ("migrations/versions/0002_pairing.py", "TS"): "a frozen revision",
    # gameplay
    ("engine/rounds.py", "A"): "pairing player a (moves first in game 1), as the rules name it",
    ("engine/rounds.py", "B"): "pairing player b, as the rules name it",
    ("engine/rounds.py", "a"): "a round result's points of player a: a public field",
    ("engine/rounds.py", "b"): "a round result's points of player b: a public field",
    ("engine/opening_protocol.py", "n"): "N of the opening (PLAY-2): the keyword callers pass, as the API's body",
    ("engine/records.py", "n"): "N of the opening in the game record (PLAY-8): a public field",
    ("engine/records.py", "at"): "a move's time in the game record (PLAY-8): a public field",
    ("engine/openings.py", "b3"): "black 3's offset in the table of the 26 openings",
    ("entrypoints/api.py", "at"): "a record move's time: a public field",
    (
        "entrypoints/over_the_board_api.py",
        "n",
    ): "N of the opening (PLAY-2) in a record or a recorder's step, as the API's body",
}
#: gameplay's board code: coordinates (x, y), a direction (dx, dy), a line's origin (x0, y0)
EXCEPTIONS.update(
    {
        (module, name): "a board coordinate"
        for module in ("engine/coords.py", "engine/game.py", "engine/records.py", "engine/reference.py")
        for name in ("x", "y", "dx", "dy", "x0", "y0")
    }
)
MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80


def short_names(tree: ast.Module) -> set[tuple[int, str]]:
    """(line, name) of each one- or two-letter name bound outside comprehensions and lambdas."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Lambda)):
            inside.update(id(inner) for inner in ast.walk(node))
    found: set[tuple[int, str]] = set()
    for node in ast.walk(tree):
        if id(node) in inside:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add((node.lineno, node.id))
        elif isinstance(node, ast.arg):
            found.add((node.lineno, node.arg))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add((node.lineno, node.name))
        elif isinstance(node, ast.alias):
            found.add((node.lineno, node.asname or node.name.split(".")[0]))
        elif isinstance(node, ast.ExceptHandler) and node.name:
            found.add((node.lineno, node.name))
    return {(line, name) for line, name in found if len(name) <= 2 and name not in COMMON}


def test_the_name_walker_sees_every_binding():
    tree = ast.parse(
        "import numpy as np\nfrom x import y as yy\n"
        "def f(a, *, bb=1):\n    for i in a: pass\n    [k for k in a]\n    (lambda q: q)\n"
        "    try: pass\n    except E as e: pass\n    total = 0\nclass Cx: pass\n"
    )
    assert {name for _, name in short_names(tree)} == {"np", "yy", "f", "a", "bb", "i", "e", "Cx"}


@pytest.mark.parametrize("package", sorted(CHECKED))
def test_names_explain_themselves(package):
    root = CHECKED[package]
    offences = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for line, name in sorted(short_names(ast.parse(path.read_text(encoding="utf-8")))):
            if (rel, name) not in EXCEPTIONS:
                offences.append(f"{rel}:{line}: {name}")
    assert offences == []


@pytest.mark.parametrize("package", sorted(CHECKED))
def test_files_and_functions_are_small(package):
    root = CHECKED[package]
    too_big = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(root).as_posix()
        if text.count("\n") > MAX_FILE_LINES:
            too_big.append(f"{rel}: {text.count(chr(10))} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    too_big.append(f"{rel}:{node.lineno}: {node.name}() {length} lines")
    assert too_big == []
