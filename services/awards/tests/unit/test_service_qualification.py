"""Awards service, AWD-QUAL: `qualifiers.selected` per source section (per gender of a merged
section), ready for registration to create the next stage's entries."""

from __future__ import annotations

from awards_kit import completed, configured, ranked, row

from gomoku_shared.contracts.common import Entrant

ONLINE_TB = ["points", "buchholz", "buchholz_of_buchholz"]


async def test_awd_qual_sz_online_top4_and_substitutes_5_to_8(harness):
    """AWD-QUAL: top 4 of an online section go to the final, places 5–8 are ordered substitutes;
    the entrant's attributes (eligibility facts) travel with them."""
    await harness.send(configured("sz-2022"))
    entrants = [
        Entrant(entrant_id=f"m{i}", name=f"M{i}", gender="male", attributes={"clause": "household"})
        for i in range(1, 13)
    ]
    await harness.send(
        completed(
            "sz-2022",
            "men-free",
            ranked(12, "m", gender="male"),
            stage="online",
            entrants=entrants,
            tiebreaks=ONLINE_TB,
        )
    )
    await harness.settle()
    [sel] = harness.qualifiers()
    assert (sel.section_id, sel.target_section_id, sel.from_stage, sel.to_stage) == (
        "men-free",
        "final-men",
        "online",
        "final",
    )
    assert [q.entrant_id for q in sel.qualifiers] == ["m1", "m2", "m3", "m4"]
    assert [q.entrant_id for q in sel.substitutes] == ["m5", "m6", "m7", "m8"]
    assert sel.gender is None and sel.revision == 1
    assert sel.qualifiers[0].attributes == {"clause": "household", "cohort_rank": 1}
    # the online section awards no places of its own, and is published all the same (AWD-8)
    [pub] = harness.published("men-free")
    assert all(p["items"] == [] for p in pub.places)
    body = (await harness.client.get("/v1/events/sz-2022/qualifiers")).json()
    assert body["stages"] == [{"to_stage": "final", "entrants": 4, "cap": 48, "over_capacity": False}]
    text = (await harness.client.get("/v1/events/sz-2022/qualifiers.csv")).text
    lines = text.splitlines()
    assert lines[0] == "section_id,target_section_id,gender,role,rank,place,entrant_id,name,unit_name,complete,revision"
    assert lines[1].startswith("men-free,final-men,male,qualifier,1,1,m1,M1,") and len(lines) == 9
    assert lines[5].split(",")[3] == "substitute"


async def test_awd_qual_merged_section_selects_each_gender_separately(harness):
    """AWD-QUAL + REG-12: a merged men+women section ranks each gender separately and sends
    each to its own final section."""
    await harness.send(configured("sz-2022"))
    genders = ["male", "female"] * 6
    standings = [row(i, f"p{i}", gender=g, points=20 - i) for i, g in enumerate(genders, 1)]
    await harness.send(
        completed("sz-2022", "men-pro", standings, stage="online", rank_by_gender=True, tiebreaks=ONLINE_TB)
    )
    await harness.settle()
    by_target = {q.target_section_id: q for q in harness.qualifiers()}
    assert set(by_target) == {"final-men", "final-women"}
    men, women = by_target["final-men"], by_target["final-women"]
    assert men.gender == "male" and [q.entrant_id for q in men.qualifiers] == ["p1", "p3", "p5", "p7"]
    assert [q.entrant_id for q in men.substitutes] == ["p9", "p11"]
    assert women.gender == "female" and [q.entrant_id for q in women.qualifiers] == ["p2", "p4", "p6", "p8"]


async def test_awd_qual_tie_at_the_cut_waits_for_the_arbiter_then_is_emitted(harness):
    """PAIR-8 (SZ online, no playoffs): a shared 4th place straddling the cut is flagged and not
    emitted; the arbiter's correction (revision 2) separates them and the lists go out."""
    await harness.send(configured("sz-2022"))
    tied = ranked(10, "w", gender="female")
    tied[4] = tied[4].model_copy(update={"place": 4})  # w4 and w5 share 4th
    await harness.send(completed("sz-2022", "women-free", tied, stage="online", tiebreaks=ONLINE_TB))
    await harness.settle()
    assert harness.qualifiers() == []
    [sel] = (await harness.client.get("/v1/events/sz-2022/qualifiers")).json()["selections"]
    assert not sel["complete"] and sel["emitted_revision"] is None
    assert sel["flags"][0]["kind"] == "qualification_cut" and sel["flags"][0]["entrant_ids"] == ["w4", "w5"]

    await harness.send(
        completed(
            "sz-2022", "women-free", ranked(10, "w", gender="female"), stage="online", revision=2, tiebreaks=ONLINE_TB
        )
    )
    await harness.settle()
    [emitted] = harness.qualifiers()
    assert emitted.target_section_id == "final-women" and emitted.revision == 2
    assert [q.entrant_id for q in emitted.qualifiers] == ["w1", "w2", "w3", "w4"]


async def test_awd_qual_correction_reemits_only_when_the_lists_change(harness):
    """A correction that changes the qualifiers re-emits with the next revision; one that leaves
    them unchanged (only a tiebreak value changed) emits no new qualifiers.selected."""
    await harness.send(configured("sz-2022"))
    await harness.send(
        completed("sz-2022", "junior-boys-pro", ranked(9, "b", gender="male"), stage="online", tiebreaks=ONLINE_TB)
    )
    await harness.settle()
    same_lists = ranked(9, "b", gender="male")
    same_lists[8] = same_lists[8].model_copy(update={"tiebreaks": {"buchholz": 1}})
    await harness.send(
        completed("sz-2022", "junior-boys-pro", same_lists, stage="online", revision=2, tiebreaks=ONLINE_TB)
    )
    await harness.settle()
    assert [q.revision for q in harness.qualifiers()] == [1]
    assert [p.revision for p in harness.published("junior-boys-pro")] == [1, 2]
    swapped = ranked(9, "b", gender="male")
    swapped[3], swapped[4] = (swapped[4].model_copy(update={"place": 4}), swapped[3].model_copy(update={"place": 5}))
    await harness.send(
        completed("sz-2022", "junior-boys-pro", swapped, stage="online", revision=3, tiebreaks=ONLINE_TB)
    )
    await harness.settle()
    first, second = harness.qualifiers()
    assert second.revision == 2 and [q.entrant_id for q in second.qualifiers] == ["b1", "b2", "b3", "b5"]
    assert second.substitutes[0].entrant_id == "b4"


async def test_awd_qual_merged_section_reports_an_empty_cohort_too(harness):
    """REG-12 + AWD-QUAL: a merged section whose women all withdrew still reports the women's
    cohort (empty), so the next stage is not left waiting for it."""
    await harness.send(configured("sz-2022"))
    await harness.send(
        completed(
            "sz-2022",
            "men-free",
            ranked(7, "m", gender="male"),
            stage="online",
            rank_by_gender=True,
            tiebreaks=ONLINE_TB,
        )
    )
    await harness.settle()
    by_target = {q.target_section_id: q for q in harness.qualifiers()}
    assert len(by_target["final-men"].qualifiers) == 4
    assert by_target["final-women"].gender == "female" and by_target["final-women"].qualifiers == []
