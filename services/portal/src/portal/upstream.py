"""How the pages reach the services: over HTTP to their base URLs (distributed mode) or
in-process to the mounted service apps (embedded mode, see docs/adr/0001-portal-reads-apis.md).

Either way the request is the services' public HTTP API with the portal's read-only key, so a
page shows exactly what any API client would see.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx
from starlette.types import ASGIApp, Receive, Scope, Send


class UpstreamError(Exception):
    """A service answered with an error or could not be reached."""

    def __init__(self, service: str, status: int, code: str = "") -> None:
        super().__init__(f"{service}: {status} {code}")
        self.service = service
        self.status = status
        self.code = code


class Upstream:
    def __init__(
        self, clients: Mapping[str, httpx.AsyncClient], api_key: str, apps: Mapping[str, ASGIApp] | None = None
    ) -> None:
        self.clients = dict(clients)
        self.api_key = api_key
        #: embedded mode: the service apps themselves, for streams (httpx's ASGI transport
        #: buffers a whole response, so a never-ending event stream is passed through as ASGI)
        self.apps = dict(apps or {})

    @classmethod
    def over_http(cls, base_urls: Mapping[str, str], api_key: str, timeout_s: float) -> Upstream:
        clients = {
            name: httpx.AsyncClient(base_url=url.rstrip("/"), timeout=timeout_s) for name, url in base_urls.items()
        }
        return cls(clients, api_key)

    @classmethod
    def in_process(cls, apps: Mapping[str, ASGIApp], api_key: str, timeout_s: float) -> Upstream:
        clients = {
            name: httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url=f"http://{name}", timeout=timeout_s
            )
            for name, app in apps.items()
        }
        return cls(clients, api_key, apps)

    async def aclose(self) -> None:
        for c in self.clients.values():
            await c.aclose()

    async def get(self, service: str, path: str, params: Mapping[str, Any] | None = None) -> Any:
        try:
            r = await self.clients[service].get(path, params=params, headers={"x-api-key": self.api_key})
        except httpx.HTTPError as exc:
            raise UpstreamError(service, 503, type(exc).__name__) from exc
        if r.status_code >= 400:
            code = ""
            try:
                code = r.json().get("error", {}).get("code", "")
            except ValueError:
                pass
            raise UpstreamError(service, r.status_code, code)
        return r.json()

    async def optional(self, service: str, path: str, params: Mapping[str, Any] | None = None) -> Any:
        """The answer, or None when the service says 404 (not published yet, not paired yet)."""
        try:
            return await self.get(service, path, params)
        except UpstreamError as exc:
            if exc.status == 404:
                return None
            raise

    def stream_app(self, service: str, path: str, query: bytes, last_event_id: str | None) -> ASGIApp:
        """An ASGI app answering with the service's event stream at ``path``."""
        headers = [(b"x-api-key", self.api_key.encode()), (b"accept", b"text/event-stream")]
        if last_event_id:
            headers.append((b"last-event-id", last_event_id.encode("latin-1")))
        if service in self.apps:
            return _PassThrough(self.apps[service], path, query, headers)
        return _HttpStream(self.clients[service], path, query, headers)


class _PassThrough:
    """The request handed to a mounted service app as if it had come to it directly."""

    def __init__(self, app: ASGIApp, path: str, query: bytes, headers: list[tuple[bytes, bytes]]) -> None:
        self.app, self.path, self.query, self.headers = app, path, query, headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        inner = {
            **scope,
            "path": self.path,
            "raw_path": self.path.encode(),
            "root_path": "",
            "query_string": self.query,
            "headers": self.headers,
        }
        await self.app(inner, receive, send)


class _HttpStream:
    """The service's stream relayed chunk by chunk (distributed mode)."""

    def __init__(self, client: httpx.AsyncClient, path: str, query: bytes, headers: list[tuple[bytes, bytes]]) -> None:
        self.client, self.path, self.query, self.headers = client, path, query, headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        url = self.path + ("?" + self.query.decode("latin-1") if self.query else "")
        req = self.client.build_request(
            "GET",
            url,
            headers=[(k.decode(), v.decode("latin-1")) for k, v in self.headers],
            timeout=httpx.Timeout(None, connect=5.0),
        )
        try:
            r = await self.client.send(req, stream=True)
        except httpx.HTTPError:
            await _plain(send, 503, b"the game stream is unavailable")
            return
        try:
            await send(
                {
                    "type": "http.response.start",
                    "status": r.status_code,
                    "headers": [
                        (b"content-type", r.headers.get("content-type", "text/plain").encode()),
                        (b"cache-control", b"no-cache"),
                        (b"x-accel-buffering", b"no"),
                    ],
                }
            )
            async for chunk in _chunks(r):
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            await r.aclose()


async def _chunks(r: httpx.Response) -> AsyncIterator[bytes]:
    try:
        async for chunk in r.aiter_raw():
            yield chunk
    except httpx.HTTPError:
        return


async def _plain(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": body})
