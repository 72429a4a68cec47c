"""PAIR-1: a small Swiss field keeps its planned rounds — the Dutch pairing, checked ahead.

For a field that is not guaranteed its planned rounds (more than ⌈n/2⌉), every round's Dutch
pairing is checked with :func:`.completion.completion`: does a completion of the remaining
rounds exist after it? If so (or if the search cannot tell within its budget) the Dutch
pairing stands — always the case for fields within the guarantee, so their pairings are the
Dutch system's exactly. If not, the next best Dutch pairings are tried: the engine re-pairs
the round with one, then two… of the offending pairing's boards forbidden for this round
(breadth first, bottom boards first, a bounded number of tries), and the first one that can
be completed is taken. If none is found, the first round of a completion found from before
this round is used — it keeps every absolute criterion, only the Dutch preferences give way.

So, round after round, a field that could complete when the event started can always pair its
next round: no section stalls for the arbiter because of an earlier, short-sighted round. A
field that already cannot complete (a late entry, withdrawals, absences) keeps the Dutch
pairing, and a round the engine cannot pair still goes to the arbiter.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from .model import Board, Code, RoundPairing, Tournament, active_players

# .completion (the search) is imported when a field is not guaranteed its rounds: a pairing
# process for a larger field never needs it

# re-pairings tried with boards forbidden before falling back to the completion's own round
MAX_TRIES = 24

Repair = Callable[[tuple[tuple[int, int], ...]], RoundPairing | None]
"""Re-pair the round with these (first, second) pairs kept apart; None if it cannot be paired."""


def guaranteed_rounds(players: int) -> int:
    """PAIR-2: the Swiss rounds any history lets a field of ``players`` pair (Dirac: ⌈n/2⌉)."""
    return max((players + 1) // 2, 1)


def needs_lookahead(tournament: Tournament, round_: int) -> bool:
    """True when the field playing on after ``round_`` is not guaranteed the rounds left."""
    field = active_players(tournament, round_ + 1)
    return (
        round_ < tournament.rounds_planned
        and len(field) >= 2
        and (tournament.rounds_planned > guaranteed_rounds(len(field)))
    )


def keep_completable(
    tournament: Tournament, pairing: RoundPairing, participants: Sequence[int], repair: Repair
) -> RoundPairing:
    """``pairing`` if the event can still be completed after it, else the best alternative."""
    rnd = pairing.round
    if not needs_lookahead(tournament, rnd):
        return pairing
    from .completion import completion

    field = active_players(tournament, rnd + 1)
    left = tournament.rounds_planned - rnd
    if completion(tournament, field, left, after=pairing) is not None:
        return pairing  # completable, or undecided within the budget: the Dutch choice stands
    witness = None
    if set(participants) == set(field):
        witness = completion(tournament, field, left + 1)
        if not witness:
            return pairing  # no completion even before this round: nothing to keep
    queue: deque[tuple[tuple[int, int], ...]] = deque(_extensions((), pairing))
    seen: set[frozenset[tuple[int, int]]] = set()
    tries = 0
    while queue and tries < MAX_TRIES:
        apart = queue.popleft()
        if frozenset(apart) in seen:
            continue
        seen.add(frozenset(apart))
        tries += 1
        alternative = repair(apart)
        if alternative is None:
            continue
        if completion(tournament, field, left, after=alternative) is not None:
            return alternative
        queue.extend(_extensions(apart, alternative))
    if isinstance(witness, list):
        return _as_pairing(tournament, rnd, witness[0], pairing)
    return pairing


def _extensions(apart: tuple[tuple[int, int], ...], pairing: RoundPairing) -> list[tuple[tuple[int, int], ...]]:
    """Each board of ``pairing`` (bottom first) added to the pairs kept apart."""
    return [apart + ((board.first, board.second),) for board in reversed(pairing.boards)]


def _as_pairing(
    tournament: Tournament, rnd: int, boards: Sequence[tuple[int, int]], dutch: RoundPairing
) -> RoundPairing:
    """A completion's round as a pairing: boards by the higher score, then start number."""
    from .completion import BYE

    byes: dict[int, Code] = {pid: code for pid, code in dutch.byes.items() if code is not Code.PAIRING_BYE}
    games = []
    for first, second in boards:
        if second == BYE:
            byes[first] = Code.PAIRING_BYE
        else:
            games.append(Board(first, second))

    def order(board: Board) -> tuple[float, int]:
        top = max(tournament.score(board.first), tournament.score(board.second))
        return (-top, min(board.first, board.second))

    return RoundPairing(rnd, tuple(sorted(games, key=order)), byes)
