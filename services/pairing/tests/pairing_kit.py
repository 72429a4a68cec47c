"""The pairing service's test kit: builders, and the service harness (gomoku_shared.testing.harness)
on SQLite + in-memory bus, or PostgreSQL + RabbitMQ. The harness plays gameplay's part: it reads each ``round.paired`` / ``playoff.required``
and answers with deterministic ``game.finished`` events (results from a hash of the pairing)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Member, Points, Ruleset, SectionRules
from gomoku_shared.contracts.events import GameFinished, PairingOutcome, PairingSpec, SectionClosed
from gomoku_shared.messaging.bus import EventBus
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.documented_answers import check_answers
from gomoku_shared.testing.harness import ServiceHarness
from pairing.bootstrap import build

KEYS = "op-key=operator,arb-key=arbiter,pa-key=partner:pa"
ARB = {"x-api-key": "arb-key"}
PA = {"x-api-key": "pa-key"}
START = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
EV = "EV"
OBSERVED = [
    "round.paired",
    "standings.updated",
    "section.completed",
    "playoff.required",
    "result.decided",
    "round.rescheduled",
    "appeal.lodged",
    "appeal.decided",
]


def sqlite_settings(directory) -> ServiceSettings:
    """Fast tests: SQLite and the in-memory bus whatever DATABASE_URL / AMQP_URL the environment sets."""
    return ServiceSettings(DATABASE_URL=f"sqlite+aiosqlite:///{directory}/pairing.sqlite", AMQP_URL=None, API_KEYS=KEYS)


def rules(
    *,
    kind: str = "individual",
    fmt: str = "swiss",
    rounds: int = 7,
    track: str = "free",
    two_game: bool = False,
    tiebreaks: list[str] | None = None,
    tie_policy: str = "share",
    places: int = 0,
    boards: int = 1,
    rank_by_gender: bool = False,
    edition: int = 2024,
) -> SectionRules:
    return SectionRules(
        kind=kind,
        format=fmt,
        rounds=rounds,
        boards=boards,
        two_game_rounds=two_game,
        ruleset=Ruleset(track=track),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        points=Points(),
        match_points=Points(),
        tiebreaks=tiebreaks or [],
        tie_policy=tie_policy,
        places_that_matter=places,
        rank_by_gender=rank_by_gender,
        tiebreak_edition=edition,
    )


def players(n: int, *, genders: bool = False, partner: str | None = "pa") -> list[Entrant]:
    return [
        Entrant(
            entrant_id=f"p{i:03d}",
            name=f"Player {i}",
            rating=2400 - i,
            gender=("female" if i % 2 else "male") if genders else None,
            partner_id=partner,
            unit=f"U{i % 5}",
        )
        for i in range(1, n + 1)
    ]


def team_entrants(n: int, boards: int = 3) -> list[Entrant]:
    return [
        Entrant(
            entrant_id=f"t{i:02d}",
            name=f"Team {i}",
            unit=f"U{i}",
            members=[
                Member(player_id=f"t{i:02d}m{b}", name=f"T{i} board {b}", gender="male", board=b)
                for b in range(1, boards + 1)
            ],
        )
        for i in range(1, n + 1)
    ]


def closed(section_id: str, entrants: list[Entrant], r: SectionRules, status: str = "ready") -> SectionClosed:
    return SectionClosed(
        event_code=EV,
        stage="main",
        section_id=section_id,
        name=section_id.upper(),
        status=status,
        rules=r,
        entrants=entrants,
    )


def _h(*parts: Any) -> int:
    return int(hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:8], 16)


def game_result(seed: int, section: str, rnd: int, pairing_id: str, game_no: int, draws: bool = True) -> str:
    """'first' / 'second' / 'draw' from the game's first mover's side, deterministic."""
    v = _h(seed, section, rnd, pairing_id, game_no) % 10
    if v < 5:
        return "first"
    if v < 9 or not draws:
        return "second"
    return "draw"


class Harness(ServiceHarness):
    """The pairing service, what it published, and a deterministic stand-in for gameplay."""

    def __init__(
        self,
        settings: ServiceSettings,
        bus: EventBus | None = None,
        observer_bus: EventBus | None = None,
        clock: FakeClock | None = None,
        seed: int = 1,
    ) -> None:
        super().__init__(
            build,
            settings,
            bus=bus,
            observer_bus=observer_bus,
            clock=clock or FakeClock(START),
            observe=OBSERVED,
        )
        self.seed = seed
        self.sent: list[GameFinished] = []

    async def start(self) -> Harness:
        """Started, with every successful answer checked against the OpenAPI document."""
        await super().start()
        check_answers(self.client, self.service.app.openapi())
        return self

    # ------------------------------------------------------------------ gameplay's part

    def finished_for(
        self, section: str, rnd: int, spec: PairingSpec, playoff_id: str | None = None, forfeit: str | None = None
    ) -> list[GameFinished]:
        """The game.finished events gameplay would send for one pairing (PAIR-4, PAIR-5)."""
        out = []
        firsts = [(spec.first, spec.second), (spec.second, spec.first)][: spec.games]
        pts = {spec.first: 0, spec.second: 0}
        key = playoff_id or rnd
        for n, (black, white) in enumerate(firsts, 1):
            res = game_result(self.seed, section, key, spec.pairing_id, n, draws=playoff_id is None)
            if forfeit is not None:
                winner = spec.second if forfeit == spec.first else spec.first
                res = "first" if winner == black else "second"
            winner = None if res == "draw" else (black if res == "first" else white)
            for p in pts:
                pts[p] += 1 if winner is None else 2 * (p == winner)
            last = n == len(firsts) or forfeit is not None
            outcome = None
            if last:
                a, b = pts[spec.first], pts[spec.second]
                if forfeit is not None:
                    outcome = PairingOutcome(first_points=2 if a > b else 0, second_points=2 if b > a else 0)
                elif playoff_id is not None:
                    if a == b:  # the decider: the first player of the pairing wins it (deterministic)
                        a, b = a + 1, b
                    outcome = PairingOutcome(first_points=2 if a > b else 0, second_points=2 if b > a else 0)
                elif spec.games == 2:
                    table = {4: 2, 3: 2, 2: 1, 1: 0, 0: 0}
                    outcome = PairingOutcome(first_points=table[a], second_points=table[b])
                else:
                    outcome = PairingOutcome(first_points=a, second_points=b)
            out.append(
                GameFinished(
                    event_code=EV,
                    section_id=section,
                    round=0 if playoff_id else rnd,
                    pairing_id=spec.pairing_id,
                    game_id=f"{section}.{key}.{spec.pairing_id}.g{n}",
                    game_no=n,
                    playoff_id=playoff_id,
                    black=black,
                    white=white,
                    winner=winner,
                    result="draw" if winner is None else ("black" if winner == black else "white"),
                    reason="no_show" if forfeit else ("agreement" if winner is None else "five"),
                    outcome=outcome,
                    stage="main",
                    first=spec.first,
                    second=spec.second,
                )
            )
            if last:
                break
        return out

    async def play_round(self, section: str, rnd: int, forfeits: dict[str, str] | None = None) -> None:
        """Answer the round.paired of ``rnd`` with every game.finished."""
        paired = [p for p in self.payloads("round.paired", section) if p.round == rnd]
        assert len(paired) == 1, f"round {rnd} of {section} paired {len(paired)} times"
        msgs = []
        for spec in paired[0].pairings:
            for g in self.finished_for(section, rnd, spec, forfeit=(forfeits or {}).get(spec.pairing_id)):
                self.sent.append(g)
                msgs.append(encode(envelope_for(g, correlation_id=EV, occurred_at=self.clock.now())))
        await self.observer_bus.publish(msgs)
        await self.settle()

    async def draw_round(self, section: str, rnd: int) -> None:
        """Every game of round ``rnd`` drawn (builds exact ties for PAIR-8 tests)."""
        await self.wait_for(
            lambda: any(p.round == rnd for p in self.payloads("round.paired", section)),
            what=f"round {rnd} of {section}",
        )
        paired = [p for p in self.payloads("round.paired", section) if p.round == rnd][0]
        msgs = []
        for s in paired.pairings:
            g = GameFinished(
                event_code=EV,
                section_id=section,
                round=rnd,
                pairing_id=s.pairing_id,
                game_id=f"{section}.{rnd}.{s.pairing_id}",
                black=s.first,
                white=s.second,
                winner=None,
                result="draw",
                reason="agreement",
                outcome=PairingOutcome(first_points=1, second_points=1),
                stage="main",
                first=s.first,
                second=s.second,
            )
            self.sent.append(g)
            msgs.append(encode(envelope_for(g, correlation_id=EV, occurred_at=self.clock.now())))
        await self.observer_bus.publish(msgs)
        await self.settle()

    async def play_playoffs(self, section: str) -> int:
        """Answer every playoff.required not answered yet; returns how many."""
        done = {g.playoff_id for g in self.sent if g.playoff_id}
        n = 0
        for po in self.payloads("playoff.required", section):
            if po.playoff_id in done:
                continue
            msgs = []
            for spec in po.pairings:
                for g in self.finished_for(section, 0, spec, playoff_id=po.playoff_id):
                    self.sent.append(g)
                    msgs.append(encode(envelope_for(g, correlation_id=EV, occurred_at=self.clock.now())))
            await self.observer_bus.publish(msgs)
            n += 1
        await self.settle()
        return n

    async def revision(self, section: str, rnd: int, pairing_id: str) -> int:
        """The result revision of a pairing as the round's read shows it (what an arbiter's
        correction names as ``expected_revision``)."""
        answer = (await self.client.get(f"/v1/events/{EV}/sections/{section}/rounds/{rnd}")).json()
        return next(p["revision"] for p in answer["pairings"] if p["pairing_id"] == pairing_id)

    async def play_section(self, section: str, rounds: int) -> None:
        for r in range(1, rounds + 1):
            await self.wait_for(
                lambda: any(p.round == r for p in self.payloads("round.paired", section)),
                what=f"round {r} of {section}",
            )
            await self.play_round(section, r)
        for _ in range(10):
            await self.wait_for(
                lambda: (
                    self.payloads("section.completed", section)
                    or {p.playoff_id for p in self.payloads("playoff.required", section)}
                    - {g.playoff_id for g in self.sent if g.playoff_id}
                ),
                what=f"the end of {section}",
            )
            if not await self.play_playoffs(section):
                break
