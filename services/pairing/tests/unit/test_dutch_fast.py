"""PAIR-2: the fast Dutch engine (the adapter ``pairing.adapters.dutch``: ``FastGacruxDutch``
over ``fast.FastDutch``) pairs exactly as gacrux does.

gacrux as published (the domain's ``GacruxDutch``) is the reference: every tournament here is
paired by both, and boards, colours, byes — or the refusal — must be identical.
"""

import glob
import os
import random
from dataclasses import replace

import networkx as nx
import pytest
from gacrux.crosstabledutch import crosstable_dutch
from pairing_testkit import random_tournament

from pairing.adapters.dutch.crosstable import FastCrosstable
from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.adapters.dutch.matching import min_weight_matching
from pairing.domain.model import Code, Outcome, Player, Tournament, active_players, record_round
from pairing.domain.swiss import GacruxDutch, NoLegalPairing, pair_swiss_round
from pairing.domain.trf import import_trf

REFERENCE = GacruxDutch()
FAST = FastGacruxDutch()
DATA = os.path.join(os.path.dirname(__file__), "data", "tiebreak")


def _both(tournament, **request):
    outcomes = []
    for engine in (REFERENCE, FAST):
        try:
            outcomes.append(pair_swiss_round(tournament, engine=engine, **request))
        except NoLegalPairing:
            outcomes.append("no legal pairing")
    return outcomes


@pytest.mark.slow
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


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "t*.trf")))[::8])
def test_pair2_fast_engine_equals_gacrux_on_reference_tournaments(path):
    """Every round of every eighth reference tournament, re-paired from the history before it."""
    full = import_trf(open(path).read())
    for rnd in range(1, full.rounds_done + 1):
        tournament = replace(full, history={pid: entries[: rnd - 1] for pid, entries in full.history.items()})
        reference, fast = _both(tournament)
        assert fast == reference, (path, rnd)


@pytest.mark.slow
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


def test_pair2_an_engine_keeping_its_structures_pairs_alike_and_keeps_each_round():
    """``keep_structures`` (pairing-engine's: the process exits without freeing them) changes no
    pairing; the engine holds gacrux's engine and brackets of every round it paired."""
    rng = random.Random(7)
    keeping = FastGacruxDutch(keep_structures=True)
    tournament = Tournament(tuple(Player(i, rating=2000 - i) for i in range(1, 31)), rounds_planned=5)
    for played in range(1, 4):
        ours = pair_swiss_round(tournament, engine=keeping)
        assert ours == pair_swiss_round(tournament, engine=FAST)
        assert keeping.kept is not None and len(keeping.kept) == played
        engine, brackets = keeping.kept[-1]
        assert engine.crosstable.opponents and any(bracket and "pairs" in bracket for bracket in brackets)
        tournament = record_round(tournament, ours, {i: rng.choice(list(Outcome)[:3]) for i in range(15)})
    assert FAST.kept is None


@pytest.mark.slow
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


def _random_weighted_edges(rng: random.Random) -> list[tuple[int, int, int]]:
    size = rng.randint(1, 40)
    density = rng.random()
    weights = rng.choice(((0, 1, 2, 10**30), (5,), tuple(range(10)), (10**20, 10**20 + 1, 3 * 10**40)))
    edges = [(u, v, rng.choice(weights)) for u in range(size) for v in range(u + 1, size) if rng.random() < density]
    rng.shuffle(edges)
    return [(v, u, weight) if rng.random() < 0.5 else (u, v, weight) for u, v, weight in edges]


@pytest.mark.slow
def test_pair2_matching_equals_networkx_on_random_graphs():
    """PAIR-2: the fast engine's matching (networkx's blossom on the lighter graph) is networkx's,
    the same set in the same order, on random graphs of up to 40 vertices: sparse to complete,
    shuffled edge and node order, many ties and weights far beyond 64 bits."""
    rng = random.Random(20261202)
    for _ in range(400):
        edges = _random_weighted_edges(rng)
        graph = nx.Graph()
        graph.add_weighted_edges_from(edges)
        expected = nx.min_weight_matching(graph)
        got = min_weight_matching(edges)
        assert got == expected
        assert list(got) == list(expected)


def test_pair2_compiled_edge_filters_equal_their_python_definitions():
    """PAIR-2: the compiled per-pair loops (``_dutch_core``) keep the same edge dicts in the same
    order as gacrux's comprehensions, for plain lists and for their compact ``EdgeList`` form."""
    from pairing.adapters.dutch import _dutch_core

    rng = random.Random(7)
    for _ in range(50):
        size = rng.randint(1, 30)
        edges = [
            {"ca": low, "cb": high, "sa": rng.randint(0, 4), "sb": rng.randint(0, 4), "qc": rng.random() < 0.7}
            for low in range(size)
            for high in range(low + 1, size)
            if rng.random() < 0.8
        ]
        inside = [rng.random() < 0.7 for _ in range(size)]
        other = [rng.random() < 0.5 for _ in range(size)]
        pab = rng.randint(0, 4)
        for given in (edges, _dutch_core.compact(edges)):
            picked = _dutch_core.select_edges(given, inside, "qc")
            wanted = [edge for edge in edges if inside[edge["ca"]] and inside[edge["cb"]] and edge["qc"]]
            assert [id(edge) for edge in picked] == [id(edge) for edge in wanted]  # the same dicts
            assert _dutch_core.select_edges(given, inside, None) == [
                edge for edge in edges if inside[edge["ca"]] and inside[edge["cb"]]
            ]
            assert _dutch_core.select_cross_edges(given, inside, other) == [
                edge for edge in edges if inside[edge["ca"]] and other[edge["cb"]]
            ]
            assert _dutch_core.select_pab_edges(given, pab) == [
                edge for edge in edges if edge["ca"] != 0 or edge["sb"] == pab
            ]
            stop = rng.randint(0, len(edges))
            assert _dutch_core.head(given, stop) == edges[:stop]
            nodes = [{"cid": cid} for cid in range(size)]
            expected_hist = [0] * size
            for edge in edges:
                expected_hist[edge["ca"]] += 1
                expected_hist[edge["cb"]] += 1
            assert _dutch_core.whohasmet_histogram(nodes, given) == expected_hist
            ordered, highs = _dutch_core.hamilton_order(given)
            keys = [(max(e["sa"], e["sb"]), min(e["sa"], e["sb"])) for e in edges]
            order = sorted(range(len(edges)), key=keys.__getitem__)
            assert list(ordered) == [edges[index] for index in order]
            assert highs == [keys[index][0] for index in order]


class _ViaGacruxTiebreaks(FastCrosstable):
    """The fast crosstable reading its players' data from gacrux's tiebreaks (the reference)."""

    def compute_tiebreak(self, tournament, rnd):
        return crosstable_dutch.compute_tiebreak(self, tournament, rnd)


def _competitor_records(crosstable_type, tournament, participants, exemption):
    rnd = tournament.rounds_done + 1
    tour, _ = FAST.round_structure(tournament, rnd, participants, exemption)
    crosstable = crosstable_type([], False, 0)
    competitors, _ = crosstable.init_engine(tour, rnd, 1, tour["topColor"], "cid")
    fields = ("cid", "rnk", "pts", "ptx", "acc", "acx", "rfp", "num", "rip", "cod", "csq", "flt", "top", "cop", "tpn")
    # values and their representation (a Decimal's exponent); of the registration history
    # (hst), pairing reads only its value
    return [
        ({field: (value, repr(value)) for field, value in record.items() if field in fields}, record["hst"].get("val"))
        for record in competitors
    ]


def _assert_same_records(tournament, request=None, exemption=False):
    byes = set((request or {}).get("requested_byes", ()))
    participants = active_players(tournament, tournament.rounds_done + 1, exclude=byes)
    if len(participants) < 2:
        return
    direct = _competitor_records(FastCrosstable, tournament, participants, exemption)
    assert direct == _competitor_records(_ViaGacruxTiebreaks, tournament, participants, exemption)


@pytest.mark.slow
def test_pair2_pairing_records_equal_gacrux_tiebreaks_on_random_tournaments():
    """PAIR-2: the players' pairing data computed alone (``adapters.dutch.records``) equals what gacrux's
    tiebreaks give, value for value (scores, pairing scores, games, colours, floats, topscorers),
    on random fields with forfeits, byes, late entries and withdrawals, with and without the
    final-round topscorer exemption."""
    rng = random.Random(20261203)
    for index in range(300):
        tournament, request = random_tournament(rng, 2, 40)
        _assert_same_records(tournament, request, exemption=index % 3 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "t*.trf"))))
def test_pair2_pairing_records_equal_gacrux_tiebreaks_on_reference_tournaments(path):
    """PAIR-2: the same on every round of every reference tournament."""
    full = import_trf(open(path).read())
    for rnd in range(1, full.rounds_done + 1):
        tournament = replace(full, history={pid: entries[: rnd - 1] for pid, entries in full.history.items()})
        _assert_same_records(tournament, exemption=rnd == full.rounds_planned)


def test_pair2_edges_sorted_while_made_equal_the_sorted_scan():
    """PAIR-2: the sorted list of pairs that can meet, collected while the edges are made
    (``build_edges``), is the list the compiled scan of the finished table gives (``sorted_edges``,
    gacrux's ``list_edges``): the same dicts in the same order; with forbidden pairs in the round
    it is not used."""
    from pairing.adapters.dutch import _dutch_core

    rng = random.Random(20261204)
    used = 0
    for _ in range(120):
        tournament, request = random_tournament(rng, 2, 40)
        participants = active_players(tournament, tournament.rounds_done + 1, exclude=set(request["requested_byes"]))
        if len(participants) < 2:
            continue
        rnd = tournament.rounds_done + 1
        tour, _ = FAST.round_structure(tournament, rnd, participants)
        crosstable = FastCrosstable([], False, 0)
        _, opponents = crosstable.init_engine(tour, rnd, 1, tour["topColor"], "cid")
        scanned = _dutch_core.sorted_edges(opponents)
        if any(group.first_round <= rnd <= group.last_round for group in tournament.forbidden):
            assert crosstable.sorted_edges is None
            continue
        assert [id(edge) for edge in crosstable.sorted_edges] == [id(edge) for edge in scanned]
        used += 1
    assert used > 60


def test_pair2_created_edges_equal_the_built_edges():
    """PAIR-2: an edge made one at a time (``FastCrosstable.create_edge``, what gacrux's pairing
    calls for the bye candidate) equals the one ``build_edges`` made for the same pair, key for
    key in the same order, and both equal gacrux's own ``create_edge`` (both share
    ``_dutch_core.EDGE_TEMPLATE``); forbidden pairs (changed after building) aside."""
    rng = random.Random(20261202)
    compared = 0
    for _ in range(40):
        tournament, request = random_tournament(rng, 2, 24)
        participants = active_players(tournament, tournament.rounds_done + 1, exclude=set(request["requested_byes"]))
        rnd = tournament.rounds_done + 1
        if len(participants) < 2 or any(group.first_round <= rnd <= group.last_round for group in tournament.forbidden):
            continue
        tour, _ = FAST.round_structure(tournament, rnd, participants)
        crosstable = FastCrosstable([], False, 0)
        competitors, opponents = crosstable.init_engine(tour, rnd, 1, tour["topColor"], "cid")
        for high, second in enumerate(competitors):
            met = [opponent for key, opponent in second["num"].items() if key != "val"]
            for low in range(high + 1):
                built = opponents[low][high]
                created = crosstable.create_edge(competitors[low], second, met)
                reference = crosstable_dutch.create_edge(crosstable, competitors[low], second, met)
                assert list(created.items()) == list(built.items()) == list(reference.items())
                compared += 1
    assert compared > 1000


def _snapshotting(engine_type):
    """``engine_type`` keeping, after each round it pairs, every edge dict as the round left it."""

    class Snapshotting(engine_type):
        taken: list = []

        def compute_pairing(self, checkonly, reportlevel=0):
            brackets = super().compute_pairing(checkonly, reportlevel)
            rows = self.crosstable.opponents
            Snapshotting.taken.append([[list(edge.items()) for edge in row if edge is not None] for row in rows])
            return brackets

    return Snapshotting


_REFERENCE_SNAPSHOTTING = _snapshotting(GacruxDutch().algorithm())
_FAST_SNAPSHOTTING = _snapshotting(FastGacruxDutch().algorithm())


class _ReferenceSnapshots(GacruxDutch):
    def algorithm(self):
        return _REFERENCE_SNAPSHOTTING


class _FastSnapshots(FastGacruxDutch):
    def algorithm(self):
        return _FAST_SNAPSHOTTING


@pytest.mark.slow
def test_pair2_fast_edges_end_each_round_as_gacrux_leaves_them():
    """Every edge dict (quality criteria, the HE/HO weights, the weight and mode of the
    matching) ends each round key for key and value for value as gacrux's own leaves it: the
    compiled criteria and weights compute gacrux's values, not only the same pairing."""
    rng = random.Random(33)
    weighed = set()
    for _ in range(40):
        tournament, request = random_tournament(rng, 8, 30)
        _REFERENCE_SNAPSHOTTING.taken.clear()
        _FAST_SNAPSHOTTING.taken.clear()
        for engine in (_ReferenceSnapshots(), _FastSnapshots()):
            try:
                pair_swiss_round(tournament, engine=engine, **request)
            except NoLegalPairing:
                pass
        assert _FAST_SNAPSHOTTING.taken == _REFERENCE_SNAPSHOTTING.taken
        weighed.update(
            (key, bool(value))
            for edges in _FAST_SNAPSHOTTING.taken
            for row in edges
            for item in row
            for key, value in item
            if key in ("heweight", "howeight", "mode")
        )
    assert weighed >= {("heweight", True), ("howeight", True), ("mode", True)}  # the loops ran


def _matrix(opponents):
    return [[list(edge.items()) for edge in row] for row in opponents]


def test_pair2_edge_table_makes_each_pairs_dict_on_first_read_as_gacrux_builds_it():
    """PAIR-2: the round's edges kept in arrays (``_dutch_core.EdgeTable``) make no dict until one
    is read; read, every pair's dict (forbidden pairs included) is key for key gacrux's own, the
    same dict both ways; a bye weight given before a dict is made (``pab_weighted_pairs``, gacrux's
    ``compute_pab_weight``) is in it when it is made; the edge lists read as lists."""
    from pairing.adapters.dutch import _dutch_core

    rng = random.Random(20261207)
    forbidden = 0
    for _ in range(60):
        tournament, request = random_tournament(rng, 2, 30)
        participants = active_players(tournament, tournament.rounds_done + 1, exclude=set(request["requested_byes"]))
        if len(participants) < 2:
            continue
        rnd = tournament.rounds_done + 1
        tour, _ = FAST.round_structure(tournament, rnd, participants)
        ours, theirs = FastCrosstable([], False, 0), crosstable_dutch([], False, 0)
        _, opponents = ours.init_engine(tour, rnd, 1, tour["topColor"], "cid")
        _, reference = theirs.init_engine(tour, rnd, 1, tour["topColor"], "cid")
        table = ours.edge_table
        width = table.width
        assert len(opponents) == width and not any(table.is_made(a, b) for a in range(width) for b in range(width))
        first, second = rng.randrange(width), rng.randrange(width)
        assert opponents[first][second] is opponents[second][first] is opponents[-width + first][second]
        assert table.is_made(first, second) and table.is_made(second, first)
        edges = _dutch_core.sorted_edges(opponents)
        listed = sorted(
            [edge for index, line in enumerate(reference) for edge in line[index + 1 : -1] if edge["canmeet"]],
            key=lambda edge: (-min(edge["sa"], edge["sb"]), -max(edge["sa"], edge["sb"]), edge["ca"], edge["cb"]),
        )
        assert _dutch_core.pab_weighted_pairs(edges) == [
            (edge["ca"], edge["cb"], edge["sb"] if edge["ca"] == 0 else 0) for edge in listed
        ]
        theirs.compute_pab_weight(listed)
        assert _matrix(opponents) == _matrix(reference)
        assert edges == listed and list(edges) == listed and edges[1:-1] == listed[1:-1] and edges[::2] == listed[::2]
        if listed:
            assert edges[-1] is edges[len(edges) - 1] and edges[0]["ca"] == listed[0]["ca"]
        assert opponents[0][1:3] == reference[0][1:3]
        forbidden += bool(tournament.forbidden)
    assert forbidden > 5


def test_pair2_a_late_round_makes_a_fraction_of_its_edge_dicts():
    """PAIR-2: pairing a late round of 128 players reads (so makes) the dicts of a fraction of its
    8,515 pairs: the lists and filters of the whole field read the table's arrays."""
    rng = random.Random(1000)
    outcomes = [Outcome.FIRST_WINS] * 5 + [Outcome.SECOND_WINS] * 4 + [Outcome.DRAW] * 2
    tournament = Tournament(tuple(Player(i, rating=2600 - 7 * i) for i in range(1, 129)), rounds_planned=9)
    for _ in range(6):
        tournament = record_round(
            tournament, pair_swiss_round(tournament, engine=FAST), {i: rng.choice(outcomes) for i in range(64)}
        )
    keeping = FastGacruxDutch(keep_structures=True)
    assert pair_swiss_round(tournament, engine=keeping) == pair_swiss_round(tournament, engine=REFERENCE)
    table = keeping.kept[0][0].crosstable.edge_table
    made = sum(table.is_made(low, high) for low in range(table.width) for high in range(low, table.width))
    assert 0 < made < table.width * (table.width + 1) // 8


def test_pair2_hamilton_order_equals_the_stable_sort_for_any_levels():
    """PAIR-2: ``hamilton_order`` (a counting sort on the two score levels) is gacrux's stable sort
    on (max, min) of them, also with levels its counting cannot index (below zero)."""
    from pairing.adapters.dutch import _dutch_core

    rng = random.Random(20261208)
    for lowest in (0, -2):
        for _ in range(30):
            edges = [
                {
                    "ca": rng.randint(0, 9),
                    "cb": rng.randint(0, 9),
                    "sa": rng.randint(lowest, 5),
                    "sb": rng.randint(lowest, 5),
                }
                for _ in range(rng.randint(0, 60))
            ]
            ordered, highs = _dutch_core.hamilton_order(edges)
            keys = [(max(edge["sa"], edge["sb"]), min(edge["sa"], edge["sb"])) for edge in edges]
            order = sorted(range(len(edges)), key=keys.__getitem__)
            assert [id(edge) for edge in ordered] == [id(edges[index]) for index in order]
            assert highs == [keys[index][0] for index in order]
