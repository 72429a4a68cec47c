"""Publish (or republish) a section's awards on a staff member's request (audited).

The awards service publishes on its own when a section completes and after a correction
(``section_publication``). This is the same publication, run again on request — after a configuration
change, or to check that what is published is what the stored standings give: it publishes a new
revision only when the content differs from the current one (AWD-8), and says so."""

from __future__ import annotations

from typing import Any

from gomoku_shared.errors import Conflict, NotFound
from gomoku_shared.event_config import EventConfig

from .section_publication import ConfiguredEvent, _refresh_section, _refresh_team
from .unit_of_work import AwardsUnitOfWork


async def publish_section(
    uow: AwardsUnitOfWork, event_code: str, section_id: str, actor: str, actor_id: str | None = None
) -> dict[str, Any]:
    """``actor``: who asked, by name (a key: its id); ``actor_id``: acct:<account> or the key id."""
    repo = uow.awards
    await repo.lock_event(event_code)
    raw = await repo.config(event_code)
    if raw is None:
        raise NotFound("event_not_found", f"no configuration of event {event_code!r} has reached the awards")
    if await repo.current_result(event_code, section_id) is None:
        raise Conflict(
            "section_not_completed",
            f"section {section_id!r} has not completed: there are no final standings to publish",
        )
    before = await repo.current_publication(event_code, section_id)
    configured = ConfiguredEvent(event_code, EventConfig.model_validate(raw))
    await _refresh_section(uow, repo, configured, section_id)
    for team in configured.plan.teams_fed_by(section_id):
        await _refresh_team(uow, repo, configured, team)
    after = await repo.current_publication(event_code, section_id)
    published = after is not None and (before is None or after.revision != before.revision)
    revision = after.revision if after is not None else None
    await uow.staff_actions.record(
        event_code, section_id, "publish", actor, revision, published, uow.clock.now(), actor_id
    )
    return {"event_code": event_code, "section_id": section_id, "published": published, "revision": revision}


async def audit_of(uow: AwardsUnitOfWork, event_code: str, section_id: str) -> list[dict[str, Any]]:
    return await uow.staff_actions.of_section(event_code, section_id)
