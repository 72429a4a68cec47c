"""Arbiter decisions from pairing (``result.decided``): one result for a pairing in both services.

A decision closes the pairing's games that are still open (waiting or being played) and
corrects finished ones that disagree with it (the rules: ``domain.decisions``). Decisions may
arrive before the round's games exist (events of different types are not ordered): they are
stored, and a game created later starts closed. The decision with the highest ``sequence``
wins; an older one changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gomoku_shared.contracts.events import ResultDecided

from ..domain import decisions
from ..domain.game_finished import game_finished
from ..domain.game_ids import event_id
from .unit_of_work import GameplayUnitOfWork


class GameMovedOn(RuntimeError):
    """A player's action changed the game while the decision was applied: the event is
    handled again (redelivered) on the new state."""


async def on_result_decided(uow: GameplayUnitOfWork, decided: ResultDecided) -> None:
    """Store the decision (if newer than the one applied) and apply it to the pairing's games."""
    decision = dict(
        event_code=decided.event_code,
        stage=decided.stage,
        section_id=decided.section_id,
        round=decided.round,
        pairing_id=decided.pairing_id,
        sequence=decided.sequence,
        outcome=decided.outcome,
        reason=decided.reason,
        note=decided.note[:1000],
        decided_ms=int(decided.decided_at.timestamp() * 1000),
    )
    if not await uow.decisions.replace(decision):
        return  # redelivered, or overtaken by a later correction
    games = await uow.games.of_pairing(
        decided.event_code, decided.stage, decided.section_id, decided.round, decided.pairing_id
    )
    await apply(uow, games, decision)


async def apply(uow: GameplayUnitOfWork, games: list[dict[str, Any]], decision: Mapping[str, Any]) -> None:
    """Close or correct each game of the pairing that disagrees with the decision."""
    for columns, last in decisions.games_to_close(games, decision):
        await _close(uow, dict(columns), decision, last)


async def _close(uow: GameplayUnitOfWork, columns: dict[str, Any], decision: Mapping[str, Any], last: bool) -> None:
    now = int(uow.clock.now().timestamp() * 1000)
    game = await uow.games.played(columns)
    was_finished = game.status == "finished"
    write = decisions.close(game, decision, last, now)
    if not await uow.games.save(game, write):
        raise GameMovedOn(f"game {game.game_id} changed while the arbiter's decision was applied")
    if was_finished:
        return  # its game.finished went out when it ended; pairing holds the decision already
    game.stored(write)
    record = game.record(await uow.games.action_meta(game.game_id), uow.clock.now().tzinfo)
    finished = game_finished(game, record)
    await uow.emit(finished, event_id=event_id(game.game_id, "finished"))
