"""Arbiter decisions from pairing (``result.decided``): one result for a pairing in both services.

A decision closes the pairing's games that are still open (waiting or being played) and
corrects finished ones that disagree with it; the pairing's last game carries the decided round
points. From then on the games are finished, so no move, join, flag fall or no-show sweep can
change them (the player gets a 409). Decisions may arrive before the round's games exist
(events of different types are not ordered): they are stored, and a game created later starts
closed. The decision with the highest ``sequence`` wins; an older one changes nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import and_, delete, select, update

from gomoku_shared.contracts.events import GameFinished, PairingOutcome, ResultDecided

from ..adapters.orm import arbiter_decisions, game_actions, game_events, games
from ..engine import RoundPointsTable

#: decided outcome -> (winning pairing player "a"/"b" or None, round points of a, of b)
_TABLE = RoundPointsTable()
OUTCOMES: dict[str, tuple[str | None, int, int]] = {
    "first_wins": ("a", _TABLE.win, _TABLE.loss),
    "first_forfeit_win": ("a", _TABLE.win, _TABLE.loss),
    "second_wins": ("b", _TABLE.loss, _TABLE.win),
    "second_forfeit_win": ("b", _TABLE.loss, _TABLE.win),
    "draw": (None, _TABLE.draw, _TABLE.draw),
    "double_forfeit": (None, _TABLE.loss, _TABLE.loss),
}


class GameMovedOn(RuntimeError):
    """A player's action changed the game while the decision was applied: the event is
    handled again (redelivered) on the new state."""


def _key(event_code: str, stage: str, section_id: str, rnd: int, pairing_id: str):
    d = arbiter_decisions.c
    return and_(
        d.event_code == event_code,
        d.stage == stage,
        d.section_id == section_id,
        d.round == rnd,
        d.pairing_id == pairing_id,
    )


def _games_of(event_code: str, stage: str, section_id: str, rnd: int, pairing_id: str):
    c = games.c
    return (
        select(games)
        .where(
            c.event_code == event_code,
            c.stage == stage,
            c.section_id == section_id,
            c.round == rnd,
            c.pairing_id == pairing_id,
            c.playoff_id.is_(None),
        )
        .order_by(c.game_no)
    )


async def on_result_decided(service, uow, p: ResultDecided) -> None:
    """Store the decision (if newer than the one applied) and apply it to the pairing's games."""
    s = uow.session
    key = _key(p.event_code, p.stage, p.section_id, p.round, p.pairing_id)
    stored = (await s.execute(select(arbiter_decisions.c.sequence).where(key))).first()
    if stored is not None and stored[0] >= p.sequence:
        return  # redelivered, or overtaken by a later correction
    await s.execute(delete(arbiter_decisions).where(key))
    decision = dict(
        event_code=p.event_code,
        stage=p.stage,
        section_id=p.section_id,
        round=p.round,
        pairing_id=p.pairing_id,
        sequence=p.sequence,
        outcome=p.outcome,
        reason=p.reason,
        note=p.note[:1000],
        decided_ms=int(p.decided_at.timestamp() * 1000),
    )
    await s.execute(arbiter_decisions.insert().values(**decision))
    q = _games_of(p.event_code, p.stage, p.section_id, p.round, p.pairing_id).with_for_update()
    await s.execute(q)
    # read again once locked: a game 2 created by a move that committed while we waited is seen
    rows = [dict(r) for r in (await s.execute(q)).mappings().all()]
    await apply(service, uow, rows, decision)


async def decision_for(session, g) -> dict[str, Any] | None:
    """The arbiter's decision on the pairing of game ``g`` (round games only)."""
    if g["playoff_id"]:
        return None
    row = (
        (
            await session.execute(
                select(arbiter_decisions).where(
                    _key(g["event_code"], g["stage"], g["section_id"], g["round"], g["pairing_id"])
                )
            )
        )
        .mappings()
        .first()
    )
    return dict(row) if row is not None else None


async def apply(service, uow, rows: list[dict], d: dict) -> None:
    """Close or correct each game of the pairing that disagrees with the decision."""
    if not rows:
        return
    if _pairing_shows(rows) == d["outcome"]:
        return  # the games already give the arbiter's result (e.g. 1W+1L of a two-game round is a draw)
    last = max(g["game_no"] for g in rows)
    for g in rows:
        if _agrees(g, d, g["game_no"] == last):
            continue
        await _close(service, uow, g, d, g["game_no"] == last)


def _pairing_shows(rows: list[dict]) -> str | None:
    """The pairing's outcome as its finished games give it (None while it goes on)."""
    last = max(rows, key=lambda g: g["game_no"])
    if any(g["status"] != "finished" for g in rows) or not last["outcome"]:
        return None
    if last["result"] == "double_forfeit":
        return "double_forfeit"
    a, b = last["outcome"]["first_points"], last["outcome"]["second_points"]
    kind = "_forfeit_win" if last["reason"] == "no_show" else "_wins"
    return "draw" if a == b else ("first" if a > b else "second") + kind


def _wanted(g, d: dict) -> tuple[str | None, str]:
    """(winner player id, result) the decision gives game ``g``; colours as the game has them."""
    ab, _pa, _pb = OUTCOMES[d["outcome"]]
    winner = None if ab is None else g["player_a"] if ab == "a" else g["player_b"]
    if d["outcome"] == "double_forfeit":
        return None, "double_forfeit"
    if winner is None:
        return None, "draw"
    return winner, "black" if winner == g["black"] else "white"


def _points(d: dict) -> dict[str, int]:
    _ab, pa, pb = OUTCOMES[d["outcome"]]
    return {"first_points": pa, "second_points": pb}


def _agrees(g, d: dict, last: bool) -> bool:
    if g["status"] != "finished":
        return False
    winner, result = _wanted(g, d)
    forfeit = d["reason"] == "no_show"
    if g["winner"] != winner or g["result"] != result or (g["reason"] == "no_show") != forfeit:
        return False
    return not last or g["outcome"] == _points(d)


async def _close(service, uow, g: dict, d: dict, last: bool) -> None:
    from .games import NS, _clock, _clock_values, _readings, round_key  # one module's helpers

    s = uow.session
    now = service.now_ms()
    service._cache.pop(g["game_id"], None)
    live = await service._live(s, g)
    was_finished = g["status"] == "finished"
    winner, result = _wanted(g, d)
    values: dict[str, Any] = dict(
        status="finished",
        result=result,
        reason=d["reason"],
        winner=winner,
        foul=None,
        to_act=None,
        draw_offer_by=None,
        phase="over",
        no_show_due_ms=None,
    )
    values["outcome"] = _points(d) if last else g["outcome"]
    cs = _clock(g)
    action_rows = []
    if not was_finished:
        cs = cs.stop(now)
        values.update(_clock_values(cs), flag_due_ms=None, finished_ms=now)
        # the engine state ends too, so that a replayed log refuses every later action
        data = {"result": result, "note": d["note"], "decision": d["outcome"]}
        live.apply("arbiter", None, data)
        values["n_actions"] = g["n_actions"] + 1
        action_rows.append(
            dict(
                game_id=g["game_id"],
                idx=values["n_actions"],
                kind="arbiter",
                role=None,
                player_id=None,
                data=data,
                at_ms=now,
                think_ms=None,
                clock=_readings(cs, live, now),
            )
        )
    values["seq"] = g["seq"] + 1
    values["version"] = g["version"] + 1
    res = await s.execute(
        update(games).where(and_(games.c.game_id == g["game_id"], games.c.version == g["version"])).values(**values)
    )
    if res.rowcount != 1:
        raise GameMovedOn(f"game {g['game_id']} changed while the arbiter's decision was applied")
    if action_rows:
        await s.execute(game_actions.insert(), action_rows)
    await s.execute(
        game_events.insert().values(
            game_id=g["game_id"],
            seq=values["seq"],
            round_key=round_key(g["event_code"], g["section_id"], g["round"]),
            # an open game ends like any other (streams close on "finished"); a finished one is corrected
            kind="corrected" if was_finished else "finished",
            at_ms=now,
            data={
                "result": result,
                "reason": d["reason"],
                "winner": winner,
                "foul": None,
                "outcome": values["outcome"],
                "double_forfeit": result == "double_forfeit",
                "decision": d["outcome"],
                "decided_by": "arbiter",
                "clocks": _readings(cs, live, now),
            },
        )
    )
    if was_finished:
        return  # its game.finished went out when it ended; pairing holds the decision already
    row = {**g, **values}
    rec = service.record(row, live, await service._action_meta(s, g["game_id"]), values)
    uow.emit(
        GameFinished(
            event_code=g["event_code"],
            stage=g["stage"],
            section_id=g["section_id"],
            round=g["round"],
            pairing_id=g["pairing_id"],
            game_id=g["game_id"],
            game_no=g["game_no"],
            playoff_id=None,
            black=g["black"],
            white=g["white"],
            winner=winner,
            result=result,
            reason=d["reason"],
            moves=live.moves,
            record=rec,
            outcome=PairingOutcome(**values["outcome"]) if values["outcome"] else None,
            double_forfeit=result == "double_forfeit",
            first=g["player_a"],
            second=g["player_b"],
        ),
        event_id=uuid.uuid5(NS, f"{g['game_id']}/finished"),
    )
