"""Sends one webhook over HTTP, signed per the Standard Webhooks specification with the
``standardwebhooks`` library (HMAC-SHA256, ``v1,<base64>``; one signature per secret)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

import httpx
from standardwebhooks import Webhook


def signed_headers(delivery_id: str, sent_at: datetime, body: str, secrets_signing: list[str]) -> dict[str, str]:
    signatures = " ".join(Webhook(secret).sign(delivery_id, sent_at, body) for secret in secrets_signing)
    return {
        "content-type": "application/json",
        "webhook-id": delivery_id,
        "webhook-timestamp": str(int(sent_at.timestamp())),
        "webhook-signature": signatures,
        "user-agent": "gomoku-webhooks/1",
    }


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None
    response_ms: int
    error: str | None


class WebhookSender:
    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self._client: httpx.AsyncClient | None = None

    @property
    def client(self) -> httpx.AsyncClient:
        """Made at the first delivery, not at start-up: its TLS context (the CA bundle) costs
        ~50 ms of CPU that a replica need not spend before it is ready."""
        if self._client is None:
            # no redirects: a receiver answers itself, a 3xx is a failure to look at
            self._client = httpx.AsyncClient(timeout=self.timeout_s, follow_redirects=False)
        return self._client

    async def send(self, url: str, headers: dict[str, str], body: str) -> Outcome:
        started = time.perf_counter()
        try:
            answer = await self.client.post(url, content=body.encode(), headers=headers)
        except httpx.HTTPError as exc:
            elapsed = int((time.perf_counter() - started) * 1000)
            return Outcome(False, None, elapsed, f"{type(exc).__name__}: {exc}"[:500])
        elapsed = int((time.perf_counter() - started) * 1000)
        ok = 200 <= answer.status_code < 300
        return Outcome(ok, answer.status_code, elapsed, None if ok else f"HTTP {answer.status_code}")

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
