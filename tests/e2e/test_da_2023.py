"""DA 2023 end to end (embedded): prize money with the combinable women's prize, titles."""

from __future__ import annotations

from datetime import date

from .delegations import assert_one_delegation_by_roster
from .harness import (
    FAST,
    assert_played_within,
    assert_records_checked,
    assert_rounds_on_schedule,
    modes_by_stage,
    publication,
    run_embedded,
    spec,
)

SIZES = {"open": 10, "junior": 26, "public": 4}
OPEN = [10000, 6000, 5000, 4000, 4000, 4000, 4000, 3000]
OPEN_WOMEN = [2000, 1000, 1000]
TITLES = [
    (1, 1, "2d"),
    (2, 3, "1d"),
    (4, 6, "1k"),
    (7, 10, "2k"),
    (11, 14, "3k"),
    (15, 18, "4k"),
    (19, 22, "5k"),
    (23, 26, "6k"),
]


def _title(place: int) -> str | None:
    return next((t for a, b, t in TITLES if a <= place <= b), None)


async def test_da_2023_prize_money_and_titles(tmp_path):
    """AWD-4: open prizes by place 1-8, and a woman in the top 8 also receives the women's prize
    for her rank among women (兼得); shared places share the money. AWD-5: junior titles for
    places 1-26, not carried down."""
    summary, driver = await run_embedded(tmp_path, spec("da-2023", 3, SIZES, policy=FAST, rounds=3))
    # issue 34 (DA 十(一)1: 各单位统一报名): one delegation entered through the roster door
    assert_one_delegation_by_roster(driver, summary)
    # PLAY-9, DA 四 (竞赛时间和地点): played over the board at the venue: recorded moves, results from confirmed slips
    assert modes_by_stage(summary) == {"main": {"offline"}}
    assert driver.venue.slips == len(summary["games"]) and driver.venue.recorded
    # ... and the records entered after each game, checked by the engine (a forbidden move flagged)
    assert_records_checked(driver.venue, summary)
    # EVT-7: every round started at its scheduled time on the fake clock
    assert_rounds_on_schedule(summary["event_code"])
    # ... on the regulation's days (DA 四: 2023年8月19日至22日)
    assert_played_within(summary["event_code"], driver.config.timezone, date(2023, 8, 19), date(2023, 8, 22))

    open_pub = publication(summary, "open")
    rows = summary["sections"]["open"]["standings"]
    prizes = open_pub["prizes"]
    money: dict[str, int] = {}
    for p in prizes:
        money[p["entrant_id"]] = money.get(p["entrant_id"], 0) + p["amount_fen"]
    # the whole open table is paid out (shared places split it), by place
    assert sum(p["amount_fen"] for p in prizes if p["table"] == "Open") == sum(OPEN) * 100
    unshared = [r for r in rows if r["place"] <= 8 and not r["shared"]]
    for r in unshared:
        open_part = sum(p["amount_fen"] for p in prizes if p["entrant_id"] == r["entrant_id"] and p["table"] == "Open")
        assert open_part == OPEN[r["place"] - 1] * 100, r
    # women: ranked among women, the women's table on top of any open prize (combinable)
    women = sorted((r for r in rows if r["gender"] == "female"), key=lambda r: r["place"])
    assert women, "the field has women in the open section"
    women_prizes = [p for p in prizes if p["table"] != "Open"]
    assert women_prizes
    for rank, r in enumerate(women[:3], start=1):
        got = sum(p["amount_fen"] for p in women_prizes if p["entrant_id"] == r["entrant_id"])
        if not r["shared"]:
            assert got == OPEN_WOMEN[rank - 1] * 100, (rank, r)
    assert any(money[p["entrant_id"]] > p["amount_fen"] for p in women_prizes), "a woman got both prizes"

    # AWD-5: titles by place for the junior section (26 players: places 1-26)
    junior = publication(summary, "junior")
    titles = {t["entrant_id"]: t for t in junior["titles"]}
    jrows = summary["sections"]["junior"]["standings"]
    assert len(jrows) == 26
    for r in jrows:
        want = _title(r["place"])
        if r["shared"]:
            continue
        assert (titles.get(r["entrant_id"]) or {}).get("title") == want, r
    assert {t["title"] for t in junior["titles"]} >= {"2d", "1d", "1k", "2k"}
    # the public section (free rules, two-game rounds) pays its own table
    assert publication(summary, "public")["prizes"]
