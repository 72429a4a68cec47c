"""The gameplay tables behind typed repositories: games (with their action log and stream
events), the arbiter's decisions, and the Idempotency-Keys of player actions. The service
layer asks these for aggregates and rows and never builds a statement itself.

A repository works on the session of a unit of work that begins its transaction at the first
statement (``Transaction``): a move judged on the state this process cached is then stored
without one, by the group-committed writer, when nothing else was read or written for it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from sqlalchemy import and_, bindparam, func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from gomoku_shared.db import select_for_update
from gomoku_shared.idempotency import IdempotencyStore, KeyedRequest, Stored

from ..domain.live import LiveGame, Rules
from ..domain.played_game import GameWrite, PlayedGame
from .game_cache import GameCache
from .move_writer import GAME_COLUMNS, MoveWrite, PgMoveWriter
from .orm import arbiter_decisions, game_actions, game_events, games


def _read_with_decision() -> Any:
    """A game's row and its pairing's decision: one statement (a view read is the portal's most
    frequent request), built once with the game id as its parameter."""
    game, decision = games.c, arbiter_decisions.c
    same_pairing = and_(
        decision.event_code == game.event_code,
        decision.stage == game.stage,
        decision.section_id == game.section_id,
        decision.round == game.round,
        decision.pairing_id == game.pairing_id,
    )
    decided = [getattr(decision, name).label(f"decision_{name}") for name in _DECISION_NAMES]
    return (
        select(games, *decided)
        .select_from(games.outerjoin(arbiter_decisions, same_pairing))
        .where(game.game_id == bindparam("game_id"))
    )


_GAME_NAMES = tuple(games.c.keys())
_DECISION_NAMES = ("outcome", "reason", "sequence", "decided_ms")
_READ_WITH_DECISION = _read_with_decision()


class Transaction(Protocol):
    @property
    def begun(self) -> bool:
        """True once a statement ran (the transaction holds a connection)."""
        ...

    async def session(self) -> AsyncSession:
        """The session, the transaction begun on first use."""
        ...


class GameRepository:
    """Games as ``PlayedGame`` aggregates; the engine state comes from the process cache when it
    is of the stored version, else it is rebuilt from the action log."""

    __slots__ = ("transaction", "cache", "keys", "writer")

    def __init__(
        self, transaction: Transaction, cache: GameCache, keys: IdempotencyStore, writer: PgMoveWriter | None = None
    ) -> None:
        self.transaction = transaction
        self.cache = cache
        #: where the answer of a keyed action is stored with its change
        self.keys = keys
        self.writer = writer

    # ------------------------------------------------------------------ loading

    def cached(self, game_id: str) -> PlayedGame | None:
        """The game as this process last committed it (no read; taken out of the cache)."""
        return self.cache.take(game_id)

    async def get(self, game_id: str) -> PlayedGame | None:
        session = await self.transaction.session()
        row = (await session.execute(select(games).where(games.c.game_id == game_id))).mappings().first()
        return None if row is None else await self._played(dict(row))

    async def _played(self, columns: dict[str, Any]) -> PlayedGame:
        live = self.cache.live_at(columns["game_id"], columns["version"])
        if live is None:
            session = await self.transaction.session()
            log = (
                await session.execute(
                    select(game_actions.c.kind, game_actions.c.role, game_actions.c.data)
                    .where(game_actions.c.game_id == columns["game_id"])
                    .order_by(game_actions.c.idx)
                )
            ).all()
            live = LiveGame(
                Rules.from_dict(columns["rules"]),
                columns["first_id"],
                columns["second_id"],
                [(kind, role, data) for kind, role, data in log],
            )
        return PlayedGame(columns, live)

    async def event_code(self, game_id: str) -> str | None:
        """The event of a game (a read by primary key), None for no such game."""
        session = await self.transaction.session()
        query = select(games.c.event_code).where(games.c.game_id == game_id)
        return (await session.execute(query)).scalar_one_or_none()

    async def exists(self, game_id: str) -> bool:
        session = await self.transaction.session()
        count = select(func.count()).select_from(games).where(games.c.game_id == game_id)
        return (await session.execute(count)).scalar_one() > 0

    async def due(self, now: int, limit: int) -> list[PlayedGame]:
        """Games not finished whose flag or no-show time has come, claimed FOR UPDATE SKIP
        LOCKED (replicas share the sweep)."""
        session = await self.transaction.session()
        query = (
            select(games)
            .where(games.c.status != "finished", or_(games.c.flag_due_ms <= now, games.c.no_show_due_ms <= now))
            .order_by(games.c.game_id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        rows = (await session.execute(query)).mappings().all()
        return [await self._played(dict(row)) for row in rows]

    async def of_pairing(
        self, event_code: str, stage: str, section_id: str, round_no: int, pairing_id: str
    ) -> list[dict[str, Any]]:
        """A round pairing's games (their columns) in order, locked; read again once locked, so that a game 2
        created by a move that committed while we waited is seen."""
        session = await self.transaction.session()
        column = games.c
        where = and_(
            column.event_code == event_code,
            column.stage == stage,
            column.section_id == section_id,
            column.round == round_no,
            column.pairing_id == pairing_id,
            column.playoff_id.is_(None),
        )
        query = select(games).where(where).order_by(column.game_no)
        await select_for_update(session, query, games, where)
        rows = (await session.execute(query.with_for_update())).mappings().all()
        return [dict(row) for row in rows]

    async def played(self, columns: dict[str, Any]) -> PlayedGame:
        """The game of these columns, its engine state rebuilt from its log (not the cached one)."""
        self.cache.drop(columns["game_id"])
        return await self._played(columns)

    async def earlier_results(self, game: PlayedGame) -> list[tuple[str | None, str | None]]:
        """(winner, reason) of the earlier games of the game's pairing (or playoff), in order."""
        session = await self.transaction.session()
        columns = game.columns
        column = games.c
        query = (
            select(column.winner, column.reason)
            .where(
                column.event_code == columns["event_code"],
                column.stage == columns["stage"],
                column.section_id == columns["section_id"],
                column.round == columns["round"],
                column.pairing_id == columns["pairing_id"],
                column.game_no < columns["game_no"],
                (column.playoff_id == columns["playoff_id"]) if columns["playoff_id"] else column.playoff_id.is_(None),
            )
            .order_by(column.game_no)
        )
        return [(winner, reason) for winner, reason in (await session.execute(query)).all()]

    async def action_meta(self, game_id: str) -> list[dict[str, Any]]:
        """What the record needs of each logged action: kind, player, time, think time, clocks."""
        session = await self.transaction.session()
        action = game_actions.c
        query = (
            select(action.kind, action.player_id, action.at_ms, action.think_ms, action.clock)
            .where(action.game_id == game_id)
            .order_by(action.idx)
        )
        return [dict(row._mapping) for row in (await session.execute(query)).all()]

    # ------------------------------------------------------------------ writing

    async def add(self, columns: dict[str, Any], created: dict[str, Any]) -> None:
        """A new game and its first stream event (``created``: seq, round_key, kind, data, at_ms)."""
        session = await self.transaction.session()
        await session.execute(games.insert().values(**columns))
        await session.execute(game_events.insert().values(game_id=columns["game_id"], **created))

    async def save(
        self,
        game: PlayedGame,
        write: GameWrite,
        keyed: KeyedRequest | None = None,
        answer: tuple[int, Any] | None = None,
    ) -> bool:
        """Store a change checked against the version it was judged on, with the answer under
        its Idempotency-Key; False when the game moved on meanwhile (judge again). A plain move
        whose unit of work has touched nothing else is group-committed (PostgreSQL)."""
        if write.plain and self.writer is not None and not self.transaction.begun:
            return await self.writer.write(_move_write(game, write, keyed, answer))
        session = await self.transaction.session()
        # the version check comes first: it takes the row lock, so every writer of this game
        # (actions, the sweeper, the arbiter) locks in the same order and a stale writer retries
        checked = and_(games.c.game_id == write.game_id, games.c.version == write.judged_version)
        result = await session.execute(update(games).where(checked).values(**write.values))
        if result.rowcount != 1:  # type: ignore[attr-defined]
            return False
        if write.actions:
            await session.execute(game_actions.insert(), write.actions)
        if write.events:
            rows = [
                dict(game_id=write.game_id, round_key=write.round_key, at_ms=write.at_ms, **e) for e in write.events
            ]
            await session.execute(game_events.insert(), rows)
        if keyed is not None and answer is not None:
            await self.keys.remember(session, keyed, *answer)
        return True

    # ------------------------------------------------------------------ views

    async def listing(
        self, event_code: str | None, section_id: str | None, round_no: int | None, status: str
    ) -> list[dict[str, Any]]:
        query = select(games)
        if event_code is not None:
            query = query.where(games.c.event_code == event_code)
        if section_id is not None:
            query = query.where(games.c.section_id == section_id)
        if round_no is not None:
            query = query.where(games.c.round == round_no)
        if status == "active":
            query = query.where(games.c.status != "finished")
        elif status == "finished":
            query = query.where(games.c.status == "finished")
        session = await self.transaction.session()
        return [dict(row) for row in (await session.execute(query.order_by(games.c.game_id))).mappings().all()]

    async def page(
        self, filters: Mapping[str, Any], partner_id: str | None, after: str | None, limit: int
    ) -> list[dict[str, Any]]:
        """Games in game_id order after ``after``: ``filters`` (event_code, section_id, round,
        player, status) narrow them, ``partner_id`` keeps those with one of the partner's players."""
        query = _page_query(select(games), filters, partner_id, after)
        session = await self.transaction.session()
        rows = (await session.execute(query.order_by(games.c.game_id).limit(limit))).mappings().all()
        return [dict(row) for row in rows]

    async def page_versions(
        self, filters: Mapping[str, Any], partner_id: str | None, after: str | None, limit: int
    ) -> list[tuple[str, int]]:
        """(game_id, version) of the games ``page`` would give: what their ETag is made of."""
        query = _page_query(select(games.c.game_id, games.c.version), filters, partner_id, after)
        session = await self.transaction.session()
        rows = (await session.execute(query.order_by(games.c.game_id).limit(limit))).all()
        return [(game_id, version) for game_id, version in rows]

    async def round_versions(self, event_code: str, section_id: str, round_no: int) -> list[tuple[str, int, bool]]:
        """(game_id, version, whether a clock runs) of every game of a round (playoffs included),
        in game_id order."""
        column = games.c
        query = (
            select(column.game_id, column.version, column.status, column.clock_running)
            .where(column.event_code == event_code, column.section_id == section_id, column.round == round_no)
            .order_by(column.game_id)
        )
        session = await self.transaction.session()
        rows = (await session.execute(query)).all()
        return [
            (game_id, version, status != "finished" and running is not None)
            for game_id, version, status, running in rows
        ]

    async def round_played(self, event_code: str, section_id: str, round_no: int) -> list[tuple[PlayedGame, bool]]:
        """Every game of a round as an aggregate, in game_id order: one read of the rows, and of the
        action logs of the games this process has not cached at their version (or newer). The
        cached games are left in the cache (``GameCache.peek``): the caller draws its answer from
        them before it awaits anything. Each with True when it was rebuilt from its log (only those
        may be kept: a cached game the read saw may be an action's by now)."""
        rows = await self.listing(event_code, section_id, round_no, "all")
        logs: dict[str, list[tuple[str, Any, Any]]] = {}
        while True:
            played: list[tuple[PlayedGame, bool]] = []
            lost: list[str] = []
            for row in rows:
                game_id = row["game_id"]
                cached = self.cache.peek(game_id)
                if cached is not None and cached.version >= row["version"]:
                    played.append((cached, False))
                elif game_id in logs:
                    live = LiveGame(Rules.from_dict(row["rules"]), row["first_id"], row["second_id"], logs[game_id])
                    played.append((PlayedGame(row, live), True))
                else:
                    lost.append(game_id)
            if not lost:
                return played
            # not cached (or taken by an action while the logs were read): read those logs, then
            # look at the cache again, after the last await
            logs.update(await self._logs(lost))

    async def _logs(self, game_ids: list[str]) -> dict[str, list[tuple[str, Any, Any]]]:
        action = game_actions.c
        query = (
            select(action.game_id, action.kind, action.role, action.data)
            .where(action.game_id.in_(game_ids))
            .order_by(action.game_id, action.idx)
        )
        session = await self.transaction.session()
        logs: dict[str, list[tuple[str, Any, Any]]] = {game_id: [] for game_id in game_ids}
        for game_id, kind, role, data in (await session.execute(query)).all():
            logs[game_id].append((kind, role, data))
        return logs

    async def read(self, game_id: str) -> tuple[PlayedGame, bool, dict[str, Any] | None] | None:
        """The game for a read, with the arbiter's decision on its pairing (None: none, or a
        play-off game), in one statement: the cached game left in the cache when it is at the
        row's version or newer (draw the answer from it before awaiting anything), else rebuilt
        from its log (True)."""
        session = await self.transaction.session()
        row = (await session.execute(_READ_WITH_DECISION, {"game_id": game_id})).mappings().first()
        if row is None:
            return None
        columns = {name: row[name] for name in _GAME_NAMES}
        decided = None
        if row["decision_outcome"] is not None and not columns["playoff_id"]:
            decided = {name: row[f"decision_{name}"] for name in _DECISION_NAMES}
        cached = self.cache.peek(game_id)
        if cached is not None and cached.version >= columns["version"]:
            return cached, False, decided
        log = (await self._logs([game_id]))[game_id]
        cached = self.cache.peek(game_id)  # kept by an action while the log was read
        if cached is not None and cached.version >= columns["version"]:
            return cached, False, decided
        live = LiveGame(Rules.from_dict(columns["rules"]), columns["first_id"], columns["second_id"], log)
        return PlayedGame(columns, live), True, decided

    async def unfinished_by_status(self) -> dict[str, int]:
        """How many games wait for their players and how many are being played (metrics)."""
        session = await self.transaction.session()
        rows = await session.execute(
            select(games.c.status, func.count()).where(games.c.status != "finished").group_by(games.c.status)
        )
        return {status: int(count) for status, count in rows.all()}

    async def events_since(self, game_id: str, since: int, limit: int) -> list[dict[str, Any]]:
        event = game_events.c
        query = (
            select(event.game_id, event.seq, event.kind, event.data, event.at_ms)
            .where(event.game_id == game_id, event.seq > since)
            .order_by(event.seq)
            .limit(limit)
        )
        session = await self.transaction.session()
        return [dict(row) for row in (await session.execute(query)).mappings().all()]

    async def round_events_since(self, key: str, since_id: int, limit: int) -> list[dict[str, Any]]:
        event = game_events.c
        query = (
            select(event.id, event.game_id, event.seq, event.kind, event.data, event.at_ms)
            .where(event.round_key == key, event.id > since_id)
            .order_by(event.id)
            .limit(limit)
        )
        session = await self.transaction.session()
        return [dict(row) for row in (await session.execute(query)).mappings().all()]


def _page_query(query: Any, filters: Mapping[str, Any], partner_id: str | None, after: str | None) -> Any:
    """``query`` narrowed to a page of the game list (``GameRepository.page``)."""
    column = games.c
    for name in ("event_code", "section_id", "round"):
        if filters.get(name) is not None:
            query = query.where(column[name] == filters[name])
    if filters.get("player") is not None:
        query = query.where(or_(column.player_a == filters["player"], column.player_b == filters["player"]))
    status = filters.get("status", "all")
    if status == "active":
        query = query.where(column.status != "finished")
    elif status in ("waiting", "finished"):
        query = query.where(column.status == status)
    if partner_id is not None:
        query = query.where(or_(column.partner_a == partner_id, column.partner_b == partner_id))
    if after is not None:
        query = query.where(column.game_id > after)
    return query


def _move_write(game: PlayedGame, write: GameWrite, keyed: KeyedRequest | None, answer: Any) -> MoveWrite:
    columns, values = game.columns, write.values
    action, event = write.actions[0], write.events[0]
    # the game row's columns the statement sets, as the write leaves them (no merge of the whole row)
    move = {name: values[name] if name in values else columns[name] for name in GAME_COLUMNS}
    move.update(
        game_id=write.game_id,
        version=write.judged_version,
        kind=action["kind"],
        role=action["role"],
        player_id=action["player_id"],
        data=action["data"],
        at_ms=write.at_ms,
        think_ms=action["think_ms"],
        clock=action["clock"],
        round_key=write.round_key,
        event_data=event["data"],
        idem_principal=keyed.principal if keyed else None,
        idem_key=keyed.key if keyed else None,
        idem_fingerprint=keyed.fingerprint if keyed else None,
        idem_response=answer[1] if keyed is not None and answer is not None else None,
    )
    return MoveWrite(move)


class DecisionRepository:
    """The arbiter's decisions of round pairings (the latest ``sequence`` wins)."""

    __slots__ = ("transaction",)

    def __init__(self, transaction: Transaction) -> None:
        self.transaction = transaction

    @staticmethod
    def _key(event_code: str, stage: str, section_id: str, round_no: int, pairing_id: str) -> Any:
        decision = arbiter_decisions.c
        return and_(
            decision.event_code == event_code,
            decision.stage == stage,
            decision.section_id == section_id,
            decision.round == round_no,
            decision.pairing_id == pairing_id,
        )

    async def replace(self, decision: dict[str, Any]) -> bool:
        """Store ``decision`` unless the stored one is as new (a redelivery, or overtaken by a
        later correction): False then."""
        session = await self.transaction.session()
        key = self._key(*(decision[name] for name in ("event_code", "stage", "section_id", "round", "pairing_id")))
        stored = (await session.execute(select(arbiter_decisions.c.sequence).where(key))).first()
        if stored is not None and stored[0] >= decision["sequence"]:
            return False
        await session.execute(arbiter_decisions.delete().where(key))
        await session.execute(arbiter_decisions.insert().values(**decision))
        return True

    async def for_game(self, columns: Mapping[str, Any]) -> dict[str, Any] | None:
        """The decision on the pairing of a round game (playoff games have none)."""
        if columns["playoff_id"]:
            return None
        session = await self.transaction.session()
        key = self._key(
            columns["event_code"], columns["stage"], columns["section_id"], columns["round"], columns["pairing_id"]
        )
        row = (await session.execute(select(arbiter_decisions).where(key))).mappings().first()
        return dict(row) if row is not None else None


class KeyRepository:
    """Idempotency-Keys of player actions and their stored answers (gomoku_shared.idempotency)."""

    __slots__ = ("transaction", "store")

    def __init__(self, transaction: Transaction, store: IdempotencyStore) -> None:
        self.transaction = transaction
        self.store = store

    async def lookup(self, keyed: KeyedRequest) -> Stored | None:
        return await self.store.lookup(await self.transaction.session(), keyed)

    async def remember(self, keyed: KeyedRequest, status: int, body: Any) -> None:
        await self.store.remember(await self.transaction.session(), keyed, status, body)
