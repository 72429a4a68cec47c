"""Published results over HTTP (AWD-8): public reads, JSON and CSV.

Everything is served from stored publications, so a superseded publication's lists stay
available (``?revision=N``) exactly as they were published. This module holds an event's status
and each section's lists; team rankings and qualifiers are in ``team_results``.
"""

from __future__ import annotations

from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from gomoku_shared.errors import NotFound
from gomoku_shared.pagination import PageIn

from ..service_layer.queries import Publication
from . import schemas as s
from .published import (
    CSV,
    EventCode,
    Published,
    Repo,
    RevisionQ,
    SectionId,
    csv_response,
    fields,
    history,
    known_event,
    meta,
    publication,
)

router = APIRouter(prefix="/v1/events", tags=["results"])
#: a route answering UTF-8 CSV
csv_route = partial(router.get, responses=CSV, response_class=Response)


# ---------------------------------------------------------------------- event


@router.get("/{event_code}", response_model=s.EventStatus, summary="What is known and published for an event")
async def event_status(event_code: EventCode, repo: Repo) -> s.EventStatus:
    row = await known_event(repo, event_code)
    results = await repo.current_results(event_code)
    current: dict[str, Publication] = {}
    for stored in await repo.publications(event_code):
        current[stored.section_id] = stored  # ordered by revision: the last is current
    sections = []
    for section_id in sorted(set(results) | set(current)):
        published = current.get(section_id)
        result = results.get(section_id)
        sections.append(
            s.SectionStatus(
                section_id=section_id,
                kind=published.kind if published else results[section_id].kind,
                latest_result_revision=result.revision if result else None,
                publication_revision=published.revision if published else None,
                cancelled=published.payload.get("cancelled") if published else None,
            )
        )
    return s.EventStatus(
        event_code=event_code,
        name=row.name,
        preset_id=row.preset_id,
        configured=row.config is not None,
        sections=sections,
    )


@router.get(
    "/{event_code}/publications",
    response_model=s.PublicationHistory,
    summary="Publication history: every awards.published, current and superseded",
)
async def publication_history(
    event_code: EventCode, repo: Repo, page: PageIn, section_id: Annotated[str | None, Query(max_length=100)] = None
) -> s.PublicationHistory:
    await known_event(repo, event_code)
    return history(event_code, await repo.publications(event_code, section_id), page)


# ---------------------------------------------------------------------- one section


@router.get(
    "/{event_code}/sections/{section_id}/awards",
    response_model=s.SectionAwards,
    summary="Awards of a section: places, items, prizes, titles, best boards (AWD-1..7)",
)
async def section_awards(pub: Published) -> s.SectionAwards:
    payload = pub.payload
    return s.SectionAwards(
        publication=meta(pub),
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


@router.get(
    "/{event_code}/sections/{section_id}/publications",
    response_model=s.PublicationHistory,
    summary="Publication history of one section (current + superseded)",
)
async def section_history(
    event_code: EventCode, section_id: SectionId, repo: Repo, page: PageIn
) -> s.PublicationHistory:
    await publication(repo, event_code, section_id, None)
    return history(event_code, await repo.publications(event_code, section_id), page)


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


def _filename(pub: Publication, list_name: str) -> str:
    return f"{pub.event_code}-{pub.section_id}-{list_name}.csv"


@router.get(
    "/{event_code}/sections/{section_id}/standings",
    response_model=s.Standings,
    summary="Final standings with every tiebreak value (AWD-8)",
)
async def standings(pub: Published) -> s.Standings:
    doc = _standings(pub)
    return s.Standings(
        publication=meta(pub), tiebreak_names=doc["tiebreak_names"], rows=[s.StandingsRow(**r) for r in doc["rows"]]
    )


@csv_route(
    "/{event_code}/sections/{section_id}/standings.csv", summary="Final standings with every tiebreak value, as CSV"
)
async def standings_csv(pub: Published) -> Response:
    doc = _standings(pub)
    base = ["place", "shared", "entrant_id", "name", "unit", "gender", "points"]
    tail = ["wins", "games_played", "decided_by_playoff"]
    # a tiebreak named like a base column (e.g. "wins") gets a prefix instead of a clash
    labels = {n: f"tiebreak_{n}" if n in base + tail else n for n in doc["tiebreak_names"]}
    columns = [*base, *labels.values(), *tail]
    rows = [{**r, **{labels[n]: v for n, v in r["tiebreaks"].items() if n in labels}} for r in doc["rows"]]
    return csv_response(columns, rows, _filename(pub, "standings"))


@router.get(
    "/{event_code}/sections/{section_id}/prizes",
    response_model=s.PrizeList,
    summary="Prize list (AWD-4: shared places split, combinable women's prizes)",
)
async def prizes(pub: Published) -> s.PrizeList:
    rows = [s.PrizeRow(**r) for r in pub.payload["prizes"]]
    return s.PrizeList(
        publication=meta(pub),
        currency=pub.payload.get("currency"),
        total_fen=sum(r["amount_fen"] for r in pub.payload["prizes"]),
        rows=rows,
    )


@csv_route("/{event_code}/sections/{section_id}/prizes.csv", summary="Prize list as CSV")
async def prizes_csv(pub: Published) -> Response:
    return csv_response(fields(s.PrizeRow), pub.payload["prizes"], _filename(pub, "prizes"))


@router.get(
    "/{event_code}/sections/{section_id}/titles",
    response_model=s.TitleList,
    summary="Title list (AWD-5: dan/kyu by place, not carried down)",
)
async def titles(pub: Published) -> s.TitleList:
    return s.TitleList(publication=meta(pub), rows=[s.TitleRow(**r) for r in pub.payload["titles"]])


@csv_route("/{event_code}/sections/{section_id}/titles.csv", summary="Title list as CSV")
async def titles_csv(pub: Published) -> Response:
    return csv_response(fields(s.TitleRow), pub.payload["titles"], _filename(pub, "titles"))


EntrantQ = Annotated[str | None, Query(max_length=200, description="only this entrant's certificates")]


async def _certificates(
    event_code: EventCode, section_id: SectionId, repo: Repo, revision: RevisionQ = None, entrant_id: EntrantQ = None
) -> tuple[Publication, list[dict[str, Any]]]:
    pub = await publication(repo, event_code, section_id, revision)
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


#: a section's certificates, or one entrant's (``?entrant_id=``)
Certificates = Annotated[tuple[Publication, list[dict[str, Any]]], Depends(_certificates)]


@router.get(
    "/{event_code}/sections/{section_id}/certificates",
    response_model=s.Certificates,
    summary="Certificate data per player: name, section, place, award lines (ready for printing)",
)
async def certificates(found: Certificates, repo: Repo) -> s.Certificates:
    pub, rows = found
    event = await repo.event(pub.event_code)
    return s.Certificates(
        publication=meta(pub), event_name=event.name if event else None, rows=[s.Certificate(**r) for r in rows]
    )


@csv_route(
    "/{event_code}/sections/{section_id}/certificates.csv",
    summary="Certificate data as CSV (award lines joined by '; ')",
)
async def certificates_csv(found: Certificates) -> Response:
    pub, rows = found
    return csv_response(fields(s.Certificate), rows, _filename(pub, "certificates"))


@router.get(
    "/{event_code}/sections/{section_id}/best-boards",
    response_model=s.BestBoards,
    summary="Best-board awards of a team section (AWD-7: ≥ 70 % participation, playoffs excluded)",
)
async def best_boards(pub: Published) -> s.BestBoards:
    return s.BestBoards(
        publication=meta(pub), winners=pub.payload["best_boards"], boards=pub.document["best_board_ranking"]
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


@csv_route("/{event_code}/sections/{section_id}/best-boards.csv", summary="Best-board winners as CSV")
async def best_boards_csv(pub: Published) -> Response:
    return csv_response(BEST_BOARD_COLUMNS, pub.payload["best_boards"], _filename(pub, "best-boards"))
