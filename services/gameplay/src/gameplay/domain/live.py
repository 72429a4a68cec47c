"""One game as the service sees it: players by id, the engine state rebuilt from an action log.

A game has a ``first`` player (moves first: black under free rules, the tentative black under
professional rules, PLAY-2) and a ``second``. Every accepted action is one log entry
``(kind, role, data)``; replaying the log on a fresh engine rebuilds the state exactly, which is
how any replica serves any game. Kinds:

  move {point} / pass                         both tracks
  opening {stones, n} / swap {swap} /         professional opening (PLAY-2)
  offers {points} / choose {point}
  resign / draw_agreed / flag / both_flags /  endings that are not moves (PLAY-4, PLAY-7)
  no_show / double_no_show / arbiter {result, note[, decision]}
  slip {result, reason, note}                 PLAY-9: a confirmed result slip (over the board)
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from typing import Any

from ..engine import Game, IllegalAction, OpeningConfig, OpeningProtocol, RuleSet, to_notation
from ..engine.game import Colour, Reason, Result

ROLES = ("first", "second")
ENDINGS = frozenset({"resign", "draw_agreed", "flag", "both_flags", "no_show", "double_no_show", "arbiter", "slip"})
#: PLAY-9: contract reason of a result slip -> the engine's reason
SLIP_REASONS = {
    "five": Reason.FIVE,
    "forbidden": Reason.FORBIDDEN,
    "time": Reason.TIME_FORFEIT,
    "resignation": Reason.RESIGNATION,
    "no_show": Reason.NO_SHOW,
    "arbiter": Reason.ARBITER,
    "agreement": Reason.DRAW_AGREEMENT,
    "passes": Reason.DRAW_PASSES,
    "full_board": Reason.DRAW_FULL_BOARD,
}


def other(role: str) -> str:
    return "second" if role == "first" else "first"


@dataclass(frozen=True)
class Rules:
    """What the service needs of the pairing's ruleset (contracts ``Ruleset``)."""

    track: str = "free"
    exact_five: bool = False
    forbidden_policy: str = "loss"
    fixed_n: int | None = None
    max_n: int = 10

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> Rules:
        return cls(
            stored["track"],
            bool(stored.get("exact_five", False)),
            stored.get("forbidden_policy", "loss"),
            stored.get("fixed_n"),
            int(stored.get("max_n", 10)),
        )


@dataclass
class LiveGame:
    rules: Rules
    first: str
    second: str
    #: the stored actions the game is rebuilt from; not kept (the database holds the log, and a
    #: tuple a move kept here filled the collector's young generation: ADR 0003)
    log: InitVar[list[tuple[str, str | None, dict]] | None] = None

    def __post_init__(self, log: list[tuple[str, str | None, dict]] | None) -> None:
        if self.rules.track == "professional":
            cfg = OpeningConfig(fixed_n=self.rules.fixed_n, min_n=1, max_n=self.rules.max_n)
            self.proto: OpeningProtocol | None = OpeningProtocol(cfg, RuleSet.professional(self.rules.forbidden_policy))  # type: ignore[arg-type]
            self.game: Game = self.proto.game
        else:
            self.proto = None
            self.game = Game(RuleSet.free(exactly_five=self.rules.exact_five))
        self.double_forfeit = False
        #: an arbiter's result (a decision or a confirmed slip) ended the game
        self.decided = False
        for kind, role, data in log or ():
            self.apply(kind, role, data)

    # -- who is who ------------------------------------------------------------------------

    def role_of(self, player_id: str) -> str | None:
        return "first" if player_id == self.first else "second" if player_id == self.second else None

    def player(self, role: str | None) -> str | None:
        return None if role is None else self.first if role == "first" else self.second

    def role_of_colour(self, colour: Colour | str) -> str:
        if self.proto is not None:
            return self.proto.player_of(colour)
        # Colour is a str enum: equal to its name ("black"), without an enum lookup per call
        if colour == Colour.BLACK:
            return "first"
        if colour == Colour.WHITE:
            return "second"
        raise ValueError(f"{colour!r} is not a colour")

    @property
    def black(self) -> str:
        return self.player(self.role_of_colour(Colour.BLACK))  # type: ignore[return-value]

    @property
    def white(self) -> str:
        return self.player(self.role_of_colour(Colour.WHITE))  # type: ignore[return-value]

    # -- state -----------------------------------------------------------------------------

    @property
    def result(self) -> Result | None:
        return self.game.result

    @property
    def is_over(self) -> bool:
        return self.game.result is not None

    @property
    def phase(self) -> str:
        if self.is_over:
            return "over"
        return self.proto.phase.value if self.proto is not None else "play"

    @property
    def expected_role(self) -> str | None:
        if self.is_over:
            return None
        if self.proto is not None:
            return self.proto.expected_player
        return self.role_of_colour(self.game.next_colour)

    @property
    def moves(self) -> list[str]:
        return [a.notation for a in self.game.history]

    def forbidden(self) -> dict[str, str]:
        """Forbidden points for black when black is to place a stone (professional rules)."""
        if self.is_over or not self.game.rules.forbidden_moves or self.phase != "play":
            return {}
        if self.game.next_colour is not Colour.BLACK:
            return {}
        return {to_notation(p): k for p, k in sorted(self.game.forbidden_points().items())}

    def legal_actions(self) -> list[str]:
        """Action names open to the player to act (resign/draw are open to both)."""
        if self.is_over:
            return []
        acts = {
            "opening": ["opening"],
            "swap": ["swap"],
            "offers": ["offers"],
            "choose": ["choose"],
            "move4": ["move"],
            "move6": ["move"],
        }.get(self.phase, ["move", "pass"])
        if self.phase == "play" and not self.game.passes_allowed:
            acts = ["move"]
        return acts + ["resign", "draw"]

    # -- actions ---------------------------------------------------------------------------

    def apply(self, kind: str, role: str | None, data: dict | None = None) -> None:
        """Apply one action (raises IllegalAction, leaving the state unchanged on refusal)."""
        data = data or {}
        if kind == "slip":
            self._slip(data)
        elif kind in ENDINGS:
            self._end(kind, role, data)
        else:
            if role not in ROLES:
                raise IllegalAction("bad_player", f"unknown role {role!r}")
            if self.game.result is not None:
                raise IllegalAction("game_over", f"the game is over ({self.game.result.reason.value})")
            if role != self.expected_role:
                raise IllegalAction(
                    "not_your_turn", "it is the other player's turn", expected=self.player(self.expected_role)
                )
            self._act(kind, role, data)

    def _act(self, kind: str, role: str, data: dict) -> None:
        proto = self.proto
        if proto is None:
            if kind == "move":
                self.game.play(_point(data.get("point")))
            elif kind == "pass":
                self.game.pass_()
            else:
                raise IllegalAction("wrong_phase", f"free-rules games have no {kind!r} step", phase="play")
            return
        if kind == "opening":
            proto.place_opening(role, data.get("stones"), data.get("n"))  # type: ignore[arg-type]  # the engine refuses None
        elif kind == "swap":
            proto.choose_colour(role, "black" if data.get("swap") else "white")
        elif kind == "move":
            proto.play(role, _point(data.get("point")))
        elif kind == "offers":
            proto.offer_fifth(role, data.get("points"))  # type: ignore[arg-type]  # the engine refuses None
        elif kind == "choose":
            proto.choose_fifth(role, _point(data.get("point")))
        elif kind == "pass":
            proto.pass_(role)
        else:
            raise IllegalAction("wrong_phase", f"unknown action {kind!r}")

    def _end(self, kind: str, role: str | None, data: dict) -> None:
        game = self.game
        if kind == "arbiter" and not self.decided and game.result is not None:
            game.result = None  # PLAY-9: recorded moves ended an over-the-board game; the arbiter decides
        if game.result is not None:
            raise IllegalAction("game_over", f"the game is over ({game.result.reason.value})")
        if kind == "resign":
            game.resign(self._colour(role))
        elif kind == "draw_agreed":
            game.agree_draw()
        elif kind == "flag":
            game.time_forfeit(self._colour(role))
        elif kind == "both_flags":
            game.both_flags()
        elif kind == "no_show":
            game.no_show(self._colour(role))
        elif kind == "double_no_show":
            # PLAY-7 with both absent: nobody wins (a double forfeit); the engine has no such end
            game.result = Result(None, Reason.NO_SHOW, note="both players absent")
            self.double_forfeit = True
        elif kind == "arbiter":
            res = data.get("result")
            if res == "double_forfeit":  # decided in pairing: both forfeit, nobody wins (0:0)
                game.result = Result(None, Reason.ARBITER, note=data.get("note"))
                self.double_forfeit = True
            else:
                game.arbiter_decision(None if res == "draw" else Colour(res), data.get("note"))
            self.decided = True

    def _slip(self, data: dict) -> None:
        """PLAY-9: a confirmed result slip is the result of an over-the-board game, even where the
        recorded moves already ended it (the arbiters' slip decides; a disagreement with the
        record is flagged when the record is checked)."""
        res = data.get("result")
        reason = SLIP_REASONS.get(str(data.get("reason")), Reason.ARBITER)
        if res == "double_forfeit":
            self.game.result = Result(None, reason, note=data.get("note"))
            self.double_forfeit = True
        else:
            winner = None if res == "draw" else Colour(res)
            self.game.result = Result(winner, reason, note=data.get("note"))
        self.decided = True

    def _colour(self, role: str | None) -> Colour:
        if role not in ROLES:
            raise IllegalAction("bad_player", f"unknown role {role!r}")
        if self.proto is not None:
            return self.proto.colour_of(role)
        return Colour.BLACK if role == "first" else Colour.WHITE

    def winner_role(self) -> str | None:
        result = self.result
        return None if result is None or result.winner is None else self.role_of_colour(result.winner)

    def opening_info(self) -> dict[str, Any] | None:
        proto = self.proto
        if proto is None:
            return None
        opening = proto.opening
        return {
            "code": opening.code if opening else None,
            "name": opening.name if opening else None,
            "n": proto.n,
            "swapped": proto.swapped,
            "offers": [to_notation(x) for x in proto.offers],
            "chosen": to_notation(proto.chosen) if proto.chosen else None,
        }


def _point(value: object) -> Any:
    if not isinstance(value, str):
        raise IllegalAction("off_board", f"give a point like 'h8', not {value!r}")
    return value


def colour_result(result: Result | None) -> str | None:
    if result is None:
        return None
    return "draw" if result.winner is None else result.winner.value
