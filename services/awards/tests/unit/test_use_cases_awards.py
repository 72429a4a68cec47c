"""Awards' use cases on the in-memory unit of work (``awards_fakes``): the commands run through
``handlers.handle`` unchanged, no database, in milliseconds."""

from __future__ import annotations

import pytest
from awards_fakes import FakeUnitOfWork
from awards_kit import completed, configured, ranked

from awards.service_layer.commands import CompleteSection, ConfigureEvent, SetTitleLadder
from gomoku_shared.auth import Principal
from gomoku_shared.contracts.common import Entrant
from gomoku_shared.contracts.events import GameResult, StandingRow
from gomoku_shared.errors import ServiceError

REGISTRY = {f"x{i}": f"R{i}" for i in range(1, 5)}


def placed(order: list[str], n: int = 28) -> list[StandingRow]:
    """A junior section of ``n`` where ``order`` names who took places 1, 2, …"""
    rows = ranked(n, "x")
    ids = order + [r.entrant_id for r in rows if r.entrant_id not in order][: n - len(order)]
    return [r.model_copy(update={"entrant_id": e, "name": e.upper()}) for r, e in zip(rows, ids)]


def junior(order: list[str], revision: int = 1, games: tuple[GameResult, ...] = ()) -> CompleteSection:
    standings = placed(order)
    people = [Entrant(entrant_id=r.entrant_id, name=r.name, registry_id=REGISTRY.get(r.entrant_id)) for r in standings]
    payload = completed("da-2023", "junior", standings, revision=revision, name="Junior")
    return CompleteSection(payload.model_copy(update={"entrants": people, "games": list(games)}))


def game(rnd: int, board: int, first: str, second: str, outcome: str) -> GameResult:
    return GameResult(round=rnd, pairing_id=f"r{rnd}.b{board}", first=first, second=second, outcome=outcome)


async def test_awd8_a_section_completed_before_its_configuration_is_published_once_configured():
    """AWD-8: section.completed without a configuration is stored and waits; event.configured
    publishes it (revision 1, superseding nothing) with the places as completed."""
    uow = FakeUnitOfWork()
    await uow.handle(junior(["x1", "x2", "x3"]))
    assert uow.payloads("awards.published") == []
    await uow.handle(ConfigureEvent(configured("da-2023")))
    (published,) = [p for p in uow.payloads("awards.published") if p.section_id == "junior"]
    assert (published.revision, published.supersedes) == (1, None)
    assert [p["entrant_id"] for p in published.places[:3]] == ["x1", "x2", "x3"]


async def test_awd8_a_correction_publishes_a_new_revision_superseding_the_last_and_a_repeat_nothing():
    """AWD-8: a corrected section (revision 2, other places) is published again as revision 2,
    ``supersedes`` 1, the previous kept and marked superseded; the same message again changes nothing."""
    uow = FakeUnitOfWork()
    await uow.handle(ConfigureEvent(configured("da-2023")))
    await uow.handle(junior(["x1", "x2", "x3"]))
    await uow.handle(junior(["x2", "x1", "x3"], revision=2))
    await uow.handle(junior(["x2", "x1", "x3"], revision=2))
    first, second = uow.payloads("awards.published")
    assert (second.revision, second.supersedes) == (2, 1)
    assert second.places[0]["entrant_id"] == "x2" and first.places[0]["entrant_id"] == "x1"
    chain = uow.awards.publications[("da-2023", "junior")]
    assert [(p.revision, p.superseded) for p in chain] == [(1, True), (2, False)]


async def test_issue32_the_title_ladder_is_the_organisations_and_ranks_the_grants_kept():
    """Issue 32: the operator's key sets an organisation's ladder; staff without ``people.manage``
    in it are refused (``people_not_yours``) and the ladder stays."""
    uow = FakeUnitOfWork()
    ladder = await uow.handle(SetTitleLadder(Principal("operator"), "default", ["novice", "expert", "master"]))
    assert ladder.order == ("novice", "expert", "master")
    assert uow.season.ladders == {"default": ["novice", "expert", "master"]}
    with pytest.raises(ServiceError) as refused:
        await uow.handle(SetTitleLadder(Principal("arbiter", key_id="k", organisation="other"), "default", ["a"]))
    assert refused.value.code == "people_not_yours"
    assert uow.season.ladders["default"] == ["novice", "expert", "master"]


async def test_issue32_a_rated_sections_games_recompute_the_lists_and_publish_the_latest():
    """ADR 0012: a rated event's games between registry people make the organisation's lists
    (the latest published as ratings.published); a correction without games empties them."""
    uow = FakeUnitOfWork()
    await uow.handle(ConfigureEvent(configured("da-2023", overrides={"ratings": {"rated": True}})))
    games = (
        game(1, 1, "x1", "x2", "first_wins"),
        game(1, 2, "x3", "x4", "draw"),
        game(2, 1, "x1", "x3", "second_wins"),
    )
    await uow.handle(junior(["x1", "x2", "x3", "x4"], games=games))
    (published,) = uow.payloads("ratings.published")
    assert published.period == "2023-08" and {p.registry_id for p in published.people} == set(REGISTRY.values())
    assert max(published.people, key=lambda p: p.rating).registry_id == "R3"  # beat x1, drew x4
    assert {r["person_id"] for r in uow.season.lists["default"]} == set(REGISTRY.values())
    await uow.handle(junior(["x1", "x2", "x3", "x4"], revision=2))
    assert uow.payloads("ratings.published")[-1].people == [] and uow.season.lists["default"] == []
