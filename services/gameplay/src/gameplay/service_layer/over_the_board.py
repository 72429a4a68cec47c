"""Over-the-board games (PLAY-9, PLAY-10): the arbiters' result slips, the records entered after
the game, the arbiter's answer to a flagged record, and the live recorder.

EVT-7 holds for every way such a game progresses: a recorder's step, a result slip (entry or
confirmation) and a record before the round's scheduled start answer 409 ``not_started``, as a
player's move does online, unless an arbiter recorded an exception for the game (``allow_early``,
audited: who, when, why). The start followed is the game's stored one, which an arbiter's delay
(``round.rescheduled``) moves.

A confirmed slip ends the game like any other ending (``finishing.save_change``): the same
result columns, the pairing's next game, the stream's ``finished`` and ``game.finished`` — so
pairing and awards score an over-the-board result exactly like an online one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

from gomoku_shared.errors import Conflict, NotFound, ServiceError

from ..domain import over_the_board as otb
from ..domain.early_start import EarlyStart, refuse_early_start
from ..domain.errors import AlreadyRecorded, GameConflict
from ..domain.played_game import Change, PlayedGame
from ..domain.round_start import before_start, refuse_before_start
from .actions import busy, epoch_ms_now, found
from .finishing import StaleGame, save_change
from .unit_of_work import GameplayUnitOfWork, Units


class SlipMismatch(Conflict):
    """A confirmation that disagrees with its slip: stored and shown, nothing scored (409)."""


def _offline(game: PlayedGame) -> None:
    if not game.over_the_board:
        raise GameConflict("not_over_the_board", f"game {game.game_id} is an online game: it has no slips (PLAY-9)")


async def _refuse_before_start(uow: GameplayUnitOfWork, game: PlayedGame, now: int, doing: str) -> None:
    """EVT-7: 409 ``not_started`` before the round's start, unless an arbiter excepted the game
    (read only before the start: a started game costs no extra query)."""
    if before_start(game.columns, now):
        excepted = await uow.boards.early_start(game.game_id) is not None
        refuse_before_start(game.columns, now, doing=doing, excepted=excepted)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def record_view(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "game_id": row["game_id"],
        "entry": row["idx"],
        "source": row["source"],
        "status": row["status"],
        "moves": list(row["moves"]),
        "opening": row["opening"],
        "flags": list(row["flags"]),
        "entered_by": row["entered_by"],
        "note": row.get("decided_note"),
    }


class OverTheBoard:
    """The over-the-board writes (the units of work come with each call; the reads are
    ``board_views``)."""

    def __init__(self, max_retries: int) -> None:
        self.max_retries = max_retries

    async def _retried(self, job: Any) -> Any:
        for _attempt in range(self.max_retries):
            try:
                return await job()
            except (StaleGame, AlreadyRecorded):
                continue
        raise busy()

    # ------------------------------------------------------------------ result slips

    async def enter_slip(
        self,
        units: Units,
        game_id: str,
        entered_by: str,
        result: str,
        reason: str,
        note: str,
        confirms: int | None,
        person: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """PLAY-9: one entry of a result slip; the confirming entry ends the game with it.
        ``person``: (stable id, name) of who entered it (issue 29: a confirmation comes from
        another person than the entry, else 409 ``same_person_confirms``)."""
        who_id, who_name = person or (None, None)

        async def once() -> tuple[dict[str, Any], otb.SlipVerdict]:
            async with units.transaction(correlation_id=game_id) as uow:
                game = await found(uow, game_id)
                _offline(game)
                now = epoch_ms_now(uow)
                await _refuse_before_start(uow, game, now, "no result slip")
                slips = await uow.boards.slips(game_id)
                entry = otb.Slip(len(slips) + 1, result, reason, entered_by, "pending", confirms, who_id, who_name)
                verdict = otb.judge_slip(slips, entry)
                if game.status == "finished" and not verdict.repeat:
                    raise GameConflict("game_over", "the game's result is in already (an arbiter's decision)")
                if not verdict.repeat:
                    await uow.boards.add_slip(game_id, verdict.entry, note, now)
                if verdict.updated is not None:
                    await uow.boards.set_slip_status(game_id, verdict.updated.idx, verdict.updated.status)
                summary = game.summary()
                if verdict.confirmed:
                    data = otb.slip_action(verdict.entry, note)
                    game.live.apply("slip", None, data)
                    change = Change(actions=[dict(kind="slip", role=None, player_id=None, data=data)])
                    summary = await save_change(uow, game, change, now)
                stored = await uow.boards.slips(game_id)
            units.cache.keep(game)
            summary.pop("_version", None)
            return {"game": summary, "slips": [otb.slip_view(slip) for slip in stored]}, verdict

        answer, verdict = await self._retried(once)
        if verdict.entry.status == "mismatch":
            pending = verdict.updated
            raise SlipMismatch(
                "slip_mismatch",
                f"the confirmation ({result}, {reason}) differs from slip {confirms}: nothing is scored; "
                "enter the slip again",
                {"slip": otb.slip_view(pending) if pending else None, "confirmation": otb.slip_view(verdict.entry)},
            )
        return answer

    # ------------------------------------------------------------------ records

    async def enter_record(
        self, units: Units, game_id: str, entered_by: str, moves: list[str], opening: dict[str, Any] | None
    ) -> dict[str, Any]:
        """PLAY-9: a record entered after the game (or an arbiter's corrected one), replayed by the
        engine; flagged when the rules refuse a step or the moves contradict the result."""
        async with units.transaction(correlation_id=game_id) as uow:
            game = await found(uow, game_id)
            _offline(game)
            now = epoch_ms_now(uow)
            await _refuse_before_start(uow, game, now, "no game record")
            rules = game.live.rules
            check = otb.check_record(rules, game.columns["first_id"], game.columns["second_id"], moves, opening)
            mismatch = otb.disagreement(check, game.columns["result"], game.columns["reason"])
            flags = [flag.view() for flag in check.flags] + ([mismatch.view()] if mismatch else [])
            await uow.boards.supersede_open(game_id, "entered")
            row = dict(
                game_id=game_id,
                event_code=game.columns["event_code"],
                source="entered",
                moves=[move.lower() for move in moves],
                opening=opening,
                status="flagged" if flags else "valid",
                flags=flags,
                entered_by=entered_by,
                entered_ms=now,
            )
            row["idx"] = await uow.boards.add_record(row)
        return record_view(row)

    async def decide_record(self, units: Units, game_id: str, entry: int, note: str) -> dict[str, Any]:
        """The arbiter accepts a flagged entry as it stands (with the reason why); a correction is
        a new entry (``enter_record``), which supersedes it."""
        async with units.transaction(correlation_id=game_id) as uow:
            rows = {row["idx"]: row for row in await uow.boards.records(game_id)}
            row = rows.get(entry)
            if row is None:
                raise NotFound("record_entry_not_found", f"game {game_id!r} has no record entry {entry}")
            if row["status"] != "flagged":
                raise GameConflict("not_flagged", f"record entry {entry} is {row['status']}: nothing to accept")
            await uow.boards.set_record_status(game_id, entry, "accepted", note)
            row.update(status="accepted", decided_note=note)
        return record_view(row)

    # ------------------------------------------------------------------ the live recorder

    async def issue_recorder(self, units: Units, game_id: str, issued_by: str) -> dict[str, Any]:
        """PLAY-10: a new recorder secret for one game (shown once; an earlier one stops working)."""
        secret = secrets.token_urlsafe(24)
        async with units.transaction(correlation_id=game_id) as uow:
            game = await found(uow, game_id)
            _offline(game)
            if game.status == "finished":
                raise GameConflict("game_over", "the game's result is in: there is nothing to record")
            await uow.boards.set_recorder(game_id, secret_hash(secret), issued_by, epoch_ms_now(uow))
        return {"game_id": game_id, "recorder_secret": secret, "header": "X-Recorder-Secret"}

    async def _admit(self, uow: GameplayUnitOfWork, game_id: str, secret: str | None) -> None:
        stored = await uow.boards.recorder_hash(game_id)
        if secret is None or stored is None or not hmac.compare_digest(stored, secret_hash(secret)):
            raise ServiceError(
                "not_the_recorder", "present this game's recorder secret (X-Recorder-Secret)", status=403
            )

    async def record_step(
        self, units: Units, game_id: str, secret: str | None, kind: str, data: dict[str, Any], step: int | None = None
    ) -> dict[str, Any]:
        """PLAY-10: one step seen at the board; on the live stream like a player's move, or
        flagged for the arbiter (stored with the reason, shown on the stream)."""

        async def once() -> dict[str, Any]:
            async with units.transaction(correlation_id=game_id) as uow:
                await self._admit(uow, game_id, secret)
                game = await found(uow, game_id)
                if otb.is_repeat(game, step):
                    summary = game.summary()
                    summary.pop("_version", None)
                    return {"game": summary, "flag": None, "repeated": True}
                now = epoch_ms_now(uow)
                await _refuse_before_start(uow, game, now, "no recorded step")
                moves_before = list(game.live.moves)
                change, flag = otb.recorder_step(game, kind, data)
                summary = await save_change(uow, game, change, now)
                if flag is not None:
                    row = dict(
                        game_id=game_id,
                        event_code=game.columns["event_code"],
                        source="recorder",
                        moves=moves_before + ([flag.move] if flag.move else []),
                        opening=game.live.opening_info(),
                        status="flagged",
                        flags=[flag.view()],
                        entered_by="recorder",
                        entered_ms=now,
                    )
                    await uow.boards.add_record(row)
            units.cache.keep(game)
            summary.pop("_version", None)
            return {"game": summary, "flag": flag.view() if flag else None}

        return await self._retried(once)

    # ------------------------------------------------------------------ EVT-7: played early

    async def allow_early(
        self, units: Units, game_id: str, allowed_by: str, reason: str, person: tuple[str, str] | None = None
    ) -> tuple[dict[str, Any], bool]:
        """An arbiter's exception to the round's start for one over-the-board game, with the
        reason; the stored exception and whether it is new (asked again, the first one stands).
        ``person``: (stable id, name) of who allowed it (issue 29: the audit names them)."""
        who_id, who_name = person or (None, None)

        async def once() -> tuple[dict[str, Any], bool]:
            async with units.transaction(correlation_id=game_id) as uow:
                game = await found(uow, game_id)
                stored = await uow.boards.early_start(game_id)
                if stored is not None:
                    return stored.view(), False
                now = epoch_ms_now(uow)
                refuse_early_start(game.columns, now)
                allowed = EarlyStart(game_id, reason, allowed_by, now, game.columns["starts_ms"], who_id, who_name)
                await uow.boards.add_early_start(allowed)
            return allowed.view(), True

        return await self._retried(once)
