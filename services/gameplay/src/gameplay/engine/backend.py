"""Selects the rules core: the compiled Cython module or the plain-Python reference.

GAMEPLAY_ENGINE=auto|cython|python (read once, by ``gameplay.config``, at first import).
``auto`` means cython and fails loudly if the extension is missing: a failed build
must never pass silently. ``python`` selects the reference (tests, debugging).

Both cores implement the same protocol:
    classify(black, white, point) -> str
    forbidden_points(black, white) -> dict[tuple[int, int], str]
    line_length(stones, point) -> int   # longest line through point, point counted as a stone
"""

from __future__ import annotations

import importlib
import importlib.machinery
from types import ModuleType

_MODULES = {"cython": "gameplay.engine._core", "python": "gameplay.engine.reference"}


def load(name: str) -> ModuleType:
    if name == "auto":
        name = "cython"
    if name not in _MODULES:
        raise ValueError(f"GAMEPLAY_ENGINE must be auto, cython or python, not {name!r}")
    try:
        module = importlib.import_module(_MODULES[name])
    except ImportError as exc:
        if name != "cython":
            raise
        raise ImportError(
            "the compiled rules core gameplay.engine._core is not built; run `make install` "
            "(or set GAMEPLAY_ENGINE=python to use the slow reference on purpose)"
        ) from exc
    if name == "cython" and not isinstance(module.__loader__, importlib.machinery.ExtensionFileLoader):
        # A stray _core.py (or a pure-Python shadow) must not stand in for the extension.
        raise ImportError(f"gameplay.engine._core at {module.__file__} is not a compiled extension module")
    return module


def _selected_name() -> str:
    from ..config import ENGINE

    return "cython" if ENGINE == "auto" else ENGINE


IMPLEMENTATION: str = _selected_name()
core: ModuleType = load(IMPLEMENTATION)
