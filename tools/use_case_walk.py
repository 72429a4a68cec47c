"""The walk of one use case through its service's package (issue 31): which of its files the use
case visits, how many of its functions run, how often it enters the repository module, and how
often control comes back to a file it had already left.

    .venv/bin/python tools/use_case_walk.py [USE_CASE ...] [--players N] [--moves]

Use cases (all by default): ``section.closed`` (pairing: an individual Swiss section opened until
round 1's ``round.paired`` is in the outbox), ``round`` (pairing: the ``game.finished`` completing
round 1 until round 2 is paired), ``move`` (gameplay: a plain move over HTTP, through the lean
lane, written by the group-commit writer) and ``winning-move`` (gameplay: the move that makes five,
until ``game.finished`` is in the outbox). The gameplay walks need PostgreSQL (``DATABASE_URL``,
where the group-commit writer runs): a scratch database is made and dropped.

Each use case runs in process, the service built by its own bootstrap on a migrated database,
under ``sys.setprofile``; only frames of files in the service's package count. A coroutine
suspending at an ``await`` and resuming later is not a return and a call (the event loop's doing,
not the code's shape): the profile events of a frame's suspension (its instruction is a
``YIELD_VALUE``) and of its resumption are skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from walk_record import MEASURES, Walk


def use_cases(players: int) -> dict[str, Callable[[], Coroutine[Any, Any, Walk]]]:
    """Each use case's walk, by name (the services' modules imported only when one runs)."""
    import walk_gameplay
    import walk_pairing

    return {
        "section.closed": lambda: walk_pairing.walk_section_closed(players),
        "round": lambda: walk_pairing.walk_round(players),
        "move": walk_gameplay.walk_move,
        "winning-move": walk_gameplay.walk_winning_move,
    }


def table(walks: dict[str, Walk]) -> str:
    """The summaries side by side: one row per measure, one column per use case."""
    names = list(walks)
    width = max(len(text) for walk_name in names for text in (walk_name, walks[walk_name].repository)) + 2
    lines = [f"{'':28}" + "".join(f"{name:>{width}}" for name in names)]
    summaries = {name: walk.summary() for name, walk in walks.items()}
    for measure in MEASURES:
        lines.append(f"{measure:28}" + "".join(f"{summaries[name][measure]:>{width}}" for name in names))
    lines.append(f"{'repository module':28}" + "".join(f"{walks[name].repository:>{width}}" for name in names))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("use_case", nargs="*", help="section.closed, round, move, winning-move (default: all)")
    parser.add_argument("--players", type=int, default=16, help="the pairing section's field")
    parser.add_argument("--moves", action="store_true", help="print every move between files")
    args = parser.parse_args(argv)
    known = use_cases(args.players)
    chosen = args.use_case or list(known)
    unknown = [name for name in chosen if name not in known]
    if unknown:
        parser.error(f"unknown use case(s) {', '.join(unknown)}; choose from {', '.join(known)}")
    walks: dict[str, Walk] = {name: asyncio.run(known[name]()) for name in chosen}
    for name, walk in walks.items():
        if args.moves:
            print(f"--- {name}")
            for kind, source, target in walk.moves:
                print(f"{kind:6} {source} -> {target}")
        print(f"{name}: {', '.join(walk.files())}")
    print(table(walks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
