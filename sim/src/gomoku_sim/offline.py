"""Offline referee: one game on gameplay.engine, shown to the bots as the gameplay API would show
it (GameView), with the bots' actions applied to the engine. For fast tests of the bots."""

from __future__ import annotations

from gameplay.engine import FIRST, SECOND, Game, OpeningConfig, OpeningProtocol, RuleSet, from_notation
from gomoku_sim.bots import BotAction, GameView


class EngineGame:
    def __init__(self, game_id: str, first: str, second: str, *, professional: bool, fixed_n: int | None = None):
        self.game_id, self.first, self.second = game_id, first, second
        self.professional = professional
        self.fixed_n = fixed_n
        self.proto = OpeningProtocol(OpeningConfig(fixed_n=fixed_n, max_n=10)) if professional else None
        self.game = self.proto.game if self.proto is not None else Game(RuleSet.free())
        self.joined: set[str] = set()
        self.draw_offer_by: str | None = None
        self.resigned: str | None = None
        self.actions: list[tuple[str, str, dict]] = []

    def side(self, player: str) -> str:
        return FIRST if player == self.first else SECOND

    def pid(self, side: str | None) -> str:
        """The player on a side; before the colours are settled (None) the second player shows."""
        return self.first if side == FIRST else self.second

    def _protocol(self, verb: str) -> OpeningProtocol:
        if self.proto is None:
            raise AssertionError(f"{verb!r} is an action of the professional opening")
        return self.proto

    def view(self) -> GameView:
        game = self.game
        over = game.is_over
        if len(self.joined) < 2:
            phase = "join"
        elif over:
            phase = "over"
        elif self.proto is not None:
            phase = self.proto.phase.value
        else:
            phase = "play"
        if self.proto is not None:
            black = self.pid(self.proto.black_player)
            white = self.pid(self.proto.white_player)
            to_act = None if over or phase == "join" else self.pid(self.proto.expected_player)
            forbidden = game.forbidden_points() if game.next_colour.value == "black" and not over else {}
            opening = {
                "code": self.proto.opening.code if self.proto.opening else None,
                "n": self.proto.n,
                "offers": [list(o) for o in self.proto.offers],
            }
        else:
            black, white = self.first, self.second
            to_act = None if over or phase == "join" else (black if game.next_colour.value == "black" else white)
            forbidden = {}
            opening = {}
        return GameView.from_api(
            {
                "game_id": self.game_id,
                "status": "finished" if over else "active",
                "phase": phase,
                "rules": {
                    "track": "professional" if self.professional else "free",
                    "fixed_n": self.fixed_n,
                    "max_n": 10,
                },
                "moves": [None if m is None else list(m) for m in game.moves],
                "first": self.first,
                "second": self.second,
                "black": black,
                "white": white,
                "to_act": to_act,
                "joined": sorted(self.joined),
                "forbidden": {f"{'abcdefghijklmno'[p[0]]}{p[1] + 1}": k for p, k in forbidden.items()},
                "draw_offer_by": self.draw_offer_by,
                "opening": opening,
            }
        )

    def apply(self, player: str, action: BotAction) -> None:
        self.actions.append((player, action.verb, dict(action.body)))
        body = action.body
        side = self.side(player)
        if action.verb == "join":
            self.joined.add(player)
        elif action.verb == "opening":
            self._protocol(action.verb).place_opening(
                side, [from_notation(stone) for stone in body["stones"]], body.get("n")
            )
        elif action.verb == "swap":
            self._protocol(action.verb).choose_colour(side, "black" if body["swap"] else "white")
        elif action.verb == "offers":
            self._protocol(action.verb).offer_fifth(side, [from_notation(point) for point in body["points"]])
        elif action.verb == "choose":
            self._protocol(action.verb).choose_fifth(side, from_notation(body["point"]))
        elif action.verb == "move":
            if self.proto is not None:
                self.proto.play(side, from_notation(body["point"]))
            else:
                self.game.play(from_notation(body["point"]))
        elif action.verb == "resign":
            if self.proto is not None:
                self.proto.resign(side)
            else:
                self.game.resign("black" if player == self.first else "white")
        elif action.verb == "draw":
            if body["action"] == "offer":
                self.draw_offer_by = player
            elif body["action"] == "accept":
                self.game.agree_draw()
                self.draw_offer_by = None
            else:
                self.draw_offer_by = None
        else:
            raise AssertionError(action.verb)


def play_offline(
    game_id: str,
    first: str,
    second: str,
    *,
    professional: bool,
    seed: int | str,
    policy=None,
    fixed_n: int | None = None,
    max_actions: int = 600,
) -> EngineGame:
    """Both players are bots; returns the finished (or abandoned: no-show / time-out) game."""
    from gomoku_sim.bots import BotPolicy, decide

    policy = policy or BotPolicy()
    engine_game = EngineGame(game_id, first, second, professional=professional, fixed_n=fixed_n)
    for _ in range(max_actions):
        view = engine_game.view()
        if view.over:
            break
        acted = False
        for player in sorted((first, second)):
            action = decide(view, player, policy, seed)
            if action is not None:
                engine_game.apply(player, action)
                acted = True
                break
        if not acted:
            break  # stalled: a no-show or a player letting the clock run out
    return engine_game
