"""Issue 32: the pages' one lookup of current titles (``held_titles``): the registry ids of a
section's entrants and team members, read from awards in sorted slices of at most 100 (the same
people make the same reads, which the page cache keys on), each titled person's ``title`` set."""

from __future__ import annotations

from portal.held_titles import SLICE, current_titles, with_titles


class FakeAwards:
    """Awards' lookup: everyone whose id ends in an even digit holds 1d."""

    def __init__(self) -> None:
        self.reads: list[list[str]] = []

    async def optional(self, service: str, path: str, params: dict | None = None) -> dict:
        assert (service, path) == ("awards", "/v1/organisations/fed/titles")
        ids = (params or {})["people"].split(",")
        self.reads.append(ids)
        return {"people": [{"person_id": p, "title": "1d"} for p in ids if int(p[1:]) % 2 == 0]}


async def test_issue32_a_large_section_is_read_in_sorted_slices_of_at_most_100():
    awards = FakeAwards()
    ids = [f"P{n}" for n in range(250, 0, -1)]
    held = await current_titles(awards, "fed", ids + ids[:10])  # type: ignore[arg-type] # a fake upstream
    assert [len(r) for r in awards.reads] == [SLICE, SLICE, 50]
    assert sum(awards.reads, []) == sorted(set(ids))
    assert len(held) == 125 and held["P2"] == "1d" and "P1" not in held


async def test_issue32_entrants_and_team_members_get_their_title_by_registry_id():
    awards = FakeAwards()
    names = {
        "e1": {"name": "Ann", "registry_id": "P2"},
        "e2": {"name": "Bo", "registry_id": "P3"},
        "m1": {"name": "Cy", "team": "t1", "registry_id": "P4"},
        "e3": {"name": "Di"},  # entered before the registry: nobody to look up
    }
    shown = await with_titles(awards, {"organisation": "fed"}, names)  # type: ignore[arg-type] # a fake upstream
    assert {k: v.get("title") for k, v in shown.items()} == {"e1": "1d", "e2": None, "m1": "1d", "e3": None}
    assert awards.reads == [["P2", "P3", "P4"]]
    # an event without an organisation, or nobody with a registry id: no read at all
    assert await with_titles(awards, {}, names) == names
    assert await with_titles(awards, {"organisation": "fed"}, {"e3": names["e3"]}) == {"e3": names["e3"]}
    assert len(awards.reads) == 1
