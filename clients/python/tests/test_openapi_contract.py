"""The client against the contract: every route it calls and every model it reads or sends is
checked against the OpenAPI document each service serves (the documents of
tests/contract/test_openapi_documents.py), so a drift on either side fails here.

Per route: the path and method exist; every query parameter and header the client sends is
declared; the request body model has the document's fields, types and required fields; the
answer model's every field exists in the document's answer schema with the same type and the
same required-ness (an answer may carry more fields than the client names: clients must ignore
unknown fields); refusals use the common error shape the client's ``ErrorBody`` parses.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import BaseModel

from gomoku_client import models as m
from gomoku_client import routes as r
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings

FORM = "application/x-www-form-urlencoded"


@pytest.fixture(scope="module")
def documents(tmp_path_factory) -> dict[str, dict[str, Any]]:
    suite = EmbeddedSuite(
        ServiceSettings(DATA_DIR=str(tmp_path_factory.mktemp("client-contract")), DATA_KEY="k" * 32),
        only=list(r.SERVICES),
    )
    return {name: service.app.openapi() for name, service in suite.services.items()}


# --------------------------------------------------------------------------- schema comparison


def _resolve(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _kind(schema: dict[str, Any]) -> str:
    if "anyOf" in schema or "oneOf" in schema:
        return "anyOf"
    if "enum" in schema or "const" in schema:
        return "enum"
    if "properties" in schema:
        return "object"
    return str(schema.get("type", "any"))


def _values(schema: dict[str, Any]) -> set[Any]:
    return set(schema["enum"]) if "enum" in schema else {schema["const"]}


def diff(
    client: dict[str, Any],
    cdefs: dict[str, Any],
    served: dict[str, Any],
    sdefs: dict[str, Any],
    where: str,
    *,
    request: bool,
) -> list[str]:
    """How the client's schema differs from the served one (empty: they agree). ``request``: the
    client's body must also carry every field the document requires."""
    c, s = _resolve(client, cdefs), _resolve(served, sdefs)
    kc, ks = _kind(c), _kind(s)
    if kc != ks:
        return [f"{where}: the client has {kc}, the document {ks}"]
    if kc == "anyOf":
        calts = [_resolve(x, cdefs) for x in c.get("anyOf", c.get("oneOf", []))]
        salts = [_resolve(x, sdefs) for x in s.get("anyOf", s.get("oneOf", []))]
        if sorted(map(_kind, calts)) != sorted(map(_kind, salts)):
            return [f"{where}: the client allows {sorted(map(_kind, calts))}, the document {sorted(map(_kind, salts))}"]
        found: list[str] = []
        for kind in {_kind(x) for x in calts}:
            for ca, sa in zip([x for x in calts if _kind(x) == kind], [x for x in salts if _kind(x) == kind]):
                found += diff(ca, cdefs, sa, sdefs, f"{where}<{kind}>", request=request)
        return found
    if kc == "enum":
        return [] if _values(c) == _values(s) else [f"{where}: values {sorted(_values(c))} vs {sorted(_values(s))}"]
    if kc == "array":
        return diff(c.get("items", {}), cdefs, s.get("items", {}), sdefs, f"{where}[]", request=request)
    if kc == "string":
        return [] if c.get("format") == s.get("format") else [f"{where}: format {c.get('format')} vs {s.get('format')}"]
    if kc == "object" and "properties" in c:
        return _object_diff(c, cdefs, s, sdefs, where, request=request)
    if kc == "object":  # a map: compare what its values are (absent: anything)
        cv, sv = c.get("additionalProperties", True), s.get("additionalProperties", True)
        if isinstance(cv, dict) and isinstance(sv, dict):
            return diff(cv, cdefs, sv, sdefs, f"{where}{{}}", request=request)
        return [] if (cv in (True, {})) == (sv in (True, {})) else [f"{where}: map values {cv} vs {sv}"]
    return []  # integer, number, boolean, null, any: the kind says it all


def _object_diff(
    c: dict[str, Any], cdefs: dict[str, Any], s: dict[str, Any], sdefs: dict[str, Any], where: str, *, request: bool
) -> list[str]:
    found: list[str] = []
    cprops, sprops = c["properties"], s.get("properties", {})
    creq, sreq = set(c.get("required", [])), set(s.get("required", []))
    for name, schema in cprops.items():
        if name not in sprops:
            found.append(f"{where}.{name}: not in the document")
            continue
        if (name in creq) != (name in sreq):
            found.append(f"{where}.{name}: required {name in creq} in the client, {name in sreq} in the document")
        found += diff(schema, cdefs, sprops[name], sdefs, f"{where}.{name}", request=request)
    if request:
        found += [
            f"{where}.{name}: required by the document, missing in the client" for name in sorted(sreq - set(cprops))
        ]
    return found


def model_diff(model: type[BaseModel], served: dict[str, Any], sdefs: dict[str, Any], *, request: bool) -> list[str]:
    schema = model.model_json_schema(mode="serialization" if request else "validation")
    return diff(schema, schema.get("$defs", {}), served, sdefs, model.__name__, request=request)


# --------------------------------------------------------------------------- the routes


def _operation(documents: dict[str, dict[str, Any]], route: r.Route[Any]) -> dict[str, Any]:
    document = documents[route.service]
    assert route.path in document["paths"], f"{route.service} serves no {route.path}"
    item = document["paths"][route.path]
    assert route.method.lower() in item, f"{route.service} {route.path} has no {route.method}"
    return item[route.method.lower()]


def route_problems(documents: dict[str, dict[str, Any]], route: r.Route[Any]) -> list[str]:
    document = documents[route.service]
    sdefs = document["components"]["schemas"]
    operation = _operation(documents, route)
    declared = {(p["in"], p["name"].lower()) for p in operation.get("parameters", [])}
    found = [f"query {q}: not declared" for q in route.query if ("query", q) not in declared]
    sent_headers = {*route.headers, *(("idempotency-key",) if route.idempotent else ())}
    found += [f"header {h}: not declared" for h in sorted(sent_headers) if ("header", h) not in declared]
    if route.idempotent is False and ("header", "idempotency-key") in declared:
        found.append("the route takes an Idempotency-Key the client does not send")
    body = operation.get("requestBody")
    if route.body is None:
        if body and body.get("required"):
            found.append("the document requires a body the client does not send")
    else:
        media = FORM if route.form else "application/json"
        content = (body or {}).get("content", {})
        if media not in content:
            found.append(f"the document takes no {media} body")
        else:
            found += model_diff(route.body, content[media]["schema"], sdefs, request=True)
    answers = operation["responses"]
    if str(route.status) not in answers:
        found.append(f"the document has no {route.status} answer (it has {sorted(answers)})")
    elif route.answer is not r.NoContent:
        content = answers[str(route.status)].get("content", {})
        if route.media not in content:
            found.append(f"the {route.status} answer has no {route.media} content")
        else:
            found += model_diff(route.answer, content[route.media]["schema"], sdefs, request=False)
    return found


@pytest.mark.parametrize("route", r.ALL, ids=lambda route: f"{route.service}:{route.method}:{route.path}")
def test_the_route_and_its_models_match_the_served_document(documents, route):
    assert route_problems(documents, route) == []


@pytest.mark.parametrize("service", r.SERVICES)
def test_refusals_have_the_shape_the_client_parses(documents, service):
    """The common error shape, as the client's ErrorBody reads it, and every refusal of the
    routes the client calls uses it (the token endpoint: the RFC 6749 body of OAuthErrorBody)."""
    document = documents[service]
    sdefs = document["components"]["schemas"]
    assert model_diff(m.ErrorBody, {"$ref": "#/components/schemas/Error"}, sdefs, request=True) == []
    for route in (x for x in r.ALL if x.service == service):
        for status, answer in _operation(documents, route)["responses"].items():
            if status.startswith(("4", "5")):
                schema = answer["content"]["application/json"]["schema"]
                shapes = {alt["$ref"].rsplit("/", 1)[-1] for alt in schema.get("anyOf", [schema])}
                # the token endpoint answers RFC 6749 bodies, and the common shape for what
                # every route may refuse (a body too large): TokenError reads both
                expected = {"OAuthErrorView", "Error"} if route is r.TOKEN else {"Error"}
                assert shapes <= expected, (route.path, status, schema)
    if service == "partners":
        oauth = {"$ref": "#/components/schemas/OAuthErrorView"}
        assert model_diff(m.OAuthErrorBody, oauth, sdefs, request=False) == []


def test_a_board_is_the_game_summary_with_its_stones_and_clocks(documents):
    """The round's boards read answers each game as its summary (every field of it: winner,
    outcome, playoff...) plus stones and clocks, and the client's Board reads it as a GameSummary."""
    sdefs = documents["gameplay"]["components"]["schemas"]
    summary, board = sdefs["GameSummary"], sdefs["BoardView"]
    assert set(summary["properties"]) <= set(board["properties"])
    assert set(board.get("required", [])) - set(summary.get("required", [])) == {
        "moves",
        "board",
        "forbidden",
        "opening",
        "clocks",
    }
    assert issubclass(m.Board, m.GameSummary)
    assert model_diff(m.Board, {"$ref": "#/components/schemas/BoardView"}, sdefs, request=False) == []


def test_every_client_method_calls_a_checked_route():
    """Each public method of the clients reaches the platform through a route of routes.ALL."""
    import inspect

    from gomoku_client import aio, endpoints

    # the endpoint methods both clients share, and the stream (each client's own)
    source = inspect.getsource(endpoints.Endpoints) + inspect.getsource(aio.AsyncClient)
    used = {name for name in dir(r) if isinstance(getattr(r, name), r.Route) and f"r.{name}" in source}
    checked = {name for name in dir(r) if isinstance(getattr(r, name), r.Route) and getattr(r, name) in r.ALL}
    assert used <= checked
    # and every checked route has a method (a route in ALL that no method calls is dead weight)
    assert checked - used <= {"TOKEN", *(name for name in checked if getattr(r, name) in r.ACTIONS.values())}
    assert {route.path for route in r.ACTIONS.values()} <= {route.path for route in r.ALL}


# --------------------------------------------------------------------------- the check can fail


def test_a_renamed_or_retyped_or_newly_required_field_is_caught(documents):
    drifted = copy.deepcopy(documents)
    summary = drifted["gameplay"]["components"]["schemas"]["GameSummary"]
    summary["properties"]["seq"] = {"type": "string"}
    assert any("GameSummary.seq" in p for p in route_problems(drifted, r.MOVE))
    summary["properties"]["sequence"] = summary["properties"].pop("seq")
    assert any("seq: not in the document" in p for p in route_problems(drifted, r.MOVE))
    body = drifted["gameplay"]["components"]["schemas"]["MoveBody"]
    body["properties"]["clock_ms"] = {"type": "integer"}
    body["required"].append("clock_ms")
    assert any("clock_ms: required by the document" in p for p in route_problems(drifted, r.MOVE))
    status = drifted["gameplay"]["components"]["schemas"]["GameView"]["properties"]["status"]
    status["enum"] = ["waiting", "active", "finished", "paused"]
    assert any("status" in p and "values" in p for p in route_problems(drifted, r.GAME))


def test_a_moved_route_or_an_undeclared_parameter_is_caught(documents):
    drifted = copy.deepcopy(documents)
    games = drifted["gameplay"]["paths"]["/v1/games"]["get"]
    games["parameters"] = [p for p in games["parameters"] if p["name"] != "player"]
    assert route_problems(drifted, r.GAMES) == ["query player: not declared"]
    drifted["gameplay"]["paths"]["/v1/matches/{game_id}"] = drifted["gameplay"]["paths"].pop("/v1/games/{game_id}")
    with pytest.raises(AssertionError, match="serves no /v1/games/"):
        route_problems(drifted, r.GAME)
    optional = copy.deepcopy(documents)
    optional["gameplay"]["components"]["schemas"]["GameSummary"]["required"].remove("to_act")
    assert any("to_act: required True in the client" in p for p in route_problems(optional, r.JOIN))
