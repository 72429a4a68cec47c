"""Stage state: check-in, qualifier lists (EVT-6, REG-7) and readiness; closing a stage (REG-12 ->
section.closed) is `closing.close_stage_cmd`.

A registration stage is `open` until the operator closes it. A stage entered by qualification
is `awaiting_qualifiers` until its feeding stage is closed and every feeding section that was
played (one report per gender cohort of a merged section) has sent `qualifiers.selected`; then it
is `ready` and its entries are (re)built from the lists; closing it makes it `closed`.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import replace
from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import EntryAccepted, EntryWithdrawn, QualifiersSelected
from gomoku_shared.errors import Conflict, NotFound, Unprocessable

from ..adapters import repository as repo
from ..adapters.contract_mapping import entrant_for, event_id_for
from ..domain import (
    Entry,
    EntryStatus,
    InsuranceConfirmation,
    QualifierList,
    RegistrationError,
    SeededList,
    build_next_stage,
)
from . import forms as s
from .actors import actor_ref
from .command import EventCommand
from .readiness import GENDERS, stage_status
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork

log = logging.getLogger("registration.stages")

# --------------------------------------------------------------------------- check-in


async def check_in(cmd: EventCommand, stage_id: str, body: s.CheckInIn) -> dict[str, Any]:
    """REG-11: check-in before the stage; the arbiter marks no-shows, who are not paired."""
    try:
        cmd.config.stage(stage_id)
    except KeyError:
        raise NotFound("unknown_stage", f"no stage {stage_id!r}") from None
    await cmd.ensure_stage_open(stage_id)
    arbiter = actor_ref(cmd.principal)
    out = []
    for eid in list(body.entry_ids) + list(body.no_show):
        entry, meta = cmd.entry_for(eid)
        if meta.stage != stage_id:
            raise Unprocessable("wrong_stage", f"entry {eid} is in stage {meta.stage}")
    for eid in body.entry_ids:
        try:
            decision = cmd.reg.check_in(
                eid,
                now=cmd.now,
                documents_shown=body.documents_shown,
                insurance_ref=body.insurance_refs.get(eid),
                arbiter_override=arbiter if body.override else None,
            )
        except RegistrationError as exc:
            out.append({"entry_id": eid, "status": "refused", "clause": "check_in", "reason": str(exc)})
            continue
        if decision.admitted and body.insurance_refs.get(eid):
            # REG-13 (NT): the policy shown at check-in, kept encrypted like every document reference
            cmd.loaded.meta[eid].insurance_ref_enc = cmd.state.protector.encrypt(body.insurance_refs[eid])
            cmd.reg.replace_entry(replace(cmd.reg.entries[eid], insurance=InsuranceConfirmation(True, "[protected]")))
        out.append(
            {
                "entry_id": eid,
                "status": "checked_in" if decision.admitted else "refused",
                "clause": decision.clause,
                "reason": decision.reason,
            }
        )
    for eid in body.no_show:
        cmd.reg.mark_no_show(eid, arbiter=arbiter)
        out.append({"entry_id": eid, "status": "no_show", "clause": "no_show", "reason": f"marked absent by {arbiter}"})
    await cmd.save()
    return {"stage": stage_id, "results": out}


# --------------------------------------------------------------------------- closing


# --------------------------------------------------------------------------- qualifiers


async def on_qualifiers_selected(
    uow: RegistrationUnitOfWork, state: RegistrationState, payload: QualifiersSelected
) -> None:
    """EVT-6: store the list (the highest revision wins) and rebuild the stage once ready."""
    try:
        cmd = await EventCommand.begin(uow, state, Principal("operator", None, "bus"), payload.event_code)
    except NotFound:
        log.warning("qualifiers.selected for an unknown event %s: ignored", payload.event_code)
        return
    try:
        cmd.config.stage(payload.to_stage)
        cmd.config.section(payload.target_section_id)
    except KeyError:
        log.warning("qualifiers.selected names an unknown stage/section of %s: ignored", payload.event_code)
        return
    key = dict(
        event_code=cmd.code,
        to_stage=payload.to_stage,
        section_id=payload.section_id,
        target_section_id=payload.target_section_id,
    )
    old = await uow.events.qualifier_list(key)
    if old is not None and old.revision >= payload.revision:
        return

    def players(items) -> list[dict[str, Any]]:
        out = []
        for qualifier in items:
            pid = qualifier.attributes.get("player_id")
            if pid is None:
                entry = cmd.reg.entries.get(qualifier.entrant_id)
                pid = entry.person_ids[0] if entry is not None else None
            out.append(
                {"entrant_id": qualifier.entrant_id, "player_id": pid, "place": qualifier.place, "name": qualifier.name}
            )
        return out

    values = dict(
        gender=payload.gender,
        revision=payload.revision,
        qualifiers=players(payload.qualifiers),
        substitutes=players(payload.substitutes),
        received_at=cmd.now,
    )
    await uow.events.store_qualifier_list(key, values, exists=old is not None)
    await rebuild_if_ready(cmd, payload.to_stage)


async def rebuild_ready_stages(cmd: EventCommand) -> list[str]:
    done = []
    for stage in cmd.config.stages:
        if stage.entry == "qualification" and await rebuild_if_ready(cmd, stage.id):
            done.append(stage.id)
    return done


async def rebuild_if_ready(cmd: EventCommand, stage_id: str) -> bool:
    """(Re)build the entries of a ready qualification stage from the stored lists (REG-7
    re-checked by the domain). Entries that disappear are withdrawn, new ones accepted."""
    config = cmd.config
    info = await stage_status(cmd.uow.events, config, stage_id, lists_only=True)
    if info["status"] != "ready":
        return False
    cohorts, seeded = await _qualifier_lists(cmd, stage_id)
    pids = sorted(
        {p for c in cohorts for p in c.qualifiers + c.substitutes}
        | {p for sl in seeded for p in sl.qualifiers + sl.substitutes}
    )
    people = await cmd.load_people(pids)
    evidence = await cmd.evidence_of(pids)
    units = cmd.all_units()
    units_of, intents = _registration_ties(cmd, units)
    try:
        result = build_next_stage(
            config, stage_id, cohorts, people, evidence=evidence, seeded=seeded, units_of=units_of, intents=intents
        )
    except RegistrationError as exc:
        log.warning("stage %s of %s cannot be built: %s", stage_id, cmd.code, exc)
        await cmd.uow.events.update_stage(cmd.code, stage_id, note=json.dumps({"error": str(exc)}))
        return False
    await _replace_stage_entries(cmd, stage_id, result, people, units, intents)
    await cmd.save()
    note = _selection_note(result)
    await cmd.uow.events.update_stage(cmd.code, stage_id, status="ready", note=json.dumps(note, sort_keys=True))
    return True


async def _qualifier_lists(cmd: EventCommand, stage_id: str) -> tuple[list[QualifierList], list[SeededList]]:
    """The stored qualifier lists of a stage in the feeder's section order (then by gender), and
    its seeded lists."""
    config = cmd.config
    fed_by = config.stage(stage_id).fed_by
    if fed_by is None:
        raise Unprocessable("stage_not_fed", f"stage {stage_id} is not fed by an earlier stage")
    feeder = config.stage(fed_by)
    rows = await cmd.uow.events.qualifier_lists(cmd.code, stage_id)
    order = {sec.id: i for i, sec in enumerate(feeder.sections)}
    rows.sort(
        key=lambda r: (
            order.get(r.section_id, 99),
            GENDERS.index(r.gender) if r.gender in GENDERS else 0,
            r.target_section_id,
        )
    )
    cohorts = []
    for r in rows:
        gender = r.gender
        if gender is None:
            rule = config.section(r.section_id).qualification
            destinations = rule.to_section.items() if rule is not None else ()
            gender = next((g for g, target in destinations if target == r.target_section_id), None)
        cohorts.append(
            QualifierList(
                r.section_id,
                tuple(q["player_id"] for q in r.qualifiers if q["player_id"]),
                tuple(q["player_id"] for q in r.substitutes if q["player_id"]),
                gender,
            )
        )
    stage_row = (await cmd.uow.events.stages(cmd.code))[stage_id]
    seeded = [
        SeededList(x["source"], x["to_section"], tuple(x["qualifiers"]), tuple(x["substitutes"]))
        for x in (stage_row.seeded or [])
    ]
    return cohorts, seeded


def _registration_ties(cmd: EventCommand, units: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """From the registration entries: each player's unit (the first entry naming one) and the
    players who intend to represent the region (REG-6 (4))."""
    units_of, intents = {}, set()
    for eid, entry in cmd.reg.entries.items():
        meta = cmd.loaded.meta[eid]
        if meta.source != "registration":
            continue
        for p in entry.person_ids:
            if entry.unit_id and p not in units_of and entry.unit_id in units:
                units_of[p] = units[entry.unit_id]
            if meta.intends_to_represent:
                intents.add(p)
    return units_of, intents


async def _replace_stage_entries(
    cmd: EventCommand, stage_id: str, result: Any, people: dict[str, Any], units: dict[str, Any], intents: set[str]
) -> None:
    """The stage's entries become the built places: entry.accepted for a new or moved place,
    entry.withdrawn for a place that passed on."""
    old = {eid: e for eid, e in cmd.reg.entries.items() if cmd.loaded.meta[eid].stage == stage_id}
    old_meta = {eid: cmd.loaded.meta[eid] for eid in old}
    await cmd.uow.entries.delete(sorted(old))
    cmd.reg.remove_entries(list(old))
    for eid in old:
        cmd.loaded.before.pop(eid, None)
    for sec in cmd.config.stage(stage_id).sections:
        places = result.for_section(sec.id)
        for index, p in enumerate(places):
            eid = f"{cmd.code}.{stage_id}.{p.person_id}"
            src_partner = next(
                (
                    cmd.loaded.meta[x].partner_id
                    for x, e in cmd.reg.entries.items()
                    if p.person_id in e.person_ids and cmd.loaded.meta[x].source == "registration"
                ),
                None,
            )
            entry = Entry(
                id=eid,
                event_id=cmd.code,
                section_id=sec.id,
                person_ids=(p.person_id,),
                unit_id=p.unit_id,
                status=EntryStatus.ACCEPTED,
                received_at=None,
                decisions=p.decisions,
                application_id=eid,
            )
            attrs = {"seed": index + 1, "via": p.via, "source": p.source, "source_place": p.place}
            meta = repo.EntryMeta(
                stage=stage_id,
                seq=index + 1,
                partner_id=src_partner,
                rating=len(places) - index,
                source="qualification",
                attributes=attrs,
                intends_to_represent=p.person_id in intents,
            )
            cmd.reg.add_entry(entry)
            cmd.loaded.meta[eid] = meta
            digest = hashlib.sha256(
                json.dumps([sec.id, attrs, [d.clause for d in p.decisions]], sort_keys=True).encode()
            ).hexdigest()[:16]
            was = old.get(eid)
            if was is None or was.section_id != sec.id or old_meta[eid].attributes != attrs:
                cmd.uow.emit(
                    EntryAccepted(
                        event_code=cmd.code,
                        stage=stage_id,
                        section_id=sec.id,
                        entry_id=eid,
                        entrant=entrant_for(
                            entry, meta, people, units, sec.kind, cmd.registry_ids, cmd.published_ratings()
                        ),
                        clause=entry.admitted_by or "",
                    ),
                    correlation_id=cmd.code,
                    event_id=event_id_for("entry.accepted", eid, cmd.version, digest),
                )
    for eid, e in old.items():
        if eid not in cmd.reg.entries:
            cmd.uow.emit(
                EntryWithdrawn(
                    event_code=cmd.code,
                    stage=stage_id,
                    section_id=e.section_id,
                    entry_id=eid,
                    entrant_id=eid,
                    reason="qualifier lists revised: the place passed on",
                ),
                correlation_id=cmd.code,
                event_id=event_id_for("entry.withdrawn", eid, cmd.version),
            )


def _selection_note(result: Any) -> dict[str, Any]:
    """What the stage's selection shows: places, who was passed over and why, unfilled places."""
    return {
        "places": len(result.places),
        "passed_over": [
            {
                "player_id": p.person_id,
                "source": p.source,
                "place": p.place,
                "reason": p.reason,
                "awaiting_approval": p.awaiting_approval,
                "approve_by": p.approve_by.isoformat() if p.approve_by else None,
            }
            for p in result.passed_over
        ],
        # REG-18: qualifiers whose place passed on only because their evidence awaits approval
        "pending_evidence": [
            {
                "player_id": p.person_id,
                "source": p.source,
                "place": p.place,
                "approve_by": p.approve_by.isoformat() if p.approve_by else None,
            }
            for p in result.passed_over
            if p.awaiting_approval
        ],
        "unfilled": dict(result.unfilled),
    }


async def post_seeded(cmd: EventCommand, stage_id: str, body: s.SeededIn) -> dict[str, Any]:
    """EVT-6 (SZ): players seeded straight into a qualification stage, re-checked like the rest."""
    try:
        stage = cmd.config.stage(stage_id)
    except KeyError:
        raise NotFound("unknown_stage", f"no stage {stage_id!r}") from None
    if stage.entry != "qualification" or body.to_section not in {x.id for x in stage.sections}:
        raise Unprocessable("not_seedable", f"stage {stage_id} takes no seeded players in {body.to_section!r}")
    rows = await cmd.uow.events.stages(cmd.code)
    if rows[stage_id].status == "closed":
        raise Conflict("stage_closed", f"stage {stage_id!r} is closed")

    async def person(player: s.SeededPlayerIn) -> str:
        pid = await cmd.person_for(player)
        for item in player.evidence:
            await cmd.add_evidence(pid, item, None)
        return pid

    qualifiers = [await person(player) for player in body.qualifiers]
    substitutes = [await person(player) for player in body.substitutes]
    lists = [
        x
        for x in (rows[stage_id].seeded or [])
        if not (x["source"] == body.source and x["to_section"] == body.to_section)
    ]
    lists.append(
        {"source": body.source, "to_section": body.to_section, "qualifiers": qualifiers, "substitutes": substitutes}
    )
    await cmd.uow.events.update_stage(cmd.code, stage_id, seeded=lists)
    rebuilt = await rebuild_if_ready(cmd, stage_id)
    return {
        "stage": stage_id,
        "source": body.source,
        "to_section": body.to_section,
        "qualifiers": qualifiers,
        "substitutes": substitutes,
        "rebuilt": rebuilt,
    }
