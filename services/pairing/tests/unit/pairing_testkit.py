"""Random Swiss histories for property tests (cheap greedy pairing, not the engine)."""

from __future__ import annotations

import random

from pairing.domain.checker import colour_history, colour_violation, met_over_the_board
from pairing.domain.model import (
    Board,
    Code,
    Colour,
    ForbiddenGroup,
    Outcome,
    Player,
    RoundPairing,
    Tournament,
    record_round,
)

_OUTCOMES = (
    [Outcome.FIRST_WINS] * 9
    + [Outcome.SECOND_WINS] * 8
    + [Outcome.DRAW] * 4
    + [Outcome.FIRST_FORFEIT_WIN, Outcome.SECOND_FORFEIT_WIN]
)


def random_tournament(rng: random.Random, n_min: int = 4, n_max: int = 24) -> tuple[Tournament, dict]:
    """A tournament with 1..R-1 rounds played, plus requests for the next round."""
    n = rng.randint(n_min, n_max)
    planned = rng.randint(3, 9)
    done = rng.randint(1, planned - 1)
    late = set(rng.sample(range(1, n + 1), k=min(n // 8, 2)))
    players = []
    for i in range(1, n + 1):
        players.append(
            Player(
                id=i,
                name=f"P{i}",
                rating=2400 - 10 * i,
                gender=rng.choice("mf"),
                entry_round=rng.randint(2, done + 1) if i in late else 1,
            )
        )
    forbidden = ()
    if n >= 6 and rng.random() < 0.3:
        forbidden = (ForbiddenGroup(1, planned, tuple(rng.sample(range(1, n + 1), 2))),)
    t = Tournament(
        players=tuple(players), rounds_planned=planned, forbidden=forbidden, top_seed_colour=rng.choice(list(Colour))
    )
    withdrawn: set[int] = set()
    for r in range(1, done + 1):
        if r > 1 and rng.random() < 0.15:
            withdrawn.add(rng.randint(1, n))
        byes = {}
        for p in players:
            if p.id in withdrawn or p.entry_round > r:
                continue
            if rng.random() < 0.04:
                byes[p.id] = rng.choice([Code.HALF_BYE, Code.ZERO_BYE])
        pool = [p.id for p in players if p.id not in withdrawn and p.entry_round <= r and p.id not in byes]
        rng.shuffle(pool)
        pool.sort(key=lambda pid: -t.score(pid))
        boards: list[Board] = []
        unpaired = list(pool)
        if len(unpaired) % 2:
            cands = [
                pid
                for pid in reversed(unpaired)
                if not any(e.code in (Code.PAIRING_BYE, Code.FORFEIT_WIN) for e in t.entries(pid))
            ]
            pab = cands[0] if cands else unpaired[-1]
            byes[pab] = Code.PAIRING_BYE if cands else Code.ZERO_BYE
            unpaired.remove(pab)
        while len(unpaired) >= 2:
            a = unpaired.pop(0)
            for b in unpaired:
                if met_over_the_board(t, a, b) or any(a in g.players and b in g.players for g in forbidden):
                    continue
                ha, hb = colour_history(t, a), colour_history(t, b)
                if not colour_violation(ha, Colour.FIRST) and not colour_violation(hb, Colour.SECOND):
                    boards.append(Board(a, b))
                    break
                if not colour_violation(ha, Colour.SECOND) and not colour_violation(hb, Colour.FIRST):
                    boards.append(Board(b, a))
                    break
            else:
                byes[a] = Code.ZERO_BYE  # could not be paired legally: sits out
                continue
            unpaired.remove(boards[-1].first if boards[-1].first != a else boards[-1].second)
        for pid in unpaired:
            byes[pid] = Code.ZERO_BYE
        outcomes = {i: rng.choice(_OUTCOMES) for i in range(len(boards))}
        t = record_round(t, RoundPairing(r, tuple(boards), byes), outcomes)
    from dataclasses import replace

    t = replace(t, players=tuple(replace(p, withdrawn_after=(done if p.id in withdrawn else None)) for p in t.players))
    active = [p.id for p in t.players if p.id not in withdrawn and p.entry_round <= done + 1]
    requests = {"requested_byes": [pid for pid in active if rng.random() < 0.03]}
    return t, requests
