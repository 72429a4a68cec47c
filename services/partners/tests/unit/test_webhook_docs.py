"""The webhooks a partner receives are part of the published contract (issue 14): the partners
service's OpenAPI 3.1 document has a ``webhooks`` section with one operation per event type a
subscription can name, its body (``type``, ``timestamp``, ``data``: the contract payload) and the
Standard Webhooks signature headers; the document passes the OpenAPI 3.1 validator."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from gomoku_shared.contracts import PAYLOADS
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings
from partners.domain.webhooks import EVENT_TYPES

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
    payload = PAYLOADS[event_type].model_json_schema()
    assert set(data["properties"]) == set(payload["properties"])  # the contract payload, field by field
    assert {"204", "default"} <= operation["responses"].keys()


def test_the_webhooks_need_no_credential_of_the_platform(document):
    """They are requests the platform sends: the signature authenticates them, no API key or token."""
    assert all("security" not in item["post"] for item in document["webhooks"].values())
