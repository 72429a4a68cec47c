"""Envelopes survive the wire: encode → bus message → decode gives the same typed event."""

from __future__ import annotations

import json
import uuid

import pytest

from gomoku_shared.contracts import decode, encode, envelope_for
from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import GameFinished, RoundPaired, SectionClosed
from gomoku_shared.contracts.registry import UnknownEventType


def _rules() -> SectionRules:
    return SectionRules(
        rounds=5,
        ruleset=Ruleset(track="professional", fixed_n=2),
        clock=ClockSpec(kind="fischer", base_s=1800, increment_s=15),
    )


def test_section_closed_carries_rules_and_entrants_across_the_wire():
    payload = SectionClosed(
        event_code="sz-2022",
        stage="online",
        section_id="men-pro",
        name="Men (pro)",
        status="ready",
        rules=_rules(),
        entrants=[Entrant(entrant_id="p1", name="A", gender="male")],
    )
    env = envelope_for(payload, correlation_id="sz-2022")
    msg = encode(env)
    assert msg.routing_key == "section.closed" and msg.message_id == str(env.event_id)
    back = decode(msg)
    assert back == env and isinstance(back.payload, SectionClosed)
    assert back.payload.rules.clock.increment_s == 15


def test_tolerant_reader_ignores_unknown_fields_and_rejects_unknown_types():
    env = envelope_for(
        GameFinished(
            event_code="e",
            section_id="s",
            round=1,
            pairing_id="p",
            game_id="g",
            black="a",
            white="b",
            winner="a",
            result="black",
            reason="five",
        ),
        correlation_id="e",
    )
    raw = json.loads(encode(env).body)
    raw["payload"]["a_field_from_the_future"] = 1
    raw["another"] = True
    assert decode(json.dumps(raw).encode()).payload.winner == "a"
    raw["type"] = "game.exploded"
    with pytest.raises(UnknownEventType):
        decode(json.dumps(raw).encode())


def test_deterministic_event_id_when_given():
    eid = uuid.UUID(int=7)
    env = envelope_for(
        RoundPaired(event_code="e", stage="s", section_id="x", round=1, pairings=[]), correlation_id="e", event_id=eid
    )
    assert env.event_id == eid
