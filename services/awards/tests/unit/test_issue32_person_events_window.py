"""Issue 32: a history page asks awards for a window of a person's sections (``latest``, ``skip``:
the newest first), so that it reads the page's sections only; without them the whole record, as
before. SQLite."""

from __future__ import annotations

from datetime import date, timedelta

from awards.adapters.season_repository import SeasonRepository

PERSON = "/v1/organisations/default/people/R-star"


async def _season(harness, events: int) -> None:
    """R-star in ``events`` one-section events a week apart: one rated game each, 2nd place in
    the even ones."""
    async with harness.service.runtime.sessionmaker() as session:
        repo = SeasonRepository(session)
        for n in range(events):
            on = date(2023, 1, 7) + timedelta(days=7 * n)
            grants = [
                {"person_id": "R-star", "organisation": "default", "title": "1k", "place": 2, "granted_on": on}
                | {"name": "陈星"}
            ]
            game = {
                "pairing_id": "r1.b1",
                "organisation": "default",
                "round": 1,
                "first_id": f"R-{n}",
                "second_id": "R-star",
                "first_name": "王伟",
                "second_name": "陈星",
                "score": 0.0,
                "played_on": on,
            }
            await repo.replace_section(f"ev{n:02d}", "open", grants if n % 2 == 0 else [], [game])
        await session.commit()


async def test_issue32_a_persons_sections_a_window_at_a_time(harness):
    await _season(harness, 7)
    whole = (await harness.client.get(f"{PERSON}/events")).json()
    assert whole["total"] == 7 and [s["event_code"] for s in whole["sections"]] == [f"ev{n:02d}" for n in range(7)]
    page = (await harness.client.get(f"{PERSON}/events", params={"latest": 3, "skip": 2})).json()
    assert page["total"] == 7
    # the newest two skipped, the next three, given oldest first as the whole list is
    assert page["sections"] == whole["sections"][2:5]
    assert [(s["place"], s["games"][0]["score"], s["games"][0]["opponent"]) for s in page["sections"]] == [
        (2, 1.0, "王**"),
        (None, 1.0, "王**"),
        (2, 1.0, "王**"),
    ]
    past = (await harness.client.get(f"{PERSON}/events", params={"latest": 3, "skip": 7})).json()
    assert past["sections"] == [] and past["total"] == 7


async def test_issue32_a_window_out_of_bounds_is_refused_in_words(harness):
    for params in ({"latest": 0}, {"latest": 501}, {"latest": 3, "skip": -1}):
        answer = await harness.client.get(f"{PERSON}/events", params=params)
        assert answer.status_code == 422 and answer.json()["error"]["code"], params
