"""PAIR-1 round limits and EVT-7 scheduled starts at closing, over a real socket: registration
served as its own process (the docker-compose.yml command) on PostgreSQL + RabbitMQ.

NT 七(二) says 采用积分编排制或循环制…根据参赛队数决定赛制和比赛轮次，不超过7轮. Nine teams: the
round robin would take 9 rounds, two of them without a slot in the three days' schedule. The
close refuses it (422 naming the maximum and the formats that fit) and closes nothing; the
arbiter then closes with the format the refusal offers, and the section.closed that reaches
the bus has a scheduled start for every round."""

from __future__ import annotations

import asyncio

import httpx

from gomoku_shared.contracts import decode
from gomoku_shared.messaging.bus import Message
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

KEYS = "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1"
OP, ARB, P1 = ({"x-api-key": k} for k in ("op-key", "arb-key", "p1-key"))
#: NT 2023: registration open (closes 06-13 17:00)
NT_OPEN = "2023-06-01T10:00:00+08:00"
REGIONS = ("Hubei", "Anhui", "Hunan", "Henan", "Jiangsu", "Zhejiang", "Fujian", "Shandong", "Sichuan")
#: the fee ledger is not what this test is about (REG-14 has its own): the entries count without it
NO_FEE_GATE = {"fees": {"required_for_validity": False}}


def _team(k: int, region: str) -> dict:
    evidence = [{"kind": "household_registration", "document_ref": f"HK-{k}", "region": region}]
    members = [
        {
            "name": f"Team {k} board {board}",
            "gender": gender,
            "birth_date": "1990-05-05",
            "id_number": f"4403{k:02d}19900505{board:03d}{k % 10}",
            "board": board,
            "evidence": evidence,
        }
        for board, gender in ((1, "male"), (2, "male"), (3, "female"))
    ]
    return {
        "section_id": "mixed-team",
        "unit": region.lower(),
        "team_name": f"{region} team",
        "members": members,
        "insurance": {"confirmed": True, "document_ref": f"NT-POL-{k}"},
    }


async def test_pair1_nt_nine_teams_refused_a_nine_round_robin_then_closed_with_every_round_scheduled(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """NT 七(二) / PAIR-1 / EVT-7: a 9-team round robin (9 rounds > 7) is refused with the
    choices; the Swiss the refusal offers closes, and every round of it has a scheduled start."""
    stack = LocalCompose(
        database_urls={"registration": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS, "CLOCK": "fake", "CLOCK_START": NT_OPEN},
    )
    listener = RabbitEventBus(amqp_url, namespace=bus_namespace)
    closed_events: list = []

    async def collect(message: Message) -> None:
        envelope = decode(message)
        if envelope.type == "section.closed" and envelope.payload.event_code == "nt-rl":
            closed_events.append(envelope.payload)

    try:
        proc = await stack.serve("registration")
        await listener.subscribe_broadcast(["section.closed"], collect)
        async with httpx.AsyncClient(base_url=proc.url, timeout=30) as http:
            body = {"preset_id": "nt-2023", "event_code": "nt-rl", "overrides": NO_FEE_GATE}
            r = await http.post("/v1/events", headers=OP, json=body)
            assert r.status_code == 201, r.text
            teams = []
            for k, region in enumerate(REGIONS):
                unit = {"id": region.lower(), "name": region, "kind": "province", "region": region}
                assert (await http.post("/v1/events/nt-rl/units", headers=P1, json=unit)).status_code == 201
                r = await http.post("/v1/events/nt-rl/teams", headers=P1, json=_team(k, region))
                assert r.json()["status"] == "accepted", r.text
                teams.append(r.json()["entry_id"])
            close = {"format_choices": {"mixed-team": {"kind": "round_robin"}}, "not_checked_in": "present"}

            # the issue: a round robin of 9 teams is 9 rounds, beyond NT's binding 7
            r = await http.post("/v1/events/nt-rl/stages/main/close", headers=OP, json=close)
            assert r.status_code == 422, r.text
            error = r.json()["error"]
            assert error["code"] == "rounds_exceed_maximum" and "PAIR-1" in error["message"], error
            details = error["details"]
            assert (details["rule"], details["section_id"], details["entrants"]) == ("PAIR-1", "mixed-team", 9)
            assert (details["format"], details["rounds"], details["max_rounds"]) == ("round_robin", 9, 7)
            assert details["max_rounds_binding"] == "strict" and details["override"] is None
            assert details["scheduled_rounds"] == 7 and details["round_robin_rounds"] is None
            assert [c["kind"] for c in details["choices"]] == ["swiss"] and 1 <= details["swiss_rounds"] <= 7

            # a reason does not move a binding maximum
            reasoned = {"kind": "round_robin", "over_max_reason": "everyone wants to play everyone"}
            r = await http.post(
                "/v1/events/nt-rl/stages/main/close",
                headers=OP,
                json={**close, "format_choices": {"mixed-team": reasoned}},
            )
            assert r.status_code == 422 and r.json()["error"]["code"] == "rounds_exceed_maximum", r.text
            stage = (await http.get("/v1/events/nt-rl/stages/main", headers=OP)).json()
            assert stage["status"] != "closed"  # nothing was closed by the refusals

            # the arbiter takes the Swiss the refusal offers
            swiss = {"kind": "swiss", "rounds": details["swiss_rounds"]}
            r = await http.post(
                "/v1/events/nt-rl/stages/main/close",
                headers=OP,
                json={**close, "format_choices": {"mixed-team": swiss}},
            )
            assert r.status_code == 200, r.text
            mixed = next(s for s in r.json()["sections"] if s["section_id"] == "mixed-team")
            assert (mixed["status"], mixed["format"], mixed["rounds"]) == ("ready", "swiss", details["swiss_rounds"])

            async with asyncio.timeout(30):
                while not any(p.section_id == "mixed-team" for p in closed_events):
                    await asyncio.sleep(0.05)
            published = next(p for p in closed_events if p.section_id == "mixed-team")
            assert published.rules.format == "swiss" and published.rules.rounds == details["swiss_rounds"]
            assert sorted(e.entrant_id for e in published.entrants) == sorted(teams)
            # EVT-7: a scheduled start for every round the section plays, in order
            starts = published.rules.round_starts[: published.rules.rounds]
            assert len(starts) == published.rules.rounds and starts == sorted(starts)
            schedule = (await http.get("/v1/events/nt-rl/schedule", headers=OP)).json()
            rounds_listed = [
                s["round"] for st in schedule["stages"] for s in st["sessions"] if "mixed-team" in s["sections"]
            ]
            assert rounds_listed == list(range(1, published.rules.rounds + 1))
        assert "Traceback" not in proc.log.read_text()
    finally:
        await listener.close()
        stack.stop_all()
