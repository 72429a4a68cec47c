"""PAIR-2: the compiled blossom matching of the Dutch adapter (``pairing.adapters.dutch``:
``_blossom``, 128-bit, and ``_blossom_wide``, 384-bit: one source, ``_blossom_core.pxi``) is
networkx's, and a pairing process imports neither networkx nor pydantic.

networkx's ``max_weight_matching`` stays the reference: each build must return the same set (so
the same total weight) in the same iteration order on random graphs with many ties, and make the
same choice in every matching the Dutch engine asks for on reference tournaments.
"""

import glob
import os
import random
import subprocess
import sys
from dataclasses import replace

import networkx as nx
import pytest
from networkx.algorithms.matching import max_weight_matching as networkx_max_weight_matching

from pairing.adapters.dutch import _blossom, _blossom_wide, fast, matching
from pairing.domain.swiss import NoLegalPairing, pair_swiss_round
from pairing.domain.trf import import_trf

DATA = os.path.join(os.path.dirname(__file__), "data", "tiebreak")


BUILDS = {"128-bit": _blossom, "384-bit": _blossom_wide}


def _random_graph(rng: random.Random, most: int, widest: int = 119) -> tuple[list[int], list[tuple[int, int, int]]]:
    size = rng.randint(1, most)
    density = rng.random()
    weights = rng.choice(
        ((1,), (0, 1, 2), tuple(range(10)), (10**20, 10**20 + 1, 2**90), (0, 2**widest), (3, 2**widest - 1, 2**widest))
    )
    edges = [(u, v, rng.choice(weights)) for u in range(size) for v in range(u + 1, size) if rng.random() < density]
    rng.shuffle(edges)
    edges = [(v, u, weight) if rng.random() < 0.5 else (u, v, weight) for u, v, weight in edges]
    nodes = list(range(size))
    rng.shuffle(nodes)
    return nodes, edges


def _weight(chosen: set, edges: list[tuple[int, int, int]]) -> int:
    by_pair = {frozenset((u, v)): weight for u, v, weight in edges}
    return sum(by_pair[frozenset(pair)] for pair in chosen)


@pytest.mark.parametrize("maxcardinality", [False, True])
@pytest.mark.parametrize("build", sorted(BUILDS))
def test_pair2_compiled_max_weight_matching_is_networkx_on_random_graphs(build, maxcardinality):
    """Same set, same order, same weight: sparse to complete graphs of up to 30 vertices in
    shuffled node and edge order, with few distinct weights (many optimal matchings tie) and
    weights far beyond 64 bits (up to each build's ``MAX_BITS``)."""
    compiled = BUILDS[build]
    rng = random.Random(3301 + maxcardinality)
    for _ in range(300):
        nodes, edges = _random_graph(rng, 30, compiled.MAX_BITS - 1)
        graph = nx.Graph()
        graph.add_nodes_from(nodes)
        graph.add_weighted_edges_from(edges)
        expected = networkx_max_weight_matching.orig_func(graph, maxcardinality=maxcardinality)
        got = compiled.max_weight_matching(nodes, edges, maxcardinality)
        assert got == expected, (nodes, edges)
        assert list(got) == list(expected)
        assert _weight(got, edges) == _weight(expected, edges)


@pytest.mark.parametrize("build", sorted(BUILDS))
def test_pair2_compiled_min_weight_matching_is_networkx_with_repeated_edges_and_loops(build):
    """The engine's call: an edge given twice keeps its first place and its last weight, a
    self-loop counts only for the largest weight, as in ``networkx.min_weight_matching``."""
    compiled = BUILDS[build]
    rng = random.Random(3302)
    for _ in range(300):
        _, edges = _random_graph(rng, 20, compiled.MAX_BITS - 1)
        if edges and rng.random() < 0.5:
            u, v, _weight_ = rng.choice(edges)
            edges.append((v, u, rng.randint(0, 50)))
        if edges and rng.random() < 0.3:
            edges.insert(rng.randrange(len(edges)), (edges[0][0], edges[0][0], rng.randint(0, 80)))
        graph = nx.Graph()
        graph.add_weighted_edges_from(edges)
        expected = nx.min_weight_matching(graph)
        got = compiled.min_weight_matching(edges)
        assert got is not None
        assert list(got) == list(expected), edges


def test_pair2_weights_a_build_does_not_take_go_to_the_next():
    """Inverted weights over 120 bits go from the 128-bit build to the 384-bit one; non-integer
    weights, or over ``_blossom_wide.MAX_BITS`` bits, to networkx (``None`` from both);
    ``matching.min_weight_matching`` returns networkx's answer in every case."""
    rng = random.Random(3303)
    cases = (((0.5, 1.5, 2.0), False), ((True, False), False), ((0, 2**200), True), ((0, 2**376 + 1), False))
    for weights, wide_takes_it in cases:
        for _ in range(30):
            size = rng.randint(2, 14)
            edges = [(u, v, rng.choice(weights)) for u in range(size) for v in range(u + 1, size) if rng.random() < 0.6]
            if not edges or all(weight == edges[0][2] for *_, weight in edges):
                continue
            assert _blossom.min_weight_matching(edges) is None
            assert (_blossom_wide.min_weight_matching(edges) is not None) == wide_takes_it
            graph = nx.Graph()
            graph.add_weighted_edges_from(edges)
            assert list(matching.min_weight_matching(edges)) == list(nx.min_weight_matching(graph))
    for compiled in BUILDS.values():
        assert compiled.min_weight_matching([]) == set()
        assert compiled.max_weight_matching([], [], True) == set()


def test_pair2_engine_matchings_equal_networkx_on_reference_tournaments(monkeypatch):
    """Every matching the fast engine asks for while re-pairing every round of every third
    reference tournament (8 to 128 players): the compiled answer is networkx's, set and order;
    a few of these calls have weights over 120 bits (the 384-bit build answers them)."""
    calls = []
    wide = []

    def both(edges):
        got = matching.min_weight_matching(edges)
        assert list(got) == list(matching.networkx_min_weight_matching(edges)), edges
        calls.append(len(edges))
        wide.append(_blossom.min_weight_matching(edges) is None)
        return got

    monkeypatch.setattr(fast, "min_weight_matching", both)
    for path in sorted(glob.glob(os.path.join(DATA, "t*.trf")))[::3]:
        full = import_trf(open(path).read())
        for rnd in range(1, full.rounds_done + 1):
            tournament = replace(full, history={pid: entries[: rnd - 1] for pid, entries in full.history.items()})
            try:
                pair_swiss_round(tournament, engine=fast.FastGacruxDutch(), topscorer_exemption=True)
            except NoLegalPairing:
                pass
    assert len(calls) > 300 and max(calls) > 1000 and any(wide)


_PAIR_IN_A_FRESH_PROCESS = """
import sys
from pairing.cli import main
from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain.model import Player, Tournament
from pairing.domain.swiss import GacruxDutch, pair_swiss_round
tournament = Tournament(tuple(Player(i, rating=2000 - i) for i in range(1, 21)), rounds_planned=5)
fast = pair_swiss_round(tournament, engine=FastGacruxDutch())
print(sorted(name for name in ("networkx", "pydantic") if name in sys.modules))
reference = pair_swiss_round(tournament, engine=GacruxDutch())
import gacrux.pairingdutch as published
found = published.nx.min_weight_matching
import networkx
print(reference == fast, found is networkx.min_weight_matching)
"""


def test_pair2_pairing_process_imports_neither_networkx_nor_pydantic():
    """``pairing-engine``'s imports and a fast pairing leave networkx and pydantic unimported;
    gacrux's published engine (the reference) still finds networkx, on first use."""
    done = subprocess.run([sys.executable, "-c", _PAIR_IN_A_FRESH_PROCESS], capture_output=True, text=True, check=True)
    assert done.stdout.split("\n")[:2] == ["[]", "True True"], done.stdout + done.stderr
