"""The walk of one use case through the pairing package (issue 31): which of its files a
``section.closed`` visits until its ``round.paired`` is in the outbox, how often it enters the
repository module, and how often control comes back to a file it had already left.

    .venv/bin/python tests/architecture/pairing_walk.py [--players N] [--round] [--moves]

One in-process run on SQLite (the service built by its own bootstrap and migrated), the handler
of ``section.closed`` called in one transaction under ``sys.setprofile`` (``--round``: the
``game.finished`` completing round 1, until round 2 is paired). Only frames of files
under ``pairing/`` count. A coroutine suspending at an ``await`` and resuming later is not a
return and a call (the event loop's doing, not the code's shape): the profile events of a
frame's suspension (its instruction is a ``YIELD_VALUE``) and of its resumption are skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import dis
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

YIELD = dis.opmap["YIELD_VALUE"]
REPOSITORY = "adapters/repository.py"


@dataclass
class Walk:
    """Moves between files of the package, in order: (``call`` or ``return``, from, to)."""

    root: str
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
        if event not in ("call", "return"):
            return
        here = self._ours(frame)
        if here is None or not frame.f_code.co_filename.startswith(self.root):
            return
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

    def files(self) -> list[str]:
        seen: list[str] = []
        for _, source, target in self.moves:
            for name in (source, target):
                if name not in seen:
                    seen.append(name)
        return seen

    def repository_entries(self) -> int:
        return sum(1 for kind, _, target in self.moves if kind == "call" and target == REPOSITORY)

    def returns_to_visited(self, *, outside_domain: bool = False) -> int:
        """Moves (calls or returns) that land in a file the walk had been in and left
        (``outside_domain``: only moves between files outside ``domain/``, the layers' own walk)."""
        visited: set[str] = set()
        count = 0
        for _, source, target in self.moves:
            if outside_domain and (source.startswith("domain/") or target.startswith("domain/")):
                continue
            visited.add(source)
            if target in visited:
                count += 1
            visited.add(target)
        return count

    def summary(self) -> dict[str, int]:
        return {
            "files": len(self.files()),
            "functions": len(self.functions),
            "moves": len(self.moves),
            "repository entries": self.repository_entries(),
            "returns to a visited file": self.returns_to_visited(),
            "same, outside domain/": self.returns_to_visited(outside_domain=True),
        }


async def walk_section_closed(players: int = 16) -> Walk:
    """The walk of one section.closed (an individual Swiss section of ``players``) to round.paired."""
    return await _walk(players, last_game=False)


async def walk_round(players: int = 16) -> Walk:
    """The walk of the game.finished that completes round 1 until round 2's round.paired (the
    section opened and round 1's other games recorded beforehand, untraced)."""
    return await _walk(players, last_game=True)


async def _walk(players: int, *, last_game: bool) -> Walk:
    import pairing
    from gomoku_shared.clock import FakeClock
    from gomoku_shared.contracts import envelope_for
    from gomoku_shared.contracts.common import ClockSpec, Entrant, Points, Ruleset, SectionRules
    from gomoku_shared.contracts.events import GameFinished, SectionClosed
    from gomoku_shared.migrate import upgrade_async
    from gomoku_shared.settings import ServiceSettings
    from pairing.bootstrap import build

    clock = FakeClock()
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite+aiosqlite:///{directory}/pairing.sqlite"
        settings = ServiceSettings(DATABASE_URL=url, AMQP_URL=None, API_KEYS="op-key=operator")
        await upgrade_async("pairing", settings.database_url_for("pairing"))
        service = build(settings, clock=clock)
        runtime = service.runtime
        rules = SectionRules(
            kind="individual",
            format="swiss",
            rounds=5,
            ruleset=Ruleset(track="free"),
            clock=ClockSpec(kind="sudden_death", base_s=900),
            points=Points(),
            match_points=Points(),
        )
        entrants = [
            Entrant(entrant_id=f"p{number:03d}", name=f"Player {number}", rating=2400 - number)
            for number in range(1, players + 1)
        ]
        closed = SectionClosed(
            event_code="EV",
            stage="main",
            section_id="open",
            name="Open",
            status="ready",
            rules=rules,
            entrants=entrants,
        )
        walk = Walk(str(Path(pairing.__file__).parent) + "/")
        messages = [closed]
        if last_game:
            async with runtime.transaction() as uow:
                await runtime._handlers["section.closed"](uow, envelope_for(closed, correlation_id="EV"))
                first = next(event.payload for event in uow.events if event.type == "round.paired")
            messages = [
                GameFinished(
                    event_code="EV",
                    stage="main",
                    section_id="open",
                    round=1,
                    pairing_id=spec.pairing_id,
                    game_id=f"g.{spec.pairing_id}",
                    black=spec.first,
                    white=spec.second,
                    winner=spec.first,
                    result="black",
                    reason="five",
                    first=spec.first,
                    second=spec.second,
                )
                for spec in first.pairings
            ]
            for game in messages[:-1]:
                async with runtime.transaction() as uow:
                    await runtime._handlers["game.finished"](uow, envelope_for(game, correlation_id="EV"))
            messages = messages[-1:]
        async with runtime.transaction() as uow:
            handler = runtime._handlers[messages[0].TYPE]
            sys.setprofile(walk.profile)
            try:
                await handler(uow, envelope_for(messages[0], correlation_id="EV", occurred_at=clock.now()))
            finally:
                sys.setprofile(None)
            paired = [event for event in uow.events if event.type == "round.paired"]
        await runtime.engine.dispose()
    assert len(paired) == 1, "the walk must end with a round paired"
    return walk


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--moves", action="store_true", help="print every move between files")
    parser.add_argument(
        "--round", action="store_true", help="walk round 1's last game.finished to round 2 paired instead"
    )
    args = parser.parse_args(argv)
    walk = asyncio.run((walk_round if args.round else walk_section_closed)(args.players))
    if args.moves:
        for kind, source, target in walk.moves:
            print(f"{kind:6} {source} -> {target}")
    for name, value in walk.summary().items():
        print(f"{name:28} {value}")
    print("files in order:", ", ".join(walk.files()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
