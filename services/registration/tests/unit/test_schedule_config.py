"""EVT-7: the schedule in the four presets (every date from its seed clause) and its validation."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

import pytest

from gomoku_shared.event_config import EventConfigError, parse_event_config
from registration import presets

CST = timezone(timedelta(hours=8))


def cst(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=CST)


# (preset, stage, first day, last day, seed clause)
STAGE_DATES = [
    ("sz-2022", "online", date(2022, 11, 5), date(2022, 11, 6), "SZ 五 线上初赛日期 11月5日 / 11月6日"),
    ("sz-2022", "final", date(2022, 11, 13), date(2022, 11, 13), "SZ 五 线下决赛日期 2022年11月13日"),
    ("ny-2022", "main", date(2022, 8, 10), date(2022, 8, 14), "NY 四 竞赛时间 2022年8月10-14日"),
    ("da-2023", "main", date(2023, 8, 19), date(2023, 8, 22), "DA 四 时间 2023年8月19日至22日"),
    ("nt-2023", "main", date(2023, 6, 22), date(2023, 6, 24), "NT 时间 2023年6月22日至24日"),
]


@pytest.mark.parametrize("pid,stage,first,last,clause", STAGE_DATES)
def test_evt7_stage_dates_from_the_seed(pid, stage, first, last, clause):
    """EVT-7: each stage's days are the seed's (clause in the case)."""
    config = presets.load(pid)
    assert (config.stage(stage).starts_on, config.stage(stage).ends_on) == (first, last), clause
    schedule = config.schedule.of_stage(stage)
    assert schedule is not None and schedule.slots, clause
    days = {slot.starts_at.astimezone(CST).date() for slot in schedule.slots}
    assert min(days) >= first and max(days) <= last, clause


# (section, day its rounds are played on, seed clause)
SZ_ONLINE_DAYS = [
    ("men-free", date(2022, 11, 5), "SZ 五 线上初赛日期 2022年11月5日（男子组、女子组）"),
    ("women-free", date(2022, 11, 5), "SZ 五 (男子组、女子组)"),
    ("men-pro", date(2022, 11, 5), "SZ 五 (男子组、女子组)"),
    ("women-pro", date(2022, 11, 5), "SZ 五 (男子组、女子组)"),
    ("junior-boys-free", date(2022, 11, 6), "SZ 五 线上初赛日期 2022年11月6日（男子少年组、女子少年组）"),
    ("junior-girls-free", date(2022, 11, 6), "SZ 五 (男子少年组、女子少年组)"),
    ("junior-boys-pro", date(2022, 11, 6), "SZ 五 (男子少年组、女子少年组)"),
    ("junior-girls-pro", date(2022, 11, 6), "SZ 五 (男子少年组、女子少年组)"),
]


@pytest.mark.parametrize("section,day,clause", SZ_ONLINE_DAYS)
def test_evt7_sz_online_sections_play_on_their_day(section, day, clause):
    """EVT-7, SZ 五: men's and women's sections on 11-5, junior sections on 11-6; every round
    (七 (一): 7 free / 5 professional) has a start time on that day."""
    config = presets.load("sz-2022")
    starts = config.schedule.round_starts("online", section)
    assert len(starts) == config.section(section).format.rounds, clause
    assert {s.astimezone(CST).date() for s in starts} == {day}, clause
    assert starts == sorted(starts)


def test_evt7_sz_registration_window():
    """EVT-7, SZ 五 比赛报名日期 2022年10月25日-10月31日 (closes_at exclusive: 11-01 00:00)."""
    config = presets.load("sz-2022")
    assert config.registration.opens_at == cst(2022, 10, 25)
    assert config.registration.closes_at == cst(2022, 11, 1)


# (preset, arrival deadline, technical meeting, seed clause)
ARRIVALS = [
    (
        "da-2023",
        cst(2023, 8, 18, 19),
        cst(2023, 8, 18, 20),
        "DA 十(二)1 报到时间：8月18日19:00前。赛前技术会 8月18日20:00",
    ),
    (
        "nt-2023",
        cst(2023, 6, 21, 18),
        cst(2023, 6, 21, 19),
        "NT 十(二) 报到时间：6月21日18:00前。赛前技术会 6月21日19:00",
    ),
    ("ny-2022", None, None, "NY: the seed names neither"),
    ("sz-2022", None, None, "SZ: the seed names neither"),
]


@pytest.mark.parametrize("pid,arrival,meeting,clause", ARRIVALS)
def test_evt7_arrival_and_technical_meeting(pid, arrival, meeting, clause):
    config = presets.load(pid)
    stage = config.schedule.stages[0]
    assert (stage.arrival_by, stage.technical_meeting_at) == (arrival, meeting), clause
    if arrival is not None:
        assert config.check_in.deadline == arrival, clause


@pytest.mark.parametrize("pid", ["sz-2022", "ny-2022", "da-2023", "nt-2023"])
def test_evt7_every_played_section_fully_scheduled(pid):
    """EVT-7: every played section has a start time for each of its (maximum) rounds; the
    sections of one slot share it (they start together)."""
    config = presets.load(pid)
    for stage in config.stages:
        for section in stage.sections:
            if not section.played:
                assert config.schedule.round_starts(stage.id, section.id) == []
                continue
            starts = config.schedule.round_starts(stage.id, section.id)
            needed = section.format.max_rounds or section.format.rounds or 7
            assert len(starts) == needed, (pid, section.id)


def _sz() -> dict:
    return presets.load("sz-2022").model_dump(mode="json")


def _slots(d: dict) -> list[dict]:
    return d["schedule"]["stages"][0]["slots"]


@pytest.mark.parametrize(
    "mutate,path,fragment",
    [
        (
            lambda d: _slots(d)[0].update(starts_at="2022-11-05T09:00:00"),
            "schedule.stages[0].slots[0].starts_at",
            "needs a UTC offset",
        ),
        (
            lambda d: _slots(d)[0].update(starts_at="2022-11-05T09:00:00+00:00"),
            "schedule.stages[0].slots[0].starts_at",
            "does not match timezone",
        ),
        (
            lambda d: _slots(d)[1].update(starts_at="2022-11-05T08:00:00+08:00"),
            "schedule.stages[0].slots",
            "rounds do not start in order",
        ),
        (
            lambda d: _slots(d)[0].update(starts_at="2022-11-04T09:00:00+08:00"),
            "schedule.stages[0].slots[0].starts_at",
            "outside men-free's days",
        ),
        (
            # juniors play on 11-6 (SZ 五): their round cannot be on 11-5
            lambda d: _slots(d)[7].update(starts_at="2022-11-05T08:00:00+08:00"),
            "schedule.stages[0].slots[7].starts_at",
            "outside junior-boys-free's days",
        ),
        (
            lambda d: _slots(d).pop(6),
            "schedule.stages[0].slots",
            "men-free: 6 rounds scheduled of 7 (all or none)",
        ),
        (
            lambda d: _slots(d).pop(2),
            "schedule.stages[0].slots",
            "are not 1..",
        ),
        (
            lambda d: _slots(d)[0]["sections"].append("ghost"),
            "schedule.stages[0].slots[0].sections",
            "unknown section 'ghost'",
        ),
        (
            lambda d: d["schedule"]["stages"][1]["slots"][0]["sections"].append("mixed-team"),
            "schedule.stages[1].slots[0].sections",
            "plays no games of its own",
        ),
        (
            lambda d: d["schedule"]["stages"][1].update(stage="semi"),
            "schedule.stages[1].stage",
            "unknown stage",
        ),
        (
            lambda d: d["schedule"]["stages"][0].update(technical_meeting_at="2022-11-05T10:00:00+08:00"),
            "schedule.stages[0].technical_meeting_at",
            "must be before the first round",
        ),
    ],
)
def test_evt7_schedule_validation_names_path_and_problem(mutate, path, fragment):
    """EVT-7: offsets per the conventions, rounds in order, days within the section's dates,
    every round of a section scheduled or none."""
    d = _sz()
    mutate(d)
    with pytest.raises(EventConfigError) as caught:
        parse_event_config(d, source="sz.yaml")
    messages = [(issue.path, issue.message) for issue in caught.value.issues]
    assert any(p == path and fragment in m for p, m in messages), messages


def test_evt7_arrival_must_match_the_check_in_deadline():
    d = presets.load("da-2023").model_dump(mode="json")
    d["schedule"]["stages"][0]["arrival_by"] = "2023-08-18T18:00:00+08:00"
    with pytest.raises(EventConfigError, match="differs from check_in.deadline"):
        parse_event_config(d)


def test_evt7_a_section_may_be_unscheduled():
    """EVT-7: none is allowed — a stage without a schedule starts rounds when they are paired."""
    d = _sz()
    d["schedule"] = {"stages": []}
    config = parse_event_config(d)
    assert config.schedule.round_starts("online", "men-free") == []
