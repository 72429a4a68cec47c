"""SZ 九(一), PAIR-1/PAIR-2 over real sockets: a small Swiss field plays every round the
regulation gives it. The pairing service (the docker-compose.yml command) on PostgreSQL +
RabbitMQ receives a free section of 8 entrants closed with SZ's 7 rounds; an arbiter enters every
result over HTTP. The results are a sequence after which the Dutch system alone finds no legal
pairing for round 6 (the section used to stop, ``awaiting_arbiter``); with the look-ahead every
round is paired by the service, nobody meets twice and the last round completes."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import httpx

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import SectionClosed
from gomoku_shared.messaging.rabbit import RabbitEventBus
from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain.model import Outcome, Player, Tournament, record_round
from pairing.domain.swiss import NoLegalPairing, _with_pairs

from .compose_commands import LocalCompose

EV = "SZSMALL"
SEC = f"/v1/events/{EV}/sections/men-free"
START = datetime(2022, 11, 5, 1, 0, tzinfo=UTC)
ARB = {"x-api-key": "arb-key"}
PLAYERS, ROUNDS = 8, 7
#: the results: a seeded choice per (round, first, second) by start number (e1 = 1 … e8 = 8)
SALT = 3
RESULTS = {Outcome.FIRST_WINS: "first_wins", Outcome.SECOND_WINS: "second_wins", Outcome.DRAW: "draw"}


def _outcome(rnd: int, first: int, second: int) -> Outcome:
    return random.Random(f"{SALT}:{rnd}:{first}:{second}").choice(list(RESULTS))


def _dutch_alone_stalls_in() -> int | None:
    """The round in which the Dutch engine alone (no look-ahead) finds no legal pairing."""
    t = Tournament(tuple(Player(i, f"e{i}", rating=2000 - i) for i in range(1, PLAYERS + 1)), rounds_planned=ROUNDS)
    for rnd in range(1, ROUNDS + 1):
        try:
            pairs = FastGacruxDutch().pair(t, rnd, [p.id for p in t.players])
        except NoLegalPairing:
            return rnd
        pairing = _with_pairs(rnd, {}, pairs)
        outcomes = {i: _outcome(rnd, b.first, b.second) for i, b in enumerate(pairing.boards)}
        t = record_round(t, pairing, outcomes)
    return None


def _closed() -> SectionClosed:
    rules = SectionRules(
        rounds=ROUNDS,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        round_starts=[START + timedelta(hours=2 * n) for n in range(ROUNDS)],
    )
    entrants = [
        Entrant(entrant_id=f"e{i}", name=f"Player {i}", gender="male", rating=2000 - i) for i in range(1, PLAYERS + 1)
    ]
    return SectionClosed(
        event_code=EV,
        stage="online",
        section_id="men-free",
        name="Men, free rules",
        status="ready",
        rules=rules,
        entrants=entrants,
    )


async def _round(client: httpx.AsyncClient, rnd: int) -> dict:
    """Round ``rnd`` once paired; fails naming the section's status if it never is."""
    section: dict = {}
    try:
        async with asyncio.timeout(90):
            while True:
                r = await client.get(f"{SEC}/rounds/{rnd}")
                if r.status_code == 200 and r.json()["pairings"]:
                    return r.json()
                section = (await client.get(SEC)).json()
                assert section.get("status") != "awaiting_arbiter", section
                await asyncio.sleep(0.2)
    except TimeoutError:
        raise AssertionError(f"round {rnd} never paired: {section}") from None


async def test_pair1_sz_9_1_a_free_section_of_eight_plays_its_seven_swiss_rounds_served(
    fresh_database, amqp_url, bus_namespace, tmp_path
):
    """SZ 九(一), PAIR-1/PAIR-2: 8 entrants, 7 Swiss rounds, results after which the Dutch system
    alone stalls in round 6: the served pairing service pairs all 7 rounds (no rematch, every
    entrant on a board each round) and completes the last round — no round waits for the arbiter."""
    assert _dutch_alone_stalls_in() == 6  # the reproduction: without the look-ahead, round 6 has no pairing
    database = await fresh_database()
    stack = LocalCompose(
        database_urls={"pairing": database},
        amqp_url=amqp_url,
        namespace=bus_namespace,
        log_dir=tmp_path,
        extra_env={"CLOCK": "fake", "CLOCK_START": START.isoformat(), "RELAY_POLL_S": "0.2"},
    )
    publisher = RabbitEventBus(amqp_url, namespace=bus_namespace)
    try:
        served = await stack.serve("pairing")
        await publisher.start()
        await publisher.publish([encode(envelope_for(_closed(), correlation_id=EV, occurred_at=START))])
        met: dict[str, set[str]] = {f"e{i}": set() for i in range(1, PLAYERS + 1)}
        async with httpx.AsyncClient(base_url=served.url, timeout=30, headers=ARB) as client:
            for rnd in range(1, ROUNDS + 1):
                paired = await _round(client, rnd)
                seated = [p for pairing in paired["pairings"] for p in (pairing["first"], pairing["second"])]
                assert sorted(seated) == sorted(met), (rnd, paired["pairings"])
                for pairing in paired["pairings"]:
                    first, second = pairing["first"], pairing["second"]
                    assert second not in met[first], f"round {rnd}: rematch {first}-{second}"
                    met[first].add(second)
                    met[second].add(first)
                    result = RESULTS[_outcome(rnd, int(first[1:]), int(second[1:]))]
                    entered = await client.post(
                        f"{SEC}/rounds/{rnd}/results", json={"pairing_id": pairing["pairing_id"], "result": result}
                    )
                    assert entered.status_code == 200, entered.text

            async def last_round_complete() -> dict | None:
                last = (await client.get(f"{SEC}/rounds/{ROUNDS}")).json()
                return last if last.get("status") == "complete" else None

            async with asyncio.timeout(60):
                while not await last_round_complete():
                    await asyncio.sleep(0.2)
            section = (await client.get(SEC)).json()
        # past the last round only ties may wait for the arbiter (PAIR-8), never a pairing
        assert "no legal pairing" not in str(section.get("note")), section
        assert all(len(opponents) == ROUNDS for opponents in met.values())
    finally:
        await publisher.close()
        stack.stop_all()
