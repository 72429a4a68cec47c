"""The browser tests' fixtures; their helpers are in browser_kit.py beside this file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from browser_kit import event_played, played_once, serve_embedded, sz_event_played, team_event_played


@pytest.fixture
def served(tmp_path):
    """``python -m gomoku_shared.embedded`` as its own process on a free port, simulation clock."""
    yield from serve_embedded(tmp_path)


def _run_shared(tmp_path_factory) -> Path:
    """The test run's own folder, which every worker of the run sees."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root


# An event played by bots to its published awards, once per test run, served from each test's
# own copy of the runner's data (browser_kit.played_once): (the runner's address, the event's code).
# A test that needs more than one event on one runner plays them itself.


@pytest.fixture
async def da_served(tmp_path, tmp_path_factory):
    """DA 2023, 6 players in the open section, 3 rounds (``event_played``'s defaults)."""
    async with played_once(tmp_path, _run_shared(tmp_path_factory), "da-2023", event_played) as served:
        yield served


@pytest.fixture
async def nt_served(tmp_path, tmp_path_factory):
    """The NT 2023 team championship, 4 teams in the mixed team section, 3 rounds."""
    async with played_once(tmp_path, _run_shared(tmp_path_factory), "nt-2023", team_event_played) as served:
        yield served


@pytest.fixture
async def sz_served(tmp_path, tmp_path_factory):
    """The SZ 2022 qualifier with the simulator's small field, every round."""
    async with played_once(tmp_path, _run_shared(tmp_path_factory), "sz-2022", sz_event_played) as served:
        yield served
