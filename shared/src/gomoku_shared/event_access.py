"""Who may act on an event: its organisation's staff in their roles, and the partner apps its
organiser chose.

Every service keeps, per event, the owner and the chosen partners of ``event.access_changed``
(registration sends it when the event is created and when the partner apps change) in a table
of its own (``event_access_table``), and checks every staff action against it in the process:
no request asks another service. An event with no record yet belongs to the default
organisation and admits every partner (events from before organisations).

Refusals are 403s whose ``details.words`` say why in Chinese and English, for any client:
``not_your_event`` (the event belongs to another organisation), ``role_not_held`` (the person's
roles in the event do not include one the action needs), ``partner_not_chosen`` (the organiser
did not choose this partner app for the event) and ``staff_account_not_allowed`` (a staff
account on a route for the platform operator's keys or for partner apps).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, Column, MetaData, String, Table, select

from .errors import ServiceError
from .staff_roles import (
    ACTIONS,
    DEFAULT_ORGANISATION,
    LEGACY_ARBITER_KEY_ROLES,
    STAFF_ROLES,
    action_words,
    role_words,
)

if TYPE_CHECKING:
    from .principal import Principal

TABLE = "event_access"
#: how long a replica trusts what it read about an event (a change of partner apps, on
#: another replica's consumer, takes effect within this)
CACHE_TTL_S = 30.0


@dataclass(frozen=True)
class EventAccess:
    event_code: str
    organisation: str = DEFAULT_ORGANISATION
    #: the partner ids the organiser chose; None: every partner
    partners: frozenset[str] | None = None

    def admits_partner(self, partner_id: str | None) -> bool:
        return self.partners is None or (partner_id is not None and partner_id in self.partners)


# ------------------------------------------------------------------ who holds what


def held_roles(principal: Principal, access: EventAccess) -> frozenset[str]:
    """The staff roles ``principal`` holds in the event (every role for the operator's keys)."""
    if principal.person is not None:
        person = principal.person
        return person.events.get(access.event_code, frozenset()) | person.orgs.get(access.organisation, frozenset())
    if principal.role == "operator":
        return frozenset(STAFF_ROLES)
    if principal.role == "arbiter":
        return (
            LEGACY_ARBITER_KEY_ROLES
            if (principal.organisation or DEFAULT_ORGANISATION) == access.organisation
            else frozenset()
        )
    return frozenset()


def refusal(code: str, zh: str, en: str, **details: Any) -> ServiceError:
    return ServiceError(code, en, {**details, "words": {"zh": zh, "en": en}}, status=403)


def authorize(principal: Principal, action: str, access: EventAccess) -> frozenset[str]:
    """The roles the principal holds in the event, when one of them allows ``action``; the 403
    that says why otherwise."""
    needed = ACTIONS[action][0]
    held = held_roles(principal, access)
    if held & needed:
        return held
    if not held:
        raise refusal(
            "not_your_event",
            "这项赛事由其他组织主办，您在其中没有职务，不能操作。",
            "This event is run by another organisation and you hold no role in it.",
            action=action,
        )
    raise refusal(
        "role_not_held",
        f"“{action_words(action, 'zh')}”需要{role_words(needed, 'zh')}的职务；您在这项赛事中是{role_words(held, 'zh')}。",
        f"To {action_words(action, 'en')} you need the role of {role_words(needed, 'en')}; "
        f"in this event your role is {role_words(held, 'en')}.",
        action=action,
        needs=sorted(needed),
        holds=sorted(held),
    )


def check_partner(principal: Principal, access: EventAccess) -> None:
    """A partner's token or key acts in an event only when its organiser chose the partner."""
    if principal.role == "partner" and not access.admits_partner(principal.partner_id):
        raise refusal(
            "partner_not_chosen",
            "这项赛事的主办方没有选择您的应用办理报名和对局。",
            "The organiser of this event did not choose your app for its entries and games.",
        )


def staff_account_refusal() -> ServiceError:
    return refusal(
        "staff_account_not_allowed",
        "工作人员账号不能进行这项操作：它只属于平台运营方或合作应用。",
        "Staff accounts cannot do this: it is for the platform operator or partner apps.",
    )


# ------------------------------------------------------------------ storage (every service's own table)


def event_access_table(metadata: MetaData) -> Table:
    return Table(
        TABLE,
        metadata,
        Column("event_code", String(64), primary_key=True),
        Column("organisation", String(64), nullable=False),
        #: a list of partner ids, or null: every partner
        Column("partners", JSON, nullable=True),
        #: the change's time (epoch ms): a change older than the stored one is ignored
        Column("changed_ms", BigInteger, nullable=False),
    )


class EventAccessStore:
    """The SQL of the ``event_access`` table (a service's adapters hand it their table)."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def get(self, session: Any, event_code: str) -> EventAccess | None:
        t = self.table
        row = (
            await session.execute(select(t.c.organisation, t.c.partners).where(t.c.event_code == event_code))
        ).first()
        if row is None:
            return None
        partners = None if row.partners is None else frozenset(row.partners)
        return EventAccess(event_code, row.organisation, partners)

    async def record(
        self, session: Any, event_code: str, organisation: str, partners: list[str] | None, changed_at: datetime
    ) -> bool:
        """Keep the change unless a later one is stored (consumers may see them out of order
        and twice). True when stored."""
        t = self.table
        changed_ms = int(changed_at.timestamp() * 1000)
        stored = (
            await session.execute(select(t.c.changed_ms).where(t.c.event_code == event_code).with_for_update())
        ).first()
        values = {
            "organisation": organisation,
            "partners": None if partners is None else sorted(set(partners)),
            "changed_ms": changed_ms,
        }
        if stored is None:
            await session.execute(t.insert().values(event_code=event_code, **values))
            return True
        if stored.changed_ms > changed_ms:
            return False
        await session.execute(t.update().where(t.c.event_code == event_code).values(**values))
        return True


class EventAccessDirectory:
    """What this replica knows of each event's access: read from the service's table, kept for
    ``ttl_s`` (staff actions are rare; partner writes on hot paths read the cache)."""

    def __init__(
        self,
        read: Callable[[str], Awaitable[EventAccess | None]],
        *,
        ttl_s: float = CACHE_TTL_S,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self._read = read
        self.ttl_s = ttl_s
        self._now = now
        self._cache: dict[str, tuple[float, EventAccess]] = {}

    @classmethod
    def on_table(cls, sessionmaker: Any, table: Table, **kwargs: Any) -> EventAccessDirectory:
        store = EventAccessStore(table)

        async def read(event_code: str) -> EventAccess | None:
            async with sessionmaker() as session:
                return await store.get(session, event_code)

        return cls(read, **kwargs)

    async def get(self, event_code: str) -> EventAccess:
        now = self._now()
        cached = self._cache.get(event_code)
        if cached is not None and cached[0] > now:
            return cached[1]
        access = await self._read(event_code) or EventAccess(event_code)
        if len(self._cache) > 10_000:
            self._cache.clear()
        self._cache[event_code] = (now + self.ttl_s, access)
        return access

    def forget(self, event_code: str) -> None:
        """After this replica stored a change: its next read sees it at once."""
        self._cache.pop(event_code, None)


async def authorize_request(request: Any, principal: Principal, action: str, event_code: str) -> frozenset[str]:
    """``authorize`` for a route that learns its event inside the handler (from a body or a
    loaded record): the app's ``state.event_access`` directory says who owns it."""
    directory: EventAccessDirectory = request.app.state.event_access
    return authorize(principal, action, await directory.get(event_code))
