"""A lean lane for the player-action routes (``POST /v1/games/{game_id}/{action}``).

Moves are nearly all of the gameplay service's traffic, and the general request pipeline
(routing, dependency solving, request objects, exception middleware) cost more CPU than
judging and storing a move. This pure ASGI middleware serves exactly the routes declared in
``api.py`` (same body models, same key check, same error shape, same answers) and hands every
other request on. The FastAPI routes stay the documented contract (OpenAPI) and serve the same
requests when the lane is not installed; tests run the same requests through both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from gomoku_shared.auth import ACTING_ROLES, KeyRing, presented_credential
from gomoku_shared.errors import ServiceError, error_body
from gomoku_shared.idempotency import HEADER, KEY_MAX, REPLAYED_HEADER, route_path
from gomoku_shared.scopes import required_scope
from gomoku_shared.web import ROUTE_SCOPE_KEY

from ..domain.errors import GameRefusal
from ..service_layer.commands import Act
from ..service_layer.refusals import as_service_error

MAX_BODY = 64 * 1024
PREFIX = "/v1/games/"
#: what an access token needs for these routes (gomoku_shared.scopes): the same for every action
SCOPE = required_scope("gameplay", "POST")
#: the answer's JSON, the encoder made once (``json.dumps`` with options builds one per call)
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode

#: action route -> (body model, the (kind, data) of its ``Act`` command)
Route = tuple[type[BaseModel], Callable[[Any], tuple[str, dict | None]]]


class PlayerActionLane:
    def __init__(self, app, *, games, keyring: KeyRing, routes: dict[str, Route], strip, keyed) -> None:
        self.app = app
        self.games = games
        self.keyring = keyring
        self.routes = routes
        #: the metrics' and traces' route label of each action
        self.labels = {action: f"{PREFIX}{{game_id}}/{action}" for action in routes}
        self.strip = strip
        #: (principal, game_id, action, body, Idempotency-Key) -> KeyedRequest | None
        self.keyed = keyed

    def match(self, scope) -> tuple[Route, str, str] | None:
        """(route, action, game_id) of a player action, None for any other request."""
        if scope["type"] != "http" or scope["method"] != "POST":
            return None
        path = route_path(scope)  # below the mount point in the embedded runner
        if not path.startswith(PREFIX):
            return None
        game_id, _, action = path[len(PREFIX) :].rpartition("/")
        route = self.routes.get(action)
        if route is None or not game_id or "/" in game_id:
            return None
        return route, action, game_id

    async def __call__(self, scope, receive, send):
        matched = self.match(scope)
        if matched is None:
            return await self.app(scope, receive, send)
        route, action, game_id = matched
        scope[ROUTE_SCOPE_KEY] = self.labels[action]
        raw = b""
        while len(raw) <= MAX_BODY:
            message = await receive()
            raw += message.get("body", b"")
            if not message.get("more_body"):
                break
        status, headers, data = await self.answer(scope, route, action, game_id, raw)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})

    async def answer(
        self, scope, route: Route, action: str, game_id: str, raw: bytes
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The answer to one player action whose body is ``raw``: status, headers and body."""
        key = presented_credential(scope["headers"])
        idem = None
        for name, value in scope["headers"]:
            if name == b"idempotency-key":
                idem = value.decode("latin-1")
        extra: dict[str, str] = {}
        try:
            status, body, replayed = await self._handle(route, action, game_id, key, idem, raw, extra, scope)
        except ServiceError as exc:  # the credential refused (401, 403, 429), with its headers
            status, body, replayed = exc.status, error_body(exc.code, exc.message, exc.details), False
            extra = exc.headers or {}
        data = _encode(body).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        headers += [(name.lower().encode(), value.encode("latin-1")) for name, value in extra.items()]
        if replayed:
            headers.append((REPLAYED_HEADER.lower().encode(), b"true"))
        return status, headers, data

    async def _handle(
        self,
        route: Route,
        action: str,
        game_id: str,
        key: str | None,
        idem: str | None,
        raw: bytes,
        extra: dict,
        asgi_scope: Any = None,
    ) -> tuple[int, dict, bool]:
        if len(raw) > MAX_BODY:
            return 413, error_body("body_too_large", f"the request body exceeds {MAX_BODY} bytes"), False
        # the order of the FastAPI routes: broken JSON, then the key, then every field error
        model, to_action = route
        parsed, errors = None, []
        if raw:
            try:
                parsed = model.model_validate_json(raw)
            except ValidationError as exc:
                errors = [
                    {
                        "loc": ["body", *(str(p) for p in e.get("loc", ()))],
                        "msg": e.get("msg", ""),
                        "type": e.get("type", ""),
                    }
                    for e in exc.errors()
                ]
                if any(d["type"] == "json_invalid" for d in errors):
                    return (
                        400,
                        error_body("malformed_json", "the request body is not valid JSON", _json_error(raw)),
                        False,
                    )
        else:
            errors = [{"loc": ["body"], "msg": "Field required", "type": "missing"}]
        # the routes' check (gomoku_shared.auth): API key or access token, role, scope, rate
        principal, decision = await self.keyring.authenticate(
            key, scope=SCOPE, roles=ACTING_ROLES, asgi_scope=asgi_scope
        )
        if decision is not None:
            extra.update(decision.headers())
        if idem is not None and len(idem) > KEY_MAX:
            errors.insert(
                0,
                {
                    "loc": ["header", HEADER],
                    "msg": f"String should have at most {KEY_MAX} characters",
                    "type": "string_too_long",
                },
            )
        elif idem == "":
            errors.insert(
                0,
                {
                    "loc": ["header", HEADER],
                    "msg": "String should have at least 1 character",
                    "type": "string_too_short",
                },
            )
        if errors:
            return 422, error_body("validation_error", "the request is not valid", errors), False
        kind, data = to_action(parsed)
        player_id: str = cast(Any, parsed).player_id  # every action body names its player
        try:
            keyed = self.keyed(principal, game_id, action, parsed, idem)
            summary = await self.games.handle(Act(game_id, principal, player_id, kind, data, keyed))
        except GameRefusal as refusal:
            error = as_service_error(refusal)
            return error.status, error_body(error.code, error.message, error.details), False
        except ServiceError as exc:
            return exc.status, error_body(exc.code, exc.message, exc.details), REPLAYED_HEADER in (exc.headers or {})
        return 200, self.strip(summary), bool(summary.get("_replayed"))


def _json_error(raw: bytes) -> list[dict]:
    """Where the JSON breaks, in the words the FastAPI routes use."""
    try:
        json.loads(raw)
    except ValueError as exc:
        return [{"loc": ["body", str(getattr(exc, "pos", 0))], "msg": "JSON decode error", "type": "json_invalid"}]
    return [{"loc": ["body"], "msg": "JSON decode error", "type": "json_invalid"}]
