"""Issue 32 (ADR 0012), what leaves and reaches awards' season: every replacement of an
organisation's rating lists publishes its latest list (``ratings.published``: registration seeds
entries by it), and a merge or split in the registry (``people.merged`` / ``people.split``)
re-keys the stored title grants and rated games, then computes the lists again. SQLite + the
in-memory bus."""

from __future__ import annotations

from datetime import UTC, datetime

from awards_kit import completed, configured, ranked

from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import EventConfigured, GameResult, StandingRow
from gomoku_shared.contracts.season_events import EventPerson, PeopleMerged, PeopleSplit
from gomoku_shared.event_config import EventConfig

ORG = "/v1/organisations/default"
NOW = datetime(2023, 9, 1, tzinfo=UTC)
REGISTRY = {f"x{i}": f"R{i}" for i in range(1, 5)}


def game(rnd: int, board: int, first: str, second: str, outcome: str, forfeit: bool = False) -> GameResult:
    return GameResult(
        round=rnd, pairing_id=f"r{rnd}.b{board}", first=first, second=second, outcome=outcome, forfeit=forfeit
    )


GAMES = [
    game(1, 1, "x1", "x2", "first_wins"),
    game(1, 2, "x3", "x4", "draw"),
    game(2, 1, "x1", "x3", "second_wins"),
    game(2, 2, "x2", "x4", "first_forfeit_win", forfeit=True),
]


def placed(order: list[str], n: int = 28) -> list[StandingRow]:
    """A junior section of ``n`` where ``order`` names who took places 1, 2, …"""
    rows = ranked(n, "x")
    ids = order + [r.entrant_id for r in rows if r.entrant_id not in order][: n - len(order)]
    return [r.model_copy(update={"entrant_id": e, "name": e.upper()}) for r, e in zip(rows, ids)]


def entrants(standings: list[StandingRow]) -> list[Entrant]:
    """The registry people among them, with registration's player id of each (a split names it)."""
    return [
        Entrant(
            entrant_id=r.entrant_id,
            name=r.name,
            registry_id=REGISTRY.get(r.entrant_id),
            attributes={"player_id": f"p-{r.entrant_id}"},
        )
        for r in standings
    ]


def autumn() -> EventConfigured:
    """A second DA-like event of the season (2023-11-04..05), not rated."""
    data = configured("da-2023").config
    data["stages"][0].update(starts_on="2023-11-04", ends_on="2023-11-05")
    data["schedule"] = {}
    config = EventConfig.model_validate(data)
    return EventConfigured(event_code="da-autumn", name=config.name, preset_id="da-2023", config=data)


async def _junior(harness, order: list[str], revision: int = 1, games=(), event_code: str = "da-2023"):
    standings = placed(order)
    payload = completed(event_code, "junior", standings, revision=revision, name="Junior")
    await harness.send(payload.model_copy(update={"entrants": entrants(standings), "games": list(games)}))
    await harness.settle()


async def _rated_section(harness):
    await harness.send(configured("da-2023", overrides={"ratings": {"rated": True}}))
    await _junior(harness, ["x1", "x2", "x3", "x4"], games=GAMES)


async def test_issue32_replacing_the_lists_publishes_the_latest_period(harness):
    """The published list is the stored latest list: same people, each rating rounded to the
    whole number the TRF rating column carries, its RD and whether it is provisional."""
    await _rated_section(harness)
    (published,) = harness.payloads("ratings.published")
    assert published.organisation == "default" and published.period == "2023-08"
    stored = (await harness.client.get(f"{ORG}/ratings/2023-08")).json()["rows"]
    assert {p.registry_id: p.rating for p in published.people} == {r["person_id"]: round(r["rating"]) for r in stored}
    assert all(p.provisional and p.rd > 110 for p in published.people)
    # x3 beat x1 and drew x4: the best of the month in the published list too
    assert max(published.people, key=lambda p: p.rating).registry_id == "R3"


async def test_issue32_a_correction_that_removes_every_game_publishes_an_empty_list(harness):
    """AWD-8: the section corrected without games leaves the organisation no list; registration
    must stop seeding by the old one, so an empty list is published."""
    await _rated_section(harness)
    await _junior(harness, ["x1", "x2", "x3", "x4"], revision=2)
    latest = harness.payloads("ratings.published")[-1]
    assert latest.period is None and latest.people == []


async def test_issue32_unrated_sections_publish_no_list(harness):
    await harness.send(configured("da-2023"))
    await _junior(harness, ["x1", "x2", "x3", "x4"], games=GAMES)
    assert harness.payloads("ratings.published") == []


async def test_issue32_a_merge_moves_grants_and_games_to_the_kept_person_idempotently(harness):
    """R2 and R4 are one human (merged into R2): R4's games become R2's, the lists are computed
    again (R4 leaves them) and published; the same message again moves nothing and publishes
    nothing more. R4's autumn 2d (DA 九(三), AWD-5) becomes R2's title; both held a grant in the
    summer's one section (one human entered twice): each stays where it is."""
    await _rated_section(harness)
    await harness.send(autumn())
    await _junior(harness, ["x4"] + [f"y{i}" for i in range(2, 29)], event_code="da-autumn")  # R4 alone
    before = len(harness.payloads("ratings.published"))
    merged = PeopleMerged(organisation="default", person_id="R2", merged_ids=["R4"], at=NOW)
    await harness.send(merged)
    await harness.settle()
    r2 = (await harness.client.get(f"{ORG}/people/R2/titles")).json()
    assert [(g["event_code"], g["place"]) for g in r2["history"]] == [("da-2023", 2), ("da-autumn", 1)]
    assert r2["current"] == "2d"
    r4 = (await harness.client.get(f"{ORG}/people/R4/titles")).json()
    assert [(g["event_code"], g["place"]) for g in r4["history"]] == [("da-2023", 4)]
    rows = (await harness.client.get(f"{ORG}/ratings/2023-08")).json()["rows"]
    # R4 drew R3 over the board (the forfeit against R2 never counted): that game is R2's now
    assert {r["person_id"]: r["games"] for r in rows} == {"R1": 2, "R2": 2, "R3": 2}
    latest = harness.payloads("ratings.published")
    assert len(latest) == before + 1 and {p.registry_id for p in latest[-1].people} == {"R1", "R2", "R3"}
    await harness.send(merged.model_copy())  # a new event id, the same merge: nothing left to move
    await harness.settle()
    assert len(harness.payloads("ratings.published")) == before + 1


async def test_issue32_a_merge_of_two_who_played_each_other_rates_no_game_against_oneself(harness):
    await _rated_section(harness)
    await harness.send(PeopleMerged(organisation="default", person_id="R1", merged_ids=["R2"], at=NOW))
    await harness.settle()
    rows = (await harness.client.get(f"{ORG}/ratings/2023-08")).json()["rows"]
    assert {r["person_id"]: r["games"] for r in rows} == {"R1": 1, "R3": 2, "R4": 1}


async def test_issue32_a_split_moves_the_event_persons_records_back(harness):
    """A merge undone (people.split naming the event people that stand as the split-off person
    again) moves exactly their grants and games back; another organisation's is untouched."""
    await _rated_section(harness)
    await harness.send(PeopleMerged(organisation="default", person_id="R2", merged_ids=["R4"], at=NOW))
    await harness.settle()
    wrong_org = PeopleSplit(
        organisation="other",
        person_id="R2",
        split_off="R4",
        players=[EventPerson(event_code="da-2023", player_id="p-x4")],
        at=NOW,
    )
    await harness.send(wrong_org)
    await harness.settle()
    rows = (await harness.client.get(f"{ORG}/ratings/2023-08")).json()["rows"]
    assert "R4" not in {r["person_id"] for r in rows}
    split = wrong_org.model_copy(update={"organisation": "default"})
    await harness.send(split)
    await harness.settle()
    assert [g["place"] for g in (await harness.client.get(f"{ORG}/people/R4/titles")).json()["history"]] == [4]
    assert [g["place"] for g in (await harness.client.get(f"{ORG}/people/R2/titles")).json()["history"]] == [2]
    rows = (await harness.client.get(f"{ORG}/ratings/2023-08")).json()["rows"]
    assert {r["person_id"]: r["games"] for r in rows} == {"R1": 2, "R2": 1, "R3": 2, "R4": 1}
    assert {p.registry_id for p in harness.payloads("ratings.published")[-1].people} == {"R1", "R2", "R3", "R4"}
