"""Team rankings (AWD-6) and qualifiers (AWD-QUAL) over HTTP: public reads, JSON and CSV,
computed from the stored results and publications of an event."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import Response

from gomoku_shared.errors import NotFound

from ..service_layer.queries import AwardsReads, plan_of
from . import schemas as s
from .published import CSV, EventCode, Repo, SectionId, csv_response, known_event, meta

router = APIRouter(prefix="/v1/events", tags=["results"])


# ---------------------------------------------------------------------- teams (AWD-6)


TEAM_COLUMNS = [
    "team_section_id",
    "team_section_name",
    "place",
    "unit_id",
    "unit_name",
    "score",
    "members",
    "tiebreaks",
    "note",
]


async def _teams(repo: AwardsReads, event_code: str) -> list[s.TeamRanking]:
    row = await known_event(repo, event_code)
    results = await repo.current_results(event_code)
    out: list[s.TeamRanking] = []
    plan = plan_of(row.config)
    for team_id, team in sorted((plan.teams if plan else {}).items()):
        pub = await repo.current_publication(event_code, team_id)
        missing = [src for src in team.sources if src not in results]
        out.append(
            s.TeamRanking(
                team_section_id=team_id,
                name=team.name,
                status="published" if pub else "pending",
                sources=list(team.sources),
                missing_sources=missing,
                publication=meta(pub) if pub else None,
                rows=pub.payload["team_ranking"] if pub else [],
                notes=pub.payload.get("notes", []) if pub else [],
            )
        )
    return out


@router.get(
    "/{event_code}/teams",
    response_model=s.TeamRankings,
    summary="Team rankings computed from individual results (AWD-6)",
)
async def teams(event_code: EventCode, repo: Repo) -> s.TeamRankings:
    return s.TeamRankings(event_code=event_code, teams=await _teams(repo, event_code))


@router.get("/{event_code}/teams.csv", responses=CSV, response_class=Response, summary="Team rankings as CSV")
async def teams_csv(event_code: EventCode, repo: Repo) -> Response:
    rows = [r for t in await _teams(repo, event_code) for r in t.rows]
    return csv_response(TEAM_COLUMNS, rows, f"{event_code}-teams.csv")


@router.get("/{event_code}/teams/{team_section_id}", response_model=s.TeamRanking, summary="One team ranking (AWD-6)")
async def team(event_code: EventCode, team_section_id: SectionId, repo: Repo) -> s.TeamRanking:
    for team in await _teams(repo, event_code):
        if team.team_section_id == team_section_id:
            return team
    raise NotFound(
        "team_section_not_found",
        f"{event_code!r} has no team ranking {team_section_id!r}",
        {"event_code": event_code, "team_section_id": team_section_id},
    )


# ---------------------------------------------------------------------- qualifiers (AWD-QUAL)


async def _qualifiers(repo: AwardsReads, event_code: str) -> s.Qualifiers:
    row = await known_event(repo, event_code)
    selections = []
    for selection in await repo.selections(event_code):
        content = json.loads(selection.content)
        selections.append(
            s.QualifierSelection(
                section_id=selection.section_id,
                target_section_id=selection.target_section_id,
                from_stage=selection.from_stage,
                to_stage=selection.to_stage,
                gender=selection.gender,
                revision=selection.revision,
                source_revision=selection.source_revision,
                complete=bool(selection.complete),
                emitted_revision=selection.emitted_revision,
                **content,
            )
        )
    plan = plan_of(row.config)
    caps = plan.stage_caps if plan else {}
    stages = []
    for stage in sorted({q.to_stage for q in selections}):
        going = {q["entrant_id"] for sel in selections if sel.to_stage == stage for q in sel.qualifiers}
        cap = caps.get(stage)
        stages.append(
            s.StageTotal(
                to_stage=stage, entrants=len(going), cap=cap, over_capacity=cap is not None and len(going) > cap
            )
        )
    return s.Qualifiers(event_code=event_code, selections=selections, stages=stages)


@router.get(
    "/{event_code}/qualifiers",
    response_model=s.Qualifiers,
    summary="Qualifiers and ordered substitutes for the next stage (AWD-QUAL)",
)
async def qualifiers(event_code: EventCode, repo: Repo) -> s.Qualifiers:
    return await _qualifiers(repo, event_code)


QUALIFIER_COLUMNS = [
    "section_id",
    "target_section_id",
    "gender",
    "role",
    "rank",
    "place",
    "entrant_id",
    "name",
    "unit_name",
    "complete",
    "revision",
]


@router.get("/{event_code}/qualifiers.csv", responses=CSV, response_class=Response, summary="Qualifiers as CSV")
async def qualifiers_csv(event_code: EventCode, repo: Repo) -> Response:
    result = await _qualifiers(repo, event_code)
    rows = [
        {
            **q,
            "section_id": sel.section_id,
            "target_section_id": sel.target_section_id,
            "gender": q["gender"],
            "role": role,
            "complete": sel.complete,
            "revision": sel.revision,
        }
        for sel in result.selections
        for role, people in (("qualifier", sel.qualifiers), ("substitute", sel.substitutes))
        for q in people
    ]
    return csv_response(QUALIFIER_COLUMNS, rows, f"{event_code}-qualifiers.csv")
