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
import dis
import sys
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

YIELD = dis.opmap["YIELD_VALUE"]
#: what the summary reports, in the order of the table
MEASURES = (
    "files",
    "functions",
    "moves",
    "repository entries",
    "returns to a visited file",
    "same, outside domain/",
)


#: the rules and the pairing engine (pure computation): left out of the layers' own walk
COMPUTE = ("domain/", "adapters/dutch/")


@dataclass
class Walk:
    """Moves between files of one package, in order: (``call`` or ``return``, from, to).

    ``root``: the package's folder with a trailing slash; ``repository``: the package-relative
    file whose entries the walk counts (the repository module of the service)."""

    root: str
    repository: str
    moves: list[tuple[str, str, str]] = field(default_factory=list)
    functions: set[str] = field(default_factory=set)
    live: set[int] = field(default_factory=set)

    def _ours(self, frame: FrameType | None) -> str | None:
        """The package-relative file of the nearest frame of the package, from ``frame`` out."""
        while frame is not None:
            name = frame.f_code.co_filename
            if name.startswith(self.root):
                return name[len(self.root) :]
            frame = frame.f_back
        return None

    def profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event not in ("call", "return") or not frame.f_code.co_filename.startswith(self.root):
            return
        here = frame.f_code.co_filename[len(self.root) :]
        key = id(frame)
        if event == "call":
            if key in self.live:
                return  # a coroutine or generator resumed
            self.live.add(key)
            self.functions.add(f"{here}:{frame.f_code.co_qualname}")
            caller = self._ours(frame.f_back)
            if caller is not None and caller != here:
                self.moves.append(("call", caller, here))
            return
        code = frame.f_code.co_code
        if 0 <= frame.f_lasti < len(code) and code[frame.f_lasti] == YIELD:
            return  # suspended at an await (or a yield), not finished
        self.live.discard(key)
        caller = self._ours(frame.f_back)
        if caller is not None and caller != here:
            self.moves.append(("return", here, caller))

    async def trace(self, work: Awaitable[Any]) -> Any:
        """Await ``work`` under this walk's profile (tasks it starts on this thread included)."""
        sys.setprofile(self.profile)
        try:
            return await work
        finally:
            sys.setprofile(None)

    def files(self) -> list[str]:
        seen: list[str] = []
        for _, source, target in self.moves:
            for name in (source, target):
                if name not in seen:
                    seen.append(name)
        return seen

    def entries(self, target: str) -> list[str]:
        """The files the walk entered ``target`` from, one per call."""
        return [source for kind, source, into in self.moves if kind == "call" and into == target]

    def repository_entries(self) -> int:
        return len(self.entries(self.repository))

    def returns_to_visited(self, *, outside_domain: bool = False) -> int:
        """Moves (calls or returns) that land in a file the walk had been in and left
        (``outside_domain``: only moves between files outside the rules and the pairing engine,
        ``domain/`` and ``adapters/dutch/``: the layers' own walk; the engine's compiled speed-up
        moved from ``domain/`` to ``adapters/dutch/`` behind its port, and is still the engine)."""
        visited: set[str] = set()
        count = 0
        for _, source, target in self.moves:
            if outside_domain and (source.startswith(COMPUTE) or target.startswith(COMPUTE)):
                continue
            visited.add(source)
            if target in visited:
                count += 1
            visited.add(target)
        return count

    def summary(self) -> dict[str, int]:
        values = (
            len(self.files()),
            len(self.functions),
            len(self.moves),
            self.repository_entries(),
            self.returns_to_visited(),
            self.returns_to_visited(outside_domain=True),
        )
        return dict(zip(MEASURES, values, strict=True))


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
