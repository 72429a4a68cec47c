"""Issue 32 over HTTP: the current titles of the people a page names, in one lookup, and an
event's title certificates (every grant of its title tables, DA 九(三) …, NY 十一(四)). Public
reads: a lookup answers titles only, no names; a certificate names its holder as the event's
published titles and place certificates do."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from gomoku_shared.params import PathId

from ..service_layer.title_reads import MAX_PEOPLE, current_titles, event_title_certificates

router = APIRouter(tags=["season"])

Org = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")]


def _at_most(people: str) -> str:
    if people.count(",") >= MAX_PEOPLE:
        raise ValueError(f"at most {MAX_PEOPLE} people in one lookup")
    return people


#: registry ids, comma-separated: at most MAX_PEOPLE, each 1-64 characters without blanks or commas
People = Annotated[
    str,
    Query(
        pattern=r"^[^,\s]{1,64}(,[^,\s]{1,64})*$",
        max_length=65 * MAX_PEOPLE,
        description=f"the people's registry ids, comma-separated (at most {MAX_PEOPLE})",
    ),
    AfterValidator(_at_most),
]
PersonFilter = Annotated[
    str | None, Query(min_length=1, max_length=64, description="only this registry person's certificates")
]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Held(_Out):
    person_id: str
    title: str
    #: the day of the grant that first reached it
    since: date


class HeldTitles(_Out):
    organisation: str
    #: the people asked who hold a title (someone without one is not listed)
    people: list[Held]


@router.get(
    "/v1/organisations/{org}/titles",
    response_model=HeldTitles,
    summary="The current titles of the people asked, one lookup (issue 32)",
)
async def held_titles(org: Org, people: People, request: Request) -> HeldTitles:
    asked = people.split(",")
    held = await current_titles(request.app.state.runtime, org, asked)
    return HeldTitles(
        organisation=org,
        people=[Held(person_id=p, title=held[p].title, since=held[p].since.granted_on) for p in sorted(held)],
    )


class Certificate(_Out):
    person_id: str
    name: str = Field(description="as the event's published titles name the holder")
    title: str
    section_id: str
    place: int
    #: the last day of the section's stage
    granted_on: date


class TitleCertificates(_Out):
    event_code: str
    organisation: str
    #: section by section, by place
    certificates: list[Certificate]


@router.get(
    "/v1/events/{event_code}/title-certificates",
    response_model=TitleCertificates,
    summary="One certificate for every title the event granted (issue 32, AWD-5)",
)
async def title_certificates(event_code: PathId, request: Request, person: PersonFilter = None) -> TitleCertificates:
    found = await event_title_certificates(request.app.state.runtime, event_code)
    return TitleCertificates(
        event_code=event_code,
        organisation=found.organisation,
        certificates=[
            Certificate(
                person_id=c.person_id,
                name=c.name,
                title=c.title,
                section_id=c.section_id,
                place=c.place,
                granted_on=c.granted_on,
            )
            for c in found.certificates
            if person is None or c.person_id == person
        ],
    )
