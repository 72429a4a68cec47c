"""Offboarding in the webhook queries: whose subscriptions may receive and send deliveries.

A partner's webhooks stop while it is suspended and once none of its credentials is active
(every one revoked): an offboarded partner is not told anything more. Its pending deliveries
stay pending and are sent if it is resumed (or given a new credential) before they expire.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import ColumnElement, select

from . import orm


def in_good_standing(partner_id: Any) -> ColumnElement[bool]:
    """SQL condition on a partner id column: the partner is active, and it holds an active
    credential or never had one revoked (every credential revoked: offboarded)."""
    credentials = orm.credentials.c
    active = select(orm.partners.c.partner_id).where(orm.partners.c.status == "active")
    credentialed = select(credentials.partner_id).where(credentials.status == "active")
    revoked = select(credentials.partner_id).where(credentials.status == "revoked")
    return partner_id.in_(active) & (partner_id.in_(credentialed) | ~partner_id.in_(revoked))
