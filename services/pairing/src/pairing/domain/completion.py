"""PAIR-1/PAIR-2: can a Swiss still be completed? A look-ahead over the remaining rounds.

A field of n players is only *guaranteed* to pair ⌈n/2⌉ rounds whatever happened before
(Dirac's theorem, see registration's swiss_limit); the regulations ask for more from small
fields (SZ 九(一): 7 rounds from 8 entrants, 5 from 6). FIDE's Dutch rules look at one round
only (C.04.3 C.4, "complete the round-pairing"), so an engine that follows them can walk a
small field into a round with no legal pairing. This module answers the question the Dutch
rules do not ask: after the rounds already paired, is there a sequence of complete rounds for
the rest of the event in which nobody meets twice, nobody gets a second pairing-allocated bye,
forbidden groups stay apart and the colour limits of PAIR-2 hold (never the same colour three
times running, difference within ±2)? Results do not matter for that — only who met whom,
who had the bye and the colours — so a completion found once stays valid whatever the scores.

The search is a backtracking over perfect matchings of the compatibility graph, round by
round: most-constrained player first, colours branched where both are allowed, a degree bound
(everybody needs as many possible opponents left as rounds left) and a memo of dead states.
It is exact and cheap for the small fields it is used for (≤ 16 players); a node budget bounds
it, and an exhausted budget answers "undecided" rather than guessing. Pure and deterministic.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .checker import colour_history
from .model import Code, Colour, RoundPairing, Tournament

BYE = 0  # the dummy opponent of the pairing-allocated bye (start numbers are ≥ 1)
DEFAULT_BUDGET = 20_000  # search nodes (≈ 0.3 s); a field of ≤ 16 from a regular start needs < 100


@dataclass(frozen=True)
class _Colours:
    """What the colour limits need of a history: difference, last colour and its run (≤ 2)."""

    diff: int = 0
    last: Colour | None = None
    run: int = 0

    def allows(self, colour: Colour) -> bool:
        step = 1 if colour is Colour.FIRST else -1
        if abs(self.diff + step) > 2:
            return False
        return not (self.last is colour and self.run >= 2)

    def then(self, colour: Colour) -> _Colours:
        step = 1 if colour is Colour.FIRST else -1
        run = self.run + 1 if self.last is colour else 1
        return _Colours(self.diff + step, colour, run)


def _colours_of(history: Sequence[Colour]) -> _Colours:
    state = _Colours()
    for colour in history:
        state = state.then(colour)
    return state


@dataclass(frozen=True)
class _Player:
    """What the search needs of a player: whom they met, their colours."""

    met: frozenset[int]  # opponents met over the board (and BYE once the bye is spent)
    colours: _Colours


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, forbidden: Sequence[tuple[int, int, frozenset[int]]], budget: int):
        self.forbidden = forbidden
        self.budget = budget
        self.dead: set[tuple] = set()

    def _apart(self, one: int, other: int, rnd: int) -> bool:
        return any(first <= rnd <= last and one in group and other in group for first, last, group in self.forbidden)

    def _colourings(self, state: dict[int, _Player], one: int, other: int) -> list[tuple[int, int]]:
        """(first, second) orders the colour limits allow; the player with fewer first moves
        moves first in the first one tried (ties: the lower start number)."""
        if BYE in (one, other):
            return [(other, one)] if one == BYE else [(one, other)]
        orders = []
        for first, second in ((one, other), (other, one)):
            if state[first].colours.allows(Colour.FIRST) and state[second].colours.allows(Colour.SECOND):
                orders.append((state[first].colours.diff, first, second))
        return [(first, second) for _, first, second in sorted(orders)]

    def _can_meet(self, state: dict[int, _Player], one: int, other: int, rnd: int) -> bool:
        if other in state[one].met or one in state[other].met or self._apart(one, other, rnd):
            return False
        return bool(self._colourings(state, one, other))

    def rounds(self, state: dict[int, _Player], rnd: int, left: int) -> list[list[tuple[int, int]]] | None:
        """A completion of ``left`` rounds from round ``rnd`` on, or None if there is none."""
        if left == 0:
            return []
        players = sorted(state)
        # degree bound: everybody needs `left` distinct opponents still possible
        for pid in players:
            if sum(1 for other in players if other != pid and other not in state[pid].met) < left:
                return None
        key = (rnd, left, tuple((pid, state[pid].met, state[pid].colours) for pid in players))
        if key in self.dead:
            return None
        # who may meet whom this round (rematches, forbidden groups, colours): fixed for the round
        partners = {
            pid: [other for other in players if other != pid and self._can_meet(state, pid, other, rnd)]
            for pid in players
        }
        found = self._round(state, partners, rnd, left, set(players), [])
        if found is None:
            self.dead.add(key)
        return found

    def _round(
        self,
        state: dict[int, _Player],
        partners: dict[int, list[int]],
        rnd: int,
        left: int,
        free: set[int],
        boards: list[tuple[int, int]],
    ) -> list[list[tuple[int, int]]] | None:
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        if not free:
            after = dict(state)
            for first, second in boards:
                if second == BYE:
                    after[first] = _played(state[first], BYE, None)
                    after[BYE] = _played(state[BYE], first, None)
                else:
                    after[first] = _played(state[first], second, Colour.FIRST)
                    after[second] = _played(state[second], first, Colour.SECOND)
            rest = self.rounds(after, rnd + 1, left - 1)
            return None if rest is None else [list(boards), *rest]
        # most constrained player first; one without a partner left ends this branch
        options = {pid: [other for other in partners[pid] if other in free] for pid in free}
        chosen = min(sorted(free), key=lambda pid: len(options[pid]))
        for other in options[chosen]:
            for board in self._colourings(state, chosen, other):
                boards.append(board)
                found = self._round(state, partners, rnd, left, free - {chosen, other}, boards)
                boards.pop()
                if found is not None:
                    return found
        return None


def _played(player: _Player, opponent: int, colour: Colour | None) -> _Player:
    colours = player.colours if colour is None else player.colours.then(colour)
    return _Player(player.met | {opponent}, colours)


def _state(tournament: Tournament, players: Iterable[int], pairing: RoundPairing | None) -> dict[int, _Player]:
    field = sorted(set(players))
    state: dict[int, _Player] = {}
    for pid in field:
        entries = tournament.entries(pid)
        met = {entry.opponent for entry in entries if entry.played and entry.opponent is not None}
        if any(entry.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN) for entry in entries):
            met.add(BYE)
        state[pid] = _Player(frozenset(met), _colours_of(colour_history(tournament, pid)))
    if pairing is not None:
        for board in pairing.boards:
            for pid, other, colour in (
                (board.first, board.second, Colour.FIRST),
                (board.second, board.first, Colour.SECOND),
            ):
                if pid in state:
                    state[pid] = _played(state[pid], other, colour)
        for pid, code in pairing.byes.items():
            if code is Code.PAIRING_BYE and pid in state:
                state[pid] = _played(state[pid], BYE, None)
    if len(field) % 2:
        # the bye is an opponent everybody may meet once; it "has met" nobody
        state[BYE] = _Player(frozenset(pid for pid in field if BYE in state[pid].met), _Colours())
    return state


def completion(
    tournament: Tournament,
    players: Iterable[int],
    rounds_left: int,
    after: RoundPairing | None = None,
    budget: int = DEFAULT_BUDGET,
) -> list[list[tuple[int, int]]] | None | bool:
    """The remaining ``rounds_left`` rounds for ``players`` after ``tournament``'s history (and
    the round ``after``, if given, as if played): a list of rounds of (first, second) boards
    (second = 0 for the pairing-allocated bye) if a completion exists, None if none exists,
    False if the budget ran out before the search could tell."""
    state = _state(tournament, players, after)
    if len(state) < 2:
        return None if rounds_left > 0 and state else []
    first_round = tournament.rounds_done + (2 if after is not None else 1)
    forbidden = [(g.first_round, g.last_round, frozenset(g.players)) for g in tournament.forbidden]
    try:
        return _Search(forbidden, budget).rounds(state, first_round, rounds_left)
    except _OutOfBudget:
        return False
