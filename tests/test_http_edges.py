"""Safe at the edges: bad input, unknown routes and bad keys get the common JSON error, 4xx."""
from __future__ import annotations

import re

import httpx
import pytest
from fastapi import APIRouter
from pydantic import BaseModel

from gomoku_shared.auth import KeyRing, Operator
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.settings import ServiceSettings
from gomoku_shared.web import create_app

KEYS = "op-key=operator,arb-key=arbiter,p1-key=partner:partner-1"


def _assert_error_shape(r: httpx.Response, status: int | tuple[int, ...]) -> dict:
    statuses = status if isinstance(status, tuple) else (status,)
    assert r.status_code in statuses, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body
    assert "Traceback" not in r.text and 'File "' not in r.text
    return body["error"]


class _Thing(BaseModel):
    name: str
    size: int


def _toy_app():
    app = create_app("toy", title="toy", keyring=KeyRing(KEYS))
    router = APIRouter()

    @router.post("/v1/things")
    async def make(thing: _Thing, _p: Operator) -> dict:
        return {"ok": thing.name}

    @router.get("/v1/boom")
    async def boom() -> dict:
        raise RuntimeError("secret internals")

    app.include_router(router)
    return app


@pytest.fixture
async def toy():
    transport = httpx.ASGITransport(app=_toy_app(), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c


async def test_malformed_json_is_a_400_with_the_common_error(toy):
    r = await toy.post("/v1/things", content=b"{not json", headers={"x-api-key": "op-key",
                                                                    "content-type": "application/json"})
    assert _assert_error_shape(r, 400)["code"] == "malformed_json"


async def test_invalid_fields_are_a_422_naming_the_field(toy):
    r = await toy.post("/v1/things", json={"name": "x", "size": "big"}, headers={"x-api-key": "op-key"})
    err = _assert_error_shape(r, 422)
    assert err["code"] == "validation_error" and any("size" in d["loc"] for d in err["details"])


async def test_missing_wrong_and_underprivileged_keys(toy):
    body = {"name": "x", "size": 1}
    assert _assert_error_shape(await toy.post("/v1/things", json=body), 401)["code"] == "missing_api_key"
    r = await toy.post("/v1/things", json=body, headers={"x-api-key": "nope"})
    assert _assert_error_shape(r, 401)["code"] == "invalid_api_key"
    r = await toy.post("/v1/things", json=body, headers={"x-api-key": "p1-key"})
    assert _assert_error_shape(r, 403)["code"] == "forbidden_role"
    r = await toy.post("/v1/things", json=body, headers={"authorization": "Bearer op-key"})
    assert r.status_code == 200


async def test_unexpected_errors_never_leak_internals(toy):
    r = await toy.get("/v1/boom")
    err = _assert_error_shape(r, 500)
    assert "secret internals" not in r.text and err["code"] == "internal_error"


async def test_unknown_route_and_method(toy):
    assert _assert_error_shape(await toy.get("/v1/nowhere"), 404)["code"] == "not_found"
    assert _assert_error_shape(await toy.delete("/v1/things"), 405)["code"] == "method_not_allowed"


@pytest.fixture
async def suite(tmp_path):
    s = EmbeddedSuite(ServiceSettings(DATA_DIR=str(tmp_path), API_KEYS=KEYS, DATA_KEY="k" * 32))
    await s.start()
    transport = httpx.ASGITransport(app=s.app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield s, c
    await s.stop()


async def test_every_service_route_refuses_bad_input_with_a_json_4xx(suite):
    """For every route of every service: unknown ids, malformed JSON, no key → JSON 4xx, never 500."""
    s, client = suite
    checked = 0
    for name, svc in s.services.items():
        assert _assert_error_shape(await client.get(f"/{name}/no/such/route"), 404)
        r = await client.get(f"/{name}/v1/whoami", headers={"x-api-key": "arb-key"})
        assert r.json()["role"] == "arbiter"
        for route in svc.app.routes:
            methods = getattr(route, "methods", None) or set()
            path = getattr(route, "path", "")
            if not path.startswith("/v1/") or "websocket" in type(route).__name__.lower():
                continue
            url = f"/{name}" + re.sub(r"\{[^}]+\}", "no-such-id", path)
            for method in sorted(methods - {"HEAD", "OPTIONS"}):
                if method in ("POST", "PUT", "PATCH"):
                    r = await client.request(method, url, content=b"{broken",
                                             headers={"x-api-key": "op-key", "content-type": "application/json"})
                    assert 400 <= r.status_code < 500, (name, method, path, r.status_code, r.text)
                    _assert_error_shape(r, r.status_code)
                r = await client.request(method, url)
                assert 400 <= r.status_code < 500 or r.status_code == 200, (name, method, path, r.text)
                if r.status_code != 200:
                    _assert_error_shape(r, r.status_code)
                checked += 1
    assert checked >= 4


async def test_unknown_paths_and_methods_answer_the_common_error_everywhere(suite):
    """Conventions: the embedded root, each mount and each service answer an unknown path with a
    404 and a known path with the wrong method with a 405 naming the allowed methods (`Allow`),
    both in the common error shape — never a bare `{"detail": ...}`."""
    _, client = suite
    assert _assert_error_shape(await client.get("/no/such/route"), 404)["code"] == "not_found"
    r = await client.delete("/healthz")
    assert _assert_error_shape(r, 405)["code"] == "method_not_allowed" and r.headers["allow"] == "GET"
    for name, path, allowed in [("registration", "/v1/presets", "GET"), ("pairing", "/v1/whoami", "GET"),
                                ("gameplay", "/v1/games/g1/move", "POST"), ("awards", "/healthz", "GET")]:
        assert _assert_error_shape(await client.get(f"/{name}/"), 404)["code"] == "not_found"
        r = await client.put(f"/{name}{path}", headers={"x-api-key": "op-key"})
        assert _assert_error_shape(r, 405)["code"] == "method_not_allowed", (name, path)
        assert r.headers["allow"] == allowed, (name, path, r.headers)
