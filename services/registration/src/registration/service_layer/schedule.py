"""EVT-7: the published schedule of an event (and of one player: the rounds of their sections),
as JSON and as iCalendar, with the delays pairing announced (``round.rescheduled``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import RoundRescheduled
from gomoku_shared.errors import NotFound
from gomoku_shared.event_config import EventConfig

from ..adapters.repositories import Repositories
from ..domain import EntryStatus
from ..domain.schedule import Delay, Session, rounds_to_play, sessions
from .state import RegistrationState, may_see
from .unit_of_work import RegistrationUnitOfWork

#: entries that play (a refused or withdrawn entry has no rounds)
PLAYING = (EntryStatus.ACCEPTED, EntryStatus.PENDING_REVIEW)


async def on_round_rescheduled(uow: RegistrationUnitOfWork, moved: RoundRescheduled) -> None:
    """Keep the latest delay of the round (a redelivered or older one changes nothing)."""
    await uow.delays.record(
        dict(
            event_code=moved.event_code,
            section_id=moved.section_id,
            round=moved.round,
            starts_at=moved.starts_at,
            previous_starts_at=moved.previous_starts_at,
            reason=moved.reason,
            decided_at=moved.decided_at,
        )
    )


async def _delays(repos: Repositories, code: str) -> dict[tuple[str, int], Delay]:
    rows = await repos.delays.of_event(code)
    return {key: Delay(row["starts_at"], row["reason"]) for key, row in rows.items()}


async def _rounds(repos: Repositories, code: str) -> dict[str, int]:
    """EVT-7 / PAIR-1: the rounds the sections of the closed stages will play (as closed)."""
    rows = await repos.events.stages(code)
    return {
        section_id: rounds
        for row in rows.values()
        if row.status == "closed" and row.sections
        for section_id, rounds in rounds_to_play(row.sections).items()
    }


async def section_closings(repos: Repositories, code: str) -> dict[str, dict[str, Any]]:
    """REG-12: how each section of the closed stages closed (kept, merged into another, cancelled),
    for the public pages to say so: the closing's facts without its internal reason text."""
    rows = await repos.events.stages(code)
    return {
        closed["section_id"]: {
            "status": closed.get("status"),
            "merged_into": closed.get("merged_into"),
            "entrants": int(closed.get("entrants") or 0),
            "rank_by_gender": bool(closed.get("rank_by_gender")),
        }
        for row in rows.values()
        if row.status == "closed"
        for closed in row.sections or []
    }


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _session_view(session: Session) -> dict[str, Any]:
    return {
        "round": session.round,
        "starts_at": session.starts_at.isoformat(),
        "ends_at": session.ends_at.isoformat(),
        "scheduled_at": session.scheduled_at.isoformat(),
        "sections": list(session.sections),
        "delayed": session.delayed,
        "delay_reason": session.delay_reason,
    }


def schedule_view(
    config: EventConfig,
    found: list[Session],
    stage_ids: list[str],
    closed: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    stages = []
    for stage_id in stage_ids:
        stage = config.stage(stage_id)
        published = config.schedule.of_stage(stage_id)
        stages.append(
            {
                "stage": stage.id,
                "name": stage.name,
                "mode": stage.mode,
                "starts_on": stage.starts_on.isoformat(),
                "ends_on": stage.ends_on.isoformat(),
                "arrival_by": _iso(published.arrival_by) if published else None,
                "technical_meeting_at": _iso(published.technical_meeting_at) if published else None,
                "sessions": [_session_view(s) for s in found if s.stage == stage_id],
            }
        )
    return {
        "event_code": config.id,
        "name": config.name,
        "name_zh": config.name_zh,
        "timezone": config.timezone,
        "registration": {
            "opens_at": _iso(config.registration.opens_at),
            "closes_at": config.registration.closes_at.isoformat(),
        },
        "sections": {
            section.id: {"name": section.name, "name_zh": section.name_zh, "closed": (closed or {}).get(section.id)}
            for stage in config.stages
            for section in stage.sections
        },
        "stages": stages,
    }


async def event_schedule(repos: Repositories, state: RegistrationState, code: str) -> tuple[EventConfig, list[Session]]:
    config = await state.config(repos, code)
    return config, sessions(config, await _delays(repos, code), rounds=await _rounds(repos, code))


async def player_sections(
    repos: Repositories, state: RegistrationState, principal: Principal, code: str, player_id: str
) -> tuple[EventConfig, dict[str, list[str]]]:
    """The sections (by stage) a player plays in: their entries that hold a place (a partner
    sees only its own players; anyone else's answer 404)."""
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    by_stage: dict[str, list[str]] = {}
    for entry_id, entry in loaded.reg.entries.items():
        meta = loaded.meta[entry_id]
        if player_id not in entry.person_ids or not may_see(principal, meta.partner_id):
            continue
        if entry.status in PLAYING:
            by_stage.setdefault(meta.stage, []).append(entry.section_id)
    if not by_stage:
        raise NotFound("unknown_player", f"no player {player_id!r} with a place in {code!r}")
    return config, by_stage


async def player_schedule(
    repos: Repositories, state: RegistrationState, principal: Principal, code: str, player_id: str
) -> tuple[EventConfig, list[Session], list[str]]:
    config, by_stage = await player_sections(repos, state, principal, code, player_id)
    wanted = [section for sections in by_stage.values() for section in sections]
    found = sessions(config, await _delays(repos, code), only=wanted, rounds=await _rounds(repos, code))
    return config, found, [stage.id for stage in config.stages if stage.id in by_stage]


def ics(
    config: EventConfig,
    found: list[Session],
    stage_ids: list[str],
    stamp: datetime,
    title: str,
    lang: Literal["zh", "en"] | None = None,
) -> bytes:
    from ..adapters import calendar  # icalendar, with the first calendar asked for (start-up time)

    return calendar.calendar(config, found, stamp, title=title, stages=stage_ids, lang=lang)
