"""EVT-7 for every way an over-the-board game progresses (NT 2023: played at the venue, live
recording NT 十二(五)): before the round's scheduled start a recorder's step, a result slip (entry
or confirmation) and a record entered after the game answer 409 ``not_started`` with
``details.starts_at``, as an online move does; an arbiter's delay moves the start the refusal
follows; an arbiter (never the recorder) may record an exception with a reason, audited, and the
game then progresses before the start. Domain tables, then the service on SQLite."""

from __future__ import annotations

from datetime import timedelta

import pytest
from gameplay_kit import ARB, OP, PA, START, pairing, round_paired

from gameplay.domain.early_start import refuse_early_start
from gameplay.domain.errors import GameConflict
from gameplay.domain.round_start import iso, refuse_before_start
from gomoku_shared.contracts.events import RoundRescheduled

G1 = "EV.main.S1.r1.p1.g1"
G2 = "EV.main.S1.r1.p2.g1"
#: NT's first round: the evening before it (START, 09:00 + 11 h) the venue is set up
NEXT_DAY = START + timedelta(days=1)
STARTS_MS = int(NEXT_DAY.timestamp() * 1000)
STEP = {"kind": "move", "point": "h8"}
SLIP = {"result": "black", "reason": "five"}
RECORD = {"moves": ["h8", "h9", "h10"]}


def _columns(**values) -> dict:
    base = dict(
        game_id=G1,
        round=1,
        mode="offline",
        status="waiting",
        starts_ms=STARTS_MS,
        result=None,
        reason=None,
        winner=None,
    )
    return base | values


@pytest.mark.parametrize(
    ("now", "starts_ms", "excepted", "refused"),
    [
        (STARTS_MS - 1, STARTS_MS, False, True),  # a millisecond early
        (STARTS_MS, STARTS_MS, False, False),  # at the start
        (STARTS_MS + 60_000, STARTS_MS, False, False),
        (STARTS_MS - 3_600_000, None, False, False),  # no scheduled start: started when created
        (STARTS_MS - 3_600_000, STARTS_MS, True, False),  # the arbiter's exception
    ],
)
def test_evt7_nt_progress_before_the_start_is_refused_unless_excepted(now, starts_ms, excepted, refused):
    """EVT-7, NT 十二(五): the same refusal for a move, a recorder step, a slip or a record."""
    columns = _columns(starts_ms=starts_ms)
    if not refused:
        refuse_before_start(columns, now, doing="no result slip", excepted=excepted)
        return
    with pytest.raises(GameConflict) as caught:
        refuse_before_start(columns, now, doing="no result slip", excepted=excepted)
    assert caught.value.code == "not_started" and caught.value.details == {"starts_at": iso(starts_ms)}
    assert "no result slip before it" in caught.value.message


@pytest.mark.parametrize(
    ("values", "now", "code"),
    [
        ({}, STARTS_MS - 1, None),
        ({"mode": "online"}, STARTS_MS - 1, "not_over_the_board"),
        ({"status": "finished", "result": "black", "reason": "arbiter"}, STARTS_MS - 1, "game_over"),
        ({}, STARTS_MS, "already_started"),
        ({"starts_ms": None}, STARTS_MS - 1, "already_started"),
    ],
)
def test_evt7_an_exception_only_for_an_over_the_board_game_not_started_yet(values, now, code):
    """EVT-7: what the arbiter's exception can be recorded for."""
    if code is None:
        refuse_early_start(_columns(**values), now)
        return
    with pytest.raises(GameConflict) as caught:
        refuse_early_start(_columns(**values), now)
    assert caught.value.code == code


def _delay(to, previous) -> RoundRescheduled:
    return RoundRescheduled(
        event_code="EV",
        stage="main",
        section_id="S1",
        round=1,
        starts_at=to,
        previous_starts_at=previous,
        reason="the hall is not ready",
        decided_by="arb-key",
        decided_at=START,
    )


def _not_started(response, starts) -> None:
    assert response.status_code == 409, response.text
    error = response.json()["error"]
    assert (error["code"], error["details"]) == ("not_started", {"starts_at": starts.isoformat()}), error


async def _recorder(gp, gid: str) -> dict:
    issued = await gp.api.post(f"/v1/games/{gid}/recorder", {}, headers=ARB)
    assert issued.status_code == 201, issued.text  # issued ahead of the round: preparation, not progress
    return {"X-Recorder-Secret": issued.json()["recorder_secret"]}


async def test_evt7_nt_nothing_progresses_before_the_start_and_a_delay_moves_it(gp):
    """EVT-7, NT 十二(五): the evening before the first round a recorder step, a slip, its
    confirmation and a record are refused naming the start; the arbiter delays the round by an
    hour: at the old start they are refused naming the new one; at the new start they count."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), starts_at=NEXT_DAY, mode="offline"))
    secret = await _recorder(gp, G1)
    gp.clock.advance(11 * 3600)  # 20:00 the evening before
    _not_started(await gp.api.post(f"/v1/games/{G1}/recorded", {**STEP, "step": 1}, headers=secret), NEXT_DAY)
    _not_started(await gp.api.post(f"/v1/games/{G1}/slips", SLIP, headers=ARB), NEXT_DAY)
    _not_started(await gp.api.post(f"/v1/games/{G1}/slips", {**SLIP, "confirms": 1}, headers=OP), NEXT_DAY)
    _not_started(await gp.api.post(f"/v1/games/{G1}/record-entries", RECORD, headers=ARB), NEXT_DAY)
    game = await gp.api.game(G1)
    assert (game["moves"], game["status"]) == ([], "waiting")
    assert (await gp.api.get(f"/v1/games/{G1}/slips")).json()["slips"] == []
    assert (await gp.api.get(f"/v1/games/{G1}/record-entries")).json()["entries"] == []

    delayed = NEXT_DAY + timedelta(hours=1)
    await gp.publish(_delay(delayed, NEXT_DAY))
    gp.clock.set(NEXT_DAY)  # the old start
    _not_started(await gp.api.post(f"/v1/games/{G1}/recorded", {**STEP, "step": 1}, headers=secret), delayed)
    _not_started(await gp.api.post(f"/v1/games/{G1}/slips", SLIP, headers=ARB), delayed)

    gp.clock.set(delayed)
    stepped = await gp.api.post(f"/v1/games/{G1}/recorded", {**STEP, "step": 1}, headers=secret)
    assert stepped.status_code == 200 and stepped.json()["flag"] is None, stepped.text
    assert (await gp.api.game(G1))["moves"] == ["h8"]
    assert (await gp.api.post(f"/v1/games/{G1}/slips", SLIP, headers=ARB)).status_code == 200
    confirmed = await gp.api.post(f"/v1/games/{G1}/slips", {**SLIP, "confirms": 1}, headers=OP)
    assert confirmed.status_code == 200 and confirmed.json()["game"]["status"] == "finished", confirmed.text
    assert (await gp.api.post(f"/v1/games/{G1}/record-entries", RECORD, headers=ARB)).status_code == 201


async def test_evt7_an_arbiters_exception_with_a_reason_is_audited_and_lets_the_game_progress(gp):
    """EVT-7: a game played early by agreement. The recorder cannot record the exception (no
    API key, and a reason in a step changes nothing); a partner cannot; the arbiter does, with
    the reason: who, when and why are kept, a second request keeps the first. Then the game's
    steps, slip and record count before the start; the other game of the round still waits."""
    await gp.publish(
        round_paired(pairing("p1", "alice", "bob"), pairing("p2", "carol", "dave"), starts_at=NEXT_DAY, mode="offline")
    )
    secret = await _recorder(gp, G1)
    gp.clock.advance(11 * 3600)
    path = f"/v1/games/{G1}/early-start"
    reason = {"reason": "both players leave for the airport: played early by agreement"}
    assert (await gp.api.post(path, reason, headers=secret)).status_code == 401
    assert (await gp.api.post(path, reason, headers=PA)).status_code == 403
    sneaked = await gp.api.post(f"/v1/games/{G1}/recorded", {**STEP, "early_reason": "agreed"}, headers=secret)
    _not_started(sneaked, NEXT_DAY)
    assert (await gp.api.get(path, headers=ARB)).json() == {
        "game_id": G1,
        "starts_at": NEXT_DAY.isoformat(),
        "exception": None,
    }
    assert (await gp.api.post(path, {"reason": ""}, headers=ARB)).status_code == 422

    allowed = await gp.api.post(path, reason, headers=ARB)
    assert allowed.status_code == 201, allowed.text
    now = (START + timedelta(hours=11)).isoformat()
    expected = {
        "game_id": G1,
        "reason": reason["reason"],
        "allowed_by": "arbiter:-:k2",
        # issue 29: who allowed it (an API key: its id stands for the name)
        "allowed_by_id": "k2",
        "allowed_by_name": "k2",
        "allowed_at": now,
        "starts_at": NEXT_DAY.isoformat(),
    }
    assert allowed.json() == expected
    again = await gp.api.post(path, {"reason": "another reason"}, headers=OP)
    assert (again.status_code, again.json()) == (200, expected)
    assert (await gp.api.get(path, headers=ARB)).json()["exception"] == expected
    assert (await gp.api.get(path, headers=PA)).status_code == 403

    stepped = await gp.api.post(f"/v1/games/{G1}/recorded", {**STEP, "step": 1}, headers=secret)
    assert stepped.status_code == 200 and stepped.json()["flag"] is None, stepped.text
    assert (await gp.api.game(G1))["moves"] == ["h8"]
    assert (await gp.api.post(f"/v1/games/{G1}/slips", SLIP, headers=ARB)).status_code == 200
    confirmed = await gp.api.post(f"/v1/games/{G1}/slips", {**SLIP, "confirms": 1}, headers=OP)
    assert confirmed.json()["game"]["status"] == "finished", confirmed.text
    assert (await gp.api.post(f"/v1/games/{G1}/record-entries", RECORD, headers=ARB)).status_code == 201
    _not_started(await gp.api.post(f"/v1/games/{G2}/slips", SLIP, headers=ARB), NEXT_DAY)
    await gp.settle()
    [finished] = gp.finished()
    assert (finished.game_id, finished.result, finished.reason) == (G1, "black", "five")


async def test_evt7_no_exception_for_an_online_game_a_started_round_or_a_finished_game(gp):
    """EVT-7: online moves wait for the start (or an arbiter's delay); a started round needs no
    exception; a finished game none either — each a 409 in the common shape, nothing stored."""
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), starts_at=NEXT_DAY))
    await gp.publish(round_paired(pairing("p1", "alice", "bob"), rnd=2, starts_at=START, mode="offline"))
    reason = {"reason": "played early by agreement"}
    online = await gp.api.post(f"/v1/games/{G1}/early-start", reason, headers=ARB)
    assert (online.status_code, online.json()["error"]["code"]) == (409, "not_over_the_board")
    started = await gp.api.post("/v1/games/EV.main.S1.r2.p1.g1/early-start", reason, headers=ARB)
    assert (started.status_code, started.json()["error"]["code"]) == (409, "already_started")
    assert started.json()["error"]["details"] == {"starts_at": START.isoformat()}
    assert (await gp.api.get("/v1/games/EV.main.S1.r2.p1.g1/early-start", headers=ARB)).json()["exception"] is None
    missing = await gp.api.post("/v1/games/EV.main.S1.r9.p1.g1/early-start", reason, headers=ARB)
    assert missing.status_code == 404
