"""Issue 32: the current titles of many people in one lookup (a page naming every player beside
their title) and an event's title certificates (DA 九(三)'s title table, AWD-5: one certificate
per grant). The domain first, then the routes over HTTP on SQLite + the in-memory bus."""

from __future__ import annotations

from datetime import date

from awards_kit import completed, configured, ranked

from awards.domain.title_holders import TitleCertificate, certificate_order, held_titles
from awards.domain.title_record import TitleGrant, TitleLadder
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import StandingRow

LADDER = TitleLadder.kyu_dan()
SUMMER, AUTUMN = date(2023, 8, 22), date(2023, 11, 5)


def grant(person: str, title: str, on: date, event: str = "e1", place: int = 1) -> TitleGrant:
    return TitleGrant(person, title, event, "junior", place, on)


def test_issue32_held_titles_of_many_people_the_highest_each_never_lowered():
    """DA 九(三) (AWD-5): each person's current title is the highest granted (a later lower one
    never lowers it), dated by the grant that reached it; a title off the ladder ranks nothing,
    so a person with only such grants holds none."""
    grants = [
        grant("ann", "1k", SUMMER),
        grant("ann", "1d", AUTUMN, "e2"),
        grant("bo", "2d", SUMMER),
        grant("bo", "3k", AUTUMN, "e2"),
        grant("cy", "master", SUMMER),
    ]
    held = held_titles(grants, LADDER)
    assert {p: (h.title, h.since.granted_on) for p, h in held.items()} == {
        "ann": ("1d", AUTUMN),
        "bo": ("2d", SUMMER),
    }


def test_issue32_title_certificates_print_section_by_section_by_place():
    made = [
        TitleCertificate("p9", "Zed", "6k", "junior", 23, SUMMER),
        TitleCertificate("p2", "Bo", "1d", "junior", 2, SUMMER),
        TitleCertificate("p1", "Al", "2d", "adult", 1, SUMMER),
        TitleCertificate("p3", "Ann", "1d", "junior", 2, SUMMER),
    ]
    assert [c.person_id for c in certificate_order(made)] == ["p1", "p3", "p2", "p9"]


def placed(order: list[str], n: int = 28) -> list[StandingRow]:
    """A junior section of ``n`` where ``order`` names who took places 1, 2, …"""
    rows = ranked(n, "x")
    ids = order + [r.entrant_id for r in rows if r.entrant_id not in order][: n - len(order)]
    return [r.model_copy(update={"entrant_id": e, "name": e.upper()}) for r, e in zip(rows, ids, strict=False)]


async def _junior(harness, event_code: str, order: list[str], registry: dict[str, str]) -> None:
    standings = placed(order)
    entrants = [
        Entrant(entrant_id=r.entrant_id, name=r.name, registry_id=registry.get(r.entrant_id)) for r in standings
    ]
    payload = completed(event_code, "junior", standings, name="Junior").model_copy(update={"entrants": entrants})
    await harness.send(payload)
    await harness.settle()


REGISTRY = {"bo": "R-bo", "ann": "R-ann", "cy": "R-cy"}


async def test_issue32_awd5_one_lookup_names_the_current_title_of_each_person_asked(harness):
    """DA 九(三): Bo 1st (二段), Ann 5th (1级); Cy (no title: 28th of 28 is past the table) and an
    unknown id are not listed; the answer names no one (titles only)."""
    await harness.send(configured("da-2023"))
    await _junior(
        harness, "da-2023", ["bo", "x2", "x3", "x4", "ann"] + [f"y{i}" for i in range(6, 28)] + ["cy"], REGISTRY
    )
    r = await harness.client.get("/v1/organisations/default/titles", params={"people": "R-ann,R-bo,R-cy,R-none"})
    assert r.status_code == 200
    assert r.json() == {
        "organisation": "default",
        "people": [
            {"person_id": "R-ann", "title": "1k", "since": "2023-08-22"},
            {"person_id": "R-bo", "title": "2d", "since": "2023-08-22"},
        ],
    }
    # another organisation's lookup sees none of the default organisation's grants
    other = await harness.client.get("/v1/organisations/other/titles", params={"people": "R-ann,R-bo"})
    assert other.json()["people"] == []


async def test_issue32_the_lookup_refuses_too_many_or_malformed_ids(harness):
    too_many = ",".join(f"R{i}" for i in range(101))
    for people in (too_many, "", "a,,b", "a b"):
        r = await harness.client.get("/v1/organisations/default/titles", params={"people": people})
        assert r.status_code == 422, people
        assert "error" in r.json()
    hundred = ",".join(f"R{i}" for i in range(100))
    assert (await harness.client.get("/v1/organisations/default/titles", params={"people": hundred})).status_code == 200


async def test_issue32_awd5_an_events_title_certificates_one_per_grant_with_full_names(harness):
    """DA 九(三): every grant of the event is one certificate (title, place, section, the last day of
    its stage), named as the event's published titles name the holder (not masked); ``person``
    keeps one person's own certificates; an event without grants has none."""
    await harness.send(configured("da-2023"))
    await _junior(harness, "da-2023", ["bo", "x2", "x3", "x4", "ann"], REGISTRY)
    body = (await harness.client.get("/v1/events/da-2023/title-certificates")).json()
    assert body["event_code"] == "da-2023" and body["organisation"] == "default"
    assert [(c["name"], c["title"], c["place"], c["section_id"], c["granted_on"]) for c in body["certificates"]] == [
        ("BO", "2d", 1, "junior", "2023-08-22"),
        ("ANN", "1k", 5, "junior", "2023-08-22"),
    ]
    mine = (await harness.client.get("/v1/events/da-2023/title-certificates", params={"person": "R-ann"})).json()
    assert [c["person_id"] for c in mine["certificates"]] == ["R-ann"]
    none = (await harness.client.get("/v1/events/nothing/title-certificates")).json()
    assert none["certificates"] == []
