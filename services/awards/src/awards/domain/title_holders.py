"""Issue 32: who holds which title now, many people at once (a page naming every player of a
section beside their title), and the certificates of an event's title grants (DA 九(三): the
title table's grants, one certificate each).

Precedence is the organisation's ladder (``title_record``); a grant of a title off the ladder is
kept and certified but ranks nothing, as in a person's own titles."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from .title_record import CurrentTitle, TitleGrant, TitleLadder, current_title


def held_titles(grants: Iterable[TitleGrant], ladder: TitleLadder) -> dict[str, CurrentTitle]:
    """Each person's current title (the highest on the ladder, dated by the grant that first
    reached it); people whose grants are all off the ladder hold none."""
    by_person: dict[str, list[TitleGrant]] = {}
    for grant in grants:
        if grant.title in ladder.order:
            by_person.setdefault(grant.person_id, []).append(grant)
    held = {person: current_title(own, ladder) for person, own in by_person.items()}
    return {person: now for person, now in held.items() if now is not None}


@dataclass(frozen=True)
class TitleCertificate:
    """What one title certificate says: who, which title, earned by which place in which
    section of the event, on which day (the last day of the section's stage)."""

    person_id: str
    name: str
    title: str
    section_id: str
    place: int
    granted_on: date


def certificate_order(certificates: Iterable[TitleCertificate]) -> list[TitleCertificate]:
    """The printing order: section by section, by place, then by name (shared places)."""
    return sorted(certificates, key=lambda c: (c.section_id, c.place, c.name, c.person_id))
