"""Loading and saving the section aggregate (rows ↔ :class:`~pairing.domain.aggregate.Section`):
the repositories the pairing unit of work exposes (``uow.sections``, ``uow.games``, ``uow.audit``,
``uow.appeals``). A use case loads its section once and saves it once: ``save`` writes the
changes the section recorded, in their order.

Every use case loads the section with its tournament row locked (``SELECT … FOR UPDATE``;
compiles away on SQLite, where writes are serialised anyway), so two replicas handling two
``game.finished`` of one section at once run one after the other and a round is paired once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Table, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.contracts.common import Entrant, SectionRules
from gomoku_shared.db import select_for_update

from ..domain.aggregate import Section, StaleResult
from . import orm
from .appeals_repository import AppealRepository


def _of_section(table: Table, event_code: str, section_id: str) -> ColumnElement[bool]:
    return (table.c.event_code == event_code) & (table.c.section_id == section_id)


def _entrant_row(row: Any) -> dict[str, Any]:
    entrant = dict(row)
    entrant["entrant"] = Entrant.model_validate(row["data"])
    return entrant


class SectionRepository:
    """A section's tournament row and everything stored under it (entrants, rounds, pairings,
    byes, bye requests, withdrawals, ties), loaded as one aggregate and saved as one."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self._writers: dict[str, Callable[[Section, dict[str, Any]], Awaitable[None]]] = {
            "created": self._created,
            "tournament": self._tournament,
            "entrant": self._entrant,
            "round": self._round,
            "round_dropped": self._round_dropped,
            "round_updated": self._round_updated,
            "result": self._result,
            "bye_request": self._bye_request,
            "withdrawal": self._withdrawal,
            "tie": self._tie,
            "audit": self._audit,
        }

    async def exists(self, event_code: str, section_id: str) -> bool:
        query = select(orm.tournaments.c.section_id).where(_of_section(orm.tournaments, event_code, section_id))
        return (await self.session.execute(query)).first() is not None

    async def load(self, event_code: str, section_id: str, *, lock: bool = False) -> Section | None:
        """The section, or None; ``lock``: its tournament row locked for this transaction (and
        its version moved on: the section is about to change)."""
        session = self.session
        tournaments = orm.tournaments
        where = _of_section(tournaments, event_code, section_id)
        query = select(tournaments).where(where)
        if lock:
            result = await select_for_update(session, query, tournaments, where)
        else:
            result = await session.execute(query)
        found = result.mappings().first()
        if found is None:
            return None
        row = await self._touched(dict(found)) if lock else dict(found)
        state = Section(row, SectionRules.model_validate(row["rules"]), {}, stored_seq=row["event_seq"])
        for entrant in await self._rows(orm.entrants, event_code, section_id, orm.entrants.c.start_no):
            state.entrants[entrant["start_no"]] = _entrant_row(entrant)
        for round_row in await self._rows(orm.rounds, event_code, section_id):
            state.rounds[round_row["round"]] = round_row
        pairings = orm.pairings.c
        for pairing in await self._rows(
            orm.pairings, event_code, section_id, pairings.round, pairings.match_no, pairings.board
        ):
            state.pairings.setdefault(pairing["round"], []).append(pairing)
        for bye in await self._rows(orm.byes, event_code, section_id, orm.byes.c.round, orm.byes.c.start_no):
            state.byes.setdefault(bye["round"], []).append(bye)
        requests = orm.bye_requests.c
        state.requests = await self._rows(orm.bye_requests, event_code, section_id, requests.round, requests.start_no)
        state.ties = await self._rows(orm.ties, event_code, section_id, orm.ties.c.tie_id)
        state.delays = await AuditRepository(session).delays(event_code, section_id)
        return state

    async def save(self, section: Section) -> None:
        """Write the section's recorded changes in order, then its event sequence number.
        :class:`StaleResult` when a result's stored revision is no longer the one it read."""
        changes, section.changes = section.changes, []
        for change in changes:
            await self._writers[change.kind](section, change.values)
        if section.row["event_seq"] != section.stored_seq:
            await self._tournament(section, {"values": {"event_seq": section.row["event_seq"]}})
            section.stored_seq = section.row["event_seq"]

    async def _rows(self, table: Table, event_code: str, section_id: str, *order: Any) -> list[dict[str, Any]]:
        query = select(table).where(_of_section(table, event_code, section_id)).order_by(*order)
        return [dict(row) for row in (await self.session.execute(query)).mappings()]

    async def lock_tournament(self, event_code: str, section_id: str) -> dict[str, Any] | None:
        """Only the tournament row, locked (the cheap first step of every game.finished)."""
        tournaments = orm.tournaments
        where = _of_section(tournaments, event_code, section_id)
        result = await select_for_update(self.session, select(tournaments).where(where), tournaments, where)
        row = result.mappings().first()
        return await self._touched(dict(row)) if row else None

    async def _touched(self, row: dict[str, Any]) -> dict[str, Any]:
        """The section is locked to be changed: its version goes up by one (in this transaction,
        so a rolled-back change leaves it as it was). The public reads send it as their ETag."""
        row["version"] = int(row.get("version") or 0) + 1
        await self.session.execute(
            update(orm.tournaments)
            .where(_of_section(orm.tournaments, row["event_code"], row["section_id"]))
            .values(version=row["version"])
        )
        return row

    async def version(self, event_code: str, section_id: str) -> int | None:
        """The section's change counter alone (a conditional read's cheap first step), or None."""
        column = orm.tournaments.c.version
        query = select(column).where(_of_section(orm.tournaments, event_code, section_id))
        value = (await self.session.execute(query)).scalar_one_or_none()
        return None if value is None else int(value)

    async def pairing(self, event_code: str, section_id: str, pairing_id: str) -> dict[str, Any] | None:
        pairings = orm.pairings
        query = select(pairings).where(
            _of_section(pairings, event_code, section_id) & (pairings.c.pairing_id == pairing_id)
        )
        row = (await self.session.execute(query)).mappings().first()
        return dict(row) if row else None

    async def open_pairings(self, event_code: str, section_id: str, rnd: int) -> int:
        """How many pairings of round ``rnd`` still wait for their result."""
        pairings = orm.pairings
        query = (
            select(func.count())
            .select_from(pairings)
            .where(
                _of_section(pairings, event_code, section_id) & (pairings.c.round == rnd) & pairings.c.outcome.is_(None)
            )
        )
        return int((await self.session.execute(query)).scalar_one())

    async def write_result(self, pairing: dict, **values: Any) -> bool:
        """A pairing's result written at once (a game's, before its section is loaded:
        ``pairing`` is its row, updated in place), only over the revision ``pairing`` holds; the
        revision goes up by one. Check and set are one statement, so a write that read an older
        revision changes nothing (False) even where no lock serialised the writers."""
        pairings = orm.pairings
        seen = int(pairing.get("revision") or 0)
        done = await self.session.execute(
            update(pairings)
            .where(
                _of_section(pairings, pairing["event_code"], pairing["section_id"])
                & (pairings.c.round == pairing["round"])
                & (pairings.c.pairing_id == pairing["pairing_id"])
                & (pairings.c.revision == seen)
            )
            .values(**values, revision=seen + 1)
        )
        if getattr(done, "rowcount", 1) != 1:
            return False
        pairing.update(values, revision=seen + 1)
        return True

    # ---------------------------------------------------------------- writing recorded changes

    async def _created(self, section: Section, change: dict[str, Any]) -> None:
        await self.session.execute(orm.tournaments.insert().values(**change["tournament"]))
        if change["entrants"]:
            await self.session.execute(orm.entrants.insert(), change["entrants"])

    async def _tournament(self, section: Section, change: dict[str, Any]) -> None:
        await self.session.execute(
            update(orm.tournaments)
            .where(_of_section(orm.tournaments, section.event_code, section.section_id))
            .values(**change["values"])
        )

    async def _entrant(self, section: Section, change: dict[str, Any]) -> None:
        await self.session.execute(orm.entrants.insert().values(**change["row"]))

    async def _round(self, section: Section, change: dict[str, Any]) -> None:
        await self.session.execute(insert(orm.rounds).values(**change["row"]))
        if change["pairings"]:
            await self.session.execute(insert(orm.pairings), change["pairings"])
        if change["byes"]:
            await self.session.execute(insert(orm.byes), change["byes"])

    async def _round_dropped(self, section: Section, change: dict[str, Any]) -> None:
        for table in (orm.pairings, orm.byes, orm.rounds):
            await self.session.execute(
                delete(table).where(
                    _of_section(table, section.event_code, section.section_id) & (table.c.round == change["round"])
                )
            )

    async def _round_updated(self, section: Section, change: dict[str, Any]) -> None:
        rounds = orm.rounds
        await self.session.execute(
            update(rounds)
            .where(_of_section(rounds, section.event_code, section.section_id) & (rounds.c.round == change["round"]))
            .values(**change["values"])
        )

    async def _result(self, section: Section, change: dict[str, Any]) -> None:
        pairing, seen = change["pairing"], change["seen"]
        pairings = orm.pairings
        done = await self.session.execute(
            update(pairings)
            .where(
                _of_section(pairings, section.event_code, section.section_id)
                & (pairings.c.round == pairing["round"])
                & (pairings.c.pairing_id == pairing["pairing_id"])
                & (pairings.c.revision == seen)
            )
            .values(**change["values"], revision=seen + 1)
        )
        if getattr(done, "rowcount", 1) != 1:
            raise StaleResult(pairing)

    async def _bye_request(self, section: Section, change: dict[str, Any]) -> None:
        values = change["values"]
        requests = orm.bye_requests
        same = (requests.c.round == values["round"]) & (requests.c.start_no == values["start_no"])
        await self.session.execute(
            delete(requests).where(_of_section(requests, section.event_code, section.section_id) & same)
        )
        await self.session.execute(insert(requests).values(**section.key, **values))

    async def _withdrawal(self, section: Section, change: dict[str, Any]) -> None:
        withdrawals, start_no = orm.withdrawals, change["start_no"]
        of_section = _of_section(withdrawals, section.event_code, section.section_id)
        await self.session.execute(delete(withdrawals).where(of_section & (withdrawals.c.start_no == start_no)))
        await self.session.execute(insert(withdrawals).values(**section.key, **change))
        entrants = orm.entrants
        await self.session.execute(
            update(entrants)
            .where(_of_section(entrants, section.event_code, section.section_id) & (entrants.c.start_no == start_no))
            .values(withdrawn_after=change["after_round"])
        )

    async def _tie(self, section: Section, change: dict[str, Any]) -> None:
        ties, columns = orm.ties, change["columns"]
        await self.session.execute(
            delete(ties).where(
                _of_section(ties, section.event_code, section.section_id) & (ties.c.tie_id == columns["tie_id"])
            )
        )
        await self.session.execute(insert(ties).values(**section.key, **columns))

    async def _audit(self, section: Section, change: dict[str, Any]) -> None:
        await self.session.execute(insert(orm.audit).values(**section.key, **change))

    async def of_event(self, event_code: str) -> list[dict]:
        """The sections of an event: their tournament rows' summary columns."""
        tournaments = orm.tournaments
        columns = tournaments.c
        query = (
            select(
                columns.section_id,
                columns.stage,
                columns.name,
                columns.status,
                columns.current_round,
                columns.rounds_planned,
                columns.format,
                columns.kind,
                columns.revision,
            )
            .where(columns.event_code == event_code)
            .order_by(columns.section_id)
        )
        return [dict(row) for row in (await self.session.execute(query)).mappings()]


class GameRepository:
    """Games recorded from ``game.finished`` (round and playoff games)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def recorded(self, event_code: str, section_id: str, playoff_id: str, pairing_id: str, game_no: int) -> bool:
        games = orm.games
        query = select(games.c.id).where(
            _of_section(games, event_code, section_id)
            & (games.c.playoff_id == playoff_id)
            & (games.c.pairing_id == pairing_id)
            & (games.c.game_no == game_no)
        )
        return (await self.session.execute(query)).first() is not None

    async def record(self, **values: Any) -> None:
        await self.session.execute(insert(orm.games).values(**values))

    async def of_section(self, event_code: str, section_id: str) -> list[dict]:
        games = orm.games
        query = (
            select(games)
            .where(_of_section(games, event_code, section_id))
            .order_by(games.c.playoff_id, games.c.round, games.c.pairing_id, games.c.game_no)
        )
        return [dict(row) for row in (await self.session.execute(query)).mappings()]


class AuditRepository:
    """The arbiter's audit records."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def delays(self, event_code: str, section_id: str) -> dict[int, datetime]:
        """EVT-7: the latest start the arbiter delayed each round to (from the audited delays)."""
        audit = orm.audit
        query = (
            select(audit.c.round, audit.c.details)
            .where(_of_section(audit, event_code, section_id) & (audit.c.action == "delay"))
            .order_by(audit.c.id)
        )
        moved: dict[int, datetime] = {}
        for row in (await self.session.execute(query)).mappings():
            moved[row["round"]] = datetime.fromisoformat(row["details"]["starts_at"])
        return moved

    async def of_section(self, event_code: str, section_id: str) -> list[dict]:
        audit = orm.audit
        query = select(audit).where(_of_section(audit, event_code, section_id)).order_by(audit.c.id)
        return [dict(row) for row in (await self.session.execute(query)).mappings()]


class Repositories:
    """Every pairing repository on one session: what a unit of work (or a read) uses."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.sections = SectionRepository(session)
        self.games = GameRepository(session)
        self.audit = AuditRepository(session)
        self.appeals = AppealRepository(session)
