"""SZ 2022 end to end (embedded): online qualifier -> final, with bot players over HTTP."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from datetime import date

import pytest

from .harness import (
    FAST_QUIET,
    assert_records_checked,
    assert_rounds_on_schedule,
    by_pairing,
    games_of,
    modes_by_stage,
    played_days,
    publication,
    run_embedded,
    spec,
)

SIZES = {
    "men-free": 6,
    "women-free": 4,
    "junior-boys-free": 0,
    "junior-girls-free": 0,
    "men-pro": 6,
    "women-pro": 6,
    "junior-boys-pro": 0,
    "junior-girls-pro": 0,
}


@pytest.fixture(scope="module")
def anyio_backend():
    return "asyncio"


def _pair5(a: list[str]) -> int:
    """PAIR-5 round points from one player's two game results ('W', 'D', 'L')."""
    w, d = a.count("W"), a.count("D")
    if w == 2 or (w == 1 and d == 1):
        return 2
    if (w == 1 and a.count("L") == 1) or d == 2:
        return 1
    return 0


async def test_sz_2022_online_qualifier_to_final(tmp_path):
    """REG-12 merged small section ranked by gender; PAIR-5 two-game rounds; AWD-QUAL top 4
    (+ substitutes 5-8) per section and gender into the final; REG-7 verified residency;
    AWD-6 team score from places; REG-4/5/6 refusals with their reasons."""
    summary, driver = await run_embedded(tmp_path, spec("sz-2022", 11, SIZES, policy=FAST_QUIET))
    # EVT-7: every round started at its scheduled time on the fake clock
    assert_rounds_on_schedule(summary["event_code"])
    # ... on the regulation's days (SZ 五: 线上初赛 11月5日 男子组、女子组; 线下决赛 11月13日); the
    # junior sections have no entries in this field, so nothing is played on 11-6
    online_day, final_day = {date(2022, 11, 5)}, {date(2022, 11, 13)}
    assert played_days(summary["event_code"], driver.config.timezone) == {
        "men-free": online_day,
        "men-pro": online_day,
        "women-pro": online_day,
        "final-men": final_day,
        "final-women": final_day,
    }
    # PLAY-9, SZ 五 (线上初赛 / 线下决赛): the qualifier is played online, the final over the board at the venue
    # (moves by the live recorder, results from confirmed slips)
    assert modes_by_stage(summary) == {"online": {"online"}, "final": {"offline"}}
    assert driver.venue.slips and driver.venue.recorded
    # PLAY-9: the final's records entered after each game, checked by the engine (a forbidden move flagged)
    assert_records_checked(driver.venue, summary)

    # REG-5 / REG-6: the ineligible applications were refused, naming the clause
    regs = summary["registrations"]
    assert regs["men-free-x-gender"]["status"] == "refused"
    assert regs["women-free-x-residency"]["status"] == "refused"
    # REG-18: admitted on declared residency evidence, visibly pending until the arbiter approves it
    assert all(r["status"] == "accepted_pending_evidence" for k, r in regs.items() if "-x-" not in k)
    # ... which the arbiter did before the online stage: every eligible entry is plainly accepted
    online_entries = {e["entry_id"]: e for e in summary["entries"]["online"]}
    assert all(online_entries[r["entry_id"]]["status"] == "accepted" for k, r in regs.items() if "-x-" not in k)
    # SZ 十三(一) (网上报名), issue 34: the players entering alone were entered by people on the public
    # form (no partner key), one in each section of five or more; each sent the photo of the
    # residency document the form declared (REG-6), which joined the record the arbiter approved
    by_form = {k: r for k, r in driver.registrations.items() if r.get("via") == "form"}
    assert {r["section_id"] for r in by_form.values()} == {s for s, n in SIZES.items() if n >= 5}
    assert {e for e, x in online_entries.items() if x.get("public_form")} == {r["entry_id"] for r in by_form.values()}
    for k, r in by_form.items():
        assert regs[k]["status"] == "accepted_pending_evidence", (k, r)
        document = r["document"]
        assert document["evidence_id"], (k, r)
        assert document["kind"] in ("household_registration", "residence_permit", "student_status"), (k, r)

    # REG-12: women-free (4 < 8) merged into men-free; the merged field ranks each gender apart
    online = {s["section_id"]: s for s in driver.stages[0].sections}
    assert online["women-free"]["status"] == "merged" and online["women-free"]["merged_into"] == "men-free"
    assert online["men-free"]["entrants"] == 10
    rows = summary["sections"]["men-free"]["standings"]
    by_gender = defaultdict(list)
    for r in rows:
        by_gender[r["gender"]].append(r)
    assert set(by_gender) == {"male", "female"}
    for g, rs in by_gender.items():
        assert sorted(r["gender_place"] for r in rs) == list(range(1, len(rs) + 1)), g
        # gender places follow the overall order
        assert [r["gender_place"] for r in sorted(rs, key=lambda r: r["place"])] == list(range(1, len(rs) + 1))

    # PAIR-5: every round of the free section is two games with the first move swapped, and the
    # standings' points are the sums of the PAIR-5 round points
    points = defaultdict(int)
    pairs = by_pairing(games_of(summary, "men-free"))
    assert pairs
    for key, games in pairs.items():
        assert len(games) == 2, key
        g1, g2 = games
        assert (g1["black"], g1["white"]) == (g2["white"], g2["black"]), key
        for player in (g1["black"], g1["white"]):
            res = ["D" if g["winner"] is None else ("W" if g["winner"] == player else "L") for g in games]
            points[player] += _pair5(res)
    played = {r["entrant_id"]: r for r in rows}
    for eid, r in played.items():
        byes = 3 - sum(1 for k, gs in pairs.items() if eid in (gs[0]["black"], gs[0]["white"]))
        assert r["points"] == points[eid] + 2 * byes or byes, (eid, r["points"], points[eid])
        if not byes:
            assert r["points"] == points[eid], (r["name"], r["points"], points[eid])

    # AWD-QUAL: top 4 of each gender of the merged section and of each pro section reach the final
    final_men = {r["name"] for r in summary["sections"]["final-men"]["standings"]}
    final_women = {r["name"] for r in summary["sections"]["final-women"]["standings"]}
    top_men_free = {r["name"] for r in by_gender["male"] if r["gender_place"] <= 4}
    top_women_free = {r["name"] for r in by_gender["female"] if r["gender_place"] <= 4}
    top_men_pro = {r["name"] for r in summary["sections"]["men-pro"]["standings"] if r["place"] <= 4}
    top_women_pro = {r["name"] for r in summary["sections"]["women-pro"]["standings"] if r["place"] <= 4}
    assert final_men == top_men_free | top_men_pro
    assert final_women == top_women_free | top_women_pro
    # ... and the next four of each cohort are the ordered substitutes
    subs = 0
    for sel in summary["qualifiers"]["selections"]:
        rows_of = summary["sections"][sel["section_id"]]["standings"]
        cohort = [r for r in rows_of if sel.get("gender") in (None, r["gender"])]
        rank = "gender_place" if sel.get("gender") else "place"
        expected = [r["entrant_id"] for r in sorted(cohort, key=lambda r: r[rank]) if 5 <= r[rank] <= 8]
        assert [x["entrant_id"] for x in sel.get("substitutes", [])] == expected, sel
        subs += len(expected)
    assert subs

    # the final is played under professional rules (PLAY-2) and awards places 1-4 (AWD-1)
    final_games = games_of(summary, "final-men")
    assert final_games and all(g["opening"]["code"] for g in final_games.values() if len(g["moves"]) >= 3)
    pub = publication(summary, "final-men")
    assert [p["place"] for p in pub["places"] if p["items"]] == [1, 2, 3, 4]

    # AWD-6: the mixed team score is the sum of the places of a unit's best 2 men + best woman
    team = publication(summary, "mixed-team")
    ranking = team["team_ranking"]
    assert ranking
    places = {}
    for sec, gender in (("final-men", "male"), ("final-women", "female")):
        for r in summary["sections"][sec]["standings"]:
            if r["unit"]:
                places.setdefault(r["unit"], {"male": [], "female": []})[gender].append(r["place"])
    scored = [row for row in ranking if row.get("place") is not None]
    for row in scored:
        p = places[row["unit_name"]]
        expected = sum(sorted(p["male"])[:2]) + sorted(p["female"])[0]
        assert float(row["score"]) == expected, row
    assert [row["place"] for row in scored] == sorted(row["place"] for row in scored)


# SZ 九(一): free sections play 7 rounds (merging below 8 entrants), professional sections 5
# (merging below 6); fields this small are not guaranteed those rounds whatever the results
SMALL_SIZES = {**SIZES, "men-pro": 8}


async def test_sz_2022_small_swiss_sections_play_the_regulations_rounds(tmp_path):
    """SZ 九(一), PAIR-1/PAIR-2: with the preset's rounds (no scaled-down rounds), the merged free
    section of 10 plays its 7 Swiss rounds and the professional section of 8 its 5 — every round
    paired by the service (its look-ahead), nobody meeting twice, nobody waiting for the arbiter.
    Issue 34: here the organiser switched the public form's challenge on; the people entering
    alone answer its sum."""
    run = spec("sz-2022", 12, SMALL_SIZES, policy=FAST_QUIET)
    challenge = {"registration": {"public_entries": {"open": True, "challenge": "arithmetic"}}}
    summary, driver = await run_embedded(tmp_path, replace(run, rounds=None, overrides=challenge))
    by_form = [k for k, r in driver.registrations.items() if r.get("via") == "form"]
    assert len(by_form) == 3 and all(
        summary["registrations"][k]["status"] == "accepted_pending_evidence" for k in by_form
    )
    online = {s["section_id"]: s for s in driver.stages[0].sections}
    assert (online["men-free"]["entrants"], online["men-free"]["format"], online["men-free"]["rounds"]) == (
        10,
        "swiss",
        7,
    )
    assert (online["men-pro"]["entrants"], online["men-pro"]["format"], online["men-pro"]["rounds"]) == (8, "swiss", 5)
    for section, rounds, entrants in (("men-free", 7, 10), ("men-pro", 5, 8)):
        played = defaultdict(set)  # round -> entrants on a board
        met: dict[str, list[str]] = defaultdict(list)
        for key, games in by_pairing(games_of(summary, section)).items():
            rnd = int(key.split(".")[3].lstrip("r"))
            first = games[0]
            played[rnd] |= {first["black"], first["white"]}
            met[first["black"]].append(first["white"])
            met[first["white"]].append(first["black"])
        assert sorted(played) == list(range(1, rounds + 1)), (section, sorted(played))
        # every round seats the whole field (an even field: no bye)
        assert all(len(seated) == entrants for seated in played.values()), (section, played)
        assert all(len(opponents) == len(set(opponents)) == rounds for opponents in met.values()), section
        assert len(summary["sections"][section]["standings"]) == entrants
