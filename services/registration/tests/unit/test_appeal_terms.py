"""AWD-10 and AWD-9 as event configuration: the four presets' appeal terms and honours (NY 十(三)(四),
十一(三); DA, NT 八), and the appeal terms and unit ids section.closed carries to pairing."""

from __future__ import annotations

from datetime import date

import pytest
from registration_kit import application, cst, person

from registration import presets
from registration.adapters.contract_mapping import section_closed
from registration.domain import EventRegistration, FormatChoice, Unit, close_stage


@pytest.mark.parametrize(
    ("pid", "clause", "fee_fen", "regulation", "chair"),
    [
        (
            "ny-2022",
            "NY 十(四): 仲裁费500元; 十(三): chair by the centre",
            50_000,
            None,
            "国家体育总局棋牌运动管理中心",
        ),
        ("da-2023", "DA 八(二): a committee, no fee named", 0, "《仲裁委员会条例》", None),
        ("nt-2023", "NT 八(二): a committee, no fee named", 0, "《仲裁委员会条例》", None),
        ("sz-2022", "SZ: silent — no fee, no committee named", 0, None, None),
    ],
)
def test_awd10_preset_appeal_terms(pid, clause, fee_fen, regulation, chair):
    config = presets.load(pid)
    terms = config.appeal_terms()  # the fee: the fees' per_appeal item
    assert terms["accepted"] and terms["fee_fen"] == fee_fen and terms["refund_if_upheld"], clause
    assert terms["currency"] == "CNY" and terms["window_minutes"] is None, clause  # no seed gives a deadline
    appeals = config.appeals
    committee = appeals.committee
    assert (committee.regulation if committee else None) == regulation, clause
    assert (committee.chair_appointed_by if committee else None) == chair, clause


def test_awd10_ny_committee_members_come_from_leaders_and_coaches():
    """NY 十(三): 仲裁委员从参赛各队领队、教练中产生; appeals are signed by them."""
    appeals = presets.load("ny-2022").appeals
    assert appeals.committee is not None and appeals.committee.members_from == ["leader", "coach"]
    assert appeals.signatories == ["leader", "coach"]


@pytest.mark.parametrize(
    ("pid", "honours"),
    [
        ("ny-2022", [("organisation", "优秀组织奖"), ("sportsmanship", "体育道德风尚奖"), ("coach", "优秀教练员奖")]),
        ("da-2023", []),
        ("nt-2023", []),
        ("sz-2022", []),
    ],
)
def test_awd9_preset_honours(pid, honours):
    """AWD-9, NY 十一(三): NY's three honours; the other seeds name none."""
    assert [(h.kind, h.name_zh) for h in presets.load(pid).honours] == honours


def test_awd10_section_closed_carries_the_appeal_terms_and_unit_ids(ny):
    """AWD-10, NY 十(四): pairing learns the 500 CNY fee and each entrant's unit id with section.closed."""
    reg = EventRegistration(ny)
    unit = Unit("gd", "Guangdong", "province")
    people = {}
    at = cst(2022, 8, 1)
    for _ in range(6):
        player = person("male", date(2012, 1, 1))
        people[player.id] = player
        items = {item: at for item in ny.registration.required_items}
        assert reg.submit(
            application("junior-male", player, at=at, unit=unit, items=items), people, unit=unit, now=at
        ).accepted
    entries = list(reg.entries.values())
    [closed] = [
        c
        for c in close_stage(ny, "main", entries, {"junior-male": FormatChoice("swiss", 3)})
        if c.section_id == "junior-male"
    ]
    payload = section_closed(ny, closed, people, {"gd": unit}, {})
    assert payload.appeals is not None
    assert (payload.appeals.fee_fen, payload.appeals.currency, payload.appeals.refund_if_upheld) == (
        50_000,
        "CNY",
        True,
    )
    assert {e.attributes["unit_id"] for e in payload.entrants} == {"gd"}
    assert {e.unit for e in payload.entrants} == {"Guangdong"}
