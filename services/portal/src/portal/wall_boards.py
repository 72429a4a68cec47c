"""A round's boards for its wall, read from gameplay once and then kept up to date by the games'
feeds (issue 33): a spectator loading the wall no longer has gameplay draw all of the round's
boards while any clock of it runs.

The answer of the last read is kept with the round's stream (``RoundFeed.boards``). A load of the
wall while this process follows the round takes each game's board from it while the portal has
seen no newer event of that game, else from the game's feed's view when the feed holds one as of
its last event (a board is the view's subset, ``BOARD_FIELDS``); a game the portal has seen newer
events of and holds no current view of, or a game of the round the kept answer does not list,
has the boards read again. A board's clocks are as of the last change the portal saw of its
game, and the page counts the running one down from its load: so that a wall loaded during a long
think does not show the clock of the player thinking minutes fuller than it is, the kept answer
is read again once it is ``MAX_AGE_S`` old (one read a round that often, whatever the viewers).
"""

from __future__ import annotations

from typing import Any

from . import read_cache
from .fanout import FeedHub, RoundKey

#: how long the kept boards stand in for a read (seconds): the most a wall's clocks lag at its load
MAX_AGE_S = 10.0

#: what a board of the wall shows of a game: gameplay's boards read answers these of its view
BOARD_FIELDS = (
    "game_id",
    "event_code",
    "stage",
    "section_id",
    "round",
    "pairing_id",
    "game_no",
    "black",
    "white",
    "status",
    "phase",
    "to_act",
    "seq",
    "result",
    "reason",
    "starts_at",
    "mode",
    "moves",
    "board",
    "forbidden",
    "opening",
    "clocks",
    "winner",
    "outcome",
    "playoff_id",
)


def board_of_view(view: dict[str, Any]) -> dict[str, Any]:
    return {name: view.get(name) for name in BOARD_FIELDS}


def assembled(hub: FeedHub, key: RoundKey, kept: dict[str, Any], digest: str) -> tuple[dict[str, Any], str] | None:
    """The kept answer (``digest``: made when it was read) brought up to date by the feeds, and
    the digest of what it shows (an input of the page); None when a game of it cannot be."""
    listed: set[str] = set()
    games, taken = [], []
    for board in kept.get("games") or []:
        game_id = str(board.get("game_id"))
        listed.add(game_id)
        feed = hub.feeds.get(game_id)
        if feed is None or feed.last_seq <= int(board.get("seq") or 0):
            games.append(board)
            continue
        view = feed.held
        if view is None or view.get("seq") != feed.last_seq:
            return None
        games.append(board_of_view(view))
        taken.append((game_id, feed.last_seq))
    if any(feed.round == key and game_id not in listed for game_id, feed in hub.feeds.items()):
        return None  # a game of the round the answer does not show (a play-off game, say)
    return {**kept, "games": games}, read_cache.digest_of("wall boards", digest, taken)
