"""Honours of an event (AWD-9, NY 十一(三)): staff record the organiser's choice and may revoke it;
the publication lists the honours in force and the certificate data to print for them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import NotFound, Unprocessable

from ..domain import honours as rules
from .ports import Awards
from .queries import AwardsReads
from .unit_of_work import AwardsUnitOfWork


@dataclass(frozen=True)
class HonourForm:
    kind: str
    citation: str
    unit_id: str | None = None
    entrant_id: str | None = None
    coach_name: str | None = None
    coach_unit: str | None = None


def honour_rules(config: dict[str, Any] | None) -> dict[str, rules.HonourRule]:
    """The honours the event's configuration gives (none before event.configured)."""
    return {
        item["kind"]: rules.HonourRule(item["kind"], item["name"], item.get("name_zh"), item.get("max_recipients"))
        for item in (config or {}).get("honours", [])
    }


async def event_units(repo: Awards | AwardsReads, event_code: str) -> dict[str, str]:
    """The units registered for the event, as the published sections' entrants carry them (id -> name)."""
    results = await repo.current_results(event_code)
    return rules.registered_units(
        entrant for _section, row in sorted(results.items()) for entrant in json.loads(row.payload).get("entrants", [])
    )


async def _recipient(repo: Awards, event_code: str, form: HonourForm) -> rules.Recipient:
    """The recipient as the published results know it: an entrant of a section, or a unit as registered."""
    if form.coach_name is not None:
        return rules.Recipient("coach", None, form.coach_name.strip(), form.coach_unit)
    if form.unit_id is not None:
        try:
            return rules.unit_recipient(await event_units(repo, event_code), form.unit_id)
        except rules.UnknownUnit as error:
            raise Unprocessable(error.code, error.message, error.details) from None
    results = await repo.current_results(event_code)
    for section_id, row in sorted(results.items()):
        for standing in json.loads(row.payload).get("standings", []):
            if standing["entrant_id"] == form.entrant_id:
                return rules.Recipient("entrant", form.entrant_id, standing["name"], standing.get("unit"), section_id)
    raise Unprocessable("unknown_recipient", f"{form.entrant_id!r} is in no published result of {event_code!r}")


def _as_recipient(row: dict[str, Any]) -> rules.Recipient:
    return rules.Recipient(row["recipient_kind"], row["recipient_id"], row["recipient_name"], row["unit_name"])


async def record(uow: AwardsUnitOfWork, event_code: str, form: HonourForm, principal: Principal) -> dict[str, Any]:
    """AWD-9: one honour of the event, for a recipient the kind allows."""
    repo = uow.awards
    await repo.lock_event(event_code)
    stored = await repo.event(event_code)
    if stored is None or stored.config is None:
        raise NotFound("event_not_found", f"no configured event {event_code!r}", {"event_code": event_code})
    honours = uow.honours
    given = honour_rules(json.loads(stored.config))
    try:
        rules.given_rule(given, form.kind)  # before the recipient: an honour not given says so first
    except rules.HonourRefused as error:
        raise error.as_service_error() from None
    recipient = await _recipient(repo, event_code, form)
    active = [
        _as_recipient(row) for row in await honours.of_event(event_code, active_only=True) if row["kind"] == form.kind
    ]
    try:
        rules.check_award(given, form.kind, recipient, active)
    except rules.HonourRefused as error:
        raise error.as_service_error() from None
    row = {
        "event_code": event_code,
        "honour_id": f"h{await honours.count(event_code) + 1}",
        "kind": form.kind,
        "recipient_kind": recipient.kind,
        "recipient_id": recipient.recipient_id,
        "recipient_name": recipient.name,
        "unit_name": recipient.unit_name,
        "section_id": recipient.section_id,
        "citation": form.citation,
        "status": rules.AWARDED,
        "awarded_at": uow.clock.now(),
        "awarded_by": (principal.actor_id or principal.role)[:64],
        "awarded_by_name": (principal.actor or principal.role)[:200],
    }
    await honours.add(row)
    return row


async def revoke(
    uow: AwardsUnitOfWork, event_code: str, honour_id: str, reason: str, principal: Principal
) -> dict[str, Any]:
    repo = uow.awards
    await repo.lock_event(event_code)
    honours = uow.honours
    row = await honours.get(event_code, honour_id)
    if row is None:
        raise NotFound("honour_not_found", f"no honour {honour_id!r} in {event_code!r}")
    try:
        rules.check_revoke(row["status"])
    except rules.HonourRefused as error:
        raise error.as_service_error() from None
    values = {
        "revoked_at": uow.clock.now(),
        "revoked_by": (principal.actor_id or principal.role)[:64],
        "revoked_by_name": (principal.actor or principal.role)[:200],
        "revoked_reason": reason,
    }
    await honours.revoke(event_code, honour_id, **values)
    return {**row, **values, "status": rules.REVOKED}


def _iso(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def view(row: dict[str, Any], rule: rules.HonourRule | None, *, full_names: bool = False) -> dict[str, Any]:
    """An honour as answers show it: in public a coach's name masked (personal data)."""
    name = row["recipient_name"] if full_names else rules.public_name(row["recipient_kind"], row["recipient_name"])
    return {
        "honour_id": row["honour_id"],
        "kind": row["kind"],
        "honour_name": rule.name if rule else row["kind"],
        "honour_name_zh": rule.name_zh if rule else None,
        "recipient_kind": row["recipient_kind"],
        "recipient_id": row["recipient_id"],
        "recipient_name": name,
        "unit_name": row["unit_name"],
        "section_id": row["section_id"],
        "citation": row["citation"],
        "status": row["status"],
        "awarded_at": _iso(row["awarded_at"]),
        "revoked_at": _iso(row.get("revoked_at")),
        "revoked_reason": row.get("revoked_reason"),
        # issue 29: who recorded and who revoked, for the organiser's staff (not in public)
        **(
            {
                "awarded_by": row.get("awarded_by"),
                "awarded_by_name": row.get("awarded_by_name"),
                "revoked_by": row.get("revoked_by"),
                "revoked_by_name": row.get("revoked_by_name"),
            }
            if full_names
            else {}
        ),
    }


def certificate(
    row: dict[str, Any], rule: rules.HonourRule | None, event_name: str | None, *, full_names: bool = False
) -> dict[str, Any]:
    """AWD-9: the certificate data of one honour, ready for printing (NY 十一(三) 颁发证书): the
    organiser's staff print it with names in full (``full_names``), the public sees a coach masked."""
    honour = rule or rules.HonourRule(row["kind"], row["kind"])
    name = row["recipient_name"] if full_names else rules.public_name(row["recipient_kind"], row["recipient_name"])
    return {
        "honour_id": row["honour_id"],
        "kind": row["kind"],
        "event_name": event_name,
        "recipient_kind": row["recipient_kind"],
        "name": name,
        "unit_name": row["unit_name"],
        "section_id": row["section_id"],
        "honour_name": honour.name,
        "honour_name_zh": honour.name_zh,
        "citation": row["citation"],
        "lines": rules.certificate_lines(honour, row["citation"]),
    }
