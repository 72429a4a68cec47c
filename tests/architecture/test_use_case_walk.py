"""Issue 31: a use case crosses few files and enters its repository module a bounded number of
times, whatever the size of what it works on. Pairing's repository returns the section aggregate,
so opening a section enters it to load and to save, not once per row; gameplay's plain move is
judged on the cached game and written by the group-commit writer. Measured on the walks of
``tools/use_case_walk.py``, which prints them (the table in docs/architecture.md, "Walking a use
case")."""

from __future__ import annotations

import asyncio

import walk_gameplay
import walk_pairing
from use_case_walk import table
from walk_record import Walk


def test_the_walk_counts_moves_between_files():
    """The counting itself, on a made-up walk: a call into the repository, its return, a second
    call; two of those moves land in a file visited before."""
    repository = walk_pairing.REPOSITORY
    walk = Walk("/pkg/", repository)
    walk.moves = [
        ("call", "service_layer/a.py", repository),
        ("return", repository, "service_layer/a.py"),
        ("call", "service_layer/a.py", repository),
        ("call", repository, "domain/b.py"),
    ]
    assert walk.repository_entries() == 2
    assert walk.entries(repository) == ["service_layer/a.py", "service_layer/a.py"]
    assert walk.returns_to_visited() == 2
    assert walk.returns_to_visited(outside_domain=True) == 2
    assert walk.files() == ["service_layer/a.py", repository, "domain/b.py"]
    assert table({"made-up": walk}).splitlines()[4].split()[-1] == "2"  # the repository entries' row


def test_section_closed_to_round_paired_enters_the_repository_to_load_and_to_save():
    """Opening a section: the repositories are made (the unit of work), asked whether the section
    exists, and handed the new section to save — three entries, whatever the field's size."""
    for players in (12, 40):
        walk = asyncio.run(walk_pairing.walk_section_closed(players=players))
        assert walk.entries(walk_pairing.REPOSITORY) == [
            "service_layer/unit_of_work.py",
            "service_layer/lifecycle.py",
            "service_layer/lifecycle.py",
        ], players
        assert any(target == "domain/swiss.py" for _, _, target in walk.moves)  # the round was paired


def test_the_game_completing_a_round_enters_the_repository_a_bounded_number_of_times():
    """game.finished completing round 1 until round 2 is paired: the result is recorded on the
    locked pairing row, then the section loaded once and saved — at most nine entries, the same
    for a field of 12 or 40 (before the aggregate, 63 for 16 players, growing with the field)."""
    entries = []
    for players in (12, 40):
        walk = asyncio.run(walk_pairing.walk_round(players=players))
        entries.append(walk.repository_entries())
        assert walk.returns_to_visited(outside_domain=True) <= 50, walk.moves
    assert entries[0] == entries[1] <= 9


def test_a_plain_move_reaches_the_group_commit_writer_once(database_url):
    """A plain move over HTTP: the lean lane, the cached game judged by the domain, one write by
    the group-commit writer; the repository module entered at most five times (the unit of work builds its repositories), no file of the
    ORM's end of the game (outcome, record, game.finished)."""
    walk = asyncio.run(walk_gameplay.walk_move(database_url))
    assert walk.files()[:2] == ["entrypoints/lane_front.py", "entrypoints/fast_actions.py"]
    assert walk.entries("adapters/move_writer.py") == [walk_gameplay.REPOSITORY]
    assert walk.repository_entries() <= 5
    assert not {"domain/game_finished.py", "domain/outcome.py"} & set(walk.files())
    assert len(walk.files()) <= 21


def test_the_winning_move_ends_the_game_through_the_repository_without_the_writer(database_url):
    """The move that makes five: written through the ORM with its ending (not the group-commit
    writer), game.finished built from the record; the repository entered at most seven times."""
    walk = asyncio.run(walk_gameplay.walk_winning_move(database_url))
    assert "adapters/move_writer.py" not in walk.files()
    assert walk.entries("domain/game_finished.py") == ["service_layer/finishing.py"]
    assert walk.repository_entries() <= 7
