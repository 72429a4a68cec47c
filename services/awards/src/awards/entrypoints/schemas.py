"""Response bodies of the awards HTTP API (OpenAPI documented). Money is given both as a
yuan string with two decimals (``amount``) and as integer fen (``amount_fen``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar, get_args, get_origin, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, create_model

from ..domain.publication import CertificateData, PrizeListRow, TitleListRow


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


OutT = TypeVar("OutT", bound=_Out)


def _fields_of(row: type[Any]) -> Callable[[type[OutT]], type[OutT]]:
    """The response model of a domain row (a dataclass of ``domain.publication``): the row's
    fields in its order, types (a tuple is a JSON list) and defaults; the class declares only
    the fields it documents, so the documented row is the one the domain computes."""

    def model(declared: type[OutT]) -> type[OutT]:
        hints = get_type_hints(row)
        fields: dict[str, Any] = {}  # name -> (annotation, FieldInfo), as create_model takes them
        for field in dataclasses.fields(row):
            if field.name in declared.model_fields:
                info = declared.model_fields[field.name]
                fields[field.name] = (info.annotation, info)
                continue
            annotation = hints[field.name]
            if get_origin(annotation) is tuple:
                annotation = list[get_args(annotation)[0]]  # type: ignore[misc]  # a type built at run time
            default = Field() if field.default is dataclasses.MISSING else Field(field.default)
            fields[field.name] = (annotation, default)
        unknown = set(declared.model_fields) - set(fields)
        if unknown:
            raise TypeError(f"{declared.__name__}: {sorted(unknown)} are not fields of {row.__name__}")
        base = declared.__bases__[0]
        return create_model(declared.__name__, __base__=base, __module__=declared.__module__, **fields)

    return model


class PublicationMeta(_Out):
    event_code: str
    section_id: str
    stage: str
    kind: str = Field(description="individual, or team (played team section or AWD-6 team ranking)")
    revision: int = Field(description="publication number of this section: 1, 2, 3 …")
    supersedes: int | None = None
    superseded: bool
    superseded_by: int | None = None
    source_revision: int | None = Field(None, description="section.completed revision it was computed from")
    published_at: datetime


class Summary(_Out):
    field_size: int
    awarded_places: int
    cancelled: bool
    cancel_reason: str
    prize_total: int = Field(description="fen paid out in this section")
    unresolved_ties: list[dict[str, Any]] = Field(
        description="PAIR-8: shared places the event decides by playoff that arrived still shared"
    )
    flagged_ties: list[list[str]] = Field(description="tie groups pairing left for an arbiter's decision")


class SectionAwards(_Out):
    """AWD-1..5/7: everything one section publication awards."""

    publication: PublicationMeta
    name: str | None
    currency: str | None
    summary: Summary
    places: list[dict[str, Any]] = Field(
        description="per entrant: place, shared_place, items, finisher_items, prize_total_fen, title"
    )
    prizes: list[dict[str, Any]]
    titles: list[dict[str, Any]]
    team_ranking: list[dict[str, Any]]
    best_boards: list[dict[str, Any]]
    squad: list[dict[str, Any]]


class StandingsRow(_Out):
    place: int
    shared: bool
    entrant_id: str
    name: str
    unit: str | None
    gender: str | None
    points: int | float
    tiebreaks: dict[str, int | float]
    wins: int
    games_played: int
    decided_by_playoff: bool


class Standings(_Out):
    """AWD-8: final standings with every tiebreak value, in the section's tiebreak order."""

    publication: PublicationMeta
    tiebreak_names: list[str]
    rows: list[StandingsRow]


@_fields_of(PrizeListRow)
class PrizeRow(_Out):
    # a row of the prize list (AWD-4): the fields of domain.publication.PrizeListRow, these two documented
    remainder_fen: int = Field(description="fen of a shared split left unpaid by rounding down (AWD-4)")
    table_zh: str | None = Field(
        None, description="the prize table's Chinese name, where the event's configuration gives one"
    )


class PrizeList(_Out):
    publication: PublicationMeta
    currency: str | None
    total_fen: int
    rows: list[PrizeRow]


@_fields_of(TitleListRow)
class TitleRow(_Out):
    # a row of the title list (AWD-5): every field is domain.publication.TitleListRow's
    pass


class TitleList(_Out):
    publication: PublicationMeta
    rows: list[TitleRow]


@_fields_of(CertificateData)
class Certificate(_Out):
    # a certificate's data (AWD-8): every field is domain.publication.CertificateData's
    pass


class Certificates(_Out):
    """Certificate data per player, ready for printing (AWD-8)."""

    publication: PublicationMeta
    event_name: str | None
    rows: list[Certificate]


class BestBoards(_Out):
    """AWD-7: winners per board, and the full eligible / ineligible candidate lists."""

    publication: PublicationMeta
    winners: list[dict[str, Any]]
    boards: list[dict[str, Any]]


class TeamRanking(_Out):
    team_section_id: str
    name: str | None
    status: str = Field(description="published, or pending (waiting for source sections)")
    sources: list[str]
    missing_sources: list[str]
    publication: PublicationMeta | None
    rows: list[dict[str, Any]]
    notes: list[str] = Field(
        default_factory=list, description="e.g. a cancelled source section, counted as absent (AWD-6)"
    )


class TeamRankings(_Out):
    event_code: str
    teams: list[TeamRanking]


class QualifierSelection(_Out):
    section_id: str
    target_section_id: str
    from_stage: str
    to_stage: str
    gender: str | None
    revision: int
    source_revision: int
    complete: bool = Field(description="False while a tie at a cut waits for an arbiter (not emitted)")
    emitted_revision: int | None
    qualifiers: list[dict[str, Any]]
    substitutes: list[dict[str, Any]]
    skipped: list[Any]
    flags: list[dict[str, Any]]


class StageTotal(_Out):
    to_stage: str
    entrants: int = Field(description="distinct qualifiers going on (substitutes excluded)")
    cap: int | None
    over_capacity: bool


class Qualifiers(_Out):
    event_code: str
    selections: list[QualifierSelection]
    stages: list[StageTotal]


class PublicationEntry(_Out):
    publication: PublicationMeta
    payload: dict[str, Any] = Field(description="the awards.published payload as emitted")


class PublicationHistory(_Out):
    event_code: str
    publications: list[PublicationEntry]
    #: the cursor of the next page (section, revision order); null on the last
    next_cursor: str | None = None


class SectionStatus(_Out):
    section_id: str
    kind: str
    latest_result_revision: int | None
    publication_revision: int | None
    cancelled: bool | None


class EventStatus(_Out):
    event_code: str
    name: str | None
    preset_id: str | None
    configured: bool
    sections: list[SectionStatus]
