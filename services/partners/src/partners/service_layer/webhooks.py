"""Webhooks for partner apps: subscriptions, the fan-out of consumed events into durable
deliveries, and the worker that sends them.

A consumed event becomes one delivery row per matching subscription in the consumer's unit
of work, so the rows commit with the inbox record (or not at all). The worker claims due
rows (``FOR UPDATE SKIP LOCKED``: replicas share the work), sends them and records the
outcome; a failure schedules the next attempt in ``next_attempt_at`` by the service clock.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from gomoku_shared.contracts import Envelope
from gomoku_shared.cursors import bad_cursor, sign, unsign
from gomoku_shared.errors import Conflict, NotFound, Unprocessable
from gomoku_shared.loops import idle, stopped
from gomoku_shared.runtime import ServiceRuntime, UnitOfWork

from ..adapters.repository import PartnerRepository
from ..adapters.signing import KeyVault
from ..adapters.webhook_repository import Delivery, WebhookRepository
from ..adapters.webhook_sender import Outcome, WebhookSender, signed_headers
from ..domain import webhooks as rules
from ..domain.model import PartnerRuleError
from ..domain.webhooks import RetrySchedule, Subscription
from . import webhook_views as views
from .ambient import unit_of_work

log = logging.getLogger("gomoku.partners.webhooks")

#: how long a claimed delivery is kept from other workers while it is being sent
LEASE_S = 120
CLAIM_BATCH = 20


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
    #: set when new deliveries have committed: the worker sends them without waiting its poll
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    def _now(self) -> datetime:
        return self.runtime.clock.now()

    def _repo(self, uow: UnitOfWork) -> WebhookRepository:
        return WebhookRepository(uow.session, self.vault)

    async def seal_plaintext_secrets(self, batch: int = 100) -> int:
        """Seal the secrets still stored in plain text (rows written before secrets were sealed),
        with this service's PARTNERS_KEY; run at start, before the worker sends. Returns how
        many subscriptions it sealed (0 once every row is sealed)."""
        sealed = 0
        while True:
            async with self.runtime.transaction() as uow:
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
    async def subscribe(self, partner_id: str, url: str, event_types: list[str], description: str) -> dict[str, Any]:
        try:
            sub = Subscription(
                subscription_id=rules.new_subscription_id(),
                partner_id=partner_id,
                url=rules.checked_url(url),
                event_types=rules.checked_types(event_types),
                description=description,
                secret=rules.new_secret(),
                status="active",
                created_at=self._now(),
            )
        except PartnerRuleError as exc:
            raise Unprocessable(exc.code, exc.message) from None
        async with unit_of_work(self.runtime) as uow:
            await self._refuse_duplicate(uow, sub)
            await self._repo(uow).add_subscription(sub)
        return {**views.subscription(sub), "secret": sub.secret}

    async def _refuse_duplicate(self, uow: UnitOfWork, sub: Subscription) -> None:
        """One subscription per URL and set of event types of a partner: a second would deliver
        every event twice. The partner's row is locked so that two equal requests cannot both pass."""
        await PartnerRepository(uow.session).partner(sub.partner_id, for_update=True)
        for other in await self._repo(uow).subscriptions_of(sub.partner_id):
            if other.url == sub.url and set(other.event_types) == set(sub.event_types):
                raise Conflict(
                    "duplicate_subscription",
                    f"subscription {other.subscription_id} sends the same event types to this URL already",
                    {"subscription_id": other.subscription_id},
                )

    async def subscriptions(self, partner_id: str) -> dict[str, Any]:
        async with self.runtime.transaction() as uow:
            found = await self._repo(uow).subscriptions_of(partner_id)
        return {"items": [views.subscription(s) for s in found]}

    async def subscription(self, partner_id: str, subscription_id: str) -> dict[str, Any]:
        async with self.runtime.transaction() as uow:
            sub = await self._own(self._repo(uow), partner_id, subscription_id)
        return views.subscription(sub)

    async def unsubscribe(self, partner_id: str, subscription_id: str) -> None:
        """Deleted subscriptions send nothing more; their delivery log stays readable."""
        async with self.runtime.transaction() as uow:
            repo = self._repo(uow)
            sub = await self._own(repo, partner_id, subscription_id, for_update=True)
            await repo.save_subscription(Subscription(**{**sub.__dict__, "status": "deleted"}))

    async def rotate_secret(self, partner_id: str, subscription_id: str, grace_s: int | None) -> dict[str, Any]:
        grace = timedelta(seconds=self.secret_grace_s if grace_s is None else grace_s)
        async with unit_of_work(self.runtime) as uow:
            repo = self._repo(uow)
            sub = await self._own(repo, partner_id, subscription_id, for_update=True)
            rotated = sub.rotated(rules.new_secret(), self._now(), grace)
            await repo.save_subscription(rotated)
        return {**views.subscription(rotated), "secret": rotated.secret}

    async def enable(self, partner_id: str, subscription_id: str) -> dict[str, Any]:
        """A disabled subscription sends again: its pending deliveries are due at once."""
        async with unit_of_work(self.runtime) as uow:
            repo = self._repo(uow)
            sub = await self._own(repo, partner_id, subscription_id, for_update=True)
            if sub.disabled_by is not None:  # offboarding: the operator's decision stands
                raise Conflict("subscription_disabled_by_operator", "an operator disabled this subscription")
            enabled = sub.enabled()
            await repo.save_subscription(enabled)
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
        async with self.runtime.transaction() as uow:
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

    async def redeliver(self, partner_id: str, delivery_id: str) -> dict[str, Any]:
        """Send again, with the same webhook-id (a receiver that has it already skips it)."""
        async with unit_of_work(self.runtime) as uow:
            repo = self._repo(uow)
            found = await repo.delivery(delivery_id, for_update=True)
            if found is None or found.partner_id != partner_id:
                raise NotFound("delivery_not_found", f"no delivery {delivery_id!r}")
            sub = await repo.subscription(found.subscription_id)
            if sub is None or sub.status == "deleted":
                raise Conflict("subscription_deleted", "the delivery's subscription is deleted")
            await repo.record_attempt(delivery_id, status="pending", next_attempt_at=self._now())
            repo.after_commit(self._wake.set)
            again = await repo.delivery(delivery_id)
        assert again is not None
        return views.delivery(again)

    # ------------------------------------------------------------------ fan-out (consumer)
    async def on_event(self, uow: UnitOfWork, env: Envelope[Any]) -> int:
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
        written = 0
        for sub in await repo.active_subscriptions(hook_type, partners):
            data = rules.partner_view(hook_type, payload, sub.partner_id)
            if data is None:
                continue
            body = json.dumps(
                {"type": hook_type, "timestamp": env.occurred_at.isoformat(), "data": data},
                sort_keys=True,
                separators=(",", ":"),
            )
            await repo.add_delivery(
                Delivery(
                    delivery_id=rules.new_delivery_id(),
                    subscription_id=sub.subscription_id,
                    partner_id=sub.partner_id,
                    event_type=hook_type,
                    event_id=str(env.event_id),
                    body=body,
                    status="pending",
                    attempts=0,
                    created_at=self._now(),
                    next_attempt_at=self._now(),
                )
            )
            written += 1
        if written:
            repo.after_commit(self._wake.set)
        return written

    # ------------------------------------------------------------------ worker
    async def deliver_due(self) -> int:
        """Claim the due deliveries, send them concurrently, record each outcome; returns
        how many were attempted."""
        now = self._now()
        async with self.runtime.transaction() as uow:
            repo = self._repo(uow)
            claimed = await repo.claim_due(now, now + timedelta(seconds=LEASE_S), CLAIM_BATCH)
            subs = {d.subscription_id: await repo.subscription(d.subscription_id) for d in claimed}
        sent = await asyncio.gather(*(self._send(d, subs[d.subscription_id]) for d in claimed))
        for delivery, outcome in zip(claimed, sent):
            await self._record(delivery, outcome)
        return len(claimed)

    async def _send(self, delivery: Delivery, sub: Subscription | None) -> Outcome:
        assert sub is not None  # the claim joins the subscription
        headers = signed_headers(
            delivery.delivery_id, self.wall_clock(), delivery.body, sub.secrets_signing(self._now())
        )
        return await self.sender.send(sub.url, headers, delivery.body)

    async def _record(self, delivery: Delivery, outcome: Outcome) -> None:
        now = self._now()
        attempts = delivery.attempts + 1
        async with self.runtime.transaction() as uow:
            repo = self._repo(uow)
            sub = await repo.subscription(delivery.subscription_id, for_update=True)
            assert sub is not None
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
            else:
                retry_at = self.schedule.next_attempt(attempts, now)
                values |= {"status": "pending" if retry_at else "failed", "next_attempt_at": retry_at}
                changed = sub.failed(now, self.disable_after)
                if changed.status == "disabled" and sub.status == "active":
                    log.warning("webhook subscription %s disabled: %s", sub.subscription_id, changed.notice)
            await repo.record_attempt(delivery.delivery_id, **values)
            if changed != sub:
                await repo.save_subscription(changed)

    async def run(self, poll_s: float, stop: asyncio.Event | None = None) -> None:
        """The worker loop: work while there is due work, else wait ``poll_s`` (real time;
        due-ness is decided by the service clock) or until new deliveries commit. Plain-text
        secrets are sealed first (they sign as they are meanwhile). It returns once ``stop`` is set
        (after the delivery round under way)."""
        try:
            await self.seal_plaintext_secrets()
        except Exception:  # noqa: BLE001 - they still sign; the next start seals them
            log.exception("sealing the plain-text webhook secrets failed")
        while not stopped(stop):
            self._wake.clear()
            try:
                busy = await self.deliver_due()
            except Exception:  # noqa: BLE001 - a database hiccup: the rows stay, try again
                log.exception("webhook delivery round failed")
                busy = 0
            if not busy:
                await idle(stop, poll_s, self._wake)


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
