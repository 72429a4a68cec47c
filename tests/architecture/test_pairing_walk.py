"""Issue 31: pairing's repository returns the section aggregate, so a use case enters the
repository module once to load its section and once to save it, instead of once per row it
reads or writes. Measured on the walk of one ``section.closed`` until its ``round.paired``
(``pairing_walk.py`` beside this file prints the whole walk)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from pairing_walk import REPOSITORY, Walk, walk_section_closed  # noqa: E402


def test_the_walk_counts_moves_between_files():
    """The counting itself, on a made-up walk: a call into the repository, its return, a second
    call; two of those moves land in a file visited before."""
    walk = Walk("/pkg/")
    walk.moves = [
        ("call", "service_layer/a.py", REPOSITORY),
        ("return", REPOSITORY, "service_layer/a.py"),
        ("call", "service_layer/a.py", REPOSITORY),
        ("call", REPOSITORY, "domain/b.py"),
    ]
    assert walk.repository_entries() == 2
    assert walk.returns_to_visited() == 2
    assert walk.returns_to_visited(outside_domain=True) == 2
    assert walk.files() == ["service_layer/a.py", REPOSITORY, "domain/b.py"]


def test_section_closed_to_round_paired_enters_the_repository_to_load_and_to_save():
    """Opening a section: the repositories are made (the unit of work), asked whether the section
    exists, and handed the new section to save — three entries, whatever the field's size."""
    walk = asyncio.run(walk_section_closed(players=12))
    assert walk.repository_entries() == 3, walk.moves
    entered = [source for kind, source, target in walk.moves if kind == "call" and target == REPOSITORY]
    assert entered == ["service_layer/unit_of_work.py", "service_layer/lifecycle.py", "service_layer/lifecycle.py"]
    assert any(target == "domain/swiss.py" for _, _, target in walk.moves)  # the round was paired
