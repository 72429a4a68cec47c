"""The reads every page of a section starts from: the event, the section and who is who in it;
and, for pages over the whole section, its every paired round."""

from __future__ import annotations

import asyncio
from typing import Any

from . import held_titles, section_states
from . import names as who_is_who
from .merged_page import NotPlayedHere
from .upstream import Upstream


async def context_of(upstream: Upstream, code: str, sid: str) -> dict[str, Any]:
    """The event, the section, who is who in it (its entrants; a team section's players too) and
    how it closed (REG-12); a section pairing does not know (merged into another, or unknown)
    raises ``NotPlayedHere``, which the merged section's page answers."""
    event, section, (schedule, closings) = await asyncio.gather(
        upstream.get("registration", f"/v1/events/{code}"),
        upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}"),
        section_states.of_event(upstream, code),
    )
    closing = closings.get(sid)
    if section is None:
        raise NotPlayedHere(event, closing, schedule)
    # REG-12: the sections merged into this one, by name, for its head to say so
    titles = section_states.section_names(event, schedule)
    merged_in = [titles.get(other, {}) for other, c in closings.items() if c.get("merged_into") == sid]
    return {
        "event": event,
        "section": section,
        # issue 32: each person's current title beside their name
        "names": await held_titles.with_titles(upstream, event, who_is_who.by_id(section)),
        "code": code,
        "closing": closing,
        "merged_in": merged_in,
    }


async def all_rounds(upstream: Upstream, code: str, sid: str, section: dict[str, Any]) -> list[dict[str, Any] | None]:
    """Every paired round of the section, from pairing (with a team section's matches)."""
    last = int(section.get("current_round") or 0)
    path = f"/v1/events/{code}/sections/{sid}/rounds"
    return list(await asyncio.gather(*(upstream.optional("pairing", f"{path}/{n}") for n in range(1, last + 1))))


async def match_of(upstream: Upstream, game: dict[str, Any], section: dict[str, Any] | None) -> dict[str, Any] | None:
    """The match a game of a team section belongs to (PAIR-9: pairing's round read), with its teams
    and score so far; None for a game of an individual section."""
    if not section or section.get("kind") != "team" or not game.get("pairing_id"):
        return None
    path = f"/v1/events/{game['event_code']}/sections/{game['section_id']}/rounds/{game['round']}"
    return matches_by_pairing(await upstream.optional("pairing", path)).get(str(game["pairing_id"]))


def matches_by_pairing(rnd: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """A team round's matches by the pairing id of each of their boards."""
    return {pid: match for match in (rnd or {}).get("matches") or [] for pid in match["pairing_ids"]}
