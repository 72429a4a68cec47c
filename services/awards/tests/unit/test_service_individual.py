"""Awards service, individual sections, end to end on SQLite + the in-memory bus:
event.configured + section.completed → awards.published (AWD-1/2/4/5, AWD-8 corrections)."""

from __future__ import annotations

import json

import pytest
from awards_kit import completed, configured, da_open, ranked, row

from gomoku_shared.contracts import encode

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def _by_entrant(pub, table=None):
    out: dict[str, list[str]] = {}
    for p in pub.prizes:
        if table is None or p["table"] == table:
            out.setdefault(p["entrant_id"], []).append(p["amount"])
    return out


async def test_awd4_da_open_prizes_woman_in_top8_gets_both_and_shared_place_split(harness):
    """AWD-4: a woman 3rd overall gets 5000 + the women's 1st prize 2000 (兼得); places 7–8 shared
    → (4000 + 3000) / 2 = 3500 each; the other women are paid by their rank among women."""
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "open", da_open()))
    await harness.settle()
    [pub] = harness.published("open")
    assert pub.revision == 1 and pub.supersedes is None and not pub.cancelled and pub.source_revision == 1
    assert pub.currency == "CNY" and pub.kind == "individual"
    prizes = _by_entrant(pub)
    assert prizes["o3"] == ["5000.00", "2000.00"]
    assert prizes["o7"] == prizes["o8"] == ["3500.00"]
    assert prizes["o10"] == ["1000.00"] and prizes["o11"] == ["1000.00"]
    assert "o9" not in prizes and "o12" not in prizes
    shared = next(p for p in pub.prizes if p["entrant_id"] == "o7")
    assert shared["shared_with"] == ["o8"] and shared["remainder_fen"] == 0
    places = {p["entrant_id"]: p for p in pub.places}
    assert places["o3"]["prize_total_fen"] == 700000
    # AWD-1: 1–3 certificate + medal, 4–8 certificate, finisher's items for all
    assert places["o1"]["items"] == ["certificate", "medal"] and places["o8"]["items"] == ["certificate"]
    assert places["o12"]["items"] == [] and places["o12"]["finisher_items"] == [
        "finisher_medal",
        "commemorative_certificate",
    ]


async def test_awd4_three_way_ties_split_and_leftover_fen_is_reported(harness):
    """AWD-4: three tied on places 2–4 of Public share 4000 + 3000 + 2000 = 3000 each; three tied
    on places 6–8 of Open share 4000 + 4000 + 3000 = 3666.66 each, 2 fen reported unpaid."""
    public = (
        [row(1, "p1", points=12)]
        + [row(2, f"p{i}", points=10) for i in (2, 3, 4)]
        + [row(i, f"p{i}", points=14 - i) for i in range(5, 10)]
    )
    open_ = (
        [row(i, f"o{i}", points=20 - i, gender="male") for i in range(1, 6)]
        + [row(6, f"o{i}", points=10, gender="male") for i in (6, 7, 8)]
        + [row(9, "o9", points=5, gender="male")]
    )
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "public", public))
    await harness.send(completed("da-2023", "open", open_))
    await harness.settle()
    [pub] = harness.published("public")
    prizes = _by_entrant(pub)
    assert prizes["p2"] == prizes["p3"] == prizes["p4"] == ["3000.00"]
    assert prizes["p5"] == ["2000.00"] and prizes["p8"] == ["2000.00"] and "p9" not in prizes
    [pub] = harness.published("open")
    lines = [p for p in pub.prizes if p["entrant_id"] in ("o6", "o7", "o8")]
    assert {(p["amount"], p["remainder_fen"]) for p in lines} == {("3666.66", 2)} and len(lines) == 3
    assert "o9" not in _by_entrant(pub)


async def test_awd5_da_junior_titles_not_carried_down(harness):
    """AWD-5: titles by place 1–26, none beyond; a shared 2nd place gives both 1-dan and
    3rd place's title is not carried down to 4th."""
    standings = ranked(30, "j")
    standings[2] = standings[2].model_copy(update={"place": 2})  # j2 and j3 share 2nd
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "junior", standings))
    await harness.settle()
    [pub] = harness.published("junior")
    titles = {t["entrant_id"]: t["title"] for t in pub.titles}
    assert titles["j1"] == "2d" and titles["j2"] == titles["j3"] == "1d" and titles["j4"] == "1k"
    assert titles["j26"] == "6k" and "j27" not in titles and len(titles) == 26


async def test_section_completed_before_event_configured_is_kept_and_published_later(harness):
    """No ordering across producers: the results wait for the configuration, nothing is lost."""
    await harness.send(completed("da-2023", "open", da_open()))
    await harness.settle()
    assert harness.published() == []
    r = await harness.client.get("/v1/events/da-2023/sections/open/awards")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_published"
    await harness.send(configured("da-2023"))
    await harness.settle()
    [pub] = harness.published("open")
    assert _by_entrant(pub)["o3"] == ["5000.00", "2000.00"]


async def test_awd8_correction_republishes_and_keeps_the_superseded_publication(harness):
    """AWD-8: revision 2 of section.completed recomputes; the new publication supersedes 1,
    which stays visible marked superseded."""
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "open", da_open()))
    await harness.settle()
    corrected = da_open()
    # the arbiter's correction: o8 alone on 7th, o7 drops to 8th
    corrected[6] = corrected[6].model_copy(update={"place": 8, "entrant_id": "o7", "name": "O7"})
    corrected[7] = corrected[7].model_copy(update={"place": 7, "entrant_id": "o8", "name": "O8"})
    corrected[6], corrected[7] = corrected[7], corrected[6]
    await harness.send(completed("da-2023", "open", corrected, revision=2))
    await harness.settle()
    first, second = harness.published("open")
    assert (second.revision, second.supersedes, second.source_revision) == (2, 1, 2)
    assert _by_entrant(second)["o8"] == ["4000.00"] and _by_entrant(second)["o7"] == ["3000.00"]
    history = (await harness.client.get("/v1/events/da-2023/sections/open/publications")).json()["publications"]
    assert [
        (p["publication"]["revision"], p["publication"]["superseded"], p["publication"]["superseded_by"])
        for p in history
    ] == [(1, True, 2), (2, False, None)]
    old = (await harness.client.get("/v1/events/da-2023/sections/open/prizes?revision=1")).json()
    assert old["publication"]["superseded"] and {r["amount"] for r in old["rows"] if r["entrant_id"] == "o7"} == {
        "3500.00"
    }
    current = (await harness.client.get("/v1/events/da-2023/sections/open/prizes")).json()
    assert current["publication"]["revision"] == 2


async def test_redelivery_repeat_and_stale_revision_change_nothing(harness):
    """Inbox: the same event twice is one effect; the same revision under a new event id, or an
    older revision after a newer one, publishes nothing."""
    await harness.send(configured("da-2023"))
    env = await harness.send(completed("da-2023", "open", da_open(), revision=2))
    await harness.settle()
    await harness.bus.publish([encode(env)])  # redelivery: same event id
    await harness.send(completed("da-2023", "open", da_open(), revision=2))  # identical republish
    await harness.send(completed("da-2023", "open", ranked(12, "x"), revision=1))  # stale
    await harness.send(configured("da-2023"))  # the same configuration again
    await harness.settle()
    assert [p.revision for p in harness.published("open")] == [1]
    history = (await harness.client.get("/v1/events/da-2023/publications")).json()["publications"]
    assert len(history) == 1 and history[0]["payload"]["source_revision"] == 2


async def test_awd2_sz_final_section_with_4_players_is_cancelled(harness):
    """AWD-2: a SZ final section with ≤ 4 players awards nothing; 5 players award places 1–4."""
    await harness.send(configured("sz-2022"))
    await harness.send(completed("sz-2022", "final-women", ranked(4, "w", gender="female"), stage="final"))
    await harness.send(completed("sz-2022", "final-men", ranked(5, "m", gender="male"), stage="final"))
    await harness.settle()
    [women] = harness.published("final-women")
    assert women.cancelled and women.places == [] and women.prizes == []
    [men] = harness.published("final-men")
    assert not men.cancelled
    assert [p["items"] for p in men.places] == [["trophy", "medal", "certificate"]] + [["medal", "certificate"]] * 3 + [
        []
    ]
    # AWD-QUAL squad: champion member, places 2–4 substitutes
    assert [(s["role"], s["entrant_id"]) for s in men.squad] == [
        ("member", "m1"),
        ("substitute", "m2"),
        ("substitute", "m3"),
        ("substitute", "m4"),
    ]


async def test_same_inputs_give_byte_identical_publications(make_harness):
    """Determinism: two services fed the same events publish the same bytes (ids included)."""
    bodies = []
    for name in ("one", "two"):
        h = await make_harness(name)
        corrected = da_open()
        corrected[-1] = corrected[-1].model_copy(update={"name": "Corrected name"})
        for payload in (
            completed("da-2023", "open", da_open()),
            configured("da-2023"),
            completed("da-2023", "open", corrected, revision=2),
        ):
            await h.send(payload)
            await h.settle()
        bodies.append([(m.message_id, json.dumps(json.loads(m.body)["payload"], sort_keys=True)) for m in h.messages])
    assert bodies[0] == bodies[1] and len(bodies[0]) == 2


async def test_awd8_changed_configuration_recomputes_and_republishes(harness):
    """A new event.configured (the organiser changed the Public prize table) recomputes every
    received section; only a changed section is republished."""
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "public", ranked(10, "p")))
    await harness.send(completed("da-2023", "open", da_open()))
    await harness.settle()
    table = [{"id": "public", "name": "Public", "amounts": [6000, 4000, 3000, 2000, 2000, 2000, 2000, 2000]}]
    await harness.send(
        configured("da-2023", overrides={"stages": {"main": {"sections": {"public": {"awards": {"prizes": table}}}}}})
    )
    await harness.settle()
    assert [p.revision for p in harness.published("open")] == [1]
    first, second = harness.published("public")
    assert (second.revision, second.supersedes) == (2, 1)
    assert _by_entrant(second)["p1"] == ["6000.00"] and _by_entrant(first)["p1"] == ["5000.00"]


async def test_a_configuration_the_awards_cannot_apply_is_dead_lettered_not_half_applied(harness):
    """Refused mapping (titles carried down): the handler fails, nothing commits, the bus
    redelivers and finally dead-letters the event."""
    await harness.send(
        configured(
            "da-2023", overrides={"stages": {"main": {"sections": {"junior": {"awards": {"titles_carry_down": True}}}}}}
        )
    )
    await harness.settle()
    assert len(await harness.bus.dead_letters("awards")) == 1
    assert (await harness.client.get("/v1/events/da-2023")).status_code == 404


async def test_awd4_da_prize_lines_carry_the_tables_chinese_names(harness):
    """AWD-4, DA 九(四): each prize line names its table in Chinese as the regulation does
    (公开组, 公开组（女子）), for the pages' prize table."""
    await harness.send(configured("da-2023"))
    await harness.send(completed("da-2023", "open", da_open()))
    await harness.settle()
    [pub] = harness.published("open")
    names = {(p["table"], p["table_zh"]) for p in pub.prizes}
    assert names == {("Open", "公开组"), ("Open (women)", "公开组（女子）")}
