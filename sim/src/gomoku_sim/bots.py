"""Bot players: what a partner app's player would do next in a game, as a pure function.

``decide(view, player_id, policy, seed)`` looks at one game as the gameplay API shows it
(``GameView.from_api``) and returns the next action of ``player_id`` — or None when that
player does nothing now (not its turn, a no-show, a player who lets the clock run out).
Positions are judged by the compiled strategy core where it is built (``thinking``; the
plain-Python ``strategy`` is the reference it agrees with). Every random choice comes from ``random.Random`` seeded with a string built from
(seed, game id, player, ply, purpose): the same game state always gives the same decision,
independent of the process, the hash seed, the order games are visited or the wall clock.
``BotDriver`` (in ``driver``) turns the action into the HTTP call.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from . import thinking
from .opening import choose_fifth, choose_offers, choose_opening, take_black
from .strategy import BLACK, WHITE, Point, Position

COLUMNS = "abcdefghijklmno"


def to_notation(p: Point) -> str:
    return f"{COLUMNS[p[0]]}{p[1] + 1}"


def parse_point(value: Any) -> Point | None:
    """ "h8" / [7, 7] / {"x": 7, "y": 7} / None ("pass") -> (7, 7) / None."""
    if value is None:
        return None
    if isinstance(value, str):
        cleaned = value.strip().lower()
        if cleaned in ("pass", ""):
            return None
        return (COLUMNS.index(cleaned[0]), int(cleaned[1:]) - 1)
    if isinstance(value, Mapping):
        if "point" in value:
            return parse_point(value["point"])
        if "x" in value and "y" in value:
            return (int(value["x"]), int(value["y"]))
        if "notation" in value:
            return parse_point(value["notation"])
        return None
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return (int(value[0]), int(value[1]))
    raise ValueError(f"not a point: {value!r}")


@dataclass(frozen=True)
class BotPolicy:
    """Behaviour rates (probabilities per game or per decision) of the simulated players."""

    no_show_rate: float = 0.02  # never joins the game (PLAY-7 no-show forfeit)
    timeout_rate: float = 0.02  # stops moving mid-game and loses on time (PLAY-5)
    resign_rate: float = 0.6  # resigns a lost position (opponent has two winning points)
    draw_offer_rate: float = 0.01  # offers a draw on a move after ply draw_from_ply
    draw_accept_rate: float = 0.5  # accepts an offer when not winning itself
    draw_from_ply: int = 40
    long_game_ply: int = 120  # from here on draws are offered readily (a blocked board)
    noise: float = 0.25  # perturbation of heuristic scores
    blunder_rate: float = 0.04  # a random top-8 point instead of the best one
    miss_rate: float = 0.3  # overlooks the opponent's open three
    miss_four_rate: float = 0.0  # overlooks the opponent's four (quick games for tests)
    n_choices: tuple[int, ...] = (1, 2, 3)  # declared N when the section does not fix it

    @classmethod
    def quiet(cls) -> BotPolicy:
        """Players that always show up and never time out (for fixtures that need full games)."""
        return cls(no_show_rate=0.0, timeout_rate=0.0)


@dataclass(frozen=True)
class GameView:
    """The part of GET /v1/games/{id} a player needs, normalised."""

    game_id: str
    status: str  # active | finished | ...
    phase: str  # join | opening | swap | move4 | offers | choose | move6 | play | over
    professional: bool
    moves: tuple[Point | None, ...]
    players: tuple[str, ...]  # (first = tentative black / game-1 black, second)
    black: str | None
    white: str | None
    to_act: str | None
    joined: frozenset[str]
    forbidden: frozenset[Point] = frozenset()
    draw_offer_by: str | None = None
    n: int | None = None
    fixed_n: int | None = None
    max_n: int = 10
    offers: tuple[Point, ...] = ()
    opening_code: str | None = None
    legal: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @property
    def over(self) -> bool:
        return self.status in ("finished", "over", "cancelled") or self.phase == "over"

    @property
    def ply(self) -> int:
        return len(self.moves)

    def colour_of(self, player: str) -> int | None:
        if player == self.black:
            return BLACK
        if player == self.white:
            return WHITE
        return None

    def position(self) -> Position:
        return Position.from_moves(self.moves, professional=self.professional)

    @classmethod
    def from_api(cls, d: Mapping[str, Any]) -> GameView:
        """Tolerant of the shapes gameplay may use for the same facts (see docs/api.md)."""
        rules = d.get("rules") or d.get("ruleset") or {}
        track = rules.get("track") or d.get("track") or "free"
        raw_moves = d.get("moves") or []
        moves: list[Point | None] = []
        for move in raw_moves:
            if isinstance(move, Mapping):
                moves.append(parse_point(move.get("point", move.get("move"))))
            else:
                moves.append(parse_point(move))
        players = d.get("players")
        first = d.get("first") or (players[0] if isinstance(players, list) and players else None)
        second = d.get("second") or (players[1] if isinstance(players, list) and len(players) > 1 else None)
        if isinstance(first, Mapping):
            first = first.get("player_id")
        if isinstance(second, Mapping):
            second = second.get("player_id")
        black, white = d.get("black"), d.get("white")
        if isinstance(black, Mapping):
            black = black.get("player_id")
        if isinstance(white, Mapping):
            white = white.get("player_id")
        first = first or black
        second = second or white
        forb = d.get("forbidden") or {}
        forbidden = frozenset(
            p for p in (parse_point(k) for k in (forb.keys() if isinstance(forb, Mapping) else forb)) if p is not None
        )
        opening = d.get("opening") or {}
        legal_raw = d.get("legal_actions") or {}
        legal: dict[str, frozenset[str]] = {}
        if isinstance(legal_raw, Mapping):
            for who, acts in legal_raw.items():
                legal[who] = frozenset(a if isinstance(a, str) else str(a.get("action")) for a in (acts or []))
        elif isinstance(legal_raw, list) and d.get("to_act"):
            legal[d["to_act"]] = frozenset(a if isinstance(a, str) else str(a.get("action")) for a in legal_raw)
        joined_raw = d.get("joined") or []
        if isinstance(joined_raw, Mapping):
            joined = frozenset(k for k, v in joined_raw.items() if v)
        else:
            joined = frozenset(joined_raw)
        offers = tuple(p for p in (parse_point(o) for o in (opening.get("offers") or d.get("offers") or [])) if p)
        to_act = d.get("to_act")
        if isinstance(to_act, Mapping):
            to_act = to_act.get("player_id")
        fixed_n = rules.get("fixed_n")
        return cls(
            game_id=str(d.get("game_id")),
            status=str(d.get("status") or "active"),
            phase=str(d.get("phase") or "play"),
            professional=track == "professional",
            moves=tuple(moves),
            players=tuple(p for p in (first, second) if p),
            black=black,
            white=white,
            to_act=to_act,
            joined=joined,
            forbidden=forbidden,
            draw_offer_by=d.get("draw_offer_by"),
            n=opening.get("n") if opening.get("n") is not None else d.get("n"),
            fixed_n=fixed_n,
            max_n=int(rules.get("max_n") or 10),
            offers=offers,
            opening_code=opening.get("code") or opening.get("opening"),
            legal=legal,
        )


@dataclass(frozen=True)
class BotAction:
    verb: str  # join | opening | swap | move | offers | choose | resign | draw
    body: dict[str, Any]
    why: str = ""


def rng_for(seed: int | str, game_id: str, player: str, ply: int, purpose: str) -> random.Random:
    """A generator seeded by a stable string (random.Random hashes str seeds with SHA-512)."""
    return random.Random(f"{seed}|{game_id}|{player}|{ply}|{purpose}")


# is_no_show and stall_ply are asked on every look at a game; each answer is fixed for the game
# and player, and seeding a generator from a string costs a SHA-512: the answers are kept
@lru_cache(maxsize=1 << 16)
def is_no_show(policy: BotPolicy, seed: int | str, game_id: str, player: str) -> bool:
    return policy.no_show_rate > 0 and rng_for(seed, game_id, player, 0, "no-show").random() < policy.no_show_rate


@lru_cache(maxsize=1 << 16)
def stall_ply(policy: BotPolicy, seed: int | str, game_id: str, player: str) -> int | None:
    """The ply from which this player stops moving (lets its clock run out), if any."""
    rng = rng_for(seed, game_id, player, 0, "timeout")
    if policy.timeout_rate > 0 and rng.random() < policy.timeout_rate:
        return rng.randrange(3, 40)
    return None


def decide(view: GameView, player: str, policy: BotPolicy, seed: int | str) -> BotAction | None:
    """The next action of ``player`` in ``view`` (None: nothing to do now)."""
    if view.over or player not in view.players:
        return None
    gid = view.game_id
    if is_no_show(policy, seed, gid, player):
        return None
    if player not in view.joined:
        return BotAction("join", {"player_id": player}, "join")
    if view.phase == "join":
        return None  # waiting for the opponent
    stall = stall_ply(policy, seed, gid, player)
    if stall is not None and view.ply >= stall and view.to_act == player:
        return None  # the clock runs out
    # an offered draw: the other player answers before anything else
    if view.draw_offer_by and view.draw_offer_by != player:
        legal = view.legal.get(player)
        if legal is None or "draw" in legal or "accept_draw" in legal:
            accept = _accepts_draw(view, view.position(), player, policy, seed)
            return BotAction("draw", {"player_id": player, "action": "accept" if accept else "decline"}, "draw-answer")
    if view.to_act != player:
        return None
    pos = view.position()
    ply = view.ply
    if view.phase == "opening":
        rng = rng_for(seed, gid, player, ply, "opening")
        opening, _sym, stones, n = choose_opening(
            rng, fixed_n=view.fixed_n, max_n=view.max_n, n_choices=policy.n_choices
        )
        body: dict[str, Any] = {"player_id": player, "stones": [to_notation(s) for s in stones]}
        if view.fixed_n is None:
            body["n"] = n
        return BotAction("opening", body, f"opening {opening.code}")
    if view.phase == "swap":
        rng = rng_for(seed, gid, player, ply, "swap")
        return BotAction("swap", {"player_id": player, "swap": take_black(rng, view.opening_code, view.n)}, "swap")
    if view.phase == "offers":
        rng = rng_for(seed, gid, player, ply, "offers")
        n = view.n or view.fixed_n or 1
        offers = choose_offers(pos, n, rng, forbidden=view.forbidden)
        return BotAction("offers", {"player_id": player, "points": [to_notation(p) for p in offers]}, "offers")
    if view.phase == "choose":
        return BotAction(
            "choose", {"player_id": player, "point": to_notation(choose_fifth(pos, list(view.offers)))}, "choose"
        )
    colour = view.colour_of(player)
    if colour is None:
        colour = BLACK if ply % 2 == 0 else WHITE
    rng = rng_for(seed, gid, player, ply, "move")
    if view.phase == "play":
        if thinking.CORE.lost_position(pos, colour, view.forbidden) and rng.random() < policy.resign_rate:
            return BotAction("resign", {"player_id": player}, "lost")
        if (
            ply >= policy.draw_from_ply
            and view.draw_offer_by is None
            and rng.random() < (policy.draw_offer_rate if ply < policy.long_game_ply else 0.3)
            and not thinking.CORE.winning_points(pos, colour)
        ):
            # offer only what the opponent will accept: a declined offer leaves the same state,
            # so a pure-function bot would offer again and again
            opponent = next((p for p in view.players if p != player), None)
            if opponent is not None and _accepts_draw(view, pos, opponent, policy, seed):
                return BotAction("draw", {"player_id": player, "action": "offer"}, "draw-offer")
    choice = thinking.CORE.choose_move(
        pos,
        colour,
        rng,
        forbidden=view.forbidden if colour == BLACK else (),
        noise=policy.noise,
        blunder_rate=policy.blunder_rate,
        miss_rate=min(0.95, policy.miss_rate * (1 + ply / 40)),  # tiring players
        miss_four_rate=policy.miss_four_rate,
    )
    return BotAction("move", {"player_id": player, "point": to_notation(choice.point)}, choice.why)


def _accepts_draw(view: GameView, pos: Position, player: str, policy: BotPolicy, seed: int | str) -> bool:
    own_colour = view.colour_of(player)
    if own_colour is not None and thinking.CORE.winning_points(pos, own_colour):
        return False
    return rng_for(seed, view.game_id, player, view.ply, "draw-answer").random() < policy.draw_accept_rate


def predict_view(view: GameView, player: str, action: BotAction, summary: Mapping[str, Any]) -> GameView:
    """The game after ``action`` as the server will show it, from the action and the short
    summary the server answered with — so the next sweep needs no GET for this game.
    (Forbidden points are recomputed with the rules engine, as the server does.)"""
    from dataclasses import replace

    from gameplay.engine import forbidden_points, identify_opening

    body = action.body
    moves = list(view.moves)
    n, offers, code = view.n, view.offers, view.opening_code
    joined = set(view.joined)
    draw = view.draw_offer_by
    if action.verb == "join":
        joined.add(player)
    elif action.verb == "opening":
        stones = [point for raw in body["stones"] if (point := parse_point(raw)) is not None]
        moves += stones
        n = body.get("n") or view.fixed_n
        found = identify_opening(stones)
        code = found.code if found else None
    elif action.verb in ("move", "choose"):
        moves.append(parse_point(body["point"]))
    elif action.verb == "offers":
        offers = tuple(point for raw in body["points"] if (point := parse_point(raw)) is not None)
    elif action.verb == "draw":
        draw = player if body["action"] == "offer" else None
    phase = str(summary.get("phase") or view.phase)
    status = str(summary.get("status") or view.status)
    forbidden: frozenset[Point] = frozenset()
    if view.professional and phase == "play" and status == "active" and len(moves) % 2 == 0:
        black = [m for i, m in enumerate(moves) if i % 2 == 0 and m is not None]
        white = [m for i, m in enumerate(moves) if i % 2 == 1 and m is not None]
        forbidden = frozenset(forbidden_points(black, white))
    return replace(
        view,
        status=status,
        phase=phase,
        moves=tuple(moves),
        black=summary.get("black", view.black),
        white=summary.get("white", view.white),
        to_act=summary.get("to_act"),
        joined=frozenset(joined),
        forbidden=forbidden,
        draw_offer_by=draw,
        n=n,
        offers=offers,
        opening_code=code,
        players=tuple(p for p in (summary.get("black", view.black), summary.get("white", view.white)) if p)
        or view.players,
        legal={},
    )
