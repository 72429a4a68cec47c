"""Berger round-robin tables (FIDE C.05 Annex 1), PAIR-3.

For n players (odd n is padded to n+1; the padded number is the dummy = bye) round r pairs
every x, y with x + y ≡ r + 1 (mod n−1); the player with 2x ≡ r + 1 meets player n.
Board 1 holds player n's game; n moves second in odd rounds and first in even rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Board, Code, RoundPairing


def berger_round(count: int, rnd: int) -> list[tuple[int, int]]:
    """Pairs (first mover, second mover) of round ``rnd`` (1-based) for ``count`` players, board order.

    For an odd ``count`` the pair containing ``count + 1`` is the bye.
    """
    if count < 2:
        raise ValueError("a round robin needs at least 2 players")
    size = count + (count % 2)  # the field padded with the dummy
    if not 1 <= rnd <= size - 1:
        raise ValueError(f"round {rnd} outside 1..{size - 1}")
    modulus = size - 1
    offset = (rnd - 1) * (size // 2)
    meets_last = offset % modulus + 1
    boards = [(meets_last, size) if rnd % 2 == 1 else (size, meets_last)]
    for board in range(2, size // 2 + 1):
        first = (offset + board - 1) % modulus + 1
        second = (offset - board + 1) % modulus + 1
        boards.append((first, second))
    return boards


def berger_table(count: int) -> dict[int, list[tuple[int, int]]]:
    size = count + (count % 2)
    return {rnd: berger_round(count, rnd) for rnd in range(1, size)}


def pair_round_robin(seeds: Sequence[int], rnd: int, double: bool = False) -> RoundPairing:
    """Round ``rnd`` for the players ``seeds`` (seeds[0] draws Berger number 1, …).

    With an odd field the player meeting the dummy gets a pairing-allocated bye (PAIR-3).
    ``double`` runs the cycle twice with colours swapped in the second cycle.
    """
    count = len(seeds)
    cycle = count + (count % 2) - 1
    in_cycle = (rnd - 1) % cycle + 1
    swap = double and rnd > cycle
    if rnd > cycle * (2 if double else 1):
        raise ValueError(f"round {rnd} beyond the round robin")
    boards, byes = [], {}
    for first, second in berger_round(count, in_cycle):
        if first > count or second > count:
            byes[seeds[(second if first > count else first) - 1]] = Code.PAIRING_BYE
            continue
        first_seed, second_seed = seeds[first - 1], seeds[second - 1]
        boards.append(Board(second_seed, first_seed) if swap else Board(first_seed, second_seed))
    return RoundPairing(rnd, tuple(boards), byes)
