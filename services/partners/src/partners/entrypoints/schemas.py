"""Request bodies and documented answers of the partners API."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged
from gomoku_shared.text import Line, Prose

PARTNER_ID = r"^[a-z0-9][a-z0-9_-]{0,99}$"
Scope = Literal["results:read", "entries:write", "games:play", "webhooks:manage"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RateLimitIn(Strict):
    quota: int = Field(ge=1, le=1_000_000, description="requests per window")
    window_s: int = Field(ge=1, le=86400, description="window in seconds")


class PartnerIn(Strict):
    partner_id: str = Field(pattern=PARTNER_ID, description="the id the services store on the partner's records")
    name: Line = Field(min_length=1, max_length=200)
    kind: Literal["partner", "spectator"] = Field(
        default="partner", description="partner: acts for its players; spectator: reads only (viewer role)"
    )
    scopes: list[Scope] = Field(min_length=1, max_length=4)
    rate_limit: RateLimitIn | None = Field(
        default=None, description="default: RATE_LIMIT_QUOTA per RATE_LIMIT_WINDOW_S"
    )


class PartnerChange(Strict):
    name: Line | None = Field(default=None, min_length=1, max_length=200)
    scopes: list[Scope] | None = Field(default=None, min_length=1, max_length=4)
    rate_limit: RateLimitIn | None = None


class CredentialIn(Strict):
    label: Line = Field(default="", max_length=200, description="what the credential is for (a server, an app)")


class RotateIn(Strict):
    grace_s: int | None = Field(
        default=None,
        ge=0,
        le=30 * 86400,
        description="how long the old secret keeps working (default CREDENTIAL_GRACE_S)",
    )


class RevokeIn(Strict):
    reason: Prose = Field(default="", max_length=500)


class RateLimitView(View):
    quota: int
    window_s: int


class PartnerView(View):
    partner_id: str
    name: str
    kind: str
    role: str
    scopes: list[str]
    rate_limit: RateLimitView
    status: str = Field(description="active, or suspended by an operator (no token, no webhook)")
    created_at: str
    suspended_at: str | None = Field(description="when it was last suspended (kept after it resumed)")


class CredentialView(View):
    client_id: str
    partner_id: str
    label: str
    status: Literal["active", "revoked"]
    created_at: str
    rotated_at: str | None
    previous_secret_valid_until: str | None
    revoked_at: str | None
    last_used_at: str | None


class PartnerDetail(PartnerView):
    credentials: list[CredentialView]


class PartnerList(Paged):
    items: list[PartnerView]


class IssuedCredential(CredentialView):
    client_secret: str = Field(description="shown this once; only its hash is stored")


class AuditEntry(View):
    id: str
    at: str
    actor: str
    action: str
    outcome: str
    partner_id: str | None
    client_id: str | None
    details: dict
    correlation_id: str | None


class AuditPage(View):
    items: list[AuditEntry]
    next_cursor: str | None


class TokenAnswer(View):
    access_token: str
    token_type: Literal["Bearer"]
    expires_in: int
    scope: str


class OAuthErrorView(BaseModel):
    """RFC 6749 §5.2."""

    error: Literal[
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
    ]
    error_description: str | None = None


class Jwks(View):
    keys: list[dict]


class Revocations(View):
    revoked: dict[str, float] = Field(description="client id -> when it was revoked (seconds since the epoch)")


class SigningKeyRotated(View):
    kid: str
    retired: list[str]
