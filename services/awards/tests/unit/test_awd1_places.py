"""AWD-1: places awarded per section and what each receives."""

from __future__ import annotations

import pytest

from awards.domain import (
    PlaceAwardsConfig,
    PlaceItems,
    SharedPlacePolicy,
    compute_section_awards,
    place_awards,
    yuan,
)


@pytest.mark.parametrize(
    "place, items",
    [
        (1, ("trophy", "medal", "certificate")),
        (2, ("medal", "certificate")),
        (3, ("medal", "certificate")),
        (4, ("medal", "certificate")),
        (5, ()),
        (6, ()),
    ],
)
def test_awd1_sz_final_top4(seed, section, ranked_rows, place, items):
    """AWD-1 SZ final: 1st trophy+medal+certificate, 2–4 medal+certificate, none after."""
    awards = compute_section_awards(section(ranked_rows(6), "men"), seed.SZ_FINAL.section("men"))
    assert awards.entrant(f"p{place}").items == items
    assert awards.awarded_places == 4


@pytest.mark.parametrize(
    "place, items",
    [
        *[(p, ("certificate", "medal")) for p in (1, 2, 3)],
        *[(p, ("certificate",)) for p in (4, 5, 6, 7, 8)],
        (9, ()),
        (10, ()),
    ],
)
def test_awd1_ny_top8(seed, section, ranked_rows, place, items):
    """AWD-1 NY: 1–3 medal+certificate, 4–8 certificate, none after 8."""
    awards = compute_section_awards(section(ranked_rows(10), "youth-male"), seed.NY.section("youth-male"))
    assert awards.entrant(f"p{place}").items == items


@pytest.mark.parametrize(
    "place, items, money",
    [
        (1, ("certificate", "medal"), 10000),
        (2, ("certificate", "medal"), 6000),
        (3, ("certificate", "medal"), 5000),
        (4, ("certificate",), 4000),
        (7, ("certificate",), 4000),
        (8, ("certificate",), 3000),
        (9, (), 0),
        (12, (), 0),
    ],
)
def test_awd1_da_top8_money_and_finisher_items(seed, section, ranked_rows, place, items, money):
    """AWD-1 DA: 1–3 certificate+medal+money, 4–8 certificate+money, every finisher a
    finisher's medal and commemorative certificate."""
    awards = compute_section_awards(section(ranked_rows(12), "da-open"), seed.DA_OPEN)
    entry = awards.entrant(f"p{place}")
    assert entry.items == items
    assert entry.prize_total_fen == yuan(money)
    assert entry.finisher_items == ("finisher medal", "commemorative certificate")


@pytest.mark.parametrize("require_completion, withdrawn_gets", [(True, False), (False, True)])
def test_awd1_finisher_items_for_withdrawn_entrant(seed, require_completion, withdrawn_gets):
    """AWD-1: finisher's items go to those who completed the section, or — as the DA seed
    words it (所有参赛选手) — to every participant; place items are unaffected."""
    from dataclasses import replace

    from awards.domain import SectionStandings, StandingRow

    rows = (StandingRow("a", "A", 1), StandingRow("b", "B", 2, completed=False))
    cfg = replace(seed.DA_PUBLIC, places=replace(seed.DA_ITEMS, finisher_items_require_completion=require_completion))
    awards = compute_section_awards(SectionStandings("da-public", "Public", rows), cfg)
    assert awards.entrant("a").finisher_items
    assert bool(awards.entrant("b").finisher_items) is withdrawn_gets
    assert awards.entrant("b").items == ("certificate", "medal")


CFG = PlaceAwardsConfig(by_place=(PlaceItems(1, 3, ("medal",)), PlaceItems(4, 8, ("certificate",))))


@pytest.mark.parametrize(
    "policy, expected",
    [
        (SharedPlacePolicy.SHARED_PLACE, {"a": ("medal",), "b": ("medal",), "c": ("medal",), "d": ("certificate",)}),
        (
            SharedPlacePolicy.WORST_OCCUPIED,
            {"a": ("medal",), "b": ("certificate",), "c": ("certificate",), "d": ("certificate",)},
        ),
    ],
)
def test_awd1_shared_place_policy(section, policy, expected):
    """AWD-1 Decision: a tie at 3rd (occupying 3–4) gets 3rd's items by default; the
    conservative policy gives the last occupied place's items."""
    standings = section([("a", 1), ("x", 2), ("b", 3), ("c", 3), ("d", 5)])
    cfg = PlaceAwardsConfig(CFG.by_place, shared_place_policy=policy)
    got = {p.entrant_id: p.items for p in place_awards(standings, cfg) if p.entrant_id != "x"}
    assert got == expected


def test_awd1_tie_straddling_last_awarded_place(section):
    """AWD-1: a tie at 8th of two (occupying 8–9) — both are 8th and both awarded by default,
    neither under WORST_OCCUPIED."""
    spec = [(f"p{i}", i) for i in range(1, 8)] + [("a", 8), ("b", 8), ("z", 10)]
    standings = section(spec)
    shared = {p.entrant_id: p.items for p in place_awards(standings, CFG)}
    assert shared["a"] == shared["b"] == ("certificate",) and shared["z"] == ()
    strict = PlaceAwardsConfig(CFG.by_place, shared_place_policy=SharedPlacePolicy.WORST_OCCUPIED)
    got = {p.entrant_id: p.items for p in place_awards(standings, strict)}
    assert got["a"] == got["b"] == ()
