"""Absolute criteria of a Swiss round (PAIR-2), checked independently of any engine.

Checks: every participant exactly once; nobody else paired; no rematch of a game played over
the board (forfeits do not count, PAIR-6); forbidden groups (TRF 260) kept apart; at most one
pairing-allocated bye per player (and none after a forfeit win, FIDE C.04.1); colour limits —
never the same colour three times running and the colour difference within ±2. PAIR-2 makes
the colour limits absolute for everyone; FIDE C.04.3 exempts pairs that include a topscorer
in the final round, which an event can switch on with ``topscorer_exemption``.
"""

from __future__ import annotations

from collections.abc import Iterable

from .model import Board, Code, Colour, RoundPairing, Tournament


class IllegalPairing(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def colour_history(tournament: Tournament, pid: int) -> list[Colour]:
    """Colours of games played over the board, in round order (forfeits excluded)."""
    return [entry.colour for entry in tournament.entries(pid) if entry.played and entry.colour is not None]


def colour_violation(history: list[Colour], new: Colour) -> str | None:
    seq = history + [new]
    diff = sum(1 if colour is Colour.FIRST else -1 for colour in seq)
    if abs(diff) > 2:
        return f"colour difference {diff:+d}"
    if len(seq) >= 3 and seq[-1] == seq[-2] == seq[-3]:
        return "same colour three times running"
    return None


def met_over_the_board(tournament: Tournament, player: int, opponent: int) -> bool:
    return any(entry.played and entry.opponent == opponent for entry in tournament.entries(player))


def is_topscorer(tournament: Tournament, pid: int, round_: int) -> bool:
    """FIDE C.04.3 A.7: in the final round, more than 50 % of the maximum possible score."""
    return round_ == tournament.rounds_planned and tournament.score(pid) > tournament.points.win * (round_ - 1) / 2


def check_round(
    tournament: Tournament, pairing: RoundPairing, participants: Iterable[int], topscorer_exemption: bool = False
) -> list[str]:
    """Return the list of violated absolute criteria (empty list = legal)."""
    problems: list[str] = []
    part = set(participants)
    rnd = pairing.round
    seen: dict[int, int] = {}
    for board in pairing.boards:
        for pid in (board.first, board.second):
            seen[pid] = seen.get(pid, 0) + 1
    # Byes the arbiter assigned before pairing (non-participants) are the arbiter's decision;
    # only the engine's pairing-allocated bye is checked.
    pab = [pid for pid, code in pairing.byes.items() if code is Code.PAIRING_BYE and pid in part]
    for pid in pab:
        seen[pid] = seen.get(pid, 0) + 1
    for pid, times in seen.items():
        if times > 1:
            problems.append(f"player {pid} paired {times} times")
        if pid not in part:
            problems.append(f"player {pid} is not a participant of round {rnd}")
    for pid in part - set(seen):
        problems.append(f"participant {pid} not paired")
    if len(pab) > 1:
        problems.append(f"{len(pab)} pairing-allocated byes")
    for pid in pab:
        if any(entry.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN) for entry in tournament.entries(pid)):
            problems.append(f"player {pid} gets a second pairing-allocated bye (or one after a forfeit win)")
    for board in pairing.boards:
        problems += _board_problems(tournament, board, rnd, topscorer_exemption)
    return problems


def _board_problems(tournament: Tournament, board: Board, rnd: int, topscorer_exemption: bool) -> list[str]:
    first, second = board.first, board.second
    if first == second:
        return [f"player {first} paired with themself"]
    problems = []
    if met_over_the_board(tournament, first, second):
        problems.append(f"rematch {first}-{second}")
    for group in tournament.forbidden:
        if group.first_round <= rnd <= group.last_round and first in group.players and second in group.players:
            problems.append(f"forbidden pair {first}-{second} (record 260)")
    # FIDE C.04.3 C.3 binds only pairs of two non-topscorers: with the exemption on, a
    # board with a topscorer may break either player's colour limits.
    if topscorer_exemption and (is_topscorer(tournament, first, rnd) or is_topscorer(tournament, second, rnd)):
        return problems
    for pid, colour in ((first, Colour.FIRST), (second, Colour.SECOND)):
        violation = colour_violation(colour_history(tournament, pid), colour)
        if violation:
            problems.append(f"player {pid}: {violation}")
    return problems
