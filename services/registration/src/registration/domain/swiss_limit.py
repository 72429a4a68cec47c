"""PAIR-2: how many Swiss rounds a field can be promised, so that closing refuses a choice the
pairing could not keep (the section would wait for the arbiter in some later round).

No two players meet twice (PAIR-2), so *n* entrants can never play more than n − 1 rounds
(n with an odd field, where a bye is a round against a dummy and nobody gets two). That is
only the ceiling: long before it, the results can steer the pairings into a round that has no
legal pairing left (8 entrants, 7 rounds: the Dutch system finds none in round 6 or 7 for some
results; 6 entrants, 5 rounds: in round 4 or 5).

Decision: a Swiss of n entrants may have at most ⌈n/2⌉ rounds — the most that is *guaranteed*
to pair, whatever the results. Proof: count a bye as a game against a dummy (odd n: n + 1
"players", each player at most one bye, as PAIR-2 wants). Before round k everybody has met
k − 1 others, so everybody still may meet (v − 1) − (k − 1) = v − k of the v players. While
v − k ≥ v/2, Dirac's theorem gives a Hamiltonian cycle among the allowed meetings, and every
other edge of it is a complete round without a rematch. So every round k ≤ v/2 can be paired,
with v = n (even) or n + 1 (odd): ⌈n/2⌉ rounds. The bound is exact for some fields (6
entrants: after 3 rounds the allowed meetings can be two triangles, and round 4 has no
pairing). For a multiple of 4 the rematch rule alone would allow one round more, but the
colour limits of PAIR-2 (absolute too) then bite: a 5-round Swiss of 8 stalls in round 5 for
some results although a pairing without a rematch exists. Beyond the bound a round the engine
cannot pair still goes to the arbiter, as it does after late withdrawals.
"""

from __future__ import annotations


def max_swiss_rounds(entrants: int) -> int:
    """PAIR-2: the most Swiss rounds guaranteed to pair without a rematch for this field."""
    return max((entrants + 1) // 2, 1)


class SwissRoundsExceedField(ValueError):
    """The arbiter chose a Swiss with more rounds than the field can be guaranteed (PAIR-2)."""

    def __init__(self, section_id: str, entrants: int, rounds: int) -> None:
        super().__init__(section_id, entrants, rounds)
        self.section_id = section_id
        self.entrants = entrants
        self.rounds = rounds
        self.max_rounds = max_swiss_rounds(entrants)

    def __str__(self) -> str:
        return (
            f"{self.section_id}: a Swiss of {self.entrants} entrants can be guaranteed at most "
            f"{self.max_rounds} rounds without a rematch (PAIR-2); {self.rounds} chosen: choose at most "
            f"{self.max_rounds} rounds or a round robin"
        )
