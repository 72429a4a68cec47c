"""Webhook subscriptions, deliveries and pairing partners in the service's database (the only
module that builds their statements).

A subscription's signing secrets are stored sealed (``KeyVault.seal_secret``, under
PARTNERS_KEY): sealed on every write, opened on every read; a row written in plain text before
sealing existed still reads, and ``unsealed_subscriptions`` finds it to be sealed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, event, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from ..domain.webhooks import Subscription
from . import orm
from .partner_standing import in_good_standing
from .signing import SEALED_PREFIX, KeyVault

SUBS = orm.webhook_subscriptions
DELIVERIES = orm.webhook_deliveries
#: a delivery's status while a worker sends it (``next_attempt_at`` is then its lease's end);
#: shown as ``pending`` in the API (docs/api.md)
SENDING = "sending"


@dataclass(frozen=True)
class Delivery:
    delivery_id: str
    subscription_id: str
    partner_id: str
    event_type: str
    event_id: str
    body: str
    status: str
    attempts: int
    created_at: datetime
    next_attempt_at: datetime | None = None
    last_attempt_at: datetime | None = None
    last_status_code: int | None = None
    last_response_ms: int | None = None
    last_error: str | None = None
    delivered_at: datetime | None = None


def _subscription(row: Any, vault: KeyVault) -> Subscription:
    return Subscription(
        subscription_id=row.subscription_id,
        partner_id=row.partner_id,
        url=row.url,
        event_types=tuple(row.event_types.split()),
        description=row.description,
        secret=vault.open_secret(row.secret),
        status=row.status,
        created_at=row.created_at,
        previous_secret=vault.open_secret(row.previous_secret) if row.previous_secret else None,
        previous_valid_until=row.previous_valid_until,
        failure_streak=row.failure_streak,
        disabled_at=row.disabled_at,
        notice=row.notice,
        disabled_by=row.disabled_by,
    )


def _subscription_row(sub: Subscription, vault: KeyVault) -> dict[str, Any]:
    return {
        "subscription_id": sub.subscription_id,
        "partner_id": sub.partner_id,
        "url": sub.url,
        "event_types": " ".join(sub.event_types),
        "description": sub.description,
        "secret": vault.seal_secret(sub.secret),
        "previous_secret": vault.seal_secret(sub.previous_secret) if sub.previous_secret else None,
        "previous_valid_until": sub.previous_valid_until,
        "status": sub.status,
        "failure_streak": sub.failure_streak,
        "disabled_at": sub.disabled_at,
        "notice": sub.notice,
        "created_at": sub.created_at,
        "disabled_by": sub.disabled_by,
    }


def _delivery(row: Any) -> Delivery:
    return Delivery(**{column.name: getattr(row, column.name) for column in DELIVERIES.columns})


class WebhookRepository:
    def __init__(self, session: AsyncSession, vault: KeyVault) -> None:
        self.session = session
        self.vault = vault

    def after_commit(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once the session's transaction has committed."""
        event.listen(self.session.sync_session, "after_commit", lambda _session: callback(), once=True)

    # ------------------------------------------------------------------ subscriptions
    async def add_subscription(self, sub: Subscription) -> None:
        await self.session.execute(insert(SUBS).values(**_subscription_row(sub, self.vault)))

    async def save_subscription(self, sub: Subscription) -> None:
        await self.session.execute(
            update(SUBS)
            .where(SUBS.c.subscription_id == sub.subscription_id)
            .values(**_subscription_row(sub, self.vault))
        )

    async def subscription(self, subscription_id: str, *, for_update: bool = False) -> Subscription | None:
        stmt = select(SUBS).where(SUBS.c.subscription_id == subscription_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return _subscription(row, self.vault) if row else None

    async def subscriptions_of(self, partner_id: str) -> list[Subscription]:
        rows = await self.session.execute(
            select(SUBS)
            .where(SUBS.c.partner_id == partner_id, SUBS.c.status != "deleted")
            .order_by(SUBS.c.created_at, SUBS.c.subscription_id)
        )
        return [_subscription(r, self.vault) for r in rows]

    async def active_subscriptions(self, event_type: str, partner_ids: set[str] | None) -> list[Subscription]:
        """Active subscriptions to ``event_type``, of ``partner_ids`` only unless None (every partner)."""
        stmt = select(SUBS).where(SUBS.c.status == "active", SUBS.c.event_types.contains(event_type))
        stmt = stmt.where(in_good_standing(SUBS.c.partner_id))  # offboarded partners get nothing new
        if partner_ids is not None:
            stmt = stmt.where(SUBS.c.partner_id.in_(sorted(partner_ids)))
        rows = await self.session.execute(stmt.order_by(SUBS.c.subscription_id))
        return [sub for sub in (_subscription(r, self.vault) for r in rows) if event_type in sub.event_types]

    async def unsealed_subscriptions(self, limit: int) -> list[Subscription]:
        """Subscriptions (any status) with a secret still stored in plain text, locked (SKIP
        LOCKED: replicas starting together seal different rows); saving one seals it."""
        plain_previous = SUBS.c.previous_secret.is_not(None) & ~SUBS.c.previous_secret.startswith(SEALED_PREFIX)
        stmt = (
            select(SUBS)
            .where(~SUBS.c.secret.startswith(SEALED_PREFIX) | plain_previous)
            .order_by(SUBS.c.subscription_id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        return [_subscription(r, self.vault) for r in await self.session.execute(stmt)]

    # ------------------------------------------------------------------ deliveries
    async def add_deliveries(self, deliveries: list[Delivery]) -> None:
        """One statement for all of them (an event fans out to every subscriber at once)."""
        if deliveries:
            rows = [{column.name: getattr(d, column.name) for column in DELIVERIES.columns} for d in deliveries]
            await self.session.execute(insert(DELIVERIES), rows)

    def _due(self, now: datetime) -> Any:
        """Deliveries to attempt now: pending and due, or sending with a lapsed lease (the
        worker that claimed them died), of an active subscription."""
        return (
            DELIVERIES.c.status.in_(("pending", SENDING)),
            DELIVERIES.c.next_attempt_at <= now,
            SUBS.c.status == "active",
            in_good_standing(SUBS.c.partner_id),  # offboarding: a suspended partner's wait
        )

    async def claim_due(
        self, now: datetime, lease_until: datetime, limit: int, per_partner: int, per_subscription: int
    ) -> list[list[Delivery]]:
        """Due deliveries of up to ``limit`` subscriptions, marked as being sent and leased until
        ``lease_until`` (a worker that dies leaves them due again after the lease; nothing is
        lost): for each subscription its ``per_subscription`` oldest due ones, to be sent one
        after another (one in flight per subscription), and at most ``per_partner``
        subscriptions of a partner in flight. The partners' rows are locked while claiming (SKIP
        LOCKED: a replica claiming for the same partner now leaves it to this one), so replicas
        respect the caps together. The oldest due subscription first."""
        due_subs = (
            select(DELIVERIES.c.subscription_id, DELIVERIES.c.partner_id)
            .join(SUBS, SUBS.c.subscription_id == DELIVERIES.c.subscription_id)
            .where(*self._due(now))
            .group_by(DELIVERIES.c.subscription_id, DELIVERIES.c.partner_id)
            .order_by(func.min(DELIVERIES.c.next_attempt_at), DELIVERIES.c.subscription_id)
        )
        candidates = [(row.subscription_id, row.partner_id) for row in await self.session.execute(due_subs)]
        if not candidates:
            return []
        locked = set(
            (
                await self.session.execute(
                    select(orm.partners.c.partner_id)
                    .where(orm.partners.c.partner_id.in_(sorted({p for _, p in candidates})))
                    .with_for_update(skip_locked=True, key_share=True)
                )
            ).scalars()
        )
        in_flight = {
            (row.subscription_id, row.partner_id)
            for row in await self.session.execute(
                select(DELIVERIES.c.subscription_id, DELIVERIES.c.partner_id).where(
                    DELIVERIES.c.status == SENDING,
                    DELIVERIES.c.next_attempt_at > now,
                    DELIVERIES.c.partner_id.in_(sorted(locked)),
                )
            )
        }
        busy_subs = {subscription_id for subscription_id, _ in in_flight}
        per_partner_now = Counter(partner_id for _, partner_id in in_flight)
        claimed: list[list[Delivery]] = []
        for subscription_id, partner_id in candidates:
            if len(claimed) >= limit:
                break
            if partner_id not in locked or subscription_id in busy_subs or per_partner_now[partner_id] >= per_partner:
                continue
            rows = await self.session.execute(
                select(DELIVERIES)
                .join(SUBS, SUBS.c.subscription_id == DELIVERIES.c.subscription_id)
                .where(DELIVERIES.c.subscription_id == subscription_id, *self._due(now))
                .order_by(DELIVERIES.c.next_attempt_at, DELIVERIES.c.delivery_id)
                .limit(per_subscription)
                .with_for_update(skip_locked=True, of=DELIVERIES)
            )
            batch = [_delivery(row) for row in rows]
            if not batch:
                continue
            claimed.append(batch)
            busy_subs.add(subscription_id)
            per_partner_now[partner_id] += 1
        if claimed:
            await self.session.execute(
                update(DELIVERIES)
                .where(DELIVERIES.c.delivery_id.in_([d.delivery_id for batch in claimed for d in batch]))
                .values(status=SENDING, next_attempt_at=lease_until)
            )
        return claimed

    async def release(self, delivery_ids: list[str], due_at: datetime) -> None:
        """Claimed deliveries not sent after all: pending again, due at ``due_at``."""
        if delivery_ids:
            await self.session.execute(
                update(DELIVERIES)
                .where(DELIVERIES.c.delivery_id.in_(delivery_ids), DELIVERIES.c.status == SENDING)
                .values(status="pending", next_attempt_at=due_at)
            )

    async def defer_pending(self, subscription_id: str, until: datetime) -> None:
        """No pending delivery of the subscription is due before ``until`` (its circuit is open)."""
        await self.session.execute(
            update(DELIVERIES)
            .where(
                DELIVERIES.c.subscription_id == subscription_id,
                DELIVERIES.c.status == "pending",
                DELIVERIES.c.next_attempt_at < until,
            )
            .values(next_attempt_at=until)
        )

    async def resume_pending(self, subscription_id: str, now: datetime) -> None:
        """Every pending delivery of the subscription is due now (its receiver answers again)."""
        await self.session.execute(
            update(DELIVERIES)
            .where(
                DELIVERIES.c.subscription_id == subscription_id,
                DELIVERIES.c.status == "pending",
                DELIVERIES.c.next_attempt_at > now,
            )
            .values(next_attempt_at=now)
        )

    async def count_subscriptions_locked(self, partner_id: str) -> int:
        """The partner's subscriptions that are not deleted, counted under a lock of the
        partner's row (two subscriptions made at once are counted one after the other)."""
        await self.session.execute(
            select(orm.partners.c.partner_id)
            .where(orm.partners.c.partner_id == partner_id)
            .with_for_update(key_share=True)
        )
        found = await self.session.execute(
            select(func.count()).select_from(SUBS).where(SUBS.c.partner_id == partner_id, SUBS.c.status != "deleted")
        )
        return int(found.scalar_one())

    async def delivery(self, delivery_id: str, *, for_update: bool = False) -> Delivery | None:
        stmt = select(DELIVERIES).where(DELIVERIES.c.delivery_id == delivery_id)
        if for_update:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return _delivery(row) if row else None

    async def record_attempt(self, delivery_id: str, **values: Any) -> None:
        await self.session.execute(update(DELIVERIES).where(DELIVERIES.c.delivery_id == delivery_id).values(**values))

    async def deliveries_page(
        self,
        partner_id: str,
        *,
        subscription_id: str | None,
        status: str | None,
        before: tuple[datetime, str] | None,
        limit: int,
    ) -> list[Delivery]:
        """Newest first; ``before`` is (created_at, delivery_id) of the previous page's last row."""
        stmt = select(DELIVERIES).where(DELIVERIES.c.partner_id == partner_id)
        if subscription_id is not None:
            stmt = stmt.where(DELIVERIES.c.subscription_id == subscription_id)
        if status is not None:  # a delivery being sent is still pending to the partner
            stmt = stmt.where(DELIVERIES.c.status.in_((status, SENDING) if status == "pending" else (status,)))
        if before is not None:
            at, delivery_id = before
            stmt = stmt.where(
                (DELIVERIES.c.created_at < at)
                | ((DELIVERIES.c.created_at == at) & (DELIVERIES.c.delivery_id < delivery_id))
            )
        rows = await self.session.execute(
            stmt.order_by(DELIVERIES.c.created_at.desc(), DELIVERIES.c.delivery_id.desc()).limit(limit)
        )
        return [_delivery(r) for r in rows]

    # ------------------------------------------------------------------ pairing partners
    async def remember_pairing(self, pairing_id: str, first_partner: str | None, second_partner: str | None) -> None:
        await self.session.execute(delete(orm.pairing_partners).where(orm.pairing_partners.c.pairing_id == pairing_id))
        await self.session.execute(
            insert(orm.pairing_partners).values(
                pairing_id=pairing_id, first_partner=first_partner, second_partner=second_partner
            )
        )

    async def pairing_partners(self, pairing_id: str) -> set[str]:
        row = (
            await self.session.execute(
                select(orm.pairing_partners).where(orm.pairing_partners.c.pairing_id == pairing_id)
            )
        ).first()
        if row is None:
            return set()
        return {p for p in (row.first_partner, row.second_partner) if p}
