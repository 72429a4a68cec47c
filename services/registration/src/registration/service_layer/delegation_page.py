"""Issue 34: what the delegation door shows. Before a roster: what it asks (the sections, the
rooms and their rates, the services and their prices, the quota). By the delegation's secret
link: each row's entry and its verdict, the quota as it fills (players counted of the limit,
exemptions and why), the charges for lodging and services, and the money the ledger received
for the delegation (REG-14: a payment naming the unit or one of its entries). What is due is the
fee ledger's figure for the delegation (`delegation_fees`), the one the fee report shows."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.event_config import EventConfig

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain.fees import delegation_fees, fee_statuses, fees_apply
from ..domain.model import Entry
from ..domain.rosters import charges, quota_state
from .delegation_door import link_of
from .documents import document_view
from .fees import line_from_row, load_notices
from .rendering import status_clause, status_name
from .roster_fees import bookings_of
from .secret_links import Attempt
from .state import RegistrationState


def door_view(config: EventConfig, now: datetime) -> dict[str, Any]:
    """What the roster asks, for the portal's page."""
    window = config.registration
    rules = config.units
    sections = []
    for stage in config.stages:
        if stage.entry != "registration":
            continue
        for section in stage.sections:
            sections.append(
                {
                    "section_id": section.id,
                    "name": section.name,
                    "name_zh": section.name_zh,
                    "kind": section.kind,
                    "gender": section.gender,
                    "team_size": section.team.size_max if section.team else None,
                }
            )
    return {
        "event_code": config.id,
        "open": window.public_delegations.open,
        "accepting": window.public_delegations.open
        and (window.opens_at is None or window.opens_at <= now)
        and now < window.closes_at,
        "closes_at": window.closes_at.isoformat(),
        "id_number_required": window.id_number_required,
        "max_nights": window.public_delegations.max_nights,
        "sections": sections,
        "rooms": [
            {"room": i.room, "item": i.id, "name": i.name, "name_zh": i.name_zh, "amount_fen": i.amount_fen}
            for i in config.fees.items
            if i.basis == "per_person_per_day"
        ],
        "default_room": config.fees.default_room,
        "services": [
            {
                "id": x.id,
                "name": x.name,
                "name_zh": x.name_zh,
                "amount_fen": x.amount_fen,
                "per": x.per,
                "max_per_person": x.max_per_person,
            }
            for x in config.fees.services
        ],
        "quota": rules.delegation_max_players,
        "quota_exempt_top": rules.quota_exempt_previous_top,
        "max_leaders": rules.max_leaders,
        "max_coaches": rules.max_coaches,
        "currency": config.fees.currency,
    }


async def delegation_view(
    repos: Repositories, state: RegistrationState, token: str, attempt: Attempt
) -> dict[str, Any]:
    link = await link_of(repos, token, attempt)
    code, unit_id = link.event_code, link.unit_id
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    units = await repos.units.rows(code)
    now = state.now()
    roster = link.roster or {}
    mine = [e for e in loaded.reg.entries.values() if e.unit_id == unit_id]
    held = [e for e in mine if e.status.holds_place]
    quota = quota_state(config, held)
    names = {p["person_id"]: p["name"] for p in roster.get("people", []) if p.get("person_id")}
    entries = []
    for row in roster.get("entries", []):
        entry = loaded.reg.entries.get(row["entry_id"])
        if entry is None:
            continue
        clause, reason = status_clause(entry)
        entries.append(
            {
                "section_id": entry.section_id,
                "team_name": entry.team_name,
                "names": [names.get(pid, "") for pid in entry.person_ids],
                "status": status_name(entry),
                "clause": clause,
                "reason": reason,
                "rule": entry.refused_by.rule if entry.refused_by else None,
            }
        )
    return {
        "event_code": code,
        "unit_name": units[unit_id].name if unit_id in units else "",
        "leader_phone": link.leader_phone_masked,
        "link_issued_at": link.issued_at.isoformat(),
        "submitted_at": link.submitted_at.isoformat() if link.submitted_at else None,
        "amendments": link.amendments,
        "amendable": now < config.registration.closes_at and config.registration.public_delegations.open,
        "closes_at": config.registration.closes_at.isoformat(),
        "officials": [{"role": o.role, "name": o.name} for o in loaded.reg.officials if o.unit_id == unit_id],
        "people": await _people(repos, state, code, roster.get("people", [])),
        "entries": entries,
        "quota": {
            "limit": quota.limit,
            "counted": quota.counted,
            "exempt": [
                {"name": names.get(pid, ""), "clause": clause, "reason": why, "outside": pid in quota.exempt}
                for pid, (clause, why) in quota.claims.items()
            ],
        },
        "fees": await _fees(repos, config, unit_id, roster, [e for e in mine if fees_apply(config, e)]),
        # the documents the delegation sent (metadata only; NY 十二(一), DA 十(一)1)
        "documents": [document_view(d) for d in await repos.documents.list_of_unit(code, unit_id)],
    }


async def _people(
    repos: Repositories, state: RegistrationState, code: str, people: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The roster's rows, its players with their gender, birth year and masked ID number (a kept
    row names the player by ``person_id`` when the roster is amended)."""
    ids = [p["person_id"] for p in people if p.get("person_id")]
    rows = await repos.people.rows(code, ids) if ids else {}
    out = []
    for p in people:
        row = rows.get(p.get("person_id") or "")
        if row is not None:
            person = repo.person_from_row(row, state.protector)
            p = {
                **p,
                "gender": person.gender,
                "birth_year": person.birth_date.year,
                "id_number": str(person.id_number) if person.id_number else None,
            }
        out.append(p)
    return out


async def _fees(
    repos: Repositories, config: EventConfig, unit_id: str, roster: dict[str, Any], entries: list[Entry]
) -> dict[str, Any]:
    """The roster's charges at the latest rates announced (as the fee report shows them), the
    ledger's figure for the delegation, and what the ledger received for it and its entries."""
    notices = await load_notices(repos, config.id)
    ever = datetime.max.replace(tzinfo=config.registration.closes_at.tzinfo)
    rates = {i.id: notices.amount(i, ever) for i in config.fees.items if i.basis == "per_person_per_day"}
    bookings = bookings_of(roster)
    lines = charges(config, bookings, rates)
    ledger = [line_from_row(x) for x in await repos.ledger.lines(config.id)]
    statuses = fee_statuses(config, entries, ledger, by=ever, notices=notices, rosters={unit_id: bookings})
    figure = delegation_fees(config, unit_id, entries, statuses, ledger, bookings, by=ever)
    items = {i.id: (i.name, i.name_zh) for i in config.fees.items} | {
        x.id: (x.name, x.name_zh) for x in config.fees.services
    }
    return {
        "currency": config.fees.currency,
        "lines": [
            {
                "name": c.name,
                "item": c.item,
                "item_name": items[c.item][0],
                "item_name_zh": items[c.item][1],
                "quantity": c.quantity,
                "rate_fen": c.rate_fen,
                "amount_fen": c.amount_fen,
            }
            for c in lines
        ],
        "due_fen": figure.due_fen,
        "paid_fen": figure.paid_fen,
        # REG-14: every entry holding a place has its board and lodging received
        "complete": figure.complete,
    }
