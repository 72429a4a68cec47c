"""Domain exceptions of the engine: a machine-readable ``code`` plus a human message."""

from __future__ import annotations

# Codes raised by the engine. "Conflict" codes depend on the game's state (HTTP 409 at the
# edge); the others are bad input (422).
CONFLICT_CODES = frozenset(
    {
        "game_over",
        "not_your_turn",
        "wrong_phase",
        "occupied",
        "forbidden",
        "swap_used",
        "pass_not_allowed",
    }
)
INPUT_CODES = frozenset(
    {
        "off_board",
        "bad_player",
        "not_centre",
        "not_an_opening",
        "n_required",
        "n_fixed",
        "n_out_of_range",
        "swap_choice",
        "offer_count",
        "offer_off_board",
        "offer_occupied",
        "offer_duplicate",
        "offers_equivalent",
        "not_an_offer",
    }
)


class IllegalAction(Exception):
    """An action the rules refuse (move out of turn, occupied point, bad opening step...).

    ``code`` is stable and machine-readable (the service maps it to a 409/422 error body);
    ``message`` explains the refusal to a person; ``details`` carries data such as the foul kind
    or the pair of equivalent offers.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details
