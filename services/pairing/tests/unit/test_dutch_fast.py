"""PAIR-2: the fast Dutch engine (``dutch_fast.FastDutch``) pairs exactly as gacrux does.

gacrux as published (``GacruxDutch(fast=False)``) is the reference: every tournament here is
paired by both, and boards, colours, byes — or the refusal — must be identical.
"""

import glob
import os
import random
from dataclasses import replace

import networkx as nx
import pytest
from pairing_testkit import random_tournament

from pairing.domain.dutch_fast import min_weight_matching
from pairing.domain.model import Code, Outcome, Player, Tournament, record_round
from pairing.domain.swiss import GacruxDutch, NoLegalPairing, pair_swiss_round
from pairing.domain.trf import import_trf

REFERENCE = GacruxDutch(fast=False)
FAST = GacruxDutch()
DATA = os.path.join(os.path.dirname(__file__), "data", "tiebreak")


def _both(tournament, **request):
    outcomes = []
    for engine in (REFERENCE, FAST):
        try:
            outcomes.append(pair_swiss_round(tournament, engine=engine, **request))
        except NoLegalPairing:
            outcomes.append("no legal pairing")
    return outcomes


def test_pair2_fast_engine_equals_gacrux_on_random_tournaments():
    """Random fields with forfeits, byes, late entries, withdrawals and forbidden pairs."""
    rng = random.Random(20261201)
    compared = 0
    for _ in range(120):
        tournament, request = random_tournament(rng)
        reference, fast = _both(tournament, **request)
        assert fast == reference
        compared += reference != "no legal pairing"
    assert compared > 95


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "t*.trf")))[::8])
def test_pair2_fast_engine_equals_gacrux_on_reference_tournaments(path):
    """Every round of every eighth reference tournament, re-paired from the history before it."""
    full = import_trf(open(path).read())
    for rnd in range(1, full.rounds_done + 1):
        tournament = replace(full, history={pid: entries[: rnd - 1] for pid, entries in full.history.items()})
        reference, fast = _both(tournament)
        assert fast == reference, (path, rnd)


def test_pair2_fast_engine_equals_gacrux_on_a_late_round_of_128():
    """A 128-player section paired round by round by the reference, each round compared."""
    rng = random.Random(1000)
    outcomes = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2
    tournament = Tournament(tuple(Player(i, rating=2600 - 7 * i) for i in range(1, 129)), rounds_planned=7)
    for _ in range(6):
        reference, fast = _both(tournament)
        assert fast == reference
        assert sum(1 for code in reference.byes.values() if code is Code.PAIRING_BYE) == 0
        tournament = record_round(tournament, reference, {i: rng.choice(outcomes) for i in range(64)})


def test_pair2_matching_equals_networkx_including_ties():
    """The matching is networkx's algorithm on a lighter graph: same set, same iteration order,
    also when many matchings tie (few distinct weights)."""
    rng = random.Random(5)
    for _ in range(300):
        size = rng.randint(2, 24)
        edges = [
            (u, v, rng.choice((0, 1, 2, 10**30))) for u in range(size) for v in range(u + 1, size) if rng.random() < 0.4
        ]
        graph = nx.Graph()
        graph.add_weighted_edges_from(edges)
        expected = nx.min_weight_matching(graph)
        got = min_weight_matching(edges)
        assert got == expected
        assert list(got) == list(expected)
