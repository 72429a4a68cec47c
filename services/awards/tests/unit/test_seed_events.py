"""The four seed events expressed as configuration, run end to end through
compute_event_awards (AWD-1..AWD-8, AWD-QUAL)."""

from __future__ import annotations

from awards.domain import BoardRecord, Gender, compute_event_awards, yuan

M, F = Gender.MALE, Gender.FEMALE
UNITS = ("A", "B", "C")


def test_seed_sz_final_sections_teams_and_squad(seed, section):
    """SZ final: AWD-1 top 4, AWD-2 cancelled ≤ 4, AWD-6 teams, AWD-QUAL squad."""
    men = section([(f"m{i}", i, M, UNITS[i % 3]) for i in range(1, 13)], "men")
    women = section([(f"w{i}", i, F, UNITS[i % 3]) for i in range(1, 7)], "women")
    boys = section([(f"b{i}", i, M, "A") for i in range(1, 6)], "boys")
    girls = section([(f"g{i}", i, F, "A") for i in range(1, 5)], "girls")  # 4 → cancelled
    result = compute_event_awards({"men": men, "women": women, "boys": boys, "girls": girls}, seed.SZ_FINAL)
    by_id = {s.section_id: s for s in result.sections}
    assert by_id["girls"].cancelled and not by_id["men"].cancelled
    assert by_id["men"].entrant("m1").items == ("trophy", "medal", "certificate")
    # mixed team: A: men 3,6 + woman 3 = 12; B: 1,4 + 1 = 6; C: 2,5 + 2 = 9
    mixed = next(r for r in result.team_rankings if r.team_section_id == "mixed-team")
    assert [(t.unit_id, t.score) for t in mixed.ranked] == [("B", 6), ("C", 9), ("A", 12)]
    # 3 teams → 2 places awarded (AWD-2)
    assert [e.items for e in by_id["mixed-team"].entrants] == [("trophy", "certificate"), ("certificate",), ()]
    # junior team: girls section cancelled → no unit scored
    junior = next(r for r in result.team_rankings if r.team_section_id == "junior-team")
    assert junior.ranked == ()
    squads = {s.section_id: s for s in result.squads}
    assert set(squads) == {"men", "women", "boys"}
    assert [q.entrant_id for q in squads["men"].members] == ["m1"]


def test_seed_sz_online_qualification(seed, section, ranked_rows):
    """SZ online: AWD-QUAL per section, merged adult pro section by gender, seeded cup
    players, cap 48 reported."""
    sections = {
        f"online-free-{s}": section(ranked_rows(20, f"f{s}-"), f"online-free-{s}")
        for s in ("men", "women", "boys", "girls")
    }
    genders = [M, F] * 5
    sections["online-pro-adults"] = section(
        [(f"a{i}", i, g) for i, g in enumerate(genders, 1)], "online-pro-adults", rank_by_gender=True
    )
    result = compute_event_awards(sections, seed.SZ_ONLINE)
    stage = result.qualification
    assert stage is not None and stage.complete
    targets = sorted((s.source_section_id, s.target_section_id) for s in stage.selections)
    assert ("online-pro-adults", "men") in targets and ("online-pro-adults", "women") in targets
    # 4 free sections × 4 + merged 4 + 4 + 16 seeded = 40
    assert stage.total_entrants == 40 and not stage.over_capacity
    assert "online-pro-adults" in result.unconfigured  # awards not configured for it: no awards, still qualifies


def test_seed_ny_sections_and_teams(seed, section):
    """NY: AWD-1 top 8 per section; AWD-6 team per age band by points."""
    sections = {}
    for band in ("youth", "junior", "children"):
        sections[f"{band}-male"] = section(
            [(f"{band}m{i}", i, M, UNITS[i % 3], 14 - i) for i in range(1, 11)], f"{band}-male"
        )
        sections[f"{band}-female"] = section(
            [(f"{band}f{i}", i, F, UNITS[(i + 1) % 3], 14 - i) for i in range(1, 11)], f"{band}-female"
        )
    result = compute_event_awards(sections, seed.NY)
    youth = next(s for s in result.sections if s.section_id == "youth-male")
    assert [bool(e.items) for e in youth.entrants] == [True] * 8 + [False] * 2
    team = next(r for r in result.team_rankings if r.team_section_id == "youth-team")
    # best male/female per unit: A m3(11)+f2(12)=23, B m1(13)+f3(11)=24, C m2(12)+f1(13)=25
    assert [(t.unit_id, int(t.score)) for t in team.ranked] == [("C", 25), ("B", 24), ("A", 23)]
    team_awards = next(s for s in result.sections if s.section_id == "youth-team")
    assert team_awards.entrant("C").items == ("certificate", "trophy")


def test_seed_da_all_sections(seed, section):
    """DA: AWD-1 items, AWD-4 money incl. combinable women's prize, AWD-5 junior titles."""
    open_ = section([("o1", 1, F)] + [(f"o{i}", i, M) for i in range(2, 13)], "da-open")
    junior = section([(f"j{i}", i, F if i % 4 == 0 else M) for i in range(1, 31)], "da-junior")
    public = section([(f"u{i}", i, M) for i in range(1, 10)], "da-public")
    result = compute_event_awards({"da-open": open_, "da-junior": junior, "da-public": public}, seed.DA)
    by_id = {s.section_id: s for s in result.sections}
    assert by_id["da-open"].entrant("o1").prize_total_fen == yuan(10000 + 2000)
    j4 = by_id["da-junior"].entrant("j4")  # 4th overall, 1st girl
    assert j4.prize_total_fen == yuan(3000 + 1500) and j4.title == "1-kyu"
    assert by_id["da-junior"].entrant("j27").title is None
    assert by_id["da-public"].entrant("u9").prize_total_fen == 0
    total_public = sum(e.prize_total_fen for e in by_id["da-public"].entrants)
    assert total_public == yuan(5000 + 4000 + 3000 + 2000 * 5)


def test_seed_nt_team_sections_and_best_boards(seed, section):
    """NT: AWD-3 award count by field, AWD-7 best board per board."""
    teams = section([(f"t{i}", i) for i in range(1, 9)], "nt-mixed", kind="team")

    def record(t: int, b: int) -> BoardRecord:
        played = 4 if t == 1 else 7  # team 1's players missed 3 of 7 games
        wins = min(played, max(0, 7 - t))
        return BoardRecord(f"t{t}b{b}", f"T{t}B{b}", f"t{t}", f"Team {t}", b, played, 7, 2 * wins, wins)

    records = [record(t, b) for t in range(1, 9) for b in (1, 2, 3)]
    result = compute_event_awards({"nt-mixed": teams}, seed.NT, board_records={"nt-mixed": records})
    (mixed,) = result.sections
    assert [e.place for e in mixed.entrants if e.items] == [1, 2, 3, 4, 5, 6]  # 8 teams → top 6
    winners = [(r.board, r.winners[0].record.player_id) for r in result.best_boards]
    # team 1's players played 4/7 (57 %) → ineligible; team 2's are best
    assert winners == [(1, "t2b1"), (2, "t2b2"), (3, "t2b3")]
