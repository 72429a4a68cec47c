"""Team match points (PAIR-9): a match is won, drawn or lost on the game points of its boards.

A two-game round's points (PAIR-5) are gameplay's (``gameplay.engine.rounds``): the round's
outcome arrives with ``game.finished`` and pairing records it as a win, draw or loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Code


@dataclass(frozen=True)
class MatchPoints:
    """PAIR-9: more game points → win, equal → draw, fewer → loss (values configurable)."""

    win: float = 2
    draw: float = 1
    loss: float = 0


def code_for_match(mine: float, theirs: float) -> Code:
    """A team's result of a match from the game points of both sides."""
    return Code.WIN if mine > theirs else Code.LOSS if mine < theirs else Code.DRAW
