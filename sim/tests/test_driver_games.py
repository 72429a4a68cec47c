"""The driver's game loop against the real gameplay service (embedded, in-memory bus, fake
clock): bots play through HTTP, stalled games are ended by moving the clock (PLAY-5, PLAY-7)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gomoku_shared.contracts import encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired
from gomoku_sim.bots import BotPolicy, is_no_show, stall_ply
from gomoku_sim.driver import EventDriver, RunSpec

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def _round(code: str) -> RoundPaired:
    free = Ruleset(track="free")
    pro = Ruleset(track="professional")
    pro2 = Ruleset(track="professional", fixed_n=2)
    specs = []
    for i in range(8):
        rules = (free, pro, pro2)[i % 3]
        specs.append(
            PairingSpec(
                pairing_id=f"p{i}",
                first=f"a{i}",
                second=f"b{i}",
                ruleset=rules,
                games=2 if rules is free else 1,
                round_clock=rules is free,
                clock=ClockSpec(kind="fischer", base_s=600, increment_s=5)
                if rules is not free
                else ClockSpec(kind="sudden_death", base_s=1800),
                first_partner="partner-1",
                second_partner="partner-1",
            )
        )
    return RoundPaired(
        event_code=code,
        stage="main",
        section_id="s1",
        round=1,
        pairings=specs,
        starts_at=datetime(2022, 11, 5, 1, tzinfo=UTC),
        no_show_minutes=15,
    )


async def _play(tmp_path, seed: int, policy: BotPolicy, verify: bool = False) -> dict:
    from gomoku_sim.stack import embedded_stack

    async with embedded_stack(tmp_path / f"d{seed}-{verify}") as stack:
        await stack.clock.set(datetime(2022, 11, 5, 1, tzinfo=UTC))
        suite = stack.extras["suite"]
        env = envelope_for(_round("ev1"), correlation_id="ev1")
        await suite.bus.publish([encode(env)])
        await suite.drain()
        driver = EventDriver(
            stack.platform,
            stack.clock,
            stack.quiet,
            RunSpec(
                preset_id="sz-2022", seed=seed, event_code="ev1", policy=policy, progress=False, verify_views=verify
            ),
        )
        await driver.settle_games({"s1": 15})
        # the bots' reads and actions went through the typed partner client
        assert stack.platform.partner.requests >= driver.actions > 0
        d = await stack.platform.get("gameplay", "/v1/games", params={"event_code": "ev1", "status": "all"})
        out = {}
        for g in d["games"]:
            full = await stack.platform.get("gameplay", f"/v1/games/{g['game_id']}")
            out[g["game_id"]] = (full["status"], full["result"], full["reason"], tuple(full["moves"]))
        return out


async def test_play7_play5_bots_finish_every_game_and_stalls_end_by_the_clock(tmp_path):
    """PLAY-2 openings through HTTP, PLAY-7 no-show forfeit and PLAY-5 time forfeit found by the
    sweep after the driver moves the fake clock; the same seed gives the same games."""
    policy = BotPolicy(no_show_rate=0.15, timeout_rate=0.15)
    seed = next(
        s
        for s in range(200)
        if any(is_no_show(policy, s, f"ev1.main.s1.r1.p{i}.g1", f"a{i}") for i in range(8))
        and any(
            stall_ply(policy, s, f"ev1.main.s1.r1.p{i}.g1", p) is not None
            and not is_no_show(policy, s, f"ev1.main.s1.r1.p{i}.g1", p)
            for i in range(8)
            for p in (f"a{i}", f"b{i}")
        )
    )
    games = await _play(tmp_path, seed, policy)
    assert games and all(v[0] == "finished" for v in games.values()), games
    reasons = {v[2] for v in games.values()}
    assert "no_show" in reasons and "time" in reasons, reasons
    assert any(len(v[3]) > 9 for v in games.values())
    again = await _play(tmp_path, seed, policy, verify=True)  # every predicted view checked
    assert again == games
