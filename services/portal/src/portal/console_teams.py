"""The console's reads of a team section's boards (issue 28): pairing's rounds name each board's
players by their player ids and their teams by entrant ids, while the section's entrants are the
teams; registration's entries of the section give the players' names. One helper, so the round,
result, slip and appeal pages name every board's players and teams the same way."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .upstream import Upstream, UpstreamError

#: GET of a registration path with params as the signed-in person: (status, answer). Entries are
#: staff reads (the portal's own read-only key may not make them), so the person's key reads them.
Read = Callable[[str, dict[str, Any]], Awaitable[tuple[int, Any]]]
#: at most this many pages of a section's entries (200 a page)
MAX_PAGES = 10


async def board_names(read: Read, code: str, section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Who is who on the section's boards, by id: the section's entrants (players, or teams in a
    team section) and, in a team section, each team member as ``{"name", "unit": team's name}``
    (a dash where the person may not read the entries)."""
    names: dict[str, dict[str, Any]] = {e["entrant_id"]: e for e in section.get("entrants", [])}
    if section.get("kind") != "team":
        return names
    params: dict[str, Any] = {"section_id": section.get("section_id", ""), "limit": 200}
    for _page in range(MAX_PAGES):
        status, listed = await read(f"/v1/events/{code}/entries", dict(params))
        if status != 200 or not isinstance(listed, dict):
            break
        for entry in listed.get("entries", []):
            team = names.get(str(entry.get("entrant_id")), {})
            team_name = team.get("name") or entry.get("team_name") or ""
            for player in entry.get("players", []):
                names.setdefault(str(player.get("player_id")), {"name": player.get("name") or "—", "unit": team_name})
        if not listed.get("next_cursor"):
            break
        params["cursor"] = listed["next_cursor"]
    return names


def match_no(pairing: dict[str, Any]) -> int | None:
    """The number of a board's team match in its round ("r3.m2.b1" → 2), None outside a team match."""
    match = str(pairing.get("match_id") or "")
    tail = match.rsplit(".m", 1)[-1] if ".m" in match else ""
    return int(tail) if tail.isdigit() else None


def board_words(words: Any, n: int, pairing: dict[str, Any]) -> str:
    """A board as people say it: "第 3 轮 第 2 台", or "第 3 轮 第 1 场 第 2 台" in a team match."""
    match = match_no(pairing)
    key = "console.board_in_match" if match is not None else "console.board_in_round"
    return words.t(key, n=n, match=match, board=pairing.get("board", "—"))


async def section_names(upstream: Upstream, event: dict[str, Any], lang: str) -> dict[str, str]:
    """Each section's name in the page's language: the Chinese one of the event's schedule on a
    Chinese page ("混合团体" rather than pairing's "Mixed team"), else the event's."""
    names = {
        str(sec["id"]): str(sec.get("name") or "—")
        for stage in event.get("stages", [])
        for sec in stage.get("sections", [])
    }
    try:
        schedule = await upstream.optional("registration", f"/v1/events/{event.get('event_code')}/schedule")
    except UpstreamError:
        schedule = None
    named = (schedule or {}).get("sections") if isinstance(schedule, dict) else None
    for sid, said in (named or {}).items():
        if isinstance(said, dict):
            names[sid] = str((said.get("name_zh") if lang == "zh" else None) or said.get("name") or names.get(sid, "—"))
    return names


def named_section(section: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Pairing's section with its name in the page's language."""
    return {**section, "name": names.get(str(section.get("section_id")), section.get("name") or "—")}


def board_of(pairing_id: Any) -> dict[str, Any]:
    """A board as ``board_words`` takes it, from a game's pairing id where only that is at hand
    ("r3.m1.b2": match r3.m1, board 2); an empty board (said as a dash) for anything else."""
    parts = str(pairing_id or "").split(".")
    board = parts[-1][1:] if parts and parts[-1].startswith("b") else ""
    match = ".".join(parts[:2]) if len(parts) == 3 and parts[1].startswith("m") else None
    return {"board": int(board) if board.isdigit() else "—", "match_id": match}
