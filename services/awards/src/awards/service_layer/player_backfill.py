"""Issue 32: rows stored before awards' migration 0008 name no event person, so a split in the
registry (which moves the rows of named event people) would leave them with the wrong person.
Before a split moves anything, the rows of the events it names are filled from the section's
stored result (its latest section.completed): a game by its pairing (exact), a grant by its place
among the standings, told apart by the registry id or the name it was stored with when a place is
shared. What stays unknown (a result without player ids, a shared place nothing tells apart) is
never guessed: the split leaves it where it is and says so (``unkeyed_left``). Idempotent: a
filled row is never read again."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gomoku_shared.contracts.events import SectionCompleted

from .ports import Backfill
from .season import _people

#: entrant id → (registry id, name, registration's player id)
People = dict[str, tuple[str, str, str | None]]


def grant_player(payload: SectionCompleted, people: People, place: int, person_id: str, name: str) -> str | None:
    """The event person a grant of ``place`` was made to, when the stored result tells."""
    at_place = [people[s.entrant_id] for s in payload.standings if s.place == place and s.entrant_id in people]
    for pick in (
        [p for p in at_place if p[0] == person_id],
        [p for p in at_place if p[1] == name],
        at_place,
    ):
        if len(pick) == 1:
            return pick[0][2]
        if pick:
            return None  # two people at the place answer alike: not guessed
    return None


def game_players(payload: SectionCompleted, people: People, pairing_id: str) -> tuple[str | None, str | None]:
    game = next((g for g in payload.games if g.pairing_id == pairing_id), None)
    if game is None:
        return None, None
    first, second = people.get(game.first), people.get(game.second)
    return (first[2] if first else None), (second[2] if second else None)


async def fill_player_ids(store: Backfill, organisation: str, event_codes: Sequence[str]) -> int:
    """Fill the event people of these events' rows stored before 0008; how many rows were filled."""
    grants = await store.unkeyed_grants(organisation, event_codes)
    games = await store.unkeyed_games(organisation, event_codes)
    results: dict[tuple[str, str], tuple[SectionCompleted, People] | None] = {}

    async def result(event_code: str, section_id: str) -> tuple[SectionCompleted, People] | None:
        key = (event_code, section_id)
        if key not in results:
            text = await store.current_payload(event_code, section_id)
            payload = SectionCompleted.model_validate_json(text) if text else None
            results[key] = (payload, _people(payload)) if payload else None
        return results[key]

    filled = 0
    for g in grants:
        found = await result(g.event_code, g.section_id)
        player = grant_player(*found, g.place, g.person_id, g.name) if found else None
        if player:
            await store.key_grant(g.event_code, g.section_id, g.person_id, player)
            filled += 1
    for r in games:
        found = await result(r.event_code, r.section_id)
        first, second = game_players(*found, r.pairing_id) if found else (None, None)
        values: dict[str, Any] = {}
        if r.first_player is None and first:
            values["first_player"] = first
        if r.second_player is None and second:
            values["second_player"] = second
        if values:
            await store.key_game(r.event_code, r.section_id, r.pairing_id, values)
            filled += 1
    return filled


async def unkeyed_left(store: Backfill, organisation: str, person_id: str, event_codes: Sequence[str]) -> int:
    """The person's rows in these events that still name no event person (a split leaves them)."""
    return await store.unkeyed_of(organisation, person_id, event_codes)
