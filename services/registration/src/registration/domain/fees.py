"""REG-14 fees and validity, REG-15 refunds, the ledger they are recorded in.

The ledger is append-only: a payment received, a refund paid out, or a correction of an
earlier line (a new line with a signed amount naming the line it corrects; nothing is ever
edited or deleted). Amounts are fen (int): payments positive, refunds negative.

Validity (NY 十二(三), DA 十(一)3, NT 十(一)3: 以收到报名材料和食宿费为准 … 均视为无效，不予
编排): an entry counts only when its fees were received before the deadline (exclusive, like
the close of registration: DA "8月11日24:00前" -> the last valid minute is 23:59). What counts:

- the lines naming the entry, and the lines naming its unit (a delegation paying for all its
  entries), the unit's money going to its entries in submission order, each entry in full
  before the next;
- a line counts at the time the money was received (`received_at`); a correction counts at
  the time of the line it corrects (it corrects that record, it is not new money);
- board and lodging is due per person per day at the rate of the entry's room: the room of
  the latest board-and-lodging payment for the entry (or its unit), else the event's default
  room; a fee per entry and a fee per team entry are due too where the event has one;
- a delegation with a roster (issue 34, DA 十一(一)) owes instead what its roster books: each
  person's nights at the rate of that person's room. A player's lodging is due with the first
  of the delegation's entries holding a place that has the player; the leader's, the coaches'
  (and a player whose entries left) with its first entry holding a place, so the entries' dues
  add up to the delegation's. Optional services (DA 十二) are charged and may be paid through
  the ledger, but never decide validity;
- an amount the event announces separately (NY, NT 十一: 另行通知) is `null` in the preset until
  the organiser announces it (`Announcement`, with the instant it applies from; a later one
  changes it). While no amount applies, money received proves nothing: the item is complete
  only with the fee clerk's explicit "paid in full" confirmation of the entry (`Confirmation`)
  and a payment recorded. Once an amount applies, only money counts: received >= due.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from gomoku_shared.event_config import EventConfig, FeeItem

from .errors import RegistrationError
from .model import Decision, Entry, EntryStatus, Verdict
from .rosters import Booking

#: unit id -> the bookings of its delegation's roster, for the units that have one
Rosters = Mapping[str, Sequence[Booking]]
NO_ROSTERS: Rosters = {}

LineKind = Literal["payment", "refund", "correction"]


@dataclass(frozen=True)
class LedgerLine:
    id: str
    kind: LineKind
    item: str
    #: signed fen: payments > 0, refunds < 0, corrections either way
    amount_fen: int
    #: when the money arrived (or left): what validity is judged on
    received_at: datetime
    entry_id: str | None = None
    unit_id: str | None = None
    corrects: str | None = None


@dataclass(frozen=True)
class Announcement:
    """The organiser's announcement of a fee item's amount (另行通知), from `applies_from` on."""

    item: str
    amount_fen: int
    applies_from: datetime
    seq: int


@dataclass(frozen=True)
class Confirmation:
    """The fee clerk's statement that an entry paid an item in full (or, `paid_in_full` False,
    the withdrawal of that statement) as of `as_of`: what completes an item whose amount is
    not announced."""

    entry_id: str
    item: str
    paid_in_full: bool
    as_of: datetime
    seq: int


@dataclass(frozen=True)
class FeeNotices:
    """The announcements and confirmations of an event, judged at an instant `by` (exclusive,
    like the ledger's money): the latest to apply before `by` wins."""

    announcements: tuple[Announcement, ...] = ()
    confirmations: tuple[Confirmation, ...] = ()

    def amount(self, item: FeeItem, by: datetime) -> int | None:
        """The item's amount in effect before `by`: the announcement with the latest
        `applies_from` (then the latest recorded), else the preset's (None: not announced)."""
        applying = [a for a in self.announcements if a.item == item.id and a.applies_from < by]
        if not applying:
            return item.amount_fen
        return max(applying, key=lambda a: (a.applies_from, a.seq)).amount_fen

    def confirmed(self, entry_id: str, item_id: str, by: datetime) -> bool:
        mine = [c for c in self.confirmations if c.entry_id == entry_id and c.item == item_id and c.as_of < by]
        return bool(mine) and max(mine, key=lambda c: (c.as_of, c.seq)).paid_in_full


NO_NOTICES = FeeNotices()


@dataclass(frozen=True)
class ItemStatus:
    item: str
    due_fen: int | None
    paid_fen: int
    complete: bool
    #: an item whose amount is not announced: the fee clerk confirmed it paid in full
    confirmed: bool = False


@dataclass(frozen=True)
class FeeStatus:
    entry_id: str
    items: tuple[ItemStatus, ...]

    @property
    def complete(self) -> bool:
        return all(i.complete for i in self.items)

    @property
    def due_fen(self) -> int | None:
        dues = [i.due_fen for i in self.items]
        return None if any(d is None for d in dues) else sum(d or 0 for d in dues)

    @property
    def paid_fen(self) -> int:
        return sum(i.paid_fen for i in self.items)

    def missing(self) -> str:
        parts = []
        for i in self.items:
            if not i.complete:
                if i.due_fen is not None:
                    owed = f"{i.paid_fen} of {i.due_fen} fen"
                else:
                    owed = "amount not announced, not confirmed paid in full"
                parts.append(f"{i.item}: {owed}")
        return "; ".join(parts)


def fee_deadline(config: EventConfig) -> datetime:
    """REG-14: fees count when received before this instant (exclusive)."""
    return config.fees.due_by or config.registration.closes_at


def fees_apply(config: EventConfig, entry: Entry) -> bool:
    """Fees decide the validity of an entry of a played section entered by registration."""
    rules = config.fees
    if not (rules.required_for_validity and rules.items):
        return False
    section = config.section(entry.section_id)
    return section.played and config.stage_of(section.id).entry == "registration"


def _effective(lines: Sequence[LedgerLine]) -> list[tuple[LedgerLine, datetime]]:
    """Each line with the time it counts at (a correction: the time of the line it corrects)."""
    at = {line.id: line.received_at for line in lines}
    return [(line, at.get(line.corrects, line.received_at) if line.corrects else line.received_at) for line in lines]


def _due(config: EventConfig, entry: Entry, item: FeeItem, notices: FeeNotices, by: datetime) -> int | None:
    amount = notices.amount(item, by)
    if amount is None:
        return None
    if item.basis == "per_person_per_day":
        return amount * len(entry.person_ids) * (config.fees.days or 0)
    return amount


def _room(config: EventConfig, entry: Entry, counted: Sequence[LedgerLine]) -> str | None:
    rooms = {i.id: i.room for i in config.fees.items if i.basis == "per_person_per_day"}
    mine = [x for x in counted if x.item in rooms and x.kind == "payment" and x.amount_fen > 0]
    own = [x for x in mine if x.entry_id == entry.id]
    unit = [x for x in mine if x.entry_id is None and entry.unit_id and x.unit_id == entry.unit_id]
    latest = (own or unit)[-1:] if (own or unit) else []
    return rooms[latest[0].item] if latest else config.fees.default_room


def charged_bookings(entries: Sequence[Entry], rosters: Rosters) -> dict[str, list[Booking]]:
    """Each roster booking charged to one entry (see the module's note): entry id -> bookings."""
    out: dict[str, list[Booking]] = {}
    for unit_id, bookings in rosters.items():
        live = [e for e in entries if e.unit_id == unit_id and e.status.holds_place]
        for booking in bookings if live else ():
            home = next((e for e in live if booking.person_id and booking.person_id in e.person_ids), live[0])
            out.setdefault(home.id, []).append(booking)
    return out


def _requirements(
    config: EventConfig,
    entry: Entry,
    counted: Sequence[LedgerLine],
    notices: FeeNotices,
    by: datetime,
    booked: Sequence[Booking] | None,
) -> list[tuple[FeeItem, int | None]]:
    """The items an entry owes and their amounts due before `by` (None: not announced);
    `booked`: the roster bookings charged to it, None when its unit has no roster."""
    rules = config.fees
    team = config.section(entry.section_id).kind == "team"
    out: list[tuple[FeeItem, int | None]] = []
    if booked is None:
        lodging = rules.lodging(_room(config, entry, counted))
        if lodging is not None:
            out.append((lodging, _due(config, entry, lodging, notices, by)))
    else:
        nights: dict[str, int] = {}
        for booking in booked:
            item = rules.lodging(booking.room)
            if booking.nights and item is not None:
                nights[item.id] = nights.get(item.id, 0) + booking.nights
        for item_id, count in nights.items():
            amount = notices.amount(rules.item(item_id), by)
            out.append((rules.item(item_id), None if amount is None else amount * count))
    extra = [i for i in rules.items if i.basis == "per_entry" or (i.basis == "per_team" and team)]
    return out + [(i, notices.amount(i, by)) for i in extra]


def fee_statuses(
    config: EventConfig,
    entries: Sequence[Entry],
    lines: Sequence[LedgerLine],
    *,
    by: datetime,
    notices: FeeNotices = NO_NOTICES,
    rosters: Rosters = NO_ROSTERS,
) -> dict[str, FeeStatus]:
    """REG-14: what each entry has paid of what it owes, counting the money received (and the
    amounts announced, the confirmations given) before `by`; `entries` in submission order
    (the order a unit's money goes to its entries); `rosters`: the delegations' rosters."""
    counted = [line for line, at in _effective(lines) if at < by]
    lodging_ids = {i.id for i in config.fees.items if i.basis == "per_person_per_day"}
    charged = charged_bookings(entries, rosters)
    pool: dict[tuple[str, str], int] = {}
    for line in counted:
        if line.entry_id is None and line.unit_id is not None:
            key = (line.unit_id, "lodging" if line.item in lodging_ids else line.item)
            pool[key] = pool.get(key, 0) + line.amount_fen
    out: dict[str, FeeStatus] = {}
    for entry in entries:
        booked = charged.get(entry.id, []) if entry.unit_id in rosters else None
        required = _requirements(config, entry, counted, notices, by, booked)
        own_left: dict[str, int] = {}
        items = []
        for index, (item, due) in enumerate(required):
            group = lodging_ids if item.id in lodging_ids else {item.id}
            name = "lodging" if item.id in lodging_ids else item.id
            if name not in own_left:
                own_left[name] = sum(x.amount_fen for x in counted if x.entry_id == entry.id and x.item in group)
            key = (entry.unit_id or "", name)
            available = max(pool.get(key, 0), 0)
            if due is None:
                # 另行通知: a partial payment must never pass for the whole, so money alone
                # completes nothing until the amount is known; the clerk's confirmation does
                confirmed = notices.confirmed(entry.id, item.id, by)
                own = own_left[name]
                items.append(ItemStatus(item.id, None, own, confirmed and (own > 0 or available > 0), confirmed))
                continue
            # an entry's own money covers its rooms one after the other, the last taking the rest
            last = not any(other.id in group for other, _ in required[index + 1 :])
            own = own_left[name] if last else min(own_left[name], due)
            own_left[name] -= own
            taken = min(available, max(due - own, 0))
            pool[key] = pool.get(key, 0) - taken
            items.append(ItemStatus(item.id, due, own + taken, own + taken >= due))
        out[entry.id] = FeeStatus(entry.id, tuple(items))
    return out


@dataclass(frozen=True)
class DelegationFees:
    """A delegation's one figure (issue 34): what its entries owe for REG-14 (its roster's
    lodging), what its roster's optional services cost, and the money received for it."""

    unit_id: str
    entries_due_fen: int | None
    services_fen: int
    paid_fen: int
    #: REG-14: every entry of it holding a place has its fees (services never decide)
    complete: bool

    @property
    def due_fen(self) -> int | None:
        return None if self.entries_due_fen is None else self.entries_due_fen + self.services_fen


def delegation_fees(
    config: EventConfig,
    unit_id: str,
    entries: Sequence[Entry],
    statuses: Mapping[str, FeeStatus],
    lines: Sequence[LedgerLine],
    bookings: Sequence[Booking],
    *,
    by: datetime,
) -> DelegationFees:
    """Sums `statuses` (from `fee_statuses` at `by`) over the unit's entries holding a place,
    with its roster's services and the lines naming the unit or one of its entries."""
    mine = [e for e in entries if e.unit_id == unit_id and e.status.holds_place and e.id in statuses]
    dues = [statuses[e.id].due_fen for e in mine]
    prices = {s.id: s.amount_fen for s in config.fees.services}
    services = sum(prices.get(s, 0) * uses for b in bookings for s, uses in (b.services or {}).items())
    ids = {e.id for e in entries if e.unit_id == unit_id}
    counted = [line for line, at in _effective(lines) if at < by]
    paid = sum(x.amount_fen for x in counted if x.unit_id == unit_id or x.entry_id in ids)
    entries_due = None if any(d is None for d in dues) else sum(d or 0 for d in dues)
    return DelegationFees(unit_id, entries_due, services, paid, all(statuses[e.id].complete for e in mine))


def invalid_for_fees(
    config: EventConfig,
    entries: Sequence[Entry],
    lines: Sequence[LedgerLine],
    notices: FeeNotices = NO_NOTICES,
    rosters: Rosters = NO_ROSTERS,
) -> list[tuple[Entry, Decision]]:
    """REG-14 at the stage close: every accepted entry whose fees were not received by the
    deadline, with the decision that makes it invalid (not paired)."""
    deadline = fee_deadline(config)
    judged = [e for e in entries if e.status is EntryStatus.ACCEPTED and not e.no_show and fees_apply(config, e)]
    statuses = fee_statuses(config, judged, lines, by=deadline, notices=notices, rosters=rosters)
    out = []
    for entry in judged:
        status = statuses[entry.id]
        if not status.complete:
            reason = (
                f"fees not received before {deadline.isoformat()} ({status.missing()}): "
                "the application is invalid and not paired"
            )
            out.append((entry, Decision("REG-14", "fees/validity", Verdict.REFUSED, reason)))
    return out


# --------------------------------------------------------------------------- recording lines


def check_line(
    config: EventConfig,
    *,
    kind: LineKind,
    item: str,
    amount_fen: int,
    received_at: datetime,
    now: datetime,
    corrected: LedgerLine | None = None,
) -> None:
    """A new ledger line makes sense: a known item, a payment positive, a refund negative, a
    correction naming a line and not zero, money received by now (not in the future)."""
    try:
        if item not in {s.id for s in config.fees.services}:  # a service is paid like an item
            config.fees.item(item)
    except KeyError:
        known = ", ".join([i.id for i in config.fees.items] + [s.id for s in config.fees.services]) or "none"
        raise RegistrationError(f"no fee item {item!r} in this event (items: {known})") from None
    if received_at > now:
        raise RegistrationError("received_at is in the future")
    if kind == "payment" and amount_fen <= 0:
        raise RegistrationError("a payment is a positive amount (fen)")
    if kind == "refund" and amount_fen >= 0:
        raise RegistrationError("a refund is a negative amount (fen)")
    if kind == "correction":
        if corrected is None:
            raise RegistrationError("a correction names the line it corrects")
        if amount_fen == 0:
            raise RegistrationError("a correction of 0 fen changes nothing")
        if corrected.item != item:
            raise RegistrationError(f"line {corrected.id} is for {corrected.item}, not {item}")


# --------------------------------------------------------------------------- refunds (REG-15)


def judge_refund_request(
    config: EventConfig, entry: Entry, *, reason: str, proof_ref: str | None, force_majeure: bool
) -> Decision:
    """REG-15 (NY 十二(六), DA 十三(三), NT 十二(三)): a confirmed participant who does not take
    part files a written request with proof (退费手续). Who may: an entry withdrawn after
    confirmation, or one marked absent when the absence is claimed as force majeure
    (自然灾害或不可抗拒的原因 … 可酌情处理). Refused as a RegistrationError otherwise."""
    withdrawn_confirmed = entry.status is EntryStatus.WITHDRAWN and bool(
        entry.withdrawal and entry.withdrawal.refund_requested
    )
    absent = entry.status is EntryStatus.ACCEPTED and entry.no_show
    if not (withdrawn_confirmed or (absent and force_majeure)):
        raise RegistrationError(
            "REG-15: a refund is requested for an entry withdrawn after confirmation, "
            "or for an absence claimed as force majeure"
        )
    if not reason.strip():
        raise RegistrationError("REG-15: a refund request needs a written reason")
    if config.changes.withdrawal_requires_proof and not (proof_ref or "").strip():
        raise RegistrationError("REG-15: a refund request needs the proof of why the participant could not take part")
    why = "force majeure claimed" if force_majeure else "withdrawn after confirmation"
    return Decision("REG-15", "refunds/request", Verdict.PENDING, f"refund requested ({why}): the organiser decides")


def refundable_fen(entry: Entry, lines: Iterable[LedgerLine]) -> int:
    """What may still be refunded for an entry: the net of its own lines and of its unit's
    unassigned lines (refunds already paid are negative lines)."""
    return max(
        sum(
            x.amount_fen
            for x in lines
            if x.entry_id == entry.id or (x.entry_id is None and entry.unit_id and x.unit_id == entry.unit_id)
        ),
        0,
    )


def decide_refund(
    entry: Entry, lines: Sequence[LedgerLine], *, grant: bool, amount_fen: int, force_majeure: bool, claimed: bool
) -> Decision:
    """The organiser's decision: a granted amount (1..refundable) or a refusal. An absence is
    refunded only as force majeure accepted by the organiser."""
    if not grant:
        return Decision("REG-15", "refunds/decision", Verdict.REFUSED, "refund refused by the organiser")
    if entry.status is not EntryStatus.WITHDRAWN and not (claimed and force_majeure):
        raise RegistrationError("REG-15: an absence is refunded only when the organiser accepts it as force majeure")
    limit = refundable_fen(entry, lines)
    if not 0 < amount_fen <= limit:
        raise RegistrationError(f"REG-15: the refund must be between 1 and {limit} fen (what was paid, net)")
    excuse = " (force majeure accepted)" if force_majeure else ""
    return Decision("REG-15", "refunds/decision", Verdict.ADMITTED, f"{amount_fen} fen refunded{excuse}")


def unit_ids_by_name(units: Mapping[str, str]) -> dict[str, str]:
    """unit id -> id and name -> id: appeals name a unit by either."""
    out = {uid: uid for uid in units}
    out.update({name: uid for uid, name in units.items()})
    return out
