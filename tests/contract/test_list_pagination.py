"""Every list endpoint pages by cursor (issue 14, the contract): ``limit`` and ``cursor`` query
parameters and a ``next_cursor`` in the answer, documented in each service's OpenAPI. A GET whose
answer holds a list is a list endpoint unless it is one document (a game, a standings table, a
ranking...) named below with the reason; a new list endpoint without pagination fails here."""

from __future__ import annotations

from typing import Any

import pytest

from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")
#: (service, path): answers holding lists that are parts of one document, not lists of records
DOCUMENTS: dict[tuple[str, str], str] = {
    ("registration", "/v1/presets"): "the platform's fixed presets (four), not records",
    ("registration", "/v1/events/{event_code}"): "an event and its configured stages",
    ("registration", "/v1/events/{event_code}/entries/{entry_id}"): "one entry with its players and decisions",
    ("registration", "/v1/events/{event_code}/stages/{stage}"): "one stage with its sections",
    ("registration", "/v1/events/{event_code}/fees"): "the fee report of an event (totals with their entries)",
    ("registration", "/v1/events/{event_code}/schedule"): "the event's schedule, one document (and .ics)",
    ("registration", "/v1/events/{event_code}/players/{player_id}/schedule"): "one player's schedule",
    ("registration", "/v1/events/{event_code}/partners"): "the partner apps chosen for one event (issue 29), "
    "with the choices made, one document",
    ("registration", "/v1/events/{event_code}/quota-exemptions"): "the exemption list in force (the previous "
    "edition's top N by section) with its loads, one document",
    ("registration", "/v1/events/{event_code}/public-entries/form"): "what the public entry form asks, section by "
    "section (issue 34)",
    ("registration", "/v1/registrant"): "one entry, as its registrant reads it by the secret link (issue 34)",
    ("registration", "/v1/registrant/documents"): "one entry's documents as its registrant reads them, bounded "
    "by the bytes an entry may keep (issue 34)",
    ("registration", "/v1/organisations/{org}/people/{person_id}"): "one person of an organisation's registry "
    "with their event records and the audit of what was done to them (issue 32)",
    ("registration", "/v1/delegation/documents"): "one delegation's documents as its leader reads them, bounded "
    "by the bytes a delegation may keep (issue 34)",
    ("registration", "/v1/events/{event_code}/delegations/form"): "what a delegation's roster asks: sections, "
    "rooms, services (issue 34)",
    ("registration", "/v1/delegation"): "one delegation as its leader reads it by the secret link, bounded by the "
    "roster's 80 people (issue 34)",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}"): "one section with its entrants",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}/rounds/{n}"): "one round's pairings",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}/standings"): "a standings table (ranked whole)",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}/crosstable"): "a cross table (ranked whole)",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}/ties"): "the ties of one section's standings",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}/byes"): "the byes of the rounds still to pair",
    ("pairing", "/v1/events/{event_code}/sections/{section_id}/round-times"): "one section's round times",
    ("gameplay", "/v1/games/{game_id}"): "one game: its board and moves",
    ("gameplay", "/v1/games/{game_id}/record"): "one game's record",
    ("awards", "/v1/events/{event_code}"): "an event's awards status, one row per section",
    ("awards", "/v1/events/{event_code}/sections/{section_id}/awards"): "one publication's awards",
    ("awards", "/v1/events/{event_code}/sections/{section_id}/standings"): "one publication's standings",
    ("awards", "/v1/events/{event_code}/sections/{section_id}/prizes"): "one publication's prizes",
    ("awards", "/v1/events/{event_code}/sections/{section_id}/titles"): "one publication's titles",
    ("awards", "/v1/events/{event_code}/sections/{section_id}/certificates"): "one publication's certificates",
    ("awards", "/v1/events/{event_code}/sections/{section_id}/best-boards"): "one publication's best boards",
    ("awards", "/v1/events/{event_code}/teams"): "team rankings (ranked whole)",
    ("awards", "/v1/events/{event_code}/teams/{team_section_id}"): "one team ranking",
    ("awards", "/v1/events/{event_code}/qualifiers"): "the qualifier lists of an event (ranked whole)",
    ("awards", "/v1/events/{event_code}/honours"): "the honours register of an event, one document",
    ("awards", "/v1/organisations/{org}/people/{person_id}/titles"): "one person's titles: the current one and "
    "every grant (issue 32)",
    ("awards", "/v1/organisations/{org}/people/{person_id}/rating"): "one person's rating after each period (issue 32)",
    ("awards", "/v1/organisations/{org}/people/{person_id}/events"): "one person's sections with their rated "
    "games, bounded by the events they played (issue 32)",
    ("awards", "/v1/organisations/{org}/title-ladder"): "one organisation's titles in precedence order (issue 32)",
    ("awards", "/v1/organisations/{org}/ratings/{period}"): "one period's published rating list, ranked whole "
    "like a standings table (issue 32)",
    ("awards", "/v1/events/{event_code}/honours/certificates"): "the honours' certificates, one document",
    ("awards", "/v1/organisations/{org}/titles"): "a lookup of the people asked by id (at most 100), "
    "not a list of records (issue 32)",
    ("awards", "/v1/events/{event_code}/title-certificates"): "one event's title certificates, bounded by its "
    "sections' title tables (issue 32)",
    ("awards", "/v1/events/{event_code}/honours/register"): "the honours register, one document",
    (
        "awards",
        "/v1/events/{event_code}/honours/register/certificates",
    ): "the honours' certificates in full, one document",
    (
        "awards",
        "/v1/events/{event_code}/honours/units",
    ): "the units of an event's published results, one list to choose from",
    ("partners", "/.well-known/jwks.json"): "a JSON Web Key Set (RFC 7517), fetched whole",
    ("partners", "/v1/partners/{partner_id}"): "one partner with its credentials",
    ("partners", "/v1/webhooks/subscriptions/{subscription_id}"): "one subscription",
    ("partners", "/v1/invitations/{token}"): "one invitation with the roles it grants",
    ("partners", "/v1/staff/me"): "the signed-in person: one account with its organisations and roles",
}


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict[str, dict[str, Any]]:
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path_factory.mktemp("paging")), DATA_KEY="k" * 32), only=list(SERVICES)
    )
    return {name: service.app.openapi() for name, service in suite.services.items()}


def _resolved(document: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def list_endpoints(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """GET path -> its operation, for every answer that holds a list at its top level."""
    found = {}
    for path, item in document["paths"].items():
        operation = item.get("get")
        content = (operation or {}).get("responses", {}).get("200", {}).get("content", {})
        schema = content.get("application/json", {}).get("schema")
        if schema is None:
            continue
        properties = _resolved(document, schema).get("properties", {})
        if any(_resolved(document, value).get("type") == "array" for value in properties.values()):
            found[path] = operation
    return found


@pytest.mark.parametrize("service", SERVICES)
def test_every_list_endpoint_pages_by_cursor(documents, service):
    document = documents[service]
    unpaged = []
    for path, operation in list_endpoints(document).items():
        if (service, path) in DOCUMENTS:
            continue
        params = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "query"}
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        answer = _resolved(document, schema).get("properties", {})
        if not ({"limit", "cursor"} <= params.keys() and "next_cursor" in answer):
            unpaged.append(path)
    assert unpaged == [], f"{service}: page these (gomoku_shared.pagination) or name them in DOCUMENTS"


@pytest.mark.parametrize("service", SERVICES)
def test_every_named_document_is_still_a_get_with_a_list(documents, service):
    """A stale name in DOCUMENTS fails: the list of exceptions only shrinks."""
    named = {path for (owner, path) in DOCUMENTS if owner == service}
    assert named - set(list_endpoints(documents[service])) == set()


def test_the_check_sees_a_list_endpoint_without_a_cursor(documents):
    """The check above can fail: registration's entries without their ``cursor`` parameter."""
    import copy

    document = copy.deepcopy(documents["registration"])
    operation = document["paths"]["/v1/events/{event_code}/entries"]["get"]
    operation["parameters"] = [p for p in operation["parameters"] if p["name"] != "cursor"]
    with pytest.raises(AssertionError, match="page these"):
        test_every_list_endpoint_pages_by_cursor({"registration": document}, "registration")
