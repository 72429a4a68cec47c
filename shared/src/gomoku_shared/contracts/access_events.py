"""The events about who may act: partner apps' accounts and credentials, and each event's owner
and chosen partner apps."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar, Literal

from .envelope import Payload

__all__ = ["EventAccessChanged", "PartnerCredentialsRevoked", "PartnerRegistered"]


class EventAccessChanged(Payload):
    """Who owns an event and which partner apps may act in it: sent when the event is created
    and whenever its organiser changes the partner apps. Every service that authorises staff
    or partners per event keeps the latest (``gomoku_shared.event_access``)."""

    TYPE: ClassVar[str] = "event.access_changed"
    event_code: str
    #: the organisation that owns the event (its staff act on it)
    organisation: str
    #: the partner ids that may register entries and run games; None: every partner
    partners: list[str] | None = None
    changed_at: datetime


class PartnerRegistered(Payload):
    """An operator created a partner account (a webhooks service keys subscriptions on it)."""

    TYPE: ClassVar[str] = "partner.registered"
    partner_id: str
    name: str
    #: the role of its access tokens: partner, or viewer for a spectator app
    role: Literal["partner", "viewer"]
    scopes: list[str]


class PartnerCredentialsRevoked(Payload):
    """Client credentials stopped being valid: every service refuses their access tokens from
    now on, before the tokens expire."""

    TYPE: ClassVar[str] = "partner.credentials_revoked"
    partner_id: str
    client_ids: list[str]
    revoked_at: datetime
    reason: str = ""
