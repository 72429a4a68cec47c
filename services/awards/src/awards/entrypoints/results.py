"""Published results over HTTP (AWD-8): public reads, JSON and CSV.

Everything is served from stored publications, so a superseded publication's lists stay
available (``?revision=N``) exactly as they were published.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response

from gomoku_shared.errors import NotFound
from gomoku_shared.event_config import EventConfig

from ..adapters.config_mapping import awards_plan
from ..adapters.repository import AwardsRepository, Publication
from . import schemas as s

router = APIRouter(prefix="/v1/events", tags=["results"])

EventCode = Annotated[str, Path(min_length=1, max_length=100, description="event code, e.g. da-2023")]
SectionId = Annotated[str, Path(min_length=1, max_length=100, description="section id, e.g. open")]
RevisionQ = Annotated[int | None, Query(ge=1, le=10_000, description="a given publication (default: current)")]
CSV: dict[int | str, Any] = {200: {"content": {"text/csv": {"schema": {"type": "string"}}}, "description": "UTF-8 CSV"}}


async def _repo(request: Request) -> AsyncIterator[AwardsRepository]:
    async with request.app.state.runtime.sessionmaker() as session:  # type: AsyncSession
        yield AwardsRepository(session)


Repo = Annotated[AwardsRepository, Depends(_repo)]


# ---------------------------------------------------------------------- helpers


async def _event(repo: AwardsRepository, event_code: str) -> Any:
    row = await repo.event(event_code)
    if row is None:
        raise NotFound("event_not_found", f"no results for event {event_code!r}", {"event_code": event_code})
    return row


async def _publication(repo: AwardsRepository, event_code: str, section_id: str, revision: int | None) -> Publication:
    await _event(repo, event_code)
    pub = (
        await repo.publication(event_code, section_id, revision)
        if revision is not None
        else await repo.current_publication(event_code, section_id)
    )
    if pub is not None:
        return pub
    details = {"event_code": event_code, "section_id": section_id}
    if revision is not None and await repo.current_publication(event_code, section_id) is not None:
        raise NotFound(
            "publication_not_found",
            f"section {section_id!r} has no publication {revision}",
            {**details, "revision": revision},
        )
    if await repo.current_result(event_code, section_id) is not None:
        raise NotFound(
            "not_published", f"results of {section_id!r} are in; awards wait for the event configuration", details
        )
    raise NotFound("section_not_found", f"no published results for section {section_id!r} of {event_code!r}", details)


def _meta(pub: Publication) -> s.PublicationMeta:
    return s.PublicationMeta(
        event_code=pub.event_code,
        section_id=pub.section_id,
        stage=pub.stage,
        kind=pub.kind,
        revision=pub.revision,
        supersedes=pub.supersedes,
        superseded=pub.superseded,
        superseded_by=pub.superseded_by,
        source_revision=pub.source_revision,
        published_at=pub.published_at,
    )


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "; ".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return str(value)


def csv_response(columns: Sequence[str], rows: Iterable[dict[str, Any]], filename: str) -> Response:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
    return Response(
        buffer.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"content-disposition": f'attachment; filename="{filename}"'},
    )


def _fields(model: type[s._Out]) -> list[str]:
    return list(model.model_fields)


# ---------------------------------------------------------------------- event


@router.get("/{event_code}", response_model=s.EventStatus, summary="What is known and published for an event")
async def event_status(event_code: EventCode, repo: Repo) -> s.EventStatus:
    row = await _event(repo, event_code)
    results = await repo.current_results(event_code)
    current: dict[str, Publication] = {}
    for stored in await repo.publications(event_code):
        current[stored.section_id] = stored  # ordered by revision: the last is current
    sections = []
    for section_id in sorted(set(results) | set(current)):
        publication = current.get(section_id)
        result = results.get(section_id)
        sections.append(
            s.SectionStatus(
                section_id=section_id,
                kind=publication.kind if publication else results[section_id].kind,
                latest_result_revision=result.revision if result else None,
                publication_revision=publication.revision if publication else None,
                cancelled=publication.payload.get("cancelled") if publication else None,
            )
        )
    return s.EventStatus(
        event_code=event_code,
        name=row.name,
        preset_id=row.preset_id,
        configured=row.config is not None,
        sections=sections,
    )


# ---------------------------------------------------------------------- one section


@router.get(
    "/{event_code}/sections/{section_id}/awards",
    response_model=s.SectionAwards,
    summary="Awards of a section: places, items, prizes, titles, best boards (AWD-1..7)",
)
async def section_awards(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None
) -> s.SectionAwards:
    pub = await _publication(repo, event_code, section_id, revision)
    payload = pub.payload
    return s.SectionAwards(
        publication=_meta(pub),
        name=payload.get("name"),
        currency=payload.get("currency"),
        summary=s.Summary(**pub.document["summary"]),
        places=payload["places"],
        prizes=payload["prizes"],
        titles=payload["titles"],
        team_ranking=payload["team_ranking"],
        best_boards=payload["best_boards"],
        squad=payload.get("squad", []),
    )


def _standings(pub: Publication) -> dict[str, Any]:
    doc = pub.document.get("standings")
    if doc is None:  # a team ranking computed from individual sections: its rows are the standings
        rows = [
            {
                "place": r["place"],
                "shared": r["note"] == "shared place",
                "entrant_id": r["unit_id"],
                "name": r["unit_name"],
                "unit": r["unit_name"],
                "gender": None,
                "points": _num(r["score"]),
                "tiebreaks": _team_tiebreaks(r["tiebreaks"]),
                "wins": 0,
                "games_played": 0,
                "decided_by_playoff": False,
            }
            for r in pub.payload["team_ranking"]
            if r["place"] is not None
        ]
        names = list(rows[0]["tiebreaks"]) if rows else []
        return {"tiebreak_names": names, "rows": rows}
    return doc


def _num(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _team_tiebreaks(items: list[str]) -> dict[str, int | float]:
    out: dict[str, int | float] = {}
    for item in items:
        name, _, value = item.partition("=")
        out[name] = _num(value)
    return out


@router.get(
    "/{event_code}/sections/{section_id}/standings",
    response_model=s.Standings,
    summary="Final standings with every tiebreak value (AWD-8)",
)
async def standings(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None
) -> s.Standings:
    pub = await _publication(repo, event_code, section_id, revision)
    doc = _standings(pub)
    return s.Standings(
        publication=_meta(pub), tiebreak_names=doc["tiebreak_names"], rows=[s.StandingsRow(**r) for r in doc["rows"]]
    )


@router.get(
    "/{event_code}/sections/{section_id}/standings.csv",
    responses=CSV,
    response_class=Response,
    summary="Final standings with every tiebreak value, as CSV",
)
async def standings_csv(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None
) -> Response:
    pub = await _publication(repo, event_code, section_id, revision)
    doc = _standings(pub)
    base = ["place", "shared", "entrant_id", "name", "unit", "gender", "points"]
    tail = ["wins", "games_played", "decided_by_playoff"]
    # a tiebreak named like a base column (e.g. "wins") gets a prefix instead of a clash
    labels = {n: f"tiebreak_{n}" if n in base + tail else n for n in doc["tiebreak_names"]}
    columns = [*base, *labels.values(), *tail]
    rows = [{**r, **{labels[n]: v for n, v in r["tiebreaks"].items() if n in labels}} for r in doc["rows"]]
    return csv_response(columns, rows, f"{event_code}-{section_id}-standings.csv")


@router.get(
    "/{event_code}/sections/{section_id}/prizes",
    response_model=s.PrizeList,
    summary="Prize list (AWD-4: shared places split, combinable women's prizes)",
)
async def prizes(event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None) -> s.PrizeList:
    pub = await _publication(repo, event_code, section_id, revision)
    rows = [s.PrizeRow(**r) for r in pub.payload["prizes"]]
    return s.PrizeList(
        publication=_meta(pub),
        currency=pub.payload.get("currency"),
        total_fen=sum(r.amount_fen for r in rows),
        rows=rows,
    )


@router.get(
    "/{event_code}/sections/{section_id}/prizes.csv",
    responses=CSV,
    response_class=Response,
    summary="Prize list as CSV",
)
async def prizes_csv(event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None) -> Response:
    pub = await _publication(repo, event_code, section_id, revision)
    return csv_response(_fields(s.PrizeRow), pub.payload["prizes"], f"{event_code}-{section_id}-prizes.csv")


@router.get(
    "/{event_code}/sections/{section_id}/titles",
    response_model=s.TitleList,
    summary="Title list (AWD-5: dan/kyu by place, not carried down)",
)
async def titles(event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None) -> s.TitleList:
    pub = await _publication(repo, event_code, section_id, revision)
    return s.TitleList(publication=_meta(pub), rows=[s.TitleRow(**r) for r in pub.payload["titles"]])


@router.get(
    "/{event_code}/sections/{section_id}/titles.csv",
    responses=CSV,
    response_class=Response,
    summary="Title list as CSV",
)
async def titles_csv(event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None) -> Response:
    pub = await _publication(repo, event_code, section_id, revision)
    return csv_response(_fields(s.TitleRow), pub.payload["titles"], f"{event_code}-{section_id}-titles.csv")


async def _certificates(
    repo: AwardsRepository, event_code: str, section_id: str, revision: int | None, entrant_id: str | None
) -> tuple[Publication, list[dict[str, Any]]]:
    pub = await _publication(repo, event_code, section_id, revision)
    rows = pub.document["certificates"]
    if entrant_id is not None:
        rows = [r for r in rows if r["entrant_id"] == entrant_id]
        if not rows:
            raise NotFound(
                "certificate_not_found",
                f"no certificate for {entrant_id!r} in {section_id!r}",
                {"event_code": event_code, "section_id": section_id, "entrant_id": entrant_id},
            )
    return pub, rows


EntrantQ = Annotated[str | None, Query(max_length=200, description="only this entrant's certificates")]


@router.get(
    "/{event_code}/sections/{section_id}/certificates",
    response_model=s.Certificates,
    summary="Certificate data per player: name, section, place, award lines (ready for printing)",
)
async def certificates(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None, entrant_id: EntrantQ = None
) -> s.Certificates:
    pub, rows = await _certificates(repo, event_code, section_id, revision, entrant_id)
    event = await repo.event(event_code)
    return s.Certificates(
        publication=_meta(pub), event_name=event.name if event else None, rows=[s.Certificate(**r) for r in rows]
    )


@router.get(
    "/{event_code}/sections/{section_id}/certificates.csv",
    responses=CSV,
    response_class=Response,
    summary="Certificate data as CSV (award lines joined by '; ')",
)
async def certificates_csv(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None, entrant_id: EntrantQ = None
) -> Response:
    _, rows = await _certificates(repo, event_code, section_id, revision, entrant_id)
    return csv_response(_fields(s.Certificate), rows, f"{event_code}-{section_id}-certificates.csv")


@router.get(
    "/{event_code}/sections/{section_id}/best-boards",
    response_model=s.BestBoards,
    summary="Best-board awards of a team section (AWD-7: ≥ 70 % participation, playoffs excluded)",
)
async def best_boards(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None
) -> s.BestBoards:
    pub = await _publication(repo, event_code, section_id, revision)
    return s.BestBoards(
        publication=_meta(pub), winners=pub.payload["best_boards"], boards=pub.document["best_board_ranking"]
    )


BEST_BOARD_COLUMNS = [
    "section_id",
    "board",
    "player_id",
    "name",
    "team_name",
    "points",
    "games_played",
    "board_games",
    "wins",
    "win_rate",
    "team_place",
]


@router.get(
    "/{event_code}/sections/{section_id}/best-boards.csv",
    responses=CSV,
    response_class=Response,
    summary="Best-board winners as CSV",
)
async def best_boards_csv(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None
) -> Response:
    pub = await _publication(repo, event_code, section_id, revision)
    return csv_response(BEST_BOARD_COLUMNS, pub.payload["best_boards"], f"{event_code}-{section_id}-best-boards.csv")


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


async def _teams(repo: AwardsRepository, event_code: str) -> list[s.TeamRanking]:
    row = await _event(repo, event_code)
    results = await repo.current_results(event_code)
    out: list[s.TeamRanking] = []
    plan = awards_plan(EventConfig.model_validate(json.loads(row.config))) if row.config else None
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
                publication=_meta(pub) if pub else None,
                rows=pub.payload["team_ranking"] if pub else [],
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


async def _qualifiers(repo: AwardsRepository, event_code: str) -> s.Qualifiers:
    row = await _event(repo, event_code)
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
    caps = awards_plan(EventConfig.model_validate(json.loads(row.config))).stage_caps if row.config else {}
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
