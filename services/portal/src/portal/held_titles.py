"""Issue 32: the current title beside a person's name wherever a section's pages name them
(standings, pairings, a team's boards, a player's page, a replay). One lookup in awards for
the whole page (``/v1/organisations/{org}/titles``, at most ``SLICE`` people a read; a larger
section is read in slices), keyed by the registry ids pairing's section names on its entrants
and team members; a public read like any other, so the page cache (ADR 0010) keeps the page
while no title changes."""

from __future__ import annotations

import asyncio
from typing import Any

from .read_cache import Lru
from .upstream import Upstream

#: awards' most people per lookup
SLICE = 100


async def current_titles(upstream: Upstream, org: str | None, ids: list[str]) -> dict[str, str]:
    """Registry id → current title, for those of ``ids`` who hold one (sorted slices: the same
    people make the same reads, which the page cache keys on)."""
    wanted = sorted(set(ids))
    if not org or not wanted:
        return {}
    slices = [wanted[i : i + SLICE] for i in range(0, len(wanted), SLICE)]
    answers = await asyncio.gather(
        *(
            upstream.optional("awards", f"/v1/organisations/{org}/titles", params={"people": ",".join(part)})
            for part in slices
        )
    )
    return {p["person_id"]: p["title"] for answer in answers for p in (answer or {}).get("people", [])}


async def with_titles(upstream: Upstream, event: dict[str, Any] | None, names: dict[str, Any]) -> dict[str, Any]:
    """``names`` (``names.by_id``) with each titled person's ``title``: entrants and team members
    by their registry id in the event's organisation."""
    org = (event or {}).get("organisation")
    held = await current_titles(upstream, org, [str(e["registry_id"]) for e in names.values() if e.get("registry_id")])
    return titled(names, held)


def titled(names: dict[str, Any], held: dict[str, str]) -> dict[str, Any]:
    """``names`` with each titled person's ``title`` (``held``: registry id → title)."""
    if not held:
        return names
    return {
        key: {**entry, "title": held[entry["registry_id"]]} if entry.get("registry_id") in held else entry
        for key, entry in names.items()
    }


async def live_titles(
    upstream: Upstream, kept: Lru, round_key: tuple[str, str, int], names: dict[str, Any]
) -> dict[str, Any]:
    """``names`` with titles on a live page (a game's board, the round's wall and its tiles).
    Those pages are drawn again after every move, but a round's players do not change: the
    titles are looked up once per round (every person of the section, as the section's pages do)
    and kept in the page cache (ADR 0010) under the round, so a redraw reads no titles. A title
    granted while the round is played shows from the next round on."""
    key = ("titles", *map(str, round_key))
    held = kept.get(key)
    if held is None:
        event = await upstream.optional("registration", f"/v1/events/{round_key[0]}")
        ids = [str(e["registry_id"]) for e in names.values() if e.get("registry_id")]
        held = await current_titles(upstream, (event or {}).get("organisation"), ids)
        kept.put(key, held)
    return titled(names, held)
