"""Webhooks for partner apps: subscriptions, the fan-out of consumed events into durable
deliveries, and the worker that sends them.

A consumed event becomes one delivery row per matching subscription in the consumer's unit
of work, so the rows commit with the inbox record (or not at all). The worker claims due
rows (``FOR UPDATE SKIP LOCKED``: replicas share the work) and sends each in a task of its own,
so that no delivery waits for another: one in flight per subscription, a few per partner
(``WebhookLimits``), and the claim is a lease in the database that outlives a crash. A failure
schedules the next attempt in ``next_attempt_at`` by the service clock; a subscription that
keeps failing has its deliveries wait (circuit breaker), then is disabled.

A URL is checked when it is subscribed and again at every connection (``domain.webhook_targets``,
``adapters.webhook_sender``): https to public addresses only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from gomoku_shared.contracts import Envelope
from gomoku_shared.cursors import bad_cursor, sign, unsign
from gomoku_shared.errors import Conflict, NotFound, ServiceError, Unprocessable
from gomoku_shared.loops import idle, stopped
from gomoku_shared.runtime import ServiceRuntime

from ..adapters.signing import KeyVault
from ..adapters.webhook_repository import SENDING, Delivery, WebhookRepository
from ..adapters.webhook_sender import (
    Outcome,
    TargetNotPublic,
    Unresolvable,
    WebhookSender,
    checked_addresses,
    signed_headers,
)
from ..domain import webhooks as rules
from ..domain.model import PartnerRuleError
from ..domain.webhook_targets import NOT_PUBLIC, NOT_PUBLIC_MESSAGE
from ..domain.webhooks import RetrySchedule, Subscription, WebhookLimits
from . import webhook_views as views
from .ambient import Units, own_transaction
from .unit_of_work import PartnersUnitOfWork

log = logging.getLogger("gomoku.partners.webhooks")

#: how long a claimed delivery is kept from other workers while it is being sent (above the
#: longest attempt, WEBHOOK_TIMEOUT_S <= 60 s)
LEASE_S = 120
#: a subscription's due deliveries claimed at once, then sent one after another (one in flight)
PER_SUBSCRIPTION = 10
#: a batch stops when the lease has less than one attempt and this margin left
LEASE_MARGIN_S = 10.0
#: how long a subscription's host may take to resolve (a slow resolver refuses the subscription)
RESOLVE_WITHIN_S = 5.0
#: on stop, how long the sends under way may finish; the rest are resent after their lease
STOP_GRACE_S = 3.0


def _wall_clock() -> datetime:
    return datetime.now(UTC)


@dataclass
class WebhookService:
    runtime: ServiceRuntime
    sender: WebhookSender
    schedule: RetrySchedule
    disable_after: int
    secret_grace_s: int
    #: seals the subscriptions' secrets at rest (under PARTNERS_KEY)
    vault: KeyVault
    #: ``webhook-timestamp`` is the wall-clock time of the attempt: receivers check it against
    #: their own clock; the retry schedule follows the service clock
    wall_clock: Callable[[], datetime] = _wall_clock
    limits: WebhookLimits = field(default_factory=WebhookLimits)
    #: set when new deliveries have committed: the worker sends them without waiting its poll
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def _now(self) -> datetime:
        return self.runtime.clock.now()

    def _repo(self, uow: PartnersUnitOfWork) -> WebhookRepository:
        return uow.webhooks(self.vault)

    async def seal_plaintext_secrets(self, batch: int = 100) -> int:
        """Seal the secrets still stored in plain text (rows written before secrets were sealed),
        with this service's PARTNERS_KEY; run at start, before the worker sends. Returns how
        many subscriptions it sealed (0 once every row is sealed)."""
        sealed = 0
        while True:
            async with own_transaction(self.runtime) as uow:
                repo = self._repo(uow)
                found = await repo.unsealed_subscriptions(batch)
                for sub in found:
                    await repo.save_subscription(sub)
            sealed += len(found)
            if len(found) < batch:
                break
        if sealed:
            log.info("sealed the webhook secrets of %d subscriptions stored in plain text", sealed)
        return sealed

    # ------------------------------------------------------------------ subscriptions
    async def subscribe(
        self, units: Units, partner_id: str, url: str, event_types: list[str], description: str
    ) -> dict[str, Any]:
        try:
            sub = Subscription(
                subscription_id=rules.new_subscription_id(),
                partner_id=partner_id,
                url=self.sender.policy.checked_url(url),
                event_types=rules.checked_types(event_types),
                description=description,
                secret=rules.new_secret(),
                status="active",
                created_at=self._now(),
            )
        except PartnerRuleError as exc:
            raise Unprocessable(exc.code, exc.message) from None
        await self._public_target(sub.url)
        async with units.transaction() as uow:
            await self._refuse_duplicate(uow, sub)
            repo = self._repo(uow)
            if await repo.count_subscriptions_locked(partner_id) >= self.limits.max_subscriptions:
                raise Conflict(
                    "subscription_limit_reached",
                    f"a partner may have {self.limits.max_subscriptions} webhook subscriptions; delete one first",
                    {"limit": self.limits.max_subscriptions},
                )
            await repo.add_subscription(sub)
        return {**views.subscription(sub), "secret": sub.secret}

    async def _refuse_duplicate(self, uow: PartnersUnitOfWork, sub: Subscription) -> None:
        """One subscription per URL and set of event types of a partner: a second would deliver
        every event twice. The partner's row is locked so that two equal requests cannot both pass."""
        await uow.partners.partner(sub.partner_id, for_update=True)
        for other in await self._repo(uow).subscriptions_of(sub.partner_id):
            if other.url == sub.url and set(other.event_types) == set(sub.event_types):
                raise Conflict(
                    "duplicate_subscription",
                    f"subscription {other.subscription_id} sends the same event types to this URL already",
                    {"subscription_id": other.subscription_id},
                )

    async def _public_target(self, url: str) -> None:
        """400 ``webhook_target_not_public`` unless the URL's host resolves now, to public
        addresses only (checked again at each delivery). The answer is the same whatever the
        reason, so it tells nothing of the platform's own names and addresses."""
        parts = urlsplit(url)
        assert parts.hostname is not None  # checked_url requires a host
        port = parts.port or (443 if parts.scheme == "https" else 80)
        try:
            async with asyncio.timeout(RESOLVE_WITHIN_S):
                await checked_addresses(self.sender.resolver, self.sender.policy, parts.hostname, port, parts.scheme)
        except (TargetNotPublic, Unresolvable, TimeoutError) as exc:
            log.info("webhook subscription to %s refused: %s", parts.hostname, exc or "resolving took too long")
            raise ServiceError(NOT_PUBLIC, NOT_PUBLIC_MESSAGE, status=400) from None

    async def subscriptions(self, partner_id: str) -> dict[str, Any]:
        async with own_transaction(self.runtime) as uow:
            found = await self._repo(uow).subscriptions_of(partner_id)
        return {"items": [views.subscription(s) for s in found]}

    async def subscription(self, partner_id: str, subscription_id: str) -> dict[str, Any]:
        async with own_transaction(self.runtime) as uow:
            sub = await self._own(self._repo(uow), partner_id, subscription_id)
        return views.subscription(sub)

    async def unsubscribe(self, units: Units, partner_id: str, subscription_id: str) -> None:
        """Deleted subscriptions send nothing more; their delivery log stays readable."""
        async with units.transaction() as uow:
            repo = self._repo(uow)
            sub = await self._own(repo, partner_id, subscription_id, for_update=True)
            await repo.save_subscription(Subscription(**{**sub.__dict__, "status": "deleted"}))

    async def rotate_secret(
        self, units: Units, partner_id: str, subscription_id: str, grace_s: int | None
    ) -> dict[str, Any]:
        grace = timedelta(seconds=self.secret_grace_s if grace_s is None else grace_s)
        async with units.transaction() as uow:
            repo = self._repo(uow)
            sub = await self._own(repo, partner_id, subscription_id, for_update=True)
            rotated = sub.rotated(rules.new_secret(), self._now(), grace)
            await repo.save_subscription(rotated)
        return {**views.subscription(rotated), "secret": rotated.secret}

    async def enable(self, units: Units, partner_id: str, subscription_id: str) -> dict[str, Any]:
        """A disabled subscription sends again: its pending deliveries are due at once."""
        async with units.transaction() as uow:
            repo = self._repo(uow)
            sub = await self._own(repo, partner_id, subscription_id, for_update=True)
            if sub.disabled_by is not None:  # offboarding: the operator's decision stands
                raise Conflict("subscription_disabled_by_operator", "an operator disabled this subscription")
            enabled = sub.enabled()
            await repo.save_subscription(enabled)
            await repo.resume_pending(sub.subscription_id, self._now())  # those the breaker held too
            repo.after_commit(self._wake.set)
        return views.subscription(enabled)

    async def _own(
        self, repo: WebhookRepository, partner_id: str, subscription_id: str, *, for_update: bool = False
    ) -> Subscription:
        sub = await repo.subscription(subscription_id, for_update=for_update)
        # another partner's subscription is as unknown as a missing one
        if sub is None or sub.partner_id != partner_id or sub.status == "deleted":
            raise NotFound("subscription_not_found", f"no subscription {subscription_id!r}")
        return sub

    # ------------------------------------------------------------------ delivery log
    async def deliveries(
        self, partner_id: str, *, subscription_id: str | None, status: str | None, cursor: str | None, limit: int
    ) -> dict[str, Any]:
        before = _cursor(cursor)
        async with own_transaction(self.runtime) as uow:
            rows = await self._repo(uow).deliveries_page(
                partner_id, subscription_id=subscription_id, status=status, before=before, limit=limit + 1
            )
        more = len(rows) > limit
        rows = rows[:limit]
        last = rows[-1] if rows and more else None
        return {
            "items": [views.delivery(d) for d in rows],
            "next_cursor": sign(f"{last.created_at.isoformat()}|{last.delivery_id}".encode()) if last else None,
        }

    async def redeliver(self, units: Units, partner_id: str, delivery_id: str) -> dict[str, Any]:
        """Send again, with the same webhook-id (a receiver that has it already skips it)."""
        async with units.transaction() as uow:
            repo = self._repo(uow)
            found = await repo.delivery(delivery_id, for_update=True)
            if found is None or found.partner_id != partner_id:
                raise NotFound("delivery_not_found", f"no delivery {delivery_id!r}")
            sub = await repo.subscription(found.subscription_id)
            if sub is None or sub.status == "deleted":
                raise Conflict("subscription_deleted", "the delivery's subscription is deleted")
            sending = found.status == SENDING and found.next_attempt_at and found.next_attempt_at > self._now()
            if not sending:  # one being sent now stays with its worker (one in flight per subscription)
                await repo.record_attempt(delivery_id, status="pending", next_attempt_at=self._now())
            repo.after_commit(self._wake.set)
            again = await repo.delivery(delivery_id)
        assert again is not None
        return views.delivery(again)

    # ------------------------------------------------------------------ fan-out (consumer)
    async def on_event(self, uow: PartnersUnitOfWork, env: Envelope[Any]) -> int:
        """Delivery rows for ``env``, in the consumer's unit of work; returns how many."""
        repo = self._repo(uow)
        payload = env.payload.model_dump(mode="json")
        hook_type = rules.WEBHOOK_TYPE_OF.get(env.type, env.type)
        if hook_type == "entry.decided":  # the partner that registered the entry alone
            payload = rules.decided_entry(env.type, payload)
            partners: set[str] | None = {payload["partner_id"]} if payload.get("partner_id") else set()
        elif env.type in ("round.paired", "playoff.required"):
            pairings = payload.get("pairings", [])
            for pairing in pairings:
                await repo.remember_pairing(
                    pairing["pairing_id"], pairing.get("first_partner"), pairing.get("second_partner")
                )
            if env.type == "playoff.required":  # remembered for its games; not a webhook itself
                return 0
            partners = {
                p for pairing in pairings for p in (pairing.get("first_partner"), pairing.get("second_partner")) if p
            }
        elif env.type in ("game.created", "game.started", "game.finished"):
            partners = await repo.pairing_partners(payload["pairing_id"])
        else:  # public results: every subscribed partner
            partners = None
        if partners is not None and not partners:
            return 0
        written: list[Delivery] = []
        now = self._now()
        bodies: dict[str, str | None] = {}  # what each partner sees of it, made once per partner
        for sub in await repo.active_subscriptions(hook_type, partners):
            if sub.partner_id not in bodies:
                data = rules.partner_view(hook_type, payload, sub.partner_id)
                bodies[sub.partner_id] = (
                    None
                    if data is None
                    else json.dumps(
                        {"type": hook_type, "timestamp": env.occurred_at.isoformat(), "data": data},
                        sort_keys=True,
                        separators=(",", ":"),
                    )
                )
            body = bodies[sub.partner_id]
            if body is None:
                continue
            written.append(
                Delivery(
                    delivery_id=rules.new_delivery_id(),
                    subscription_id=sub.subscription_id,
                    partner_id=sub.partner_id,
                    event_type=hook_type,
                    event_id=str(env.event_id),
                    body=body,
                    status="pending",
                    attempts=0,
                    created_at=now,
                    # a receiver that keeps failing is not tried at once (its circuit is open)
                    next_attempt_at=now + self._pause if self.limits.circuit_open(sub.failure_streak) else now,
                )
            )
        await repo.add_deliveries(written)
        if written:
            repo.after_commit(self._wake.set)
        return len(written)

    # ------------------------------------------------------------------ worker
    @property
    def _pause(self) -> timedelta:
        return timedelta(seconds=self.limits.breaker_pause_s)

    async def _claim(self, room: int) -> list[tuple[list[Delivery], Subscription | None]]:
        """Claim the due deliveries of up to ``room`` subscriptions within the caps, each batch
        with its subscription."""
        now = self._now()
        async with own_transaction(self.runtime) as uow:
            repo = self._repo(uow)
            claimed = await repo.claim_due(
                now,
                now + timedelta(seconds=LEASE_S),
                room,
                per_partner=self.limits.partner_in_flight,
                per_subscription=PER_SUBSCRIPTION,
            )
            return [(batch, await repo.subscription(batch[0].subscription_id)) for batch in claimed]

    async def deliver_due(self) -> int:
        """Claim the due deliveries (within the caps), send them and record each outcome;
        returns how many were attempted. The worker loop (``run``) does not wait like this: it
        claims again as soon as any subscription's sends end."""
        claimed = await self._claim(self.limits.worker_in_flight)
        return sum(await asyncio.gather(*(self._deliver(batch, sub) for batch, sub in claimed)))

    async def _deliver(self, batch: list[Delivery], sub: Subscription | None) -> int:
        """Send a subscription's claimed deliveries one after another, while they succeed and
        the lease leaves time for another attempt; the rest are released (due again at once, or
        after the breaker's pause that a failure recorded). Returns how many were attempted."""
        assert sub is not None  # the claim joins the subscription
        started = time.monotonic()
        for done, delivery in enumerate(batch):
            headers = signed_headers(
                delivery.delivery_id, self.wall_clock(), delivery.body, sub.secrets_signing(self._now())
            )
            outcome = await self.sender.send(sub.url, headers, delivery.body)
            rest = batch[done + 1 :]
            out_of_time = time.monotonic() - started + self.sender.timeout_s > LEASE_S - LEASE_MARGIN_S
            stop = not outcome.ok or out_of_time
            await self._record(delivery, outcome, release=[d.delivery_id for d in rest] if stop else [])
            if stop:
                return done + 1
        return len(batch)

    async def _record(self, delivery: Delivery, outcome: Outcome, release: list[str] | None = None) -> None:
        now = self._now()
        attempts = delivery.attempts + 1
        async with own_transaction(self.runtime) as uow:
            repo = self._repo(uow)
            sub = await repo.subscription(delivery.subscription_id, for_update=True)
            assert sub is not None
            await repo.release(release or [], now)
            values: dict[str, Any] = {
                "attempts": attempts,
                "last_attempt_at": now,
                "last_status_code": outcome.status_code,
                "last_response_ms": outcome.response_ms,
                "last_error": outcome.error,
            }
            if outcome.ok:
                values |= {"status": "delivered", "delivered_at": now, "next_attempt_at": None}
                changed = sub.succeeded()
                if self.limits.circuit_open(sub.failure_streak):  # the receiver is back: the rest go now
                    await repo.resume_pending(sub.subscription_id, now)
            else:
                retry_at = self.schedule.next_attempt(attempts, now)
                changed = sub.failed(now, self.disable_after)
                if retry_at is not None and self.limits.circuit_open(changed.failure_streak):
                    retry_at = max(retry_at, now + self._pause)
                    await repo.defer_pending(sub.subscription_id, now + self._pause)
                values |= {"status": "pending" if retry_at else "failed", "next_attempt_at": retry_at}
                if changed.status == "disabled" and sub.status == "active":
                    log.warning("webhook subscription %s disabled: %s", sub.subscription_id, changed.notice)
            await repo.record_attempt(delivery.delivery_id, **values)
            if changed != sub:
                await repo.save_subscription(changed)

    async def run(self, poll_s: float, stop: asyncio.Event | None = None) -> None:
        """The worker loop: each due delivery is sent in a task of its own, and the loop claims
        again whenever a send ends, new deliveries commit or ``poll_s`` has passed (real time;
        due-ness is decided by the service clock): a receiver that hangs holds its own delivery
        only. Plain-text secrets are sealed first (they sign as they are meanwhile). It returns
        once ``stop`` is set, after the sends under way (those not done within STOP_GRACE_S
        are cancelled; their leases lapse and they are sent again)."""
        try:
            await self.seal_plaintext_secrets()
        except Exception:  # noqa: BLE001 - they still sign; the next start seals them
            log.exception("sealing the plain-text webhook secrets failed")
        sending: set[asyncio.Task[int]] = set()

        def done(task: asyncio.Task[int]) -> None:
            sending.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("webhook delivery failed", exc_info=task.exception())
            self._wake.set()

        try:
            while not stopped(stop):
                self._wake.clear()
                claimed: list[tuple[list[Delivery], Subscription | None]] = []
                room = self.limits.worker_in_flight - len(sending)
                if room > 0:
                    try:
                        claimed = await self._claim(room)
                    except Exception:  # noqa: BLE001 - a database hiccup: the rows stay, try again
                        log.exception("claiming webhook deliveries failed")
                for batch, sub in claimed:
                    task = asyncio.create_task(self._deliver(batch, sub), name=f"webhooks {batch[0].subscription_id}")
                    sending.add(task)
                    task.add_done_callback(done)
                if not claimed:
                    await idle(stop, poll_s, self._wake)
        finally:
            if sending:
                _, late = await asyncio.wait(set(sending), timeout=STOP_GRACE_S)
                for task in late:
                    task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await asyncio.gather(*late, return_exceptions=True)


def _cursor(cursor: str | None) -> tuple[datetime, str] | None:
    """The (created_at, delivery_id) a signed cursor continues after; 400 ``bad_cursor`` else."""
    if not cursor:
        return None
    try:
        at, sep, delivery_id = unsign(cursor).decode().partition("|")
        parsed = datetime.fromisoformat(at)
    except (UnicodeDecodeError, ValueError):
        raise bad_cursor() from None
    if not sep or parsed.tzinfo is None:
        raise bad_cursor()
    return parsed, delivery_id
