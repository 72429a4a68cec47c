"""Issue 32: a season in the simulator. NY 2022 and DA 2023 played in one embedded platform, rated
(ADR 0012, ``ratings.rated``) and owned by one organisation, the DA juniors being NY's juniors
again (the same name, gender, birth date and ID number: one registry person). Read back over
HTTP, a shared person's record holds both events: games of both in the rating, a title from
DA (DA 九(三)), the rating list of the season's last month lists them."""

from __future__ import annotations

import io

import pytest

from gomoku_sim.bots import BotPolicy
from gomoku_sim.season import ORGANISATION, play_season, print_season, season_specs, season_summary
from gomoku_sim.stack import embedded_stack

pytestmark = pytest.mark.slow

#: NY's juniors (born 2011-2013, NY 三) fit DA's junior section (born 2011 or later)
FIELDS = {
    "ny-2022": {"junior-male": 4, "junior-female": 2},
    "da-2023": {"open": 0, "junior": 6, "public": 0},
}


async def test_issue32_a_season_accumulates_titles_and_ratings_of_shared_people(tmp_path):
    specs = season_specs(11, 3, BotPolicy(no_show_rate=0, timeout_rate=0), False, FIELDS)
    out = io.StringIO()
    async with embedded_stack(tmp_path / "data") as stack:
        drivers = await play_season(stack, specs, out)
        p = stack.platform
        org = ORGANISATION
        # every DA junior slot went to an NY junior (each event's own checks ran in driver.run)
        assert "da23: 6 of 6 players entered an earlier event" in out.getvalue()
        section = await p.get("pairing", "/v1/events/da23/sections/junior")
        ny_people = set()
        for sid in ("junior-male", "junior-female"):
            ny = await p.get("pairing", f"/v1/events/ny22/sections/{sid}")
            ny_people |= {e["registry_id"] for e in ny["entrants"]}
        da_people = {e["registry_id"] for e in section["entrants"]}
        # (an NY entry left without its fees, REG-14, entered NY but played in DA only)
        shared = sorted(da_people & ny_people)
        assert None not in da_people and len(da_people) == 6 and len(shared) >= 4
        for person in shared:
            played = await p.get("awards", f"/v1/organisations/{org}/people/{person}/events")
            events = {s["event_code"] for s in played["sections"]}
            assert events == {"ny22", "da23"}, (person, events)
            games = sum(len(s["games"]) for s in played["sections"])
            rating = await p.get("awards", f"/v1/organisations/{org}/people/{person}/rating")
            # the rating counts the rated games of both events (a forfeit would count in neither)
            assert rating["current"]["games"] == games > 3
            periods = [r["period"] for r in rating["history"]]
            assert periods[0] == "2022-08" and periods[-1] >= "2023-08"
            titles = await p.get("awards", f"/v1/organisations/{org}/people/{person}/titles")
            # DA 九(三): every place of a six-player junior section is granted a title, in August 2023
            assert [g["event_code"] for g in titles["history"]] == ["da23"]
            assert titles["current"] and str(titles["since"]).startswith("2023-08")

        summary = await season_summary(p, org)
        assert {r["person_id"] for r in summary["rows"]} >= set(shared)
        assert all(len(summary["events"][person]) == 2 for person in shared)
        printed = io.StringIO()
        print_season(summary, "http://127.0.0.1:8000", printed)
        assert f"/ratings/{org}/{summary['period']}" in printed.getvalue()
        assert len(drivers) == 2
