"""Issue 34: the delegation door over HTTP on SQLite. A unit's leader starts a delegation, gets a
secret link, and submits the whole roster as one application judged by the partners' rules:
REG-16's quota (NY 七(一): 每队限报20人) with a previous-top exemption checked against the loaded
list (NY 七(三)), lodging per person at the room's rate (DA 十一(一)) and the organisers' shuttle
at 45 元 a trip (DA 十二) as fees due in fen, amendable until the close of registration and
then 409 (the changes process, REG-10)."""

from __future__ import annotations

import hashlib
from datetime import datetime

import pytest
import sqlalchemy as sa
from registration_kit import ARB, CST, OP, P1, harness, id_number

from registration.adapters import orm

#: the whole service on SQLite (make test-fast leaves it out)
pytestmark = pytest.mark.slow

LEADER = {"role": "leader", "name": "王领队"}
COACH = {"role": "coach", "name": "李教练"}


def ny_player(n: int, **kw) -> dict:
    """A youth boy of the delegation (NY 七(一): born 2002..2010)."""
    return {
        "role": "player",
        "name": f"选手{n:02d}",
        "gender": "male",
        "birth_date": "2005-03-03",
        "id_number": id_number(n, "20050303"),
        "sections": [{"section_id": "youth-male"}],
        **kw,
    }


async def start(h, code: str, unit: str = "浙江省") -> str:
    body = {"unit_name": unit, "leader_name": "王领队", "leader_phone": "139 0000 1234"}
    r = await h.client.post(f"/v1/events/{code}/delegations", json=body)
    assert r.status_code == 201, r.text
    return r.json()["token"]


def tok(token: str) -> dict:
    return {"X-Delegation-Token": token}


async def create(h, preset: str, code: str) -> None:
    r = await h.client.post("/v1/events", headers=OP, json={"preset_id": preset, "event_code": code})
    assert r.status_code == 201, r.text


async def load_ny_list(h, listed: dict) -> None:
    line = {"section": "youth-male", "place": 3, "name": listed["name"], "id_number": listed["id_number"]}
    body = {"edition": "2021", "source": "2021 final standings", "players": [line]}
    r = await h.client.post("/v1/events/ny22/quota-exemptions", headers=OP, json=body)
    assert r.status_code == 201, r.text


async def test_reg16_ny_7_a_delegation_of_21_with_one_listed_exemption_is_accepted_and_a_22nd_refused(tmp_path):
    """REG-16 (NY 七(一)(三)): 20 counted + 1 on the loaded 2021 top-8 list = 21 accepted; a 22nd
    is refused in words (the quota), and the refusal keeps nothing (all or nothing)."""
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        await create(h, "ny-2022", "ny22")
        door = (await h.client.get("/v1/events/ny22/delegations/form")).json()
        assert door["accepting"] and door["quota"] == 20 and door["quota_exempt_top"] == 8
        token = await start(h, "ny22")
        players = [ny_player(n) for n in range(1, 21)]
        exempt = ny_player(21, quota_exempt_ref="2021 youth male 3rd")
        await load_ny_list(h, exempt)
        roster = {"people": [LEADER, COACH, *players, exempt]}
        checked = await h.client.post("/v1/delegation/roster/check", headers=tok(token), json=roster)
        assert checked.status_code == 200 and checked.json()["ok"], checked.text
        assert (await h.client.get("/v1/delegation", headers=tok(token))).json()["entries"] == []  # nothing kept
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=roster)
        assert r.status_code == 200, r.text
        assert [row["status"] for row in r.json()["rows"]] == ["accepted"] * 21
        page = (await h.client.get("/v1/delegation", headers=tok(token))).json()
        assert page["quota"]["counted"] == 20 and page["quota"]["limit"] == 20
        [claim] = page["quota"]["exempt"]
        assert claim["name"] == "选手21" and claim["outside"] and claim["clause"] == "units/quota_exempt"
        assert "2021" in claim["reason"]
        assert {(o["role"], o["name"]) for o in page["officials"]} == {("leader", "王领队"), ("coach", "李教练")}
        assert page["leader_phone"] == "139****1234" and page["amendable"]
        more = {"people": [*roster["people"], ny_player(22)]}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=more)
        assert r.status_code == 422 and r.json()["error"]["code"] == "roster_refused", r.text
        refused = [row for row in r.json()["error"]["details"]["rows"] if row["status"] == "refused"]
        assert [row["names"] for row in refused] == [["选手22"]]
        assert refused[0]["clause"] == "units/quota" and "max 20" in refused[0]["reason"]
        page = (await h.client.get("/v1/delegation", headers=tok(token))).json()
        assert len(page["entries"]) == 21 and page["amendments"] == 0


async def test_reg16_an_unlisted_claim_counts_in_the_quota_and_says_why(tmp_path):
    """NY 七(三): a claim the loaded list does not support is counted; the 21st is then refused."""
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        await create(h, "ny-2022", "ny22")
        token = await start(h, "ny22")
        await load_ny_list(h, ny_player(30))  # someone else is listed
        roster = {"people": [LEADER, *[ny_player(n) for n in range(1, 21)], ny_player(21, quota_exempt_ref="x")]}
        r = await h.client.post("/v1/delegation/roster/check", headers=tok(token), json=roster)
        assert r.status_code == 200 and not r.json()["ok"]
        last = r.json()["rows"][-1]
        assert last["status"] == "refused" and last["exemptions"][0]["clause"] == "units/quota_exempt_unlisted"


async def test_da_11_1_and_12_lodging_by_room_and_the_shuttle_are_fees_due_in_fen(tmp_path):
    """DA 十一(一): 标准间360元/人/天, 单间520元/人/天; DA 十二: 接送专用大巴车每人每次45元 —
    preset configuration, charged per person on the roster; the ledger's money for the unit shows as paid."""
    async with harness(tmp_path, start=datetime(2023, 8, 1, 10, 0, tzinfo=CST)) as h:
        await create(h, "da-2023", "da23")
        door = (await h.client.get("/v1/events/da23/delegations/form")).json()
        assert {x["room"]: x["amount_fen"] for x in door["rooms"]} == {"standard": 36000, "single": 52000}
        assert [(x["id"], x["amount_fen"]) for x in door["services"]] == [("shuttle", 4500)]
        token = await start(h, "da23", "海口队")
        player = {
            "role": "player",
            "name": "陈一",
            "gender": "male",
            "birth_date": "1999-01-01",
            "id_number": id_number(1, "19990101"),
            "sections": [{"section_id": "open"}],
            "room": "standard",
            "nights": 4,
            "services": {"shuttle": 2},
        }
        leader = {**LEADER, "room": "single", "nights": 3, "services": {"shuttle": 1}}
        roster = {"people": [leader, player], "insurance_policy": "PICC-2023-1"}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=roster)
        assert r.status_code == 200 and r.json()["ok"], r.text
        fees = (await h.client.get("/v1/delegation", headers=tok(token))).json()["fees"]
        assert fees["due_fen"] == 3 * 52000 + 4500 + 4 * 36000 + 2 * 4500 == 313500
        assert {(x["name"], x["item"], x["quantity"], x["amount_fen"]) for x in fees["lines"]} == {
            ("王领队", "lodging-single", 3, 156000),
            ("王领队", "shuttle", 1, 4500),
            ("陈一", "lodging-standard", 4, 144000),
            ("陈一", "shuttle", 2, 9000),
        }
        assert fees["paid_fen"] == 0
        bad = {"people": [leader, {**player, "services": {"shuttle": 3}}]}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "roster_booking_invalid"


async def test_a_roster_is_amendable_until_the_close_then_409_for_the_changes_process(tmp_path):
    """REG-10: before the close a new roster replaces the old (a dropped player's entry withdrawn,
    kept ones untouched); from the close on 409 roster_closed."""
    async with harness(tmp_path, start=datetime(2022, 8, 5, 20, 0, tzinfo=CST)) as h:
        await create(h, "ny-2022", "ny22")
        token = await start(h, "ny22")
        first = {"people": [LEADER, ny_player(1), ny_player(2)]}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=first)
        assert r.status_code == 200, r.text
        kept_id = (await h.client.get("/v1/delegation", headers=tok(token))).json()["entries"][0]
        people = (await h.client.get("/v1/delegation", headers=tok(token))).json()["people"]
        kept = next(p for p in people if p["name"] == "选手01")
        assert kept["id_number"].endswith(id_number(1, "20050303")[-4:]) and "20050303" not in kept["id_number"]
        # the kept player named by person_id alone: the stored details are used
        keep = {"role": "player", "name": "选手01", "person_id": kept["person_id"], "sections": kept["sections"]}
        second = {"people": [LEADER, keep, ny_player(3)]}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=second)
        assert r.status_code == 200, r.text
        page = (await h.client.get("/v1/delegation", headers=tok(token))).json()
        assert [e["names"] for e in page["entries"]] == [["选手01"], ["选手03"]] and page["amendments"] == 1
        assert page["entries"][0] == kept_id
        listed = (await h.client.get("/v1/events/ny22/entries", headers=OP)).json()["entries"]
        assert sorted(e["status"] for e in listed) == ["accepted", "accepted", "withdrawn"]
        stranger = {**keep, "person_id": "ny22.p99999"}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json={"people": [LEADER, stranger]})
        assert r.status_code == 422 and r.json()["error"]["code"] == "roster_unknown_person"
        h.clock.set(datetime(2022, 8, 6, 0, 0, tzinfo=CST))  # 08-05 24:00: the close (exclusive)
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=first)
        assert r.status_code == 409 and r.json()["error"]["code"] == "roster_closed"
        assert "changes process" in r.json()["error"]["message"]
        assert not (await h.client.get("/v1/delegation", headers=tok(token))).json()["amendable"]


async def test_the_link_is_kept_as_its_sha256_the_door_is_off_unless_opted_in(tmp_path):
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        await create(h, "ny-2022", "ny22")
        token = await start(h, "ny22")
        async with h.service.runtime.sessionmaker() as session:
            rows = (await session.execute(sa.select(orm.delegation_links))).all()
        assert [row.token_sha256 for row in rows] == [hashlib.sha256(token.encode()).hexdigest()]
        assert "13900001234" not in repr(rows)
        assert (await h.client.get("/v1/delegation", headers=tok(token[:-2] + "xx"))).status_code == 404
        r = await h.client.post(
            "/v1/events/ny22/delegations",
            json={"unit_name": "浙江省", "leader_name": "x", "leader_phone": "13900001234"},
        )
        assert r.status_code == 409 and r.json()["error"]["code"] == "delegation_exists"
        await h.create_sz()  # SZ registers individuals: no door
        r = await h.client.post(
            "/v1/events/sz22/delegations", json={"unit_name": "深圳", "leader_name": "x", "leader_phone": "13900001234"}
        )
        assert r.status_code == 403 and r.json()["error"]["code"] == "delegations_closed"


async def test_reg14_da_11_1_the_ledger_and_the_delegation_page_agree_on_one_figure(tmp_path):
    """REG-14, DA 十一(一)/十二: the fee report (the ledger read) and the delegation's page show one
    figure for the delegation — each person's room times nights, plus the shuttle — and at the
    close its entries are judged on that figure: one fen short leaves the last entry unpaired."""
    async with harness(tmp_path, start=datetime(2023, 8, 1, 10, 0, tzinfo=CST)) as h:
        await create(h, "da-2023", "da23")
        token = await start(h, "da23", "海口队")

        def player(n: int, room: str | None, nights: int, trips: int = 0) -> dict:
            return {
                "role": "player",
                "name": f"陈{n}",
                "gender": "male",
                "birth_date": "1999-01-01",
                "id_number": id_number(n, "19990101"),
                "sections": [{"section_id": "open"}],
                "room": room,
                "nights": nights,
                "services": {"shuttle": trips} if trips else {},
            }

        leader = {**LEADER, "room": "single", "nights": 3, "services": {"shuttle": 1}}
        people = [leader, player(1, "standard", 4, 2), player(2, "single", 2), player(3, None, 0)]
        roster = {"people": people, "insurance_policy": "PICC-2023-1"}
        r = await h.client.put("/v1/delegation/roster", headers=tok(token), json=roster)
        assert r.status_code == 200 and r.json()["ok"], r.text
        lodging = 3 * 52000 + 4 * 36000 + 2 * 52000
        report = (await h.client.get("/v1/events/da23/fees", headers=OP)).json()
        [mine] = report["delegations"]
        page = (await h.client.get("/v1/delegation", headers=tok(token))).json()["fees"]
        assert mine["due_fen"] == page["due_fen"] == lodging + 3 * 4500
        assert sum(e["due_fen"] for e in report["entries"]) == mine["entries_due_fen"] == lodging
        pay = {"item": "lodging-standard", "amount_fen": lodging - 1, "unit_id": mine["unit_id"]}
        assert (await h.client.post("/v1/events/da23/ledger", headers=OP, json=pay)).status_code == 201
        shuttle = {"item": "shuttle", "amount_fen": 3 * 4500, "unit_id": mine["unit_id"]}
        assert (await h.client.post("/v1/events/da23/ledger", headers=OP, json=shuttle)).status_code == 201
        [mine] = (await h.client.get("/v1/events/da23/fees", headers=OP)).json()["delegations"]
        page = (await h.client.get("/v1/delegation", headers=tok(token))).json()["fees"]
        assert mine["paid_fen"] == page["paid_fen"] == lodging - 1 + 3 * 4500
        assert not mine["complete_now"] and not page["complete"]
        fix = {"item": "lodging-single", "amount_fen": 1, "unit_id": mine["unit_id"]}
        assert (await h.client.post("/v1/events/da23/ledger", headers=OP, json=fix)).status_code == 201
        [mine] = (await h.client.get("/v1/events/da23/fees", headers=OP)).json()["delegations"]
        assert mine["complete_now"] and mine["complete_by_deadline"]


async def test_staff_reissue_a_delegations_link_and_the_old_one_stops_working(tmp_path):
    """Issue 34: a lost or leaked link is replaced by the organiser (registrants.relink, partners
    may not); the new token is answered once, the old one is 404, the roster stays."""
    async with harness(tmp_path, start=datetime(2022, 7, 20, 10, 0, tzinfo=CST)) as h:
        await create(h, "ny-2022", "ny22")
        token = await start(h, "ny22")
        roster = {"people": [LEADER, ny_player(1)]}
        assert (await h.client.put("/v1/delegation/roster", headers=tok(token), json=roster)).status_code == 200
        units = (await h.client.get("/v1/events/ny22/units", headers=OP)).json()["units"]
        [unit] = [u for u in units if u["name"] == "浙江省"]
        relink = f"/v1/events/ny22/units/{unit['unit_id']}/delegation-link"
        assert (await h.client.post(relink, headers=P1)).status_code == 403
        r = await h.client.post(relink, headers=ARB)
        assert r.status_code == 200 and r.json()["unit_name"] == "浙江省", r.text
        fresh = r.json()["token"]
        assert fresh != token
        assert (await h.client.get("/v1/delegation", headers=tok(token))).status_code == 404
        page = (await h.client.get("/v1/delegation", headers=tok(fresh))).json()
        assert [e["names"] for e in page["entries"]] == [["选手01"]]
        async with h.service.runtime.sessionmaker() as session:
            [row] = (await session.execute(sa.select(orm.delegation_links))).all()
        assert row.token_sha256 == hashlib.sha256(fresh.encode()).hexdigest()
        missing = await h.client.post("/v1/events/ny22/units/nope/delegation-link", headers=OP)
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_unit"
        made = await h.client.post("/v1/events/ny22/units", headers=OP, json={"name": "江苏省", "kind": "delegation"})
        assert made.status_code == 201, made.text
        other = f"/v1/events/ny22/units/{made.json()['unit_id']}/delegation-link"
        r = await h.client.post(other, headers=OP)
        assert r.status_code == 422 and r.json()["error"]["code"] == "not_a_delegation"
