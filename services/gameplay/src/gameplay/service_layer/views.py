"""What the API shows of games: lists, one game as of now, its record (PLAY-8), its stream events."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from gomoku_shared.errors import NotFound

from ..domain.played_game import PlayedGame, readings, summary_of
from .unit_of_work import Units

#: how many games' event codes a process keeps (a game's event never changes)
EVENT_OF_CACHE = 50_000
#: how many games' boards a process keeps drawn (but for their clocks)
DRAWN_BOARDS = 20_000


class DrawnBoards:
    """Each game's board but for its clocks, drawn once per version of the game: one entry a game
    (a new version replaces its last), and past ``size`` games the one drawn longest ago is
    dropped, so a long event keeps as many boards as it has games in play, not one per move."""

    def __init__(self, size: int = DRAWN_BOARDS) -> None:
        self.size = size
        #: game id -> (version, board); the dict's order is the order they were drawn in
        self._boards: dict[str, tuple[int, dict[str, Any]]] = {}

    def __len__(self) -> int:
        return len(self._boards)

    def board(self, game: PlayedGame) -> dict[str, Any]:
        """The board of ``game`` as of its version (read only: shared by the answers)."""
        kept = self._boards.pop(game.game_id, None)
        if kept is None or kept[0] != game.version:
            kept = (game.version, board_of(game, None))
            if len(self._boards) >= self.size:
                del self._boards[next(iter(self._boards))]
        self._boards[game.game_id] = kept  # last in the order again
        return kept[1]


class GameViews:
    def __init__(self, units: Units) -> None:
        self.units = units
        #: game id -> its event code (issue 29: the staff routes authorise per event)
        self._event_of: dict[str, str] = {}
        self.drawn_boards = DrawnBoards()

    def now_ms(self) -> int:
        return int(self.units.runtime.clock.now().timestamp() * 1000)

    async def load(self, game_id: str) -> PlayedGame:
        async with self.units.reading() as uow:
            game = await uow.games.get(game_id)
        if game is None:
            raise NotFound("game_not_found", f"no game {game_id!r}")
        self.units.cache.keep(game)
        return game

    async def event_of(self, game_id: str) -> str:
        """The event code of a game: from this process's map, else one read by primary key;
        404 ``game_not_found`` for no such game."""
        code = self._event_of.get(game_id)
        if code is None:
            async with self.units.reading() as uow:
                code = await uow.games.event_code(game_id)
            if code is None:
                raise NotFound("game_not_found", f"no game {game_id!r}")
            if len(self._event_of) >= EVENT_OF_CACHE:
                self._event_of.clear()
            self._event_of[game_id] = code
        return code

    async def list_games(
        self,
        event_code: str | None = None,
        section_id: str | None = None,
        round_no: int | None = None,
        status: str = "all",
    ) -> list[dict[str, Any]]:
        async with self.units.reading() as uow:
            rows = await uow.games.listing(event_code, section_id, round_no, status)
        # lists also say who won and the pairing's round points (on the pairing's last game)
        return [
            {**summary_of(row), "winner": row["winner"], "outcome": row["outcome"], "playoff_id": row["playoff_id"]}
            for row in rows
        ]

    async def page(
        self, filters: dict[str, Any], partner_id: str | None, after: str | None, limit: int
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of the list in game_id order, and the game_id to continue after (None at the end)."""
        async with self.units.reading() as uow:
            rows = await uow.games.page(filters, partner_id, after, limit + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        listed = [
            {**summary_of(row), "winner": row["winner"], "outcome": row["outcome"], "playoff_id": row["playoff_id"]}
            for row in rows
        ]
        return listed, rows[-1]["game_id"] if more else None

    async def page_versions(
        self, filters: dict[str, Any], partner_id: str | None, after: str | None, limit: int
    ) -> list[tuple[str, int]]:
        """(game_id, version) of the page ``page`` gives (and of the one game after it): its ETag."""
        async with self.units.reading() as uow:
            return await uow.games.page_versions(filters, partner_id, after, limit + 1)

    async def round_versions(self, event_code: str, section_id: str, round_no: int) -> list[tuple[str, int, bool]]:
        """(game_id, version, whether a clock runs) of every game of a round: its ETag."""
        async with self.units.reading() as uow:
            return await uow.games.round_versions(event_code, section_id, round_no)

    async def round_boards(
        self, event_code: str, section_id: str, round_no: int
    ) -> tuple[list[dict[str, Any]], list[tuple[str, int, bool]], int]:
        """Every game of a round as a board (``board_of``), the (game_id, version, ticking) they
        show and the time (ms) their clocks are read at."""
        async with self.units.reading() as uow:
            played = await uow.games.round_played(event_code, section_id, round_no)
            # drawn before any await: a cached game does not change meanwhile (GameCache.peek)
            now = self.now_ms()
            shown = [(game.game_id, game.version, ticking(game.columns)) for game, _ in played]
            boards = [self._board(game, now, rebuilt) for game, rebuilt in played]
        for game, rebuilt in played:
            if rebuilt:
                self.units.cache.keep_read(game)
        return boards, shown, now

    def _board(self, game: PlayedGame, now_ms: int, rebuilt: bool) -> dict[str, Any]:
        """``board_of``, all but the clocks drawn once per version of a game this process cached
        (its stones, forbidden points and opening do not change between versions): a wall's read
        of a round being played, asked for by every spectator loading the wall, computed every
        game's forbidden points each time and held the event loop for it (issue 33)."""
        if rebuilt:  # a game rebuilt by this read may be newer than its row: not kept
            return board_of(game, now_ms)
        return {**self.drawn_boards.board(game), "clocks": clocks_at(game, now_ms)}

    async def view(self, game_id: str) -> dict[str, Any]:
        """The full view of one game as of now."""
        async with self.units.reading() as uow:
            found = await uow.games.read(game_id)
            if found is None:
                raise NotFound("game_not_found", f"no game {game_id!r}")
            game, rebuilt, decided = found
            # drawn before any await: a cached game does not change meanwhile (GameCache.peek)
            out = self._drawn(game)
        if rebuilt:
            self.units.cache.keep_read(game)
        out["decision"] = (
            None
            if decided is None
            else {
                "outcome": decided["outcome"],
                "reason": decided["reason"],
                "sequence": decided["sequence"],
                "decided_at": datetime.fromtimestamp(decided["decided_ms"] / 1000, tz=UTC).isoformat(),
            }
        )
        return out

    def _drawn(self, game: PlayedGame) -> dict[str, Any]:
        """The view of a game but for the arbiter's decision."""
        columns, live = game.columns, game.live
        # EVT-7: before the round's start nothing but joining is possible
        active = columns["status"] == "active" and (columns.get("starts_ms") or 0) <= self.now_ms()
        out = game.summary()
        out.pop("_version", None)
        out.update(
            rules=columns["rules"],
            clock_spec=columns["clock_spec"],
            moves=list(live.moves),  # a copy: the engine may move on after this read awaits
            # the players as the pairing placed them: first moves first (tentative black), PLAY-2
            first=columns["first_id"],
            second=columns["second_id"],
            board=[{"point": a.notation, "colour": a.colour.value} for a in live.game.history if a.point is not None],
            legal_actions=live.legal_actions() if active else (["join"] if columns["status"] == "waiting" else []),
            forbidden=live.forbidden() if active else {},
            clocks=clocks_at(game, self.now_ms()),
            opening=live.opening_info(),
            joined={columns["first_id"]: columns["joined_first"], columns["second_id"]: columns["joined_second"]},
            draw_offer_by=columns["draw_offer_by"],
            foul=columns["foul"],
            winner=columns["winner"],
            outcome=columns["outcome"],
            playoff_id=columns["playoff_id"],
            double_forfeit=columns["result"] == "double_forfeit",
        )
        return out

    async def export(self, game_id: str) -> dict[str, Any]:
        game = await self.load(game_id)
        async with self.units.reading() as uow:
            metas = await uow.games.action_meta(game_id)
            decided = await uow.decisions.for_game(game.columns)
        record = game.record(metas, self.units.runtime.clock.now().tzinfo)
        if decided is not None:  # the arbiter's result stands over what the board shows (PLAY-8)
            record["arbiter_decision"] = {
                "outcome": decided["outcome"],
                "reason": decided["reason"],
                "result": game.columns["result"],
                "winner": game.columns["winner"],
            }
        return record

    async def events_since(self, game_id: str, since: int, limit: int = 500) -> list[dict[str, Any]]:
        async with self.units.reading() as uow:
            return await uow.games.events_since(game_id, since, limit)

    async def round_events_since(self, key: str, since_id: int, limit: int = 500) -> list[dict[str, Any]]:
        async with self.units.reading() as uow:
            return await uow.games.round_events_since(key, since_id, limit)

    async def game_exists(self, game_id: str) -> bool:
        async with self.units.reading() as uow:
            return await uow.games.exists(game_id)


def clocks_at(game: PlayedGame, now_ms: int) -> dict[str, Any]:
    """The game's clocks as of ``now_ms`` saying so (``at_ms``): a reader that shows them later
    counts the running side down from then, not from when it got them (the portal's pages, drawn
    once for all of their viewers). A stream event says it in its own ``at_ms``."""
    return {**readings(game.clock(), game.live, now_ms), "at_ms": now_ms}


def board_of(game: PlayedGame, now_ms: int | None) -> dict[str, Any]:
    """A game as a small board (the round's board wall): its summary, stones, black's forbidden
    points while black is to place one, the opening's state and the clocks as of ``now_ms``."""
    columns, live = game.columns, game.live
    out = {k: v for k, v in game.summary().items() if not k.startswith("_")}
    out.update(
        moves=list(live.moves),
        board=[{"point": a.notation, "colour": a.colour.value} for a in live.game.history if a.point is not None],
        forbidden=live.forbidden() if columns["status"] == "active" else {},
        opening=live.opening_info(),
        clocks=clocks_at(game, now_ms) if now_ms is not None else None,
        winner=columns["winner"],
        outcome=columns["outcome"],
        playoff_id=columns["playoff_id"],
    )
    return out


def ticking(columns: dict[str, Any]) -> bool:
    """A clock of the game runs: its board changes with time alone."""
    return columns["status"] != "finished" and columns["clock_running"] is not None
