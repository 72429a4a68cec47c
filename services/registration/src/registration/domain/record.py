"""Issue 32 (ADR 0012): the federation's record — each registry person's final places at the
organisation's events, as awards published them — and what eligibility reads from it.

REG-16 (NY 七(三): 2021 年各组前8名的棋手报名不受名额限制): a quota-exemption claim is checked
against the previous edition's recorded places (`exemption_lines`), before the list the organiser
loaded. REG-6 (SZ 六(4), 八(四): 三级及以上等级证书或市级比赛获得过前3名或省级比赛获得过前8名或
全国比赛获得过前25名): a wildcard is proven by a title granted at one of the organisation's events
or a place at an event of a level (`record_evidence`: the record's facts as approved evidence the
wildcard option judges like a document)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time
from typing import Literal, cast

from .model import Evidence, EvidenceKind, EvidenceStatus
from .previous_top import ListedPlayer, PreviousTop
from .residency_options import ON_RECORD

Level = Literal["city", "provincial", "national"]


@dataclass(frozen=True)
class RecordedPlace:
    """One final place of one person in one individual section (awards.published)."""

    event_code: str
    #: the last day of the section's stage: when the place was won
    edition_on: date
    section_id: str
    section_name: str
    place: int
    #: the event's level (its configuration's `level`); None: not said
    level: str | None = None
    #: the title this place granted (AWD-5), if any
    title: str | None = None


def exemption_lines(
    places: Mapping[str, Sequence[RecordedPlace]], event_code: str, sections: Iterable[str], top: int
) -> tuple[ListedPlayer, ...]:
    """REG-16 (NY 七(三)): the previous edition's places within the top `top`, one line per
    registry person and section (`places`: registry id → their recorded places); `sections`
    the previous edition's sections that count (empty: every one)."""
    counted = set(sections)
    return tuple(
        ListedPlayer(
            section=p.section_name,
            place=p.place,
            name="",
            registry_id=registry_id,
            edition=str(p.edition_on.year),
        )
        for registry_id, recorded in sorted(places.items())
        for p in recorded
        if p.event_code == event_code and p.place <= top and (not counted or p.section_id in counted)
    )


def with_record(loaded: PreviousTop | None, edition: str | None, lines: tuple[ListedPlayer, ...]) -> PreviousTop | None:
    """The list a claim is checked against: the recorded lines first (`edition`: the recorded
    edition, None: nothing of it is recorded yet), then the loaded list's (an edition before the
    platform); None when there is neither."""
    if edition is None:
        return loaded
    if loaded is None:
        return PreviousTop(edition, lines)
    return PreviousTop(loaded.edition, lines + loaded.players)


def record_evidence(person_id: str, places: Iterable[RecordedPlace]) -> list[Evidence]:
    """REG-6 (SZ 六(4)): the person's recorded places as the evidence a wildcard is judged on,
    approved by the record: a title granted as a grade certificate, a place at an event of a
    known level as an official past result; dated by the day it was won."""
    out: list[Evidence] = []
    for p in places:
        ref = f"record:{p.event_code}/{p.section_id}"
        won = datetime.combine(p.edition_on, time.max, tzinfo=UTC)
        on_record = replace(
            Evidence(id=ref, person_id=person_id, kind=EvidenceKind.PAST_RESULT, document_ref=ref),
            submitted_at=won,
            status=EvidenceStatus.APPROVED,
            reviewed_by=ON_RECORD,
            reviewed_at=won,  # proven as soon as it was won (REG-18 deadlines compare with it)
        )
        if p.title:
            out.append(replace(on_record, id=f"{ref}/title", kind=EvidenceKind.GRADE_CERTIFICATE, grade=p.title))
        if p.level in ("city", "provincial", "national"):
            level = cast(Level, p.level)
            out.append(
                replace(
                    on_record, id=f"{ref}/place", result_level=level, result_place=p.place, result_event=p.event_code
                )
            )
    return out
