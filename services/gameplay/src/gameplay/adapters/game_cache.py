"""The games this process last committed, kept between requests (per process).

Used optimistically: every write checks the game's ``version``, so a stale entry (another
replica moved the game on) costs one retry that reloads from the database. An entry is taken
out while an action is judged on it (the engine state is mutated), and put back after commit."""

from __future__ import annotations

from ..domain.live import LiveGame
from ..domain.played_game import PlayedGame


class GameCache:
    def __init__(self, size: int) -> None:
        self.size = size
        self._games: dict[str, PlayedGame] = {}

    def take(self, game_id: str) -> PlayedGame | None:
        return self._games.pop(game_id, None)

    def live_at(self, game_id: str, version: int) -> LiveGame | None:
        """The cached engine state of the game if it is of ``version`` (taken out)."""
        cached = self._games.pop(game_id, None)
        return cached.live if cached is not None and cached.version == version else None

    def peek(self, game_id: str) -> PlayedGame | None:
        """The cached game, left in the cache: for a read that draws its answer from it before it
        awaits anything (an action takes a game out before it changes it, so a game in the cache
        does not change under a read that does not await). Reads used to take the game out and put
        it back after their own awaits: a move meanwhile found no game cached and replayed its whole
        log, and with spectators every move did (issue 33)."""
        return self._games.get(game_id)

    def keep_read(self, game: PlayedGame) -> None:
        """Keep a game a read rebuilt from its log (never one it saw in the cache: an action may
        hold that one by now), unless the cache has one meanwhile."""
        if game.status != "finished" and game.game_id not in self._games and len(self._games) <= self.size:
            self._games[game.game_id] = game

    def keep(self, game: PlayedGame) -> None:
        if game.status == "finished":
            # no player acts on a finished game any more: keeping its engine state would only hold
            # memory (tens of kB a game, every game of the event by its end); reads go to the database
            self._games.pop(game.game_id, None)
            return
        if len(self._games) > self.size:
            self._games.clear()
        self._games[game.game_id] = game

    def drop(self, game_id: str) -> None:
        self._games.pop(game_id, None)
