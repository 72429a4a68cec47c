"""REG-16 delegations and staff (NY 七(一)(三); NT 六(六), 十(一)4) and REG-11 attendance at the
close, table-driven with the seed clauses."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

import pytest
from registration_kit import CST, OP, P1, application, cst, harness, person, player

from gomoku_shared.event_config import EventConfig
from registration import presets
from registration.domain import (
    Decision,
    Entry,
    EntryStatus,
    EventRegistration,
    ListedPlayer,
    PreviousTop,
    Unit,
    Verdict,
)
from registration.domain.checkin import settle_attendance, undecided
from registration.domain.delegations import claims_judged_again, quota_exemptions, units_without_leader

LIST = [
    {"ref": "2021/junior-male/3", "name": "Wang Xiaoming", "place": 3},
    {"ref": "2021/junior-female/8", "name": "Li Hong", "place": 8},
]


def ny_with_list() -> EventConfig:
    ny = presets.load("ny-2022")
    return EventConfig.model_validate(
        {**ny.model_dump(), "units": {**ny.units.model_dump(), "quota_exempt_list": LIST}}
    )


#: (the event keeps the list, the player's name, the quoted ref, exempt, clause)
EXEMPTIONS = [
    (False, "Anyone", "2021 junior girls place 3", False, "NY 七(三): no list: a claim is never taken on trust"),
    (True, "Wang Xiaoming", "2021/junior-male/3", True, "NY 七(三): on the published top-8 list"),
    (True, "ＷＡＮＧ xiaoming", "2021/junior-male/3", True, "NY 七(三): the name as written (width, case)"),
    (True, "Zhang San", "2021/junior-male/3", False, "NY 七(三): someone else's place"),
    (True, "Wang Xiaoming", "2021/junior-male/9", False, "NY 七(三): not on the list"),
]


@pytest.mark.parametrize(("kept", "name", "ref", "exempt", "clause"), EXEMPTIONS)
def test_reg16_ny_quota_exemption_against_the_list(kept, name, ref, exempt, clause):
    event = ny_with_list() if kept else presets.load("ny-2022")
    star = person("male", date(2012, 1, 1), name=name)
    app = application("junior-male", star, at=cst(2022, 8, 1), quota_exempt={star.id: ref})
    got, decisions = quota_exemptions(event.units, app, [star])
    assert (star.id in got) == exempt, clause
    assert [d.rule for d in decisions] == ["REG-16"] and decisions[0].outcome is Verdict.ADMITTED
    counted = "units/quota_exempt_unlisted" if kept else "units/quota_exempt_no_list"
    assert decisions[0].clause == ("units/quota_exempt" if exempt else counted)


LOADED = PreviousTop(
    "2021",
    (
        ListedPlayer("junior-male", 3, "Wang Xiaoming", date(2012, 1, 1), "key-1111"),
        ListedPlayer("children-female", 8, "Li Hong", date(2014, 2, 2)),
        ListedPlayer("junior-male", 9, "Zhao Jiu", date(2012, 3, 3), "key-9999"),
    ),
)

#: (the player's name, birth date, their ID number's keyed index, exempt, the reason's words, clause)
LOADED_CLAIMS = [
    ("Wang Xiaoming", date(2012, 1, 1), "key-1111", True, "place 3 in 2021's junior-male",
     "NY 七(三): on the loaded list by the ID number"),
    ("王小明", date(2011, 5, 5), "key-1111", True, "place 3 in 2021's junior-male",
     "NY 七(三): the ID number decides, not the name as typed"),
    ("Wang Xiaoming", date(2012, 1, 1), "key-2222", False, "not on the list of 2021's top 8",
     "NY 七(三): the same name with another ID number is someone else"),
    ("LI hong", date(2014, 2, 2), None, True, "place 8 in 2021's children-female",
     "NY 七(三): a line without an ID number: the name as written and the birth date"),
    ("Li Hong", date(2014, 2, 3), None, False, "not on the list of 2021's top 8",
     "NY 七(三): the name with another birth date is not on the list"),
    ("Zhao Jiu", date(2012, 3, 3), "key-9999", False, "not on the list of 2021's top 8",
     "NY 七(三): a claimed 9th place is outside the top 8"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "born", "key", "exempt", "words", "clause"), LOADED_CLAIMS)
def test_reg16_ny_claims_checked_against_the_loaded_list(name, born, key, exempt, words, clause):
    """NY 七(三) (2021 年各组前8名的棋手报名不受名额限制), REG-16: a claim exempts only the person the
    organiser's list places within the top 8; any other claim counts in the quota and says why."""
    ny = presets.load("ny-2022")
    star = person("male", born, name=name)
    app = application("junior-male", star, at=cst(2022, 8, 1), quota_exempt={star.id: "2021 place 3"})
    app = replace(app, id_keys={star.id: key} if key else {})
    got, decisions = quota_exemptions(ny.units, app, [star], LOADED)
    assert (star.id in got) == exempt, clause
    assert len(decisions) == 1 and words in decisions[0].reason, clause
    assert decisions[0].clause == ("units/quota_exempt" if exempt else "units/quota_exempt_unlisted"), clause
    assert dict(decisions[0].params)["edition"] == "2021" and dict(decisions[0].params)["top"] == 8


def test_reg16_ny_21st_player_with_a_false_claim_is_refused_by_the_quota():
    """NY 七(一)(三): 每队限报20人; 前8名 … 不受名额限制 — with the list loaded, a listed player is
    the 21st; a 21st claiming a place the list does not give them is refused by the quota, and
    the refused entry says that the claim was not on the list."""
    event = presets.load("ny-2022")
    reg = EventRegistration(event)
    unit = Unit("gd", "Guangdong", "province")
    t = cst(2022, 8, 1)
    items = {i: t for i in event.registration.required_items}

    def submit(p, ref=None, key=None):
        app = application("junior-male", p, at=t, items=items, unit=unit, quota_exempt={p.id: ref} if ref else None)
        app = replace(app, id_keys={p.id: key} if key else {})
        return reg.submit(app, {p.id: p}, unit=unit, now=t, previous_top=LOADED)

    for _ in range(20):
        assert submit(person("male", date(2012, 1, 1))).accepted
    ninth = person("male", date(2012, 3, 3), name="Zhao Jiu")
    refused = submit(ninth, "2021/junior-male/9", "key-9999")
    assert refused.entry.status is EntryStatus.REFUSED and "21 players" in refused.reasons[0]
    assert any("not on the list of 2021's top 8" in d.reason for d in refused.entry.decisions)
    star = person("male", date(2012, 1, 1), name="Wang Xiaoming")
    assert submit(star, "2021/junior-male/3", "key-1111").accepted
    assert len(reg.delegation("gd")) == 21 and len(reg.quota_players("gd")) == 20


def test_reg16_ny_twenty_players_and_a_listed_top8_player_beyond_them():
    """NY 七(一)(三): 每队限报20人; 2021年 … 前8名的棋手报名不受名额限制 — a listed player is the
    21st; someone claiming a place not theirs is refused as the 21st in the quota."""
    event = ny_with_list()
    reg = EventRegistration(event)
    unit = Unit("gd", "Guangdong", "province")
    t = cst(2022, 8, 1)
    items = {i: t for i in event.registration.required_items}

    def submit(p, ref=None):
        app = application("junior-male", p, at=t, items=items, unit=unit, quota_exempt={p.id: ref} if ref else None)
        return reg.submit(app, {p.id: p}, unit=unit, now=t)

    for _ in range(20):
        assert submit(person("male", date(2012, 1, 1))).accepted
    impostor = submit(person("male", date(2012, 1, 1), name="Zhang San"), "2021/junior-male/3")
    assert impostor.entry.status is EntryStatus.REFUSED and "21 players" in impostor.reasons[0]
    star = submit(person("male", date(2012, 1, 1), name="Wang Xiaoming"), "2021/junior-male/3")
    assert star.accepted and len(reg.delegation("gd")) == 21 and len(reg.quota_players("gd")) == 20


def test_reg16_an_exemption_list_beyond_the_top_n_is_refused():
    ny = presets.load("ny-2022")
    bad = [{"ref": "x", "name": "y", "place": 9}]
    with pytest.raises(ValueError, match="beyond the top 8"):
        EventConfig.model_validate({**ny.model_dump(), "units": {**ny.units.model_dump(), "quota_exempt_list": bad}})


def team_entry(section: str, unit: str, status: EntryStatus = EntryStatus.ACCEPTED) -> Entry:
    return Entry(f"e-{section}-{unit}", "nt", section, ("a", "b", "c"), unit, status, None)


#: (officials already named, a team of the unit, needs an acting leader, clause)
LEADERS = [
    ([], True, True, "NT 十(一)4: 如参赛队伍没有领队，则须指派一名选手兼任领队"),
    ([("hb", "leader")], True, False, "NT 六(六): 每单位可报领队1名"),
    ([("hb", "acting_leader")], True, False, "NT 十(一)4: a player acts as leader"),
    ([("hb", "coach")], True, True, "NT 十(一)4: a coach is not the leader"),
    ([], False, False, "NT: a unit without a team entry names nobody"),
]


@pytest.mark.parametrize(("officials", "has_team", "needs", "clause"), LEADERS)
def test_reg16_nt_a_team_without_a_leader_names_a_player(nt, officials, has_team, needs, clause):
    entries = [team_entry("mixed-team", "hb")] if has_team else [team_entry("mixed-team", "hb", EntryStatus.WITHDRAWN)]
    issues = units_without_leader(nt, entries, officials, {"hb": Unit("hb", "Hubei", "province")})
    assert bool(issues) == needs, clause
    if needs:
        assert issues[0].rule == "REG-16" and "Hubei has no leader" in issues[0].reason


def test_reg16_sz_names_no_acting_leaders(sz):
    assert units_without_leader(sz, [team_entry("men-free", "u")], [], {}) == []


#: (sections the unit entered, coaches allowed, clause)
COACHES = [
    (["mixed-team"], 1, "NT 六(六): 每单位可报 … 教练1名"),
    (["mixed-team", "junior-boys-team", "junior-girls-team"], 2, "NT 六(六): 参加全部项目的单位可增报教练1名"),
]


@pytest.mark.parametrize(("sections", "allowed", "clause"), COACHES)
def test_reg16_nt_one_more_coach_for_a_unit_in_every_section(nt, sections, allowed, clause):
    reg = EventRegistration(nt)
    unit = Unit("hb", "Hubei", "province")
    for sec in sections:
        reg.entries[f"e-{sec}"] = team_entry(sec, "hb")
    outcomes = [reg.add_official(unit, "coach", f"Coach {n}").outcome for n in range(allowed + 1)]
    assert outcomes == [Verdict.ADMITTED] * allowed + [Verdict.REFUSED], clause
    assert reg.add_official(unit, "leader", "Leader").admitted
    assert reg.add_official(unit, "leader", "Second leader").refused  # NT 六(六): 领队1名
    assert reg.add_official(unit, "acting_leader", "Player", "a").refused  # it has a leader


#: (checked in, absent, decision, in the field, clause)
ATTENDANCE = [
    (True, False, None, True, "REG-11: checked in"),
    (False, True, None, False, "REG-11: marked absent"),
    (False, False, True, True, "REG-11: the arbiter lets a player who did not check in play"),
    (False, False, False, False, "REG-11: the arbiter marks one who did not check in absent"),
]


@pytest.mark.parametrize(("checked", "absent", "present", "plays", "clause"), ATTENDANCE)
def test_reg11_every_player_not_checked_in_gets_a_decision(da, checked, absent, present, plays, clause):
    one = replace(
        team_entry("open", "u"),
        person_ids=("p",),
        checked_in_at=cst(2023, 8, 18) if checked else None,
        no_show=absent,
    )
    waiting = undecided([one])
    assert (waiting == [one]) == (not checked and not absent), clause
    if waiting:
        one = settle_attendance(one, present=bool(present), by="arbiter:k")
        assert one.decisions[-1].clause == "check_in/at_close"
    assert (not one.no_show) == plays, clause


async def test_reg11_da_close_asks_for_a_decision_on_players_not_checked_in(tmp_path):
    """REG-11, DA 十(二) 报到 by 08-18 19:00 (preset: undecided_at_close = ask): the close lists
    the players neither checked in nor marked absent and waits; with a decision it closes, the
    absent one out of the field. DA 十(二)3: the documents are enforced at check-in."""
    async with harness(tmp_path, start=datetime(2023, 8, 5, 10, 0, tzinfo=CST)) as h:
        assert (
            await h.client.post("/v1/events", headers=OP, json={"preset_id": "da-2023", "event_code": "da23"})
        ).status_code == 201
        await h.client.post("/v1/events/da23/units", headers=P1, json={"id": "hn", "name": "Hainan"})
        ids = []
        for n in range(1, 4):
            body = {
                "section_id": "open",
                "player": {**player(n), "unit": "hn"},
                "insurance": {"confirmed": True, "document_ref": "I"},
            }
            ids.append((await h.client.post("/v1/events/da23/entries", headers=P1, json=body)).json()["entry_id"])
            fee = {"item": "lodging-standard", "amount_fen": 144_000, "entry_id": ids[-1]}
            assert (await h.client.post("/v1/events/da23/ledger", headers=OP, json=fee)).status_code == 201
        h.clock.set(datetime(2023, 8, 18, 10, 0, tzinfo=CST))
        short = {"entry_ids": [ids[0]], "documents_shown": ["id_card", "insurance_policy"]}
        r = await h.client.post("/v1/events/da23/stages/main/check-in", headers=OP, json=short)
        assert r.json()["results"][0]["status"] == "refused" and "safety_pledge" in r.json()["results"][0]["reason"]
        full = {
            "entry_ids": [ids[0]],
            "documents_shown": ["id_card", "insurance_policy", "safety_pledge", "integrity_pledge"],
        }
        r = await h.client.post("/v1/events/da23/stages/main/check-in", headers=OP, json=full)
        assert r.json()["results"][0]["status"] == "checked_in"
        close = {"format_choices": {"open": {"kind": "round_robin"}}}
        r = await h.client.post("/v1/events/da23/stages/main/close", headers=OP, json=close)
        assert r.status_code == 422 and r.json()["error"]["code"] == "attendance_decision_required"
        assert [x["entry_id"] for x in r.json()["error"]["details"]] == ids[1:]
        r = await h.client.post(
            "/v1/events/da23/stages/main/close", headers=OP, json={**close, "attendance": {ids[1]: "absent"}}
        )
        assert r.status_code == 422 and [x["entry_id"] for x in r.json()["error"]["details"]] == ids[2:]
        r = await h.client.post(
            "/v1/events/da23/stages/main/close",
            headers=OP,
            json={**close, "attendance": {ids[1]: "absent", ids[2]: "present"}},
        )
        assert r.status_code == 200, r.text
        assert [(x["entry_id"], x["present"]) for x in r.json()["attendance"]] == [(ids[1], False), (ids[2], True)]
        await h.settle()
        field = next(p for p in h.payloads("section.closed") if p.section_id == "open")
        assert sorted(e.entrant_id for e in field.entrants) == sorted([ids[0], ids[2]])


#: (the claim as first judged, the player's key, exempt before, exempt after, clause after, clause)
AGAIN = [
    ("units/quota_exempt_no_list", "key-1111", False, True, "units/quota_exempt",
     "NY 七(三): a claim made before the list, supported by it: leaves the quota"),
    ("units/quota_exempt_no_list", "key-2222", False, False, "units/quota_exempt_unlisted",
     "NY 七(三): a claim made before the list, not on it: still counted, now says why"),
    ("units/quota_exempt", "key-9999", True, False, "units/quota_exempt_unlisted",
     "NY 七(三): a new list places the player 9th: counted again"),
]  # fmt: skip


@pytest.mark.parametrize(("first", "key", "before", "after", "clause_after", "clause"), AGAIN)
def test_reg16_ny_claims_judged_again_when_a_list_is_loaded(first, key, before, after, clause_after, clause):
    """NY 七(三), REG-16: loading a list judges the claims already made again; only the
    exemption changes (the entry's other decisions and its status stay)."""
    star = person("male", date(2012, 1, 1), name="Wang Xiaoming")
    claim = Decision("REG-16", first, Verdict.ADMITTED, "as first judged", star.id)
    window = Decision("REG-1", "registration/window", Verdict.ADMITTED, "in time")
    entry = Entry("e1", "ny", "junior-male", (star.id,), "gd", EntryStatus.ACCEPTED, None, (window, claim))
    entry = replace(entry, quota_exempt=frozenset({star.id}) if before else frozenset())
    again = claims_judged_again(entry, 8, LOADED, {star.id: star}, {star.id: key})
    assert (star.id in again.quota_exempt) == after, clause
    assert [d.clause for d in again.decisions] == ["registration/window", clause_after], clause
    assert again.status is EntryStatus.ACCEPTED
