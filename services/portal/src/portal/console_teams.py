"""The console's names of a section's boards (issue 28): pairing's rounds name each board's
players by their player ids and their teams by entrant ids; pairing's section names the teams
and their members. One helper, so the round, result, slip and appeal pages name every board's
players and teams the same way, and the sections in the page's language."""

from __future__ import annotations

from typing import Any

from . import names as who_is_who
from . import page_names


def board_names(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Who is who on the section's boards, by id: the section's entrants (players, or teams in a
    team section) and, in a team section, each team member from pairing's public ``members``
    (``names.by_id``, the portal's one lookup), so every role (a recorder too) sees the names."""
    return who_is_who.by_id(section)


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


def section_names(event: dict[str, Any], lang: str) -> dict[str, str]:
    """Each section's name in the page's language (registration's ``name_zh`` on a Chinese page,
    "混合团体" rather than "Mixed team"), as the public pages name them (``page_names``)."""
    return page_names.section_names(page_names.event_in(event, lang))


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
