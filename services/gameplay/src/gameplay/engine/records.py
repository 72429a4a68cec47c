"""Game records (PLAY-8): moves with timestamps and clock readings, opening choices, result.

Formats: JSON (``to_dict`` / ``from_dict``, a lossless round trip through ``json``), the standard
move list (``h8 h9 j10``) and Gomocup's Piskvork PSQ text (header ``Piskvorky 15x15, 11:11, 0``,
then one ``x,y,time`` line per move, 1-based coordinates, time in milliseconds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any

from .coords import BOARD_SIZE, PASS, format_moves, from_notation, to_notation
from .game import Game, RuleSet
from .opening_protocol import OpeningProtocol

SCHEMA = "gomoku-game-record/1"
PSQ_HEADER = f"Piskvorky {BOARD_SIZE}x{BOARD_SIZE}, 11:11, 0"


@dataclass
class MoveRecord:
    ply: int
    colour: str  # "black" / "white"
    move: str  # notation ("h8") or "pass"
    player: str | None = None  # "first"/"second" or a player id
    at: str | None = None  # wall-clock timestamp (ISO 8601) from the service's clock
    think_ms: int | None = None  # time spent on this move
    clock: dict[str, float] | None = None  # remaining seconds per side after the move
    foul: str | None = None  # PLAY-3 kind when this move was a forbidden move


@dataclass
class OpeningRecord:
    code: str  # "D4"
    name: str  # "Kagetsu"
    name_zh: str
    n: int  # number of fifth-move offers
    swapped: bool | None  # True: the second player took black after move 3
    swap_chooser: str | None
    black_player: str  # who held black after the swap
    offers: list[str] = field(default_factory=list)
    chosen: str | None = None


@dataclass
class ResultRecord:
    winner: str | None  # colour, None = draw
    reason: str
    winner_player: str | None = None
    foul: str | None = None
    note: str | None = None


@dataclass
class GameRecord:
    rules: dict[str, Any]
    moves: list[MoveRecord] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)
    opening: OpeningRecord | None = None
    result: ResultRecord | None = None
    clock: dict[str, float] | None = None  # {"initial": s, "increment": s}
    meta: dict[str, Any] = field(default_factory=dict)

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, **asdict(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"not a game record of schema {SCHEMA!r}: {data.get('schema')!r}")
        try:
            moves = [MoveRecord(**move) for move in data.get("moves", [])]
            opening = OpeningRecord(**data["opening"]) if data.get("opening") else None
            result = ResultRecord(**data["result"]) if data.get("result") else None
        except TypeError as exc:
            raise ValueError(f"malformed game record: {exc}") from None
        for move in moves:
            if move.move != PASS:
                from_notation(move.move)  # validates
        return cls(
            rules=dict(data["rules"]),
            moves=moves,
            players=dict(data.get("players", {})),
            opening=opening,
            result=result,
            clock=data.get("clock"),
            meta=dict(data.get("meta", {})),
        )

    # -- other formats ---------------------------------------------------------------------

    def notation(self) -> str:
        """Standard move list, e.g. ``h8 h9 j10``."""
        return " ".join(m.move for m in self.moves)

    def to_psq(self) -> str:
        """Gomocup/Piskvork PSQ text. x = column + 1, y = row number (1 = bottom row); the
        time field is the milliseconds spent on the move (0 when unknown). PSQ has no pass."""
        lines = [PSQ_HEADER]
        for move in self.moves:
            if move.move == PASS:
                raise ValueError(f"move {move.ply} is a pass, which PSQ cannot express")
            x, y = from_notation(move.move)
            lines.append(f"{x + 1},{y + 1},{move.think_ms or 0}")
        return "\n".join(lines) + "\n"

    def replay(self, core: ModuleType | None = None) -> Game:
        """Rebuild the game from the moves (as played on the board) to check the record."""
        game = Game(RuleSet(**self.rules), core)
        for move in self.moves:
            if move.move == PASS:
                game.pass_()
            else:
                game.play(from_notation(move.move))
        return game


def parse_psq(text: str) -> list[tuple[tuple[int, int], int]]:
    """Moves of a PSQ text as ``((x, y), time_ms)`` with 0-based points; stops at the first line
    that is not ``x,y,time`` (Piskvork appends a ``-1`` line and engine names)."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or not lines[0].startswith("Piskvorky"):
        raise ValueError("a PSQ text starts with a 'Piskvorky WxH, ...' header")
    out = []
    for line in lines[1:]:
        parts = line.split(",")
        if len(parts) != 3 or not all(p.strip().lstrip("-").isdigit() for p in parts):
            break
        x, y, think_ms = (int(p) for p in parts)
        if not (1 <= x <= BOARD_SIZE and 1 <= y <= BOARD_SIZE):
            break
        out.append(((x - 1, y - 1), think_ms))
    return out


def record_game(
    source: Game | OpeningProtocol,
    *,
    players: Mapping[str, str] | None = None,
    move_meta: Sequence[Mapping[str, Any]] | Mapping[int, Mapping[str, Any]] | None = None,
    clock: Mapping[str, float] | None = None,
    meta: Mapping[str, Any] | None = None,
) -> GameRecord:
    """Build the record of a game (free rules: a :class:`Game`; professional: the protocol).

    ``move_meta`` gives per-move ``at``, ``think_ms``, ``clock`` (and optionally ``player``), as
    a list in ply order or a mapping ply -> dict; the service collects these as moves arrive.
    """
    protocol: OpeningProtocol | None
    if isinstance(source, OpeningProtocol):
        protocol, game = source, source.game
    else:
        protocol, game = None, source
    if isinstance(move_meta, Mapping):
        metas = {int(k): v for k, v in move_meta.items()}
    else:
        metas = {i + 1: v for i, v in enumerate(move_meta or [])}

    moves = []
    for action in game.history:
        extra = dict(metas.get(action.ply, {}))
        player = extra.pop("player", None)
        if player is None and protocol is not None:
            # the first player lays out the three opening stones, white 2 included
            player = "first" if action.ply <= 3 else protocol.player_of(action.colour)
        elif player is None and players:
            player = players.get(action.colour.value)
        moves.append(
            MoveRecord(
                action.ply,
                action.colour.value,
                action.notation,
                player,
                extra.get("at"),
                extra.get("think_ms"),
                extra.get("clock"),
                action.foul,
            )
        )

    return GameRecord(
        rules={
            "track": game.rules.track,
            "exactly_five": game.rules.exactly_five,
            "on_forbidden": game.rules.on_forbidden,
        },
        moves=moves,
        players=dict(players or {}),
        opening=_opening_record(protocol),
        result=_result_record(game, protocol, players),
        clock=dict(clock) if clock else None,
        meta=dict(meta or {}),
    )


def _opening_record(protocol: OpeningProtocol | None) -> OpeningRecord | None:
    if protocol is None or protocol.opening is None:
        return None
    played = protocol.opening
    return OpeningRecord(
        played.code,
        played.name,
        played.name_zh,
        protocol.n or 0,
        protocol.swapped,
        protocol.swap_chooser,
        protocol.black_player,
        [to_notation(p) for p in protocol.offers],
        to_notation(protocol.chosen) if protocol.chosen else None,
    )


def _result_record(
    game: Game, protocol: OpeningProtocol | None, players: Mapping[str, str] | None
) -> ResultRecord | None:
    if game.result is None:
        return None
    ending = game.result
    winner_player = None
    if ending.winner is not None and protocol is not None:
        winner_player = protocol.player_of(ending.winner)
    elif ending.winner is not None and players:
        winner_player = players.get(ending.winner.value)
    winner = ending.winner.value if ending.winner else None
    return ResultRecord(winner, ending.reason.value, winner_player, ending.foul, ending.note)


__all__ = [
    "GameRecord",
    "MoveRecord",
    "OpeningRecord",
    "ResultRecord",
    "record_game",
    "parse_psq",
    "format_moves",
    "PSQ_HEADER",
    "SCHEMA",
]
