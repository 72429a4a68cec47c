"""Fees (REG-14), refunds (REG-15) and appeal fees (AWD-10) in the ledger.

The operator records the money received (no payment gateway): one append-only line per
payment, refund or correction. An amount the regulation leaves to a later notice (另行通知) is
announced by the organiser (`announce_fee`, audited, with the instant it applies from); until
then the fee clerk confirms each entry paid in full (`confirm_paid`), since money alone cannot
show that an unknown amount was paid. The stage close judges every entry's fees at the deadline and
refuses the entries whose fees were not received (not paired). Ledger ids are
`<event>.l<nnnnn>`, refund requests `<event>.rf<nnnn>`.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import AppealDecided, AppealLodged
from gomoku_shared.errors import Conflict, NotFound, Unprocessable

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain import Entry, EntryStatus, RegistrationError
from ..domain.fees import (
    Announcement,
    Confirmation,
    DelegationFees,
    FeeNotices,
    LedgerLine,
    check_line,
    decide_refund,
    delegation_fees,
    fee_deadline,
    fee_statuses,
    fees_apply,
    invalid_for_fees,
    judge_refund_request,
    unit_ids_by_name,
)
from . import forms as s
from .actors import actor_ref
from .command import EventCommand
from .rendering import announcement_view, confirmation_view, fee_view, line_view, refund_view
from .roster_fees import load_rosters
from .state import RegistrationState, may_see
from .unit_of_work import RegistrationUnitOfWork

log = logging.getLogger("registration.fees")


def line_from_row(row: Any) -> LedgerLine:
    return LedgerLine(
        row.id,
        row.kind,
        row.item,
        int(row.amount_fen),
        repo.aware(row.received_at),
        row.entry_id,
        row.unit_id,
        row.corrects,
    )


def notices_from(announcements: Sequence[Any], confirmations: Sequence[Any]) -> FeeNotices:
    return FeeNotices(
        tuple(Announcement(r.item, int(r.amount_fen), repo.aware(r.applies_from), r.seq) for r in announcements),
        tuple(
            Confirmation(r.entry_id, r.item, bool(r.paid_in_full), repo.aware(r.as_of), r.seq) for r in confirmations
        ),
    )


async def load_notices(repos: Repositories | RegistrationUnitOfWork, code: str) -> FeeNotices:
    return notices_from(await repos.ledger.announcements(code), await repos.ledger.confirmations(code))


def _who(principal: Principal) -> str:
    return actor_ref(principal)


# --------------------------------------------------------------------------- reads


async def fees_report(repos: Repositories, state: RegistrationState, principal: Principal, code: str) -> dict[str, Any]:
    """The event's fee items and, for each entry the caller may see, what it owes and has paid
    by the deadline and by now (REG-14)."""
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    lines = [line_from_row(r) for r in await repos.ledger.lines(code)]
    announced = await repos.ledger.announcements(code)
    confirmations = await repos.ledger.confirmations(code)
    notices = notices_from(announced, confirmations)
    entries = [e for e in loaded.reg.entries.values() if fees_apply(config, e)]
    deadline = fee_deadline(config)
    ever = datetime.max.replace(tzinfo=deadline.tzinfo)
    rosters = await load_rosters(repos, code)
    at_deadline = fee_statuses(config, entries, lines, by=deadline, notices=notices, rosters=rosters)
    by_now = fee_statuses(config, entries, lines, by=ever, notices=notices, rosters=rosters)
    visible = [e for e in entries if may_see(principal, loaded.meta[e.id].partner_id)]
    units = await repos.units.rows(code)
    return {
        "event_code": code,
        "currency": config.fees.currency,
        "required_for_validity": config.fees.required_for_validity,
        "due_by": deadline.isoformat(),
        "days": config.fees.days,
        "items": [
            {
                **item.model_dump(mode="json"),
                # the latest amount announced (null: still to be announced), the preset's null kept apart
                "amount_fen": notices.amount(item, ever),
                "announced_later": item.amount_fen is None,
            }
            for item in config.fees.items
        ],
        # issue 34: optional services a roster books (DA 十二), paid through the ledger as items
        "services": [x.model_dump(mode="json") for x in config.fees.services],
        "announcements": [announcement_view(r) for r in announced],
        "confirmations": [confirmation_view(r) for r in confirmations if may_see(principal, r.partner_id)],
        "entries": [fee_view(e, at_deadline[e.id], by_now[e.id]) for e in visible],
        # issue 34: a delegation with a roster owes what its roster books, one figure per unit
        "delegations": [
            delegation_fee_view(
                units[unit_id].name,
                delegation_fees(config, unit_id, entries, at_deadline, lines, bookings, by=deadline),
                delegation_fees(config, unit_id, entries, by_now, lines, bookings, by=ever),
            )
            for unit_id, bookings in rosters.items()
            if unit_id in units and may_see(principal, units[unit_id].partner_id)
        ],
    }


def delegation_fee_view(name: str, at_deadline: DelegationFees, now: DelegationFees) -> dict[str, Any]:
    return {
        "unit_id": now.unit_id,
        "unit_name": name,
        "due_fen": now.due_fen,
        "entries_due_fen": now.entries_due_fen,
        "services_fen": now.services_fen,
        "paid_fen": now.paid_fen,
        "complete_by_deadline": at_deadline.complete,
        "complete_now": now.complete,
    }


async def list_ledger(repos: Repositories, state: RegistrationState, principal: Principal, code: str) -> dict[str, Any]:
    """The ledger lines the caller may see: staff all, a partner those of its own entries and units."""
    config = await state.config(repos, code)
    rows = [r for r in await repos.ledger.lines(code) if may_see(principal, r.partner_id)]
    return {"event_code": code, "currency": config.fees.currency, "lines": [line_view(r) for r in rows]}


async def list_refunds(
    repos: Repositories, state: RegistrationState, principal: Principal, code: str
) -> dict[str, Any]:
    await state.config(repos, code)
    rows = [r for r in await repos.ledger.refunds(code) if may_see(principal, r.partner_id)]
    return {"event_code": code, "refunds": [refund_view(r) for r in rows]}


# --------------------------------------------------------------------------- recording


def _partner_of(cmd: EventCommand, entry_id: str | None, unit_id: str | None) -> str | None:
    if entry_id is not None:
        return cmd.loaded.meta[entry_id].partner_id
    unit = cmd.units.get(unit_id) if unit_id else None
    return unit.partner_id if unit is not None else None


async def record_line(cmd: EventCommand, body: s.LedgerLineIn) -> dict[str, Any]:
    """REG-14: the operator records money received (or corrects a line, as a new line)."""
    if (body.entry_id is None) == (body.unit_id is None):
        raise Unprocessable("payer_required", "name exactly one payer: entry_id or unit_id")
    if body.entry_id is not None and body.entry_id not in cmd.reg.entries:
        raise NotFound("unknown_entry", f"no entry {body.entry_id!r}")
    if body.unit_id is not None and body.unit_id not in cmd.units:
        raise NotFound("unknown_unit", f"no unit {body.unit_id!r}")
    rows = await cmd.uow.ledger.lines(cmd.code)
    corrected = None
    if body.corrects is not None:
        row = next((r for r in rows if r.id == body.corrects), None)
        if row is None:
            raise NotFound("unknown_line", f"no ledger line {body.corrects!r}")
        corrected = line_from_row(row)
        if (corrected.entry_id, corrected.unit_id) != (body.entry_id, body.unit_id):
            raise Unprocessable("wrong_payer", f"line {corrected.id} is of another payer")
    elif body.kind == "correction":
        raise Unprocessable("invalid_line", "a correction names the line it corrects")
    received = body.received_at or cmd.now
    try:
        check_line(
            cmd.config,
            kind=body.kind,
            item=body.item,
            amount_fen=body.amount_fen,
            received_at=received,
            now=cmd.now,
            corrected=corrected,
        )
    except RegistrationError as exc:
        raise Unprocessable("invalid_line", str(exc)) from None
    row = await cmd.uow.ledger.append(
        event_code=cmd.code,
        kind=body.kind,
        item=body.item,
        amount_fen=body.amount_fen,
        currency=cmd.config.fees.currency,
        entry_id=body.entry_id,
        unit_id=body.unit_id,
        received_at=received,
        recorded_at=cmd.now,
        recorded_by=_who(cmd.principal),
        reference=body.reference,
        corrects=body.corrects,
        source=None,
        note=body.note,
        partner_id=_partner_of(cmd, body.entry_id, body.unit_id),
    )
    return line_view(row)


# --------------------------------------------------------------------------- amounts announced later


def _fee_item(cmd: EventCommand, item_id: str) -> Any:
    try:
        return cmd.config.fees.item(item_id)
    except KeyError:
        known = ", ".join(i.id for i in cmd.config.fees.items) or "none"
        raise NotFound("unknown_fee_item", f"no fee item {item_id!r} in this event (items: {known})") from None


async def announce_fee(cmd: EventCommand, body: s.FeeAnnouncementIn) -> dict[str, Any]:
    """REG-14 (NY, NT 十一: 另行通知): the organiser announces or changes an item's amount, from
    `applies_from` on (default now). Judgements before that instant keep the previous amount."""
    item = _fee_item(cmd, body.item)
    if item.basis == "per_appeal":
        # the arbitration fee travels with the event's appeal terms (AWD-10), fixed at creation
        raise Conflict("appeal_fee_fixed", f"{item.id} is the appeal fee, published with the event's appeal terms")
    row = await cmd.uow.ledger.announce(
        event_code=cmd.code,
        item=item.id,
        amount_fen=body.amount_fen,
        applies_from=body.applies_from or cmd.now,
        announced_at=cmd.now,
        announced_by=_who(cmd.principal),
        note=body.note,
    )
    log.info("fee %s of %s announced: %s fen from %s", item.id, cmd.code, body.amount_fen, row.applies_from)
    return announcement_view(row)


async def confirm_paid(cmd: EventCommand, entry_id: str, body: s.FeeConfirmationIn) -> dict[str, Any]:
    """REG-14: the fee clerk confirms an entry paid an item in full (or withdraws that), for an
    item whose amount is not announced at `as_of`: once an amount applies, money decides."""
    entry, meta = cmd.entry_for(entry_id)
    item = _fee_item(cmd, body.item)
    as_of = body.as_of or cmd.now
    if as_of > cmd.now:
        raise Unprocessable("invalid_confirmation", "as_of is in the future")
    lines = [line_from_row(r) for r in await cmd.uow.ledger.lines(cmd.code)]
    notices = await load_notices(cmd.uow, cmd.code)
    just_after = as_of + timedelta(microseconds=1)
    amount = notices.amount(item, just_after)
    if amount is not None:
        raise Conflict(
            "fee_announced",
            f"{item.id} is {amount} fen at {as_of.isoformat()}: the money received decides, not a confirmation",
            {"item": item.id, "amount_fen": amount},
        )
    if body.paid_in_full:
        paid = sum(
            x.amount_fen
            for x in lines
            if x.item == item.id
            and x.received_at < just_after
            and (x.entry_id == entry.id or (x.entry_id is None and entry.unit_id and x.unit_id == entry.unit_id))
        )
        if paid <= 0:
            raise Conflict(
                "no_payment",
                f"no payment of {item.id} recorded for entry {entry.id} or its unit by {as_of.isoformat()}: "
                "record the money received first",
            )
    row = await cmd.uow.ledger.confirm(
        event_code=cmd.code,
        entry_id=entry.id,
        item=item.id,
        paid_in_full=body.paid_in_full,
        as_of=as_of,
        recorded_at=cmd.now,
        recorded_by=_who(cmd.principal),
        note=body.note,
        partner_id=meta.partner_id,
    )
    return confirmation_view(row)


# --------------------------------------------------------------------------- the stage close


async def refuse_unpaid(cmd: EventCommand, entries: Sequence[Entry]) -> list[dict[str, Any]]:
    """REG-14 at the close: every accepted entry whose fees were not received by the deadline
    is refused (invalid, not paired) and listed with the reason; entry.refused for each."""
    lines = [line_from_row(r) for r in await cmd.uow.ledger.lines(cmd.code)]
    notices = await load_notices(cmd.uow, cmd.code)
    out = []
    rosters = await load_rosters(cmd.uow, cmd.code)
    for entry, decision in invalid_for_fees(cmd.config, entries, lines, notices, rosters):
        refused = replace(entry, status=EntryStatus.REFUSED, decisions=entry.decisions + (decision,))
        cmd.reg.replace_entry(refused)
        await cmd.load_people(refused.person_ids)
        cmd.emit_entry(refused)
        out.append({"entry_id": entry.id, "section_id": entry.section_id, "rule": "REG-14", "reason": decision.reason})
    if out:
        await cmd.save()
    return out


# --------------------------------------------------------------------------- refunds (REG-15)


async def request_refund(cmd: EventCommand, entry_id: str, body: s.RefundRequestIn) -> dict[str, Any]:
    entry, meta = cmd.entry_for(entry_id)
    try:
        judge_refund_request(
            cmd.config, entry, reason=body.reason, proof_ref=body.proof_ref, force_majeure=body.force_majeure
        )
    except RegistrationError as exc:
        raise Unprocessable("refund_refused", str(exc)) from None
    existing = await cmd.uow.ledger.refunds(cmd.code)
    if any(r.entry_id == entry_id and r.state == "requested" for r in existing):
        raise Conflict("refund_pending", f"entry {entry_id} has a refund request awaiting the organiser")
    row = await cmd.uow.ledger.add_refund(
        id=f"{cmd.code}.rf{len(existing) + 1:04d}",
        event_code=cmd.code,
        entry_id=entry_id,
        reason=body.reason.strip(),
        proof_ref=body.proof_ref,
        force_majeure_claimed=body.force_majeure,
        requested_at=cmd.now,
        requested_by=_who(cmd.principal),
        partner_id=meta.partner_id,
        state="requested",
    )
    return refund_view(row)


async def refund_event(repos: Repositories, refund_id: str) -> str:
    row = await repos.ledger.refund(refund_id)
    if row is None:
        raise NotFound("unknown_refund", f"no refund request {refund_id!r}")
    return row.event_code


async def decide_refund_cmd(cmd: EventCommand, refund_id: str, body: s.RefundDecisionIn) -> dict[str, Any]:
    """REG-15: the organiser grants an amount (a refund line in the ledger) or refuses."""
    row = await cmd.uow.ledger.refund(refund_id)
    if row is None:
        raise NotFound("unknown_refund", f"no refund request {refund_id!r}")
    if row.state != "requested":
        raise Conflict("refund_decided", f"refund request {refund_id} is {row.state}")
    entry = cmd.reg.entries[row.entry_id]
    lines = [line_from_row(r) for r in await cmd.uow.ledger.lines(cmd.code)]
    grant = body.decision == "grant"
    if grant and body.amount_fen is None:
        raise Unprocessable("amount_required", "a granted refund states its amount_fen")
    try:
        decision = decide_refund(
            entry,
            lines,
            grant=grant,
            amount_fen=body.amount_fen or 0,
            force_majeure=body.force_majeure,
            claimed=row.force_majeure_claimed,
        )
    except RegistrationError as exc:
        raise Unprocessable("refund_refused", str(exc)) from None
    line_id = None
    if grant:
        item = _refund_item(cmd, entry, lines)
        paid_at = body.paid_at or cmd.now
        if paid_at > cmd.now:
            raise Unprocessable("invalid_line", "paid_at is in the future")
        line = await cmd.uow.ledger.append(
            event_code=cmd.code,
            kind="refund",
            item=item,
            amount_fen=-(body.amount_fen or 0),
            currency=cmd.config.fees.currency,
            entry_id=entry.id,
            unit_id=None,
            received_at=paid_at,
            recorded_at=cmd.now,
            recorded_by=_who(cmd.principal),
            reference=None,
            corrects=None,
            source=f"refund:{refund_id}",
            note=decision.reason,
            partner_id=row.partner_id,
        )
        line_id = line.id
    done = await cmd.uow.ledger.decide_refund(
        refund_id,
        state="granted" if grant else "refused",
        granted_fen=body.amount_fen if grant else None,
        force_majeure_accepted=body.force_majeure,
        decided_by=_who(cmd.principal),
        decided_at=cmd.now,
        decision_note=body.note or decision.reason,
        ledger_line_id=line_id,
    )
    return refund_view(done)


def _refund_item(cmd: EventCommand, entry: Entry, lines: Sequence[LedgerLine]) -> str:
    """The item refunded: the one the entry (or its unit) paid most recently."""
    paid = [x for x in lines if x.amount_fen > 0 and (x.entry_id == entry.id or x.unit_id == entry.unit_id)]
    if paid:
        return paid[-1].item
    return cmd.config.fees.items[0].id if cmd.config.fees.items else "fees"


# --------------------------------------------------------------------------- appeals (AWD-10)


async def on_appeal(
    uow: RegistrationUnitOfWork, state: RegistrationState, payload: AppealLodged | AppealDecided
) -> None:
    """A lodged appeal's fee is a payment of the unit; an upheld appeal's refund a refund line.
    Idempotent twice over: the inbox, and one line per appeal and event type (`source`)."""
    lodged = isinstance(payload, AppealLodged)
    amount = payload.fee_fen if isinstance(payload, AppealLodged) else payload.refund_fen
    if amount <= 0 or (isinstance(payload, AppealDecided) and not payload.upheld):
        return
    try:
        cmd = await EventCommand.begin(uow, state, Principal("operator", None, "bus"), payload.event_code)
    except NotFound:
        log.warning("%s for an unknown event %s: ignored", payload.TYPE, payload.event_code)
        return
    source = f"{payload.TYPE}:{payload.appeal_id}"
    if await uow.ledger.by_source(cmd.code, source) is not None:
        return
    units = unit_ids_by_name({uid: row.name for uid, row in cmd.units.items()})
    unit_id = units.get(payload.unit_id or "", payload.unit_id)
    item = cmd.config.fees.appeal_item
    at = payload.lodged_at if isinstance(payload, AppealLodged) else payload.decided_at
    unit = cmd.units.get(unit_id or "")
    await uow.ledger.append(
        event_code=cmd.code,
        kind="payment" if lodged else "refund",
        item=item.id if item is not None else "appeal",
        amount_fen=amount if lodged else -amount,
        currency=payload.currency,
        entry_id=None,
        unit_id=unit_id,
        received_at=min(at, cmd.now),
        recorded_at=cmd.now,
        recorded_by=f"bus:{payload.TYPE}",
        reference=payload.payment_reference or None if isinstance(payload, AppealLodged) else None,
        corrects=None,
        source=source,
        note=f"appeal {payload.appeal_id} ({payload.section_id})" + ("" if lodged else ": upheld, fee refunded"),
        partner_id=unit.partner_id if unit is not None else None,
    )
