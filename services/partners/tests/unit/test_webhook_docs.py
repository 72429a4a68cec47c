"""The webhooks a partner receives are part of the published contract (issue 14): the partners
service's OpenAPI 3.1 document has a ``webhooks`` section with one operation per event type a
subscription can name, its body (``type``, ``timestamp``, ``data``: the partner's view of the event,
the model that builds the delivered body) and the Standard Webhooks signature headers; the document
passes the OpenAPI 3.1 validator."""

from __future__ import annotations

from typing import Any, get_args

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from gomoku_shared.contracts import PAYLOADS
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings
from partners.domain.webhook_payloads import DERIVED, LEFT_OUT, SOURCES, VIEWS
from partners.domain.webhooks import EVENT_TYPES
from partners.entrypoints.webhook_schemas import EventType, SubscriptionIn

HEADERS = {"webhook-id", "webhook-timestamp", "webhook-signature"}


@pytest.fixture(scope="module")
def document(tmp_path_factory) -> dict[str, Any]:
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path_factory.mktemp("hooks")), DATA_KEY="k" * 32), only=["partners"]
    )
    return suite.services["partners"].app.openapi()


def _resolved(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def test_the_document_with_its_webhooks_is_valid_openapi_3_1(document):
    assert document["openapi"].startswith("3.1")
    assert [f"{list(e.absolute_path)}: {e.message}" for e in OpenAPIV31SpecValidator(document).iter_errors()] == []


def test_every_subscribable_event_type_is_a_documented_webhook(document):
    assert list(document["webhooks"]) == list(EVENT_TYPES)
    # and a subscription may name each of them (all at once too)
    assert get_args(EventType) == EVENT_TYPES == tuple(VIEWS)
    assert SubscriptionIn(url="https://example.org/h", event_types=list(EVENT_TYPES)).event_types


@pytest.mark.parametrize("event_type", EVENT_TYPES)
def test_each_webhook_names_its_body_and_the_signature_headers(document, event_type):
    operation = document["webhooks"][event_type]["post"]
    headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
    assert headers.keys() == HEADERS and all(h["required"] for h in headers.values())
    assert "HMAC-SHA256" in headers["webhook-signature"]["description"]
    body = _resolved(document, operation["requestBody"]["content"]["application/json"]["schema"])
    assert set(body["required"]) == {"type", "timestamp", "data"}
    assert body["properties"]["type"]["const"] == event_type
    data = _resolved(document, body["properties"]["data"])
    # the partner view that builds the body, field by field; none of the fields left out
    assert set(data["properties"]) == set(VIEWS[event_type].model_fields)
    assert not set(data["properties"]) & set(LEFT_OUT.get(event_type, {}))
    assert {"204", "default"} <= operation["responses"].keys()


def test_the_webhooks_need_no_credential_of_the_platform(document):
    """They are requests the platform sends: the signature authenticates them, no API key or token."""
    assert all("security" not in item["post"] for item in document["webhooks"].values())


@pytest.mark.parametrize("event_type", EVENT_TYPES)
def test_each_partner_view_names_every_contract_field_but_those_left_out_with_a_reason(event_type):
    """A field the contract payload gains is not sent (nor documented) until its partner view
    names it or LEFT_OUT says why not; a view names no field the contract does not have (but
    those it derives: entry.decided's ``decision`` is which of its two bus events it was)."""
    sources = SOURCES.get(event_type, (event_type,))
    contract = {name for source in sources for name in PAYLOADS[source].model_fields}
    contract |= DERIVED.get(event_type, frozenset())
    view = set(VIEWS[event_type].model_fields)
    left = set(LEFT_OUT.get(event_type, {}))
    assert view <= contract and view | left == contract and not view & left


def test_round_paired_and_section_completed_document_their_left_out_fields(document):
    assert "byes" in document["webhooks"]["round.paired"]["post"]["description"]
    assert "entrants" in document["webhooks"]["section.completed"]["post"]["description"]
