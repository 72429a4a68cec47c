"""Issue 34: entries by people on the public form (a parent enters a child; SZ 十三(一) 网上报名).

The form's entry is judged by the use case partners use (`entries.submit`: the same clauses,
windows, caps and evidence), attributed to the registrant principal (`Principal.registrant`).
What is the form's own: the event must take public entries (its configuration), a per-event cap,
an optional arithmetic challenge and a honeypot, only the facts the section's clauses need, a
refusal at submission keeps nothing (the registrant corrects the form and sends it again), and a
secret link (`secret_links`): 32 random bytes shown once, only their SHA-256 kept.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import datetime, timedelta
from typing import Any

from gomoku_shared.errors import Conflict, Forbidden, Unprocessable
from gomoku_shared.event_config import EventConfig, SectionConfig

from ..domain import EntryStatus
from . import entries, secret_links
from . import forms as s
from .command import EventCommand
from .rendering import status_name

#: the residency options the form offers (the others go through the arbiter: wildcards, units)
FORM_OPTIONS = {
    "household": "household_registration",
    "residence_permit": "residence_permit",
    "student_status": "student_status",
}
#: how long a challenge may be answered
CHALLENGE_VALID = timedelta(minutes=30)
#: what the form's evidence refers to: the facts were declared on the form (documents follow)
DECLARED_ON_FORM = "declared on the public entry form"


def form_sections(config: EventConfig) -> list[tuple[str, SectionConfig]]:
    """The sections the form enters: individual sections of the stages people register for."""
    return [
        (stage.id, section)
        for stage in config.stages
        if stage.entry == "registration"
        for section in stage.sections
        if section.kind == "individual"
    ]


def residency_options(config: EventConfig, section: SectionConfig) -> list[str]:
    """The evidence kinds the section's residency clauses accept on the form ([]: none asked)."""
    kinds: list[str] = []
    for clause_id in section.eligibility:
        for option in config.clause(clause_id).options:
            kind = FORM_OPTIONS.get(option.kind)
            if kind is not None and kind not in kinds:
                kinds.append(kind)
    return kinds


def insurance_asked(config: EventConfig) -> bool:
    """REG-13: the form asks for the policy when the participant insures and shows it now."""
    ins = config.insurance
    return ins.required and ins.provided_by == "participant" and ins.verified_at == "registration"


def form_view(config: EventConfig, now: datetime) -> dict[str, Any]:
    """What the form asks, section by section (the portal draws it from this)."""
    window = config.registration
    opens = window.opens_at is None or window.opens_at <= now
    sections = []
    for stage_id, section in form_sections(config):
        sections.append(
            {
                "stage": stage_id,
                "section_id": section.id,
                "name": section.name,
                "name_zh": section.name_zh,
                "gender": section.gender,
                "born_from": section.birth.born_from.isoformat() if section.birth.born_from else None,
                "born_to": section.birth.born_to.isoformat() if section.birth.born_to else None,
                "residency": residency_options(config, section),
                "region": _region_of(config, section),
            }
        )
    return {
        "event_code": config.id,
        "open": window.public_entries.open,
        "accepting": window.public_entries.open and opens and now < window.closes_at,
        "closes_at": window.closes_at.isoformat(),
        "challenge": window.public_entries.challenge != "none",
        "insurance_policy": insurance_asked(config),
        "sections": sections,
    }


def _region_of(config: EventConfig, section: SectionConfig) -> dict[str, Any] | None:
    """The region the section's residency clause names, in both languages."""
    for clause_id in section.eligibility:
        region = config.clause(clause_id).region
        if region is not None:
            found = config.region(region)
            return {"name": found.name if found else region, "name_zh": found.name_zh if found else None}
    return None


# ---- the challenge (the organiser switches it on: `registration.public_entries.challenge`)


def _signature(cmd_key: Any, payload: str) -> str:
    return str(cmd_key.digest(b"challenge:" + payload.encode()))


def new_challenge(protector: Any, code: str, now: datetime) -> dict[str, Any]:
    """A sum of two small numbers, signed with the service's key and valid for 30 minutes."""
    a, b = secrets.randbelow(9) + 1, secrets.randbelow(9) + 1
    expires = int((now + CHALLENGE_VALID).timestamp())
    payload = f"{code}.{a}.{b}.{expires}"
    return {"a": a, "b": b, "challenge": f"{payload}.{_signature(protector, payload)}"}


def _check_challenge(cmd: EventCommand, body: s.PublicEntryIn) -> None:
    if body.website:  # the hidden field: people never fill it in
        raise Unprocessable("challenge_failed", "the form was not filled in by a person")
    if cmd.config.registration.public_entries.challenge == "none":
        return
    parts = (body.challenge or "").rsplit(".", 1)
    if len(parts) != 2 or not hmac.compare_digest(parts[1], _signature(cmd.state.protector, parts[0])):
        raise Unprocessable("challenge_failed", "answer the sum on the form")
    code, a, b, expires = parts[0].rsplit(".", 3)
    if code != cmd.code or int(expires) < cmd.now.timestamp():
        raise Unprocessable("challenge_expired", "the sum on the form is out of date; answer the new one")
    if body.answer != int(a) + int(b):
        raise Unprocessable("challenge_failed", "the answer to the sum is wrong")


# ---- the entry


def _section(cmd: EventCommand, section_id: str) -> tuple[str, SectionConfig]:
    for stage_id, section in form_sections(cmd.config):
        if section.id == section_id:
            return stage_id, section
    raise Unprocessable("section_not_on_form", f"section {section_id!r} does not take entries on the public form")


def _evidence(cmd: EventCommand, section: SectionConfig, body: s.PublicEntryIn) -> list[s.EvidenceIn]:
    """Only the facts the section's clauses need: a residency when it has residency clauses."""
    kinds = residency_options(cmd.config, section)
    if not kinds:
        if body.residency is not None:
            raise Unprocessable("residency_not_asked", "this section does not ask where the player lives")
        return []
    if body.residency is None:
        raise Unprocessable("residency_required", "say how the player meets the section's residency rule")
    if body.residency.kind not in kinds:
        raise Unprocessable("residency_kind_not_offered", f"this section accepts {', '.join(kinds)}")
    declared = [s.EvidenceIn(kind=body.residency.kind, document_ref=DECLARED_ON_FORM, region=body.residency.region)]
    if body.residency.kind == "residence_permit" and body.residency.insurance_months:
        # REG-6 (2) counts the months of the social-insurance records (as a partner sends them),
        # not the permit's: the months declared on the form are a record of their own
        months = _months_before(cmd.now, body.residency.insurance_months)
        declared.append(
            s.EvidenceIn(
                kind="social_insurance",
                document_ref=DECLARED_ON_FORM,
                region=body.residency.region,
                months_paid=months,
            )
        )
    return declared


def _months_before(now: datetime, count: int) -> list[str]:
    """The ``count`` months up to the one before ``now`` ("YYYY-MM"): social insurance declared
    as paid without a break until last month."""
    year, month = now.year, now.month
    out = []
    for _ in range(count):
        month -= 1
        if month == 0:
            year, month = year - 1, 12
        out.append(f"{year:04d}-{month:02d}")
    return sorted(out)


async def enter(cmd: EventCommand, body: s.PublicEntryIn) -> dict[str, Any]:
    """Judge the form's entry as a partner's (REG-1..8, REG-13, REG-18) and answer its secret link."""
    rules = cmd.config.registration.public_entries
    if not rules.open:
        raise Forbidden("public_entries_closed", "this event does not take entries on the public form")
    _check_challenge(cmd, body)
    stage_id, section = _section(cmd, body.section_id)
    if await cmd.uow.links.count(cmd.code) >= rules.cap:
        raise Conflict("public_entries_full", "the event has taken as many entries on the form as it can")
    asked = insurance_asked(cmd.config)
    if asked and not body.insurance_policy:
        raise Unprocessable("insurance_policy_required", "give the number of the player's insurance policy")
    player = s.PlayerIn(name=body.name, gender=body.gender, birth_date=body.birth_date, id_number=body.id_number)
    entry = await entries.submit(
        cmd,
        section_id=section.id,
        stage=stage_id,
        players=[player],
        evidence=[_evidence(cmd, section, body)],
        facts=[s.FactsIn()],
        insurance=s.InsuranceIn(confirmed=bool(body.insurance_policy), document_ref=body.insurance_policy),
        items=None,
        unit_ref=None,
    )
    if entry.status is EntryStatus.REFUSED:
        # nothing is kept (the transaction rolls back): the registrant corrects the form
        d = entry.refused_by
        raise Unprocessable(
            "entry_refused",
            d.reason if d else "the entry is refused",
            {"rule": d.rule if d else "", "clause": d.clause if d else "", "reason": d.reason if d else ""},
        )
    token = await secret_links.issue(cmd, secret_links.REGISTRANT, entry.id, body.guardian_phone)
    await cmd.save()
    return {"token": token, "event_code": cmd.code, "status": status_name(entry)}


async def reissue(cmd: EventCommand, entry_id: str, body: s.ReissueIn) -> dict[str, Any]:
    """The organiser gives the registrant a new link; the old one stops working."""
    del body  # nothing to say yet: the route takes the platform's common (empty) body
    cmd.entry_for(entry_id)
    token = await secret_links.relink(cmd, secret_links.REGISTRANT, entry_id)
    return {"token": token, "entry_id": entry_id}
