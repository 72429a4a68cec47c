"""Storing a judged change of a game, and what follows when it ends the game: the result, the
pairing's next game (two-game rounds, playoffs) and ``game.finished`` with the full record.
Shared by the player actions, the arbiter and the sweeper."""

from __future__ import annotations

from typing import Any

from gomoku_shared.contracts.events import PairingSpec
from gomoku_shared.idempotency import KeyedRequest

from ..domain.game_finished import game_finished
from ..domain.game_ids import event_id
from ..domain.game_started import game_started, has_started
from ..domain.played_game import Change, Ending, PlayedGame, clock_of, summary_of
from . import creation
from .refusals import stored_answer
from .unit_of_work import GameplayUnitOfWork


class StaleGame(Exception):
    """The game moved on since the change was judged (another request or replica): judge again."""


async def save_change(
    uow: GameplayUnitOfWork, game: PlayedGame, change: Change, now: int, keyed: KeyedRequest | None = None
) -> dict[str, Any]:
    """Store one change (the game row under its version check, action rows, stream events, the
    answer under the Idempotency-Key) and on the end of the game its consequences; the summary
    of the new state."""
    if change.empty:
        summary = game.summary()
        if keyed is not None:
            await uow.keys.remember(keyed, 200, summary)
        return summary
    write = game.prepare(change, now)
    ending = game.finish(write, await uow.games.earlier_results(game), now) if game.ends_with() else None
    after = game.after(write)
    summary = summary_of(after)
    answer = None
    if keyed is not None:
        answer = stored_answer(change.error) if change.error is not None else (200, summary)
    if not await uow.games.save(game, write, keyed, answer):
        raise StaleGame()
    started = has_started(game.columns, after)
    game.stored(write, after)
    if started:  # both players present (or the first move recorded over the board)
        started_ms = after["clock_since_ms"] if after.get("clock_running") else now
        await uow.emit(game_started(after, started_ms), event_id=event_id(game.game_id, "started"))
    if ending is not None:
        await _after_the_end(uow, game, ending)
    return summary


async def _after_the_end(uow: GameplayUnitOfWork, game: PlayedGame, ending: Ending) -> None:
    """The pairing's next game, then game.finished with the full record."""
    columns = game.columns
    following = ending.next
    if following.game_no is not None:
        spec = PairingSpec.model_validate(columns["spec"])
        playoff_single = following.stage != "pair" and columns["unit_kind"] == "playoff"
        stage_clock = columns["spec"]["decider_clock"] if playoff_single else columns["clock_spec"]
        carry: dict[str, Any] = {"present": True}
        if columns["unit_kind"] == "two_game" and spec.round_clock:
            clock = clock_of(columns)
            carry["clock"] = {columns["first_id"]: clock.first_ms, columns["second_id"]: clock.second_ms}
        next_game = creation.NewGame(
            columns["event_code"],
            columns["stage"],
            columns["section_id"],
            columns["round"],
            spec,
            columns["unit_kind"],
            following.game_no,
            first_mover=following.first_mover or "a",
            clock=stage_clock,
            playoff_id=columns["playoff_id"],
            no_show_due=None,
            carry=carry,
            extra={name: value for name, value in columns["spec"].items() if name == "decider_clock"},
            mode=columns.get("mode") or "online",
        )
        await creation.create(uow, next_game)
    record = game.record(await uow.games.action_meta(game.game_id), uow.clock.now().tzinfo)
    finished = game_finished(game, record)
    await uow.emit(finished, event_id=event_id(game.game_id, "finished"))
