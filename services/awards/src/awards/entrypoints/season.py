"""The season over HTTP (issue 32, ADR 0012): a registry person's titles and rating, and an
organisation's rating list of a period, JSON and CSV. Public reads, names masked as in every
public read; a person awards has no record of answers an empty record (the registry, not
awards, knows who exists)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, timedelta
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, field_validator

from gomoku_shared.auth import Principal, require
from gomoku_shared.masking import mask_name

from ..domain.ratings import Rating
from ..domain.title_record import TitleGrant, current_title, title_history
from ..service_layer.commands import SetTitleLadder
from ..service_layer.handlers import handle
from ..service_layer.person_history import grants_of, sections_page
from ..service_layer.season import PARAMS, ladder_of
from ..service_layer.season_reads import SeasonReads, season_reads
from ..service_layer.unit_of_work import SqlAwardsUnitOfWork
from .published import CSV, csv_response

router = APIRouter(prefix="/v1/organisations", tags=["season"])
csv_route = partial(router.get, responses=CSV, response_class=Response)

Org = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]
PersonId = Annotated[str, Path(min_length=1, max_length=64, description="the person's registry id")]
#: a search of a list: the masked names of public reads keep their first character only
Initial = Annotated[str | None, Query(min_length=1, max_length=1, description="only the names starting with it")]
Period = Annotated[str, Path(pattern=r"^(19|2\d)\d{2}-(0[1-9]|1[0-2])$", description="a rating period: YYYY-MM")]


async def _repo(request: Request) -> AsyncIterator[SeasonReads]:
    async with season_reads(request.app.state.runtime) as reads:
        yield reads


Repo = Annotated[SeasonReads, Depends(_repo)]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Grant(_Out):
    title: str
    event_code: str
    section_id: str
    place: int
    granted_on: date
    #: this grant raised the person's title (a lower or equal one is shown, never lowers it)
    raised: bool


class Titles(_Out):
    organisation: str
    person_id: str
    name: str = Field(description="masked, as in every public read")
    #: the title held now (None: none granted), and since when (the grant that reached it)
    current: str | None
    since: date | None
    ladder: list[str] = Field(description="the organisation's titles, lowest first")
    history: list[Grant]


class RatingRow(_Out):
    period: str
    person_id: str
    name: str
    rating: int = Field(description="the published whole number (the TRF rating column)")
    rd: float
    volatility: float
    games: int
    provisional: bool


class ListedRow(RatingRow):
    #: the title the person held at the end of the period (None: none granted by then)
    title: str | None
    #: the place in the whole list (a search by ``initial`` keeps each row's)
    rank: int


class PersonRating(_Out):
    organisation: str
    person_id: str
    current: RatingRow | None
    history: list[RatingRow]


class RatingList(_Out):
    organisation: str
    period: str
    #: every period with a list, oldest first
    periods: list[str]
    rows: list[ListedRow]
    #: how many people the whole list has (``rows``: those found, with ``initial``)
    listed: int


def _row(row: Any) -> RatingRow:
    rating = Rating(row.rating, row.rd, row.volatility, row.games)
    return RatingRow(
        period=row.period,
        person_id=row.person_id,
        name=mask_name(row.name),
        rating=rating.published(),
        rd=round(row.rd, 1),
        volatility=round(row.volatility, 6),
        games=row.games,
        provisional=rating.provisional(PARAMS),
    )


@router.get(
    "/{org}/people/{person_id}/titles",
    response_model=Titles,
    summary="A person's current title and every grant (issue 32, AWD-5)",
)
async def person_titles(org: Org, person_id: PersonId, repo: Repo) -> Titles:
    ladder = await ladder_of(repo, org)
    rows = await repo.grants(org, person_id)
    grants = [TitleGrant(r.person_id, r.title, r.event_code, r.section_id, r.place, r.granted_on) for r in rows]
    # a title off the organisation's ladder is shown but ranks nothing (precedence is configuration)
    on_ladder = [g for g in grants if g.title in ladder.order]
    now = current_title(on_ladder, ladder)
    raised = {id(g): up for g, up in title_history(on_ladder, ladder)}
    latest = max(rows, key=lambda r: r.granted_on, default=None)
    return Titles(
        organisation=org,
        person_id=person_id,
        name=mask_name(latest.name) if latest is not None else "",
        current=now.title if now else None,
        since=now.since.granted_on if now else None,
        ladder=list(ladder.order),
        history=[
            Grant(
                title=g.title,
                event_code=g.event_code,
                section_id=g.section_id,
                place=g.place,
                granted_on=g.granted_on,
                raised=raised.get(id(g), False),
            )
            for g in sorted(grants, key=lambda g: (g.granted_on, g.event_code, g.section_id))
        ],
    )


@router.get(
    "/{org}/people/{person_id}/rating",
    response_model=PersonRating,
    summary="A person's rating now and after every period (issue 32, Glicko-2)",
)
async def person_rating(org: Org, person_id: PersonId, repo: Repo) -> PersonRating:
    history = [_row(r) for r in await repo.person_ratings(org, person_id)]
    return PersonRating(
        organisation=org, person_id=person_id, current=history[-1] if history else None, history=history
    )


async def _list(org: str, period: str, repo: SeasonReads, initial: str | None = None) -> RatingList:
    ladder = await ladder_of(repo, org)
    # a search reads the rows found only, each with its place kept when the list was computed
    ranked = [(r.rank, r) for r in await repo.rating_list(org, period, initial or None)]
    listed = await repo.list_length(org, period) if initial else len(ranked)
    # a search reads the grants of those found only (the organisation's are thousands)
    found = await grants_of(repo, org, [r.person_id for _, r in ranked]) if initial else None
    grants: dict[str, list[TitleGrant]] = {}
    for r in await repo.organisation_grants(org) if found is None else found:
        if r.title in ladder.order:  # off the ladder: ranks nothing (as in a person's titles)
            grants.setdefault(r.person_id, []).append(
                TitleGrant(r.person_id, r.title, r.event_code, r.section_id, r.place, r.granted_on)
            )
    # the title each person held at the end of the period: the list is read as it was published
    year, month = int(period[:4]), int(period[5:])
    end = date(year + month // 12, month % 12 + 1, 1) - timedelta(days=1)
    rows = []
    for rank, r in ranked:  # a search: only the rows found are built (the whole list is thousands)
        held = current_title(grants.get(r.person_id, []), ladder, on=end)
        rows.append(ListedRow(**_row(r).model_dump(), title=held.title if held else None, rank=rank))
    periods = await repo.periods(org)
    return RatingList(organisation=org, period=period, periods=periods, rows=rows, listed=listed)


@csv_route("/{org}/ratings/{period}.csv", summary="The rating list of a period as CSV")
async def rating_list_csv(org: Org, period: Period, repo: Repo) -> Response:
    listed = await _list(org, period, repo)
    columns = ["rank", *(f for f in ListedRow.model_fields if f != "rank")]
    return csv_response(columns, [r.model_dump() for r in listed.rows], f"{org}-ratings-{period}.csv")


# declared after the CSV route: "{period}" would match "2026-05.csv" and refuse it
@router.get(
    "/{org}/ratings/{period}",
    response_model=RatingList,
    summary="The organisation's rating list of a period (YYYY-MM), highest first",
)
async def rating_list(org: Org, period: Period, repo: Repo, initial: Initial = None) -> RatingList:
    return await _list(org, period, repo, initial)


class PersonGame(_Out):
    round: int
    pairing_id: str
    #: the person moved first (black)
    first: bool
    opponent_id: str
    opponent: str = Field(description="masked, as in every public read")
    #: the person's score: 1, 0.5 or 0
    score: float


class PersonSection(_Out):
    event_code: str
    section_id: str
    #: the last day of the section's stage
    on: date
    title: str | None
    place: int | None
    games: list[PersonGame]


class PersonEvents(_Out):
    organisation: str
    person_id: str
    #: oldest first: every section the person was granted a title in or played a rated game in
    #: (with ``latest``: the newest ``latest`` after the ``skip`` newest)
    sections: list[PersonSection]
    #: how many sections the person has altogether
    total: int


@router.get(
    "/{org}/people/{person_id}/events",
    response_model=PersonEvents,
    summary="The sections a person was titled or rated in, with their rated games (issue 32)",
)
async def person_events(
    org: Org,
    person_id: PersonId,
    repo: Repo,
    latest: Annotated[int | None, Query(ge=1, le=500, description="only the newest sections, this many")] = None,
    skip: Annotated[int, Query(ge=0, le=100_000, description="with latest: skip this many newest first")] = 0,
) -> PersonEvents:
    sections: dict[tuple[str, str], PersonSection] = {}
    total: int | None = None
    if latest is None:
        grants, games = await repo.grants(org, person_id), await repo.person_games(org, person_id)
    else:  # a history page's window (issue 32: reads the page's sections only)
        total, grants, games = await sections_page(repo, org, person_id, latest, skip)

    def section(event_code: str, section_id: str, on: date) -> PersonSection:
        key = (event_code, section_id)
        if key not in sections:
            sections[key] = PersonSection(
                event_code=event_code, section_id=section_id, on=on, title=None, place=None, games=[]
            )
        return sections[key]

    for g in grants:
        found = section(g.event_code, g.section_id, g.granted_on)
        found.title, found.place = g.title, g.place
    for r in games:
        first = r.first_id == person_id
        section(r.event_code, r.section_id, r.played_on).games.append(
            PersonGame(
                round=r.round,
                pairing_id=r.pairing_id,
                first=first,
                opponent_id=r.second_id if first else r.first_id,
                opponent=mask_name(r.second_name if first else r.first_name),
                score=r.score if first else 1 - r.score,
            )
        )
    ordered = sorted(sections.values(), key=lambda s: (s.on, s.event_code, s.section_id))
    return PersonEvents(
        organisation=org, person_id=person_id, sections=ordered, total=len(ordered) if total is None else total
    )


# ---------------------------------------------------------------------- the title ladder

#: staff credentials; the organisation's ``people.manage`` is checked by the service layer
Staff = Annotated[Principal, Depends(require("operator", "arbiter", people=True))]
TitleText = Annotated[str, Field(min_length=1, max_length=20, pattern=r"^\S+$")]


class LadderIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    titles: list[TitleText] = Field(min_length=1, max_length=60, description="the titles, lowest first, each once")

    @field_validator("titles")
    @classmethod
    def _each_once(cls, titles: list[str]) -> list[str]:
        if len(set(titles)) != len(titles):
            raise ValueError("a title ladder lists each title once")
        return titles


class Ladder(_Out):
    organisation: str
    titles: list[str] = Field(description="lowest first; a higher title supersedes, a grant never lowers one")
    #: no ladder stored: 18k … 1k, 1d … 9d
    default: bool


@router.get("/{org}/title-ladder", response_model=Ladder, summary="The organisation's titles in precedence order")
async def title_ladder(org: Org, repo: Repo) -> Ladder:
    stored = await repo.ladder(org)
    return Ladder(organisation=org, titles=list((await ladder_of(repo, org)).order), default=stored is None)


@router.put(
    "/{org}/title-ladder",
    response_model=Ladder,
    summary="Set the organisation's titles in precedence order (staff: people.manage in the organisation)",
)
async def put_title_ladder(org: Org, body: LadderIn, request: Request, principal: Staff) -> Ladder:
    async with request.app.state.runtime.transaction(correlation_id=org) as uow:
        ladder = await handle(SetTitleLadder(principal, org, body.titles), SqlAwardsUnitOfWork(uow))
    return Ladder(organisation=org, titles=list(ladder.order), default=False)
