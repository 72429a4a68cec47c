"""Sends one webhook over HTTP, signed per the Standard Webhooks specification with the
``standardwebhooks`` library (HMAC-SHA256, ``v1,<base64>``; one signature per secret).

Every new connection resolves the URL's host, checks every address it resolved to
(``domain.webhook_targets``) and connects to one of those checked addresses: a name that
resolved to a public address when the partner subscribed and to an internal one now (DNS
rebinding) is never connected to. It is done in the connection pool's network backend (httpcore,
the transport under httpx), so TLS still sends the host name (SNI) and verifies the certificate
for it, and the ``Host`` header is the URL's. No proxy from the environment, no redirects.

What the delivery log keeps of an attempt is a category (``Outcome.error``): never the
receiver's words, its body or an exception's text.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx
from standardwebhooks import Webhook

from ..domain.model import PartnerRuleError
from ..domain.webhook_targets import TargetPolicy

log = logging.getLogger("gomoku.partners.webhooks")

#: resolves (host, port) to addresses; the service's is ``resolve`` (the system resolver)
Resolver = Callable[[str, int], Awaitable[list[str]]]

#: the categories an attempt's outcome is logged with (documented in docs/api.md)
TIMEOUT, REFUSED, TLS, DNS, CONNECTION, NOT_PUBLIC = (
    "timeout",
    "refused",
    "tls",
    "dns",
    "connection",
    "target_not_public",
)


def signed_headers(delivery_id: str, sent_at: datetime, body: str, secrets_signing: list[str]) -> dict[str, str]:
    signatures = " ".join(Webhook(secret).sign(delivery_id, sent_at, body) for secret in secrets_signing)
    return {
        "content-type": "application/json",
        "webhook-id": delivery_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": signatures,
        "user-agent": "gomoku-webhooks/1",
    }


async def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (an address literal resolves to itself), in the
    resolver's order, without repeats; ``socket.gaierror`` when it does not resolve."""
    infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


class TargetNotPublic(Exception):
    """The host resolved to an address a webhook may not reach (``reason`` for the operators)."""

    def __init__(self, host: str, reason: str) -> None:
        super().__init__(f"{host}: {reason}")
        self.reason = reason


class Unresolvable(Exception):
    """The host did not resolve."""


async def checked_addresses(resolver: Resolver, policy: TargetPolicy, host: str, port: int, scheme: str) -> list[str]:
    """The addresses ``host`` resolves to, once every one of them passed ``policy``."""
    try:
        addresses = await resolver(host, port)
    except (OSError, UnicodeError) as exc:  # socket.gaierror is an OSError; an IDNA failure a UnicodeError
        raise Unresolvable(host) from exc
    reason = policy.refusal_of(scheme, addresses)
    if reason is not None:
        raise TargetNotPublic(host, reason)
    return addresses


class CheckedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, connecting only to addresses that were checked just now."""

    def __init__(self, resolver: Resolver, policy: TargetPolicy, scheme: str) -> None:
        self.resolver, self.policy, self.scheme = resolver, policy, scheme
        self.inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await checked_addresses(self.resolver, self.policy, host, port, self.scheme)
        failure: Exception | None = None
        for address in addresses:  # each of them checked; the first that answers
            try:
                return await self.inner.connect_tcp(
                    address, port, timeout=timeout, local_address=local_address, socket_options=socket_options
                )
            except httpcore.ConnectTimeout:
                raise
            except httpcore.ConnectError as exc:
                failure = exc
        assert failure is not None
        raise failure

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None
    response_ms: int
    #: None after a 2xx; else a category: timeout, refused, tls, dns, connection,
    #: target_not_public, http_3xx, http_4xx, http_5xx
    error: str | None


def category(exc: BaseException) -> str:
    """The broad category of a failed attempt (the exception's text is never kept)."""
    if isinstance(exc, TargetNotPublic):
        return NOT_PUBLIC
    if isinstance(exc, Unresolvable):
        return DNS
    if isinstance(exc, (TimeoutError, httpcore.TimeoutException)):
        return TIMEOUT
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, ssl.SSLError):
            return TLS
        if isinstance(cause, ConnectionRefusedError):
            return REFUSED
        cause = cause.__cause__ or cause.__context__
    return CONNECTION


#: how much of a receiver's answer is read (then dropped: nothing of it is kept); reading a short
#: answer to its end lets the connection serve the next delivery, a longer one closes it
ANSWER_READ_LIMIT = 64 * 1024


async def _drain(answer: httpcore.Response) -> None:
    read = 0
    async for chunk in answer.aiter_stream():
        read += len(chunk)
        if read > ANSWER_READ_LIMIT:
            break


class WebhookSender:
    def __init__(
        self,
        timeout_s: float,
        policy: TargetPolicy | None = None,
        resolver: Resolver = resolve,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        self.timeout_s = timeout_s
        self.policy = policy or TargetPolicy()
        #: the system's CA bundle unless given (tests: a context trusting their own CA)
        self.ssl_context = ssl_context
        #: replaceable (tests: a resolver that answers what the test says)
        self.resolver = resolver
        self._pools: dict[str, httpcore.AsyncConnectionPool] = {}

    def _pool(self, scheme: str) -> httpcore.AsyncConnectionPool:
        """One pool per scheme (plain http may reach loopback receivers only), made at the first
        delivery, not at start-up: its TLS context (the CA bundle) costs ~50 ms of CPU that a
        replica need not spend before it is ready. No limit on connections here: the worker caps
        the deliveries in flight, and a pool limit would queue one partner behind another's."""
        if scheme not in self._pools:
            resolver = self._resolve_now
            self._pools[scheme] = httpcore.AsyncConnectionPool(
                ssl_context=self.ssl_context or ssl.create_default_context(),
                max_connections=None,
                max_keepalive_connections=20,
                keepalive_expiry=30.0,
                network_backend=CheckedBackend(resolver, self.policy, scheme),
            )
        return self._pools[scheme]

    async def _resolve_now(self, host: str, port: int) -> list[str]:
        return await self.resolver(host, port)  # looked up at each call: a test may replace it

    async def send(self, url: str, headers: dict[str, str], body: str) -> Outcome:
        started = time.perf_counter()

        def elapsed() -> int:
            return int((time.perf_counter() - started) * 1000)

        scheme = urlsplit(url).scheme
        try:
            self.policy.checked_url(url)  # the same rule as at subscription (a setting may have changed)
        except PartnerRuleError:
            return Outcome(False, None, 0, NOT_PUBLIC)
        timeouts = {"connect": self.timeout_s, "read": self.timeout_s, "write": self.timeout_s, "pool": self.timeout_s}
        try:
            async with asyncio.timeout(self.timeout_s):  # the whole attempt, resolution included
                pool = self._pool(scheme)
                # httpx builds the request (IDNA host, Host header with the port, Content-Length)
                request = httpx.Request("POST", url, headers=headers, content=body.encode())
                target = httpcore.URL(
                    scheme=request.url.raw_scheme,
                    host=request.url.raw_host,
                    port=request.url.port,
                    target=request.url.raw_path,
                )
                async with pool.stream(
                    "POST",
                    target,
                    headers=request.headers.raw,
                    content=request.content,
                    extensions={"timeout": timeouts},
                ) as answer:
                    status = answer.status
                    await _drain(answer)
        except TargetNotPublic as exc:
            log.warning("webhook to %s not sent: %s", urlsplit(url).hostname, exc.reason)
            return Outcome(False, None, elapsed(), NOT_PUBLIC)
        except Exception as exc:  # noqa: BLE001 - any failure of the attempt is logged as its category
            return Outcome(False, None, elapsed(), category(exc))
        ok = 200 <= status < 300
        return Outcome(ok, status, elapsed(), None if ok else f"http_{status // 100}xx")

    async def close(self) -> None:
        for pool in self._pools.values():
            await pool.aclose()
