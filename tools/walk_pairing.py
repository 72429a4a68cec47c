"""Pairing's use cases for ``use_case_walk.py``: a ``section.closed`` until its ``round.paired``,
and the ``game.finished`` completing round 1 until round 2's ``round.paired``. One in-process run
on SQLite (the service built by its own bootstrap and migrated); each handler called in one
transaction, only the last one traced."""

from __future__ import annotations

import tempfile
from pathlib import Path

from walk_record import Walk

REPOSITORY = "adapters/repository.py"


async def walk_section_closed(players: int = 16) -> Walk:
    """The walk of one section.closed (an individual Swiss section of ``players``) to round.paired."""
    return await _walk(players, last_game=False)


async def walk_round(players: int = 16) -> Walk:
    """The walk of the game.finished that completes round 1 until round 2's round.paired (the
    section opened and round 1's other games recorded beforehand, untraced)."""
    return await _walk(players, last_game=True)


def _section_closed(players: int):
    from gomoku_shared.contracts.common import ClockSpec, Entrant, Points, Ruleset, SectionRules
    from gomoku_shared.contracts.events import SectionClosed

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
    return SectionClosed(
        event_code="EV", stage="main", section_id="open", name="Open", status="ready", rules=rules, entrants=entrants
    )


def _round_won_by_black(paired) -> list:
    """game.finished for every game of a round.paired, each won by the pairing's first."""
    from gomoku_shared.contracts.events import GameFinished

    return [
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
        for spec in paired.pairings
    ]


async def _walk(players: int, *, last_game: bool) -> Walk:
    import pairing
    from gomoku_shared.clock import FakeClock
    from gomoku_shared.contracts import envelope_for
    from gomoku_shared.migrate import upgrade_async
    from gomoku_shared.settings import ServiceSettings
    from pairing.bootstrap import build

    clock = FakeClock()
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite+aiosqlite:///{directory}/pairing.sqlite"
        settings = ServiceSettings(DATABASE_URL=url, AMQP_URL=None, API_KEYS="op-key=operator")
        await upgrade_async("pairing", settings.database_url_for("pairing"))
        runtime = build(settings, clock=clock).runtime
        walk = Walk(str(Path(pairing.__file__).parent) + "/", REPOSITORY)
        messages = [_section_closed(players)]
        if last_game:
            async with runtime.transaction() as uow:
                await runtime._handlers["section.closed"](uow, envelope_for(messages[0], correlation_id="EV"))
                first = next(event.payload for event in uow.events if event.type == "round.paired")
            messages = _round_won_by_black(first)
            for game in messages[:-1]:
                async with runtime.transaction() as uow:
                    await runtime._handlers["game.finished"](uow, envelope_for(game, correlation_id="EV"))
            messages = messages[-1:]
        async with runtime.transaction() as uow:
            handler = runtime._handlers[messages[0].TYPE]
            await walk.trace(handler(uow, envelope_for(messages[0], correlation_id="EV", occurred_at=clock.now())))
            paired = [event for event in uow.events if event.type == "round.paired"]
        await runtime.engine.dispose()
    assert len(paired) == 1, "the walk must end with a round paired"
    return walk
