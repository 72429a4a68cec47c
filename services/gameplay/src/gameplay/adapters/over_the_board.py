"""The over-the-board tables (PLAY-9, PLAY-10) behind one repository: result slips, record
entries with their flags, the recorders' credential hashes, and the arbiters' exceptions to a
round's start (EVT-7)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import and_, func, select, update

from ..domain.early_start import EarlyStart
from ..domain.over_the_board import Slip
from .orm import early_starts, games, record_entries, recorders, result_slips
from .repositories import Transaction


class OverTheBoardRepository:
    __slots__ = ("transaction",)

    def __init__(self, transaction: Transaction) -> None:
        self.transaction = transaction

    # ------------------------------------------------------------------ slips

    async def slips(self, game_id: str) -> list[Slip]:
        session = await self.transaction.session()
        rows = (
            await session.execute(
                select(result_slips).where(result_slips.c.game_id == game_id).order_by(result_slips.c.idx)
            )
        ).mappings()
        return [
            Slip(
                row["idx"],
                row["result"],
                row["reason"],
                row["entered_by"],
                row["status"],
                row["confirms"],
                row["entered_by_id"],
                row["entered_by_name"],
            )
            for row in rows
        ]

    async def add_slip(self, game_id: str, slip: Slip, note: str, at_ms: int) -> None:
        session = await self.transaction.session()
        await session.execute(
            result_slips.insert().values(
                game_id=game_id,
                idx=slip.idx,
                result=slip.result,
                reason=slip.reason,
                status=slip.status,
                confirms=slip.confirms,
                entered_by=slip.entered_by,
                entered_by_id=slip.entered_by_id,
                entered_by_name=slip.entered_by_name,
                note=note[:500],
                entered_ms=at_ms,
            )
        )

    async def set_slip_status(self, game_id: str, idx: int, status: str) -> None:
        session = await self.transaction.session()
        where = and_(result_slips.c.game_id == game_id, result_slips.c.idx == idx)
        await session.execute(update(result_slips).where(where).values(status=status))

    # ------------------------------------------------------------------ records

    async def records(self, game_id: str) -> list[dict[str, Any]]:
        session = await self.transaction.session()
        query = select(record_entries).where(record_entries.c.game_id == game_id).order_by(record_entries.c.idx)
        return [dict(row) for row in (await session.execute(query)).mappings()]

    async def add_record(self, row: dict[str, Any]) -> int:
        """Store an entry under the next index of its game; the index."""
        session = await self.transaction.session()
        last = select(func.max(record_entries.c.idx)).where(record_entries.c.game_id == row["game_id"])
        idx = int((await session.execute(last)).scalar_one() or 0) + 1
        await session.execute(record_entries.insert().values(**row, idx=idx))
        return idx

    async def set_record_status(self, game_id: str, idx: int, status: str, note: str | None = None) -> None:
        session = await self.transaction.session()
        where = and_(record_entries.c.game_id == game_id, record_entries.c.idx == idx)
        values: dict[str, Any] = {"status": status}
        if note is not None:
            values["decided_note"] = note[:500]
        await session.execute(update(record_entries).where(where).values(**values))

    async def supersede_open(self, game_id: str, source: str) -> None:
        """Earlier entries of a source that a new one replaces (a corrected record)."""
        session = await self.transaction.session()
        where = and_(
            record_entries.c.game_id == game_id,
            record_entries.c.source == source,
            record_entries.c.status.in_(("valid", "flagged")),
        )
        await session.execute(update(record_entries).where(where).values(status="superseded"))

    async def flagged(self, event_code: str) -> list[dict[str, Any]]:
        """The flagged entries of an event awaiting the arbiter, with their game's place."""
        session = await self.transaction.session()
        query = (
            select(record_entries, games.c.section_id, games.c.round, games.c.pairing_id, games.c.game_no)
            .join(games, games.c.game_id == record_entries.c.game_id)
            .where(and_(record_entries.c.event_code == event_code, record_entries.c.status == "flagged"))
            .order_by(record_entries.c.game_id, record_entries.c.idx)
        )
        return [dict(row) for row in (await session.execute(query)).mappings()]

    # ------------------------------------------------------------------ recorders

    async def recorder_hash(self, game_id: str) -> str | None:
        session = await self.transaction.session()
        query = select(recorders.c.secret_hash).where(recorders.c.game_id == game_id)
        return (await session.execute(query)).scalar_one_or_none()

    async def set_recorder(self, game_id: str, secret_hash: str, issued_by: str, at_ms: int) -> None:
        session = await self.transaction.session()
        await session.execute(recorders.delete().where(recorders.c.game_id == game_id))
        await session.execute(
            recorders.insert().values(game_id=game_id, secret_hash=secret_hash, issued_by=issued_by, issued_ms=at_ms)
        )

    # ------------------------------------------------------------------ exceptions to the start

    async def early_start(self, game_id: str) -> EarlyStart | None:
        session = await self.transaction.session()
        query = select(early_starts).where(early_starts.c.game_id == game_id)
        row = (await session.execute(query)).mappings().one_or_none()
        if row is None:
            return None
        return EarlyStart(
            row["game_id"],
            row["reason"],
            row["allowed_by"],
            row["allowed_ms"],
            row["starts_ms"],
            row["allowed_by_id"],
            row["allowed_by_name"],
        )

    async def add_early_start(self, allowed: EarlyStart) -> None:
        session = await self.transaction.session()
        await session.execute(
            early_starts.insert().values(
                game_id=allowed.game_id,
                reason=allowed.reason[:500],
                allowed_by=allowed.allowed_by[:64],
                allowed_by_id=allowed.allowed_by_id,
                allowed_by_name=allowed.allowed_by_name,
                allowed_ms=allowed.allowed_ms,
                starts_ms=allowed.starts_ms,
            )
        )
