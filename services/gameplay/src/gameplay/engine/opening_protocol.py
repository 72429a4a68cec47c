"""The designated-opening procedure of professional rules (PLAY-2) as a state machine.

Players are ``first`` (the tentative black, who lays out the opening) and ``second``. Phases::

    opening  first places black 1 (h8), white 2, black 3 forming one of the 26 openings and
             declares N (unless the section fixes N)
    swap     second chooses black or white -- once; this is the only swap point
    move4    whoever now holds white plays move 4 anywhere
    offers   black offers N distinct empty points, no two equivalent
    choose   white picks one offer as move 5 (the others vanish)
    move6    white plays move 6
    play     normal play; passes allowed from here on

Every refused step raises :class:`IllegalAction` with a machine-readable code. The machine keeps a
:class:`Game` (professional rules) and maps players to colours after the swap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from types import ModuleType
from typing import Literal

from .coords import CENTRE, Point, as_point, shape_key, to_notation
from .errors import IllegalAction
from .game import Action, Colour, Game, Result, RuleSet
from .openings import Opening, identify_opening

FIRST = "first"
SECOND = "second"
PLAYERS = (FIRST, SECOND)


class Phase(str, Enum):
    OPENING = "opening"
    SWAP = "swap"
    MOVE4 = "move4"
    OFFERS = "offers"
    CHOOSE = "choose"
    MOVE6 = "move6"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class OpeningConfig:
    """Section settings for the opening: ``fixed_n`` (e.g. 2 for juniors, 五手两打) or the range
    a declared N must fall in."""

    fixed_n: int | None = None
    min_n: int = 1
    max_n: int | None = None

    def __post_init__(self) -> None:
        if self.min_n < 1:
            raise ValueError("min_n must be at least 1")
        if self.max_n is not None and self.max_n < self.min_n:
            raise ValueError("max_n must not be below min_n")
        if self.fixed_n is not None and self.fixed_n < 1:
            raise ValueError("fixed_n must be at least 1")


def offer_key(black: Sequence[Point], white: Sequence[Point], offer: Point) -> tuple:
    """Shape of the position after black plays ``offer``, up to rotation, reflection and
    translation (board edge ignored). Equal keys = equivalent offers (PLAY-2 step 4)."""
    stones = [(x, y, "b") for x, y in black] + [(x, y, "w") for x, y in white]
    stones.append((offer[0], offer[1], "b"))
    return shape_key(stones)


def check_offers(black: Sequence[Point], white: Sequence[Point], offers: Sequence[object], count: int) -> list[Point]:
    """Validate a set of fifth-move offers; returns them as points or raises IllegalAction."""
    if not isinstance(offers, (list, tuple)):
        raise IllegalAction("offer_count", "offers must be a list of points")
    if len(offers) != count:
        raise IllegalAction(
            "offer_count",
            f"black must offer exactly {count} fifth moves, not {len(offers)}",
            expected=count,
            got=len(offers),
        )
    points: list[Point] = []
    for raw in offers:
        try:
            points.append(as_point(raw, "offer"))
        except ValueError as exc:
            raise IllegalAction("offer_off_board", str(exc)) from None
    occupied = set(black) | set(white)
    seen: dict[Point, int] = {}
    keys: dict[tuple, Point] = {}
    for offer in points:
        if offer in occupied:
            raise IllegalAction("offer_occupied", f"offer {to_notation(offer)} is not an empty point", point=offer)
        if offer in seen:
            raise IllegalAction("offer_duplicate", f"{to_notation(offer)} is offered twice", point=offer)
        seen[offer] = 1
        key = offer_key(black, white, offer)
        if key in keys:
            equivalent = keys[key]
            raise IllegalAction(
                "offers_equivalent",
                f"offers {to_notation(equivalent)} and {to_notation(offer)} give the same position up to rotation, "
                "reflection or translation",
                points=(equivalent, offer),
            )
        keys[key] = offer
    return points


class OpeningProtocol:
    """A professional-rules game between ``first`` and ``second``, opening procedure included."""

    def __init__(
        self, config: OpeningConfig | None = None, rules: RuleSet | None = None, core: ModuleType | None = None
    ) -> None:
        self.config = config if config is not None else OpeningConfig()
        rules = rules if rules is not None else RuleSet.professional()
        if not rules.forbidden_moves:
            raise ValueError("the designated opening belongs to professional rules")
        self.game = Game(rules, core, passes_allowed=False)
        self._phase = Phase.OPENING
        self.black_player: str = FIRST  # tentative black until the swap decision
        self.opening: Opening | None = None
        self.n: int | None = None
        self.swapped: bool | None = None
        self.swap_chooser: str | None = None
        self.offers: tuple[Point, ...] = ()
        self.chosen: Point | None = None

    # -- queries ---------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.game.is_over else self._phase

    @property
    def white_player(self) -> str:
        return SECOND if self.black_player == FIRST else FIRST

    @property
    def result(self) -> Result | None:
        return self.game.result

    @property
    def opening_complete(self) -> bool:
        return self._phase is Phase.PLAY

    def colour_of(self, player: str) -> Colour:
        _check_player(player)
        return Colour.BLACK if player == self.black_player else Colour.WHITE

    def player_of(self, colour: Colour | str) -> str:
        return self.black_player if Colour(colour) is Colour.BLACK else self.white_player

    @property
    def expected_player(self) -> str | None:
        """Who must act now (None once the game is over)."""
        phase = self.phase
        if phase is Phase.OVER:
            return None
        if phase is Phase.OPENING:
            return FIRST
        if phase is Phase.SWAP:
            return SECOND
        if phase is Phase.OFFERS:
            return self.black_player
        if phase in (Phase.MOVE4, Phase.CHOOSE, Phase.MOVE6):
            return self.white_player
        return self.player_of(self.game.next_colour)

    # -- steps -----------------------------------------------------------------------------

    def _expect(self, player: str, *phases: Phase) -> None:
        _check_player(player)
        if self.game.result is not None:
            raise IllegalAction("game_over", f"the game is over ({self.game.result.reason.value})")
        if self._phase not in phases:
            wanted = " or ".join(p.value for p in phases)
            raise IllegalAction(
                "wrong_phase",
                f"this step belongs to the {wanted} phase; the game is in the {self._phase.value} phase",
                phase=self._phase.value,
            )
        if player != self.expected_player:
            raise IllegalAction(
                "not_your_turn", f"it is {self.expected_player}'s turn, not {player}'s", expected=self.expected_player
            )

    def place_opening(self, player: str, stones: Sequence[object], n: int | None = None) -> Opening:
        """Step 1: ``first`` lays out black 1 on h8, white 2 and black 3 and declares N."""
        self._expect(player, Phase.OPENING)
        if not isinstance(stones, (list, tuple)) or len(stones) != 3:
            raise IllegalAction("not_an_opening", "give three stones: black 1, white 2, black 3")
        try:
            points = [as_point(s, "opening stone") for s in stones]
        except ValueError as exc:
            raise IllegalAction("off_board", str(exc)) from None
        if points[0] != CENTRE:
            raise IllegalAction("not_centre", f"black 1 must be on h8, not {to_notation(points[0])}")
        opening = identify_opening(points)
        if opening is None:
            raise IllegalAction(
                "not_an_opening",
                f"{' '.join(to_notation(stone) for stone in points)} is not one of the 26 "
                "designated openings (white 2 next to h8, black 3 within two points)",
            )
        self.n = self._resolve_n(n)
        for stone in points:
            self.game.play(stone)
        self.opening = opening
        self._phase = Phase.SWAP
        return opening

    def _resolve_n(self, declared: int | None) -> int:
        cfg = self.config
        if cfg.fixed_n is not None:
            if declared is not None and declared != cfg.fixed_n:
                raise IllegalAction("n_fixed", f"this section fixes N = {cfg.fixed_n}", fixed_n=cfg.fixed_n)
            return cfg.fixed_n
        if declared is None:
            raise IllegalAction("n_required", "declare N, the number of fifth-move offers, with the opening")
        if (
            isinstance(declared, bool)
            or not isinstance(declared, int)
            or declared < cfg.min_n
            or (cfg.max_n is not None and declared > cfg.max_n)
        ):
            upper = "" if cfg.max_n is None else f" and at most {cfg.max_n}"
            raise IllegalAction(
                "n_out_of_range", f"N must be an integer of at least {cfg.min_n}{upper}, not {declared!r}"
            )
        return declared

    def choose_colour(self, player: str, colour: Literal["black", "white"] | Colour) -> str:
        """Step 2, the swap after three: ``second`` takes black or white. Returns who holds black."""
        _check_player(player)
        if self._phase not in (Phase.OPENING, Phase.SWAP) and not self.game.is_over:
            raise IllegalAction(
                "swap_used", "the swap after move 3 has already been decided; there is no other swap point"
            )
        self._expect(player, Phase.SWAP)
        try:
            colour = Colour(colour)
        except ValueError:
            raise IllegalAction("swap_choice", f"choose 'black' or 'white', not {colour!r}") from None
        self.swapped = colour is Colour.BLACK
        self.swap_chooser = player
        self.black_player = SECOND if self.swapped else FIRST
        self._phase = Phase.MOVE4
        return self.black_player

    def play(self, player: str, point: object) -> Action:
        """Move 4, move 6 and every move of normal play."""
        self._expect(player, Phase.MOVE4, Phase.MOVE6, Phase.PLAY)
        action = self.game.play(point)  # type: ignore[arg-type]
        if self._phase is Phase.MOVE4:
            self._phase = Phase.OFFERS
        elif self._phase is Phase.MOVE6:
            self._phase = Phase.PLAY
            self.game.passes_allowed = True
        return action

    def offer_fifth(self, player: str, points: Sequence[object]) -> tuple[Point, ...]:
        """Step 4: black offers exactly N fifth moves, distinct, empty and pairwise
        non-equivalent; an invalid set is refused and black stays on move."""
        self._expect(player, Phase.OFFERS)
        assert self.n is not None
        checked = check_offers(sorted(self.game.black), sorted(self.game.white), points, self.n)
        self.offers = tuple(checked)
        self._phase = Phase.CHOOSE
        return self.offers

    def choose_fifth(self, player: str, point: object) -> Action:
        """Step 5: white picks one offer; it is played as black's move 5."""
        self._expect(player, Phase.CHOOSE)
        try:
            choice = as_point(point, "choice")
        except ValueError as exc:
            raise IllegalAction("not_an_offer", str(exc)) from None
        if choice not in self.offers:
            raise IllegalAction(
                "not_an_offer",
                f"{to_notation(choice)} is not one of black's offers ({', '.join(to_notation(o) for o in self.offers)})",
            )
        action = self.game.play(choice)
        self.chosen = choice
        self._phase = Phase.MOVE6
        return action

    def pass_(self, player: str) -> Action:
        _check_player(player)
        if self.game.result is not None:
            raise IllegalAction("game_over", f"the game is over ({self.game.result.reason.value})")
        if self._phase is not Phase.PLAY:
            raise IllegalAction("pass_not_allowed", "no pass before the opening is complete", phase=self._phase.value)
        self._expect(player, Phase.PLAY)
        return self.game.pass_()

    # -- endings that are not moves (PLAY-4) ------------------------------------------------

    def resign(self, player: str) -> Result:
        return self.game.resign(self.colour_of(player))

    def time_forfeit(self, player: str) -> Result:
        return self.game.time_forfeit(self.colour_of(player))

    def no_show(self, player: str) -> Result:
        return self.game.no_show(self.colour_of(player))

    def agree_draw(self) -> Result:
        return self.game.agree_draw()

    def both_flags(self) -> Result:
        return self.game.both_flags()

    def apply_flags(self, flagged_players: Sequence[str]) -> Result | None:
        """End the game from a clock kept per player (sides ``first``/``second``)."""
        return self.game.apply_flags([self.colour_of(p) for p in flagged_players])

    def winner_player(self) -> str | None:
        """The winning player (first/second), None for a draw or an unfinished game."""
        result = self.game.result
        if result is None or result.winner is None:
            return None
        return self.player_of(result.winner)


def _check_player(player: str) -> None:
    if player not in PLAYERS:
        raise IllegalAction("bad_player", f"player must be 'first' or 'second', not {player!r}")
