"""What the partners service is asked to do: one command per use case, plain data (the routes and
the consumers build them; :mod:`.handlers` runs each on the units of work). Secrets a command
carries (passwords, client secrets, codes, tokens) are left out of its ``repr``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts import Envelope

from ..domain.model import Kind, RateLimit

# ---------------------------------------------------------------------- partners and credentials


@dataclass(frozen=True)
class CreatePartner:
    actor: str
    partner_id: str
    name: str
    kind: Kind
    scopes: list[str]
    rate: RateLimit | None


@dataclass(frozen=True)
class UpdatePartner:
    actor: str
    partner_id: str
    name: str | None
    scopes: list[str] | None
    rate: RateLimit | None


@dataclass(frozen=True)
class IssueCredential:
    actor: str
    partner_id: str
    label: str


@dataclass(frozen=True)
class RotateCredential:
    actor: str
    client_id: str
    grace_s: int | None


@dataclass(frozen=True)
class RevokeCredential:
    actor: str
    client_id: str
    reason: str


@dataclass(frozen=True)
class IssueToken:
    """RFC 6749 §4.4.3: the client-credentials grant."""

    client_id: str
    secret: str = field(repr=False)
    requested: list[str]


@dataclass(frozen=True)
class RotateSigningKey:
    actor: str


# ---------------------------------------------------------------------- offboarding (operators)


@dataclass(frozen=True)
class SuspendPartner:
    actor: str
    partner_id: str
    reason: str


@dataclass(frozen=True)
class ResumePartner:
    actor: str
    partner_id: str
    reason: str


@dataclass(frozen=True)
class DisableSubscription:
    """An operator disables any partner's subscription (only an operator enables it again)."""

    actor: str
    partner_id: str
    subscription_id: str
    reason: str


@dataclass(frozen=True)
class ReenableSubscription:
    """An operator lifts their disabling of a subscription."""

    actor: str
    partner_id: str
    subscription_id: str


# ---------------------------------------------------------------------- organisations and staff


@dataclass(frozen=True)
class CreateOrganisation:
    principal: Principal
    org_id: str
    name: str
    name_zh: str | None


@dataclass(frozen=True)
class InviteStaff:
    principal: Principal
    org_id: str
    login: str
    name: str
    roles: list[str]
    events: dict[str, list[str]]


@dataclass(frozen=True)
class ResetPassword:
    principal: Principal
    org_id: str
    account_id: str


@dataclass(frozen=True)
class AcceptInvitation:
    token: str = field(repr=False)
    password: str = field(repr=False)


@dataclass(frozen=True)
class SetRoles:
    principal: Principal
    org_id: str
    account_id: str
    roles: list[str]
    events: dict[str, list[str]]


@dataclass(frozen=True)
class SetDisabled:
    principal: Principal
    org_id: str
    account_id: str
    disabled: bool


@dataclass(frozen=True)
class SignIn:
    login: str
    password: str = field(repr=False)
    totp: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class RefreshSession:
    session_id: str
    refresh_token: str = field(repr=False)


@dataclass(frozen=True)
class SignOut:
    session_id: str
    refresh_token: str = field(repr=False)


@dataclass(frozen=True)
class SignOutEverywhere:
    principal: Principal


@dataclass(frozen=True)
class StartTotp:
    principal: Principal


@dataclass(frozen=True)
class ConfirmTotp:
    principal: Principal
    code: str = field(repr=False)


# ---------------------------------------------------------------------- webhooks (partners)


@dataclass(frozen=True)
class Subscribe:
    partner_id: str
    url: str
    event_types: list[str]
    description: str


@dataclass(frozen=True)
class Unsubscribe:
    partner_id: str
    subscription_id: str


@dataclass(frozen=True)
class RotateWebhookSecret:
    partner_id: str
    subscription_id: str
    grace_s: int | None


@dataclass(frozen=True)
class EnableSubscription:
    """The partner enables its subscription again (one an operator disabled stays disabled)."""

    partner_id: str
    subscription_id: str


@dataclass(frozen=True)
class Redeliver:
    partner_id: str
    delivery_id: str


# ---------------------------------------------------------------------- consumers


@dataclass(frozen=True)
class DeliverEvent:
    """An integration event partners subscribe to: its webhook deliveries."""

    envelope: Envelope[Any]


@dataclass(frozen=True)
class RecordEventAccess:
    """event.access_changed: who owns the event (staff roles on it come from its organisation)."""

    event_code: str
    organisation: str
    partners: list[str] | None
    changed_at: datetime
