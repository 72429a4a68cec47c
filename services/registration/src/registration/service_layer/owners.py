"""Issue 29: who owns an event and which partner apps act in it.

An event belongs to one organisation, named when it is created (the default organisation
otherwise): the operator's keys may name any, a staff account needs ``event.create`` there. Its
organiser chooses the partner apps that may register entries and act in it (null: every partner).
Both are kept in the shared ``event_access`` table (the service's own authorisation reads it)
and sent to the other services as ``event.access_changed``, in the command's transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import EventAccessChanged
from gomoku_shared.errors import ServiceError
from gomoku_shared.event_access import EventAccess, authorize
from gomoku_shared.staff_roles import DEFAULT_ORGANISATION

from ..adapters.contract_mapping import event_id_for
from ..adapters.repositories import Repositories
from . import forms as s
from .actors import actor_ref
from .command import EventCommand
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork


def owner_for_creation(principal: Principal, code: str, organisation: str | None) -> str:
    """The organisation a new event belongs to, once the caller may create events there: the
    operator's keys anywhere, a staff account with ``event.create`` in it; an arbiter's API key
    never (it did not create events before organisations either)."""
    owner = organisation or DEFAULT_ORGANISATION
    if principal.person is None and principal.role != "operator":
        raise ServiceError("forbidden_role", "creating events needs the operator's key or a staff account", status=403)
    authorize(principal, "event.create", EventAccess(code, owner))
    return owner


def announce(
    uow: RegistrationUnitOfWork, code: str, organisation: str, partners: list[str] | None, at: datetime, change: object
) -> None:
    """``event.access_changed`` in the outbox (one id per change: the event and the command's number)."""
    uow.emit(
        EventAccessChanged(event_code=code, organisation=organisation, partners=partners, changed_at=at),
        correlation_id=code,
        event_id=event_id_for("event.access_changed", code, change),
    )


async def record_owner(uow: RegistrationUnitOfWork, code: str, organisation: str, at: datetime) -> None:
    """A new event: its owner, every partner, stored and announced."""
    await uow.access.record(code, organisation, None, at)
    announce(uow, code, organisation, None, at, "created")


async def choose_partners(cmd: EventCommand, body: s.PartnersIn) -> dict[str, Any]:
    """The organiser's choice of partner apps (null: every partner), audited and announced."""
    access = await cmd.uow.access.get(cmd.code)
    partners = None if body.partners is None else sorted(set(body.partners))
    await cmd.uow.access.record(cmd.code, access.organisation, partners, cmd.now)
    await cmd.uow.access.add_choice(cmd.code, partners, cmd.now, actor_ref(cmd.principal))
    announce(cmd.uow, cmd.code, access.organisation, partners, cmd.now, cmd.version)
    cmd.access_changed = True
    return await partners_view(cmd.uow, cmd.state, cmd.code)


async def partners_view(repos: Repositories, state: RegistrationState, code: str) -> dict[str, Any]:
    """The partner apps chosen for the event and every choice made (who, when)."""
    await state.config(repos, code)  # 404 for an unknown event
    access = await repos.access.get(code)
    return {
        "event_code": code,
        "organisation": access.organisation,
        "partners": None if access.partners is None else sorted(access.partners),
        "choices": [
            {"partners": row.partners, "chosen_at": row.chosen_at.isoformat(), "chosen_by": row.chosen_by}
            for row in await repos.access.choices(code)
        ],
    }
