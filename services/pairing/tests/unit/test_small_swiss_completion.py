"""PAIR-1 / PAIR-2, SZ 九(一): a small Swiss field plays the regulation's rounds.

SZ plays free sections in 7 rounds (merging only below 8 entrants) and professional sections
in 5 (merging only below 6), so fields of 6–16 play more rounds than the ⌈n/2⌉ any field is
guaranteed. The pairing looks ahead (pairing.domain.lookahead): every round is paired so that
the remaining rounds can still be paired. Property: over many random result sequences, no
round of such a field ever lacks a legal pairing, nobody meets twice, nobody gets two byes and
the colour limits hold (pair_swiss_round checks every round with checker.check_round too; the
test checks the whole history again independently).
"""

from __future__ import annotations

import random

import pytest

from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain import swiss
from pairing.domain.checker import colour_history, colour_violation
from pairing.domain.completion import completion
from pairing.domain.lookahead import guaranteed_rounds, keep_completable, needs_lookahead
from pairing.domain.model import Board, Code, Colour, Outcome, Player, RoundPairing, Tournament, record_round

OUTCOMES = (Outcome.FIRST_WINS, Outcome.SECOND_WINS, Outcome.DRAW)
# (entrants, rounds): the seeds' rounds (5 professional, 7 free) for every field that can play them
RUNS = 12  # whole events per field here (× 21 fields); python -m bench.small_swiss plays thousands
FIELDS = [(n, rounds) for n in range(6, 17) for rounds in (5, 7) if rounds <= (n - 1 if n % 2 == 0 else n)]
FAST = FastGacruxDutch()


def pair_swiss_round(tournament, *args, **options):
    """The domain's pairing with the service's Dutch engine (the fast adapter), unless given one."""
    return swiss.pair_swiss_round(tournament, *args, **{"engine": FAST, **options})


def _field(n: int, rounds: int, rng: random.Random) -> Tournament:
    return Tournament(
        players=tuple(Player(i, f"P{i}", rating=2000 - 10 * i) for i in range(1, n + 1)),
        rounds_planned=rounds,
        top_seed_colour=rng.choice(list(Colour)),
    )


def _play_out(n: int, rounds: int, rng: random.Random) -> Tournament:
    """Pair and play every round with random results; raises if a round cannot be paired."""
    t = _field(n, rounds, rng)
    for _ in range(rounds):
        pairing = pair_swiss_round(t)
        outcomes = {index: rng.choice(OUTCOMES) for index in range(len(pairing.boards))}
        t = record_round(t, pairing, outcomes)
    return t


def _assert_absolute_rules(t: Tournament) -> None:
    for player in t.players:
        entries = t.entries(player.id)
        opponents = [entry.opponent for entry in entries if entry.opponent is not None]
        assert len(opponents) == len(set(opponents)), f"rematch for {player.id}: {opponents}"
        assert sum(entry.code is Code.PAIRING_BYE for entry in entries) <= 1
        history: list[Colour] = []
        for colour in colour_history(t, player.id):
            assert colour_violation(history, colour) is None, (player.id, history, colour)
            history.append(colour)
    assert all(len(t.entries(p.id)) == t.rounds_planned for p in t.players)


@pytest.mark.slow
@pytest.mark.parametrize(("entrants", "rounds"), FIELDS)
def test_pair1_sz_9_1_small_fields_play_every_planned_round(entrants, rounds):
    """SZ 九(一), PAIR-1/PAIR-2: 6–16 entrants, 5 or 7 rounds, random results (seeded): no section
    ever stalls, no rematch, at most one bye each, colour limits kept — every round of every run."""
    rng = random.Random(1000 * entrants + rounds)
    for _ in range(RUNS):
        _assert_absolute_rules(_play_out(entrants, rounds, rng))


@pytest.mark.slow
def test_pair1_sz_9_1_the_dutch_alone_stalls_where_the_lookahead_does_not():
    """SZ 九(一), PAIR-1: the failure the look-ahead prevents is real — over the same random
    results, the Dutch pairing without it (an engine-only run) leaves some 8-player 7-round
    event with a round that has no legal pairing; with it, every event completes."""
    from pairing.domain.swiss import NoLegalPairing, _with_pairs

    stalls = 0
    rng = random.Random(8)
    for _ in range(60):
        t = _field(8, 7, rng)
        for rnd in range(1, 8):
            try:
                pairs = FAST.pair(t, rnd, [p.id for p in t.players])
            except NoLegalPairing:
                stalls += 1
                break
            pairing = _with_pairs(rnd, {}, pairs)
            t = record_round(t, pairing, {i: rng.choice(OUTCOMES) for i in range(len(pairing.boards))})
    assert stalls > 0


@pytest.mark.parametrize("entrants", [6, 7, 8, 9, 10, 12, 14, 16])
def test_pair2_a_full_round_robin_of_swiss_rounds_can_be_completed_from_the_start(entrants):
    """PAIR-2, SZ 九(一): n − 1 rounds (n if odd) — the ceiling closing allows — have a completion
    with the colour limits from an empty history; one round more has none."""
    t = _field(entrants, entrants, random.Random(0))
    ceiling = entrants - 1 if entrants % 2 == 0 else entrants
    found = completion(t, range(1, entrants + 1), ceiling)
    assert isinstance(found, list) and len(found) == ceiling
    met = [frozenset(pair) for one in found for pair in one]
    assert len(met) == len(set(met))
    assert completion(t, range(1, entrants + 1), ceiling + 1) is None


def test_pair2_six_players_in_two_triangles_cannot_complete():
    """PAIR-2, SZ 九(一) (5 rounds of 6): 6 entrants after 3 rounds in which players 1-3 each met 4-6:
    no round 4 exists, and the look-ahead says so (None, not a guess)."""
    t = _field(6, 5, random.Random(1))
    for shift in range(3):
        boards = tuple(
            Board(1 + i, 4 + (i + shift) % 3) if shift % 2 == 0 else Board(4 + (i + shift) % 3, 1 + i) for i in range(3)
        )
        t = record_round(t, RoundPairing(shift + 1, boards, {}), {i: Outcome.DRAW for i in range(3)})
    assert completion(t, range(1, 7), 2) is None


def test_pair1_the_lookahead_replaces_a_dead_end_pairing_with_a_completable_one():
    """PAIR-1, SZ 九(一) (5 rounds of 6): given a round-3 pairing after which no completion exists
    (the two triangles), the look-ahead asks the engine again with that pairing's boards kept
    apart and, when the engine offers nothing, returns a completion's round instead."""
    t = _field(6, 5, random.Random(2))
    first = RoundPairing(1, (Board(1, 4), Board(5, 2), Board(3, 6)), {})
    second = RoundPairing(2, (Board(5, 1), Board(2, 6), Board(4, 3)), {})
    t = record_round(t, first, {i: Outcome.DRAW for i in range(3)})
    t = record_round(t, second, {i: Outcome.DRAW for i in range(3)})
    dead_end = RoundPairing(3, (Board(1, 6), Board(4, 2), Board(3, 5)), {})
    assert completion(t, range(1, 7), 2, after=dead_end) is None
    asked: list[tuple[tuple[int, int], ...]] = []

    def repair(apart):
        asked.append(apart)
        return None  # the engine finds nothing: the round of a completion found before it is used

    chosen = keep_completable(t, dead_end, list(range(1, 7)), repair)
    assert asked and chosen != dead_end
    assert isinstance(completion(t, range(1, 7), 2, after=chosen), list)


def test_pair1_fields_within_the_guarantee_are_not_looked_ahead():
    """PAIR-1, SZ 九(一): a field guaranteed its rounds (⌈n/2⌉ ≥ rounds) keeps the Dutch pairing untouched —
    the larger fields' pairings (and the Dutch agreement) are the engine's alone."""
    assert guaranteed_rounds(14) == 7 and guaranteed_rounds(13) == 7 and guaranteed_rounds(12) == 6
    assert not needs_lookahead(_field(14, 7, random.Random(0)), 1)
    assert not needs_lookahead(_field(128, 7, random.Random(0)), 1)
    assert needs_lookahead(_field(12, 7, random.Random(0)), 1)
    assert needs_lookahead(_field(8, 5, random.Random(0)), 1)
