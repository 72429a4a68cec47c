"""Issue 34: the roster page's rows as registration's roster document (what a person typed on
the phone becomes the body the door judges), and prices in yuan as the regulation writes them
(DA 十一(一): 360元/人/天; DA 十二: 45元/人/次)."""

from __future__ import annotations

from portal.delegation_roster import _money, _roster_body, _rows_sent, _verdicts


def test_rows_typed_on_the_page_become_the_roster_document():
    sent = {
        "rows": "4",
        "p0_role": "leader",
        "p0_name": "王领队",
        "p0_room": "single",
        "p0_nights": "3",
        "p0_svc_shuttle": "1",
        "p1_role": "player",
        "p1_name": "陈一",
        "p1_gender": "male",
        "p1_birth_date": "2005-03-03",
        "p1_id_number": "3301 0020 0503 0301 2x",
        "p1_section": "youth-male",
        "p1_team_section": "youth-team",
        "p1_team_name": "浙江",
        "p1_board": "1",
        "p1_exempt": "2021 第3名",
        "p2_role": "player",
        "p2_name": "",  # a blank card: left out
        "p3_role": "player",
        "p3_name": "李二",
        "p3_remove": "1",  # removed on the page
    }
    rows = _rows_sent(sent)
    assert [r["name"] for r in rows] == ["王领队", "陈一", ""]
    body = _roster_body(rows, "PICC-1")
    leader, player = body["people"]
    assert leader == {"role": "leader", "name": "王领队", "room": "single", "nights": 3, "services": {"shuttle": 1}}
    assert player["id_number"] == "33010020050303012X"
    assert player["sections"] == [
        {"section_id": "youth-male"},
        {"section_id": "youth-team", "team_name": "浙江", "board": 1},
    ]
    assert player["quota_exempt_ref"] == "2021 第3名" and body["insurance_policy"] == "PICC-1"


def test_a_kept_player_is_sent_by_person_id_without_their_details():
    rows = _rows_sent(
        {
            "rows": "1",
            "p0_role": "player",
            "p0_name": "陈一",
            "p0_person_id": "ny22.p00001",
            "p0_section": "youth-male",
            "p0_birth_date": "2005-03-03",
        }
    )
    [player] = _roster_body(rows, "")["people"]
    assert player["person_id"] == "ny22.p00001" and "birth_date" not in player and "id_number" not in player


def test_prices_in_yuan_and_verdicts_by_name():
    assert (_money(36000), _money(4500), _money(313550), _money(None)) == ("360", "45", "3135.5", "—")
    report = {"rows": [{"names": ["甲", "乙"], "status": "accepted"}, {"names": ["甲"], "status": "refused"}]}
    assert [r["status"] for r in _verdicts(report)["甲"]] == ["accepted", "refused"]
