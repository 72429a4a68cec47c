"""The documented webhook bodies are the delivered ones (issue 14, the contract): a real delivery
of every event type a subscription can name, received on 127.0.0.1, validates against the body
schema of its webhook in the served OpenAPI document (JSON Schema 2020-12, the dialect of
OpenAPI 3.1), carries every field its partner view names and none the document does not name,
and no personal data key nor a field the view leaves out (byes, entrants, names) anywhere.
entry.decided goes to the partner that registered the entry alone."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from webhooks_kit import (
    Receiver,
    embedded_partners,
    entry_accepted,
    entry_refused,
    free_port,
    game_created,
    game_finished,
    game_started,
    messages,
    pairing,
    partner_auth,
    round_paired,
    serving,
    standings_updated,
)

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts.common import ClockSpec, Entrant, Member, Ruleset, SectionRules
from gomoku_shared.contracts.events import (
    AwardsPublished,
    BoardStat,
    Bye,
    PairingOutcome,
    RoundRescheduled,
    SectionCompleted,
    StandingRow,
)
from gomoku_shared.testing.bus import eventually
from partners.domain.webhook_payloads import LEFT_OUT, VIEWS
from partners.domain.webhooks import EVENT_TYPES, PRIVATE_KEYS

START = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
HOOKS = "/partners/v1/webhooks"


@pytest.fixture
async def suite(tmp_path):
    async with embedded_partners(tmp_path, FakeClock(START)) as (s, c):
        yield s, c


def _events() -> list[Any]:
    """One event of each webhook type, each with personal data and fields a partner does not get."""
    rules = SectionRules(rounds=5, ruleset=Ruleset(track="free"), clock=ClockSpec(base_s=600))
    paired = round_paired(pairing("p1", "a1", "b1", "app-one", "app-two"), pairing("p2", "c1", "c2", "other", None))
    finished = game_finished("p1", "a1", "b1").model_copy(
        update={"record": {"players": [{"name": "Ann", "birth_date": "2001-02-03"}]}, "moves": ["h8", "h9"]}
    )
    member = Member(player_id="a1", name="Ann", gender="female", birth_date=date(2001, 2, 3), partner_id="app-one")
    entrant = Entrant(
        entrant_id="a1", name="Ann", birth_date=date(2001, 2, 3), members=[member], attributes={"clause": "REG-4"}
    )
    return [
        paired.model_copy(update={"byes": [Bye(entrant_id="z9", points=2)]}),
        RoundRescheduled(
            event_code="WH",
            stage="main",
            section_id="S1",
            round=2,
            starts_at=START + timedelta(hours=2),
            previous_starts_at=START + timedelta(hours=1),
            reason="the hall opens late",
            decided_by="k2",
            decided_at=START,
        ),
        game_created("p1", "a1", "b1"),
        game_started("p1", "a1", "b1"),
        finished.model_copy(update={"outcome": PairingOutcome(first_points=2, second_points=0)}),
        SectionCompleted(
            event_code="WH",
            stage="main",
            section_id="S1",
            name="Open",
            rules=rules,
            standings=[StandingRow(place=1, entrant_id="a1", name="Ann", points=2.0, tiebreaks={"buchholz": 1.0})],
            entrants=[entrant],
            board_stats=[
                BoardStat(
                    entrant_id="t1",
                    player_id="a1",
                    name="Ann",
                    board=1,
                    games_played=1,
                    board_games=1,
                    points=2,
                    wins=1,
                )
            ],
            flagged_ties=[["a1", "b1"]],
            rounds_played=5,
        ),
        AwardsPublished(
            event_code="WH",
            stage="main",
            section_id="S1",
            revision=1,
            places=[{"place": 1, "name": "Ann", "birth_date": "2001-02-03", "email": "ann@example.org"}],
            prizes=[{"place": 1, "amount": 100, "attributes": {"x": 1}}],
            notes=["computed from the sections played"],
        ),
        standings_updated(after_round=3),
        entry_accepted("WH.e1", "app-one", {"WH.p00001": "u-17"}),
    ]


def _validator(document: dict[str, Any], event_type: str) -> Draft202012Validator:
    ref = document["webhooks"][event_type]["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    schema = {"$ref": ref, "components": document["components"]}
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _resolved(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _branch(document: dict[str, Any], schema: dict[str, Any], value: Any) -> dict[str, Any]:
    """The branch of an ``anyOf`` (a nullable field) that describes ``value``."""
    schema = _resolved(document, schema)
    for option in schema.get("anyOf", []):
        option = _resolved(document, option)
        kind = option.get("type")
        if (isinstance(value, dict) and kind == "object") or (isinstance(value, list) and kind == "array"):
            return option
    return schema


def _undocumented(document: dict[str, Any], schema: dict[str, Any], value: Any, where: str = "") -> list[str]:
    """The paths of the keys in ``value`` its schema does not name (free-form objects name none
    and hold anything)."""
    schema = _branch(document, schema, value)
    found: list[str] = []
    if isinstance(value, dict) and "properties" in schema:
        for key, item in value.items():
            if key not in schema["properties"]:
                found.append(f"{where}.{key}")
            else:
                found += _undocumented(document, schema["properties"][key], item, f"{where}.{key}")
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            found += _undocumented(document, schema["items"], item, f"{where}[{index}]")
    return found


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {key for item in value.values() for key in _keys(item)}
    if isinstance(value, list):
        return {key for item in value for key in _keys(item)}
    return set()


async def test_every_delivered_body_is_its_documented_schema_and_nothing_more(suite):
    s, c = suite
    one = await partner_auth(c, "app-one")
    receiver = Receiver(free_port())
    body = {"url": receiver.url, "event_types": list(EVENT_TYPES)}
    assert (await c.post(f"{HOOKS}/subscriptions", headers=one, json=body)).status_code == 201
    async with serving(receiver, receiver.port):
        await s.bus.publish(messages(*_events()))
        await eventually(lambda: len(receiver.received) == len(EVENT_TYPES), "a delivery of each type")
    document = (await c.get("/partners/openapi.json")).json()
    delivered = {b["type"]: b for b in receiver.bodies()}
    assert sorted(delivered) == sorted(EVENT_TYPES)
    for event_type, sent in delivered.items():
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator(document, event_type).iter_errors(sent)]
        assert errors == [], event_type
        schema = document["webhooks"][event_type]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert _undocumented(document, schema, sent) == [], event_type
        # every field the view names is sent (defaults too): the document is the whole body
        assert set(sent["data"]) == set(VIEWS[event_type].model_fields), event_type
        assert not _keys(sent) & (PRIVATE_KEYS | set(LEFT_OUT.get(event_type, {}))), event_type
    # round.paired: the partner's own pairing only
    assert [p["pairing_id"] for p in delivered["round.paired"]["data"]["pairings"]] == ["p1"]
    assert delivered["awards.published"]["data"]["places"] == [{"place": 1, "name": "Ann"}]
    assert delivered["game.finished"]["data"]["record"] == {"players": [{"name": "Ann"}]}
    assert delivered["standings.updated"]["data"]["after_round"] == 3
    assert delivered["standings.updated"]["data"]["standings"][0]["tiebreaks"] == {"buchholz": 1.0}
    # issue 27 finding 10: a standings row (and a board's record) carries no name and no attribute
    for event_type in ("standings.updated", "section.completed"):
        row = delivered[event_type]["data"]["standings"][0]
        assert row["entrant_id"] == "a1" and not {"name", "gender", "unit", "gender_place"} & set(row), row
    assert "name" not in delivered["section.completed"]["data"]["board_stats"][0]
    decided = delivered["entry.decided"]["data"]
    assert (decided["decision"], decided["entry_id"], decided["clause"]) == ("accepted", "WH.e1", "REG-4")
    assert decided["external_ids"] == {"WH.p00001": "u-17"} and decided["reason"] is None


def _webhooks(s):
    return s.services["partners"].extras["webhooks"]


async def test_entry_decided_reaches_the_partner_that_registered_the_entry_and_no_other(suite):
    """entry.accepted / entry.refused become entry.decided for the entry's partner alone: app-two
    gets nothing of app-one's entries nor app-one of app-two's; a staff entry goes to nobody; a
    redelivered bus message (the same event id) is one delivery (the inbox)."""
    s, c = suite
    one = await partner_auth(c, "app-one")
    two = await partner_auth(c, "app-two")
    first, second = Receiver(free_port()), Receiver(free_port())
    for auth, receiver in ((one, first), (two, second)):
        body = {"url": receiver.url, "event_types": ["entry.decided"]}
        assert (await c.post(f"{HOOKS}/subscriptions", headers=auth, json=body)).status_code == 201
    accepted = messages(entry_accepted("WH.e1", "app-one", {"WH.p00001": "u-17"}))
    others = messages(
        entry_refused("WH.e2", "app-two", {"WH.p00002": "their-9"}),
        entry_accepted("WH.e3", None),
        entry_refused("WH.e4", None),
    )
    async with serving(first, first.port), serving(second, second.port):
        await s.bus.publish(accepted + others + accepted)
        await eventually(lambda: len(first.received) == 1 and len(second.received) == 1, "the deliveries")
        await s.drain()
        assert await _webhooks(s).deliver_due() == 0  # nothing more was written
    assert len(first.received) == 1 and len(second.received) == 1
    [mine], [theirs] = first.bodies(), second.bodies()
    assert (mine["data"]["entry_id"], mine["data"]["decision"]) == ("WH.e1", "accepted")
    assert theirs["data"] == {
        "event_code": "WH",
        "stage": "main",
        "section_id": "S1",
        "entry_id": "WH.e2",
        "decision": "refused",
        "clause": "REG-6",
        "reason": "born before the section's cut-off date",
        "waiting_list": False,
        "evidence_pending": False,
        "evidence_approve_by": None,
        "external_ids": {"WH.p00002": "their-9"},
    }
    document = (await c.get("/partners/openapi.json")).json()
    assert list(_validator(document, "entry.decided").iter_errors(theirs)) == []
    assert not _keys(theirs) & (PRIVATE_KEYS | set(LEFT_OUT["entry.decided"]))
    for auth, delivered in ((one, "WH.e1"), (two, "WH.e2")):
        log = (await c.get(f"{HOOKS}/deliveries", headers=auth)).json()["items"]
        assert [d["event_type"] for d in log] == ["entry.decided"], delivered


async def test_the_check_sees_a_field_the_document_does_not_name(suite):
    """The checks above can fail: a body with an extra key in a pairing, or one of a wrong type."""
    _, c = suite
    document = (await c.get("/partners/openapi.json")).json()
    schema = document["webhooks"]["round.paired"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    sent = {
        "type": "round.paired",
        "timestamp": START.isoformat(),
        "data": {
            **VIEWS["round.paired"]
            .model_validate(round_paired(pairing("p1", "a", "b", "x", None)).model_dump())
            .model_dump(mode="json")
        },
    }
    assert _undocumented(document, schema, sent) == []
    sent["data"]["pairings"][0]["secret_note"] = "x"
    sent["data"]["byes"] = []
    assert sorted(_undocumented(document, schema, sent)) == [".data.byes", ".data.pairings[0].secret_note"]
    sent["data"]["round"] = "one"
    assert list(_validator(document, "round.paired").iter_errors(sent))
