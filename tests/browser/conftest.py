"""The browser tests' fixtures; their helpers are in browser_kit.py beside this file."""

from __future__ import annotations

import pytest
from browser_kit import serve_embedded


@pytest.fixture
def served(tmp_path):
    """``python -m gomoku_shared.embedded`` as its own process on a free port, simulation clock."""
    yield from serve_embedded(tmp_path)
