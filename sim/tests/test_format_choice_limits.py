"""The sim's arbiter keeps the regulation's maximum of rounds and the schedule's rounds when it
chooses a format at closing (PAIR-1: NT 七(二) 不超过7轮; EVT-7: no round without a start)."""

from __future__ import annotations

from types import SimpleNamespace

from gomoku_sim.bots import BotPolicy
from gomoku_sim.registering import Registering
from gomoku_sim.run_spec import RunSpec, load_config
from registration.domain import max_swiss_rounds


def choices(counts: dict[str, int], rounds: int | None = None) -> dict:
    spec = RunSpec(preset_id="nt-2023", seed=2023, event_code="fmt", sizes=counts, policy=BotPolicy(), rounds=rounds)
    arbiter = SimpleNamespace(config=load_config("nt-2023"), spec=spec)
    return Registering.format_choices(arbiter, "main", counts)  # type: ignore[arg-type]


def test_pair1_nt_nine_teams_play_a_swiss_within_seven_rounds_eight_a_round_robin():
    """PAIR-1 (NT 七(二)): 9 teams would take a 9-round round robin, so a Swiss of at most 7;
    8 teams play the round robin's 7 rounds."""
    picked = choices({"mixed-team": 9, "junior-boys-team": 8, "junior-girls-team": 0})
    assert picked["mixed-team"] == {"kind": "swiss", "rounds": min(7, max_swiss_rounds(9))}
    assert picked["junior-boys-team"] == {"kind": "round_robin"}


def test_pair1_evt7_a_run_asking_more_rounds_keeps_the_maximum_and_the_schedule():
    """PAIR-1 / EVT-7: a run spec asking 9 rounds still closes NT sections with at most 7."""
    picked = choices({"mixed-team": 20, "junior-boys-team": 16, "junior-girls-team": 12}, rounds=9)
    assert {c["kind"] for c in picked.values()} == {"swiss"}
    assert all(c["rounds"] <= 7 for c in picked.values()), picked
    assert picked["mixed-team"]["rounds"] == 7
