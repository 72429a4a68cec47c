"""EVT-7 + PAIR-6 / PLAY-7: a scheduled round's games start at the scheduled time, not when they
are created — no move before it (409 not_started), the clock runs from it, the no-show limit
counts from it — and an arbiter's delay (round.rescheduled) moves all three."""

from __future__ import annotations

from datetime import timedelta

from gameplay_kit import START, pairing, round_paired

from gomoku_shared.contracts.events import RoundRescheduled

GAME = "EV.main.S1.r1.p1.g1"
NO_SHOW = 15 * 60  # PAIR-6: 15 minutes (the presets' no_show_minutes)


async def _sweep(gp) -> dict:
    return (await gp.api.post("/v1/ops/sweep")).json()


async def test_evt7_no_move_before_the_scheduled_start_and_the_clock_runs_from_it(gp):
    """EVT-7: the round is published at 09:00 for 10:30 (its slot): the players may join, a
    move is refused with 409 not_started naming the start; at 10:30 black's clock starts."""
    starts = START + timedelta(minutes=90)
    await gp.publish(round_paired(pairing("p1", "alice", "bob", base_s=900), starts_at=starts))
    await gp.settle()
    await gp.api.join_both(GAME, "alice", "bob")
    game = await gp.api.game(GAME)
    assert game["starts_at"] == starts.isoformat()
    assert game["legal_actions"] == [] and game["clocks"]["black_ms"] == 900_000
    gp.clock.advance(60 * 60)  # 10:00, half an hour before the start
    refused = await gp.api.act(GAME, "move", "alice", point="h8")
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    assert error["code"] == "not_started" and error["details"]["starts_at"] == starts.isoformat()
    assert (await gp.api.game(GAME))["clocks"]["black_ms"] == 900_000  # nobody's time ran
    assert (await _sweep(gp)) == {"flags": 0, "no_shows": 0, "double_forfeits": 0}
    gp.clock.advance(30 * 60 + 20)  # 10:30:20: the round started 20 s ago
    game = await gp.api.game(GAME)
    assert game["clocks"]["running"] == "black" and game["clocks"]["black_ms"] == 880_000
    moved = await gp.api.act(GAME, "move", "alice", point="h8")
    assert moved.status_code == 200, moved.text


async def test_pair6_evt7_no_show_limit_counts_from_the_scheduled_start(gp):
    """PAIR-6 + EVT-7: created at 09:00 for a 10:30 start, a game whose second player never
    joins is forfeited at 10:45 (15 minutes after the start), not at 09:15."""
    starts = START + timedelta(minutes=90)
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), starts_at=starts))
    await gp.settle()
    assert (await gp.api.act(GAME, "join", "alice")).status_code == 200
    gp.clock.advance(NO_SHOW + 60)  # 09:16: past a limit counted from the game's creation
    assert (await _sweep(gp))["no_shows"] == 0
    gp.clock.set(starts + timedelta(seconds=NO_SHOW - 1))  # 10:44:59
    assert (await _sweep(gp))["no_shows"] == 0
    gp.clock.set(starts + timedelta(seconds=NO_SHOW))  # 10:45:00
    assert (await _sweep(gp))["no_shows"] == 1
    await gp.settle()
    [finished] = gp.finished()
    assert (finished.reason, finished.winner) == ("no_show", "alice")


def _delay(to, previous) -> RoundRescheduled:
    return RoundRescheduled(
        event_code="EV",
        stage="main",
        section_id="S1",
        round=1,
        starts_at=to,
        previous_starts_at=previous,
        reason="venue power cut",
        decided_by="arb-key",
        decided_at=START,
    )


async def test_evt7_a_delay_moves_start_clock_and_no_show_limit(gp):
    """EVT-7: the arbiter delays the round from 10:30 to 11:00: the game that both joined waits
    (its clock starts at 11:00), the game with an absent player forfeits at 11:15, not 10:45;
    a redelivered delay changes nothing more."""
    starts, later = START + timedelta(minutes=90), START + timedelta(minutes=120)
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave"), starts_at=starts))
    await gp.settle()
    await gp.api.join_both(GAME, "alice", "bob")
    other = "EV.main.S1.r1.p2.g1"
    assert (await gp.api.act(other, "join", "carol")).status_code == 200
    await gp.publish(_delay(later, starts))
    await gp.publish(_delay(later, starts))  # the same delay again: a no-op
    await gp.settle()
    game = await gp.api.game(GAME)
    assert game["starts_at"] == later.isoformat()
    gp.clock.set(starts + timedelta(minutes=5))  # 10:35: the old start has passed
    refused = await gp.api.act(GAME, "move", "alice", point="h8")
    assert refused.status_code == 409 and refused.json()["error"]["details"]["starts_at"] == later.isoformat()
    gp.clock.set(starts + timedelta(seconds=NO_SHOW))  # 10:45: the old limit
    assert (await _sweep(gp))["no_shows"] == 0
    gp.clock.set(later + timedelta(seconds=10))
    assert (await gp.api.game(GAME))["clocks"]["black_ms"] == 900_000 - 10_000
    gp.clock.set(later + timedelta(seconds=NO_SHOW))  # 11:15
    assert (await _sweep(gp))["no_shows"] == 1
    stream = (await gp.api.get(f"/v1/games/{GAME}/events")).text  # server-sent events
    assert stream.count("event: rescheduled") == 1, stream


async def test_evt7_a_game_under_way_keeps_its_course_when_the_round_is_delayed(gp):
    """A delay arriving after the first move (the round had started) leaves the game alone."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), starts_at=START))
    await gp.settle()
    await gp.api.join_both(GAME, "alice", "bob")
    assert (await gp.api.act(GAME, "move", "alice", point="h8")).status_code == 200
    await gp.publish(_delay(START + timedelta(hours=1), START))
    await gp.settle()
    game = await gp.api.game(GAME)
    assert game["starts_at"] == START.isoformat() and game["moves"] == ["h8"]
