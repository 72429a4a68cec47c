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

from .model import Code, Colour, RoundPairing, Tournament


class IllegalPairing(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


def colour_history(t: Tournament, pid: int) -> list[Colour]:
    """Colours of games played over the board, in round order (forfeits excluded)."""
    return [e.colour for e in t.entries(pid) if e.played and e.colour is not None]


def colour_violation(history: list[Colour], new: Colour) -> str | None:
    seq = history + [new]
    diff = sum(1 if c is Colour.FIRST else -1 for c in seq)
    if abs(diff) > 2:
        return f"colour difference {diff:+d}"
    if len(seq) >= 3 and seq[-1] == seq[-2] == seq[-3]:
        return "same colour three times running"
    return None


def met_over_the_board(t: Tournament, a: int, b: int) -> bool:
    return any(e.played and e.opponent == b for e in t.entries(a))


def is_topscorer(t: Tournament, pid: int, round_: int) -> bool:
    """FIDE C.04.3 A.7: in the final round, more than 50 % of the maximum possible score."""
    return round_ == t.rounds_planned and t.score(pid) > t.points.win * (round_ - 1) / 2


def check_round(
    t: Tournament, rp: RoundPairing, participants: Iterable[int], topscorer_exemption: bool = False
) -> list[str]:
    """Return the list of violated absolute criteria (empty list = legal)."""
    problems: list[str] = []
    part = set(participants)
    r = rp.round
    seen: dict[int, int] = {}
    for b in rp.boards:
        for pid in (b.first, b.second):
            seen[pid] = seen.get(pid, 0) + 1
    # Byes the arbiter assigned before pairing (non-participants) are the arbiter's decision;
    # only the engine's pairing-allocated bye is checked.
    pab = [pid for pid, c in rp.byes.items() if c is Code.PAIRING_BYE and pid in part]
    for pid in pab:
        seen[pid] = seen.get(pid, 0) + 1
    for pid, n in seen.items():
        if n > 1:
            problems.append(f"player {pid} paired {n} times")
        if pid not in part:
            problems.append(f"player {pid} is not a participant of round {r}")
    for pid in part - set(seen):
        problems.append(f"participant {pid} not paired")
    if len(pab) > 1:
        problems.append(f"{len(pab)} pairing-allocated byes")
    for pid in pab:
        if any(e.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN) for e in t.entries(pid)):
            problems.append(f"player {pid} gets a second pairing-allocated bye (or one after a forfeit win)")
    for b in rp.boards:
        if b.first == b.second:
            problems.append(f"player {b.first} paired with themself")
            continue
        if met_over_the_board(t, b.first, b.second):
            problems.append(f"rematch {b.first}-{b.second}")
        for g in t.forbidden:
            if g.first_round <= r <= g.last_round and b.first in g.players and b.second in g.players:
                problems.append(f"forbidden pair {b.first}-{b.second} (record 260)")
        # FIDE C.04.3 C.3 binds only pairs of two non-topscorers: with the exemption on, a
        # board with a topscorer may break either player's colour limits.
        if topscorer_exemption and (is_topscorer(t, b.first, r) or is_topscorer(t, b.second, r)):
            continue
        for pid, col in ((b.first, Colour.FIRST), (b.second, Colour.SECOND)):
            v = colour_violation(colour_history(t, pid), col)
            if v:
                problems.append(f"player {pid}: {v}")
    return problems
