"""The gameplay service's test kit: the events it consumes, an API client of one game's actions,
and the service harness (gomoku_shared.testing.harness) on SQLite and the in-memory bus."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

import httpx

from gameplay.bootstrap import build
from gameplay.config import GameplayConfig
from gameplay.domain.live import LiveGame, Rules
from gameplay.domain.played_game import PlayedGame
from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, PlayoffRequired, ResultDecided, RoundPaired
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.harness import ServiceHarness

KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa,pb-key=partner:pb,pn-key=partner:pn"
OP = {"x-api-key": "op-key"}
ARB = {"x-api-key": "arb-key"}
PA = {"x-api-key": "pa-key"}
PB = {"x-api-key": "pb-key"}
START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def pairing(
    pid: str,
    first: str,
    second: str,
    *,
    track: str = "free",
    games: int = 1,
    base_s: int = 900,
    increment_s: int = 0,
    fixed_n: int | None = None,
    round_clock: bool = False,
    forbidden_policy: str = "loss",
) -> PairingSpec:
    return PairingSpec(
        pairing_id=pid,
        first=first,
        second=second,
        games=games,
        ruleset=Ruleset(track=track, fixed_n=fixed_n, forbidden_policy=forbidden_policy),
        clock=ClockSpec(kind="fischer" if increment_s else "sudden_death", base_s=base_s, increment_s=increment_s),
        round_clock=round_clock,
        first_partner="pa",
        second_partner="pb",
    )


def round_paired(
    *pairings: PairingSpec,
    rnd: int = 1,
    section: str = "S1",
    no_show_minutes: int = 15,
    starts_at: datetime | None = START,
    mode: str = "online",
) -> RoundPaired:
    return RoundPaired(
        mode=mode,  # type: ignore[arg-type]  # the contract checks the name
        event_code="EV",
        stage="main",
        section_id=section,
        round=rnd,
        starts_at=starts_at,
        no_show_minutes=no_show_minutes,
        pairings=list(pairings),
    )


def decided(
    pid: str, first: str, second: str, outcome: str, *, sequence: int, rnd: int = 1, section: str = "S1", note: str = ""
) -> ResultDecided:
    """result.decided as pairing sends it when an arbiter enters or corrects a result."""
    reason = "no_show" if "forfeit" in outcome else "arbiter"
    return ResultDecided(
        event_code="EV",
        stage="main",
        section_id=section,
        round=rnd,
        pairing_id=pid,
        first=first,
        second=second,
        outcome=outcome,
        reason=reason,
        sequence=sequence,
        decided_at=START,
        note=note,
    )


def playoff(*pairings: PairingSpec, decider: ClockSpec | None = None) -> PlayoffRequired:
    return PlayoffRequired(
        event_code="EV",
        stage="main",
        section_id="S1",
        playoff_id="po1",
        place_from=1,
        place_to=2,
        entrant_ids=[p.first for p in pairings] + [p.second for p in pairings],
        pairings=list(pairings),
        decider_clock=decider,
    )


def message(payload, clock: FakeClock):
    return encode(envelope_for(payload, correlation_id="EV", occurred_at=clock.now()))


@dataclass
class Observed:
    events: list[Any] = field(default_factory=list)

    async def handler(self, message) -> None:
        self.events.append(decode(message))

    def of(self, type_: str) -> list[Any]:
        return [e.payload for e in self.events if e.type == type_]


class Api:
    """Thin client: actions of one game; raises nothing, returns the response."""

    def __init__(self, client: httpx.AsyncClient, prefix: str = "") -> None:
        self.c = client
        self.p = prefix

    async def get(self, path: str, headers=OP, **params):
        return await self.c.get(self.p + path, headers=headers, params=params)

    async def post(self, path: str, body: dict | None = None, headers=OP, **kw):
        return await self.c.post(self.p + path, json=body or {}, headers=headers, **kw)

    async def act(self, gid: str, what: str, player: str, headers=OP, **body):
        return await self.post(f"/v1/games/{gid}/{what}", {"player_id": player, **body}, headers=headers)

    async def join_both(self, gid: str, a: str, b: str) -> None:
        for p in (a, b):
            r = await self.act(gid, "join", p)
            assert r.status_code == 200, r.text

    async def game(self, gid: str) -> dict:
        r = await self.get(f"/v1/games/{gid}")
        assert r.status_code == 200, r.text
        return r.json()


#: the background sweeper's pause in the harness: the tests move the fake clock and sweep through
#: ``POST /v1/ops/sweep``, whose counts a background round between the two would take from them
HARNESS_SWEEP_POLL_S = 3600.0


def build_sweeping_on_request(settings: ServiceSettings, **kwargs: Any):
    """The service as built for production, but its background sweeper idles for an hour between rounds."""
    config = replace(GameplayConfig.from_settings(settings), sweep_poll_s=HARNESS_SWEEP_POLL_S)
    return build(settings, config=config, **kwargs)


class Harness(ServiceHarness):
    """The gameplay service on the in-memory bus, observing the game.* events; games are swept
    when a test asks (``POST /v1/ops/sweep``), not by the background loop."""

    def __init__(self, settings: ServiceSettings, clock: FakeClock | None = None) -> None:
        super().__init__(build_sweeping_on_request, settings, clock=clock or FakeClock(START), observe=["game.*"])

    async def start(self) -> Harness:
        await super().start()
        self.api = Api(self.client)
        return self

    def finished(self):
        return self.payloads("game.finished")

    def started(self):
        return self.payloads("game.started")


async def eventually(pred, timeout: float = 10.0, step: float = 0.02):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        value = await pred()
        if value:
            return value
        if loop.time() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(step)


async def idempotency_scenario(api: Api, publish, clock: FakeClock, wait_games) -> None:
    """Idempotency-Key (gomoku_shared.idempotency): bound to principal, route, game and body.
    ``publish`` delivers an event, ``wait_games(n)`` waits until n games exist."""
    await publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave")))
    await wait_games(2)
    b3, b4 = "EV.main.S1.r1.p1.g1", "EV.main.S1.r1.p2.g1"
    await api.join_both(b3, "alice", "bob")
    await api.join_both(b4, "carol", "dave")
    key = {**OP, "Idempotency-Key": "move-1"}
    first = await api.post(f"/v1/games/{b3}/move", {"player_id": "alice", "point": "h8"}, headers=key)
    assert first.status_code == 200 and "idempotent-replayed" not in first.headers, first.text
    again = await api.post(f"/v1/games/{b3}/move", {"player_id": "alice", "point": "h8"}, headers=key)
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    # the same key with any other request: another game, another point, another action
    for gid, what, body in [
        (b4, "move", {"player_id": "carol", "point": "h8"}),
        (b3, "move", {"player_id": "bob", "point": "i9"}),
        (b3, "resign", {"player_id": "bob"}),
    ]:
        r = await api.post(f"/v1/games/{gid}/{what}", body, headers=key)
        assert r.status_code == 409 and r.json()["error"]["code"] == "idempotency_key_reused", (gid, what, r.text)
    assert (await api.game(b4))["moves"] == [] and (await api.game(b3))["moves"] == ["h8"]
    # another principal's keys are its own
    r = await api.post(
        f"/v1/games/{b4}/move", {"player_id": "carol", "point": "h8"}, headers={**PA, "Idempotency-Key": "move-1"}
    )
    assert r.status_code == 200 and "idempotent-replayed" not in r.headers, r.text
    # the key expires (IDEMPOTENCY_TTL_S, default a day of the service clock): then it is free
    clock.advance(86400 + 1)
    # round 2 starts now: with the old start its no-show limit would be long past, and the
    # background sweeper could forfeit the game before the players join
    await publish(round_paired(pairing("p1", "alice", "bob"), rnd=2, starts_at=clock.now()))
    await wait_games(3)
    b5 = "EV.main.S1.r2.p1.g1"
    await api.join_both(b5, "alice", "bob")
    r = await api.post(f"/v1/games/{b5}/move", {"player_id": "alice", "point": "h8"}, headers=key)
    assert r.status_code == 200 and "idempotent-replayed" not in r.headers, r.text
    assert (await api.game(b5))["moves"] == ["h8"]


def played_game(**columns: Any) -> PlayedGame:
    """A game aggregate as stored (a one-minute clock, not joined yet), ``columns`` changed."""
    stored: dict[str, Any] = dict(
        game_id="EV.main.S1.r1.p1.g1",
        event_code="EV",
        stage="main",
        section_id="S1",
        round=1,
        pairing_id="p1",
        game_no=1,
        black="alice",
        white="bob",
        phase="opening",
        to_act="alice",
        outcome=None,
        playoff_id=None,
        player_a="alice",
        player_b="bob",
        partner_a="pa",
        partner_b="pb",
        first_id="alice",
        second_id="bob",
        status="waiting",
        result=None,
        reason=None,
        winner=None,
        joined_first=False,
        joined_second=False,
        draw_offer_by=None,
        clock_first_ms=60_000,
        clock_second_ms=60_000,
        increment_ms=0,
        clock_running=None,
        clock_since_ms=None,
        no_show_due_ms=15 * 60_000,
        version=1,
        seq=1,
        n_actions=0,
    )
    stored.update(columns)
    return PlayedGame(stored, LiveGame(Rules(), "alice", "bob"))
