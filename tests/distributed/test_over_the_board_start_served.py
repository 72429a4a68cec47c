"""EVT-7 for every way an over-the-board game progresses, over a real socket (issue 30; NT 2023,
played at the venue with live recording, NT 十二(五)): the gameplay process as in
docker-compose.yml on PostgreSQL + RabbitMQ, on a simulation clock (CLOCK=fake) set to the
evening before NT's first round (06-21 20:00 for 06-22 09:00).

A recorder step, a result slip, its confirmation and a record entered before the start answer 409
``not_started`` with ``details.starts_at`` and leave the game as it was. The recorder cannot
record an exception; an arbiter does, with the reason: audited (who, when, why), and that game's
steps and slip then count before the start. The round is delayed (``round.rescheduled`` on the
broker): at the old start the refusal names the new one; at the new start the steps and the slip
count, and both games' ``game.finished`` reach the broker."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta, timezone

import httpx

from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired, RoundRescheduled
from gomoku_shared.messaging.rabbit import RabbitEventBus

from .compose_commands import LocalCompose

OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
PARTNER = {"x-api-key": "partner-key"}
CST = timezone(timedelta(hours=8))
EVENING_BEFORE = datetime(2023, 6, 21, 20, 0, tzinfo=CST)
ROUND_1 = datetime(2023, 6, 22, 9, 0, tzinfo=CST)
DELAYED = ROUND_1 + timedelta(minutes=30)
G1 = "NTS.final.mixed.r1.p1.g1"
G2 = "NTS.final.mixed.r1.p2.g1"
STEP = {"kind": "move", "point": "h8", "step": 1}
SLIP = {"result": "black", "reason": "five", "note": "slip of the board"}
REASON = "the players of table 2 leave early; played the evening before by agreement"


def _spec(pairing_id: str, first: str, second: str) -> PairingSpec:
    return PairingSpec(
        pairing_id=pairing_id,
        first=first,
        second=second,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="fischer", base_s=2700, increment_s=30),
    )


def _message(payload) -> bytes:
    return encode(envelope_for(payload, correlation_id="NTS", occurred_at=EVENING_BEFORE))


def _not_started(answer: httpx.Response, starts: datetime) -> None:
    assert answer.status_code == 409, answer.text
    error = answer.json()["error"]
    assert error["code"] == "not_started", error
    assert datetime.fromisoformat(error["details"]["starts_at"]) == starts, error


async def test_evt7_nt_recorder_steps_and_slips_wait_for_the_start_unless_an_arbiter_excepts_the_game(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """EVT-7, NT 十二(五), PLAY-9, PLAY-10: nothing progresses before the round's start over the
    board; the arbiter's exception (with a reason, audited; not the recorder's) and the arbiter's
    delay are followed by the served process."""
    stack = LocalCompose(
        database_urls={"gameplay": await fresh_database()},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"CLOCK": "fake", "CLOCK_START": EVENING_BEFORE.isoformat()},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    finished: list = []

    async def observe(message) -> None:
        finished.append(decode(message).payload)

    try:
        proc = await stack.serve("gameplay")
        await publisher.start()
        await publisher.subscribe("observer", ["game.finished"], observe)
        paired = RoundPaired(
            event_code="NTS",
            stage="final",
            section_id="mixed",
            round=1,
            starts_at=ROUND_1,
            pairings=[_spec("p1", "alice", "bob"), _spec("p2", "carol", "dave")],
            mode="offline",
        )
        await publisher.publish([_message(paired)])
        async with httpx.AsyncClient(base_url=proc.url, headers=OP, timeout=30) as http:
            async with asyncio.timeout(30):
                while len((await http.get("/v1/games", params={"event": "NTS"})).json()["games"]) < 2:
                    await asyncio.sleep(0.1)
            # the recorders are issued the evening before: preparing the venue is not progress
            secrets = {}
            for game_id in (G1, G2):
                issued = await http.post(f"/v1/games/{game_id}/recorder", headers=ARB)
                assert issued.status_code == 201, issued.text
                secrets[game_id] = {"X-Recorder-Secret": issued.json()["recorder_secret"]}
            venue = httpx.AsyncClient(base_url=proc.url, timeout=30)  # the recorder: no API key

            # before the start: nothing progresses, whoever enters it
            _not_started(await venue.post(f"/v1/games/{G1}/recorded", json=STEP, headers=secrets[G1]), ROUND_1)
            _not_started(await http.post(f"/v1/games/{G1}/slips", json=SLIP, headers=ARB), ROUND_1)
            _not_started(await http.post(f"/v1/games/{G1}/slips", json={**SLIP, "confirms": 1}), ROUND_1)
            record = {"moves": ["h8", "h9"]}
            _not_started(await http.post(f"/v1/games/{G1}/record-entries", json=record, headers=ARB), ROUND_1)
            game = (await http.get(f"/v1/games/{G1}")).json()
            assert (game["moves"], game["status"]) == ([], "waiting")
            assert (await http.get(f"/v1/games/{G1}/slips")).json()["slips"] == []

            # the recorder cannot except its game: no API key, a partner's key, a reason in a step
            early = f"/v1/games/{G2}/early-start"
            refused = await venue.post(early, json={"reason": REASON}, headers=secrets[G2])
            assert refused.status_code == 401 and refused.json()["error"]["code"] == "missing_api_key", refused.text
            assert (await venue.post(early, json={"reason": REASON}, headers=PARTNER)).status_code == 403
            sneaked = {**STEP, "early_reason": REASON}
            _not_started(await venue.post(f"/v1/games/{G2}/recorded", json=sneaked, headers=secrets[G2]), ROUND_1)
            # the arbiter does, with the reason: audited
            allowed = await http.post(early, json={"reason": REASON}, headers=ARB)
            assert allowed.status_code == 201, allowed.text
            audit = (await http.get(early, headers=ARB)).json()
            assert audit["exception"] == allowed.json()
            assert (audit["exception"]["reason"], audit["exception"]["allowed_by"]) == (REASON, "arbiter:-:k2")
            assert datetime.fromisoformat(audit["exception"]["allowed_at"]) == EVENING_BEFORE
            assert datetime.fromisoformat(audit["exception"]["starts_at"]) == ROUND_1
            stepped = await venue.post(f"/v1/games/{G2}/recorded", json=STEP, headers=secrets[G2])
            assert stepped.status_code == 200 and stepped.json()["flag"] is None, stepped.text
            assert (await http.post(f"/v1/games/{G2}/slips", json=SLIP, headers=ARB)).status_code == 200
            confirmed = await http.post(f"/v1/games/{G2}/slips", json={**SLIP, "confirms": 1})
            assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text

            # the arbiter delays the round by half an hour: the refusal follows the new start
            delay = RoundRescheduled(
                event_code="NTS",
                stage="final",
                section_id="mixed",
                round=1,
                starts_at=DELAYED,
                previous_starts_at=ROUND_1,
                reason="the hall's lights",
                decided_by="arb-key",
                decided_at=EVENING_BEFORE,
            )
            await publisher.publish([_message(delay)])
            async with asyncio.timeout(30):
                while datetime.fromisoformat((await http.get(f"/v1/games/{G1}")).json()["starts_at"]) != DELAYED:
                    await asyncio.sleep(0.1)
            moved = await http.post("/v1/ops/clock", json={"set": ROUND_1.isoformat()})
            assert moved.status_code == 200, moved.text
            _not_started(await venue.post(f"/v1/games/{G1}/recorded", json=STEP, headers=secrets[G1]), DELAYED)
            _not_started(await http.post(f"/v1/games/{G1}/slips", json=SLIP, headers=ARB), DELAYED)

            # from the new start the recorder's steps and the slip count
            assert (await http.post("/v1/ops/clock", json={"set": DELAYED.isoformat()})).status_code == 200
            stepped = await venue.post(f"/v1/games/{G1}/recorded", json=STEP, headers=secrets[G1])
            assert stepped.status_code == 200 and stepped.json()["flag"] is None, stepped.text
            assert (await http.post(f"/v1/games/{G1}/slips", json=SLIP, headers=ARB)).status_code == 200
            confirmed = await http.post(f"/v1/games/{G1}/slips", json={**SLIP, "confirms": 1})
            assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text
            entered = await http.post(f"/v1/games/{G1}/record-entries", json={"moves": ["h8"]}, headers=ARB)
            assert entered.status_code == 201, entered.text
            views = {game_id: (await http.get(f"/v1/games/{game_id}")).json() for game_id in (G1, G2)}
            await venue.aclose()
        async with asyncio.timeout(30):
            while len(finished) < 2:
                await asyncio.sleep(0.1)

        assert {game_id: view["moves"] for game_id, view in views.items()} == {G1: ["h8"], G2: ["h8"]}
        assert sorted((f.game_id, f.result, f.reason, f.winner) for f in finished) == [
            (G1, "black", "five", "alice"),
            (G2, "black", "five", "carol"),
        ]
    finally:
        await publisher.close()
        stack.stop_all()
