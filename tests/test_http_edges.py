"""Safe at the edges: bad input, unknown routes and bad keys get the common JSON error, 4xx."""

from __future__ import annotations

import json
import logging
import re
import sys

import httpx
import pytest
from fastapi import APIRouter
from pydantic import BaseModel
from sqlalchemy import exc as sa_exc

from gomoku_shared.auth import KeyRing, Operator
from gomoku_shared.embedded import EmbeddedSuite
from gomoku_shared.guard import MAX_BODY, MAX_JSON_DEPTH, MAX_MULTIPART_BODY, check_head, check_json_body
from gomoku_shared.logs import format_exception
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

    @router.get("/v1/unstorable")
    async def unstorable() -> dict:
        # what the driver raises for a value the column cannot hold (its message quotes the value)
        raise sa_exc.DataError(
            "INSERT INTO people VALUES ($1)",
            ("Wang Xiuying",),
            ValueError("invalid input for query argument $1: 'Wang Xiuying'"),
        )

    app.include_router(router)
    return app


@pytest.fixture
async def toy():
    transport = httpx.ASGITransport(app=_toy_app(), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        yield c


async def test_malformed_json_is_a_400_with_the_common_error(toy):
    r = await toy.post(
        "/v1/things", content=b"{not json", headers={"x-api-key": "op-key", "content-type": "application/json"}
    )
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


async def test_a_500_keeps_the_callers_correlation_id_in_body_header_and_log(toy, caplog):
    with caplog.at_level(logging.ERROR, logger="gomoku.web"):
        r = await toy.get("/v1/boom", headers={"x-correlation-id": "cid-42"})
    err = _assert_error_shape(r, 500)
    assert err["details"]["correlation_id"] == "cid-42" and r.headers["x-correlation-id"] == "cid-42"
    from gomoku_shared.logs import correlation_id

    assert [rec for rec in caplog.records if rec.levelno == logging.ERROR], caplog.records
    # the log line is written inside the request's correlation id (the formatter reads it)
    assert correlation_id.get() == "-"


async def test_a_database_data_error_is_a_422_and_its_values_are_not_logged(toy, caplog):
    with caplog.at_level(logging.INFO):
        r = await toy.get("/v1/unstorable")
    assert _assert_error_shape(r, 422)["code"] == "unstorable_input"
    assert "Wang" not in r.text and "Wang" not in caplog.text


def test_tracebacks_withhold_the_messages_of_database_errors():
    born = "-".join(["1993", "11", "21"])  # not spelled out: the traceback quotes source lines
    try:
        try:
            raise ValueError("bad value")
        except ValueError as inner:
            raise sa_exc.DataError("INSERT INTO people VALUES ($1)", (born,), inner)  # noqa: B904 (implicit chaining, as the driver raises it)
    except sa_exc.DataError:
        text = format_exception(sys.exc_info())
    assert "DataError" in text and "message withheld" in text
    assert born not in text
    # the driver's own message (the cause) is plain ValueError here: only database modules are
    # withheld, so real bugs keep their messages
    assert "ValueError" in text


def test_the_guard_refuses_control_characters_long_values_and_deep_json():
    def scope(path=b"/v1/x", qs=b"", headers=()):
        return {"type": "http", "path": path.decode(), "raw_path": path, "query_string": qs, "headers": list(headers)}

    assert check_head(scope()) is None
    assert check_head(scope(b"/v1/a%00b"))[0] == 400
    assert check_head(scope(b"/v1/a%C2%85b"))[0] == 400  # C1 control (NEL)
    assert check_head(scope(qs=b"q=%1f"))[0] == 400
    assert check_head(scope(qs=b"q=" + b"x" * 5000))[0] == 414
    assert check_head(scope(b"/" + b"x" * 3000))[0] == 414
    assert check_head(scope(headers=[(b"x-note", b"a\x00b")]))[0] == 400
    assert check_head(scope(headers=[(b"x-note", b"a\tb")])) is None
    assert check_head(scope(headers=[(b"x-note", b"x" * 9000)]))[0] == 431
    assert check_head(scope(b"/v1/%E4%B8%AD%E6%96%87")) is None  # Chinese in a path is fine
    assert check_json_body(rb'{"name": "\u5f20\u4e09", "note": "line 1\nline 2\ttab"}') is None
    assert check_json_body(rb'{"a": "\\u0000"}') is None  # an escaped backslash, not a NUL
    status, body = check_json_body(rb'{"a": {"b": ["x\u0000"]}}')
    assert status == 400 and json.loads(body)["error"]["details"]["loc"] == ["body", "a", "b", 0]
    assert check_json_body(rb'{"a": "\ud800"}')[0] == 400  # unpaired surrogate
    assert check_json_body(rb'{"a": "\ud83d\ude00"}') is None  # a paired one is an emoji
    assert check_json_body(rb'{"a": "\u007f"}')[0] == 400
    assert check_json_body(b"[" * MAX_JSON_DEPTH + b"]" * MAX_JSON_DEPTH) is None
    deep = b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1)
    assert json.loads(check_json_body(deep)[1])["error"]["code"] == "json_too_deep"
    assert check_json_body(b"[" * 100_000 + b"]" * 100_000)[0] == 400
    assert check_json_body(rb'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') is None  # brackets in a string
    assert check_json_body(b"{broken [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[") is None  # the route says malformed


async def test_a_multipart_upload_has_its_own_limit_and_is_not_read_as_json(toy):
    """Issue 34: a document's upload (multipart) passes the guard past MAX_BODY, its bytes never
    scanned as JSON (a JPEG holds any byte); past MAX_MULTIPART_BODY it is refused there."""
    multipart = {"x-api-key": "op-key", "content-type": "multipart/form-data; boundary=b"}
    # JSON with a NUL (refused in a JSON body) and past MAX_BODY: as an upload, the route decides
    within = b'{"a": "\\u0000"}' + b" " * (MAX_BODY + 1)
    r = await toy.post("/v1/things", content=within, headers=multipart)
    assert r.status_code != 413 and "invalid_characters" not in r.text, r.text  # the route answers
    r = await toy.post("/v1/things", content=b" " * (MAX_MULTIPART_BODY + 1), headers=multipart)
    assert _assert_error_shape(r, 413)["code"] == "body_too_large"


async def test_bodies_past_the_limit_are_413_and_control_characters_400(toy):
    r = await toy.post(
        "/v1/things", content=b" " * (MAX_BODY + 1), headers={"x-api-key": "op-key", "content-type": "application/json"}
    )
    assert _assert_error_shape(r, 413)["code"] == "body_too_large"
    r = await toy.post("/v1/things", json={"name": "a\u0000", "size": 1}, headers={"x-api-key": "op-key"})
    assert _assert_error_shape(r, 400)["code"] == "invalid_characters"
    r = await toy.post("/v1/things", json={"name": "a\nb", "size": 1}, headers={"x-api-key": "op-key"})
    assert r.status_code == 200


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


@pytest.mark.slow
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
                    r = await client.request(
                        method,
                        url,
                        content=b"{broken",
                        headers={"x-api-key": "op-key", "content-type": "application/json"},
                    )
                    assert 400 <= r.status_code < 500, (name, method, path, r.status_code, r.text)
                    _assert_error_shape(r, r.status_code)
                r = await client.request(method, url)
                assert 400 <= r.status_code < 500 or r.status_code == 200, (name, method, path, r.text)
                if r.status_code != 200:
                    _assert_error_shape(r, r.status_code)
                checked += 1
    assert checked >= 4


@pytest.mark.slow
async def test_unknown_paths_and_methods_answer_the_common_error_everywhere(suite):
    """Conventions: the embedded root, each mount and each service answer an unknown path with a
    404 and a known path with the wrong method with a 405 naming the allowed methods (`Allow`),
    both in the common error shape — never a bare `{"detail": ...}`."""
    _, client = suite
    assert _assert_error_shape(await client.get("/no/such/route"), 404)["code"] == "not_found"
    r = await client.delete("/healthz")
    assert _assert_error_shape(r, 405)["code"] == "method_not_allowed" and r.headers["allow"] == "GET"
    for name, path, allowed in [
        ("registration", "/v1/presets", "GET"),
        ("pairing", "/v1/whoami", "GET"),
        ("gameplay", "/v1/games/g1/move", "POST"),
        ("awards", "/healthz", "GET"),
    ]:
        assert _assert_error_shape(await client.get(f"/{name}/"), 404)["code"] == "not_found"
        r = await client.put(f"/{name}{path}", headers={"x-api-key": "op-key"})
        assert _assert_error_shape(r, 405)["code"] == "method_not_allowed", (name, path)
        assert r.headers["allow"] == allowed, (name, path, r.headers)
