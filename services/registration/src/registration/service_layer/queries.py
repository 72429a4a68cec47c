"""Read-only views of the registration API: each runs on a session of its own (no lock, no
unit of work) and shows a partner only its own records."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import NotFound

from ..adapters import repository as repo
from ..adapters.repositories import Repositories
from ..domain import EntryStatus, is_pending_evidence_decision
from .readiness import stage_status
from .rendering import (
    ACCEPTED_PENDING_EVIDENCE,
    STATUS_NAMES,
    change_view,
    entry_view,
    event_view,
    evidence_view,
    render_unit,
    status_name,
)
from .state import RegistrationState, external_ids_seen, may_see, owner_of


async def get_event(repos: Repositories, state: RegistrationState, code: str) -> dict[str, Any]:
    config = await state.config(repos, code)
    row = await repos.events.get(code)
    statuses = {st.id: (await stage_status(repos.events, config, st.id))["status"] for st in config.stages}
    return event_view(config, row.preset_id, statuses, row.organisation)


async def list_entries(
    repos: Repositories,
    state: RegistrationState,
    principal: Principal,
    code: str,
    *,
    stage: str | None,
    section_id: str | None,
    status: str | None,
    external_id: str | None = None,
) -> dict[str, Any]:
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    units = await repos.units.rows(code)
    holder = None
    if external_id is not None:  # the caller's own people only: no other's external id matches
        found = await repos.people.by_external_id(code, owner_of(principal) or "", external_id)
        if found is None or principal.role != "partner":
            return {"entries": []}
        holder = found.id
    chosen = [
        e
        for eid, e in loaded.reg.entries.items()
        if may_see(principal, loaded.meta[eid].partner_id)
        and (stage is None or loaded.meta[eid].stage == stage)
        and (section_id is None or e.section_id == section_id)
        and (status is None or status_name(e) == status)
        and (holder is None or holder in e.person_ids)
    ]
    rows = await repos.people.rows(code, sorted({p for e in chosen for p in e.person_ids}))
    people = {pid: repo.person_from_row(r, state.protector) for pid, r in rows.items()}
    external = external_ids_seen(principal, rows)
    registry = await registry_ids_seen(repos, principal, code, rows)
    chosen.sort(key=lambda e: (loaded.meta[e.id].stage, e.section_id, loaded.meta[e.id].seq))
    on_form = await _on_form(repos, principal, code)
    return {
        "entries": [
            {
                **entry_view(e, loaded.meta[e.id], people, units, config, external, registry),
                "public_form": e.id in on_form,
            }
            for e in chosen
        ]
    }


async def _on_form(repos: Repositories, principal: Principal, code: str) -> set[str]:
    """Issue 34: the entries made on the public form, for staff (whose console re-issues their
    registrants' links); a partner never sees those entries."""
    return await repos.links.holders(code) if principal.is_staff else set()


async def get_entry(
    repos: Repositories, state: RegistrationState, principal: Principal, code: str, entry_id: str
) -> dict[str, Any]:
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    entry = loaded.reg.entries.get(entry_id)
    if entry is None or not may_see(principal, loaded.meta[entry_id].partner_id):
        raise NotFound("unknown_entry", f"no entry {entry_id!r}")
    rows = await repos.people.rows(code, list(entry.person_ids))
    people = {pid: repo.person_from_row(r, state.protector) for pid, r in rows.items()}
    units = await repos.units.rows(code)
    external = external_ids_seen(principal, rows)
    registry = await registry_ids_seen(repos, principal, code, rows)
    view = entry_view(entry, loaded.meta[entry_id], people, units, config, external, registry)
    return {**view, "public_form": entry_id in await _on_form(repos, principal, code)}


async def registry_ids_seen(
    repos: Repositories, principal: Principal, code: str, people_rows: Mapping[str, Any]
) -> dict[str, str]:
    """Issue 32: the people's registry persons, for staff only (a partner never learns them)."""
    return await repos.registry.registry_ids(code, list(people_rows)) if principal.is_staff else {}


async def list_changes(
    repos: Repositories, state: RegistrationState, principal: Principal, code: str
) -> dict[str, Any]:
    await state.config(repos, code)
    rows = await repos.changes.of_event(code)
    return {"changes": [change_view(x) for x in rows if may_see(principal, x.partner_id)]}


async def list_evidence(
    repos: Repositories, state: RegistrationState, principal: Principal, code: str, status: str | None
) -> dict[str, Any]:
    await state.config(repos, code)
    rows = await repos.evidence.rows(code)
    return {
        "evidence": [
            evidence_view(repo.evidence_from_row(x), x.entry_id, x.clause)
            for x in rows
            if may_see(principal, x.partner_id) and (status is None or x.status == status)
        ]
    }


async def list_units(repos: Repositories, state: RegistrationState, principal: Principal, code: str) -> dict[str, Any]:
    config = await state.config(repos, code)
    loaded = await repos.entries.load(config)
    units = await repos.units.rows(code)
    # issue 34: which units came through the delegation door (staff may re-issue their link)
    door = set(await repos.delegation_links.rosters(code, submitted_only=False))
    return {
        "units": [
            {**render_unit(u, loaded.reg), "delegation_link": u.id in door}
            for u in units.values()
            if may_see(principal, u.partner_id)
        ]
    }


async def stage_view(repos: Repositories, state: RegistrationState, code: str, stage_id: str) -> dict[str, Any]:
    """A stage's status with per-section counts (REG-18: the accepted still waiting for evidence apart)."""
    config = await state.config(repos, code)
    try:
        stage = config.stage(stage_id)
    except KeyError:
        raise NotFound("unknown_stage", f"no stage {stage_id!r}") from None
    info = await stage_status(repos.events, config, stage_id)
    counts: dict[tuple[str, str], int] = {}
    for row in await repos.entries.stage_rows(code, stage_id):
        counts[(row.section_id, row.status)] = counts.get((row.section_id, row.status), 0) + 1
        if row.status == EntryStatus.ACCEPTED.value and any(
            is_pending_evidence_decision(repo.decision_from_json(d)) for d in row.decisions
        ):
            # REG-18: counted among the accepted, and apart as still waiting for evidence
            counts[(row.section_id, ACCEPTED_PENDING_EVIDENCE)] = (
                counts.get((row.section_id, ACCEPTED_PENDING_EVIDENCE), 0) + 1
            )
        if row.no_show:
            counts[(row.section_id, "no_show")] = counts.get((row.section_id, "no_show"), 0) + 1
        if row.checked_in_at is not None:
            counts[(row.section_id, "checked_in")] = counts.get((row.section_id, "checked_in"), 0) + 1
    rows = await repos.events.stages(code)
    closed = {c["section_id"]: c for c in (rows[stage_id].sections or [])} if stage_id in rows else {}
    sections = []
    for sec in stage.sections:
        item = {"section_id": sec.id, "name": sec.name, "cap": sec.cap}
        for status in EntryStatus:
            item[STATUS_NAMES[status]] = counts.get((sec.id, status.value), 0)
        item[ACCEPTED_PENDING_EVIDENCE] = counts.get((sec.id, ACCEPTED_PENDING_EVIDENCE), 0)
        item["no_show"] = counts.get((sec.id, "no_show"), 0)
        item["checked_in"] = counts.get((sec.id, "checked_in"), 0)
        if sec.id in closed:
            item["closed"] = closed[sec.id]
        sections.append(item)
    return {"event_code": code, **info, "sections": sections}
