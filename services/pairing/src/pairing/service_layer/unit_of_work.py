"""The pairing unit of work: the shared one (transaction, clock, outbox) with the typed
repositories of this service on its session, and the section-scoped event ids."""

from __future__ import annotations

import uuid

from gomoku_shared.contracts import Payload
from gomoku_shared.errors import NotFound
from gomoku_shared.runtime import UnitOfWork

from ..adapters.repository import Repositories
from ..domain.aggregate import Section

#: namespace of the section events' ids: uuid5 of (section, sequence number, type)
EVENT_NAMESPACE = uuid.UUID("0b7f2a36-93a1-4c55-8d8e-6a1f4de0c2b7")


class PairingUnitOfWork(Repositories):
    """`uow.sections`, `uow.games`, `uow.audit`; `emit` writes an event to the outbox in the
    same transaction."""

    def __init__(self, uow: UnitOfWork) -> None:
        super().__init__(uow.session)
        self.clock = uow.clock
        #: the runtime's outbox, in the same transaction
        self.emit = uow.emit

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
