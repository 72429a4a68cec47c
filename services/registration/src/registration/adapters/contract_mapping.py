"""Domain -> integration-event payloads (gomoku_shared.contracts)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from gomoku_shared.contracts.common import Entrant, Member
from gomoku_shared.contracts.events import SectionClosed
from gomoku_shared.event_config import EventConfig

from ..domain import ClosedSection, Entry, Person, Unit, section_closed_payload
from .repository import EntryMeta

_NAMESPACE = uuid.UUID("0d1f3c9e-7c55-4c8e-9a51-6a4c2b7e5f10")


def seed_rating(meta: EntryMeta, player_id: str, ratings: Mapping[str, int] | None) -> int:
    """Issue 32: the rating an individual entrant is seeded by — the player's published rating
    when known, else the entry's own. An entry made from a qualifier list keeps its own: it
    encodes the qualifying order the next stage is seeded by (a published rating would mix
    scales with it)."""
    if meta.source == "qualification" or not ratings:
        return meta.rating
    return ratings.get(player_id, meta.rating)


def event_id_for(*parts: object) -> uuid.UUID:
    """Deterministic event ids: a re-run of the same inputs produces the same events."""
    return uuid.uuid5(_NAMESPACE, "/".join(str(p) for p in parts))


def entrant_for(
    entry: Entry,
    meta: EntryMeta,
    people: Mapping[str, Person],
    units: Mapping[str, Unit],
    kind: str,
    registry_ids: Mapping[str, str] | None = None,
    ratings: Mapping[str, int] | None = None,
) -> Entrant:
    """``registry_ids``: the registry person each player stands as (issue 32), where known;
    ``ratings``: a player's published rating (player id → rating), which an individual entrant
    carries instead of the entry's own (the TRF rating column: Swiss start order)."""
    registry = registry_ids or {}
    members = [people[pid] for pid in entry.person_ids]
    unit = units.get(entry.unit_id) if entry.unit_id else None
    unit_name = unit.name if unit else entry.unit_id
    attrs = {**meta.attributes, "admitted_by": entry.admitted_by or None}
    if kind == "individual":
        p = members[0]
        return Entrant(
            entrant_id=entry.id,
            name=p.name,
            gender=p.gender,
            unit=unit_name,
            rating=seed_rating(meta, p.id, ratings),
            birth_year=p.birth_date.year,
            partner_id=meta.partner_id,
            attributes={**attrs, "player_id": p.id},
            registry_id=registry.get(p.id),
        )
    return Entrant(
        entrant_id=entry.id,
        name=entry.team_name or unit_name or entry.id,
        unit=unit_name,
        rating=meta.rating,
        partner_id=meta.partner_id,
        attributes=attrs,
        members=[
            Member(
                player_id=p.id,
                name=p.name,
                gender=p.gender,
                board=i + 1,
                unit=unit_name,
                birth_year=p.birth_date.year,
                partner_id=meta.partner_id,
                registry_id=registry.get(p.id),
            )
            for i, p in enumerate(members)
        ],
    )


def section_closed(
    config: EventConfig,
    closed: ClosedSection,
    people: Mapping[str, Person],
    units: Mapping[str, Unit],
    meta: Mapping[str, EntryMeta],
    entries: Mapping[str, Entry] | None = None,
    registry_ids: Mapping[str, str] | None = None,
    ratings: Mapping[str, int] | None = None,
    listed: Mapping[str, int] | None = None,
) -> SectionClosed:
    """The domain's payload, completed with what only the service knows: the partner that
    registered each entrant, ratings/seeds, the section's unit-separation flag and the registry
    person each player stands as and an individual's published rating (issue 32, ``ratings``:
    player id → rating); ``listed``: every player's published rating whatever the seeding
    (rating-band prizes read it as ``published_rating``)."""
    registry = registry_ids or {}
    data: dict[str, Any] = section_closed_payload(config, closed, people, units)
    sec = config.section(closed.section_id)
    data["rules"]["separate_units"] = sec.separate_units
    data["appeals"] = config.appeal_terms()  # AWD-10: the fee is the fees' per_appeal item
    for ent in data["entrants"]:
        entry_meta = meta.get(ent["entrant_id"])
        if entry_meta is None:
            continue
        ent["partner_id"] = entry_meta.partner_id
        entry = (entries or {}).get(ent["entrant_id"])
        if entry is not None and entry.team_name and ent.get("members"):
            ent["name"] = entry.team_name  # a unit may enter several teams
        ent["rating"] = entry_meta.rating
        ent["attributes"] = {**entry_meta.attributes, **ent["attributes"]}
        if not ent.get("members"):
            player = ent["attributes"].get("player_id") or ""
            ent["registry_id"] = registry.get(player)
            ent["rating"] = seed_rating(entry_meta, player, ratings)
            ent["published_rating"] = (listed or {}).get(player)
        for mem in ent.get("members", []):
            mem["partner_id"] = entry_meta.partner_id
            mem["registry_id"] = registry.get(mem["player_id"])
    return SectionClosed.model_validate(data)
