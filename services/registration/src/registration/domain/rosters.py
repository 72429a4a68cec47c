"""Issue 34: a delegation's roster (NY 七(一)(三), DA 十(一)1, NT 十(一)): what its people's
lodging and optional services cost, and its quota as it fills.

Lodging is charged per person per night at the rate of the room the roster books (DA 十一(一):
标准间360元/人/天, 单间520元/人/天); a rate the regulation leaves to a later notice (NY, NT:
另行通知) is `None` until announced, and so is the total. Optional services are charged per
use at their price (DA 十二: 接送专用大巴车每人每次45元). Amounts in fen.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from gomoku_shared.event_config import EventConfig

from .errors import RegistrationError
from .model import Entry


@dataclass(frozen=True)
class Booking:
    """What one person of the roster books: a room for some nights, some uses of services."""

    name: str
    role: str
    room: str | None = None
    nights: int = 0
    services: Mapping[str, int] | None = None
    #: a player's person record (None: a leader or coach), whose entry the lodging is due with
    person_id: str | None = None


@dataclass(frozen=True)
class Charge:
    name: str
    item: str
    #: nights, or uses of a service
    quantity: int
    #: None: the rate is announced later (另行通知)
    rate_fen: int | None

    @property
    def amount_fen(self) -> int | None:
        return None if self.rate_fen is None else self.rate_fen * self.quantity


def rooms(config: EventConfig) -> list[str]:
    return [i.room for i in config.fees.items if i.basis == "per_person_per_day" and i.room]


def check_booking(config: EventConfig, booking: Booking) -> None:
    """A booking names one of the event's rooms (when it books nights) and its services, within
    the limits: the error says which, in words."""
    if booking.nights > config.registration.public_delegations.max_nights:
        raise RegistrationError(f"{booking.name}: at most {config.registration.public_delegations.max_nights} nights")
    if booking.nights and (booking.room or config.fees.default_room) not in rooms(config):
        raise RegistrationError(f"{booking.name}: the event has no room {booking.room!r}")
    offered = {s.id: s for s in config.fees.services}
    for service_id, uses in (booking.services or {}).items():
        service = offered.get(service_id)
        if service is None:
            raise RegistrationError(f"{booking.name}: the event offers no service {service_id!r}")
        if not 0 <= uses <= service.max_per_person:
            raise RegistrationError(f"{booking.name}: {service_id} at most {service.max_per_person} times")


def charges(config: EventConfig, bookings: Iterable[Booking], rates: Mapping[str, int | None]) -> list[Charge]:
    """Each person's lodging and services; `rates`: the lodging items' amounts in effect (the
    organiser's announcements applied), by item id."""
    out: list[Charge] = []
    for booking in bookings:
        check_booking(config, booking)
        lodging = config.fees.lodging(booking.room)
        if booking.nights and lodging is not None:
            out.append(Charge(booking.name, lodging.id, booking.nights, rates.get(lodging.id)))
        for service in config.fees.services:
            uses = (booking.services or {}).get(service.id, 0)
            if uses:
                out.append(Charge(booking.name, service.id, uses, service.amount_fen))
    return out


def total_fen(lines: Sequence[Charge]) -> int | None:
    """The roster's total; None while a rate is not announced."""
    amounts = [c.amount_fen for c in lines]
    return None if any(a is None for a in amounts) else sum(a or 0 for a in amounts)


@dataclass(frozen=True)
class QuotaState:
    """REG-16 as the roster fills: the players counted against the quota, and those outside it
    with the decision that put them there (or kept them in)."""

    limit: int | None
    counted: int
    #: person id -> (clause, reason) of each exemption claim
    claims: Mapping[str, tuple[str, str]]
    exempt: frozenset[str]


def quota_state(config: EventConfig, entries: Iterable[Entry]) -> QuotaState:
    """`entries`: the delegation's entries holding a place."""
    people: set[str] = set()
    exempt: set[str] = set()
    claims: dict[str, tuple[str, str]] = {}
    for entry in entries:
        people |= set(entry.person_ids)
        exempt |= set(entry.quota_exempt)
        for d in entry.decisions:
            if d.rule == "REG-16" and d.clause.startswith("units/quota_exempt") and d.person_id:
                claims[d.person_id] = (d.clause, d.reason)
    return QuotaState(config.units.delegation_max_players, len(people - exempt), claims, frozenset(exempt))
