"""Every use case of the awards service in one table: a command's type → the function that runs
it, each taking the command and the unit of work (:class:`.unit_of_work.AwardsUnitOfWork`: the
SQL one on a consumer's or a route's transaction, or the tests' in-memory one). The routes and the consumers call :func:`handle` and nothing else of the service
layer's writes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..domain.title_record import TitleLadder
from . import honours, publishing, registry_changes, season, section_publication, title_ladder
from .commands import (
    ChangeEventAccess,
    Command,
    CompleteSection,
    ConfigureEvent,
    MergePeople,
    PublishSection,
    RecordHonour,
    RevokeHonour,
    SetTitleLadder,
    SplitPeople,
)
from .unit_of_work import AwardsUnitOfWork


async def configure_event(command: ConfigureEvent, uow: AwardsUnitOfWork) -> None:
    await section_publication.event_configured(uow, command.configured)


async def complete_section(command: CompleteSection, uow: AwardsUnitOfWork) -> None:
    await section_publication.section_completed(uow, command.completed)


async def change_event_access(command: ChangeEventAccess, uow: AwardsUnitOfWork) -> bool:
    """Issue 29: keep the event's latest owner; issue 32: its titles and games belong to the
    owner, whenever that is learnt. Whether the owner changed (the caller forgets its cache)."""
    change = command.changed
    if not await uow.record_access(change.event_code, change.organisation, change.partners, change.changed_at):
        return False
    await season.on_owner_changed(uow, change.event_code)
    return True


async def merge_people(command: MergePeople, uow: AwardsUnitOfWork) -> int:
    return await registry_changes.people_merged(uow, command.merged)


async def split_people(command: SplitPeople, uow: AwardsUnitOfWork) -> int:
    return await registry_changes.people_split(uow, command.split)


async def publish_section(command: PublishSection, uow: AwardsUnitOfWork) -> dict[str, Any]:
    return await publishing.publish_section(
        uow, command.event_code, command.section_id, command.actor, command.actor_id
    )


async def record_honour(command: RecordHonour, uow: AwardsUnitOfWork) -> dict[str, Any]:
    return await honours.record(uow, command.event_code, command.form, command.principal)


async def revoke_honour(command: RevokeHonour, uow: AwardsUnitOfWork) -> dict[str, Any]:
    return await honours.revoke(uow, command.event_code, command.honour_id, command.reason, command.principal)


async def set_title_ladder(command: SetTitleLadder, uow: AwardsUnitOfWork) -> TitleLadder:
    return await title_ladder.set_ladder_in(uow, command.principal, command.organisation, command.titles)


Handler = Callable[[Any, AwardsUnitOfWork], Awaitable[Any]]

#: the service's use cases, by the command each runs
HANDLERS: dict[type, Handler] = {
    ConfigureEvent: configure_event,
    CompleteSection: complete_section,
    ChangeEventAccess: change_event_access,
    MergePeople: merge_people,
    SplitPeople: split_people,
    PublishSection: publish_section,
    RecordHonour: record_honour,
    RevokeHonour: revoke_honour,
    SetTitleLadder: set_title_ladder,
}


async def handle(command: Command, uow: AwardsUnitOfWork) -> Any:
    """Run ``command``'s use case in ``uow`` (the caller's transaction)."""
    return await HANDLERS[type(command)](command, uow)
