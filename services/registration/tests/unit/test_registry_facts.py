"""Issue 32: the facts registration sends about entrants name each player's registry person
(``registry_id`` of the ``Entrant`` and of each team ``Member``), and never an ID number."""

from __future__ import annotations

from datetime import date

from registration_kit import application, cst, person

from registration.adapters.contract_mapping import entrant_for, section_closed
from registration.adapters.repository import EntryMeta
from registration.domain import Entry, EntryStatus, EventRegistration, FormatChoice, Unit, close_stage


def test_issue32_section_closed_names_each_entrants_registry_person(ny):
    """NY junior section closed: each individual entrant carries its player's registry person."""
    reg = EventRegistration(ny)
    unit = Unit("gd", "Guangdong", "province")
    people, at = {}, cst(2022, 8, 1)
    for _ in range(4):
        player = person("male", date(2012, 1, 1))
        people[player.id] = player
        items = {item: at for item in ny.registration.required_items}
        made = reg.submit(application("junior-male", player, at=at, unit=unit, items=items), people, unit=unit, now=at)
        assert made.accepted
    entries = list(reg.entries.values())
    meta = {e.id: EntryMeta("main", i, "partner-1") for i, e in enumerate(entries, 1)}
    registry = {pid: f"rp-{pid}" for pid in people}
    [closed] = [
        c
        for c in close_stage(ny, "main", entries, {"junior-male": FormatChoice("swiss", 3)})
        if c.section_id == "junior-male"
    ]
    payload = section_closed(ny, closed, people, {"gd": unit}, meta, reg.entries, registry)
    assert {e.registry_id for e in payload.entrants} == set(registry.values())
    for entrant in payload.entrants:
        assert entrant.registry_id == registry[entrant.attributes["player_id"]]
    assert all(p.id_number is not None and p.id_number.value not in payload.model_dump_json() for p in people.values())


def test_issue32_a_teams_members_each_name_their_registry_person():
    """A team entrant: the members carry their registry persons (the team itself is nobody's)."""
    players = [person("male", date(2000, 1, 1)) for _ in range(3)]
    entry = Entry("t1", "e", "team", tuple(p.id for p in players), "u1", EntryStatus.ACCEPTED, cst(2022, 8, 1))
    registry = {players[0].id: "rp-a", players[2].id: "rp-c"}  # one not linked yet: null
    team = entrant_for(entry, EntryMeta("main", 1, None), {p.id: p for p in players}, {}, "team", registry)
    assert team.registry_id is None
    assert [m.registry_id for m in team.members] == ["rp-a", None, "rp-c"]
    single = Entry("i1", "e", "open", (players[1].id,), None, EntryStatus.ACCEPTED, cst(2022, 8, 1))
    alone = entrant_for(
        single, EntryMeta("main", 2, None), {players[1].id: players[1]}, {}, "individual", {players[1].id: "rp-b"}
    )
    assert alone.registry_id == "rp-b" and alone.members == []


def test_issue32_section_closed_seeds_by_the_published_rating_but_qualifiers_keep_their_order(ny):
    """Each individual entrant of section.closed carries its player's published rating (the TRF
    rating column); one without a published rating keeps the entry's own; an entry made from a
    qualifier list keeps the qualifying order it encodes (EVT-6: the next stage's seeding)."""
    reg = EventRegistration(ny)
    unit = Unit("gd", "Guangdong", "province")
    people, at = {}, cst(2022, 8, 1)
    for _ in range(4):
        player = person("male", date(2012, 1, 1))
        people[player.id] = player
        items = {item: at for item in ny.registration.required_items}
        made = reg.submit(application("junior-male", player, at=at, unit=unit, items=items), people, unit=unit, now=at)
        assert made.accepted
    entries = list(reg.entries.values())
    meta = {e.id: EntryMeta("main", i, "partner-1", rating=7) for i, e in enumerate(entries, 1)}
    meta[entries[3].id].source = "qualification"
    ids = [e.person_ids[0] for e in entries]
    published = {ids[0]: 1810, ids[1]: 1620, ids[3]: 2100}
    [closed] = [
        c
        for c in close_stage(ny, "main", entries, {"junior-male": FormatChoice("swiss", 3)})
        if c.section_id == "junior-male"
    ]
    payload = section_closed(ny, closed, people, {"gd": unit}, meta, reg.entries, {}, published)
    by_player = {e.attributes["player_id"]: e.rating for e in payload.entrants}
    assert by_player == {ids[0]: 1810, ids[1]: 1620, ids[2]: 7, ids[3]: 7}
    entrant = entrant_for(entries[0], meta[entries[0].id], people, {"gd": unit}, "individual", {}, published)
    assert entrant.rating == 1810
    assert section_closed(ny, closed, people, {"gd": unit}, meta, reg.entries, {}, None).entrants[0].rating == 7
