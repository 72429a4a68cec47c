"""Partners and their client credentials: the rules of issuing, rotating and revoking.

A partner is a platform integrating over HTTP (a game app) or a spectator app. It has the
scopes its tokens may carry and a rate limit. A credential is one OAuth client of a partner
(``client_id`` + a secret shown once). Rotating gives a new secret while the old one keeps
working for a grace period, so a partner can roll the change out; revoking ends the
credential (and, through ``partner.credentials_revoked``, its tokens) at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Literal

from gomoku_shared.scopes import SCOPES, VIEWER_SCOPES

Kind = Literal["partner", "spectator"]
PartnerStatus = Literal["active", "suspended"]
CredentialStatus = Literal["active", "revoked"]


class PartnerRuleError(Exception):
    """A request the rules refuse; ``code`` is the error code of the answer."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class RateLimit:
    quota: int
    window_s: int


@dataclass(frozen=True)
class Partner:
    partner_id: str
    name: str
    kind: Kind
    #: the scopes this partner's tokens may carry
    scopes: frozenset[str]
    rate_limit: RateLimit
    status: PartnerStatus
    created_at: datetime
    #: when it was last suspended; kept after it resumed (tokens issued before stay refused)
    suspended_at: datetime | None = None

    @property
    def role(self) -> str:
        """The role of its tokens: a spectator app reads like the viewer role."""
        return "viewer" if self.kind == "spectator" else "partner"

    def suspended(self, now: datetime) -> Partner:
        """Offboarding: no token is issued, every token issued until ``now`` is refused and its
        webhooks stop, until an operator resumes it."""
        if self.status == "suspended":
            raise PartnerRuleError("partner_suspended", "the partner is suspended already")
        return replace(self, status="suspended", suspended_at=now)

    def resumed(self) -> Partner:
        """Tokens are issued again (the ones issued before the suspension stay refused)."""
        if self.status != "suspended":
            raise PartnerRuleError("partner_not_suspended", "the partner is not suspended")
        return replace(self, status="active")


def new_partner(
    partner_id: str, name: str, kind: Kind, scopes: list[str], rate_limit: RateLimit, now: datetime
) -> Partner:
    return Partner(partner_id, name, kind, allowed_scopes(kind, scopes), rate_limit, "active", now)


def allowed_scopes(kind: Kind, scopes: list[str]) -> frozenset[str]:
    unknown = sorted(set(scopes) - set(SCOPES))
    if unknown:
        raise PartnerRuleError("unknown_scope", f"unknown scopes {unknown}; known: {sorted(SCOPES)}")
    chosen = frozenset(scopes)
    if kind == "spectator" and not chosen <= VIEWER_SCOPES:
        raise PartnerRuleError(
            "spectator_scope", f"a spectator app reads only: its scopes are within {sorted(VIEWER_SCOPES)}"
        )
    if not chosen:
        raise PartnerRuleError("no_scope", "give the partner at least one scope")
    return chosen


@dataclass(frozen=True)
class Credential:
    client_id: str
    partner_id: str
    label: str
    secret_hash: str
    status: CredentialStatus
    created_at: datetime
    #: the secret before the last rotation, accepted until ``previous_valid_until``
    previous_hash: str | None = None
    previous_valid_until: datetime | None = None
    rotated_at: datetime | None = None
    revoked_at: datetime | None = None
    last_used_at: datetime | None = None

    def hashes_accepted(self, now: datetime) -> list[str]:
        """The secret hashes a client may authenticate with at ``now`` (none once revoked)."""
        if self.status == "revoked":
            return []
        accepted = [self.secret_hash]
        if self.previous_hash and self.previous_valid_until and now < self.previous_valid_until:
            accepted.append(self.previous_hash)
        return accepted

    def rotated(self, new_hash: str, now: datetime, grace: timedelta) -> Credential:
        """A new secret; the current one keeps working for ``grace`` (zero: ends now). A secret
        older than the current one is dropped, even within an earlier grace period."""
        if self.status == "revoked":
            raise PartnerRuleError("credential_revoked", "a revoked credential cannot be rotated; issue a new one")
        return replace(
            self,
            secret_hash=new_hash,
            previous_hash=self.secret_hash if grace > timedelta(0) else None,
            previous_valid_until=now + grace if grace > timedelta(0) else None,
            rotated_at=now,
        )

    def revoked(self, now: datetime) -> Credential:
        if self.status == "revoked":
            raise PartnerRuleError("credential_revoked", "the credential is already revoked")
        return replace(self, status="revoked", revoked_at=now, previous_hash=None, previous_valid_until=None)

    def used(self, now: datetime) -> Credential:
        return replace(self, last_used_at=now)


def grant(partner: Partner, requested: list[str]) -> frozenset[str]:
    """RFC 6749 §3.3: the scopes of a token. None asked: every scope of the partner; asking for
    one the partner does not have refuses the request (``invalid_scope``) rather than quietly
    narrowing it."""
    if partner.status != "active":
        raise PartnerRuleError("partner_suspended", "the partner is suspended")
    if not requested:
        return partner.scopes
    unknown = sorted(set(requested) - set(SCOPES))
    if unknown:
        raise PartnerRuleError("invalid_scope", f"unknown scopes {unknown}")
    extra = sorted(set(requested) - partner.scopes)
    if extra:
        raise PartnerRuleError("invalid_scope", f"the client may not have the scopes {extra}")
    return frozenset(requested)
