"""A followed game's view brought up to date by its stream's events instead of read again from
gameplay after each of them (issue 33).

A move in the game's play phase changes few things of the view, all of them known from the
move's event (the point, who placed it, the game's ply count and clocks, the event's time) and
the view before it: the stone, the move list, the sequence number, who acts next, the clocks and
when they were read, a draw offer the move declines, black's forbidden points (none while white
is to move, none ever under free rules; after a white move under rules that forbid points, those
the event lists: gameplay finds them).
``applied`` makes that view, equal to the one gameplay would answer, or says it cannot (None) —
anything else, or a move that may end the game (a line of five or more, a full board, a point
forbidden to black), or an event that does not follow the view's sequence number (a gap, a
reconnection): the view is then read from gameplay again.
"""

from __future__ import annotations

import re
from typing import Any

BOARD_SIZE = 15
COLUMNS = "abcdefghijklmno"
#: the notation gameplay reads a point in (case and surrounding blanks ignored)
NOTATION = re.compile(r"^([a-o])(1[0-5]|[1-9])$")
#: stones in a row that end a game (or may: an overline is judged by the rules)
LINE = 5
DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))

Cell = tuple[int, int]


def cell_of(text: object) -> Cell | None:
    """``"h8" -> (7, 7)``; None for what is not a point of the board."""
    if not isinstance(text, str):
        return None
    match = NOTATION.match(text.strip().lower())
    if match is None:
        return None
    return COLUMNS.index(match.group(1)), int(match.group(2)) - 1


def notation(cell: Cell) -> str:
    return f"{COLUMNS[cell[0]]}{cell[1] + 1}"


def makes_a_line(stones: dict[Cell, str], cell: Cell, colour: str) -> bool:
    """The stone at ``cell`` is in a row of five or more stones of its colour."""
    x, y = cell
    for dx, dy in DIRECTIONS:
        count = 1
        for sign in (1, -1):
            step = 1
            while stones.get((x + sign * step * dx, y + sign * step * dy)) == colour:
                count += 1
                step += 1
        if count >= LINE:
            return True
    return False


def forbidden_rules(view: dict[str, Any]) -> bool:
    """The game's rules forbid points to black (anything but the free track, or rules not known)."""
    rules = view.get("rules")
    return not (isinstance(rules, dict) and rules.get("track") == "free")


def applied(view: dict[str, Any], message: dict[str, Any]) -> dict[str, Any] | None:
    """The view after the stream's ``message`` (``{"seq", "kind", "data"}``), a new dict (the one
    given is shared by pages being drawn); None when the event cannot be applied exactly."""
    seq, data = message.get("seq"), message.get("data")
    if message.get("kind") != "action" or not isinstance(data, dict) or data.get("action") != "move":
        return None
    before = view.get("seq")
    if not isinstance(seq, int) or not isinstance(before, int) or seq != before + 1:
        return None  # not the view's next event: a gap, or the view is newer
    if view.get("status") != "active" or view.get("phase") != "play" or view.get("mode") != "online":
        return None
    player, clocks, cell = data.get("player_id"), data.get("clocks"), cell_of(data.get("point"))
    if player is None or player != view.get("to_act") or not isinstance(clocks, dict) or cell is None:
        return None
    if player == view.get("black"):
        colour, following = "black", view.get("white")
    elif player == view.get("white"):
        colour, following = "white", view.get("black")
    else:
        return None
    board, moves = list(view.get("board") or []), list(view.get("moves") or [])
    stones: dict[Cell, str] = {}
    for stone in board:
        at = cell_of(stone.get("point"))
        if at is None:
            return None
        stones[at] = str(stone.get("colour"))
    point = notation(cell)
    if cell in stones or point in (view.get("forbidden") or {}):
        return None
    stones[cell] = colour
    if len(stones) >= BOARD_SIZE * BOARD_SIZE or makes_a_line(stones, cell, colour):
        return None  # the move may end the game: its result is read
    forbidden: Any = {}
    if colour == "white" and forbidden_rules(view):
        # black is to move: its forbidden points are gameplay's to find, and its event says them
        forbidden = data.get("forbidden")
        if not isinstance(forbidden, dict):
            return None
    if data.get("moves") != len(moves) + 1:
        return None
    offer = view.get("draw_offer_by")
    # the event's clocks are as of the event: its time says so (``clocks_now``), or nothing does
    at = message.get("at_ms")
    read = {**clocks, "at_ms": at} if isinstance(at, int) else {k: v for k, v in clocks.items() if k != "at_ms"}
    return {
        **view,
        "seq": seq,
        "moves": [*moves, point],
        "board": [*board, {"point": point, "colour": colour}],
        "to_act": following,
        "clocks": read,
        "forbidden": dict(forbidden),
        # a move declines the opponent's draw offer
        "draw_offer_by": offer if offer == player else None,
    }
