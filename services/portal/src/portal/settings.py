"""Settings of the web front, read once at start-up (environment variables)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from gomoku_shared.throttle import ThrottlePolicy


class PortalSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", extra="ignore", frozen=True)

    #: the read-only key the pages read the services with (an API_KEYS entry ``key=viewer``);
    #: the embedded mode makes one of its own when unset
    api_key: str = Field(default="", alias="PORTAL_API_KEY")
    #: distributed mode: where each service answers (the embedded mode calls them in-process)
    registration_url: str = Field(default="http://127.0.0.1:8001", alias="REGISTRATION_URL")
    pairing_url: str = Field(default="http://127.0.0.1:8002", alias="PAIRING_URL")
    gameplay_url: str = Field(default="http://127.0.0.1:8003", alias="GAMEPLAY_URL")
    awards_url: str = Field(default="http://127.0.0.1:8004", alias="AWARDS_URL")
    #: the partners service: staff accounts sign in there (the identity API, issue 29)
    partners_url: str = Field(default="http://127.0.0.1:8006", alias="PARTNERS_URL")
    #: event codes pinned at the top of the home page, comma separated (optional: the home
    #: lists every event of registration, newest first)
    events: str = Field(default="", alias="PORTAL_EVENTS")
    #: seconds a call to a service may take before the page says the service is unavailable
    upstream_timeout_s: float = Field(default=5.0, gt=0, le=60, alias="PORTAL_UPSTREAM_TIMEOUT_S")

    #: seconds a game's upstream stream stays open after its last viewer left (a reload or a
    #: viewer coming back finds it still there)
    feed_linger_s: float = Field(default=30.0, ge=0, le=3600, alias="PORTAL_FEED_LINGER_S")

    #: signs the staff session cookie; unset: a random one per process (sessions end with it)
    session_secret: str = Field(default="", alias="PORTAL_SESSION_SECRET")
    #: the portal's own database (only its staff sessions, ADR 0009): set it when more than one
    #: portal process serves the console (replicas behind the gateway); unset: in the process
    database_url: str = Field(default="", alias="PORTAL_DATABASE_URL")
    #: minutes a staff sign-in lasts
    session_minutes: int = Field(default=480, ge=1, le=7 * 24 * 60, alias="PORTAL_SESSION_MINUTES")
    #: send the session cookie over HTTPS only (behind a TLS gateway; compose and Kubernetes
    #: turn it on, the plain-http local demo leaves it off)
    secure_cookies: bool = Field(default=False, alias="PORTAL_SECURE_COOKIES")
    #: wrong keys at the sign-in form, per client address and per key: free ones, then a
    #: doubling wait, then a lockout of this many seconds (as the services' API keys)
    credential_free_failures: int = Field(default=5, ge=1, le=1000, alias="CREDENTIAL_FREE_FAILURES")
    credential_lockout_after: int = Field(default=20, ge=2, le=10_000, alias="CREDENTIAL_LOCKOUT_AFTER")
    credential_lockout_s: int = Field(default=900, ge=1, le=86400, alias="CREDENTIAL_LOCKOUT_S")
    #: the proxies whose X-Forwarded-For names the client (the gateway: addresses, networks or *)
    forwarded_allow_ips: str = Field(default="127.0.0.1", alias="FORWARDED_ALLOW_IPS")

    #: follow live games by their round's stream (one upstream stream per round instead of one
    #: per game: gameplay polls once per round); false: one stream per game
    round_streams: bool = Field(default=True, alias="PORTAL_ROUND_STREAMS")

    #: printouts: a CJK font file (TTF/TTC) to embed; unset: Debian's WenQuanYi Micro Hei or another CJK font found
    pdf_font: str = Field(default="", alias="PORTAL_PDF_FONT")

    def credential_throttle(self) -> ThrottlePolicy:
        return ThrottlePolicy(
            free=self.credential_free_failures,
            lockout_after=max(self.credential_lockout_after, self.credential_free_failures + 1),
            lockout_s=self.credential_lockout_s,
        )

    def base_urls(self) -> dict[str, str]:
        return {
            "registration": self.registration_url,
            "pairing": self.pairing_url,
            "gameplay": self.gameplay_url,
            "awards": self.awards_url,
            "partners": self.partners_url,
        }

    def event_codes(self) -> list[str]:
        return [c.strip() for c in self.events.split(",") if c.strip()]
