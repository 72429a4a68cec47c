"""Webhook subscriptions and deliveries (Standard Webhooks): the rules, free of I/O.

A subscription sends the events of its types to one URL, signed with its secret; after a
rotation the previous secret signs too until its grace ends (the spec lets
``webhook-signature`` carry several signatures). A delivery is retried on the schedule, and
a subscription whose attempts keep failing is disabled with a notice.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any, Literal, get_args

from .model import PartnerRuleError
from .webhook_payloads import VIEWS

#: what a partner can subscribe to (the bus events the partners service consumes; each has its
#: partner view in ``webhook_payloads.VIEWS``); the request schema's type too
EventType = Literal[
    "round.paired",
    #: EVT-7: a round's start moved by the arbiter (public: every subscriber of the type)
    "round.rescheduled",
    #: a game of one of your players exists (they may join); game.started: it is under way
    "game.created",
    "game.started",
    "game.finished",
    "section.completed",
    "awards.published",
    #: a section's standings after each round (public: every subscriber of the type)
    "standings.updated",
    #: entry.accepted / entry.refused, to the partner that registered the entry only
    "entry.decided",
]
EVENT_TYPES: tuple[str, ...] = get_args(EventType)
#: the webhook type of a bus event whose type is not its own
WEBHOOK_TYPE_OF = {"entry.accepted": "entry.decided", "entry.refused": "entry.decided"}
SECRET_PREFIX = "whsec_"
#: keys never sent to a partner, wherever they sit in a payload (personal data; a partner
#: knows its own players, and no rule of a partner app needs others' birth years: docs/privacy.md)
PRIVATE_KEYS = frozenset({"birth_date", "birth_year", "attributes", "email", "phone"})


def checked_types(event_types: list[str]) -> tuple[str, ...]:
    unknown = sorted(set(event_types) - set(EVENT_TYPES))
    if unknown or not event_types:
        raise PartnerRuleError("invalid_event_types", f"choose among {', '.join(EVENT_TYPES)}; unknown: {unknown}")
    return tuple(sorted(set(event_types)))


def new_secret() -> str:
    """24 random bytes, base64, with the ``whsec_`` prefix the spec's libraries expect."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def new_subscription_id() -> str:
    return "sub_" + secrets.token_hex(10)


def new_delivery_id() -> str:
    """The ``webhook-id``: the same on every attempt and redelivery of one delivery."""
    return "msg_" + secrets.token_hex(12)


@dataclass(frozen=True)
class Subscription:
    subscription_id: str
    partner_id: str
    url: str
    event_types: tuple[str, ...]
    description: str
    secret: str
    status: str  # active, disabled or deleted
    created_at: datetime
    previous_secret: str | None = None
    previous_valid_until: datetime | None = None
    failure_streak: int = 0
    disabled_at: datetime | None = None
    notice: str | None = None
    #: the operator who disabled it; None when it was disabled after failed attempts
    disabled_by: str | None = None

    def secrets_signing(self, now: datetime) -> list[str]:
        """The current secret, and the previous one while its grace lasts."""
        found = [self.secret]
        if self.previous_secret and self.previous_valid_until and now < self.previous_valid_until:
            found.append(self.previous_secret)
        return found

    def rotated(self, secret: str, now: datetime, grace: timedelta) -> Subscription:
        return replace(self, secret=secret, previous_secret=self.secret, previous_valid_until=now + grace)

    def succeeded(self) -> Subscription:
        return replace(self, failure_streak=0)

    def failed(self, now: datetime, disable_after: int) -> Subscription:
        streak = self.failure_streak + 1
        if streak < disable_after or self.status != "active":
            return replace(self, failure_streak=streak)
        notice = f"disabled after {streak} failed attempts in a row; fix the receiver, then enable it again"
        return replace(self, failure_streak=streak, status="disabled", disabled_at=now, notice=notice)

    def enabled(self) -> Subscription:
        return replace(self, status="active", failure_streak=0, disabled_at=None, disabled_by=None)

    def disabled_by_operator(self, actor: str, reason: str, now: datetime) -> Subscription:
        """Offboarding: an operator stops it; only an operator enables it again."""
        if self.status == "deleted":
            raise PartnerRuleError("subscription_deleted", "the subscription is deleted")
        notice = f"disabled by an operator: {reason}"
        return replace(self, status="disabled", disabled_at=now, disabled_by=actor, notice=notice)


@dataclass(frozen=True)
class WebhookLimits:
    """What one partner may take of the delivery worker, so that one partner's hung receivers
    cannot delay another's webhooks. Settings: WEBHOOK_MAX_SUBSCRIPTIONS,
    WEBHOOK_PARTNER_IN_FLIGHT, WEBHOOK_WORKER_IN_FLIGHT, WEBHOOK_BREAKER_AFTER and
    WEBHOOK_BREAKER_PAUSE_S (the README's settings table)."""

    #: subscriptions a partner may have (deleted ones do not count)
    max_subscriptions: int = 10
    #: deliveries of one partner being sent at once, over every replica (one per subscription)
    partner_in_flight: int = 4
    #: deliveries one worker sends at once (one per subscription), every partner together
    worker_in_flight: int = 64
    #: failed attempts in a row after which a subscription's deliveries wait (circuit open)
    breaker_after: int = 5
    #: how long they wait; then one attempt probes the receiver (one in flight per subscription)
    breaker_pause_s: int = 300

    def circuit_open(self, failure_streak: int) -> bool:
        return failure_streak >= self.breaker_after


@dataclass(frozen=True)
class RetrySchedule:
    """Delays (seconds) before the 2nd, 3rd, ... attempt; after the last one the delivery fails."""

    delays_s: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> RetrySchedule:
        try:
            delays = tuple(int(item) for item in text.split(",") if item.strip())
        except ValueError:
            raise ValueError(f"WEBHOOK_RETRY_SCHEDULE_S: whole seconds separated by commas, not {text!r}") from None
        if any(d < 0 for d in delays):
            raise ValueError("WEBHOOK_RETRY_SCHEDULE_S: delays cannot be negative")
        return cls(delays)

    @property
    def attempts(self) -> int:
        return len(self.delays_s) + 1

    @property
    def total_s(self) -> int:
        return sum(self.delays_s)

    def next_attempt(self, attempts_made: int, now: datetime) -> datetime | None:
        """When to try again after ``attempts_made`` failed attempts; None when none is left."""
        if attempts_made > len(self.delays_s):
            return None
        return now + timedelta(seconds=self.delays_s[attempts_made - 1])


def public(value: Any) -> Any:
    """A payload without personal data keys, at any depth."""
    if isinstance(value, dict):
        return {k: public(v) for k, v in value.items() if k not in PRIVATE_KEYS}
    if isinstance(value, list):
        return [public(v) for v in value]
    return value


def decided_entry(bus_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """entry.accepted / entry.refused as the ``entry.decided`` payload; its ``partner_id`` is
    the partner that registered the entry (None: staff did, and no partner is told)."""
    if bus_type == "entry.accepted":
        owner = (payload.get("entrant") or {}).get("partner_id")
        return {**payload, "decision": "accepted", "reason": None, "partner_id": owner}
    entry_id = payload.get("entry_id") or payload.get("application_id")
    return {**payload, "decision": "refused", "entry_id": entry_id}


def partner_view(event_type: str, payload: dict[str, Any], partner_id: str) -> dict[str, Any] | None:
    """What ``partner_id`` may see of an event (the ``data`` of its webhook body), or None when
    nothing of it concerns it: the event type's view model (``webhook_payloads.VIEWS``) built
    from the contract payload, without personal data keys at any depth. round.paired: only the
    pairings of its own players; entry.decided: its own entries only (``decided_entry``)."""
    if event_type == "entry.decided" and payload.get("partner_id") != partner_id:
        return None
    if event_type == "round.paired":
        own = [
            p for p in payload.get("pairings", []) if partner_id in (p.get("first_partner"), p.get("second_partner"))
        ]
        if not own:
            return None
        payload = {**payload, "pairings": own}
    view = VIEWS[event_type].model_validate(payload)
    return public(view.model_dump(mode="json"))
