"""PAIR-3: round robin by FIDE Berger tables, a dummy (bye) for odd fields."""

import itertools
import json
import os

import pytest

from pairing.domain.berger import berger_round, berger_table, pair_round_robin
from pairing.domain.model import Code

DATA = os.path.join(os.path.dirname(__file__), "data", "berger_tables.json")
TABLES = json.load(open(DATA))["tables"]


@pytest.mark.parametrize("n", range(3, 25))
def test_pair3_berger_table_equals_fide_reference(n):
    ref = {int(r): [tuple(p) for p in pairs] for r, pairs in TABLES[str(n)]["rounds"].items()}
    assert berger_table(n) == ref


@pytest.mark.parametrize("n", [3, 4, 7, 10, 15, 24])
def test_pair3_everyone_meets_everyone_once_and_odd_fields_get_one_bye_per_round(n):
    seeds = [100 + i for i in range(n)]
    met = set()
    byes = []
    for r in range(1, n + (n % 2)):
        rp = pair_round_robin(seeds, r)
        assert len(rp.boards) == n // 2
        for b in rp.boards:
            key = frozenset((b.first, b.second))
            assert key not in met
            met.add(key)
        assert all(c is Code.PAIRING_BYE for c in rp.byes.values())
        byes.extend(rp.byes)
        assert len(rp.byes) == n % 2
    assert met == {frozenset(p) for p in itertools.combinations(seeds, 2)}
    if n % 2:
        assert sorted(byes) == seeds  # each player sits out exactly once


def test_pair3_double_round_robin_swaps_colours_in_second_cycle():
    seeds = [1, 2, 3, 4]
    first = pair_round_robin(seeds, 1, double=True)
    second = pair_round_robin(seeds, 4, double=True)
    assert [(b.second, b.first) for b in first.boards] == [(b.first, b.second) for b in second.boards]
    with pytest.raises(ValueError):
        pair_round_robin(seeds, 7, double=True)


def test_berger_round_rejects_bad_round():
    with pytest.raises(ValueError):
        berger_round(6, 6)
