"""Issue 29 in the gameplay service over a real socket: the gameplay process as in
docker-compose.yml on PostgreSQL + RabbitMQ. The event's owner and its chosen partner apps
arrive on the broker (``event.access_changed``, as registration sends them); a partner app the
organiser did not choose gets 403 ``partner_not_chosen`` on its player's join and move (the
move lane), the chosen one plays; an arbiter's key of another organisation gets 403
``not_your_event`` on a slip; a slip entered by one arbiter is not confirmed by the same one
(409 ``same_person_confirms``) and is by another (200)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import asyncpg
import httpx
from sqlalchemy.engine import make_url

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import EventAccessChanged, PairingSpec, RoundPaired
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

KEYS = (
    "op-key=operator,arb-1=arbiter:club,arb-2=arbiter:club,arb-other=arbiter:elsewhere,"
    "chosen-key=partner:chosen,other-key=partner:other"
)
OP = {"x-api-key": "op-key"}
ARB_1 = {"x-api-key": "arb-1"}
ARB_2 = {"x-api-key": "arb-2"}
ARB_OTHER = {"x-api-key": "arb-other"}
CHOSEN = {"x-api-key": "chosen-key"}
OTHER = {"x-api-key": "other-key"}
ONLINE = "PA29.main.S1.r1.p1.g1"
OFFLINE = "PA29.main.S2.r1.p1.g1"
SLIP = {"result": "black", "reason": "five"}


def _round(section: str, mode: str) -> RoundPaired:
    spec = PairingSpec(
        pairing_id="p1",
        first=f"{section}-alice",
        second=f"{section}-bob",
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="fischer", base_s=900, increment_s=10),
        first_partner="chosen",
        second_partner="other",
    )
    return RoundPaired(
        event_code="PA29",
        stage="main",
        section_id=section,
        round=1,
        starts_at=datetime.now(UTC),
        no_show_minutes=15,
        pairings=[spec],
        mode=mode,  # type: ignore[arg-type]
    )


def _message(payload) -> bytes:
    return encode(envelope_for(payload, correlation_id="PA29", occurred_at=datetime.now(UTC)))


async def _stored_access(database_url: str) -> None:
    """Until the gameplay process has stored the event's access (its consumer's commit)."""
    dsn = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    conn = await asyncpg.connect(dsn)
    try:
        async with asyncio.timeout(30):
            while not await conn.fetchval("SELECT count(*) FROM event_access WHERE event_code = 'PA29'"):
                await asyncio.sleep(0.1)
    finally:
        await conn.close()


def _refused(answer: httpx.Response, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert error["code"] == code and set(error["details"]["words"]) == {"zh", "en"}, error


async def test_issue_29_partner_apps_per_event_and_slips_by_two_people_over_a_socket(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """Issue 29, "a partner not chosen gets 403 on a move" and "the same person entering and
    confirming -> 409 same_person_confirms", served on PostgreSQL + RabbitMQ."""
    database_url = await fresh_database()
    stack = LocalCompose(
        database_urls={"gameplay": database_url},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"API_KEYS": KEYS},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        proc = await stack.serve("gameplay")
        await publisher.start()
        changed = EventAccessChanged(
            event_code="PA29", organisation="club", partners=["chosen"], changed_at=datetime.now(UTC)
        )
        await publisher.publish([_message(changed)])
        await _stored_access(database_url)
        await publisher.publish([_message(_round("S1", "online")), _message(_round("S2", "offline"))])
        async with httpx.AsyncClient(base_url=proc.url, headers=OP, timeout=30) as http:
            async with asyncio.timeout(30):
                while len((await http.get("/v1/games", params={"event": "PA29"})).json()["games"]) < 2:
                    await asyncio.sleep(0.1)

            # the partner apps: the chosen one's player joins and moves, the other's cannot
            joined = await http.post(f"/v1/games/{ONLINE}/join", json={"player_id": "S1-alice"}, headers=CHOSEN)
            assert joined.status_code == 200, joined.text
            _refused(
                await http.post(f"/v1/games/{ONLINE}/join", json={"player_id": "S1-bob"}, headers=OTHER),
                403,
                "partner_not_chosen",
            )
            assert (await http.post(f"/v1/games/{ONLINE}/join", json={"player_id": "S1-bob"})).status_code == 200
            moved = await http.post(
                f"/v1/games/{ONLINE}/move", json={"player_id": "S1-alice", "point": "h8"}, headers=CHOSEN
            )
            assert moved.status_code == 200, moved.text
            _refused(
                await http.post(f"/v1/games/{ONLINE}/move", json={"player_id": "S1-bob", "point": "a1"}, headers=OTHER),
                403,
                "partner_not_chosen",
            )
            assert (await http.get(f"/v1/games/{ONLINE}")).json()["moves"] == ["h8"]

            # the slips: the club's arbiters only, and two of them
            _refused(await http.post(f"/v1/games/{OFFLINE}/slips", json=SLIP, headers=ARB_OTHER), 403, "not_your_event")
            assert (await http.post(f"/v1/games/{OFFLINE}/slips", json=SLIP, headers=ARB_1)).status_code == 200
            confirm = {**SLIP, "confirms": 1}
            _refused(
                await http.post(f"/v1/games/{OFFLINE}/slips", json=confirm, headers=ARB_1), 409, "same_person_confirms"
            )
            confirmed = await http.post(f"/v1/games/{OFFLINE}/slips", json=confirm, headers=ARB_2)
            assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text
            slips = confirmed.json()["slips"]
            assert [s["status"] for s in slips] == ["confirmed", "confirmed"]
            assert slips[0]["entered_by_id"] != slips[1]["entered_by_id"]
    finally:
        await publisher.close()
        stack.stop_all()
