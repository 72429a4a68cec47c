"""Every contract has a published JSON Schema; a change that breaks consumers fails here.

To publish a compatible change (e.g. a new optional field), re-export:
``.venv/bin/python -m gomoku_shared.contracts.export shared/schemas``.
A breaking change needs a new contract version instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gomoku_shared.contracts import PAYLOADS, json_schemas
from gomoku_shared.contracts.compat import breaking_changes

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = ROOT / "shared" / "schemas"
EXPECTED_TYPES = {
    "event.configured",
    "event.access_changed",
    "entry.accepted",
    "entry.refused",
    "entry.withdrawn",
    "section.closed",
    "round.paired",
    "standings.updated",
    "section.completed",
    "playoff.required",
    "game.created",
    "game.started",
    "game.finished",
    "result.decided",
    "awards.published",
    "qualifiers.selected",
    # partners (not in the architecture's first list: partner accounts came later)
    "partner.registered",
    "partner.credentials_revoked",
    # AWD-10 appeals: recorded in pairing, their fees in registration's ledger
    "appeal.lodged",
    "appeal.decided",
    # EVT-7: an arbiter delays a round (gameplay moves the games' start, partners are told)
    "round.rescheduled",
    # issue 32: the season — rating lists to registration, registry merges and splits to awards
    "ratings.published",
    "people.merged",
    "people.split",
}


def test_one_contract_per_event_of_the_architecture():
    assert set(PAYLOADS) == EXPECTED_TYPES
    assert {p.stem for p in SNAPSHOTS.glob("*.json")} == EXPECTED_TYPES


@pytest.mark.parametrize("event_type", sorted(EXPECTED_TYPES))
def test_contract_is_compatible_with_its_published_schema(event_type):
    published = json.loads((SNAPSHOTS / f"{event_type}.json").read_text())
    current = json_schemas()[event_type]
    problems = breaking_changes(published, current)
    assert not problems, f"{event_type} changed incompatibly (publish a new version instead): {problems}"


def test_envelope_fields_are_in_every_schema():
    for event_type, schema in json_schemas().items():
        assert {"event_id", "type", "version", "occurred_at", "correlation_id", "causation_id", "payload"} <= set(
            schema["properties"]
        ), event_type


def test_compatibility_checker_flags_removed_retyped_and_newly_required_fields():
    old = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}
    assert breaking_changes(old, old) == []
    added = {"type": "object", "properties": {**old["properties"], "c": {"type": "string"}}, "required": ["a"]}
    assert breaking_changes(old, added) == []
    removed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    assert any("removed" in p for p in breaking_changes(old, removed))
    retyped = {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a"]}
    assert any("type changed" in p for p in breaking_changes(old, retyped))
    required = {**old, "required": ["a", "b"]}
    assert any("became required" in p for p in breaking_changes(old, required))
