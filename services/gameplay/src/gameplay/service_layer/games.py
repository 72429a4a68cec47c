"""Use cases of the gameplay service: games from events, player actions, the flag/no-show sweep.

Every change runs in one ``runtime.transaction()``: the game row (optimistic concurrency on
``version``), the action log row, the stream event rows, an idempotency row and the outbox rows
commit together, and the caller is answered only after that commit. A conflict on ``version``
(another replica changed the game first) reloads and retries the action.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from gomoku_shared.contracts.events import (
    GameFinished,
    GameStarted,
    PairingOutcome,
    PairingSpec,
    PlayoffRequired,
    ResultDecided,
    RoundPaired,
)
from gomoku_shared.errors import Conflict, Forbidden, NotFound, ServiceError, Unprocessable
from gomoku_shared.idempotency import REPLAYED_HEADER, IdempotencyStore, KeyedRequest, Stored

from ..adapters.move_writer import MoveWrite, PgMoveWriter
from ..adapters.orm import game_actions, game_events, games, idempotency_keys
from ..domain.clocks import ClockState
from ..domain.live import LiveGame, Rules, colour_result, other
from ..domain.outcome import FinishedGame, after_game, reason_name
from ..engine import IllegalAction, record_game
from ..engine.errors import CONFLICT_CODES
from . import decisions

NS = uuid.UUID("6b1d6c8e-5a43-4a55-9a0e-2f1f3c0d9e01")
MAX_RETRIES = 8


def ms(dt: datetime) -> int:
    return int(dt.timestamp() * 1000)


def round_key(event_code: str, section_id: str, rnd: int) -> str:
    return f"{event_code}/{section_id}/{rnd}"


def game_id_for(
    event_code: str, stage: str, section_id: str, rnd: int, pairing_id: str, n: int, playoff_id: str | None = None
) -> str:
    """Deterministic ids: runs are compared byte for byte across run modes."""
    if playoff_id:
        return f"{event_code}.{stage}.{section_id}.po.{playoff_id}.{pairing_id}.g{n}"
    return f"{event_code}.{stage}.{section_id}.r{rnd}.{pairing_id}.g{n}"


def illegal(exc: IllegalAction) -> ServiceError:
    details = {k: _jsonable(v) for k, v in exc.details.items()} or None
    cls = Conflict if exc.code in CONFLICT_CODES else Unprocessable
    return cls(exc.code, exc.message, details)


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    return v


def game_over(g) -> Conflict:
    """409 for any action on a finished game (decided by play, the clock, a no-show or an arbiter)."""
    by = "decided by the arbiter" if g["reason"] == "arbiter" else "over"
    return Conflict(
        "game_over",
        f"the game is {by} ({g['result']}, {g['reason']}): no action can change it",
        {"result": g["result"], "reason": g["reason"], "winner": g["winner"]},
    )


class _Retry(Exception):
    pass


@dataclass
class Principal:
    """Who acts: partners only for their own players (``partner_id``), staff for anyone."""

    role: str
    partner_id: str | None = None
    key_id: str = ""


@dataclass
class Change:
    """Everything one use case writes for one game."""

    values: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    error: ServiceError | None = None  # committed, then reported (a flag fell before the action)


class GameService:
    """Per process; the engine-state cache is keyed by (game_id, version)."""

    def __init__(self, runtime, writer: PgMoveWriter | None = None, keys: IdempotencyStore | None = None) -> None:
        self.runtime = runtime
        #: Idempotency-Keys of player actions (gomoku_shared.idempotency)
        self.keys = keys or IdempotencyStore(idempotency_keys, runtime.clock, runtime.settings.idempotency_ttl_s)
        self._cache: dict[str, tuple[int, LiveGame]] = {}
        #: group-committed writes of plain moves (PostgreSQL); None: every action via the ORM
        self.writer = writer

    def transaction(self, correlation_id: str):
        return self.runtime.transaction(correlation_id=correlation_id)

    def now_ms(self) -> int:
        return ms(self.runtime.clock.now())

    # ------------------------------------------------------------------ loading

    async def _row(self, session, game_id: str, *, lock: bool = False):
        q = select(games).where(games.c.game_id == game_id)
        if lock:
            q = q.with_for_update()
        return (await session.execute(q)).mappings().first()

    async def _live(self, session, g) -> LiveGame:
        cached = self._cache.pop(g["game_id"], None)
        if cached is not None and cached[0] == g["version"]:
            return cached[1]
        rows = (
            await session.execute(
                select(game_actions.c.kind, game_actions.c.role, game_actions.c.data)
                .where(game_actions.c.game_id == g["game_id"])
                .order_by(game_actions.c.idx)
            )
        ).all()
        return LiveGame(Rules.from_dict(g["rules"]), g["first_id"], g["second_id"], [(k, r, d) for k, r, d in rows])

    def _remember(self, game_id: str, version: int, live: LiveGame, row: dict | None = None) -> None:
        if len(self._cache) > 20000:
            self._cache.clear()
        self._cache[game_id] = (version, live, row)

    def _take_cached(self, game_id: str):
        """The row and engine state this process last committed for the game, or None.

        Used optimistically: the write checks ``version``, so a stale entry (another replica
        moved the game on) costs one retry that reloads from the database."""
        cached = self._cache.pop(game_id, None)
        if cached is None or cached[2] is None:
            return None
        return cached[2], cached[1]

    async def load(self, game_id: str) -> tuple[dict, LiveGame]:
        async with self.runtime.sessionmaker() as session:
            g = await self._row(session, game_id)
            if g is None:
                raise NotFound("game_not_found", f"no game {game_id!r}")
            live = await self._live(session, g)
        g = dict(g)
        self._remember(game_id, g["version"], live, g)
        return g, live

    # ------------------------------------------------------------------ creating games

    async def on_round_paired(self, uow, p: RoundPaired, occurred_at: datetime) -> None:
        start_ms = ms(p.starts_at or occurred_at)
        for spec in p.pairings:
            kind = "two_game" if spec.games >= 2 else "single"
            await self._create(
                uow,
                p.event_code,
                p.stage,
                p.section_id,
                p.round,
                spec,
                kind,
                1,
                first_mover="a",
                clock=spec.clock.model_dump(),
                playoff_id=None,
                no_show_due=start_ms + p.no_show_minutes * 60_000,
            )

    async def on_result_decided(self, uow, p: ResultDecided) -> None:
        await decisions.on_result_decided(self, uow, p)

    async def on_playoff_required(self, uow, p: PlayoffRequired, occurred_at: datetime) -> None:
        start_ms = ms(p.starts_at or occurred_at)
        due = None if p.no_show_minutes is None else start_ms + p.no_show_minutes * 60_000
        for spec in p.pairings:
            extra = {"decider_clock": (p.decider_clock or spec.clock).model_dump()}
            await self._create(
                uow,
                p.event_code,
                p.stage,
                p.section_id,
                0,
                spec,
                "playoff",
                1,
                first_mover="a",
                clock=spec.clock.model_dump(),
                playoff_id=p.playoff_id,
                no_show_due=due,
                extra=extra,
            )

    async def _create(
        self,
        uow,
        event_code: str,
        stage: str,
        section_id: str,
        rnd: int,
        spec: PairingSpec,
        kind: str,
        n: int,
        *,
        first_mover: str,
        clock: dict,
        playoff_id: str | None,
        no_show_due: int | None,
        extra: dict | None = None,
        carry: dict | None = None,
    ) -> None:
        gid = game_id_for(event_code, stage, section_id, rnd, spec.pairing_id, n, playoff_id)
        session = uow.session
        if (await session.execute(select(games.c.game_id).where(games.c.game_id == gid))).first():
            return  # already created (a redelivered event whose inbox row was lost with a crash)
        a, b = spec.first, spec.second
        first, second = (a, b) if first_mover == "a" else (b, a)
        base = int(clock["base_s"]) * 1000
        inc = int(clock.get("increment_s", 0)) * 1000 if clock.get("kind") == "fischer" else 0
        now = ms(uow.clock.now())
        clocks = {"first": base, "second": base}
        if carry and carry.get("clock"):  # two-game round clock kept for the pair (PLAY-5, SZ)
            clocks = {"first": carry["clock"][first], "second": carry["clock"][second]}
        present = bool(carry and carry.get("present"))
        cs = ClockState(clocks["first"], clocks["second"], inc)
        if present:
            cs = cs.start("first", now)
        spec_d = spec.model_dump(mode="json")
        spec_d.update(extra or {})
        row = dict(
            game_id=gid,
            event_code=event_code,
            stage=stage,
            section_id=section_id,
            round=rnd,
            pairing_id=spec.pairing_id,
            game_no=n,
            unit_kind=kind,
            playoff_id=playoff_id,
            player_a=a,
            player_b=b,
            partner_a=spec.first_partner,
            partner_b=spec.second_partner,
            first_id=first,
            second_id=second,
            black=first,
            white=second,
            rules=spec.ruleset.model_dump(mode="json"),
            clock_spec=dict(clock),
            spec=spec_d,
            status="active" if present else "waiting",
            phase="opening" if spec.ruleset.track == "professional" else "play",
            to_act=first if present else None,
            version=1,
            seq=1,
            n_actions=0,
            joined_first=present,
            joined_second=present,
            draw_offer_by=None,
            clock_first_ms=cs.first_ms,
            clock_second_ms=cs.second_ms,
            increment_ms=inc,
            clock_running=cs.running,
            clock_since_ms=cs.since_ms,
            flag_due_ms=cs.flag_due_ms,
            no_show_due_ms=None if present else no_show_due,
            created_ms=now,
        )
        await session.execute(games.insert().values(**row))
        await session.execute(
            game_events.insert().values(
                game_id=gid,
                seq=1,
                round_key=round_key(event_code, section_id, rnd),
                kind="created",
                data={"game_id": gid, "black": first, "white": second, "game_no": n, "status": row["status"]},
                at_ms=now,
            )
        )
        uow.emit(
            GameStarted(
                event_code=event_code,
                stage=stage,
                section_id=section_id,
                round=rnd,
                pairing_id=spec.pairing_id,
                game_id=gid,
                game_no=n,
                black=first,
                white=second,
                playoff_id=playoff_id,
                first=first,
                second=second,
            ),
            event_id=uuid.uuid5(NS, f"{gid}/started"),
        )
        decided = await decisions.decision_for(session, row)
        if decided is not None:  # the arbiter's result arrived before the game existed
            await decisions.apply(self, uow, [dict(await self._row(session, gid))], decided)

    # ------------------------------------------------------------------ acting

    def authorize(self, principal, g, player_id: str) -> str:
        """The acting player's role; partners act only for their own players (403 otherwise)."""
        if player_id == g["first_id"]:
            role = "first"
        elif player_id == g["second_id"]:
            role = "second"
        else:
            raise Unprocessable("not_a_player", f"{player_id!r} does not play game {g['game_id']}")
        if principal.role == "viewer":
            raise Forbidden("read_only_key", "a viewer key reads games and cannot act in them")
        if principal.role == "partner":
            partner = g["partner_a"] if player_id == g["player_a"] else g["partner_b"]
            if partner is None or partner != principal.partner_id:
                raise Forbidden("not_your_player", f"this key may not act for {player_id!r}")
        return role

    async def act(
        self,
        game_id: str,
        principal,
        player_id: str,
        kind: str,
        data: dict | None = None,
        idem: KeyedRequest | None = None,
    ) -> dict:
        """One player action, retried on a version conflict; returns the game summary. A
        request whose Idempotency-Key is stored returns the stored summary marked
        ``_replayed`` (or raises the stored refusal with the replay header)."""
        data = data or {}
        for attempt in range(MAX_RETRIES):
            try:
                return await self._act_once(game_id, principal, player_id, kind, data, idem, fresh=attempt > 0)
            except _Retry:
                continue
            except IntegrityError:
                # a concurrent action took the same log index (it committed first; its game
                # version moved on), or a concurrent retry stored the same idempotency key
                continue
        raise Conflict("busy", "the game changed concurrently too often; retry")

    async def _act_once(self, game_id, principal, player_id, kind, data, idem, fresh: bool = False) -> dict:
        cached = None if fresh else self._take_cached(game_id)
        if cached is not None and self.writer is not None:
            return await self._act_cached(game_id, principal, player_id, kind, data, idem, *cached)
        async with self.transaction(correlation_id=game_id) as uow:
            s = uow.session
            if idem is not None:
                hit = await self.keys.lookup(s, idem)
                if hit is not None:
                    return _replay(hit)
            if cached is not None:
                g, live = cached
            else:
                g = await self._row(s, game_id)
                if g is None:
                    raise NotFound("game_not_found", f"no game {game_id!r}")
                g = dict(g)
                live = await self._live(s, g)
            role = self.authorize(principal, g, player_id)
            now = ms(uow.clock.now())
            try:
                change = self._decide(g, live, role, kind, data, now)
            except ServiceError:
                if cached is not None:
                    raise _Retry() from None  # judged on a cached state: judge again on the database's
                # a concurrent request with the same key may have committed after our first
                # look (each statement sees the latest commits): then this is its retry
                if idem is not None:
                    hit = await self.keys.lookup(s, idem)
                    if hit is not None:
                        return _replay(hit)
                raise
            summary = await self._commit(uow, g, live, change, now, idem)
        return self._answer(game_id, live, change, summary)

    async def _act_cached(self, game_id, principal, player_id, kind, data, idem, g, live) -> dict:
        """An action judged on the state this process last committed (no read). A plain move is
        group-committed by the writer; anything else is saved through the ORM as usual. Both
        check ``version``: if another replica moved the game on, the action is judged again."""
        # an idempotency key is not looked up first: the writer applies nothing under a key
        # that is stored already, and the retry on the database's state looks it up (replay,
        # or 409 for a key that came with another request)
        try:
            role = self.authorize(principal, g, player_id)
        except ServiceError:
            self._remember(game_id, g["version"], live, g)
            if idem is not None:
                raise _Retry() from None  # the key is looked up before any refusal
            raise
        now = self.now_ms()
        try:
            change = self._decide(g, live, role, kind, data, now)
        except ServiceError:
            raise _Retry() from None  # judged on a cached state: judge again on the database's
        if not _plain(g, live, change):
            async with self.transaction(correlation_id=game_id) as uow:
                summary = await self._commit(uow, g, live, change, now, idem)
            return self._answer(game_id, live, change, summary)
        values, action_rows, event_rows, rk = self._prepare(g, live, change, now)
        values["version"] = g["version"] + 1
        row = {**g, **values}
        summary = _summary(row, live)
        a, e = action_rows[0], event_rows[0]
        move = MoveWrite(
            {
                **row,
                "version": g["version"],
                "kind": a["kind"],
                "role": a["role"],
                "player_id": a["player_id"],
                "data": a["data"],
                "at_ms": now,
                "think_ms": a["think_ms"],
                "clock": a["clock"],
                "round_key": rk,
                "event_data": e["data"],
                "idem_principal": idem.principal if idem else None,
                "idem_key": idem.key if idem else None,
                "idem_fingerprint": idem.fingerprint if idem else None,
                "idem_response": summary if idem is not None else None,
            }
        )
        if not await self.writer.write(move):
            raise _Retry()
        self._remember(game_id, summary["_version"], live, row)
        return summary

    async def _commit(self, uow, g, live: LiveGame, change: Change, now: int, idem: KeyedRequest | None) -> dict:
        """Save a judged change (and the answer under its idempotency key) in ``uow``."""
        summary = await self._save(uow, g, live, change, now)
        if idem is not None:
            body = {k: v for k, v in summary.items() if k != "_row"}
            status, body = (change.error.status, _error_body(change.error)) if change.error else (200, body)
            await self.keys.remember(uow.session, idem, status, body)
        return summary

    def _answer(self, game_id: str, live: LiveGame, change: Change, summary: dict) -> dict:
        row = summary.pop("_row", None)
        self._remember(game_id, summary["_version"], live, row)
        if change.error is not None:
            raise change.error
        return summary

    def _decide(self, g, live: LiveGame, role: str, kind: str, data: dict, now: int) -> Change:
        """What an action does to the game (pure apart from mutating ``live``)."""
        ch = Change()
        player = live.player(role)
        if g["status"] == "finished" or live.is_over:
            raise game_over(g)
        cs = _clock(g)
        if kind == "join":
            col = f"joined_{role}"
            if not g[col]:
                ch.values[col] = True
                ch.events.append(("joined", {"player_id": player}))
                if g[f"joined_{other(role)}"] and g["status"] == "waiting":
                    cs = cs.start(live.expected_role or "first", now)
                    ch.values.update(status="active", no_show_due_ms=None)
                    ch.values.update(_clock_values(cs))
                    ch.events.append(("started", {}))
            return ch
        if kind == "resign":
            live.apply("resign", role, {})
            ch.actions.append(dict(kind="resign", role=role, player_id=player, data={}))
            return ch
        if g["status"] != "active":
            raise Conflict("not_started", "both players must join before the game starts (PLAY-7)")
        # the server decides time: a flag that fell before this action ends the game first (PLAY-5)
        flagged = cs.flagged(now)
        if flagged:
            live.apply("flag" if len(flagged) == 1 else "both_flags", flagged[0], {})
            ch.actions.append(
                dict(
                    kind="flag" if len(flagged) == 1 else "both_flags",
                    role=flagged[0],
                    player_id=live.player(flagged[0]),
                    data={},
                )
            )
            ch.error = Conflict(
                "flagged", "the time ran out before this action", {"player_id": live.player(flagged[0])}
            )
            return ch
        if kind == "draw":
            action = data.get("action")
            offer = g["draw_offer_by"]
            if action == "offer":
                if offer == player:
                    return ch
                if offer is not None:  # both offered: that is agreement
                    action = "accept"
                else:
                    ch.values["draw_offer_by"] = player
                    ch.events.append(("draw_offer", {"player_id": player}))
                    return ch
            if offer is None or offer == player:
                raise Conflict("no_draw_offer", "there is no draw offer from the opponent to answer")
            if action == "accept":
                live.apply("draw_agreed", role, {})
                ch.actions.append(dict(kind="draw_agreed", role=role, player_id=player, data={}))
            else:
                ch.values["draw_offer_by"] = None
                ch.events.append(("draw_declined", {"player_id": player}))
            return ch
        if role != live.expected_role:
            raise Conflict(
                "not_your_turn", "it is the other player's turn", {"expected": live.player(live.expected_role)}
            )
        try:
            live.apply(kind, role, data)
        except IllegalAction as exc:
            raise illegal(exc) from None
        think = now - cs.since_ms if cs.running == role and cs.since_ms is not None else None
        ch.actions.append(dict(kind=kind, role=role, player_id=player, data=data, think_ms=think))
        if g["draw_offer_by"] is not None and g["draw_offer_by"] != player:
            ch.values["draw_offer_by"] = None  # a move declines the opponent's offer
        if not live.is_over:
            ch.values.update(_clock_values(cs.complete(role, live.expected_role, now)))
        else:
            ch.values.update(_clock_values(cs.complete(role, None, now)))
        return ch

    def _prepare(self, g, live: LiveGame, ch: Change, now: int) -> tuple[dict, list[dict], list[dict], str]:
        """The game-row values, action rows and stream-event rows of a change (no I/O)."""
        values = dict(ch.values)
        cs = _clock({**g, **values})
        if live.is_over and g["status"] != "finished":
            cs = cs.stop(now)
            values.update(_clock_values(cs))
        seq = g["seq"]
        n_actions = g["n_actions"]
        readings = _readings(cs, live, now)
        action_rows, event_rows = [], []
        for a in ch.actions:
            n_actions += 1
            action_rows.append(
                dict(
                    game_id=g["game_id"],
                    idx=n_actions,
                    kind=a["kind"],
                    role=a["role"],
                    player_id=a["player_id"],
                    data=a["data"],
                    at_ms=now,
                    think_ms=a.get("think_ms"),
                    clock=readings,
                )
            )
            seq += 1
            event_rows.append(
                dict(
                    seq=seq,
                    kind="action",
                    data={
                        "action": a["kind"],
                        "player_id": a["player_id"],
                        **a["data"],
                        "moves": len(live.game.history),
                        "clocks": readings,
                    },
                )
            )
        for kind, data in ch.events:
            seq += 1
            event_rows.append(dict(seq=seq, kind=kind, data={**data, "clocks": readings}))
        values.update(phase=live.phase, to_act=None, n_actions=n_actions, black=live.black, white=live.white, seq=seq)
        if values.get("status", g["status"]) == "active" and not live.is_over:
            values["to_act"] = live.player(live.expected_role)
        return values, action_rows, event_rows, round_key(g["event_code"], g["section_id"], g["round"])

    async def _save(self, uow, g, live: LiveGame, ch: Change, now: int) -> dict:
        """Write one change: game row (version check), action rows, stream events, and on the end
        of the game its result, game.finished and the pairing's next game."""
        s = uow.session
        if not (ch.values or ch.actions or ch.events):
            return {**_summary(g, live), "_row": dict(g)}
        values, action_rows, event_rows, rk = self._prepare(g, live, ch, now)
        plan = None
        if live.is_over and g["status"] != "finished":
            plan = await self._finish_plan(uow, g, live, values, now)
            values["seq"] += 1
            event_rows.append(
                dict(
                    seq=values["seq"],
                    kind="finished",
                    data={k: plan[k] for k in ("result", "reason", "winner", "foul", "outcome", "double_forfeit")}
                    | {"clocks": _readings(_clock({**g, **values}), live, now)},
                )
            )
        values["version"] = g["version"] + 1
        # the version check comes first: it takes the row lock, so every writer of this game
        # (actions, the sweeper) locks in the same order and a stale writer retries
        res = await s.execute(
            update(games).where(and_(games.c.game_id == g["game_id"], games.c.version == g["version"])).values(**values)
        )
        if res.rowcount != 1:
            raise _Retry()
        if action_rows:
            await s.execute(game_actions.insert(), action_rows)
        if event_rows:
            await s.execute(
                game_events.insert(), [dict(game_id=g["game_id"], round_key=rk, at_ms=now, **e) for e in event_rows]
            )
        if plan is not None:
            await self._finish_apply(uow, g, live, values, plan)
        row = {**g, **values}
        return {**_summary(row, live), "_row": row}

    async def _finish_plan(self, uow, g, live: LiveGame, values: dict, now: int) -> dict:
        """Result columns and what follows in the pairing (reads only)."""
        result = live.result
        assert result is not None
        # both absent (PLAY-7) is a double forfeit, 0:0, never a draw
        colour = "double_forfeit" if live.double_forfeit else colour_result(result)
        reason = reason_name(result)
        winner = live.player(live.winner_role())
        values.update(
            status="finished",
            result=colour,
            reason=reason,
            foul=result.foul,
            winner=winner,
            flag_due_ms=None,
            no_show_due_ms=None,
            finished_ms=now,
            draw_offer_by=None,
            to_act=None,
        )
        # the pairing: its earlier games, then this one, seen as players a / b
        prev = (
            await uow.session.execute(
                select(games.c.winner, games.c.reason, games.c.outcome)
                .where(
                    games.c.event_code == g["event_code"],
                    games.c.stage == g["stage"],
                    games.c.section_id == g["section_id"],
                    games.c.round == g["round"],
                    games.c.pairing_id == g["pairing_id"],
                    games.c.game_no < g["game_no"],
                    (games.c.playoff_id == g["playoff_id"]) if g["playoff_id"] else games.c.playoff_id.is_(None),
                )
                .order_by(games.c.game_no)
            )
        ).all()

        def ab(pid):
            return None if pid is None else "a" if pid == g["player_a"] else "b"

        engine_reason = {v: k for k, v in _REASONS.items()}
        history = [FinishedGame(ab(w), engine_reason.get(r, r)) for w, r, _o in prev]
        history.append(FinishedGame(ab(winner), result.reason.value, live.double_forfeit))
        nxt = after_game(g["unit_kind"], history)
        outcome = None
        if nxt.game_no is None:
            outcome = {"first_points": nxt.a_points, "second_points": nxt.b_points}
            values["outcome"] = outcome
        return {
            "result": colour,
            "reason": reason,
            "winner": winner,
            "foul": result.foul,
            "outcome": outcome,
            "double_forfeit": live.double_forfeit,
            "next": nxt,
        }

    async def _finish_apply(self, uow, g, live: LiveGame, values: dict, plan: dict) -> None:
        """The pairing's next game, and game.finished with the full record."""
        nxt = plan["next"]
        if nxt.game_no is not None:
            spec = PairingSpec.model_validate(g["spec"])
            stage_clock = (
                g["clock_spec"] if nxt.stage == "pair" or g["unit_kind"] != "playoff" else g["spec"]["decider_clock"]
            )
            carry: dict[str, Any] = {"present": True}
            if g["unit_kind"] == "two_game" and spec.round_clock:
                cs = _clock({**g, **values})
                carry["clock"] = {g["first_id"]: cs.first_ms, g["second_id"]: cs.second_ms}
            await self._create(
                uow,
                g["event_code"],
                g["stage"],
                g["section_id"],
                g["round"],
                spec,
                g["unit_kind"],
                nxt.game_no,
                first_mover=nxt.first_mover or "a",
                clock=stage_clock,
                playoff_id=g["playoff_id"],
                no_show_due=None,
                carry=carry,
                extra={k: v for k, v in g["spec"].items() if k == "decider_clock"},
            )
        outcome = plan["outcome"]
        rec = self.record(g, live, await self._action_meta(uow.session, g["game_id"]), values)
        uow.emit(
            GameFinished(
                event_code=g["event_code"],
                stage=g["stage"],
                section_id=g["section_id"],
                round=g["round"],
                pairing_id=g["pairing_id"],
                game_id=g["game_id"],
                game_no=g["game_no"],
                playoff_id=g["playoff_id"],
                black=live.black,
                white=live.white,
                winner=plan["winner"],
                result=plan["result"],
                reason=plan["reason"],
                foul=plan["foul"],
                moves=live.moves,
                record=rec,
                outcome=PairingOutcome(**outcome) if outcome else None,
                double_forfeit=live.double_forfeit,
                first=g["player_a"],
                second=g["player_b"],
            ),
            event_id=uuid.uuid5(NS, f"{g['game_id']}/finished"),
        )

    async def _action_meta(self, session, game_id: str) -> list[dict]:
        rows = (
            await session.execute(
                select(
                    game_actions.c.kind,
                    game_actions.c.player_id,
                    game_actions.c.at_ms,
                    game_actions.c.think_ms,
                    game_actions.c.clock,
                )
                .where(game_actions.c.game_id == game_id)
                .order_by(game_actions.c.idx)
            )
        ).all()
        return [dict(r._mapping) for r in rows]

    def record(self, g, live: LiveGame, metas: list[dict], values: dict | None = None) -> dict:
        """The game's record (PLAY-8): moves with timestamps, think time and clocks, opening, result."""
        plies: list[dict] = []
        # actions not yet written (the one that ends the game) have no row: they share "now"
        for m in metas:
            n = {"opening": 3, "move": 1, "choose": 1, "pass": 1}.get(m["kind"], 0)
            at = datetime.fromtimestamp(m["at_ms"] / 1000, tz=self.runtime.clock.now().tzinfo).isoformat()
            for i in range(n):
                plies.append(
                    {
                        "player": m["player_id"],
                        "at": at,
                        "think_ms": m["think_ms"] if i == n - 1 else 0,
                        "clock": m["clock"],
                    }
                )
        rec = record_game(
            live.proto or live.game,
            players={"black": live.black, "white": live.white},
            move_meta=plies,
            clock={"initial": g["clock_spec"]["base_s"], "increment": g["increment_ms"] / 1000},
            meta={
                "game_id": g["game_id"],
                "event_code": g["event_code"],
                "section_id": g["section_id"],
                "round": g["round"],
                "pairing_id": g["pairing_id"],
                "game_no": g["game_no"],
                "double_forfeit": live.double_forfeit,
            },
        )
        d = rec.to_dict()
        if live.proto is not None and d.get("result") and d["result"].get("winner_player") in ("first", "second"):
            d["result"]["winner_player"] = live.player(d["result"]["winner_player"])
        if d.get("opening") and d["opening"].get("black_player") in ("first", "second"):
            d["opening"]["black_player"] = live.player(d["opening"]["black_player"])
            if d["opening"].get("swap_chooser") in ("first", "second"):
                d["opening"]["swap_chooser"] = live.player(d["opening"]["swap_chooser"])
        return d

    # ------------------------------------------------------------------ staff

    async def staff(self, game_id: str, kind: str, data: dict) -> dict:
        """Arbiter decisions (adjudicate with a recorded reason) and time corrections."""
        for _ in range(MAX_RETRIES):
            try:
                async with self.transaction(correlation_id=game_id) as uow:
                    g = await self._row(uow.session, game_id)
                    if g is None:
                        raise NotFound("game_not_found", f"no game {game_id!r}")
                    live = await self._live(uow.session, g)
                    now = ms(uow.clock.now())
                    if g["status"] == "finished" or live.is_over:
                        raise game_over(g)
                    ch = Change()
                    if kind == "adjudicate":
                        live.apply("arbiter", None, {"result": data["result"], "note": data["reason"]})
                        ch.actions.append(
                            dict(
                                kind="arbiter",
                                role=None,
                                player_id=None,
                                data={"result": data["result"], "note": data["reason"]},
                            )
                        )
                    else:
                        pid = data["player_id"]
                        role = "first" if pid == g["first_id"] else "second" if pid == g["second_id"] else None
                        if role is None:
                            raise Unprocessable("not_a_player", f"{pid!r} does not play game {game_id}")
                        cs = _clock(g).add(role, int(round(data["seconds"] * 1000)), now)
                        ch.values.update(_clock_values(cs))
                        ch.events.append(("time_added", {"player_id": pid, "seconds": data["seconds"]}))
                    summary = await self._save(uow, g, live, ch, now)
                self._remember(game_id, summary["_version"], live, summary.pop("_row", None))
                return summary
            except (_Retry, IntegrityError):
                continue
        raise Conflict("busy", "the game changed concurrently too often; retry")

    # ------------------------------------------------------------------ sweep

    async def sweep(self, limit: int = 200) -> dict[str, int]:
        """Flag falls and no-show forfeits that are due (PLAY-5, PLAY-7), found with nobody acting.
        Replicas share the work: due games are claimed with FOR UPDATE SKIP LOCKED. Where rows
        cannot be locked (SQLite) a player's concurrent action can win the version check: the
        sweep is then judged again on the new state, like an action."""
        for _attempt in range(MAX_RETRIES):
            try:
                return await self._sweep_once(limit)
            except (_Retry, IntegrityError):
                continue
        raise Conflict("busy", "games changed concurrently too often during the sweep; retry")

    async def _sweep_once(self, limit: int) -> dict[str, int]:
        counts = {"flags": 0, "no_shows": 0, "double_forfeits": 0}
        async with self.transaction(correlation_id="gameplay-sweep") as uow:
            now = ms(uow.clock.now())
            rows = (
                (
                    await uow.session.execute(
                        select(games)
                        .where(
                            games.c.status != "finished", or_(games.c.flag_due_ms <= now, games.c.no_show_due_ms <= now)
                        )
                        .order_by(games.c.game_id)
                        .limit(limit)
                        .with_for_update(skip_locked=True)
                    )
                )
                .mappings()
                .all()
            )
            done: list[tuple[str, int, LiveGame]] = []
            for g in rows:
                live = await self._live(uow.session, g)
                if live.is_over:
                    continue
                ch = Change()
                if g["status"] == "waiting" and g["no_show_due_ms"] is not None and g["no_show_due_ms"] <= now:
                    absent = [r for r in ("first", "second") if not g[f"joined_{r}"]]
                    if len(absent) == 2:
                        live.apply("double_no_show", None, {})
                        ch.actions.append(dict(kind="double_no_show", role=None, player_id=None, data={}))
                        counts["double_forfeits"] += 1
                    else:
                        live.apply("no_show", absent[0], {})
                        ch.actions.append(
                            dict(kind="no_show", role=absent[0], player_id=live.player(absent[0]), data={})
                        )
                        counts["no_shows"] += 1
                else:
                    flagged = _clock(g).flagged(now)
                    if not flagged:
                        continue
                    k = "flag" if len(flagged) == 1 else "both_flags"
                    live.apply(k, flagged[0], {})
                    ch.actions.append(dict(kind=k, role=flagged[0], player_id=live.player(flagged[0]), data={}))
                    counts["flags"] += 1
                summary = await self._save(uow, g, live, ch, now)
                done.append((g["game_id"], summary["_version"], live, summary.pop("_row", None)))
        for gid, v, live, row in done:
            self._remember(gid, v, live, row)
        return counts

    # ------------------------------------------------------------------ reads

    async def list_games(self, event_code=None, section_id=None, rnd=None, status="all") -> list[dict]:
        q = select(games)
        if event_code is not None:
            q = q.where(games.c.event_code == event_code)
        if section_id is not None:
            q = q.where(games.c.section_id == section_id)
        if rnd is not None:
            q = q.where(games.c.round == rnd)
        if status == "active":
            q = q.where(games.c.status != "finished")
        elif status == "finished":
            q = q.where(games.c.status == "finished")
        async with self.runtime.sessionmaker() as session:
            rows = (await session.execute(q.order_by(games.c.game_id))).mappings().all()
        # lists also say who won and the pairing's round points (on the pairing's last game)
        return [
            {**_summary(r), "winner": r["winner"], "outcome": r["outcome"], "playoff_id": r["playoff_id"]} for r in rows
        ]

    async def view(self, game_id: str) -> dict:
        """The full view of one game as of now."""
        g, live = await self.load(game_id)
        async with self.runtime.sessionmaker() as session:
            decided = await decisions.decision_for(session, g)
        now = self.now_ms()
        cs = _clock(g)
        out = _summary(g, live)
        out.pop("_version", None)
        out.update(
            rules=g["rules"],
            clock_spec=g["clock_spec"],
            moves=live.moves,
            board=[{"point": a.notation, "colour": a.colour.value} for a in live.game.history if a.point is not None],
            legal_actions=live.legal_actions()
            if g["status"] == "active"
            else (["join"] if g["status"] == "waiting" else []),
            forbidden=live.forbidden() if g["status"] == "active" else {},
            clocks=_readings(cs, live, now),
            opening=live.opening_info(),
            joined={g["first_id"]: g["joined_first"], g["second_id"]: g["joined_second"]},
            draw_offer_by=g["draw_offer_by"],
            foul=g["foul"],
            winner=g["winner"],
            outcome=g["outcome"],
            playoff_id=g["playoff_id"],
            double_forfeit=g["result"] == "double_forfeit",
            decision=None
            if decided is None
            else {
                "outcome": decided["outcome"],
                "reason": decided["reason"],
                "sequence": decided["sequence"],
                "decided_at": datetime.fromtimestamp(decided["decided_ms"] / 1000, tz=UTC).isoformat(),
            },
        )
        return out

    async def export(self, game_id: str) -> dict:
        g, live = await self.load(game_id)
        async with self.runtime.sessionmaker() as session:
            metas = await self._action_meta(session, game_id)
            decided = await decisions.decision_for(session, g)
        rec = self.record(g, live, metas)
        if decided is not None:  # the arbiter's result stands over what the board shows (PLAY-8)
            rec["arbiter_decision"] = {
                "outcome": decided["outcome"],
                "reason": decided["reason"],
                "result": g["result"],
                "winner": g["winner"],
            }
        return rec

    async def events_since(self, game_id: str, since: int, limit: int = 500) -> list[dict]:
        async with self.runtime.sessionmaker() as session:
            rows = (
                (
                    await session.execute(
                        select(
                            game_events.c.game_id,
                            game_events.c.seq,
                            game_events.c.kind,
                            game_events.c.data,
                            game_events.c.at_ms,
                        )
                        .where(game_events.c.game_id == game_id, game_events.c.seq > since)
                        .order_by(game_events.c.seq)
                        .limit(limit)
                    )
                )
                .mappings()
                .all()
            )
        return [dict(r) for r in rows]

    async def round_events_since(self, key: str, since_id: int, limit: int = 500) -> list[dict]:
        async with self.runtime.sessionmaker() as session:
            rows = (
                (
                    await session.execute(
                        select(
                            game_events.c.id,
                            game_events.c.game_id,
                            game_events.c.seq,
                            game_events.c.kind,
                            game_events.c.data,
                            game_events.c.at_ms,
                        )
                        .where(game_events.c.round_key == key, game_events.c.id > since_id)
                        .order_by(game_events.c.id)
                        .limit(limit)
                    )
                )
                .mappings()
                .all()
            )
        return [dict(r) for r in rows]

    async def game_exists(self, game_id: str) -> bool:
        async with self.runtime.sessionmaker() as session:
            return (
                await session.execute(select(func.count()).select_from(games).where(games.c.game_id == game_id))
            ).scalar_one() > 0


_REASONS = {
    "five": "five",
    "forbidden": "forbidden",
    "time_forfeit": "time",
    "resignation": "resignation",
    "no_show": "no_show",
    "arbiter": "arbiter",
    "draw_agreement": "agreement",
    "draw_passes": "passes",
    "draw_full_board": "full_board",
    "draw_both_flags": "both_flags",
}


_PLAIN_VALUES = frozenset(
    {"clock_first_ms", "clock_second_ms", "clock_running", "clock_since_ms", "flag_due_ms", "draw_offer_by"}
)


def _plain(g, live: LiveGame, ch: Change) -> bool:
    """A move in an active game that does not end it: one action row, no other event, only the
    clock and draw-offer columns change (what the group-committed writer handles)."""
    return (
        ch.error is None
        and len(ch.actions) == 1
        and not ch.events
        and not live.is_over
        and g["status"] == "active"
        and ch.values.keys() <= _PLAIN_VALUES
    )


def _clock(g) -> ClockState:
    return ClockState(
        g["clock_first_ms"], g["clock_second_ms"], g["increment_ms"], g["clock_running"], g["clock_since_ms"]
    )


def _clock_values(cs: ClockState) -> dict[str, Any]:
    return dict(
        clock_first_ms=cs.first_ms,
        clock_second_ms=cs.second_ms,
        clock_running=cs.running,
        clock_since_ms=cs.since_ms,
        flag_due_ms=cs.flag_due_ms,
    )


def _readings(cs: ClockState, live: LiveGame, now: int) -> dict[str, Any]:
    r = cs.readings(now)
    black_role = live.role_of_colour("black")
    running = None
    if cs.running is not None:
        running = "black" if cs.running == black_role else "white"
    return {"black_ms": r[black_role], "white_ms": r[other(black_role)], "running": running}


def _summary(g, live: LiveGame | None = None) -> dict[str, Any]:
    return {
        "game_id": g["game_id"],
        "event_code": g["event_code"],
        "stage": g["stage"],
        "section_id": g["section_id"],
        "round": g["round"],
        "pairing_id": g["pairing_id"],
        "game_no": g["game_no"],
        "black": g["black"],
        "white": g["white"],
        "status": g["status"],
        "phase": g["phase"],
        "to_act": g["to_act"],
        "seq": g["seq"],
        "result": g["result"],
        "reason": g["reason"],
        "_version": g["version"],
    }


def _error_body(err: ServiceError) -> dict:
    body: dict[str, Any] = {"code": err.code, "message": err.message}
    if err.details is not None:
        body["details"] = err.details
    return {"error": body}


def _replay(stored: Stored) -> dict:
    if stored.status != 200:
        e = stored.body["error"]
        raise ServiceError(
            e["code"], e["message"], e.get("details"), status=stored.status, headers={REPLAYED_HEADER: "true"}
        )
    return {**stored.body, "_replayed": True}


async def run_sweeper(service: GameService, poll_s: float = 0.25) -> None:
    """The scheduler loop (any replica may run it): real sleeps, time from the service clock."""
    log = logging.getLogger("gameplay.sweeper")
    while True:
        try:
            counts = await service.sweep()
        except Exception:  # noqa: BLE001 - a failed sweep is retried on the next tick
            log.exception("sweep failed")
            counts = {}
        # more may be due when a batch did work: claim the next one at once
        await asyncio.sleep(0 if sum(counts.values()) else poll_s)
