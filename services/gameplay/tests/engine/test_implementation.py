"""The engine selector must load the compiled core unless told otherwise (PLAY-3 engine).

A failed or skipped Cython build must make these tests fail, never fall back silently.
Each case runs in a fresh interpreter so GAMEPLAY_ENGINE is read at import as in production.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types

import pytest

from gameplay.engine import backend

PROBE = (
    "from gameplay.engine import backend as b; print(b.IMPLEMENTATION); print(b.core.__name__); print(b.core.__file__)"
)


def _probe(engine: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GAMEPLAY_ENGINE"}
    if engine is not None:
        env["GAMEPLAY_ENGINE"] = engine
    return subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=60)


def test_play3_default_engine_is_the_compiled_extension():
    """PLAY-3 engine: with GAMEPLAY_ENGINE unset, IMPLEMENTATION is cython and the core is
    the compiled extension module (a .so), not a Python file."""
    out = _probe(None)
    assert out.returncode == 0, out.stderr
    implementation, name, path = out.stdout.split()
    assert implementation == "cython"
    assert name == "gameplay.engine._core"
    assert path.endswith(".so")


@pytest.mark.slow
@pytest.mark.parametrize("value", ["auto", "cython", " Cython "])
def test_play3_auto_and_cython_select_the_compiled_core(value):
    """PLAY-3 engine: auto means cython (no fallback)."""
    out = _probe(value)
    assert out.returncode == 0, out.stderr
    implementation, name, path = out.stdout.split()
    assert (implementation, name) == ("cython", "gameplay.engine._core")
    assert path.endswith(".so")


def test_play3_python_selects_the_reference():
    """PLAY-3 engine: GAMEPLAY_ENGINE=python selects the plain-Python reference."""
    out = _probe("python")
    assert out.returncode == 0, out.stderr
    implementation, name, path = out.stdout.split()
    assert (implementation, name) == ("python", "gameplay.engine.reference")
    assert path.endswith("reference.py")


def test_play3_unknown_engine_raises_at_import():
    """PLAY-3 engine: an unknown GAMEPLAY_ENGINE value fails loudly."""
    out = _probe("pypy-magic")
    assert out.returncode != 0
    assert "GAMEPLAY_ENGINE must be auto, cython or python" in out.stderr


def test_play3_load_rejects_unknown_names_in_process():
    """PLAY-3 engine: backend.load refuses names outside auto|cython|python."""
    with pytest.raises(ValueError, match="GAMEPLAY_ENGINE"):
        backend.load("fast")
    assert backend.load("auto") is backend.load("cython")
    assert backend.load("cython").__file__.endswith(".so")


def test_play3_this_test_session_uses_the_compiled_core_unless_overridden():
    """PLAY-3 engine: the in-process selection matches the environment."""
    wanted = os.environ.get("GAMEPLAY_ENGINE", "auto").strip().lower() or "auto"
    if wanted in ("auto", "cython"):
        assert backend.IMPLEMENTATION == "cython"
        assert backend.core.__file__.endswith(".so")
    else:
        assert backend.IMPLEMENTATION == wanted


def test_play3_missing_extension_fails_loudly(monkeypatch):
    """PLAY-3 engine: no compiled core -> ImportError telling how to build, never the reference."""
    monkeypatch.setitem(sys.modules, "gameplay.engine._core", None)
    with pytest.raises(ImportError, match="make install"):
        backend.load("auto")
    with pytest.raises(ImportError, match="make install"):
        backend.load("cython")


def test_play3_pure_python_shadow_of_the_core_is_refused(monkeypatch):
    """PLAY-3 engine: a plain-Python module standing in for _core is not accepted."""
    shadow = types.ModuleType("gameplay.engine._core")
    shadow.__file__ = "/somewhere/gameplay/engine/_core.py"
    shadow.__loader__ = None
    monkeypatch.setitem(sys.modules, "gameplay.engine._core", shadow)
    with pytest.raises(ImportError, match="not a compiled extension"):
        backend.load("cython")
