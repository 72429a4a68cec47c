"""Domain types of the pairing service: players, per-round history, point systems.

Conventions used everywhere in ``pairing.domain``:

* A player is identified by a *start number* (``Player.id``, 1-based, the TRF pairing id).
* ``Colour.FIRST`` is the side that moves first (tentative black in gomoku); it is TRF ``w``.
* A tournament's history is stored per player as one :class:`RoundEntry` per round, exactly as
  a TRF-16 player line does; :func:`record_round` keeps both sides of a game consistent.
"""

from __future__ import annotations

from enum import Enum
from functools import cached_property

from .frozen import NEW_DICT, Record, record, replace

TYPE_CHECKING = False  # typing's own, without importing typing: pairing-engine's start-up (ADR 0013)
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping


class Colour(str, Enum):
    FIRST = "w"  # moves first (tentative black); TRF 'w'
    SECOND = "b"  # moves second; TRF 'b'

    @property
    def other(self) -> Colour:
        return Colour.SECOND if self is Colour.FIRST else Colour.FIRST


class Code(str, Enum):
    """One player's outcome of one round, with the TRF-16 result letters."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"  # opponent absent: counts as a win for points (PAIR-6)
    FORFEIT_LOSS = "-"
    PAIRING_BYE = "U"  # pairing-allocated bye (PAB)
    FULL_BYE = "F"  # full-point bye (e.g. arbiter-forced)
    HALF_BYE = "H"  # requested bye scored as a draw
    ZERO_BYE = "Z"  # requested bye scored zero / not paired
    ABSENT = " "  # not in the tournament that round (late entry, after withdrawal)

    # the sets below are module constants: reading ``Code.WIN`` goes through the enum's
    # descriptor, and a pairing asks ``over_the_board`` tens of thousands of times
    @property
    def over_the_board(self) -> bool:
        return self in _OVER_THE_BOARD

    @property
    def has_opponent(self) -> bool:
        return self in _HAS_OPPONENT

    @property
    def voluntary_unplayed(self) -> bool:
        """FIDE C.07 art. 16: rounds the player chose not to play (cut first by median/cut-1)."""
        return self in _VOLUNTARY_UNPLAYED


_OVER_THE_BOARD = (Code.WIN, Code.DRAW, Code.LOSS)
_HAS_OPPONENT = (Code.WIN, Code.DRAW, Code.LOSS, Code.FORFEIT_WIN, Code.FORFEIT_LOSS)
_VOLUNTARY_UNPLAYED = (Code.FORFEIT_LOSS, Code.HALF_BYE, Code.ZERO_BYE, Code.ABSENT)


# The records below are frozen dataclasses written by hand (``frozen``: a pairing process
# defines them without compiling dataclasses' functions); ``__init__`` takes the fields in order.


@record(frozen=True)
class PointSystem(Record):
    """PAIR-4: points per game outcome (default 2/1/0). Every value is event configuration."""

    win: float = 2
    draw: float = 1
    loss: float = 0
    forfeit_win: float | None = None  # None: same as win
    forfeit_loss: float = 0
    pairing_bye: float | None = None  # None: same as win
    full_bye: float | None = None  # None: same as win
    half_bye: float | None = None  # None: same as draw
    zero_bye: float = 0

    def __init__(
        self,
        win: float = 2,
        draw: float = 1,
        loss: float = 0,
        forfeit_win: float | None = None,
        forfeit_loss: float = 0,
        pairing_bye: float | None = None,
        full_bye: float | None = None,
        half_bye: float | None = None,
        zero_bye: float = 0,
    ) -> None:
        self.__dict__.update(
            win=win,
            draw=draw,
            loss=loss,
            forfeit_win=forfeit_win,
            forfeit_loss=forfeit_loss,
            pairing_bye=pairing_bye,
            full_bye=full_bye,
            half_bye=half_bye,
            zero_bye=zero_bye,
        )

    def points(self, code: Code) -> float:
        match code:
            case Code.WIN:
                return self.win
            case Code.DRAW:
                return self.draw
            case Code.LOSS:
                return self.loss
            case Code.FORFEIT_WIN:
                return self.win if self.forfeit_win is None else self.forfeit_win
            case Code.FORFEIT_LOSS:
                return self.forfeit_loss
            case Code.PAIRING_BYE:
                return self.win if self.pairing_bye is None else self.pairing_bye
            case Code.FULL_BYE:
                return self.win if self.full_bye is None else self.full_bye
            case Code.HALF_BYE:
                return self.draw if self.half_bye is None else self.half_bye
            case _:
                return self.zero_bye


_DEFAULT_POINTS = PointSystem()


@record(frozen=True)
class RoundEntry(Record):
    """A player's round: opponent (None for byes/absence), colour as paired (None for byes), outcome.

    A forfeit keeps the colour it was paired with, but only ``played`` entries count for colour
    history and the rematch ban.
    """

    round: int
    opponent: int | None
    colour: Colour | None
    code: Code

    def __init__(self, round: int, opponent: int | None, colour: Colour | None, code: Code) -> None:
        self.__dict__.update(round=round, opponent=opponent, colour=colour, code=code)

    @property
    def played(self) -> bool:
        """Played over the board. Only these count for colour history and the rematch ban."""
        return self.code.over_the_board and self.opponent is not None


@record(frozen=True)
class Player(Record):
    """A player of a section, as pairing and the TRF file know them."""

    id: int  # start number, 1..n
    name: str = ""
    rating: int = 0
    gender: str = ""  # "m" / "f" (REG-12 merged sections rank by gender)
    unit: str | None = None  # club / province; used for forbidden pairs
    entry_round: int = 1  # late entry: first round the player can be paired
    withdrawn_after: int | None = None  # withdrew after this round: never paired again

    def __init__(
        self,
        id: int,
        name: str = "",
        rating: int = 0,
        gender: str = "",
        unit: str | None = None,
        entry_round: int = 1,
        withdrawn_after: int | None = None,
    ) -> None:
        self.__dict__.update(
            id=id,
            name=name,
            rating=rating,
            gender=gender,
            unit=unit,
            entry_round=entry_round,
            withdrawn_after=withdrawn_after,
        )


@record(frozen=True)
class ForbiddenGroup(Record):
    """Players who must not meet in rounds first..last (TRF record 260)."""

    first_round: int
    last_round: int
    players: tuple[int, ...]

    def __init__(self, first_round: int, last_round: int, players: tuple[int, ...]) -> None:
        self.__dict__.update(first_round=first_round, last_round=last_round, players=players)


@record(frozen=True)
class Tournament(Record):
    """Immutable state of one section. ``history[pid]`` has one entry per completed round."""

    players: tuple[Player, ...]
    rounds_planned: int
    history: Mapping[int, tuple[RoundEntry, ...]] = NEW_DICT  # each instance's own dict
    points: PointSystem = _DEFAULT_POINTS
    forbidden: tuple[ForbiddenGroup, ...] = ()
    top_seed_colour: Colour = Colour.FIRST  # colour of start number 1 in round 1 (TRF 152)
    name: str = ""

    def __init__(
        self,
        players: tuple[Player, ...],
        rounds_planned: int,
        history: Mapping[int, tuple[RoundEntry, ...]] = NEW_DICT,
        points: PointSystem = _DEFAULT_POINTS,
        forbidden: tuple[ForbiddenGroup, ...] = (),
        top_seed_colour: Colour = Colour.FIRST,
        name: str = "",
    ) -> None:
        self.__dict__.update(
            players=players,
            rounds_planned=rounds_planned,
            history={} if history is NEW_DICT else history,
            points=points,
            forbidden=forbidden,
            top_seed_colour=top_seed_colour,
            name=name,
        )

    @cached_property
    def rounds_done(self) -> int:
        # cached: the history never changes (a new round is a new Tournament, via replace)
        return max((len(entries) for entries in self.history.values()), default=0)

    def player(self, pid: int) -> Player:
        for player in self.players:
            if player.id == pid:
                return player
        raise KeyError(pid)

    def entries(self, pid: int) -> tuple[RoundEntry, ...]:
        """The player's entries padded with ABSENT up to rounds_done (late entries)."""
        entries = tuple(self.history.get(pid, ()))
        done = self.rounds_done
        if len(entries) < done:
            entries += tuple(RoundEntry(rnd, None, None, Code.ABSENT) for rnd in range(len(entries) + 1, done + 1))
        return entries

    def score(self, pid: int, upto: int | None = None) -> float:
        return sum(self.points.points(entry.code) for entry in self.entries(pid) if upto is None or entry.round <= upto)


class Outcome(str, Enum):
    """Result of one pairing (board), from the first mover's side."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "=-="
    FIRST_FORFEIT_WIN = "+--"  # second player absent
    SECOND_FORFEIT_WIN = "--+"  # first player absent
    DOUBLE_FORFEIT = "---"

    def codes(self) -> tuple[Code, Code]:
        return {
            Outcome.FIRST_WINS: (Code.WIN, Code.LOSS),
            Outcome.SECOND_WINS: (Code.LOSS, Code.WIN),
            Outcome.DRAW: (Code.DRAW, Code.DRAW),
            Outcome.FIRST_FORFEIT_WIN: (Code.FORFEIT_WIN, Code.FORFEIT_LOSS),
            Outcome.SECOND_FORFEIT_WIN: (Code.FORFEIT_LOSS, Code.FORFEIT_WIN),
            Outcome.DOUBLE_FORFEIT: (Code.FORFEIT_LOSS, Code.FORFEIT_LOSS),
        }[self]


@record(frozen=True)
class Board(Record):
    """One board of a round: who moves first, who second."""

    first: int  # moves first
    second: int

    def __init__(self, first: int, second: int) -> None:
        self.__dict__.update(first=first, second=second)


@record(frozen=True)
class RoundPairing(Record):
    """What a pairing engine returns: boards in order, plus byes (pid -> Code)."""

    round: int
    boards: tuple[Board, ...]
    byes: Mapping[int, Code] = NEW_DICT  # each instance's own dict

    def __init__(self, round: int, boards: tuple[Board, ...], byes: Mapping[int, Code] = NEW_DICT) -> None:
        self.__dict__.update(round=round, boards=boards, byes={} if byes is NEW_DICT else byes)

    def pairs(self) -> list[tuple[int, int]]:
        """JaVaFo convention: (first, second) per board, then (pid, 0) for the pairing bye."""
        out = [(board.first, board.second) for board in self.boards]
        out += [(pid, 0) for pid, code in sorted(self.byes.items()) if code is Code.PAIRING_BYE]
        return out


class ResultError(ValueError):
    pass


def record_round(tournament: Tournament, pairing: RoundPairing, outcomes: Mapping[int, Outcome]) -> Tournament:
    """Append a completed round. ``outcomes`` maps board index (0-based) to its Outcome.

    Players neither on a board nor given a bye get ``Code.ABSENT`` (not in the event that round).
    Forfeits count neither toward colour history nor toward the rematch ban (PAIR-6).
    """
    rnd = tournament.rounds_done + 1
    if pairing.round != rnd:
        raise ResultError(f"round {pairing.round} recorded but round {rnd} is next")
    missing = [index for index in range(len(pairing.boards)) if index not in outcomes]
    if missing:
        raise ResultError(f"round {rnd}: no result for boards {[index + 1 for index in missing]} (PAIR-11)")
    new: dict[int, RoundEntry] = {}
    for index, board in enumerate(pairing.boards):
        first_code, second_code = outcomes[index].codes()
        # Forfeits keep the paired colour for the record; colour history reads played games only.
        new[board.first] = RoundEntry(rnd, board.second, Colour.FIRST, first_code)
        new[board.second] = RoundEntry(rnd, board.first, Colour.SECOND, second_code)
    for pid, code in pairing.byes.items():
        if pid in new:
            raise ResultError(f"player {pid} both paired and given a bye in round {rnd}")
        new[pid] = RoundEntry(rnd, None, None, code)
    history = {}
    for player in tournament.players:
        absent = RoundEntry(rnd, None, None, Code.ABSENT)
        history[player.id] = tournament.entries(player.id) + (new.get(player.id) or absent,)
    return replace(tournament, history=history)


def add_player(tournament: Tournament, player: Player) -> Tournament:
    """Late entry (PAIR-11): the new player has ABSENT rounds so far; past rounds stay as paired."""
    if any(other.id == player.id for other in tournament.players):
        raise ValueError(f"start number {player.id} already used")
    entry = max(player.entry_round, tournament.rounds_done + 1)
    return replace(tournament, players=tournament.players + (replace(player, entry_round=entry),))


def withdraw(tournament: Tournament, pid: int, after_round: int | None = None) -> Tournament:
    """Withdrawal (PAIR-11): the player is not paired after ``after_round`` (default: now)."""
    after = tournament.rounds_done if after_round is None else after_round
    players = tuple(
        replace(player, withdrawn_after=after) if player.id == pid else player for player in tournament.players
    )
    return replace(tournament, players=players)


def active_players(tournament: Tournament, round_: int, exclude: Iterable[int] = ()) -> list[int]:
    """Players who can be paired in ``round_``: entered, not withdrawn, not excluded."""
    excluded = set(exclude)
    return [
        player.id
        for player in tournament.players
        if player.entry_round <= round_
        and (player.withdrawn_after is None or player.withdrawn_after >= round_)
        and player.id not in excluded
    ]
