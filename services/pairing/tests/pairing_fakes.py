"""In-memory repositories and a fake unit of work for pairing's use-case tests (the fast lane):
the same protocol as the SQL ones (``pairing.service_layer.unit_of_work.PairingUnitOfWork``), so
a command runs through ``handlers.handle`` unchanged, in milliseconds, with no database.

The fake stores rows as the SQL tables do (a dict per row, keyed like the table's primary key,
the columns' defaults filled from :mod:`pairing.adapters.orm`) and ``save`` writes a section's
recorded changes one by one, as the SQL repository does: a change a use case forgets to record
is lost here too. ``test_fake_repository_contract.py`` runs one scenario on both repositories,
so the two cannot drift apart.

    uow = FakeUnitOfWork()
    await uow.handle(OpenSection(closed("open", players(8), rules(rounds=3))))
    assert uow.payloads("round.paired")[0].round == 1
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pairing_kit import EV, START

from gomoku_shared.auth import Principal
from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import Payload, envelope_for
from gomoku_shared.contracts.common import Entrant, SectionRules
from gomoku_shared.contracts.envelope import Envelope
from gomoku_shared.contracts.events import GameFinished, PairingOutcome, PlayoffRequired, RoundPaired
from pairing.adapters import orm
from pairing.domain.aggregate import Section, StaleResult
from pairing.service_layer import handlers
from pairing.service_layer.commands import Command
from pairing.service_layer.pool import Pairer
from pairing.service_layer.unit_of_work import PairingUnitOfWork

Key = tuple[str, str]

#: the arbiter's API key, as the routes hand it to a command
ARBITER = Principal("arbiter", key_id="arb-key")


def _filled(table: Any, values: dict[str, Any]) -> dict[str, Any]:
    """A row as an insert stores it: every column of ``table``, its default where not given."""
    row = {}
    for column in table.columns:
        if column.name in values:
            row[column.name] = values[column.name]
        elif column.default is not None and column.default.is_scalar:
            row[column.name] = column.default.arg
        elif column.server_default is not None:
            row[column.name] = int(column.server_default.arg)  # the integer counters ("0")
        else:
            row[column.name] = None
    return row


@dataclass
class StoredSection:
    """One section's rows, by their tables' keys below the section key."""

    tournament: dict[str, Any]
    entrants: dict[int, dict[str, Any]] = field(default_factory=dict)
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    pairings: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    byes: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    requests: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    withdrawals: dict[int, dict[str, Any]] = field(default_factory=dict)
    ties: dict[str, dict[str, Any]] = field(default_factory=dict)


@dataclass
class FakeStore:
    """The in-memory database: every section's rows, the audit log, the games and the appeals."""

    sections: dict[Key, StoredSection] = field(default_factory=dict)
    audit: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    appeals: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)


class FakeSectionRepository:
    """``uow.sections`` in memory: loads a fresh aggregate from the stored rows, saves its
    recorded changes in order; a result written over another revision raises
    :class:`StaleResult` as the SQL ``save`` does."""

    def __init__(self, store: FakeStore) -> None:
        self.store = store

    async def exists(self, event_code: str, section_id: str) -> bool:
        return (event_code, section_id) in self.store.sections

    async def load(self, event_code: str, section_id: str, *, lock: bool = False) -> Section | None:
        stored = self.store.sections.get((event_code, section_id))
        if stored is None:
            return None
        if lock:
            self._touch(stored)
        rows = copy.deepcopy(stored)
        row = rows.tournament
        state = Section(row, SectionRules.model_validate(row["rules"]), {}, stored_seq=row["event_seq"])
        for start_no in sorted(rows.entrants):
            entrant = rows.entrants[start_no]
            state.entrants[start_no] = {**entrant, "entrant": Entrant.model_validate(entrant["data"])}
        state.rounds = dict(sorted(rows.rounds.items()))
        for pairing in sorted(rows.pairings.values(), key=lambda p: (p["round"], p["match_no"], p["board"] or 0)):
            state.pairings.setdefault(pairing["round"], []).append(pairing)
        for (rnd, _), bye in sorted(rows.byes.items()):
            state.byes.setdefault(rnd, []).append(bye)
        state.requests = [rows.requests[key] for key in sorted(rows.requests)]
        state.ties = [rows.ties[tie_id] for tie_id in sorted(rows.ties)]
        state.delays = await FakeAuditRepository(self.store).delays(event_code, section_id)
        return state

    async def save(self, section: Section) -> None:
        changes, section.changes = section.changes, []
        for change in changes:
            getattr(self, f"_{change.kind}")(section, change.values)
        stored = self._stored(section)
        stored.tournament["event_seq"] = section.stored_seq = section.row["event_seq"]

    async def lock_tournament(self, event_code: str, section_id: str) -> dict[str, Any] | None:
        stored = self.store.sections.get((event_code, section_id))
        return dict(self._touch(stored)) if stored else None

    async def pairing(self, event_code: str, section_id: str, pairing_id: str) -> dict[str, Any] | None:
        stored = self.store.sections.get((event_code, section_id))
        found = [row for (_, pid), row in (stored.pairings.items() if stored else ()) if pid == pairing_id]
        return dict(found[0]) if found else None

    async def open_pairings(self, event_code: str, section_id: str, rnd: int) -> int:
        stored = self.store.sections[(event_code, section_id)]
        return sum(1 for row in stored.pairings.values() if row["round"] == rnd and row["outcome"] is None)

    async def write_result(self, pairing: dict, **values: Any) -> bool:
        stored = self.store.sections[(pairing["event_code"], pairing["section_id"])]
        row = stored.pairings.get((pairing["round"], pairing["pairing_id"]))
        seen = int(pairing.get("revision") or 0)
        if row is None or row["revision"] != seen:
            return False
        row.update(values, revision=seen + 1)
        pairing.update(values, revision=seen + 1)
        return True

    async def of_event(self, event_code: str) -> list[dict]:
        summary = ("section_id", "stage", "name", "status", "current_round", "rounds_planned", "format", "kind")
        return [
            {name: stored.tournament[name] for name in (*summary, "revision")}
            for (code, _), stored in sorted(self.store.sections.items())
            if code == event_code
        ]

    def _touch(self, stored: StoredSection) -> dict[str, Any]:
        """Locked to be changed: the version goes up by one (the reads' ETag)."""
        stored.tournament["version"] = int(stored.tournament.get("version") or 0) + 1
        return stored.tournament

    def _stored(self, section: Section) -> StoredSection:
        return self.store.sections[(section.event_code, section.section_id)]

    # ---------------------------------------------------------------- the recorded changes

    def _created(self, section: Section, change: dict[str, Any]) -> None:
        key = (section.event_code, section.section_id)
        assert key not in self.store.sections, f"duplicate section {key}"  # the primary key
        stored = StoredSection(_filled(orm.tournaments, copy.deepcopy(change["tournament"])))
        for entrant in copy.deepcopy(change["entrants"]):
            stored.entrants[entrant["start_no"]] = _filled(orm.entrants, entrant)
        self.store.sections[key] = stored

    def _tournament(self, section: Section, change: dict[str, Any]) -> None:
        self._stored(section).tournament.update(copy.deepcopy(change["values"]))

    def _entrant(self, section: Section, change: dict[str, Any]) -> None:
        row = _filled(orm.entrants, copy.deepcopy(change["row"]))
        self._stored(section).entrants[row["start_no"]] = row

    def _round(self, section: Section, change: dict[str, Any]) -> None:
        stored, change = self._stored(section), copy.deepcopy(change)
        assert change["row"]["round"] not in stored.rounds, "duplicate round"
        stored.rounds[change["row"]["round"]] = _filled(orm.rounds, change["row"])
        for pairing in change["pairings"]:
            stored.pairings[(pairing["round"], pairing["pairing_id"])] = _filled(orm.pairings, pairing)
        for bye in change["byes"]:
            stored.byes[(bye["round"], bye["start_no"])] = _filled(orm.byes, bye)

    def _round_dropped(self, section: Section, change: dict[str, Any]) -> None:
        stored, rnd = self._stored(section), change["round"]
        stored.rounds.pop(rnd, None)
        stored.pairings = {key: row for key, row in stored.pairings.items() if key[0] != rnd}
        stored.byes = {key: row for key, row in stored.byes.items() if key[0] != rnd}

    def _round_updated(self, section: Section, change: dict[str, Any]) -> None:
        self._stored(section).rounds[change["round"]].update(copy.deepcopy(change["values"]))

    def _result(self, section: Section, change: dict[str, Any]) -> None:
        pairing, seen = change["pairing"], change["seen"]
        row = self._stored(section).pairings.get((pairing["round"], pairing["pairing_id"]))
        if row is None or row["revision"] != seen:
            raise StaleResult(pairing)
        row.update(copy.deepcopy(change["values"]), revision=seen + 1)

    def _bye_request(self, section: Section, change: dict[str, Any]) -> None:
        values = copy.deepcopy(change["values"])
        row = _filled(orm.bye_requests, {**section.key, **values})
        self._stored(section).requests[(values["round"], values["start_no"])] = row

    def _withdrawal(self, section: Section, change: dict[str, Any]) -> None:
        stored = self._stored(section)
        stored.withdrawals[change["start_no"]] = _filled(orm.withdrawals, {**section.key, **change})
        stored.entrants[change["start_no"]]["withdrawn_after"] = change["after_round"]

    def _tie(self, section: Section, change: dict[str, Any]) -> None:
        columns = copy.deepcopy(change["columns"])
        self._stored(section).ties[columns["tie_id"]] = _filled(orm.ties, {**section.key, **columns})

    def _audit(self, section: Section, change: dict[str, Any]) -> None:
        row = _filled(orm.audit, {**section.key, **copy.deepcopy(change), "id": len(self.store.audit) + 1})
        self.store.audit.append(row)


class FakeGameRepository:
    def __init__(self, store: FakeStore) -> None:
        self.store = store

    async def recorded(self, event_code: str, section_id: str, playoff_id: str, pairing_id: str, game_no: int) -> bool:
        wanted = (event_code, section_id, playoff_id, pairing_id, game_no)
        keys = ("event_code", "section_id", "playoff_id", "pairing_id", "game_no")
        return any(tuple(game[name] for name in keys) == wanted for game in self.store.games)

    async def record(self, **values: Any) -> None:
        self.store.games.append(_filled(orm.games, {**copy.deepcopy(values), "id": len(self.store.games) + 1}))


class FakeAuditRepository:
    def __init__(self, store: FakeStore) -> None:
        self.store = store

    async def delays(self, event_code: str, section_id: str) -> dict[int, datetime]:
        """EVT-7: the latest start each round was delayed to, from the audited delays."""
        return {
            row["round"]: datetime.fromisoformat(row["details"]["starts_at"])
            for row in await self.of_section(event_code, section_id)
            if row["action"] == "delay"
        }

    async def of_section(self, event_code: str, section_id: str) -> list[dict]:
        return [
            dict(row) for row in self.store.audit if (row["event_code"], row["section_id"]) == (event_code, section_id)
        ]


class FakeAppealRepository:
    def __init__(self, store: FakeStore) -> None:
        self.store = store

    async def count(self, event_code: str, section_id: str) -> int:
        return sum(1 for code, section, _ in self.store.appeals if (code, section) == (event_code, section_id))

    async def add(self, row: dict[str, Any]) -> None:
        key = (row["event_code"], row["section_id"], row["appeal_id"])
        assert key not in self.store.appeals, f"duplicate appeal {key}"
        self.store.appeals[key] = _filled(orm.appeals, copy.deepcopy(row))

    async def get(self, event_code: str, section_id: str, appeal_id: str) -> dict[str, Any] | None:
        row = self.store.appeals.get((event_code, section_id, appeal_id))
        if row is None:
            return None
        stored = self.store.sections.get((event_code, section_id))
        pairing = stored.pairings.get((row["round"], row["pairing_id"])) if stored else None
        return {
            **copy.deepcopy(row),
            "pairing_outcome": pairing["outcome"] if pairing else None,
            "pairing_revision": pairing["revision"] if pairing else None,
        }

    async def update(self, event_code: str, section_id: str, appeal_id: str, **values: Any) -> None:
        row = self.store.appeals.get((event_code, section_id, appeal_id))
        if row is not None:
            row.update(copy.deepcopy(values))


class FakeUnitOfWork(PairingUnitOfWork):
    """The pairing unit of work in memory. :meth:`handle` runs a command as the service's
    transaction would: committed when it returns (its events join :attr:`events`, the outbox),
    rolled back when it raises (the store as it was, its events dropped)."""

    def __init__(self, store: FakeStore | None = None, clock: FakeClock | None = None) -> None:
        self.store = store or FakeStore()
        self.sections = FakeSectionRepository(self.store)
        self.games = FakeGameRepository(self.store)
        self.audit = FakeAuditRepository(self.store)
        self.appeals = FakeAppealRepository(self.store)
        self.clock: FakeClock = clock or FakeClock(START)
        #: the outbox: every event of the committed commands, in order
        self.events: list[Envelope[Any]] = []
        self._pending: list[Envelope[Any]] = []
        self.pairer = Pairer()

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        envelope = envelope_for(
            payload, correlation_id=correlation_id or "test", occurred_at=self.clock.now(), event_id=event_id
        )
        self._pending.append(envelope)
        return envelope

    async def handle(self, command: Command) -> Any:
        """``handlers.handle(command)`` in one transaction of this unit of work."""
        before = copy.deepcopy(self.store)
        try:
            answer = await handlers.handle(command, self, self.pairer)
        except BaseException:
            self.store.__dict__.update(before.__dict__)
            self._pending.clear()
            raise
        self.events.extend(self._pending)
        self._pending.clear()
        return answer

    def payloads(self, event_type: str | None = None, section_id: str | None = None) -> list[Any]:
        """The committed events' payloads, of one type and one section if given."""
        return [
            envelope.payload
            for envelope in self.events
            if (event_type is None or envelope.type == event_type)
            and (section_id is None or getattr(envelope.payload, "section_id", None) == section_id)
        ]


def games_won_by_first(paired: RoundPaired | PlayoffRequired, draws: bool = False) -> list[GameFinished]:
    """Gameplay's answer to a round of one-game pairings, or to a playoff: every first player
    wins (a round's pairings may be drawn instead)."""
    playoff = paired.playoff_id if isinstance(paired, PlayoffRequired) else None
    rnd = paired.round if isinstance(paired, RoundPaired) else 0
    return [
        GameFinished(
            event_code=EV,
            section_id=paired.section_id,
            round=rnd,
            pairing_id=spec.pairing_id,
            game_id=f"{paired.section_id}.{rnd}.{spec.pairing_id}",
            playoff_id=playoff,
            black=spec.first,
            white=spec.second,
            winner=None if draws else spec.first,
            result="draw" if draws else "black",
            reason="agreement" if draws else "five",
            # a playoff pairing's games end with its points (gameplay plays the deciders)
            outcome=PairingOutcome(first_points=2, second_points=0) if playoff is not None else None,
            stage=paired.stage,
            first=spec.first,
            second=spec.second,
        )
        for spec in paired.pairings
    ]
