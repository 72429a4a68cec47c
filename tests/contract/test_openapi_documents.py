"""Every service's OpenAPI document is a contract a partner can build on (issue 14, the contract):
it validates as OpenAPI 3.1, declares how to authenticate, and every successful answer has a
schema that names its fields (no untyped ``{}`` object)."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.testing.documented_answers import AnswerChecker

SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
#: (service, METHOD, path, status): a 2xx answer still documented without named fields, with why.
#: Empty today; an entry must still offend (a stale entry fails the test), so the list only shrinks.
UNTYPED_ALLOWED: dict[tuple[str, str, str, str], str] = {}
#: keys of a schema that say what a value holds besides ``properties``
SHAPING_KEYS = ("properties", "anyOf", "oneOf", "allOf", "items", "$ref", "enum", "const")


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict[str, dict[str, Any]]:
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path_factory.mktemp("contract")), DATA_KEY="k" * 32), only=list(SERVICES)
    )
    return {name: service.app.openapi() for name, service in suite.services.items()}


def _resolved(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _untyped(document: dict[str, Any], schema: dict[str, Any] | None) -> bool:
    """No schema, ``{}``, or an object that names none of its fields (``additionalProperties`` only)."""
    if schema is None:
        return True
    schema = _resolved(document, schema)
    if not schema:
        return True
    return schema.get("type", "object") == "object" and not any(key in schema for key in SHAPING_KEYS)


def untyped_answers(service: str, document: dict[str, Any]) -> set[tuple[str, str, str, str]]:
    found = set()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for status, response in operation.get("responses", {}).items():
                if not status.startswith("2") or status == "204":
                    continue
                contents = response.get("content") or {"": {}}
                if any(_untyped(document, content.get("schema")) for content in contents.values()):
                    found.add((service, method.upper(), path, status))
    return found


@pytest.mark.parametrize("service", SERVICES)
def test_the_document_is_valid_openapi_3_1(documents, service):
    document = documents[service]
    assert document["openapi"].startswith("3.1")
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in OpenAPIV31SpecValidator(document).iter_errors()]
    assert errors == []


def test_the_validator_refuses_a_broken_document(documents):
    """The check above can fail: a response without its required description is refused."""
    broken = copy.deepcopy(documents["registration"])
    operation = broken["paths"]["/v1/presets"]["get"]
    del operation["responses"]["200"]["description"]
    assert list(OpenAPIV31SpecValidator(broken).iter_errors())


@pytest.mark.parametrize("service", SERVICES)
def test_security_schemes_are_declared_and_every_requirement_names_one(documents, service):
    document = documents[service]
    schemes = document["components"]["securitySchemes"]
    assert {"ApiKey", "OAuth2"} <= schemes.keys()
    secured = 0
    for item in document["paths"].values():
        for operation in item.values():
            for requirement in operation.get("security", []):
                secured += 1
                assert requirement.keys() <= schemes.keys(), requirement
    assert secured, f"{service}: no operation declares a credential"


@pytest.mark.parametrize("service", SERVICES)
def test_every_successful_answer_names_its_fields(documents, service):
    found = untyped_answers(service, documents[service])
    allowed = {key for key in UNTYPED_ALLOWED if key[0] == service}
    assert found - allowed == set(), "give these answers a response model (gomoku_shared.api_docs.documented)"
    assert allowed - found == set(), "these are typed now: drop them from UNTYPED_ALLOWED"


def test_the_untyped_check_sees_an_untyped_answer(documents):
    """The check above can fail: `{}`, an object of additionalProperties only, and no content at all."""
    document = copy.deepcopy(documents["registration"])
    responses = document["paths"]["/v1/presets"]["get"]["responses"]
    for shape in ({}, {"type": "object", "additionalProperties": True}, None):
        responses["200"]["content"] = {"application/json": {"schema": shape}} if shape is not None else {}
        assert ("registration", "GET", "/v1/presets", "200") in untyped_answers("registration", document)


async def test_the_answer_checker_refuses_an_answer_its_schema_does_not_allow(documents):
    """The service kits check every successful answer with it (registration_kit, pairing_kit)."""
    checker = AnswerChecker(documents["registration"])
    request = httpx.Request("GET", "http://registration/v1/presets")
    await checker(httpx.Response(200, json={"presets": [{"id": "sz-2022", "name": "SZ"}]}, request=request))
    assert checker.checked == 1
    with pytest.raises(AssertionError, match="presets/0/name"):
        await checker(httpx.Response(200, json={"presets": [{"id": "sz-2022", "name": 7}]}, request=request))


def test_issue_28_the_home_pages_fields_are_in_registrations_contract(documents):
    """Issue 28: what the portal's home and pages read of registration is documented: the events'
    list with its names in both languages, dates, place, organiser and status, found by ``q``;
    the event with the Chinese names of its stages, sections and fee items."""
    doc = documents["registration"]
    schemas = doc["components"]["schemas"]
    listed = set(schemas["ListedEvent"]["properties"])
    assert {"name_zh", "starts_on", "ends_on", "timezone", "organiser", "organiser_zh", "venue", "venue_zh"} <= listed
    assert "status" in schemas["ListedEvent"]["required"]
    assert {"name_zh", "organiser", "venue", "starts_on", "ends_on", "fee_items"} <= set(
        schemas["EventView"]["properties"]
    )
    for part in ("StageInfo", "SectionInfo", "FeeItemName"):
        assert "name_zh" in schemas[part]["properties"], part
    q = next(p for p in doc["paths"]["/v1/events"]["get"]["parameters"] if p["name"] == "q")
    bounds = next(s for s in q["schema"]["anyOf"] if s.get("type") == "string")
    assert (bounds["minLength"], bounds["maxLength"]) == (1, 64)
