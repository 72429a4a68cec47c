"""Honours in full for the organiser, unit honours as registered (issue 30; NY 十一(三), AWD-9), over
real sockets against a served awards process on PostgreSQL and RabbitMQ (the docker-compose.yml
command): the event and a completed section arrive on the bus as registration and pairing send
them, every entrant carrying its unit's registration id and registered name.

Before the fix the 优秀教练员奖 certificate data named the coach "王**" for the operator who prints
it too, and the 优秀组织奖 took a typed unit name and refused the unit's registration id."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import httpx

from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, SectionCompleted, StandingRow

from .awards_served import awards_alone

EV = "ny-honours"
START = datetime(2026, 8, 20, 9, 0, tzinfo=UTC)
OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
#: the delegations as registration registered them: id -> registered name
UNITS = {"u-hainan": "海南省五子棋协会", "u-hubei": "湖北省棋牌运动管理中心"}


def _configured() -> EventConfigured:
    from registration import presets

    config = presets.load("ny-2022", {"id": EV})
    return EventConfigured(event_code=EV, name=config.name, preset_id="ny-2022", config=config.model_dump(mode="json"))


def _completed() -> SectionCompleted:
    rules = SectionRules(
        rounds=3,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        tiebreaks=["points", "buchholz", "median_buchholz", "wins"],
    )
    unit_ids = list(UNITS)
    entrants = [
        Entrant(
            entrant_id=f"e{i}",
            name=f"选手{i}",
            gender="male",
            unit=UNITS[unit_ids[i % 2]],
            attributes={"unit_id": unit_ids[i % 2]},
        )
        for i in range(1, 7)
    ]
    standings = [
        StandingRow(
            place=i, entrant_id=f"e{i}", name=f"选手{i}", gender="male", unit=UNITS[unit_ids[i % 2]], points=7 - i
        )
        for i in range(1, 7)
    ]
    return SectionCompleted(
        event_code=EV,
        stage="main",
        section_id="junior-male",
        name="少年男子组",
        rules=rules,
        standings=standings,
        entrants=entrants,
        rounds_played=3,
    )


async def _units(client: httpx.AsyncClient) -> list[dict]:
    async with asyncio.timeout(60):
        while True:
            answer = await client.get(f"/v1/events/{EV}/honours/units", headers=OP)
            if answer.status_code == 200 and answer.json()["units"]:
                return answer.json()["units"]
            await asyncio.sleep(0.2)


async def test_ny_11_3_honours_in_full_for_staff_and_units_as_registered_served(
    tmp_path, fresh_database, amqp_url, bus_namespace
):
    """NY 十一(三), AWD-9 (issue 30), served awards on PostgreSQL + RabbitMQ: staff read the
    certificate data and the register with the coach's name in full, the public answers keep it
    masked; the units a unit honour may name are the registered ones; 优秀组织奖 names the unit
    by its registration id and shows its registered name; a typed name and an unknown id are
    refused with 422 ``unknown_unit``."""
    published = (_configured(), _completed())
    async with awards_alone(fresh_database, amqp_url, bus_namespace, tmp_path, START, published) as client:
        units = await _units(client)
        assert units == [{"unit_id": uid, "name": name} for uid, name in sorted(UNITS.items(), key=lambda u: u[1])]
        url = f"/v1/events/{EV}/honours"

        # a unit honour by the unit's registration id: the certificate shows its registered name
        given = await client.post(
            url, json={"kind": "organisation", "unit_id": "u-hainan", "citation": "组织工作出色"}, headers=OP
        )
        assert given.status_code == 200, given.text
        assert (given.json()["recipient_id"], given.json()["recipient_name"]) == ("u-hainan", UNITS["u-hainan"])
        # a typed name is no registered unit: refused, pointing at the id it should have been
        typed = await client.post(url, json={"kind": "organisation", "unit_id": UNITS["u-hubei"]}, headers=OP)
        assert typed.status_code == 422, typed.text
        assert typed.json()["error"]["code"] == "unknown_unit" and "'u-hubei'" in typed.json()["error"]["message"]
        unknown = await client.post(url, json={"kind": "organisation", "unit_id": "u-nowhere"}, headers=ARB)
        assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown_unit", unknown.text

        coach = {"kind": "coach", "coach_name": "王建国", "coach_unit": UNITS["u-hubei"], "citation": "带队有方"}
        assert (await client.post(url, json=coach, headers=ARB)).status_code == 200

        # staff: names in full (the organiser prints them); the public: the coach masked
        full = await client.get(f"{url}/register/certificates", headers=OP)
        assert full.status_code == 200, full.text
        assert [(row["kind"], row["name"]) for row in full.json()["rows"]] == [
            ("organisation", UNITS["u-hainan"]),
            ("coach", "王建国"),
        ]
        register = (await client.get(f"{url}/register", headers=ARB)).json()["honours"]
        assert [h["recipient_name"] for h in register] == [UNITS["u-hainan"], "王建国"]
        public = await client.get(f"{url}/certificates")
        assert [row["name"] for row in public.json()["rows"]] == [UNITS["u-hainan"], "王**"]
        listed = await client.get(url)
        assert [h["recipient_name"] for h in listed.json()["honours"]] == [UNITS["u-hainan"], "王**"]
        assert "王建国" not in public.text + listed.text
        # the staff routes need a staff key
        for path in ("register/certificates", "units"):
            assert (await client.get(f"{url}/{path}")).status_code == 401
            assert (await client.get(f"{url}/{path}", headers={"x-api-key": "partner-key"})).status_code == 403
