"""PAIR-1/PAIR-2: how many Swiss rounds a field can play at all, so that closing refuses only a
choice no pairing could keep.

No two players meet twice (PAIR-2), so *n* entrants can never play more than n − 1 rounds
(n with an odd field, where a bye is a round against a dummy and nobody gets two): that many
rounds is the round robin itself. Below that ceiling the regulation's rounds are kept (SZ 九(一):
7 rounds for a free section of 8 or more, 5 for a professional section of 6 or more), although
only ⌈n/2⌉ rounds are *guaranteed* to pair whatever came before (Dirac's theorem: before round
k ≤ v/2 everybody may still meet v − k ≥ v/2 of the v players, so the allowed meetings hold a
Hamiltonian cycle and every other edge of it is a round). Beyond ⌈n/2⌉ the pairing service
pairs each round so that the remaining rounds can still be paired (its look-ahead,
pairing.domain.lookahead), so no section stalls; closing refuses only a Swiss longer than the
ceiling and offers the round robin.
"""

from __future__ import annotations


def guaranteed_swiss_rounds(entrants: int) -> int:
    """PAIR-2: the Swiss rounds any history lets this field pair without a look-ahead (⌈n/2⌉)."""
    return max((entrants + 1) // 2, 1)


def max_swiss_rounds(entrants: int) -> int:
    """PAIR-1: the most Swiss rounds this field can play without a rematch (a round robin's)."""
    return max(entrants - 1 if entrants % 2 == 0 else entrants, 1)


class SwissRoundsExceedField(ValueError):
    """The arbiter chose a Swiss with more rounds than the field can play at all (PAIR-1/PAIR-2)."""

    def __init__(self, section_id: str, entrants: int, rounds: int) -> None:
        super().__init__(section_id, entrants, rounds)
        self.section_id = section_id
        self.entrants = entrants
        self.rounds = rounds
        self.max_rounds = max_swiss_rounds(entrants)

    def __str__(self) -> str:
        return (
            f"{self.section_id}: a Swiss of {self.entrants} entrants can have at most {self.max_rounds} rounds "
            f"without a rematch (PAIR-2) — that many is a round robin; {self.rounds} chosen: choose at most "
            f"{self.max_rounds} rounds or the round robin"
        )
