"""Issue 34: what a registrant reads with their entry's secret link: the entry's status (accepted,
accepted pending evidence with its deadline, refused with the reason, waitlisted), the evidence
sent and its review, the fees due and received. The token becomes the registrant principal
(`Principal.registrant`, with the entry id) here: the one place a link is proven."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import NotFound

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain import Entry
from ..domain.fees import fee_deadline, fee_statuses, fees_apply
from . import secret_links
from .fees import line_from_row, load_notices
from .rendering import pending_evidence_view, status_clause, status_name
from .secret_links import Attempt
from .state import RegistrationState


async def registrant_of(repos: Repositories, token: str, attempt: Attempt) -> tuple[Principal, Any]:
    """The registrant a secret link proves, with the link's record; 404 for any other string
    (a replaced link too: its hash is gone), guesses throttled (`secret_links`)."""
    link = await secret_links.verify(repos, secret_links.REGISTRANT, token, attempt)
    return Principal.registrant(link.entry_id), link


async def registrant_view(
    repos: Repositories, state: RegistrationState, token: str, attempt: Attempt
) -> dict[str, Any]:
    principal, link = await registrant_of(repos, token, attempt)
    code = link.event_code
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    entry = loaded.reg.entries.get(str(principal.entry_id))
    if entry is None:  # the link outlived its entry (never: entries are not deleted)
        raise NotFound("unknown_registrant_link", "this link's entry is gone")
    people = await repos.people.rows(code, list(entry.person_ids))
    person = repo.person_from_row(people[entry.person_ids[0]], state.protector)
    evidence = await repos.evidence.rows(code, list(entry.person_ids))
    clause, reason = status_clause(entry)
    return {
        "event_code": code,
        "entry_id": entry.id,
        "entrant_id": entry.id,
        "stage": loaded.meta[entry.id].stage,
        "section_id": entry.section_id,
        "status": status_name(entry),
        "clause": clause,
        #: the rule a refusal names (REG-4 ...), for words in the page's language
        "rule": entry.refused_by.rule if entry.refused_by is not None else None,
        "reason": reason,
        "pending_evidence": pending_evidence_view(config, entry),
        "waitlist_position": entry.waitlist_position,
        "player": {
            "name": person.name,
            "gender": person.gender,
            "birth_year": person.birth_date.year,
            "id_number": person.id_number.masked if person.id_number else None,
        },
        "guardian_phone": link.guardian_phone_masked,
        "link_issued_at": link.issued_at.isoformat(),
        "evidence": [
            {
                "evidence_id": row.id,
                "kind": row.kind,
                "status": row.status,
                "submitted_at": row.submitted_at.isoformat() if row.submitted_at else None,
                "note": repo.evidence_from_row(row).review_note,
            }
            for row in evidence
        ],
        "fees": await _fees(repos, config, entry),
    }


async def _fees(repos: Repositories, config: Any, entry: Entry) -> dict[str, Any] | None:
    """REG-14: what the entry owes and has received (None: the event charges it nothing)."""
    if not config.fees.items or not fees_apply(config, entry):
        return None
    lines = [line_from_row(r) for r in await repos.ledger.lines(config.id)]
    notices = await load_notices(repos, config.id)
    deadline = fee_deadline(config)
    owed = fee_statuses(config, [entry], lines, by=deadline, notices=notices)[entry.id]
    now = fee_statuses(config, [entry], lines, by=datetime.max.replace(tzinfo=deadline.tzinfo), notices=notices)
    return {
        "currency": config.fees.currency,
        "due_by": deadline.isoformat(),
        "due_fen": owed.due_fen,
        "paid_fen": now[entry.id].paid_fen,
        "complete": owed.complete,
    }
