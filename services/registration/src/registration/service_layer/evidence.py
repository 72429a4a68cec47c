"""Evidence and facts (REG-6, REG-8, REG-18): uploading a record, the arbiter's decision on it and
corrected facts; each judges the player's entries again, and a qualification stage not yet
closed is rebuilt (REG-7 counts verified evidence only)."""

from __future__ import annotations

import dataclasses
from typing import Any

from gomoku_shared.errors import Conflict, NotFound, Unprocessable

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain import Entry
from . import forms as s
from .actors import actor_ref, requester_ref
from .command import EventCommand
from .rendering import changed_entries_view, evidence_view
from .stages import rebuild_ready_stages
from .state import may_see


async def rejudge_player(cmd: EventCommand, person_id: str, cause: str) -> None:
    """REG-18: a player's evidence or facts changed: each registration entry of the player is
    judged again by the domain, while its stage is open (the arbiter's review period runs
    until the close); after the close only the pending-evidence marks are brought up to date."""
    stage_rows = await cmd.uow.events.stages(cmd.code)
    for entry in list(cmd.reg.entries.values()):
        meta = cmd.loaded.meta[entry.id]
        if person_id not in entry.person_ids or meta.source != "registration":
            continue
        row = stage_rows.get(meta.stage)
        await _rejudge_entry(
            cmd, entry, meta.intends_to_represent, cause, settled=row is not None and row.status == "closed"
        )


async def _rejudge_entry(
    cmd: EventCommand, entry: Entry, intends_to_represent: bool, cause: str, *, settled: bool
) -> None:
    """Judge one entry again on its players' current facts and evidence (REG-18)."""
    people = await cmd.load_people(list(entry.person_ids))
    unit = repo.unit_from_row(cmd.units[entry.unit_id]) if entry.unit_id else None
    cmd.reg.rejudge(
        entry.id,
        people,
        evidence=await cmd.evidence_of(entry.person_ids),
        unit=unit,
        intends_to_represent=intends_to_represent,
        cause=cause,
        settled=settled,
    )


async def correct_facts(cmd: EventCommand, entry_id: str, body: s.FactsCorrectionIn) -> dict[str, Any]:
    """REG-18: corrected facts are judged again, refused entries included. The registrant may
    correct while the window is open and changes need no approval (REG-10); afterwards, until the
    stage closes (the review period), only an arbiter or operator."""
    entry, meta = cmd.entry_for(entry_id)
    await cmd.ensure_stage_open(meta.stage)
    if meta.source != "registration":
        raise Unprocessable(
            "not_correctable", "this entry comes from qualification; its facts are those of the registration entry"
        )
    needs_approval = (
        cmd.config.changes.approval_required_from == "submission" or cmd.now >= cmd.config.registration.closes_at
    )
    if needs_approval and not cmd.principal.is_staff:
        raise Conflict(
            "change_needs_approval",
            "facts can no longer be corrected directly: request a change, an arbiter decides (REG-10)",
        )
    who = requester_ref(cmd.principal)
    meta.intends_to_represent = body.intends_to_represent
    await cmd.uow.entries.set_intends_to_represent(entry_id, body.intends_to_represent)
    await _rejudge_entry(cmd, entry, body.intends_to_represent, f"facts corrected by {who}", settled=False)
    changed = await cmd.save()
    for changed_entry in changed:
        cmd.emit_entry(changed_entry)
    return {**cmd.entry_view(cmd.reg.entries[entry_id]), "entries": changed_entries_view(changed)}


async def evidence_event(repos: Repositories, evidence_id: str) -> str:
    """The event an evidence record belongs to (it never changes)."""
    code = await repos.evidence.event_of(evidence_id)
    if code is None:
        raise NotFound("unknown_evidence", f"no evidence {evidence_id!r}")
    return code


async def decide_evidence(cmd: EventCommand, evidence_id: str, body: s.DecisionIn) -> dict[str, Any]:
    """REG-6: the arbiter approves or rejects an evidence record; the player's entries are
    judged again and every decision names its clause."""
    uow, principal = cmd.uow, cmd.principal
    evidence = repo.evidence_from_row(await uow.evidence.get(evidence_id))
    if body.decision == "reject" and not body.note.strip():
        raise Unprocessable("reason_required", "a rejection needs a note saying why")
    arbiter = actor_ref(principal)
    evidence = (
        evidence.approve(arbiter, body.note or None, at=cmd.now)
        if body.decision == "approve"
        else evidence.reject(arbiter, body.note, at=cmd.now)
    )
    await uow.evidence.update(
        evidence_id,
        status=evidence.status.value,
        reviewed_by=arbiter,
        review_note=evidence.review_note,
        reviewed_at=cmd.now,
    )
    await uow.documents.set_review_state(cmd.code, evidence_id, evidence.status.value)
    await rejudge_player(cmd, evidence.person_id, f"evidence {evidence_id} was {evidence.status.value} by {arbiter}")
    changed = await cmd.save()
    for entry in changed:
        cmd.emit_entry(entry)
    # the clause the player now stands under (latest settled residency/representation decision)
    clause = cmd.reg.standing_clause(evidence.person_id)
    await uow.evidence.update(evidence_id, clause=clause)
    # a qualification stage not yet closed is rebuilt: REG-7 uses verified (approved) evidence
    rebuilt = await rebuild_ready_stages(cmd)
    return {
        "evidence_id": evidence_id,
        "status": evidence.status.value,
        "clause": clause,
        "entries": changed_entries_view(changed),
        "rebuilt_stages": rebuilt,
    }


async def upload_evidence(cmd: EventCommand, body: s.EvidenceUploadIn) -> dict[str, Any]:
    if body.entry_id:
        e, _ = cmd.entry_for(body.entry_id)
        if body.player_id and body.player_id not in e.person_ids:
            raise Unprocessable("player_not_in_entry", "the player is not part of this entry")
        person_id = body.player_id or e.person_ids[0]
        entry_id = e.id
    elif body.player_id:
        entry_id = None
        visible = [
            e
            for eid, e in cmd.reg.entries.items()
            if body.player_id in e.person_ids and may_see(cmd.principal, cmd.loaded.meta[eid].partner_id)
        ]
        if not visible:
            raise NotFound("unknown_player", f"no player {body.player_id!r}")
        person_id = body.player_id
    else:
        raise Unprocessable("player_required", "give entry_id or player_id")
    about = {f.name: getattr(body, f.name) for f in dataclasses.fields(s.EvidenceIn)}  # the record, not whom
    evidence = await cmd.add_evidence(person_id, s.EvidenceIn(**about), entry_id)
    # REG-18: new material -> the player's entries are judged again (refused ones included)
    await rejudge_player(cmd, person_id, f"evidence {evidence.id} arrived")
    changed = await cmd.save()
    for e in changed:
        cmd.emit_entry(e)
    return {**evidence_view(evidence, entry_id), "entries": changed_entries_view(changed)}
