"""The sim's arbiter chooses each section's format at closing (PAIR-1), offline (fast)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from gomoku_sim.bots import BotPolicy
from gomoku_sim.registering import Registering, fits_round_robin
from gomoku_sim.run_spec import RunSpec, load_config
from pairing.adapters.dutch.fast import FastGacruxDutch
from pairing.domain import NoLegalPairing
from pairing.domain.model import Outcome, Player, Tournament, record_round
from pairing.domain.swiss import pair_swiss_round


def choices(counts: dict[str, int]) -> dict:
    spec = RunSpec(preset_id="sz-2022", seed=2022, event_code="fmt", sizes=counts, policy=BotPolicy())
    arbiter = SimpleNamespace(config=load_config("sz-2022"), spec=spec)
    return Registering.format_choices(arbiter, "online", counts)  # type: ignore[arg-type]


def test_pair1_a_field_that_fits_a_round_robin_plays_one_instead_of_an_unpairable_swiss():
    """PAIR-1/PAIR-2: 8 entrants and 7 rounds (SZ free rules) is a round robin — a Swiss of that many
    rounds would have to pair everyone with everyone anyway."""
    picked = choices({"men-free": 8, "women-free": 16, "men-pro": 6, "women-pro": 7})
    assert picked["men-free"] == {"kind": "round_robin"}
    assert picked["men-pro"] == {"kind": "round_robin"}  # 6 entrants: 5 rounds, as the Swiss
    assert picked["women-free"] == {"kind": "swiss", "rounds": 7}  # 16: a round robin takes 15
    # 7: a round robin takes 7 (a bye each); the Swiss keeps the preset's 5 (SZ 九(一), PAIR-1)
    assert picked["women-pro"] == {"kind": "swiss", "rounds": 5}


def test_pair1_sz_9_1_a_small_swiss_keeps_the_regulations_rounds():
    """PAIR-1, SZ 九(一): 10 entrants (free rules, 7 rounds in the preset): a round robin takes 9,
    so a Swiss of the preset's 7 rounds (the pairing's look-ahead keeps them pairable); 14 too."""
    picked = choices({"men-free": 10, "women-free": 14, "men-pro": 9, "women-pro": 0})
    assert picked["men-free"] == {"kind": "swiss", "rounds": 7}
    assert picked["women-free"] == {"kind": "swiss", "rounds": 7}
    assert picked["men-pro"] == {"kind": "swiss", "rounds": 5}


@pytest.mark.parametrize(("entrants", "rounds", "fits"), [(8, 7, True), (7, 7, True), (9, 7, False), (1, 7, False)])
def test_pair3_round_robin_rounds_with_a_dummy_for_an_odd_field(entrants, rounds, fits):
    """PAIR-3: n-1 rounds for an even field, n for an odd one (a dummy gives one bye per round)."""
    assert fits_round_robin(entrants, rounds) is fits


def test_pair1_sz_9_1_a_seven_round_swiss_of_eight_never_runs_out_of_legal_pairings():
    """PAIR-1/PAIR-2, SZ 九(一): a 7-round Swiss of 8 players, which the Dutch system alone walks
    into a round with no legal pairing for some results, completes for every result sequence
    here: each round is paired so that the remaining rounds can still be paired."""
    stuck = 0
    for seed in range(12):
        rng = random.Random(seed)
        played = Tournament(players=tuple(Player(pid, rating=2000 - pid) for pid in range(1, 9)), rounds_planned=7)
        try:
            for _ in range(7):
                pairing = pair_swiss_round(played, engine=FastGacruxDutch())
                outcomes = {index: rng.choice(list(Outcome)[:3]) for index in range(len(pairing.boards))}
                played = record_round(played, pairing, outcomes)
        except NoLegalPairing:
            stuck += 1
    assert stuck == 0
