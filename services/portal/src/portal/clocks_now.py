"""A followed game's clocks as of now, sent first on a viewer's stream.

A live page (and a board wall's tile) is drawn once per view of its game for all of its viewers,
and the view's clocks are as of when gameplay read them (``clocks.at_ms``: the last move's event,
or gameplay's read), while the page counts the running clock down from its own load: a spectator
opening the page 40 s into a player's think would see that clock 40 s fuller than it is until
the next move. So a viewer's stream starts with a ``clock`` message of the clocks as of now —
the running side's time less the time since ``at_ms``, by the portal's clock, never the
browser's — in the shape of gameplay's own ``clock`` messages (``static/clocks.js`` reads it).
A view that does not say when its clocks were read (an older gameplay) sends none.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

SIDES = ("black", "white")
#: how far the portal's clock may be from gameplay's before a reading is taken to be on another
#: clock (a simulation clock of the services, not given to this process): one from further in
#: the future, or older than the running side's time by more (its flag would have fallen and
#: the game ended), sends nothing rather than a wrong time
SKEW_MS = 60_000


def _ms(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _starts_ms(view: Mapping[str, Any]) -> int | None:
    """The round's scheduled start of the game in epoch ms: a clock set to run waits for it."""
    starts = view.get("starts_at")
    if not isinstance(starts, str):
        return None
    try:
        return int(datetime.fromisoformat(starts).timestamp() * 1000)
    except ValueError:
        return None


def as_of(view: Mapping[str, Any], now_ms: int) -> dict[str, Any] | None:
    """``view``'s clocks as of ``now_ms`` (epoch ms), or None: the game is not being played on
    the server's clock, its view does not say when its clocks were read, or ``now_ms`` is not
    on the clock they were read on (``SKEW_MS``)."""
    clocks = view.get("clocks")
    if view.get("status") != "active" or view.get("mode") == "offline" or not isinstance(clocks, Mapping):
        return None
    read_at = _ms(clocks.get("at_ms"))
    if read_at is None:
        return None
    now = dict(clocks, at_ms=now_ms)
    running = clocks.get("running")
    if running in SIDES:
        field = f"{running}_ms"
        left = _ms(clocks.get(field))
        if left is None:
            return None
        since = max(read_at, _starts_ms(view) or read_at)
        if not (-SKEW_MS <= now_ms - read_at and now_ms - since <= left + SKEW_MS):
            return None
        now[field] = max(0, left - max(0, now_ms - since))
    return now


def _recency(view: Mapping[str, Any]) -> tuple[int, int]:
    """(sequence number, when its clocks were read) of a view: the greater, the newer."""
    clocks = view.get("clocks")
    return int(view.get("seq") or 0), (_ms(clocks.get("at_ms")) if isinstance(clocks, Mapping) else None) or 0


def _newest(views: Iterable[Mapping[str, Any] | None], last_seq: int) -> Mapping[str, Any] | None:
    """The newest of ``views`` that shows every event stored (``last_seq``), or None."""
    current = [view for view in views if view is not None and _recency(view)[0] >= last_seq]
    return max(current, key=_recency, default=None)


def board_in(boards: Mapping[str, Any] | None, game_id: str) -> Mapping[str, Any] | None:
    """The board of ``game_id`` in a round's boards read (``RoundFeed.boards``), if listed."""
    for board in (boards or {}).get("games") or []:
        if board.get("game_id") == game_id:
            return board
    return None


def clock_event(game_id: str, views: Iterable[Mapping[str, Any] | None], last_seq: int, now_ms: int) -> bytes | None:
    """The SSE ``clock`` event of the game's clocks as of ``now_ms``, from the newest of ``views``
    (the feed's held view, its round's kept board) that shows the last stored event; None without
    one that can say."""
    view = _newest(views, last_seq)
    clocks = None if view is None else as_of(view, now_ms)
    if view is None or clocks is None:
        return None
    message = {"game_id": game_id, "kind": "clock", "data": {"clocks": clocks, "status": view.get("status")}}
    # no id: a clock message is not one of the game's events (Last-Event-ID stays the last of them)
    return f"event: clock\ndata: {json.dumps(message)}\n\n".encode()
