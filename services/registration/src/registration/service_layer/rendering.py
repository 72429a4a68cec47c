"""How the registration API shows its records: entries (ID numbers masked, birth year only),
events, evidence, change requests and units. Pure functions of domain objects and rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gomoku_shared.event_config import EventConfig

from ..adapters import repository as repo
from ..domain import REJUDGED, Decision, Entry, EntryStatus, Evidence, Person, Verdict

STATUS_NAMES = {
    EntryStatus.ACCEPTED: "accepted",
    EntryStatus.PENDING_REVIEW: "pending_review",
    EntryStatus.WAITLISTED: "waiting_list",
    EntryStatus.REFUSED: "refused",
    EntryStatus.WITHDRAWN: "withdrawn",
}
#: REG-18: accepted, but on declared evidence an arbiter has still to approve
ACCEPTED_PENDING_EVIDENCE = "accepted_pending_evidence"
VIEW_STATUSES = (*STATUS_NAMES.values(), ACCEPTED_PENDING_EVIDENCE)


def status_name(e: Entry) -> str:
    """The status every view shows: an accepted entry whose admission waits for evidence to be
    approved says so (REG-18)."""
    return ACCEPTED_PENDING_EVIDENCE if e.pending_evidence else STATUS_NAMES[e.status]


def pending_evidence_view(config: EventConfig, e: Entry) -> dict[str, Any] | None:
    """REG-18: by when the evidence must be approved and what happens otherwise (the clause's
    `pending_evidence` configuration), for each player whose admission waits for it."""
    marks = e.pending_evidence
    if not marks:
        return None
    rules = []
    for mark in marks:
        pending = config.clause(mark.clause.rsplit("/", 1)[0]).pending_evidence
        if pending is not None:  # a REG-18 mark names a clause that admits pending evidence
            rules.append((mark, pending))
    if not rules:
        return None
    return {
        "approve_by": min(pending.approve_by for _, pending in rules).isoformat(),
        "otherwise": rules[0][1].otherwise,
        "note": rules[0][1].note,
        "players": sorted({mark.person_id for mark, _ in rules if mark.person_id}),
        "clauses": sorted({mark.clause for mark, _ in rules}),
    }


def pending_fields(config: EventConfig, e: Entry) -> dict[str, Any]:
    """entry.accepted v1 optional fields (REG-18): admitted on evidence still to be approved."""
    view = pending_evidence_view(config, e)
    if view is None:
        return {}
    return {"evidence_pending": True, "evidence_approve_by": view["approve_by"]}


def status_clause(e: Entry) -> tuple[str, str]:
    if e.status is EntryStatus.REFUSED and e.refused_by is not None:
        return e.refused_by.clause, e.refused_by.reason
    pend = next((d for d in e.decisions if d.outcome is Verdict.PENDING and d.clause != REJUDGED), None)
    if e.status in (EntryStatus.PENDING_REVIEW, EntryStatus.WAITLISTED) and pend is not None:
        return pend.clause, pend.reason
    if e.status is EntryStatus.WITHDRAWN and e.withdrawal is not None:
        return "changes/withdrawal", e.withdrawal.reason
    clause = e.admitted_by
    reason = next((d.reason for d in e.decisions if d.clause == clause), "") if clause else ""
    return clause, reason


def entry_view(
    e: Entry,
    meta: repo.EntryMeta,
    people: Mapping[str, Person],
    units: Mapping[str, Any],
    config: EventConfig,
    external_ids: Mapping[str, str] | None = None,
    registry_ids: Mapping[str, str] | None = None,
) -> dict:
    """An entry as the API shows it: ID numbers masked and the birth year only (REG-11: the two
    together must not narrow an ID number down), every decision with its clause. ``external_ids``
    are the partner's own user ids of its people, given only when the caller is that partner;
    ``registry_ids`` the people's registry persons (issue 32), given only to staff."""
    clause, reason = status_clause(e)
    players = []
    for index, pid in enumerate(e.person_ids):
        person = people.get(pid)
        players.append(
            {
                "player_id": pid,
                "name": person.name if person else None,
                "gender": person.gender if person else None,
                "birth_year": person.birth_date.year if person else None,
                "id_number": person.id_number.masked if person and person.id_number else None,
                "external_id": (external_ids or {}).get(pid),
                "registry_id": (registry_ids or {}).get(pid),
                "board": index + 1,
            }
        )
    unit = units.get(e.unit_id) if e.unit_id else None
    return {
        "entry_id": e.id,
        "entrant_id": e.id,
        "player_id": e.person_ids[0] if len(e.person_ids) == 1 else None,
        "event_code": e.event_id,
        "stage": meta.stage,
        "section_id": e.section_id,
        "seq": meta.seq,
        "status": status_name(e),
        "clause": clause,
        "reason": reason,
        "pending_evidence": pending_evidence_view(config, e),
        "unit": {"id": unit.id, "name": unit.name} if unit is not None else None,
        "team_name": e.team_name,
        "players": players,
        "waitlist_position": e.waitlist_position,
        "received_at": e.received_at.isoformat() if e.received_at else None,
        "checked_in_at": e.checked_in_at.isoformat() if e.checked_in_at else None,
        "no_show": e.no_show,
        "insurance_confirmed": e.insurance.confirmed,
        "source": meta.source,
        "rating": meta.rating,
        "partner_id": meta.partner_id,
        "withdrawal": {
            "at": e.withdrawal.at.isoformat(),
            "reason": e.withdrawal.reason,
            "refund_requested": e.withdrawal.refund_requested,
        }
        if e.withdrawal
        else None,
        "decisions": [repo.decision_to_json(d) for d in e.decisions],
    }


def changed_entries_view(changed: list[Entry]) -> list[dict[str, Any]]:
    return [
        {"entry_id": e.id, "status": status_name(e), "clause": status_clause(e)[0], "reason": status_clause(e)[1]}
        for e in changed
    ]


def evidence_view(ev: Evidence, entry_id: str | None, clause: str | None = None) -> dict[str, Any]:
    return {
        "evidence_id": ev.id,
        "player_id": ev.person_id,
        "entry_id": entry_id,
        "kind": ev.kind.value,
        "status": ev.status.value,
        "submitted_at": ev.submitted_at.isoformat() if ev.submitted_at else None,
        "reviewed_by": ev.reviewed_by,
        "note": ev.review_note,
        "clause": clause,
        "document": "[protected]",
    }


def change_view(r) -> dict[str, Any]:
    return {
        "change_id": r.id,
        "entry_id": r.entry_id,
        "kind": r.kind,
        "details": r.details,
        "state": r.state,
        "decision": r.decision,
        "decided_by": r.decided_by,
        "requested_at": repo.aware(r.requested_at).isoformat(),
        # REG-10: a substitution, and when it was applied to the entry
        "replaces_player_id": r.replaces_person_id,
        "substitute_player_id": r.new_person_id,
        "applied_at": repo.aware(r.applied_at).isoformat() if r.applied_at else None,
    }


def render_unit(r, reg, decisions: Sequence[Decision] = ()) -> dict[str, Any]:
    return {
        "unit_id": r.id,
        "name": r.name,
        "kind": r.kind,
        "region": r.region,
        "annual_registration": r.annual_registration,
        "is_host": r.is_host,
        "officials": [
            {"role": o.role, "name": o.name, "person_id": o.person_id} for o in reg.officials if o.unit_id == r.id
        ],
        "players": sorted(reg.delegation(r.id)),
        "decisions": [repo.decision_to_json(d) for d in decisions],
    }


def event_view(config: EventConfig, preset_id: str, statuses: Mapping[str, str], organisation: str) -> dict[str, Any]:
    return {
        "event_code": config.id,
        "preset_id": preset_id,
        #: issue 29: the organisation that owns the event
        "organisation": organisation,
        "name": config.name,
        #: issue 28: the names in Chinese (the pages' default language), who holds it, where
        "name_zh": config.name_zh,
        "organiser": config.organiser,
        "organiser_zh": config.organiser_zh,
        "venue": config.venue,
        "venue_zh": config.venue_zh,
        "starts_on": min(st.starts_on for st in config.stages).isoformat(),
        "ends_on": max(st.ends_on for st in config.stages).isoformat(),
        "fee_items": [{"id": i.id, "name": i.name, "name_zh": i.name_zh} for i in config.fees.items],
        "timezone": config.timezone,
        "registration": {
            "opens_at": config.registration.opens_at.isoformat() if config.registration.opens_at else None,
            "closes_at": config.registration.closes_at.isoformat(),
            "required_items": list(config.registration.required_items),
            #: issue 34: the event takes entries on the public form
            "public_entries": config.registration.public_entries.open,
            #: issue 34: units enter their delegations through the roster door
            "public_delegations": config.registration.public_delegations.open,
        },
        "waiting_list": config.waiting_list,
        # REG-11: what every player shows at check-in (the console ticks these only)
        "check_in": {"documents": list(config.check_in.documents)},
        # AWD-10 / AWD-9: the arbitration committee's terms and the honours the event gives
        "appeals": {**config.appeal_terms(), "committee": config.appeals.model_dump(mode="json")["committee"]},
        "honours": [h.model_dump(mode="json") for h in config.honours],
        # REG-17: the residency regions and every spelling accepted for them
        "regions": [
            {"id": r.id, "name": r.name, "name_zh": r.name_zh, "accepted_names": r.names()} for r in config.regions
        ],
        "eligibility": [
            {
                "id": c.id,
                "rule": c.rule,
                "region": c.region,
                "evidence": c.evidence,
                "pending_evidence": c.pending_evidence.model_dump(mode="json") if c.pending_evidence else None,
            }
            for c in config.eligibility
        ],
        "stages": [
            {
                "id": st.id,
                "name": st.name,
                "name_zh": st.name_zh,
                "entry": st.entry,
                "fed_by": st.fed_by,
                "status": statuses.get(st.id),
                "starts_on": st.starts_on.isoformat(),
                "sections": [
                    {
                        "id": sec.id,
                        "name": sec.name,
                        "name_zh": sec.name_zh,
                        "kind": sec.kind,
                        "gender": sec.gender,
                        "track": sec.track,
                        "cap": sec.cap,
                        "born_from": sec.birth.born_from.isoformat() if sec.birth.born_from else None,
                        "born_to": sec.birth.born_to.isoformat() if sec.birth.born_to else None,
                        "format_choice": sec.format.choice if sec.format else None,
                        "formats": list(sec.format.allowed) if sec.format else [],
                    }
                    for sec in st.sections
                ],
            }
            for st in config.stages
        ],
    }


# --------------------------------------------------------------------------- fees (REG-14/15)


def _status_items(status: Any) -> list[dict[str, Any]]:
    return [
        {"item": i.item, "due_fen": i.due_fen, "paid_fen": i.paid_fen, "complete": i.complete, "confirmed": i.confirmed}
        for i in status.items
    ]


def fee_view(e: Entry, at_deadline: Any, by_now: Any) -> dict[str, Any]:
    """What an entry owes and has paid: by the deadline (what validity is judged on) and now."""
    return {
        "entry_id": e.id,
        "section_id": e.section_id,
        "unit_id": e.unit_id,
        "status": status_name(e),
        "due_fen": at_deadline.due_fen,
        "paid_by_deadline_fen": at_deadline.paid_fen,
        "complete_by_deadline": at_deadline.complete,
        "paid_fen": by_now.paid_fen,
        "items": _status_items(at_deadline),
    }


def line_view(row: Any) -> dict[str, Any]:
    """A ledger line; its payment reference is personal data and never shown."""
    return {
        "line_id": row.id,
        "seq": row.seq,
        "kind": row.kind,
        "item": row.item,
        "amount_fen": int(row.amount_fen),
        "currency": row.currency,
        "entry_id": row.entry_id,
        "unit_id": row.unit_id,
        "received_at": repo.aware(row.received_at).isoformat(),
        "recorded_at": repo.aware(row.recorded_at).isoformat(),
        "recorded_by": row.recorded_by,
        "reference": "[protected]" if row.reference_enc else None,
        "corrects": row.corrects,
        "source": row.source,
        "note": row.note,
    }


def announcement_view(row: Any) -> dict[str, Any]:
    """An announcement of a fee item's amount, with who announced it and when (the audit)."""
    return {
        "announcement_id": row.id,
        "seq": row.seq,
        "item": row.item,
        "amount_fen": int(row.amount_fen),
        "applies_from": repo.aware(row.applies_from).isoformat(),
        "announced_at": repo.aware(row.announced_at).isoformat(),
        "announced_by": row.announced_by,
        "note": row.note,
    }


def confirmation_view(row: Any) -> dict[str, Any]:
    """A "paid in full" confirmation (or its withdrawal), with who gave it and when."""
    return {
        "confirmation_id": row.id,
        "seq": row.seq,
        "entry_id": row.entry_id,
        "item": row.item,
        "paid_in_full": row.paid_in_full,
        "as_of": repo.aware(row.as_of).isoformat(),
        "recorded_at": repo.aware(row.recorded_at).isoformat(),
        "recorded_by": row.recorded_by,
        "note": row.note,
    }


def refund_view(row: Any) -> dict[str, Any]:
    """A refund request and the organiser's decision; the proof is shown as "[protected]"."""
    return {
        "refund_id": row.id,
        "entry_id": row.entry_id,
        "state": row.state,
        "reason": row.reason,
        "proof_ref": "[protected]" if row.proof_ref_enc else None,
        "force_majeure_claimed": row.force_majeure_claimed,
        "requested_at": repo.aware(row.requested_at).isoformat(),
        "requested_by": row.requested_by,
        "granted_fen": int(row.granted_fen) if row.granted_fen is not None else None,
        "force_majeure_accepted": row.force_majeure_accepted,
        "decided_by": row.decided_by,
        "decided_at": repo.aware(row.decided_at).isoformat() if row.decided_at else None,
        "decision_note": row.decision_note,
        "ledger_line_id": row.ledger_line_id,
    }


def closed_sections_view(config: EventConfig, closed: list[Any]) -> list[dict[str, Any]]:
    """What the close says of each section."""
    return [
        {
            "section_id": c.section_id,
            "name": config.section(c.section_id).name,
            "status": c.status,
            "merged_into": c.merged_into,
            "merged_from": list(c.merged_from),
            "entrants": c.size,
            "format": c.format,
            "rounds": c.rounds,
            "rank_by_gender": c.rank_genders_separately,
            "reason": c.reason,
        }
        for c in closed
    ]
