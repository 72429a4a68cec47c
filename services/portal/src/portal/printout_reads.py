"""What a printout says about its event, read from the services' public answers and put in the
reader's language (issue 28): the event's and the section's names (the preset's Chinese names on a
Chinese printout, from registration's schedule), the stage's dates in words, the date the awards
were published (a certificate's date of issue), the organiser and the venue, and who plays which
board of a team match."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from .dates_in_words import say_days
from .i18n import Words
from .upstream import Upstream


async def schedule(upstream: Upstream, code: str) -> Mapping[str, Any]:
    """The event's schedule (names in both languages, the stages' dates); {} when it cannot be read."""
    found = await upstream.optional("registration", f"/v1/events/{code}/schedule")
    return found if isinstance(found, Mapping) else {}


def imprint(event: Mapping[str, Any], plan: Mapping[str, Any], sid: str, words: Words) -> tuple[dict, dict]:
    """The event and the section as a printout names them: ``name``, ``organiser`` and ``venue``
    in the reader's language and ``dates`` (the section's stage's dates in words; the whole
    event's for an event-wide sheet)."""
    zh = words.lang == "zh"
    event_name = (plan.get("name_zh") if zh else plan.get("name")) or event.get("name") or ""
    named = (plan.get("sections") or {}).get(sid) or {}
    section_name = (named.get("name_zh") if zh else named.get("name")) or named.get("name") or ""
    stages = list(plan.get("stages") or [])
    stage_of = {s.get("id"): st.get("id") for st in event.get("stages", []) for s in st.get("sections", [])}
    own = [s for s in stages if s.get("stage") == stage_of.get(sid)] or stages
    starts = [s.get("starts_on") for s in own if s.get("starts_on")]
    ends = [s.get("ends_on") or s.get("starts_on") for s in own if s.get("starts_on")]
    dates = say_days(min(starts), max(ends), words.lang, long_months=True) if starts else ""
    printed_event = {
        **event,
        "name": event_name,
        "dates": dates,
        "timezone": plan.get("timezone") or "",
        "organiser": _in_language(event, "organiser", zh),
        "venue": _in_language(event, "venue", zh),
    }
    return printed_event, {"section_id": sid, "name": section_name}


def issued_on(published_at: Any, zone: str, words: Words) -> str:
    """The day the awards were published, in the event's time zone, in words ("" when unknown)."""
    try:
        at = datetime.fromisoformat(str(published_at).replace("Z", "+00:00"))
        day = at.astimezone(ZoneInfo(zone or "Asia/Shanghai")).date()
    except (TypeError, ValueError, KeyError):
        return ""
    return say_days(day.isoformat(), None, words.lang, long_months=True)


def _in_language(event: Mapping[str, Any], field: str, zh: bool) -> str:
    """Registration's ``organiser`` or ``venue`` in the printout's language ("" when the event
    has none, as NT 2023's venue: 地点另行通知; a certificate then leaves the line out)."""
    said = (event.get(f"{field}_zh") or event.get(field)) if zh else (event.get(field) or event.get(f"{field}_zh"))
    return str(said or "")


def board_player(
    players: Mapping[str, Any], teams: Mapping[str, Any], pairing: Mapping[str, Any], side: str, words: Words
) -> tuple[str, str]:
    """One side of a team board: the player's name and team, or the team and board when the
    section does not name its players (``names.by_id`` gives the players by id)."""
    team = teams.get(pairing.get(f"{side}_team") or "") or {}
    team_name = str(team.get("name") or "")
    player = players.get(pairing.get(side) or "")
    if player and player.get("name"):
        return str(player["name"]), team_name
    return words.t("pdf.board_of", team=team_name, n=pairing.get("board")), team_name
