"""Berger round-robin tables (FIDE C.05 Annex 1), PAIR-3.

For n players (odd n is padded to n+1; the padded number is the dummy = bye) round r pairs
every x, y with x + y ≡ r + 1 (mod n−1); the player with 2x ≡ r + 1 meets player n.
Board 1 holds player n's game; n moves second in odd rounds and first in even rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Board, Code, RoundPairing


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """Pairs (first mover, second mover) of round ``r`` (1-based) for ``n`` players, board order.

    For odd ``n`` the pair containing ``n + 1`` is the bye.
    """
    if n < 2:
        raise ValueError("a round robin needs at least 2 players")
    m = n + (n % 2)
    if not 1 <= r <= m - 1:
        raise ValueError(f"round {r} outside 1..{m - 1}")
    k = m - 1
    off = (r - 1) * (m // 2)
    p = off % k + 1
    boards = [(p, m) if r % 2 == 1 else (m, p)]
    for b in range(2, m // 2 + 1):
        first = (off + b - 1) % k + 1
        second = (off - b + 1) % k + 1
        boards.append((first, second))
    return boards


def berger_table(n: int) -> dict[int, list[tuple[int, int]]]:
    m = n + (n % 2)
    return {r: berger_round(n, r) for r in range(1, m)}


def pair_round_robin(seeds: Sequence[int], r: int, double: bool = False) -> RoundPairing:
    """Round ``r`` for the players ``seeds`` (seeds[0] draws Berger number 1, …).

    With an odd field the player meeting the dummy gets a pairing-allocated bye (PAIR-3).
    ``double`` runs the cycle twice with colours swapped in the second cycle.
    """
    n = len(seeds)
    m = n + (n % 2)
    cycle = m - 1
    rr = (r - 1) % cycle + 1
    swap = double and r > cycle
    if r > cycle * (2 if double else 1):
        raise ValueError(f"round {r} beyond the round robin")
    boards, byes = [], {}
    for a, b in berger_round(n, rr):
        if a > n or b > n:
            byes[seeds[(b if a > n else a) - 1]] = Code.PAIRING_BYE
            continue
        x, y = seeds[a - 1], seeds[b - 1]
        boards.append(Board(y, x) if swap else Board(x, y))
    return RoundPairing(r, tuple(boards), byes)
