"""Issue 34: what the delegation door shows. Before a roster: what it asks (the sections, the
rooms and their rates, the services and their prices, the quota). By the delegation's secret
link: each row's entry and its verdict, the quota as it fills (players counted of the limit,
exemptions and why), the charges for lodging and services, and the money the ledger received
for the delegation (REG-14: a payment naming the unit or one of its entries)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.event_config import EventConfig

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain.rosters import Booking, charges, quota_state, total_fen
from .delegation_door import link_of
from .fees import line_from_row, load_notices
from .rendering import status_clause, status_name
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


async def delegation_view(repos: Repositories, state: RegistrationState, token: str) -> dict[str, Any]:
    link = await link_of(repos, token)
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
        "fees": await _fees(repos, config, unit_id, roster, {e.id for e in mine}, now),
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
    repos: Repositories, config: EventConfig, unit_id: str, roster: dict[str, Any], entry_ids: set[str], now: datetime
) -> dict[str, Any]:
    """The roster's charges at the rates in force now (an announced lodging rate included), and
    what the ledger received for the delegation and its entries."""
    notices = await load_notices(repos, config.id)
    rates = {i.id: notices.amount(i, now) for i in config.fees.items if i.basis == "per_person_per_day"}
    bookings = [
        Booking(p["name"], p["role"], p.get("room"), int(p.get("nights") or 0), p.get("services") or {})
        for p in roster.get("people", [])
    ]
    lines = charges(config, bookings, rates)
    ledger = [line_from_row(x) for x in await repos.ledger.lines(config.id)]
    paid = sum(x.amount_fen for x in ledger if x.unit_id == unit_id or x.entry_id in entry_ids)
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
        "due_fen": total_fen(lines),
        "paid_fen": paid,
    }
