"""The pairing unit of work: what a use case may ask of its transaction (:class:`PairingUnitOfWork`,
a protocol), and the SQL one the service runs on (:class:`SqlPairingUnitOfWork`: the shared
runtime's transaction, clock and outbox with the typed repositories of this service on its
session). The tests' in-memory one (``pairing_fakes.FakeUnitOfWork``) satisfies the same
protocol, so a use case runs unchanged on either."""

from __future__ import annotations

import uuid
from typing import Any, Protocol

from gomoku_shared.clock import Clock
from gomoku_shared.contracts import Payload
from gomoku_shared.errors import NotFound
from gomoku_shared.runtime import UnitOfWork

from ..adapters.repository import Repositories
from ..domain.aggregate import Section

#: namespace of the section events' ids: uuid5 of (section, sequence number, type)
EVENT_NAMESPACE = uuid.UUID("0b7f2a36-93a1-4c55-8d8e-6a1f4de0c2b7")


class Sections(Protocol):
    """The section aggregate's repository (``uow.sections``)."""

    async def exists(self, event_code: str, section_id: str) -> bool: ...

    async def load(self, event_code: str, section_id: str, *, lock: bool = False) -> Section | None: ...

    async def save(self, section: Section) -> None: ...

    async def lock_tournament(self, event_code: str, section_id: str) -> dict[str, Any] | None: ...

    async def pairing(self, event_code: str, section_id: str, pairing_id: str) -> dict[str, Any] | None: ...

    async def open_pairings(self, event_code: str, section_id: str, rnd: int) -> int: ...

    async def write_result(self, pairing: dict, **values: Any) -> bool: ...

    async def of_event(self, event_code: str) -> list[dict]: ...


class Games(Protocol):
    """Games recorded from ``game.finished`` (``uow.games``)."""

    async def recorded(
        self, event_code: str, section_id: str, playoff_id: str, pairing_id: str, game_no: int
    ) -> bool: ...

    async def record(self, **values: Any) -> None: ...


class Appeals(Protocol):
    """AWD-10 appeals (``uow.appeals``); ``get`` adds the appealed pairing's ``pairing_outcome``
    and ``pairing_revision``."""

    async def count(self, event_code: str, section_id: str) -> int: ...

    async def add(self, row: dict[str, Any]) -> None: ...

    async def get(self, event_code: str, section_id: str, appeal_id: str) -> dict[str, Any] | None: ...

    async def update(self, event_code: str, section_id: str, appeal_id: str, **values: Any) -> None: ...


class PairingUnitOfWork(Protocol):
    """What a use case may ask of its transaction: the repositories, the clock, and ``emit`` (an
    event to the outbox, written in the same transaction). ``emit_for`` and ``locked_section``
    are built on those, here, for every unit of work that subclasses this protocol."""

    sections: Sections
    games: Games
    appeals: Appeals
    clock: Clock

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        """The event into the outbox of this transaction."""
        ...

    def emit_for(self, state: Section, payload: Payload) -> None:
        """An event of the section: its id is deterministic, from the section's next sequence
        number (stored when the section is saved)."""
        sequence = state.row["event_seq"] + 1
        state.row["event_seq"] = sequence
        key = f"{state.event_code}/{state.section_id}/{sequence}/{payload.TYPE}"
        self.emit(payload, event_id=uuid.uuid5(EVENT_NAMESPACE, key))

    async def locked_section(self, event_code: str, section_id: str) -> Section:
        """The section, its tournament row locked for this transaction; 404 if there is none."""
        state = await self.sections.load(event_code, section_id, lock=True)
        if state is None:
            raise NotFound("section_not_found", f"no section {section_id!r} in event {event_code!r}")
        return state


class SqlPairingUnitOfWork(PairingUnitOfWork):
    """`uow.sections`, `uow.games`, `uow.audit`, `uow.appeals` on the runtime's session; `emit`
    writes an event to the outbox in the same transaction."""

    def __init__(self, uow: UnitOfWork) -> None:
        repositories = Repositories(uow.session)
        self.session = uow.session
        self.sections = repositories.sections
        self.games = repositories.games
        self.audit = repositories.audit
        self.appeals = repositories.appeals
        self.clock = uow.clock
        self._runtime = uow

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        """Into the runtime's outbox, in the same transaction."""
        return self._runtime.emit(payload, correlation_id=correlation_id, event_id=event_id)
