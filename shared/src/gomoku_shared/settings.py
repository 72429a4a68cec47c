"""Service settings, read once by the composition root (never at import time).

Mode is chosen by settings alone: with AMQP_URL set the service talks to RabbitMQ,
otherwise it joins the in-memory bus of the embedded runner; DATABASE_URL picks
PostgreSQL (postgresql+asyncpg://…) or SQLite (sqlite+aiosqlite:///…, the default).
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .dburl import default_database_url, normalise_database_url
from .throttle import ThrottlePolicy


class SettingsError(RuntimeError):
    """A setting a service cannot start without is missing or wrong; the message says what to
    set (``python -m gomoku_shared.serve`` prints it and exits with status 2)."""


class ServiceSettings(BaseSettings):
    """The settings every service reads (issue 31: one service's own settings are declared in
    that service's ``config.py``, a subclass of this one, with the same environment names)."""

    model_config = SettingsConfigDict(env_prefix="", extra="ignore", frozen=True)

    #: which service this process runs (registration, pairing, gameplay, awards)
    service: str = Field(default="", alias="GOMOKU_SERVICE")
    database_url: str = Field(default="", alias="DATABASE_URL")
    amqp_url: str | None = Field(default=None, alias="AMQP_URL")
    #: prefix of exchange and queue names: isolates deployments sharing one broker
    bus_namespace: str = Field(default="gomoku", alias="BUS_NAMESPACE")
    #: where embedded-mode SQLite files live
    data_dir: str = Field(default="var", alias="DATA_DIR")
    #: "key=role[:partner_id]" entries, comma separated; roles: operator, arbiter, partner
    api_keys: str = Field(default="", alias="API_KEYS")
    log_level: str = Field(default="INFO", alias="LOG_LEVEL")
    log_json: bool = Field(default=True, alias="LOG_JSON")
    relay_poll_s: float = Field(default=0.5, alias="RELAY_POLL_S")
    #: 1 = one event at a time per process: deterministic order, no SQLite lock contention;
    #: replicas still compete, so handlers lock the rows they change
    consumer_prefetch: int = Field(default=1, alias="CONSUMER_PREFETCH")
    delivery_limit: int = Field(default=5, alias="DELIVERY_LIMIT")
    #: on SIGTERM: how long requests in flight may take to finish, and then how long the outbox
    #: may take to flush (set the orchestrator's grace period above twice this)
    shutdown_grace_s: float = Field(default=10.0, ge=0, le=300, alias="SHUTDOWN_GRACE_S")
    #: a request's headers must arrive within this many seconds of its first byte, its body
    #: within this many of the headers; otherwise the connection is closed (read_timeouts.py)
    http_header_timeout_s: float = Field(default=10.0, gt=0, le=600, alias="HTTP_HEADER_TIMEOUT_S")
    http_body_timeout_s: float = Field(default=30.0, gt=0, le=3600, alias="HTTP_BODY_TIMEOUT_S")
    #: failed sign-ins (wrong API keys, broken tokens) per client address and per credential:
    #: free ones, then a doubling wait, then a lockout of this many seconds (throttle.py)
    credential_free_failures: int = Field(default=5, ge=1, le=1000, alias="CREDENTIAL_FREE_FAILURES")
    credential_lockout_after: int = Field(default=20, ge=2, le=10_000, alias="CREDENTIAL_LOCKOUT_AFTER")
    credential_lockout_s: int = Field(default=900, ge=1, le=86400, alias="CREDENTIAL_LOCKOUT_S")
    #: the proxies whose X-Forwarded-For names the client (addresses or networks, or *)
    forwarded_allow_ips: str = Field(default="127.0.0.1", alias="FORWARDED_ALLOW_IPS")

    def credential_throttle(self) -> ThrottlePolicy:
        return ThrottlePolicy(
            free=self.credential_free_failures,
            lockout_after=max(self.credential_lockout_after, self.credential_free_failures + 1),
            lockout_s=self.credential_lockout_s,
        )

    #: how long (service clock) an Idempotency-Key and its stored answer are kept
    idempotency_ttl_s: float = Field(default=86400, ge=60, le=30 * 86400, alias="IDEMPOTENCY_TTL_S")
    #: secret for encrypting personal data at rest (registration)
    data_key: str = Field(default="", alias="DATA_KEY")
    #: secret that signs list cursors (``next_cursor``), the same in every replica of a service;
    #: unset: derived from DATA_KEY; neither: a public development default (gomoku_shared.cursors)
    cursor_secret: str = Field(default="", alias="CURSOR_SECRET")
    #: the partners service (distributed mode): where every service reads the public keys of
    #: partner access tokens (JWKS) and the revoked clients; unset: API keys only
    partners_url: str = Field(default="", alias="PARTNERS_URL")
    #: the credential every service's token verifier presents (X-API-Key) to read the partners
    #: service's revoked clients; the partners service accepts it on that route only. Required
    #: with PARTNERS_URL (the list is not public)
    partners_service_key: str = Field(default="", alias="PARTNERS_SERVICE_KEY")
    #: partners service: lifetime of an access token (also how long a revoked credential's
    #: tokens are remembered by the verifiers)
    access_token_ttl_s: int = Field(default=300, ge=30, le=3600, alias="ACCESS_TOKEN_TTL_S")
    #: partners service, staff accounts: lifetime of a staff member's access token (every
    #: service's verifier reads it too)
    staff_token_ttl_s: int = Field(default=600, ge=30, le=3600, alias="STAFF_TOKEN_TTL_S")
    #: how many replicas of this service share a partner's rate limit (each admits its share)
    rate_limit_replicas: int = Field(default=1, ge=1, le=1000, alias="RATE_LIMIT_REPLICAS")
    #: time source: "system", or "fake" for simulations driven by a FakeClock
    clock: str = Field(default="system", alias="CLOCK")
    #: with CLOCK=fake: the simulation time the clock starts at (ISO 8601 with offset);
    #: a service restarted mid-simulation is given the simulation's current time
    clock_start: datetime | None = Field(default=None, alias="CLOCK_START")

    @field_validator("database_url")
    @classmethod
    def _normalise_driver(cls, value: str) -> str:
        # accept plain postgres URLs and make them async
        return normalise_database_url(value)

    def database_url_for(self, service: str) -> str:
        """The URL this service uses; the embedded default is one SQLite file per service."""
        return self.database_url or default_database_url(service, self.data_dir)
