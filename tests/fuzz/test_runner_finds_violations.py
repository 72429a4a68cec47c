"""The fuzz runner itself: served a toy service with one violation of each kind, it reports
every kind (so a green fuzz run means something)."""

from __future__ import annotations

import socket
import threading
import time

import httpx
import pytest
import uvicorn
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from gomoku_shared.auth import KeyRing, Operator
from gomoku_shared.web import create_app

from .runner import fuzz_service


def _toy_app():
    app = create_app("toy", title="toy", keyring=KeyRing("op-key=operator"))
    r = APIRouter(prefix="/v1")

    @r.get("/naive")
    async def naive(_: Operator) -> dict:
        return {"at": "2026-01-01T10:00:00"}  # no offset

    @r.get("/boom/{thing}")
    async def boom(thing: str, _: Operator) -> dict:
        raise RuntimeError("a bug")

    @r.post("/conflict")
    async def conflict(_: Operator) -> JSONResponse:
        return JSONResponse({"detail": "taken"}, status_code=409)  # not the common shape

    @r.get("/teapot")
    async def teapot(_: Operator) -> JSONResponse:
        return JSONResponse({"error": {"code": "teapot", "message": "no"}}, status_code=418)  # undocumented

    # documented as at most 5, never checked
    @r.get(
        "/sized",
        openapi_extra={
            "parameters": [
                {"name": "size", "in": "query", "required": True, "schema": {"type": "integer", "maximum": 5}}
            ]
        },
    )
    async def sized(request: Request, _: Operator) -> dict:
        return {"size": request.query_params.get("size")}

    app.include_router(r)
    return app


@pytest.fixture
def served_toy():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(_toy_app(), host="127.0.0.1", port=port, log_config=None, access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(base + "/healthz").status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    yield base
    server.should_exit = True
    thread.join(timeout=10)


def test_the_runner_reports_every_kind_of_violation(served_toy):
    report = fuzz_service("toy", served_toy, {"operator": "op-key"}, examples=10)
    found = {(check, op) for check, op in report.failures}
    assert report.server_errors > 0 and ("5xx", "GET /v1/boom/{thing}") in found
    checks = {check for check, _ in found}
    assert "Undocumented status code" in checks, found
    assert any(op == "GET /v1/naive" for _, op in found), found  # timestamp without offset
    assert any(op == "POST /v1/conflict" for _, op in found), found  # error shape
    assert any(op == "GET /v1/teapot" for _, op in found), found  # undocumented 418
    assert any(op == "GET /v1/sized" for _, op in found), found  # invalid input accepted
    # and nothing is reported where the toy keeps the rules
    assert not any(op in ("GET /healthz", "GET /v1/whoami") for _, op in found), found
