"""PAIR-1 / EVT-7 at closing: a section's format keeps the regulation's maximum of rounds (NT 七(二)
不超过7轮, binding; DA 七(四) 原则上不超过7轮, which the organiser may exceed with a recorded
reason) and never has a round without a scheduled start. A refusal names the formats that fit."""

from __future__ import annotations

import pytest

from registration import presets
from registration.domain import RoundLimitExceeded, RoundsOption, check_round_limits, max_swiss_rounds
from registration.domain.model import Verdict

EVENTS = {code: presets.load(code) for code in ("nt-2023", "da-2023", "sz-2022", "ny-2022")}


def _swiss(entrants: int, limit: int) -> RoundsOption:
    """The Swiss a refusal offers: the limit, or fewer if the field cannot be promised more (PAIR-2)."""
    return RoundsOption("swiss", min(limit, max_swiss_rounds(entrants)))


@pytest.mark.parametrize(
    ("event", "section", "entrants", "kind", "rounds", "scheduled", "reason", "outcome"),
    [
        # NT 七(二): the 9-team round robin has 9 rounds, the maximum and the schedule 7
        ("nt-2023", "mixed-team", 9, "round_robin", 9, 7, None, ("refused", "PAIR-1", False, (_swiss(9, 7),))),
        # ... and a reason does not move a binding maximum, even with 9 rounds scheduled
        ("nt-2023", "mixed-team", 9, "round_robin", 9, 9, "more games", ("refused", "PAIR-1", False, (_swiss(9, 7),))),
        ("nt-2023", "mixed-team", 8, "round_robin", 7, 7, None, None),
        ("nt-2023", "junior-boys-team", 7, "round_robin", 7, 7, None, None),
        ("nt-2023", "junior-girls-team", 16, "swiss", 7, 7, None, None),
        (
            "nt-2023",
            "junior-girls-team",
            16,
            "swiss",
            8,
            8,
            "time left",
            ("refused", "PAIR-1", False, (_swiss(16, 7),)),
        ),
        # DA 七(四): in principle — beyond 7 only with a reason, and only onto scheduled rounds
        ("da-2023", "open", 8, "round_robin", 7, 7, None, None),
        (
            "da-2023",
            "open",
            9,
            "round_robin",
            9,
            9,
            None,
            ("refused", "PAIR-1", True, (_swiss(9, 7),)),
        ),
        ("da-2023", "open", 9, "round_robin", 9, 9, "all nine play each other", ("admitted",)),
        ("da-2023", "public", 9, "round_robin", 9, 7, "all nine", ("refused", "PAIR-1", False, (_swiss(9, 7),))),
        # EVT-7: no round without a scheduled start, whatever the maximum (SZ professional: 5 slots)
        (
            "sz-2022",
            "men-pro",
            10,
            "round_robin",
            9,
            5,
            None,
            ("refused", "EVT-7", False, (_swiss(10, 5),)),
        ),
        ("sz-2022", "men-pro", 6, "round_robin", 5, 5, None, None),
        ("sz-2022", "men-free", 16, "swiss", 7, 7, None, None),
        # a section without slots is unscheduled: its rounds start when published
        ("ny-2022", "junior-male", 10, "round_robin", 9, 0, None, None),
    ],
)
def test_pair1_evt7_round_limits_at_closing(event, section, entrants, kind, rounds, scheduled, reason, outcome):
    """PAIR-1 (NT 七(二), DA 七(四)) / EVT-7: the rounds a closing section may play, table-driven."""
    sec = EVENTS[event].section(section)
    if outcome is None:
        assert check_round_limits(sec, entrants, kind, rounds, scheduled, reason) is None
    elif outcome[0] == "admitted":
        decision = check_round_limits(sec, entrants, kind, rounds, scheduled, reason)
        assert decision is not None and decision.rule == "PAIR-1" and decision.outcome is Verdict.ADMITTED
        assert reason in decision.reason and f"maximum of {sec.format.max_rounds}" in decision.reason
    else:
        _, rule, override, options = outcome
        with pytest.raises(RoundLimitExceeded) as refused:
            check_round_limits(sec, entrants, kind, rounds, scheduled, reason)
        exc = refused.value
        assert ("EVT-7" if exc.over_schedule else "PAIR-1") == rule
        assert exc.override_allowed is override and exc.options == options
        assert rule in str(exc) and f"{entrants} entrants plays {rounds} rounds" in str(exc)


def test_pair1_the_seeds_maximum_and_how_it_binds_are_preset_configuration():
    """PAIR-1: NT 七(二) 不超过7轮 binds; DA 七(四) 原则上不超过7轮 holds in principle; SZ and NY set none."""
    binding = {
        (code, sec.id): (sec.format.max_rounds, sec.format.max_rounds_binding)
        for code, ev in EVENTS.items()
        for stage in ev.stages
        for sec in stage.sections
        if sec.format is not None and sec.format.max_rounds is not None
    }
    assert {k: v for k, v in binding.items() if k[0] == "nt-2023"} == {
        ("nt-2023", s): (7, "strict") for s in ("mixed-team", "junior-boys-team", "junior-girls-team")
    }
    assert {k: v for k, v in binding.items() if k[0] == "da-2023"} == {
        ("da-2023", s): (7, "in_principle") for s in ("open", "junior", "public")
    }
    assert not [k for k in binding if k[0] in ("sz-2022", "ny-2022")]


@pytest.mark.parametrize(("round_robin_max_entries", "valid"), [(8, True), (7, True), (9, False), (10, False)])
def test_pair1_a_preset_that_picks_the_round_robin_itself_keeps_the_maximum(round_robin_max_entries, valid):
    """PAIR-1 (DA 七(四), a fifth event's `by_entries`): a preset whose own round robin could take
    more rounds than its maximum is refused when loaded, not at closing where nobody could choose."""
    from gomoku_shared.event_config import EventConfigError

    overrides = {
        "stages": {
            "main": {
                "sections": {
                    "open": {
                        "format": {
                            "choice": "by_entries",
                            "round_robin_max_entries": round_robin_max_entries,
                            "max_rounds_binding": "strict",
                        }
                    }
                }
            }
        }
    }
    if valid:
        assert presets.load("da-2023", overrides=overrides).section("open").format.max_rounds == 7
    else:
        with pytest.raises(EventConfigError, match="more than max_rounds 7"):
            presets.load("da-2023", overrides=overrides)
