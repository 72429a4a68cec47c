"""EVT-1..EVT-6: the four seed presets, their values, validation errors and overrides."""

from __future__ import annotations

import json
from datetime import date, datetime, timedelta, timezone

import pytest
import yaml

from gomoku_shared.event_config import (
    EventConfig,
    EventConfigError,
    apply_overrides,
    load_preset,
    parse_event_config,
)
from registration import presets

CST = timezone(timedelta(hours=8))


#: the four seed events; a preset added beside them is checked by every test over SHIPPED
SEEDS = ["sz-2022", "ny-2022", "da-2023", "nt-2023"]
SHIPPED = presets.list_presets()


def test_evt1_four_presets_ship():
    """EVT-1: the four seed events ship as presets (and any preset added beside them loads)."""
    assert set(SEEDS) <= set(presets.list_presets())
    for pid in presets.list_presets():
        assert presets.load(pid).id == pid


@pytest.mark.parametrize("pid", SHIPPED)
def test_evt1_every_played_section_has_its_rules(pid):
    """EVT-1: each played section has gender rule, age window, track, format, clock, tiebreaks, awards."""
    ev = presets.load(pid)
    for st in ev.stages:
        for s in st.sections:
            assert s.gender in ("male", "female", "mixed")
            assert s.track in ("free", "professional")
            if s.played:
                assert s.format and s.clock and s.opening
                assert set(s.format.allowed) <= set(s.tiebreaks)
                assert s.no_show_minutes == 15
                assert (s.scoring.win, s.scoring.draw, s.scoring.loss) == (2, 1, 0)  # PAIR-4


def test_evt2_sz_sections_tracks_caps_and_stages(sz):
    """EVT-2: SZ online = {men, women, junior boys, junior girls} x {free, professional}, cap 128;
    offline final <= 48 fed by the qualifier."""
    online = sz.stage("online")
    combos = {(s.gender, s.birth.born_from is not None, s.track) for s in online.sections}
    assert len(combos) == 8 and len(online.sections) == 8
    assert all(s.cap == 128 for s in online.sections)
    assert online.mode == "online" and online.entry == "registration"
    final = sz.stage("final")
    assert (final.mode, final.entry, final.fed_by, final.cap_total) == ("offline", "qualification", "online", 48)
    assert {s.track for s in final.sections} == {"professional"}
    assert final.seeded[0].per_section == 4 and final.seeded[0].substitutes == 4


@pytest.mark.parametrize(
    "section,rounds,games,clock,offers",
    [
        ("men-free", 7, 2, ("sudden_death", 900, 0), None),
        ("junior-girls-free", 7, 2, ("sudden_death", 900, 0), None),
        ("men-pro", 5, 1, ("fischer", 1800, 15), None),
        ("junior-boys-pro", 5, 1, ("fischer", 1800, 5), 2),
        ("final-men", None, 1, ("fischer", 1800, 15), None),
        ("final-junior-girls", None, 1, ("fischer", 1800, 5), 2),
    ],
)
def test_evt2_sz_formats_and_clocks(sz, section, rounds, games, clock, offers):
    """EVT-2 with PAIR-1/PAIR-5/PLAY-5: SZ rounds, two-game free rounds, clocks, fixed N."""
    s = sz.section(section)
    assert s.format.rounds == rounds and s.format.games_per_round == games
    assert (s.clock.mode, s.clock.base_s, s.clock.increment_s) == clock
    assert s.opening.fifth_move_offers == offers
    if games == 2:
        assert s.format.two_game.round_budget_s == 1800
        assert s.format.two_game.time_loss_in_game1_loses_round  # PLAY-6


def test_evt2_sz_merge_rules_and_qualification(sz):
    """EVT-2 / REG-12 / AWD-QUAL: free < 8 and pro < 6 merge with the same-age section of the
    same track; cancel <= 4; top 4 + substitutes 5-8 go to the gender's final section."""
    for sid, below, partner in [
        ("men-free", 8, "women-free"),
        ("junior-girls-free", 8, "junior-boys-free"),
        ("women-pro", 6, "men-pro"),
        ("junior-boys-pro", 6, "junior-girls-pro"),
    ]:
        cl = sz.section(sid).closing
        assert (cl.merge_below, cl.merge_with, cl.cancel_at_most) == (below, partner, 4)
    q = sz.section("junior-girls-pro").qualification
    assert (q.top, q.substitutes, q.to_section["female"]) == (4, 4, "final-junior-girls")
    assert sz.section("men-free").playoffs.policy == "arbiter_decision"  # PAIR-8: no playoffs online
    assert sz.section("final-men").playoffs.policy == "playoff"


def test_evt2_sz_registration_window_and_wildcard(sz):
    """REG-1 / REG-6: SZ 2022-10-25..10-31 (Asia/Shanghai); wildcard deadline 10-31."""
    assert sz.registration.opens_at == datetime(2022, 10, 25, tzinfo=CST)
    assert sz.registration.closes_at == datetime(2022, 11, 1, tzinfo=CST)
    opts = {o.kind: o for o in sz.clause("sz-residency").options}
    assert list(opts) == ["household", "residence_permit", "student_status", "wildcard"]
    assert opts["residence_permit"].min_consecutive_insurance_months == 12
    w = opts["wildcard"]
    assert (w.min_grade, dict(w.result_places)) == ("3k", {"city": 3, "provincial": 8, "national": 25})
    assert w.deadline == datetime(2022, 11, 1, tzinfo=CST) and w.requires_approval
    assert sz.clause("sz-final-residency").evidence == "verified"


def test_evt2_sz_team_scores_from_final(sz):
    """AWD-6 (SZ): best 2 men + 1 woman by place sum, from the final; teams top 4 or n-1."""
    t = sz.section("mixed-team")
    assert t.team_scoring.picks == {"male": 2, "female": 1} and t.team_scoring.metric == "place_sum"
    assert t.team_scoring.source_sections == ["final-men", "final-women"]
    assert t.awards.places == 4 and t.awards.fewer_entries_award_entries_minus == 1


def test_evt3_ny_sections(ny):
    """EVT-3: NY 6 individual sections {youth, junior, children} x {male, female} + 3 team sections."""
    ind = [s for s in ny.stages[0].sections if s.kind == "individual"]
    teams = [s for s in ny.stages[0].sections if s.kind == "team"]
    assert len(ind) == 6 and len(teams) == 3
    windows = {s.id: (s.birth.born_from, s.birth.born_to) for s in ind}
    assert windows["youth-male"] == (date(2002, 1, 1), date(2010, 12, 31))
    assert windows["junior-female"] == (date(2011, 1, 1), date(2013, 12, 31))
    assert windows["children-male"] == (date(2014, 1, 1), None)
    assert {s.opening.fifth_move_offers for s in ind} == {2}
    assert {(s.id, s.clock.base_s) for s in ind if s.id.startswith("children")} == {
        ("children-male", 1800),
        ("children-female", 1800),
    }
    assert ny.units.delegation_max_players == 20 and ny.units.quota_exempt_previous_top == 8
    assert ny.registration.closes_at == datetime(2022, 8, 6, tzinfo=CST)
    t = ny.section("junior-team").team
    assert (t.male_min, t.male_max, t.female_min, t.female_max) == (1, 1, 1, 1)
    assert ny.section("youth-male").playoffs.places == 3  # medals only


def test_evt4_da_sections_and_prizes(da):
    """EVT-4 / AWD-4 / AWD-5: DA 3 mixed sections; prize tables; junior titles."""
    secs = da.stages[0].sections
    assert [s.id for s in secs] == ["open", "junior", "public"] and {s.gender for s in secs} == {"mixed"}
    assert da.section("junior").birth.born_from == date(2011, 1, 1)
    assert da.section("public").format.games_per_round == 2 and da.section("public").track == "free"
    assert (da.section("open").clock.base_s, da.section("open").clock.increment_s) == (3600, 30)
    prizes = {p.id: p for s in secs for p in s.awards.prizes}
    assert prizes["open"].amounts == [10000, 6000, 5000, 4000, 4000, 4000, 4000, 3000]
    assert prizes["open-women"].combinable and prizes["open-women"].gender == "female"
    assert prizes["junior-girls"].amounts == [1500, 1000, 500, 500, 500]
    assert [t.title for t in da.section("junior").awards.titles] == ["2d", "1d", "1k", "2k", "3k", "4k", "5k", "6k"]
    assert da.registration.closes_at == datetime(2023, 8, 12, tzinfo=CST)  # 08-11 24:00
    assert all(s.format.max_rounds == 7 for s in secs)


def test_evt5_nt_team_sections(nt):
    """EVT-5 / REG-9 / PAIR-9 / AWD-3 / AWD-7: NT 3 team sections of 3 boards."""
    secs = nt.stages[0].sections
    assert [s.id for s in secs] == ["mixed-team", "junior-boys-team", "junior-girls-team"]
    assert all(s.kind == "team" and s.team.size_min == s.team.size_max == 3 and s.team.fixed_board_order for s in secs)
    assert nt.section("mixed-team").team.board_gender == {3: "female"}
    assert nt.section("junior-boys-team").birth.born_from == date(2010, 1, 1)
    assert nt.section("mixed-team").team_match.first_team_black_on_boards == [1, 3]
    assert [(b.min_entries, b.places) for b in nt.section("mixed-team").awards.places_by_field] == [
        (11, 8),
        (7, 6),
        (0, 3),
    ]
    assert nt.section("mixed-team").awards.best_board.min_participation_pct == 70
    assert nt.registration.closes_at == datetime(2023, 6, 13, 17, 0, tzinfo=CST)
    assert nt.units.extra_coaches_if_all_team_sections == 1
    assert next(
        o for o in nt.clause("nt-representation").options if o.kind == "residence_permit"
    ).permit_issued_before == date(2022, 6, 1)


def test_evt6_sz_stage_chain(sz):
    """EVT-6: every online section qualifies into a section of the final stage."""
    final_ids = {s.id for s in sz.stage("final").sections}
    for s in sz.stage("online").sections:
        assert s.qualification.to_stage == "final"
        assert set(s.qualification.to_section.values()) <= final_ids


# --------------------------------------------------------------------------- validation errors


def _sz_dict():
    return presets.load("sz-2022").model_dump(mode="json")


@pytest.mark.parametrize(
    "mutate,path,fragment",
    [
        (
            lambda d: d["stages"][0]["sections"][2]["clock"].update(increment_s=-1),
            "stages[0].sections[2].clock.increment_s",
            "greater than or equal to 0",
        ),
        (
            lambda d: d["stages"][0]["sections"][4]["clock"].update(increment_s=0),
            "stages[0].sections[4].clock",
            "increment_s must be > 0",
        ),
        (
            lambda d: d["stages"][0]["sections"][2].update(birth={"born_from": "2012-01-01", "born_to": "2010-01-01"}),
            "stages[0].sections[2].birth",
            "is after born_to",
        ),
        (
            lambda d: d["stages"][0]["sections"][1].update(id="men-free"),
            "stages[0].sections[1].id",
            "duplicate section id",
        ),
        (
            lambda d: d["stages"][0]["sections"][0]["closing"].update(merge_with="nobody"),
            "stages[0].sections[0].closing.merge_with",
            "unknown section",
        ),
        (
            lambda d: d["stages"][0]["sections"][0]["closing"].update(merge_with="men-pro"),
            "stages[0].sections[0].closing.merge_with",
            "another rule track",
        ),
        (
            lambda d: d["stages"][0]["sections"][0]["closing"].update(merge_with="junior-boys-free"),
            "stages[0].sections[0].closing.merge_with",
            "another age window",
        ),
        (
            lambda d: d["stages"][0]["sections"][1]["closing"].update(merge_with=None, merge_below=None),
            "stages[0].sections[0].closing.merge_with",
            "merging is mutual",
        ),
        (
            lambda d: d["stages"][0]["sections"][0].update(eligibility=["nope"]),
            "stages[0].sections[0].eligibility[0]",
            "unknown eligibility clause",
        ),
        (
            lambda d: d["stages"][0]["sections"][0].update(colour="red"),
            "stages[0].sections[0].colour",
            "Extra inputs are not permitted",
        ),
        (
            lambda d: d["registration"].update(opens_at="2022-11-02T00:00:00+08:00"),
            "registration.opens_at",
            "before registration.closes_at",
        ),
        (
            lambda d: d["registration"].update(closes_at="2022-11-01T00:00:00+00:00"),
            "registration.closes_at",
            "does not match timezone",
        ),
        (
            lambda d: d["stages"][0]["sections"][0].update(cap=0),
            "stages[0].sections[0].cap",
            "greater than or equal to 1",
        ),
        (lambda d: d["stages"][1].update(fed_by="nowhere"), "stages[1].fed_by", "unknown stage"),
        (
            lambda d: d["stages"][0]["sections"][0]["qualification"]["to_section"].update(male="final-x"),
            "stages[0].sections[0].qualification.to_section.male",
            "unknown section",
        ),
        (
            lambda d: d["stages"][0]["sections"][0]["tiebreaks"].update(swiss=["points", "elo"]),
            "stages[0].sections[0].tiebreaks.swiss[1]",
            "unknown individual tiebreak",
        ),
        (
            lambda d: d["stages"][1]["sections"][4]["team_scoring"].update(source_sections=["ghost"]),
            "stages[1].sections[4].team_scoring.source_sections[0]",
            "unknown section",
        ),
        (
            lambda d: d["stages"][0]["sections"][3].update(scoring=None),
            "stages[0].sections[3].scoring",
            "required for a section that plays games",
        ),
        (
            lambda d: d["stages"][0]["sections"][3].update(no_show_minutes=None),
            "stages[0].sections[3].no_show_minutes",
            "required for a section that plays games",
        ),
        (lambda d: d["changes"].pop("freeze_days"), "changes.freeze_days", "Field required"),
        (
            lambda d: d["stages"][0]["sections"][0]["format"].update(games_per_round=1),
            "stages[0].sections[0].format",
            "two_game must be given exactly when",
        ),
    ],
)
def test_evt1_validation_names_path_and_problem(mutate, path, fragment):
    """EVT-1: a wrong field is reported with its path and the problem."""
    d = _sz_dict()
    mutate(d)
    with pytest.raises(EventConfigError) as ei:
        parse_event_config(d, source="sz.yaml")
    msgs = [(i.path, i.message) for i in ei.value.issues]
    assert any(p == path and fragment in m for p, m in msgs), msgs
    assert "sz.yaml" in str(ei.value) and path in str(ei.value)


def test_evt1_prize_tables_must_not_increase(da):
    """EVT-1 / AWD-4: prize amounts by place are non-increasing where required."""
    d = da.model_dump(mode="json")
    d["stages"][0]["sections"][0]["awards"]["prizes"][0]["amounts"] = [100, 200]
    with pytest.raises(EventConfigError) as ei:
        apply_overrides(d, {}, source="da")
    assert any(i.path == "stages[0].sections[0].awards.prizes[0].amounts" for i in ei.value.issues)


def test_evt5_team_matches_need_match_points(nt):
    """EVT-5 / PAIR-9: a team-match section without match points is refused."""
    d = nt.model_dump(mode="json")
    d["stages"][0]["sections"][1]["scoring"] = {"win": 2, "draw": 1, "loss": 0}
    with pytest.raises(EventConfigError) as ei:
        parse_event_config(d)
    assert [i.path for i in ei.value.issues] == ["stages[0].sections[1].scoring"]


def test_evt1_bad_file_names_the_file(tmp_path):
    """EVT-1: a broken preset file is reported with the file name and the path."""
    data = yaml.safe_load((presets.PRESET_DIR / "nt-2023.yaml").read_text(encoding="utf-8"))
    data["stages"][0]["sections"][0]["team"]["board_gender"] = {5: "female"}
    bad = tmp_path / "nt-bad.yaml"
    bad.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(EventConfigError) as ei:
        load_preset(bad)
    assert str(bad) in str(ei.value)
    assert any(i.path == "stages[0].sections[0].team" and "outside 1..3" in i.message for i in ei.value.issues)
    (tmp_path / "broken.yaml").write_text("id: [unclosed", encoding="utf-8")
    with pytest.raises(EventConfigError, match="broken.yaml"):
        load_preset(tmp_path / "broken.yaml")


# --------------------------------------------------------------------------- overrides / fifth event


def test_evt1_overrides_merge_by_id_and_revalidate():
    """EVT-1: an event = preset + overrides (smaller caps, other dates), validated again."""
    ev = presets.load(
        "sz-2022",
        overrides={
            "id": "sz-test",
            "waiting_list": True,
            "registration": {"closes_at": "2022-10-28T12:00:00+08:00"},
            "stages": {"online": {"sections": {"men-free": {"cap": 4}}}},
        },
    )
    assert ev.id == "sz-test" and ev.waiting_list
    assert ev.section("men-free").cap == 4 and ev.section("women-free").cap == 128
    assert ev.registration.closes_at == datetime(2022, 10, 28, 12, tzinfo=CST)
    with pytest.raises(EventConfigError) as ei:
        presets.load("sz-2022", overrides={"stages": {"online": {"sections": {"men-free": {"cap": -3}}}}})
    assert "stages[0].sections[0].cap" in str(ei.value)
    with pytest.raises(EventConfigError, match="no list item with id"):
        presets.load("sz-2022", overrides={"stages": {"online": {"sections": {"ghost": {"cap": 3}}}}})


FIFTH = {
    "id": "city-open-2024",
    "name": "City Open 2024",
    "timezone": "Asia/Shanghai",
    "registration": {"opens_at": "2024-03-01T09:00:00+08:00", "closes_at": "2024-03-20T18:00:00+08:00"},
    "waiting_list": True,
    "units": {"individual_entries_allowed": True, "max_leaders": 1, "max_coaches": 2},
    "changes": {"freeze_days": 1},
    "insurance": {"required": False},
    "stages": [
        {
            "id": "main",
            "name": "Main",
            "starts_on": "2024-04-06",
            "ends_on": "2024-04-07",
            "sections": [
                {
                    "id": "open",
                    "name": "Open",
                    "gender": "mixed",
                    "track": "professional",
                    "cap": 64,
                    "format": {
                        "allowed": ["swiss", "round_robin"],
                        "choice": "by_entries",
                        "round_robin_max_entries": 8,
                        "rounds": 6,
                    },
                    "clock": {"mode": "fischer", "base_s": 1200, "increment_s": 10},
                    "opening": {
                        "rule": "designated",
                        "swap_after_three": True,
                        "fifth_move_offers": 3,
                        "forbidden_moves_for_black": True,
                        "overline_wins": False,
                    },
                    "tiebreaks": {
                        "swiss": ["points", "buchholz", "wins"],
                        "round_robin": ["points", "sonneborn_berger", "wins"],
                    },
                    "scoring": {"win": 3, "draw": 1, "loss": 0},
                    "no_show_minutes": 10,
                    "awards": {"places": 3, "prizes": [{"id": "open", "name": "Open", "amounts": [800, 500, 300]}]},
                }
            ],
        }
    ],
}


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_evt1_fifth_event_by_preset_file_only(tmp_path, suffix):
    """EVT-1: a fifth event runs from a new preset file in a directory, no code change."""
    path = tmp_path / f"city-open-2024{suffix}"
    path.write_text(json.dumps(FIFTH) if suffix == ".json" else yaml.safe_dump(FIFTH), encoding="utf-8")
    assert presets.list_presets(tmp_path) == ["city-open-2024"]
    ev = presets.load(
        "city-open-2024", directory=tmp_path, overrides={"stages": {"main": {"sections": {"open": {"cap": 16}}}}}
    )
    assert ev.section("open").cap == 16 and ev.section("open").opening.fifth_move_offers == 3
    assert ev.section("open").awards.prizes[0].amounts == [800, 500, 300]
    assert ev.section("open").scoring.win == 3 and ev.changes.freeze_days == 1
    assert ev.section("open").no_show_minutes == 10
    with pytest.raises(presets.PresetNotFound):
        presets.load("sz-2022", directory=tmp_path)


def test_evt1_preset_id_must_match_file_name(tmp_path):
    (tmp_path / "other.json").write_text(json.dumps(FIFTH), encoding="utf-8")
    with pytest.raises(EventConfigError, match="differs from the file name"):
        presets.load("other", directory=tmp_path)


@pytest.mark.parametrize("pid", SHIPPED)
def test_evt1_config_roundtrips_through_json(pid):
    """EVT-1: the config travels in `event.configured`: JSON dump and reload are identical."""
    ev = presets.load(pid)
    again = EventConfig.model_validate(json.loads(json.dumps(ev.model_dump(mode="json"))))
    assert again == ev


def test_reg17_regions_are_event_configuration_and_checked():
    """REG-17: the accepted names of a region come from the preset; a clause naming an unknown
    region, or one spelling naming two regions, is a configuration error."""
    import pytest as _pytest

    from gomoku_shared.event_config import EventConfigError, parse_event_config
    from registration import presets as _presets

    sz = _presets.load("sz-2022")
    assert sz.same_region("Shenzhen", "深汕特别合作区") and sz.same_region("Shenzhen", "深圳市")
    assert not sz.same_region("Shenzhen", "广州")
    with _pytest.raises(EventConfigError, match="unknown region"):
        _presets.load("sz-2022", {"eligibility": {"sz-residency": {"region": "Guangzhou"}}})
    data = sz.model_dump(mode="json")
    data["regions"].append({"id": "Guangzhou", "name": "Guangzhou", "aliases": ["深 圳"]})
    with _pytest.raises(EventConfigError, match="names both"):
        parse_event_config(data)
    # without configured regions (NT: units' provinces) names compare normalised
    nt = _presets.load("nt-2023")
    assert nt.regions == [] and nt.same_region("Hubei", " hubei") and not nt.same_region("Hubei", "Hunan")


@pytest.mark.parametrize(
    ("preset", "modes"),
    [
        ("sz-2022", {"online": "online", "final": "offline"}),  # SZ 五: 线上初赛, 线下决赛 (venue)
        ("ny-2022", {"main": "offline"}),  # NY 五 竞赛地点
        ("da-2023", {"main": "offline"}),  # DA 四 竞赛时间和地点
        ("nt-2023", {"main": "offline"}),  # NT 十二(五): records and live broadcast at the venue
    ],
)
def test_play9_the_presets_play_at_the_venue_where_the_seed_does(preset, modes):
    """PLAY-9: a stage played over the board is ``mode: offline`` (section.closed carries it)."""
    event = presets.load(preset)
    assert {stage.id: stage.mode for stage in event.stages} == modes


@pytest.mark.parametrize("pid", SHIPPED)
def test_evt1_every_name_a_page_shows_has_its_chinese_name(pid):
    """Issue 28: the event, each stage, section and fee item has a Chinese name (the pages are
    all Chinese by default), and the English names carry no Chinese (the English pages neither)."""
    cfg = presets.load(pid)
    named = [cfg, *cfg.stages, *(sec for st in cfg.stages for sec in st.sections), *cfg.fees.items]
    assert [n.name for n in named if not n.name_zh] == []
    assert [n.name for n in named if any("\u4e00" <= ch <= "\u9fff" for ch in n.name)] == []
    assert cfg.organiser and cfg.organiser_zh, "一 主办单位: every seed names who holds the event"


def test_evt1_venues_as_the_seeds_give_them():
    """Issue 28: the place of play (SZ 五, DA 四, NY 五); NT 三 leaves it to be announced (另行通知)."""
    assert "坪山区体育中心" in (presets.load("sz-2022").venue_zh or "")
    assert "定安县" in (presets.load("da-2023").venue_zh or "")
    assert "昌江" in (presets.load("ny-2022").venue_zh or "")
    assert presets.load("nt-2023").venue is None and presets.load("nt-2023").venue_zh is None
