"""Game state for both rule tracks (PLAY-1 free rules, PLAY-3 professional rules, PLAY-4 ends).

The game works in colours (black moves first); who is black is the business of the opening
protocol (PLAY-2, ``opening_protocol.py``) or of the pairing. The board is kept incrementally and
a move only looks at the four lines through the new stone. Under professional rules the core's
kept board (``KeptBoard``) follows every stone too, so judging a black move or listing the
forbidden points works from state kept move by move, not from the stone lists.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Literal

from .coords import BOARD_SIZE, POINTS, Point, as_point, to_notation
from .errors import IllegalAction

FREE: Literal["free"] = "free"
PROFESSIONAL: Literal["professional"] = "professional"
FORBIDDEN_KINDS = frozenset({"overline", "double_four", "double_three"})
_DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))


class Colour(str, Enum):
    BLACK = "black"
    WHITE = "white"

    @property
    def other(self) -> Colour:
        return Colour.WHITE if self is Colour.BLACK else Colour.BLACK


class Reason(str, Enum):
    """Why a game ended (PLAY-4)."""

    FIVE = "five"
    FORBIDDEN = "forbidden"
    TIME_FORFEIT = "time_forfeit"
    RESIGNATION = "resignation"
    NO_SHOW = "no_show"
    ARBITER = "arbiter"
    DRAW_AGREEMENT = "draw_agreement"
    DRAW_PASSES = "draw_passes"
    DRAW_FULL_BOARD = "draw_full_board"
    DRAW_BOTH_FLAGS = "draw_both_flags"


@dataclass(frozen=True)
class RuleSet:
    """Which rules a game is played under.

    track: ``free`` (PLAY-1) or ``professional`` (China 2013, PLAY-2/3).
    exactly_five: free rules only -- only exactly five wins, an overline is an ordinary move.
    on_forbidden: professional only -- ``loss`` (the move is kept and black loses, the default
    decision of PLAY-3) or ``reject`` (the move is refused, for casual play).
    """

    track: Literal["free", "professional"] = FREE
    exactly_five: bool = False
    on_forbidden: Literal["loss", "reject"] = "loss"

    def __post_init__(self) -> None:
        if self.track not in (FREE, PROFESSIONAL):
            raise ValueError(f"track must be 'free' or 'professional', not {self.track!r}")
        if self.on_forbidden not in ("loss", "reject"):
            raise ValueError(f"on_forbidden must be 'loss' or 'reject', not {self.on_forbidden!r}")
        if self.exactly_five and self.track != FREE:
            raise ValueError("exactly_five is a free-rules variant; professional rules fix it by colour")

    @classmethod
    def free(cls, exactly_five: bool = False) -> RuleSet:
        return cls(FREE, exactly_five=exactly_five)

    @classmethod
    def professional(cls, on_forbidden: Literal["loss", "reject"] = "loss") -> RuleSet:
        return cls(PROFESSIONAL, on_forbidden=on_forbidden)

    @property
    def forbidden_moves(self) -> bool:
        return self.track == PROFESSIONAL


@dataclass(frozen=True)
class Result:
    """Outcome: ``winner`` None means a draw; ``foul`` is the PLAY-3 kind for a forbidden move."""

    winner: Colour | None
    reason: Reason
    foul: str | None = None
    note: str | None = None

    @property
    def is_draw(self) -> bool:
        return self.winner is None


@dataclass(frozen=True)
class Action:
    """One entry of the game's history: a stone (``point``) or a pass (``point`` None)."""

    ply: int
    colour: Colour
    point: Point | None
    foul: str | None = None

    @property
    def is_pass(self) -> bool:
        return self.point is None

    @property
    def notation(self) -> str:
        return "pass" if self.point is None else to_notation(self.point)


@dataclass(frozen=True)
class LegalActions:
    colour: Colour | None
    moves: frozenset[Point]
    can_pass: bool


def _default_core() -> ModuleType:
    from . import backend

    return backend.core


class Game:
    """One game of Gomoku under ``rules``, judged by ``core`` (default: the selected backend)."""

    def __init__(
        self, rules: RuleSet | None = None, core: ModuleType | None = None, *, passes_allowed: bool = True
    ) -> None:
        self.rules = rules if rules is not None else RuleSet.free()
        self.core = core if core is not None else _default_core()
        # The opening protocol turns passes off until the opening is complete (PLAY-2).
        self.passes_allowed = passes_allowed
        self._board = [0] * (BOARD_SIZE * BOARD_SIZE)  # 0 empty, 1 black, 2 white
        self._black: set[Point] = set()
        self._white: set[Point] = set()
        self._history: list[Action] = []
        self.result: Result | None = None
        # only professional rules have forbidden points to judge
        self._kept = self.core.KeptBoard() if self.rules.forbidden_moves else None

    # -- queries ---------------------------------------------------------------------------

    @property
    def history(self) -> tuple[Action, ...]:
        return tuple(self._history)

    @property
    def plies(self) -> int:
        """How many actions (stones and passes) were played: ``len(history)`` without a copy."""
        return len(self._history)

    @property
    def moves(self) -> list[Point | None]:
        return [a.point for a in self._history]

    @property
    def black(self) -> frozenset[Point]:
        return frozenset(self._black)

    @property
    def white(self) -> frozenset[Point]:
        return frozenset(self._white)

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def next_colour(self) -> Colour:
        """Colour whose turn it is by alternation (also after the game is over)."""
        return Colour.BLACK if len(self._history) % 2 == 0 else Colour.WHITE

    @property
    def to_move(self) -> Colour | None:
        return None if self.result is not None else self.next_colour

    def stone_at(self, point: Point) -> Colour | None:
        x, y = as_point(point)
        cell = self._board[x * BOARD_SIZE + y]
        return None if cell == 0 else (Colour.BLACK if cell == 1 else Colour.WHITE)

    def forbidden_points(self) -> dict[Point, str]:
        """Points where black may not play now (empty under free rules)."""
        if self._kept is None:
            return {}
        return dict(self._kept.forbidden_points())

    def legal_actions(self) -> LegalActions:
        """Playable points and whether a pass is allowed for the side to move.

        Under ``on_forbidden="loss"`` a forbidden point is playable (it loses); under
        ``reject`` it is left out."""
        if self.result is not None:
            return LegalActions(None, frozenset(), False)
        colour = self.next_colour
        empty = {(i // BOARD_SIZE, i % BOARD_SIZE) for i, v in enumerate(self._board) if v == 0}
        if colour is Colour.BLACK and self.rules.forbidden_moves and self.rules.on_forbidden == "reject":
            empty -= set(self.forbidden_points())
        return LegalActions(colour, frozenset(empty), self.passes_allowed)

    # -- actions ---------------------------------------------------------------------------

    def _check_open(self) -> None:
        if self.result is not None:
            raise IllegalAction("game_over", f"the game is over ({self.result.reason.value})")

    def play(self, point: Point) -> Action:
        """Place a stone of the side to move; returns the recorded action."""
        self._check_open()
        try:
            x, y = as_point(point)
        except ValueError as exc:
            raise IllegalAction("off_board", str(exc)) from None
        idx = x * BOARD_SIZE + y
        if self._board[idx]:
            raise IllegalAction("occupied", f"{to_notation((x, y))} is already occupied", point=(x, y))
        colour = self.next_colour
        value = 1 if colour is Colour.BLACK else 2
        longest, exact_five = self._runs((x, y), value)

        foul = None
        result = None
        if colour is Colour.BLACK and self.rules.forbidden_moves:
            if exact_five:  # PLAY-3: exactly five wins even with a forbidden shape
                result = Result(Colour.BLACK, Reason.FIVE)
            else:
                kind = self._black_kind((x, y), longest)
                if kind in FORBIDDEN_KINDS:
                    if self.rules.on_forbidden == "reject":
                        raise IllegalAction(
                            "forbidden", f"{to_notation((x, y))} is a forbidden {kind}", point=(x, y), kind=kind
                        )
                    foul = kind
                    result = Result(Colour.WHITE, Reason.FORBIDDEN, foul=kind)
        elif self.rules.track == FREE and self.rules.exactly_five:
            if exact_five:
                result = Result(colour, Reason.FIVE)
        elif longest >= 5:  # free rules, and white under professional rules: five or more
            result = Result(colour, Reason.FIVE)

        self._board[idx] = value
        point = POINTS[idx]  # the board's own tuple: a move leaves one tracked object, its action
        (self._black if value == 1 else self._white).add(point)
        if self._kept is not None:
            self._kept.place(point, value == 1)
        action = Action(len(self._history) + 1, colour, point, foul)
        self._history.append(action)
        if result is None and len(self._black) + len(self._white) == BOARD_SIZE * BOARD_SIZE:
            result = Result(None, Reason.DRAW_FULL_BOARD)
        self.result = result
        return action

    def pass_(self) -> Action:
        """Pass; two passes in succession end the game in a draw (PLAY-4)."""
        self._check_open()
        if not self.passes_allowed:
            raise IllegalAction("pass_not_allowed", "no pass before the opening is complete")
        action = Action(len(self._history) + 1, self.next_colour, None)
        previous = self._history[-1] if self._history else None
        self._history.append(action)
        if previous is not None and previous.is_pass:
            self.result = Result(None, Reason.DRAW_PASSES)
        return action

    def _end(self, result: Result) -> Result:
        self._check_open()
        self.result = result
        return result

    def resign(self, colour: Colour | str) -> Result:
        return self._end(Result(Colour(colour).other, Reason.RESIGNATION))

    def agree_draw(self) -> Result:
        return self._end(Result(None, Reason.DRAW_AGREEMENT))

    def time_forfeit(self, colour: Colour | str) -> Result:
        """``colour``'s flag fell: that side loses (PLAY-5)."""
        return self._end(Result(Colour(colour).other, Reason.TIME_FORFEIT))

    def both_flags(self) -> Result:
        return self._end(Result(None, Reason.DRAW_BOTH_FLAGS))

    def apply_flags(self, flagged: Iterable[Colour | str]) -> Result | None:
        """End the game from a clock's flag status: one flag loses on time, two draw (PLAY-4)."""
        colours = {Colour(c) for c in flagged}
        if not colours:
            return None
        if len(colours) == 2:
            return self.both_flags()
        return self.time_forfeit(colours.pop())

    def no_show(self, colour: Colour | str) -> Result:
        """``colour`` did not join in time and forfeits (PLAY-7)."""
        return self._end(Result(Colour(colour).other, Reason.NO_SHOW))

    def arbiter_decision(self, winner: Colour | str | None, note: str | None = None) -> Result:
        return self._end(Result(None if winner is None else Colour(winner), Reason.ARBITER, note=note))

    # -- helpers ---------------------------------------------------------------------------

    def _runs(self, point: Point, value: int) -> tuple[int, bool]:
        """Longest run through ``point`` if ``value`` were placed, and whether some line is
        exactly five."""
        board = self._board
        x0, y0 = point
        longest = 1
        exact = False
        for dx, dy in _DIRECTIONS:
            run = 1
            for sign in (1, -1):
                x, y = x0 + sign * dx, y0 + sign * dy
                while 0 <= x < BOARD_SIZE and 0 <= y < BOARD_SIZE and board[x * BOARD_SIZE + y] == value:
                    run += 1
                    x, y = x + sign * dx, y + sign * dy
            longest = max(longest, run)
            exact = exact or run == 5
        return longest, exact

    def _black_kind(self, point: Point, longest: int) -> str:
        if longest >= 6:
            return "overline"
        assert self._kept is not None  # black moves are judged under professional rules only
        return self._kept.classify(point)
