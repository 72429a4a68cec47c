"""Loading and writing a section's stored state (rows ↔ :class:`SectionState`): the repositories
the pairing unit of work exposes (``uow.sections``, ``uow.games``, ``uow.audit``).

Every use case loads the section with its tournament row locked (``SELECT … FOR UPDATE``;
compiles away on SQLite, where writes are serialised anyway), so two replicas handling two
``game.finished`` of one section at once run one after the other and a round is paired once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Table, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.contracts.common import Entrant, SectionRules
from gomoku_shared.db import select_for_update

from . import orm
from .appeals_repository import AppealRepository


@dataclass
class SectionState:
    row: dict[str, Any]
    rules: SectionRules
    #: entrant rows by start number, each with the parsed contract ``Entrant`` under "entrant"
    entrants: dict[int, dict[str, Any]]
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: pairings by round, in round order (match_no, board)
    pairings: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    byes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    ties: list[dict[str, Any]] = field(default_factory=list)

    @property
    def event_code(self) -> str:
        return self.row["event_code"]

    @property
    def section_id(self) -> str:
        return self.row["section_id"]

    @property
    def key(self) -> dict[str, str]:
        return {"event_code": self.event_code, "section_id": self.section_id}

    @property
    def team(self) -> bool:
        return self.rules.kind == "team"

    def by_entrant_id(self) -> dict[str, int]:
        return {entrant["entrant_id"]: start_no for start_no, entrant in self.entrants.items()}

    def complete_rounds(self) -> list[int]:
        return sorted(rnd for rnd, row in self.rounds.items() if row["status"] == "complete")


def _of_section(table: Table, event_code: str, section_id: str) -> ColumnElement[bool]:
    return (table.c.event_code == event_code) & (table.c.section_id == section_id)


def _entrant_row(row: Any) -> dict[str, Any]:
    entrant = dict(row)
    entrant["entrant"] = Entrant.model_validate(row["data"])
    return entrant


class SectionRepository:
    """A section's tournament row and everything stored under it (entrants, rounds, pairings,
    byes, bye requests, withdrawals, ties)."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def exists(self, event_code: str, section_id: str) -> bool:
        query = select(orm.tournaments.c.section_id).where(_of_section(orm.tournaments, event_code, section_id))
        return (await self.session.execute(query)).first() is not None

    async def create(self, tournament: dict[str, Any], entrants: list[dict[str, Any]]) -> None:
        """A new section's tournament row and its entrant rows."""
        await self.session.execute(orm.tournaments.insert().values(**tournament))
        if entrants:
            await self.session.execute(orm.entrants.insert(), entrants)

    async def add_entrant(self, state: SectionState, row: dict[str, Any], entrant: Entrant) -> None:
        """A late entrant's row (its columns), also in ``state`` with the contract ``entrant``."""
        await self.session.execute(orm.entrants.insert().values(**row))
        state.entrants[row["start_no"]] = {**row, "entrant": entrant}

    async def load(self, event_code: str, section_id: str, *, lock: bool = False) -> SectionState | None:
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
        state = SectionState(row, SectionRules.model_validate(row["rules"]), {})
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
        return state

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

    async def update_tournament(self, state: SectionState, **values: Any) -> None:
        await self.session.execute(
            update(orm.tournaments)
            .where(_of_section(orm.tournaments, state.event_code, state.section_id))
            .values(**values)
        )
        state.row.update(values)

    async def insert_round(
        self,
        state: SectionState,
        rnd: int,
        status: str,
        now: datetime,
        pairing_rows: list[dict],
        bye_rows: list[dict],
        paired_by: str = "engine",
    ) -> None:
        """Store a round (replacing a draft of the same number)."""
        await self.delete_round(state, rnd)
        row = dict(
            **state.key,
            round=rnd,
            status=status,
            paired_at=now,
            paired_by=paired_by,
            published_at=now if status == "published" else None,
            starts_at=now if status == "published" else None,
        )
        await self.session.execute(insert(orm.rounds).values(**row))
        if pairing_rows:
            await self.session.execute(
                insert(orm.pairings), [dict(**state.key, round=rnd, **pairing) for pairing in pairing_rows]
            )
        if bye_rows:
            await self.session.execute(insert(orm.byes), [dict(**state.key, round=rnd, **bye) for bye in bye_rows])
        state.rounds[rnd] = row
        no_result = dict(
            outcome=None,
            first_points=None,
            second_points=None,
            result_source=None,
            result_at=None,
            result_by=None,
            result_by_name=None,
        )
        state.pairings[rnd] = [
            dict(**state.key, round=rnd, **no_result, revision=0, **pairing) for pairing in pairing_rows
        ]
        state.byes[rnd] = [dict(**state.key, round=rnd, **bye) for bye in bye_rows]

    async def delete_round(self, state: SectionState, rnd: int) -> None:
        for table in (orm.pairings, orm.byes, orm.rounds):
            await self.session.execute(
                delete(table).where(_of_section(table, state.event_code, state.section_id) & (table.c.round == rnd))
            )
        state.rounds.pop(rnd, None)
        state.pairings.pop(rnd, None)
        state.byes.pop(rnd, None)

    async def update_round(self, state: SectionState, rnd: int, **values: Any) -> None:
        rounds = orm.rounds
        await self.session.execute(
            update(rounds)
            .where(_of_section(rounds, state.event_code, state.section_id) & (rounds.c.round == rnd))
            .values(**values)
        )
        state.rounds[rnd].update(values)

    async def set_result(self, pairing: dict, **values: Any) -> bool:
        """A pairing's result (``pairing``: its row, updated in place), set only if the stored
        revision is still the one ``pairing`` holds; the revision goes up by one. Check and set
        are one statement, so a write that read an older revision changes nothing (False) even
        where no lock serialised the writers."""
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

    async def add_bye_request(self, state: SectionState, **values: Any) -> None:
        requests = orm.bye_requests
        same = (requests.c.round == values["round"]) & (requests.c.start_no == values["start_no"])
        await self.session.execute(
            delete(requests).where(_of_section(requests, state.event_code, state.section_id) & same)
        )
        await self.session.execute(insert(requests).values(**state.key, **values))
        state.requests = [
            request
            for request in state.requests
            if not (request["round"] == values["round"] and request["start_no"] == values["start_no"])
        ]
        state.requests.append(dict(**state.key, **values))

    async def set_withdrawn(
        self, state: SectionState, start_no: int, after_round: int, reason: str, now: datetime, by_whom: str
    ) -> None:
        withdrawals = orm.withdrawals
        of_section = _of_section(withdrawals, state.event_code, state.section_id)
        await self.session.execute(delete(withdrawals).where(of_section & (withdrawals.c.start_no == start_no)))
        await self.session.execute(
            insert(withdrawals).values(
                **state.key, start_no=start_no, after_round=after_round, reason=reason, created_at=now, by=by_whom
            )
        )
        entrants = orm.entrants
        await self.session.execute(
            update(entrants)
            .where(_of_section(entrants, state.event_code, state.section_id) & (entrants.c.start_no == start_no))
            .values(withdrawn_after=after_round)
        )
        state.entrants[start_no]["withdrawn_after"] = after_round

    async def upsert_tie(self, state: SectionState, tie: dict) -> None:
        ties = orm.ties
        await self.session.execute(
            delete(ties).where(_of_section(ties, state.event_code, state.section_id) & (ties.c.tie_id == tie["tie_id"]))
        )
        columns = {name: value for name, value in tie.items() if name not in ("event_code", "section_id")}
        await self.session.execute(insert(ties).values(**state.key, **columns))
        state.ties = [other for other in state.ties if other["tie_id"] != tie["tie_id"]] + [
            dict(**state.key, **columns)
        ]
        state.ties.sort(key=lambda stored: stored["tie_id"])

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

    async def add(
        self,
        state: SectionState,
        *,
        when: datetime,
        role: str,
        key_id: str,
        action: str,
        rnd: int | None,
        details: dict,
        actor: str | None = None,
        actor_id: str | None = None,
    ) -> None:
        await self.session.execute(
            insert(orm.audit).values(
                **state.key,
                at=when,
                role=role,
                key_id=key_id,
                actor=actor,
                actor_id=actor_id,
                action=action,
                round=rnd,
                details=details,
            )
        )

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
