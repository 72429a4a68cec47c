"""The round lifecycle (PAIR-11) driven by events: a closed section opens its tournament and is
paired round by round as results come in. Each use case runs inside one unit of work with the
section's tournament row locked, and is a deterministic function of (database state, input):
event ids are uuid5 of (section, sequence number), pairing ids derive from round/board numbers.
"""

from __future__ import annotations

import logging

from gomoku_shared.contracts.common import SectionRules
from gomoku_shared.contracts.events import (
    GameFinished,
    RoundPaired,
    SectionClosed,
    SectionCompleted,
    StandingsUpdated,
)

from ..domain import IllegalPairing, NoLegalPairing, Outcome, RoundPairing
from ..domain.aggregate import Section
from ..domain.schedule import round_start
from .pool import Pairer
from .round_pairing import bye_specs, pair_job, round_rows, specs
from .section import round_points, seeding
from .standings import contract_rows, ranked
from .ties import finalize, playoff_game
from .unit_of_work import PairingUnitOfWork

log = logging.getLogger("pairing.lifecycle")


# ---------------------------------------------------------------- section.closed


async def open_tournament(uow: PairingUnitOfWork, closed: SectionClosed, pairer: Pairer) -> None:
    """Create the section's tournament and pair round 1 (PAIR-1..3, PAIR-9, PAIR-11)."""
    if await uow.sections.exists(closed.event_code, closed.section_id):
        return  # the same section closed twice (a re-sent event): the first one stands
    ready = closed.status == "ready"
    status = "running" if ready else "cancelled"
    entrants = seeding(list(closed.entrants)) if ready else list(closed.entrants)
    key = dict(event_code=closed.event_code, section_id=closed.section_id)
    tournament = dict(
        **key,
        stage=closed.stage,
        name=closed.name,
        status=status,
        kind=closed.rules.kind,
        format=closed.rules.format,
        rounds_planned=closed.rules.rounds,
        current_round=0,
        revision=0,
        event_seq=0,
        rules=closed.rules.model_dump(mode="json"),
        closed=closed.model_dump(mode="json"),
        hold=False,
        created_at=uow.clock.now(),
        # stored as a section locked to be changed stores it (its first change)
        version=1,
    )
    rows = [
        dict(
            **key,
            start_no=start_no,
            entrant_id=entrant.entrant_id,
            data=entrant.model_dump(mode="json"),
            entry_round=1,
            withdrawn_after=None,
        )
        for start_no, entrant in enumerate(entrants, 1)
    ]
    state = Section.opened(tournament, rows)
    if status != "running":
        cancelled_at_closing(uow, state, closed)
    elif len(state.entrants) < 2:
        state.update(status="awaiting_arbiter", note="fewer than two entrants")
    else:
        await pair_round(uow, state, 1, pairer)
    await uow.sections.save(state)


def cancelled_at_closing(uow: PairingUnitOfWork, state: Section, closed: SectionClosed) -> None:
    """REG-12: a section cancelled at closing is never paired, but it is over: it goes out as
    section.completed with ``cancelled`` and no standings, so that awards knows it and a team
    score fed by it is computed from the sections played (AWD-6) instead of waiting for it."""
    reason = closed.cancel_reason or "cancelled at closing"
    payload = SectionCompleted(
        event_code=state.event_code,
        stage=state.row["stage"],
        section_id=state.section_id,
        name=closed.name,
        revision=1,
        rules=state.rules,
        standings=[],
        entrants=list(closed.entrants),
        rounds_played=0,
        cancelled=True,
        cancel_reason=reason,
    )
    state.update(revision=1, note=reason, completed_at=uow.clock.now(), final=payload.model_dump(mode="json"))
    uow.emit_for(state, payload)


# ---------------------------------------------------------------- pairing and publishing


async def pair_round(uow: PairingUnitOfWork, state: Section, rnd: int, pairer: Pairer) -> None:
    """Pair round ``rnd`` with the domain engine; publish it unless the arbiter reviews pairings first."""
    try:
        pairing = await pairer.run(pair_job(state, rnd))
    except (NoLegalPairing, IllegalPairing, ValueError) as error:
        # ValueError: e.g. more rounds configured than a round robin of this field has
        # C.04.3: with no legal pairing the arbiter pairs the round by hand (PUT .../rounds/{r}/pairings)
        state.update(
            status="awaiting_arbiter",
            current_round=rnd - 1,
            note=f"round {rnd}: no legal pairing ({error}); the arbiter pairs it",
        )
        return
    await store_round(uow, state, pairing, paired_by="engine")


async def store_round(uow: PairingUnitOfWork, state: Section, pairing: RoundPairing, paired_by: str) -> None:
    rnd = pairing.round
    rows, bye_rows = round_rows(state, pairing)
    status = "draft" if state.row["hold"] else "published"
    state.put_round(rnd, status, uow.clock.now(), rows, bye_rows, paired_by=paired_by)
    state.update(current_round=rnd, status="running", note=None)
    if status == "published":
        await published(uow, state, rnd)


async def published(uow: PairingUnitOfWork, state: Section, rnd: int) -> None:
    """A round is published: round.paired goes out (and a round of byes only completes at once),
    with the round's start (EVT-7: its scheduled time, or now if that has passed)."""
    starts_at = round_start(state.rules.round_starts, rnd, uow.clock.now(), state.delays.get(rnd))
    state.update_round(rnd, starts_at=starts_at)
    uow.emit_for(
        state,
        RoundPaired(
            event_code=state.event_code,
            stage=state.row["stage"],
            section_id=state.section_id,
            round=rnd,
            starts_at=starts_at,
            no_show_minutes=state.rules.no_show_minutes,
            pairings=specs(state, rnd),
            byes=bye_specs(state, rnd),
            mode=state.rules.mode,
        ),
    )
    if not state.pairings.get(rnd):
        await advance(uow, state, None)  # nothing to play (everyone has a bye)


def emit_standings(uow: PairingUnitOfWork, state: Section, after_round: int) -> None:
    uow.emit_for(
        state,
        StandingsUpdated(
            event_code=state.event_code,
            stage=state.row["stage"],
            section_id=state.section_id,
            after_round=after_round,
            standings=contract_rows(state, ranked(state)),
        ),
    )


async def advance(uow: PairingUnitOfWork, state: Section, pairer: Pairer | None) -> None:
    """After a result: when the current round is complete, publish standings and pair the next
    round (PAIR-11), or after the last round settle ties and complete the section."""
    rnd = state.row["current_round"]
    if rnd == 0 or state.row["status"] != "running" or state.rounds.get(rnd, {}).get("status") != "published":
        return
    if any(pairing["outcome"] is None for pairing in state.pairings.get(rnd, [])):
        return
    state.update_round(rnd, status="complete", completed_at=uow.clock.now())
    emit_standings(uow, state, rnd)
    if rnd < state.rules.rounds:
        await pair_round(uow, state, rnd + 1, pairer or Pairer())
    else:
        await finalize(uow, state)


# ---------------------------------------------------------------- game.finished


def outcome_of(pairing: dict, game: GameFinished) -> Outcome | None:
    """The pairing's outcome once its last game is in (PAIR-4/5/6); None while a game is left.

    Gameplay owns the round's points of a two-game round (PAIR-5): they arrive in ``outcome``."""
    if game.double_forfeit:
        return Outcome.DOUBLE_FORFEIT
    if game.outcome is not None:
        first_points, second_points = game.outcome.first_points, game.outcome.second_points
        if game.first is not None and game.first == pairing["second_id"]:
            first_points, second_points = second_points, first_points
    elif game.game_no >= pairing["games"]:
        if game.winner is None:
            first_points = second_points = 1
        else:
            first_points, second_points = (1, 0) if game.winner == pairing["first_id"] else (0, 1)
    else:
        return None
    forfeit = game.reason == "no_show" and game.game_no == 1
    if first_points > second_points:
        return Outcome.FIRST_FORFEIT_WIN if forfeit else Outcome.FIRST_WINS
    if second_points > first_points:
        return Outcome.SECOND_FORFEIT_WIN if forfeit else Outcome.SECOND_WINS
    return Outcome.DRAW


async def game_finished(uow: PairingUnitOfWork, game: GameFinished, pairer: Pairer) -> None:
    """Record a game; a replayed game.finished changes nothing (unique (pairing, game_no)).

    Only the tournament row (locked) and the pairing are read per game; the whole section is
    loaded when the game completes its round (or is a playoff game).
    """
    row = await uow.sections.lock_tournament(game.event_code, game.section_id)
    if row is None:
        log.warning("game.finished for unknown section %s/%s ignored", game.event_code, game.section_id)
        return
    playoff_id = game.playoff_id or ""
    if await uow.games.recorded(game.event_code, game.section_id, playoff_id, game.pairing_id, game.game_no):
        return
    now = uow.clock.now()
    await uow.games.record(
        event_code=game.event_code,
        section_id=game.section_id,
        round=game.round,
        pairing_id=game.pairing_id,
        game_no=game.game_no,
        playoff_id=playoff_id,
        game_id=game.game_id,
        winner=game.winner,
        result=game.result,
        reason=game.reason,
        outcome=game.outcome.model_dump() if game.outcome else None,
        double_forfeit=game.double_forfeit,
        recorded_at=now,
    )
    if game.playoff_id:
        state = await _section(uow, game)
        await playoff_game(uow, state, game)
        await uow.sections.save(state)
        return
    pairing = await uow.sections.pairing(game.event_code, game.section_id, game.pairing_id)
    if pairing is None or (game.round and pairing["round"] != game.round):
        log.warning("game.finished for unknown pairing %s of %s ignored", game.pairing_id, game.section_id)
        return
    if pairing["outcome"] is not None:
        return  # the arbiter entered this result already: it stands
    outcome = outcome_of(pairing, game)
    if outcome is None:
        return
    first_points, second_points = round_points(SectionRules.model_validate(row["rules"]), outcome)
    await uow.sections.write_result(
        pairing,
        outcome=outcome.value,
        first_points=first_points,
        second_points=second_points,
        result_source="game",
        result_at=now,
        result_by="game",
    )
    rnd = pairing["round"]
    if rnd != row["current_round"] or await uow.sections.open_pairings(game.event_code, game.section_id, rnd):
        return
    state = await _section(uow, game)
    await advance(uow, state, pairer)
    await uow.sections.save(state)


async def _section(uow: PairingUnitOfWork, game: GameFinished) -> Section:
    """The whole section of a game (its tournament row is locked already)."""
    state = await uow.sections.load(game.event_code, game.section_id)
    assert state is not None  # the locked row exists
    return state
