"""What a printout says about its event, read from the services' public answers and put in the
reader's language (issue 28): the event's and the section's names (the preset's Chinese names on a
Chinese printout, from registration's schedule), the stage's dates in words, the date the awards
were published (a certificate's date of issue), and who plays which board of a team match."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from .i18n import Words
from .upstream import Upstream

MONTHS_EN = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)


async def schedule(upstream: Upstream, code: str) -> Mapping[str, Any]:
    """The event's schedule (names in both languages, the stages' dates); {} when it cannot be read."""
    found = await upstream.optional("registration", f"/v1/events/{code}/schedule")
    return found if isinstance(found, Mapping) else {}


def imprint(event: Mapping[str, Any], plan: Mapping[str, Any], sid: str, words: Words) -> tuple[dict, dict]:
    """The event and the section as a printout names them: ``name`` in the reader's language and
    ``dates`` (the section's stage's dates in words; the whole event's for an event-wide sheet)."""
    zh = words.lang == "zh"
    event_name = (plan.get("name_zh") if zh else plan.get("name")) or event.get("name") or ""
    named = (plan.get("sections") or {}).get(sid) or {}
    section_name = (named.get("name_zh") if zh else named.get("name")) or named.get("name") or ""
    stages = list(plan.get("stages") or [])
    stage_of = {s.get("id"): st.get("id") for st in event.get("stages", []) for s in st.get("sections", [])}
    own = [s for s in stages if s.get("stage") == stage_of.get(sid)] or stages
    starts = [s.get("starts_on") for s in own if s.get("starts_on")]
    ends = [s.get("ends_on") or s.get("starts_on") for s in own if s.get("starts_on")]
    dates = say_dates(min(starts), max(ends), words) if starts else ""
    printed_event = {**event, "name": event_name, "dates": dates, "timezone": plan.get("timezone") or ""}
    return printed_event, {"section_id": sid, "name": section_name}


def say_dates(first: str, last: str, words: Words) -> str:
    """ "2023年6月22日至24日" / "22–24 June 2023" (and the longer forms across months or years)."""
    try:
        a, b = date.fromisoformat(first), date.fromisoformat(last)
    except (TypeError, ValueError):
        return ""
    if words.lang == "zh":
        if a == b:
            return f"{a.year}年{a.month}月{a.day}日"
        if a.year != b.year:
            return f"{a.year}年{a.month}月{a.day}日至{b.year}年{b.month}月{b.day}日"
        if a.month != b.month:
            return f"{a.year}年{a.month}月{a.day}日至{b.month}月{b.day}日"
        return f"{a.year}年{a.month}月{a.day}日至{b.day}日"
    if a == b:
        return f"{a.day} {MONTHS_EN[a.month - 1]} {a.year}"
    if a.year != b.year:
        return f"{a.day} {MONTHS_EN[a.month - 1]} {a.year} – {b.day} {MONTHS_EN[b.month - 1]} {b.year}"
    if a.month != b.month:
        return f"{a.day} {MONTHS_EN[a.month - 1]} – {b.day} {MONTHS_EN[b.month - 1]} {b.year}"
    return f"{a.day}–{b.day} {MONTHS_EN[a.month - 1]} {a.year}"


def issued_on(published_at: Any, zone: str, words: Words) -> str:
    """The day the awards were published, in the event's time zone, in words ("" when unknown)."""
    try:
        at = datetime.fromisoformat(str(published_at).replace("Z", "+00:00"))
        day = at.astimezone(ZoneInfo(zone or "Asia/Shanghai")).date()
    except (TypeError, ValueError, KeyError):
        return ""
    return say_dates(day.isoformat(), day.isoformat(), words)


def board_players(section: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Who plays on the boards of a team section, by player id: name and team (as ``unit``).

    The one place the printouts learn a team's players: pairing's section answer lists each team's
    members in board order (``entrants[].members``: player_id, name, board) where it gives them.
    Where it does not, a board's player is said by team and board ("北京 第 2 台"), never as a dash
    or an id; the rounds' pairings name each board's teams (``first_team`` / ``second_team``)."""
    players: dict[str, dict[str, Any]] = {}
    for team in section.get("entrants", []):
        for member in team.get("members") or []:
            if member.get("player_id"):
                players[member["player_id"]] = {
                    "name": member.get("name") or "",
                    "unit": team.get("name") or "",
                    "team": team.get("entrant_id"),
                    "board": member.get("board"),
                }
    return players


def board_player(
    players: Mapping[str, Any], teams: Mapping[str, Any], pairing: Mapping[str, Any], side: str, words: Words
) -> tuple[str, str]:
    """One side of a team board: the player's name and team, or the team and board when the
    section does not name its players (``board_players``)."""
    team = teams.get(pairing.get(f"{side}_team") or "") or {}
    team_name = str(team.get("name") or "")
    player = players.get(pairing.get(side) or "")
    if player and player.get("name"):
        return str(player["name"]), team_name
    return words.t("pdf.board_of", team=team_name, n=pairing.get("board")), team_name
