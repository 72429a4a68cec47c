"""Shared fixtures of the engine tests. Fixtures of the pure-Python engine tests are prefixed
``ref_``; those of the compiled-core tests ``core_``."""

from __future__ import annotations

import importlib

import pytest

from gameplay.engine import reference


def _rules_cores():
    """The reference always; the compiled core too when it is built and exposes the protocol."""
    found = [pytest.param(reference, id="reference")]
    try:
        compiled = importlib.import_module("gameplay.engine._core")
    except ImportError:
        compiled = None
    if compiled is not None and hasattr(compiled, "classify"):
        found.append(pytest.param(compiled, id="cython"))
    return found


@pytest.fixture(params=_rules_cores())
def ref_any_core(request):
    """Each rules-core implementation found (reference + compiled core when present)."""
    return request.param


@pytest.fixture
def ref_diagram():
    """Parse a board diagram into ``(black, white, point)``.

    Rows are given top to bottom; ``X`` black, ``O`` white, ``.`` empty, ``*`` the empty point
    to judge (at most one). ``origin`` is the board point of the diagram's bottom-left cell.
    """

    def parse(text: str, origin: tuple[int, int] = (0, 0)):
        rows = [r.strip() for r in text.strip().splitlines() if r.strip()]
        black, white, point = set(), set(), None
        for i, row in enumerate(reversed(rows)):
            for j, ch in enumerate(row.replace(" ", "")):
                p = (origin[0] + j, origin[1] + i)
                if ch == "X":
                    black.add(p)
                elif ch == "O":
                    white.add(p)
                elif ch == "*":
                    assert point is None, "one point per diagram"
                    point = p
                else:
                    assert ch == ".", f"unexpected {ch!r} in diagram"
        return black, white, point

    return parse
