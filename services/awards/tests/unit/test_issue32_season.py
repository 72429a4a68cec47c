"""Issue 32, the season in awards: DA 九(三)'s title table (AWD-5) grants titles that accumulate
on the registry person across events, and a rated event's games make the organisation's rating
lists (ADR 0012: Glicko-2, monthly periods). SQLite + the in-memory bus; routes over HTTP."""

from __future__ import annotations

import csv
import io

import pytest
from awards_kit import completed, configured, ranked

from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import EventConfigured, GameResult, StandingRow
from gomoku_shared.event_config import EventConfig

ORG = "/v1/organisations/default"


def autumn(event_code: str, ratings: dict | None = None) -> EventConfigured:
    """A second DA-like event of the season: DA 2023 (played 2023-08-19..22) on 2023-11-04..05."""
    data = configured("da-2023").config
    data["stages"][0].update(starts_on="2023-11-04", ends_on="2023-11-05")
    data["schedule"] = {}  # the summer's round times would fall outside the autumn's days
    data["ratings"] = ratings or {}
    config = EventConfig.model_validate(data)
    return EventConfigured(event_code=event_code, name=config.name, preset_id="da-2023", config=data)


def people(standings: list[StandingRow], registry: dict[str, str]) -> list[Entrant]:
    """The entrants of the standings, those named in ``registry`` with their registry id."""
    return [Entrant(entrant_id=r.entrant_id, name=r.name, registry_id=registry.get(r.entrant_id)) for r in standings]


def placed(order: list[str], n: int = 28) -> list[StandingRow]:
    """A junior section of ``n`` where ``order`` names who took places 1, 2, …"""
    rows = ranked(n, "x")
    ids = order + [r.entrant_id for r in rows if r.entrant_id not in order][: n - len(order)]
    return [r.model_copy(update={"entrant_id": e, "name": e.upper()}) for r, e in zip(rows, ids)]


def game(rnd: int, board: int, first: str, second: str, outcome: str, forfeit: bool = False) -> GameResult:
    return GameResult(
        round=rnd, pairing_id=f"r{rnd}.b{board}", first=first, second=second, outcome=outcome, forfeit=forfeit
    )


async def _junior(harness, event_code: str, order: list[str], registry: dict[str, str], revision: int = 1, games=()):
    standings = placed(order)
    payload = completed(event_code, "junior", standings, revision=revision, name="Junior")
    payload = payload.model_copy(update={"entrants": people(standings, registry), "games": list(games)})
    await harness.send(payload)
    await harness.settle()


async def test_issue32_awd5_da_title_table_grants_accumulate_over_the_season(harness):
    """DA 九(三) (AWD-5): 第1名 二段 (2d), 第2-3名 一段 (1d), 第4-6名 1级 (1k) … 第23-26名 6级. Over two
    DA-like events the same registry person's grants accumulate: a higher title supersedes, a lower
    one never lowers it; an entrant without a registry id gets no record."""
    await harness.send(configured("da-2023"))
    await harness.send(autumn("da-2023-autumn"))
    registry = {"ann": "R-ann", "bo": "R-bo"}
    # summer: Bo wins (2d), Ann 5th (1k); nobody-without-registry on place 2
    await _junior(harness, "da-2023", ["bo", "anon", "x3", "x4", "ann"], registry)
    # autumn: Ann 2nd (1d: raises), Bo 12th (3k: does not lower 2d)
    await _junior(harness, "da-2023-autumn", ["x1", "ann"] + [f"y{i}" for i in range(3, 12)] + ["bo"], registry)
    client = harness.client

    ann = (await client.get(f"{ORG}/people/R-ann/titles")).json()
    assert ann["current"] == "1d" and ann["since"] == "2023-11-05"
    assert ann["name"] == "A**"  # masked as in every public read
    assert [(g["event_code"], g["title"], g["place"], g["raised"]) for g in ann["history"]] == [
        ("da-2023", "1k", 5, True),
        ("da-2023-autumn", "1d", 2, True),
    ]
    bo = (await client.get(f"{ORG}/people/R-bo/titles")).json()
    assert bo["current"] == "2d" and bo["since"] == "2023-08-22"  # the last day of the stage
    assert [(g["title"], g["raised"]) for g in bo["history"]] == [("2d", True), ("3k", False)]
    assert bo["ladder"][0] == "18k" and bo["ladder"][-1] == "9d"
    nobody = (await client.get(f"{ORG}/people/R-none/titles")).json()
    assert nobody["current"] is None and nobody["history"] == []


async def test_issue32_awd8_a_correction_replaces_the_sections_grants(harness):
    """AWD-8: the autumn section corrected (revision 2: Ann 20th, 5k) replaces its grants, so
    Ann's title falls back to the summer's 1k, computed from the grants that stand."""
    await harness.send(configured("da-2023"))
    await harness.send(autumn("da-2023-autumn"))
    registry = {"ann": "R-ann"}
    await _junior(harness, "da-2023", ["x1", "x2", "x3", "x4", "ann"], registry)
    await _junior(harness, "da-2023-autumn", ["x1", "ann"], registry)
    assert (await harness.client.get(f"{ORG}/people/R-ann/titles")).json()["current"] == "1d"
    corrected = ["x1"] + [f"y{i}" for i in range(2, 20)] + ["ann"]
    await _junior(harness, "da-2023-autumn", corrected, registry, revision=2)
    ann = (await harness.client.get(f"{ORG}/people/R-ann/titles")).json()
    assert ann["current"] == "1k" and ann["since"] == "2023-08-22"
    assert [(g["event_code"], g["title"], g["place"]) for g in ann["history"]] == [
        ("da-2023", "1k", 5),
        ("da-2023-autumn", "5k", 20),
    ]


REGISTRY = {f"x{i}": f"R{i}" for i in range(1, 5)}
GAMES = [
    game(1, 1, "x1", "x2", "first_wins"),
    game(1, 2, "x3", "x4", "draw"),
    game(2, 1, "x1", "x3", "second_wins"),
    game(2, 2, "x2", "x4", "first_forfeit_win", forfeit=True),
]


async def test_issue32_a_rated_events_games_make_the_rating_list_forfeits_never_count(harness):
    """A rated event (ratings.rated) puts its games over the board on the organisation's list
    of the month of its last day; the forfeit (x2 v x4) counts for nobody: x4 has one game,
    x2 one. Everybody starts at 1500 / RD 350, so the list is provisional (ADR 0012)."""
    await harness.send(configured("da-2023", overrides={"ratings": {"rated": True, "min_time_control_s": 3600}}))
    await _junior(harness, "da-2023", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES)
    body = (await harness.client.get(f"{ORG}/ratings/2023-08")).json()
    assert body["periods"] == ["2023-08"]
    games = {r["person_id"]: r["games"] for r in body["rows"]}
    assert games == {"R1": 2, "R2": 1, "R3": 2, "R4": 1}
    assert all(r["provisional"] for r in body["rows"])
    ratings = [r["rating"] for r in body["rows"]]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) > 1
    # x3 beat x1 and drew x4: the best result of the month, on top
    assert body["rows"][0]["person_id"] == "R3" and body["rows"][0]["rating"] > 1500
    assert {r["name"] for r in body["rows"]} == {"X**"}
    mine = (await harness.client.get(f"{ORG}/people/R3/rating")).json()
    assert mine["current"]["rating"] == body["rows"][0]["rating"] and len(mine["history"]) == 1

    r = await harness.client.get(f"{ORG}/ratings/2023-08.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert [row["person_id"] for row in rows] == [row["person_id"] for row in body["rows"]]
    assert rows[0]["rank"] == "1" and int(rows[0]["rating"]) == body["rows"][0]["rating"]
    # DA 九(三): each row names the title held at the end of the period (x3: 第3名 一段), in the CSV too
    assert {r["person_id"]: r["title"] for r in body["rows"]} == {"R1": "2d", "R2": "1d", "R3": "1d", "R4": "1k"}
    assert {row["person_id"]: row["title"] for row in rows} == {"R1": "2d", "R2": "1d", "R3": "1d", "R4": "1k"}


async def test_issue32_unrated_events_and_short_time_controls_do_not_count(harness):
    """Not rated (the default), or rated with a minimum time control the section's clock does
    not reach (DA junior: 3600 s + 30 s × 60 = 5400 s nominal), the games make no list."""
    await harness.send(configured("da-2023"))
    await harness.send(autumn("da-rapid", {"rated": True, "min_time_control_s": 5401}))
    await _junior(harness, "da-2023", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES)
    await _junior(harness, "da-rapid", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES)
    for period in ("2023-08", "2023-11"):
        assert (await harness.client.get(f"{ORG}/ratings/{period}")).json()["rows"] == []
    assert (await harness.client.get(f"{ORG}/people/R1/rating")).json() == {
        "organisation": "default",
        "person_id": "R1",
        "current": None,
        "history": [],
    }


async def test_issue32_later_periods_carry_ratings_and_a_correction_recomputes(harness):
    """Two rated events three months apart: the lists of the months between exist (RD grows
    while nobody plays); the second event's correction (revision 2, no games) removes its
    games, and the later lists are computed again without them."""
    rated = {"ratings": {"rated": True}}
    await harness.send(configured("da-2023", overrides=rated))
    await harness.send(autumn("da-2023-autumn", rated["ratings"]))
    await _junior(harness, "da-2023", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES)
    await _junior(harness, "da-2023-autumn", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES[:1])
    body = (await harness.client.get(f"{ORG}/ratings/2023-11")).json()
    assert body["periods"] == ["2023-08", "2023-09", "2023-10", "2023-11"]
    history = (await harness.client.get(f"{ORG}/people/R1/rating")).json()["history"]
    assert [h["games"] for h in history] == [2, 2, 2, 3]
    assert history[0]["rd"] < history[1]["rd"] < history[2]["rd"]  # idle months: less certain
    await _junior(harness, "da-2023-autumn", ["x1", "x2", "x3", "x4"], REGISTRY, revision=2)
    body = (await harness.client.get(f"{ORG}/ratings/2023-11")).json()
    assert body["periods"] == ["2023-08"] and body["rows"] == []
    assert [h["games"] for h in (await harness.client.get(f"{ORG}/people/R1/rating")).json()["history"]] == [2]


async def test_issue32_titles_and_games_belong_to_the_events_organisation_whenever_it_is_learnt(harness):
    """Producers are not ordered: the section came before event.access_changed, so its grants
    and games move to the owner when it is learnt; the other organisation's reads are empty."""
    from datetime import UTC, datetime

    from gomoku_shared.contracts.access_events import EventAccessChanged

    await harness.send(configured("da-2023", overrides={"ratings": {"rated": True}}))
    await _junior(harness, "da-2023", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES)
    assert (await harness.client.get(f"{ORG}/people/R1/titles")).json()["current"] == "2d"
    changed = EventAccessChanged(event_code="da-2023", organisation="hainan-fed", changed_at=datetime.now(UTC))
    await harness.send(changed)
    await harness.settle()
    hainan = "/v1/organisations/hainan-fed"
    assert (await harness.client.get(f"{hainan}/people/R1/titles")).json()["current"] == "2d"
    assert (await harness.client.get(f"{ORG}/people/R1/titles")).json()["current"] is None
    assert len((await harness.client.get(f"{hainan}/ratings/2023-08")).json()["rows"]) == 4
    assert (await harness.client.get(f"{ORG}/ratings/2023-08")).json()["rows"] == []
    # the organisation in the path is validated like every input
    assert (await harness.client.get("/v1/organisations/bad org!/ratings/2023-08")).status_code == 422
    assert (await harness.client.get(f"{ORG}/ratings/2023-13")).status_code == 422


async def test_issue32_rating_list_csv_is_safe_from_formulas(harness):
    """A name that a spreadsheet would run as a formula is written with a leading quote (CSV
    injection), masked as in every public read."""
    await harness.send(configured("da-2023", overrides={"ratings": {"rated": True}}))
    standings = placed(["x1", "x2"])
    entrants = [
        Entrant(entrant_id="x1", name='=HYPERLINK("http://x")', registry_id="R1"),
        Entrant(entrant_id="x2", name="Bo", registry_id="R2"),
    ]
    payload = completed("da-2023", "junior", standings, name="Junior")
    await harness.send(payload.model_copy(update={"entrants": entrants, "games": [game(1, 1, "x1", "x2", "draw")]}))
    await harness.settle()
    text = (await harness.client.get(f"{ORG}/ratings/2023-08.csv")).text
    assert "'=**" in text and "HYPERLINK" not in text
    assert {row["name"] for row in csv.DictReader(io.StringIO(text))} == {"'=**", "B**"}


async def test_issue32_the_title_ladder_is_the_organisations_configuration(tmp_path):
    """Precedence is configuration per organisation: its staff (people.manage in it) set the
    ladder, another organisation's key is refused with words, a ladder naming a title twice is
    a 422; a grant is ranked by the organisation's ladder as it is when read (here 1k above 1d);
    a title off the ladder is kept and shown but ranks nothing until the ladder names it."""
    from awards_kit import Harness

    from gomoku_shared.messaging.memory import InMemoryEventBus
    from gomoku_shared.settings import ServiceSettings

    keys = "op-key=operator,arb-key=arbiter,ob-key=arbiter:org-b"
    settings = ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/awards.sqlite", API_KEYS=keys)
    harness = await Harness(settings, bus=InMemoryEventBus()).start()
    try:
        client = harness.client
        assert (await client.get(f"{ORG}/title-ladder")).json()["default"] is True
        ladder = {"titles": ["1d", "1k"]}
        assert (await client.put(f"{ORG}/title-ladder", json=ladder)).status_code == 401
        other = await client.put(f"{ORG}/title-ladder", json=ladder, headers={"x-api-key": "ob-key"})
        assert other.status_code == 403 and other.json()["error"]["code"] == "people_not_yours"
        assert other.json()["error"]["details"]["words"]["zh"]
        twice = await client.put(f"{ORG}/title-ladder", json={"titles": ["1k", "1k"]}, headers={"x-api-key": "op-key"})
        assert twice.status_code == 422
        own = await client.put("/v1/organisations/org-b/title-ladder", json=ladder, headers={"x-api-key": "ob-key"})
        assert own.status_code == 200 and own.json() == {
            "organisation": "org-b",
            "titles": ["1d", "1k"],
            "default": False,
        }
        put = await client.put(f"{ORG}/title-ladder", json=ladder, headers={"x-api-key": "arb-key"})
        assert put.status_code == 200, put.text
        assert (await client.get(f"{ORG}/title-ladder")).json()["titles"] == ["1d", "1k"]

        await harness.send(configured("da-2023"))
        await harness.send(autumn("da-2023-autumn"))
        registry = {"ann": "R-ann", "bo": "R-bo"}
        await _junior(harness, "da-2023", ["bo", "x2", "x3", "x4", "ann"], registry)  # Bo 2d: off this ladder
        await _junior(harness, "da-2023-autumn", ["x1", "ann"], registry)
        ann = (await client.get(f"{ORG}/people/R-ann/titles")).json()
        assert (ann["current"], ann["since"]) == ("1k", "2023-08-22")
        assert [(g["title"], g["raised"]) for g in ann["history"]] == [("1k", True), ("1d", False)]
        bo = (await client.get(f"{ORG}/people/R-bo/titles")).json()
        assert bo["current"] is None and [(g["title"], g["raised"]) for g in bo["history"]] == [("2d", False)]
        # the grant was kept: the default ladder back, it ranks again
        await client.put(f"{ORG}/title-ladder", json={"titles": ["1k", "1d", "2d"]}, headers={"x-api-key": "op-key"})
        assert (await client.get(f"{ORG}/people/R-bo/titles")).json()["current"] == "2d"
    finally:
        await harness.stop()


async def test_issue32_a_persons_events_list_their_grant_and_rated_games(harness):
    """DA 九(三) (AWD-5): x3 is 第3名 一段 in the rated junior section; their two games over the
    board are listed from their side (a win as second against x1, a draw as first against x4);
    the forfeit never counts (x4 has one game); opponents' names are masked."""
    await harness.send(configured("da-2023", overrides={"ratings": {"rated": True}}))
    await _junior(harness, "da-2023", ["x1", "x2", "x3", "x4"], REGISTRY, games=GAMES)
    body = (await harness.client.get(f"{ORG}/people/R3/events")).json()
    [section] = body["sections"]
    assert (section["event_code"], section["section_id"], section["title"], section["place"]) == (
        "da-2023",
        "junior",
        "1d",
        3,
    )
    games = [(g["round"], g["first"], g["opponent_id"], g["score"]) for g in section["games"]]
    assert games == [(1, True, "R4", 0.5), (2, False, "R1", 1.0)]
    assert {g["opponent"] for g in section["games"]} == {"X**"}
    fourth = (await harness.client.get(f"{ORG}/people/R4/events")).json()
    assert [len(s["games"]) for s in fourth["sections"]] == [1]
    nobody = await harness.client.get(f"{ORG}/people/R-unknown/events")
    assert nobody.status_code == 200 and nobody.json()["sections"] == []


@pytest.mark.parametrize("period", ["0000-01", "9999-12", "1899-05"])
async def test_issue32_a_period_no_list_can_have_is_refused_in_words_not_a_500(harness, period):
    """Found by the fuzz: a period of year 0 (or one whose month's end falls past year 9999) made
    the list's title lookup build an impossible date; periods are 1900-2999."""
    for path in (f"{ORG}/ratings/{period}", f"{ORG}/ratings/{period}.csv"):
        r = await harness.client.get(path)
        assert r.status_code == 422, (path, r.status_code, r.text)
