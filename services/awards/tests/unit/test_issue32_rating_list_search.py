"""Issue 32: a search of the rating list by the first character of a name (the portal's public
search: masked names keep that character only) is answered by awards with the rows found only,
each with its rank in the whole list, and how many the whole list has; without ``initial`` the
whole list, ranks 1, 2, … SQLite."""

from __future__ import annotations

from datetime import date

from awards.adapters.season_repository import SeasonRepository, ranked

LIST = "/v1/organisations/default/ratings/2023-08"
PEOPLE = [("R1", "陈星", 1800.0), ("R2", "王伟", 1700.0), ("R3", "陈明", 1600.0), ("R4", "Chen Li", 1500.0)]


async def _list(harness) -> None:
    async with harness.service.runtime.sessionmaker() as session:
        row = {"period": "2023-08", "rd": 80.0, "volatility": 0.06, "games": 12, "provisional": False}
        rows = [{**row, "person_id": p, "name": n, "rating": r} for p, n, r in PEOPLE]
        repo = SeasonRepository(session)
        await repo.replace_lists("default", rows)
        grant = {"person_id": "R3", "organisation": "default", "title": "1d", "place": 1, "name": "陈明"}
        await repo.replace_section("ev1", "open", [{**grant, "granted_on": date(2023, 8, 20)}], [])
        await session.commit()


async def test_issue32_a_search_of_the_list_answers_the_rows_found_with_their_ranks(harness):
    await _list(harness)
    whole = (await harness.client.get(LIST)).json()
    assert [(r["rank"], r["name"]) for r in whole["rows"]] == [(1, "陈**"), (2, "王**"), (3, "陈**"), (4, "C**")]
    assert whole["listed"] == 4
    found = (await harness.client.get(LIST, params={"initial": "陈"})).json()
    assert [(r["rank"], r["person_id"]) for r in found["rows"]] == [(1, "R1"), (3, "R3")] and found["listed"] == 4
    assert [r["title"] for r in found["rows"]] == [None, "1d"] == [r["title"] for r in whole["rows"][::2]]
    latin = (await harness.client.get(LIST, params={"initial": "c"})).json()
    assert [r["person_id"] for r in latin["rows"]] == ["R4"]  # case aside
    none = (await harness.client.get(LIST, params={"initial": "李"})).json()
    assert none["rows"] == [] and none["listed"] == 4 and none["periods"] == ["2023-08"]
    csv = (await harness.client.get(f"{LIST}.csv")).text.splitlines()
    assert csv[0].startswith("rank,period,person_id,name,") and csv[1].startswith("1,2023-08,R1,")


async def test_issue32_a_search_is_one_character(harness):
    for initial in ("", "陈星"):
        answer = await harness.client.get(LIST, params={"initial": initial})
        assert answer.status_code == 422 and answer.json()["error"]["code"], initial


async def test_issue32_each_row_keeps_its_rank_and_initial_so_a_search_reads_the_rows_found_only(harness):
    """The place and the initial are stored when the list is computed (migration 0010): the
    repository's search returns the matching rows only, by place, and the list's length is its
    last place — no read of the whole list, however long (bench.history_page)."""
    await _list(harness)
    async with harness.service.runtime.sessionmaker() as session:
        repo = SeasonRepository(session)
        found = await repo.rating_list("default", "2023-08", "陈")
        assert [(r.rank, r.person_id, r.initial) for r in found] == [(1, "R1", "陈"), (3, "R3", "陈")]
        assert [r.person_id for r in await repo.rating_list("default", "2023-08", "C")] == ["R4"]
        assert await repo.list_length("default", "2023-08") == 4
        assert await repo.list_length("default", "2023-09") == 0


def test_issue32_ranks_are_per_period_highest_rating_first_person_id_on_a_tie():
    row = {"rd": 80.0, "volatility": 0.06, "games": 3, "provisional": False}
    rows = [
        {**row, "period": "2023-09", "person_id": "B", "name": " li", "rating": 1600.0},
        {**row, "period": "2023-08", "person_id": "B", "name": "Li", "rating": 1500.0},
        {**row, "period": "2023-08", "person_id": "A", "name": "王", "rating": 1500.0},
        {**row, "period": "2023-08", "person_id": "C", "name": "陈", "rating": 1700.0},
    ]
    placed = {(r["period"], r["person_id"]): (r["rank"], r["initial"]) for r in ranked(rows)}
    assert placed == {
        ("2023-08", "C"): (1, "陈"),
        ("2023-08", "A"): (2, "王"),
        ("2023-08", "B"): (3, "l"),
        ("2023-09", "B"): (1, "l"),
    }
