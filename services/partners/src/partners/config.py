"""Settings of the partners service: the shared ones (:class:`gomoku_shared.settings.ServiceSettings`)
and its own, declared here (issue 31), read once by the composition root. The environment names
are the README's settings table's."""

from __future__ import annotations

from pydantic import Field

from gomoku_shared.settings import ServiceSettings


class PartnersSettings(ServiceSettings):
    #: the secret that encrypts the service's token-signing keys and sealed secrets at rest
    #: (required distributed; the embedded mode keeps a random one in DATA_DIR)
    partners_key: str = Field(default="", alias="PARTNERS_KEY")
    #: staff accounts: lifetime of a sign-in session (its refresh token), and of an invitation
    #: or password-reset link
    staff_session_ttl_s: int = Field(default=43200, ge=60, le=30 * 86400, alias="STAFF_SESSION_TTL_S")
    invitation_ttl_s: int = Field(default=7 * 86400, ge=60, le=90 * 86400, alias="INVITATION_TTL_S")
    #: how long the old secret keeps working after a rotation, by default
    credential_grace_s: int = Field(default=86400, ge=0, le=30 * 86400, alias="CREDENTIAL_GRACE_S")
    #: the rate limit of a new partner (requests per window, window seconds)
    rate_limit_quota: int = Field(default=600, ge=1, le=1_000_000, alias="RATE_LIMIT_QUOTA")
    rate_limit_window_s: int = Field(default=60, ge=1, le=86400, alias="RATE_LIMIT_WINDOW_S")
    #: webhooks: seconds between a delivery's attempts (comma-separated; the default reaches
    #: 27 h in all), failed attempts in a row that disable a subscription,
    #: how long the old secret still signs after a rotation, the worker's poll and HTTP timeout
    webhook_retry_schedule_s: str = Field(default="5,300,1800,7200,18000,36000,36000", alias="WEBHOOK_RETRY_SCHEDULE_S")
    webhook_disable_after: int = Field(default=50, ge=1, le=100_000, alias="WEBHOOK_DISABLE_AFTER")
    webhook_secret_grace_s: int = Field(default=86400, ge=0, le=30 * 86400, alias="WEBHOOK_SECRET_GRACE_S")
    webhook_poll_s: float = Field(default=0.5, gt=0, le=60, alias="WEBHOOK_POLL_S")
    webhook_timeout_s: float = Field(default=10.0, gt=0, le=60, alias="WEBHOOK_TIMEOUT_S")
    #: webhooks, development and tests only: URLs may name loopback addresses (http:// too);
    #: off, every webhook goes by https to public addresses only
    webhook_allow_loopback: bool = Field(default=False, alias="WEBHOOK_ALLOW_LOOPBACK")
    #: webhooks: subscriptions per partner, deliveries of one partner in flight (over every
    #: replica), deliveries one worker sends at once, and the circuit breaker:
    #: failed attempts in a row after which a subscription's deliveries wait, and for how long
    webhook_max_subscriptions: int = Field(default=10, ge=1, le=10_000, alias="WEBHOOK_MAX_SUBSCRIPTIONS")
    webhook_partner_in_flight: int = Field(default=4, ge=1, le=1000, alias="WEBHOOK_PARTNER_IN_FLIGHT")
    webhook_worker_in_flight: int = Field(default=64, ge=1, le=10_000, alias="WEBHOOK_WORKER_IN_FLIGHT")
    webhook_breaker_after: int = Field(default=5, ge=1, le=100_000, alias="WEBHOOK_BREAKER_AFTER")
    webhook_breaker_pause_s: int = Field(default=300, ge=0, le=86400, alias="WEBHOOK_BREAKER_PAUSE_S")

    @classmethod
    def from_shared(cls, settings: ServiceSettings) -> PartnersSettings:
        """The partners settings of a process started with ``settings``: those values, and the
        partners service's own read from the environment now (once, by the composition root)."""
        if isinstance(settings, cls):
            return settings
        return cls(**settings.model_dump(by_alias=True))
