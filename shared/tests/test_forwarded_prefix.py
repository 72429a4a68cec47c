"""serve.ForwardedPrefix: behind the gateway a service is served under /<service>, as in the
embedded mode's mounts; the docs and the OpenAPI document then name the prefixed paths."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from gomoku_shared.serve import ForwardedPrefix, main


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/v1/where")
    async def where() -> dict:
        return {"ok": True}

    return app


async def _get(app, path: str, **headers) -> httpx.Response:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=ForwardedPrefix(app, "gameplay")), base_url="http://svc"
    ) as client:
        return await client.get(path, headers=headers)


async def test_the_gateway_prefix_becomes_the_root_path_of_docs_and_openapi():
    app = _app()
    docs = await _get(app, "/docs", **{"x-forwarded-prefix": "/gameplay"})
    assert docs.status_code == 200 and "'/gameplay/openapi.json'" in docs.text
    spec = (await _get(app, "/openapi.json", **{"x-forwarded-prefix": "/gameplay"})).json()
    assert spec["servers"] == [{"url": "/gameplay"}]
    # the routes answer at their own paths: the gateway has stripped the prefix
    assert (await _get(app, "/v1/where", **{"x-forwarded-prefix": "/gameplay"})).json() == {"ok": True}


async def test_without_the_header_or_with_another_prefix_nothing_moves():
    app = _app()
    for headers in ({}, {"x-forwarded-prefix": "/registration"}, {"x-forwarded-prefix": "/evil.example/x"}):
        docs = await _get(app, "/docs", **headers)
        assert "'/openapi.json'" in docs.text, headers
        assert "servers" not in (await _get(app, "/openapi.json", **headers)).json(), headers
        assert (await _get(app, "/v1/where", **headers)).status_code == 200


def test_serve_binds_the_loopback_address_unless_told(monkeypatch):
    seen = {}
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: seen.update(kw))
    # neither the collector settings nor the logging of this test process change
    monkeypatch.setattr("gomoku_shared.serve.tune_gc", lambda: None)
    monkeypatch.setattr("gomoku_shared.serve.logs.configure", lambda *a, **k: None)
    monkeypatch.setattr("gomoku_shared.serve.builders", lambda: {"x": lambda settings: type("S", (), {"app": _app()})})
    assert main(["x"]) == 0 and seen["host"] == "127.0.0.1"
    assert main(["x", "--host", "0.0.0.0"]) == 0 and seen["host"] == "0.0.0.0"
