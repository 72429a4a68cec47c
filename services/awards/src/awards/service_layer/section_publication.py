"""Event handlers of the awards service: event → domain → repository, inside a unit of work.

Ordering across producers is not guaranteed, so both events are stored first and the
awards are (re)computed from what is stored:

- ``event.configured`` stores the configuration, then recomputes every section already
  received (a `section.completed` that came first is published now — nothing is lost).
- ``section.completed`` stores the revision; without a configuration it waits. A lower or
  equal revision than the newest one stored changes nothing.

A (re)computation publishes only when the content differs from the current publication:
the new publication gets the next revision, ``supersedes`` the previous one, and the
previous stays visible marked superseded (AWD-8). Identical content → nothing at all.
Event ids are derived from (event, section, revision), so runs are byte-for-byte comparable.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from gomoku_shared.contracts.events import AwardsPublished, EventConfigured, QualifiersSelected, SectionCompleted
from gomoku_shared.event_config import EventConfig

from ..adapters.config_mapping import AwardsPlan, SectionPlan, TeamPlan, awards_plan
from ..adapters.contract_mapping import board_records, qualified_players, standings_from_contract
from ..adapters.repository import canonical
from ..domain import (
    CancelledSource,
    Gender,
    QualifierSelection,
    SectionAwardConfig,
    SectionStandings,
    best_boards,
    compute_section_awards,
    plain,
    select_qualifiers,
    select_squad,
    team_ranking,
    team_ranking_rows,
    team_ranking_standings,
)
from .documents import section_content, section_document
from .ports import Awards
from .season import record_section
from .unit_of_work import AwardsUnitOfWork

log = logging.getLogger("gomoku.awards")

#: namespace of the deterministic event ids of this service
ID_NAMESPACE = uuid.UUID("5b0f7a52-2d7e-4c38-9a4e-4f1f6c2a0a71")


def event_id_for(*parts: object) -> uuid.UUID:
    return uuid.uuid5(ID_NAMESPACE, "/".join(str(p) for p in parts))


class ConfiguredEvent:
    """One event's configuration and plan, loaded once per handler call."""

    def __init__(self, event_code: str, config: EventConfig) -> None:
        self.event_code = event_code
        self.config = config
        self.plan: AwardsPlan = awards_plan(config)

    def section_gender(self, section_id: str) -> str | None:
        try:
            return self.config.section(section_id).gender
        except KeyError:
            return None


# ---------------------------------------------------------------------- consumers


async def event_configured(uow: AwardsUnitOfWork, payload: EventConfigured) -> None:
    """Store the event's configuration and (re)compute everything already received."""
    config = EventConfig.model_validate(payload.config)
    configured = ConfiguredEvent(payload.event_code, config)  # a configuration the awards cannot apply fails here
    repo = uow.awards
    await repo.lock_event(payload.event_code)
    await repo.save_config(
        payload.event_code, payload.name, payload.preset_id, config.model_dump(mode="json"), uow.clock.now()
    )
    for section_id in sorted(await repo.current_results(payload.event_code)):
        await _refresh_section(uow, repo, configured, section_id)
    for team in sorted(configured.plan.teams):
        await _refresh_team(uow, repo, configured, configured.plan.teams[team])


async def section_completed(uow: AwardsUnitOfWork, payload: SectionCompleted) -> None:
    """Store the section's final standings (this revision) and publish its awards."""
    repo = uow.awards
    await repo.lock_event(payload.event_code)
    current = await repo.current_result(payload.event_code, payload.section_id)
    status = await repo.add_result(
        payload.event_code,
        payload.section_id,
        payload.revision,
        payload.stage,
        payload.name,
        payload.rules.kind,
        payload.model_dump(mode="json"),
        uow.clock.now(),
    )
    if status == "conflict":
        log.warning(
            "section.completed %s/%s revision %s arrived again with other content; the first is kept",
            payload.event_code,
            payload.section_id,
            payload.revision,
        )
    if status != "added" or (current is not None and current.revision > payload.revision):
        return  # a repeat, or an older revision than the one already published
    raw = await repo.config(payload.event_code)
    if raw is None:
        log.info("section.completed %s/%s stored; awaiting event.configured", payload.event_code, payload.section_id)
        return
    configured = ConfiguredEvent(payload.event_code, EventConfig.model_validate(raw))
    await _refresh_section(uow, repo, configured, payload.section_id)
    for team in configured.plan.teams_fed_by(payload.section_id):
        await _refresh_team(uow, repo, configured, team)


# ---------------------------------------------------------------------- recomputation


def _standings(configured: ConfiguredEvent, row: Any) -> tuple[SectionCompleted, SectionStandings]:
    payload = SectionCompleted.model_validate_json(row.payload)
    return payload, standings_from_contract(payload, configured.section_gender(payload.section_id))


async def _refresh_section(uow: AwardsUnitOfWork, repo: Awards, configured: ConfiguredEvent, section_id: str) -> None:
    row = await repo.current_result(configured.event_code, section_id)
    if row is None:
        return
    payload, standings = _standings(configured, row)
    plan: SectionPlan | None = configured.plan.sections.get(section_id)
    # a section the configuration does not know (renamed, or a team section scored elsewhere)
    # is still published: standings, no awards
    awards = compute_section_awards(
        standings, plan.awards if plan else SectionAwardConfig(section_id), _closing_cancel(payload)
    )
    boards: tuple = ()
    squad = None
    if plan is not None and not awards.cancelled:
        if plan.best_board is not None and payload.board_stats:
            places = {r.entrant_id: r.place for r in standings.rows}
            boards = best_boards(section_id, board_records(payload), places, plan.best_board)
        if plan.squad is not None:
            squad = select_squad(standings, plan.squad)
    content = section_content(
        event_code=configured.event_code,
        stage=payload.stage,
        awards=awards,
        source_revision=payload.revision,
        boards=boards,
        squad=squad,
    )
    document = section_document(
        awards=awards,
        standings=standings,
        boards=boards,
        playoff_through=plan.playoff_through if plan else None,
        flagged_ties=payload.flagged_ties,
    )
    await _publish(uow, repo, content, document)
    # issue 32: the section's title grants and rated games, on its people's season records
    await record_section(uow.season, configured.config, payload, awards, uow.emit)
    if plan is not None and plan.qualification is not None and not awards.cancelled:
        await _refresh_qualification(uow, repo, configured, plan, payload, standings)


def _closing_cancel(payload: SectionCompleted) -> str | None:
    """REG-12: the reason a section was cancelled at closing (None: it was played)."""
    return (payload.cancel_reason or "no reason given") if payload.cancelled else None


async def _refresh_team(uow: AwardsUnitOfWork, repo: Awards, configured: ConfiguredEvent, team: TeamPlan) -> None:
    """AWD-6: once every source section has completed (or was cancelled: it then counts as
    absent, and the publication names it); recomputed whenever one changes."""
    live: dict[str, SectionStandings] = {}
    cancelled: list[CancelledSource] = []
    for source in team.sources:
        row = await repo.current_result(configured.event_code, source)
        if row is None:
            return  # still waiting for this source section
        payload, standings = _standings(configured, row)
        source_plan = configured.plan.sections.get(source)
        source_awards = compute_section_awards(
            standings, source_plan.awards if source_plan else SectionAwardConfig(source), _closing_cancel(payload)
        )
        if source_awards.cancelled:  # AWD-2 / REG-12: a cancelled section scores nobody
            cancelled.append(CancelledSource(source, payload.name, source_awards.cancel_reason))
        else:
            live[source] = standings
    ranking = team_ranking(team.rule, live, tuple(cancelled))
    awards = compute_section_awards(team_ranking_standings(ranking), team.awards)
    content = section_content(
        event_code=configured.event_code, stage=team.stage_id, awards=awards, source_revision=None, ranking=ranking
    )
    document = section_document(awards=awards, standings=None, ranking=ranking, sources=team.sources)
    revision = await _publish(uow, repo, content, document)
    if revision is not None:
        rows = [
            {
                "unit_id": r.unit_id,
                "unit_name": r.unit_name,
                "place": r.place,
                "score": r.score or None,
                "shared_place": r.note == "shared place",
                "members": canonical(list(r.members)),
                "tiebreaks": canonical(list(r.tiebreaks)),
                "note": r.note,
            }
            for r in team_ranking_rows(ranking)
        ]
        await repo.replace_team_ranking(configured.event_code, team.section_id, rows, revision)


async def _publish(
    uow: AwardsUnitOfWork, repo: Awards, content: dict[str, Any], document: dict[str, Any]
) -> int | None:
    """Publish unless identical to the current publication; returns the new revision."""
    event_code, section_id = content["event_code"], content["section_id"]
    current = await repo.current_publication(event_code, section_id)
    document_text = canonical(document)
    revision = current.revision + 1 if current else 1
    supersedes = current.revision if current else None
    payload = AwardsPublished(**content, revision=revision, supersedes=supersedes)
    if current is not None:
        # compared as the contract serialises them, so a field added to the contract later
        # (with its default) does not make every recomputation look like a change
        def same(dumped: dict[str, Any]) -> str:
            return canonical({k: v for k, v in dumped.items() if k not in ("revision", "supersedes")})

        stored = AwardsPublished.model_validate(current.payload).model_dump(mode="json")
        if same(stored) == same(payload.model_dump(mode="json")) and current.document_text == document_text:
            return None
    await repo.add_publication(
        event_code=event_code,
        section_id=section_id,
        stage=content["stage"],
        kind=content["kind"],
        revision=revision,
        supersedes=supersedes,
        source_revision=content["source_revision"],
        payload_text=canonical(payload.model_dump(mode="json")),
        document_text=document_text,
        now=uow.clock.now(),
    )
    uow.emit(
        payload, correlation_id=event_code, event_id=event_id_for("awards.published", event_code, section_id, revision)
    )
    return revision


async def _refresh_qualification(
    uow: AwardsUnitOfWork,
    repo: Awards,
    configured: ConfiguredEvent,
    plan: SectionPlan,
    payload: SectionCompleted,
    standings: SectionStandings,
) -> None:
    """AWD-QUAL: one selection per target (per gender of a merged section). Emitted as
    `qualifiers.selected` when complete; a tie at a cut waits for the arbiter's correction."""
    assert plan.qualification is not None and plan.to_stage is not None
    existing = {r.target_section_id: r for r in await repo.selections(configured.event_code, plan.section_id)}
    selections = list(select_qualifiers(standings, plan.qualification))
    if standings.rank_by_gender:
        # a merged section reports every gender cohort it was merged from, even an empty one,
        # so that the next stage does not wait for a list that never comes
        present = {sel.gender for sel in selections}
        for gender in (Gender.MALE, Gender.FEMALE):
            target = plan.qualification.targets.get(gender)
            if target is not None and gender not in present:
                selections.append(QualifierSelection(plan.section_id, target, gender, (), ()))
    for sel in selections:
        content = canonical(
            {
                "qualifiers": plain(sel.qualifiers),
                "substitutes": plain(sel.substitutes),
                "skipped": plain(sel.skipped),
                "flags": plain(sel.flags),
            }
        )
        old = existing.get(sel.target_section_id)
        if old is not None and old.content == content:
            continue
        revision = old.revision + 1 if old else 1
        values = {
            "event_code": configured.event_code,
            "section_id": plan.section_id,
            "target_section_id": sel.target_section_id,
            "from_stage": payload.stage,
            "to_stage": plan.to_stage,
            "gender": sel.gender.value if sel.gender else None,
            "revision": revision,
            "source_revision": payload.revision,
            "complete": sel.complete,
            "emitted_revision": old.emitted_revision if old else None,
            "content": content,
            "updated_at": uow.clock.now(),
        }
        if sel.complete:
            values["emitted_revision"] = revision
            uow.emit(
                QualifiersSelected(
                    event_code=configured.event_code,
                    from_stage=payload.stage,
                    to_stage=plan.to_stage,
                    section_id=plan.section_id,
                    target_section_id=sel.target_section_id,
                    qualifiers=qualified_players(sel.qualifiers, payload.entrants),
                    substitutes=qualified_players(sel.substitutes, payload.entrants),
                    gender=sel.gender.value if sel.gender else None,
                    revision=revision,
                ),
                correlation_id=configured.event_code,
                event_id=event_id_for(
                    "qualifiers.selected", configured.event_code, plan.section_id, sel.target_section_id, revision
                ),
            )
        await repo.save_selection(values, exists=old is not None)
    await repo.drop_selections(configured.event_code, plan.section_id, {s.target_section_id for s in selections})
