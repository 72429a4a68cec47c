"""Issue 32 rating-band prizes through the awards service (SQLite, the in-memory bus): an event
whose section has a "best under 1600" table (a test configuration over the DA preset: no seed
event has bands), section.completed whose entrants carry their published ratings →
awards.published pays the band's table to the best-placed players in the band, one prize each,
and its prize list says the band (the awards page's and the PDF's label)."""

from __future__ import annotations

import pytest
from awards_kit import completed, configured, ranked

from gomoku_shared.contracts.common import Entrant

pytestmark = pytest.mark.slow

#: the DA public section with an overall table and a "best under 1600" table (yuan)
BAND_PRIZES = {
    "stages": {
        "main": {
            "sections": {
                "public": {
                    "awards": {
                        "prizes": [
                            {"id": "public", "name": "Public", "name_zh": "大众组", "amounts": [5000, 4000, 3000]},
                            {
                                "id": "u1600",
                                "name": "Best under 1600",
                                "name_zh": "1600分以下最佳",
                                "amounts": [3500, 1000],
                                "band": {"under": 1600},
                            },
                        ]
                    }
                }
            }
        }
    }
}

RATINGS = {"p1": 1900, "p2": 1550, "p3": 1500, "p4": None, "p5": 1450, "p6": 1300}


async def test_issue32_band_prizes_go_to_the_best_placed_players_in_the_band(harness):
    """Issue 32 rating band, AWD-4: p2 (1550) keeps the better overall 2nd (4000 > 3500); the
    band's 1st passes to p3 (1500), who takes it (3500 > 3000) and gives up the overall 3rd to
    p4 (unrated, outside the band); the band's 2nd goes to p5. Each band line says its band."""
    await harness.send(configured("da-2023", overrides=BAND_PRIZES))
    entrants = [Entrant(entrant_id=e, name=e.upper(), published_rating=r) for e, r in RATINGS.items()]
    await harness.send(completed("da-2023", "public", ranked(6, "p"), entrants=entrants))
    await harness.settle()
    [pub] = harness.published("public")
    paid = {(p["table"], p["entrant_id"]): p["amount"] for p in pub.prizes}
    assert paid == {
        ("Public", "p1"): "5000.00",
        ("Public", "p2"): "4000.00",
        ("Public", "p4"): "3000.00",
        ("Best under 1600", "p3"): "3500.00",
        ("Best under 1600", "p5"): "1000.00",
    }
    band = [p for p in pub.prizes if p["table"] == "Best under 1600"]
    assert [(p["rank"], p["place"], p["band_under"], p["band_at_least"]) for p in band] == [
        (1, 3, 1600, None),
        (2, 5, 1600, None),
    ]
    assert band[0]["table_zh"] == "1600分以下最佳"
    assert all(p["band_under"] is None for p in pub.prizes if p["table"] == "Public")
    served = await harness.client.get("/v1/events/da-2023/sections/public/prizes")
    assert served.status_code == 200, served.text
    assert [r["band_under"] for r in served.json()["rows"] if r["table"] == "Best under 1600"] == [1600, 1600]


async def test_issue32_entrants_from_publishers_before_it_are_unrated(harness):
    """Issue 32 rating band: entrants without ``published_rating`` (producers before it) are
    unrated, outside a band that does not take unrated players: the band's table pays nobody."""
    await harness.send(configured("da-2023", overrides=BAND_PRIZES))
    await harness.send(completed("da-2023", "public", ranked(4, "p")))
    await harness.settle()
    [pub] = harness.published("public")
    assert {p["table"] for p in pub.prizes} == {"Public"}
