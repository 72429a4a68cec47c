"""A round as pairing publishes it, for the tests that drive served processes: one game of
alice (black) against bob, which gameplay creates from the ``round.paired`` event."""

from __future__ import annotations

from datetime import UTC, datetime

from gomoku_shared.contracts.common import ClockSpec, Ruleset
from gomoku_shared.contracts.events import PairingSpec, RoundPaired


def one_game_round(event_code: str, *, partner: str | None = None) -> RoundPaired:
    """Round 1 of section S1 (stage main): alice against bob, one game under free rules with 30
    minutes sudden death. The processes run on the system clock: the round starts now, far from
    its no-show deadline (two hours). ``partner``: the partner app both players entered through."""
    return RoundPaired(
        event_code=event_code,
        stage="main",
        section_id="S1",
        round=1,
        starts_at=datetime.now(UTC),
        no_show_minutes=120,
        pairings=[
            PairingSpec(
                pairing_id="p1",
                first="alice",
                second="bob",
                games=1,
                ruleset=Ruleset(track="free"),
                clock=ClockSpec(kind="sudden_death", base_s=1800, increment_s=0),
                first_partner=partner,
                second_partner=partner,
            )
        ],
    )
