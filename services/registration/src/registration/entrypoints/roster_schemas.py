"""Issue 34: the bodies of the delegation door: a delegation started (its unit and leader's
contact), and its roster submitted as one document."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .schemas import IdNumberStr, Name, Phone, Ref, Slug, _In

ServiceId = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$", max_length=50)]


class DelegationStartIn(_In):
    """A unit's leader starts its delegation: the answer is the delegation's secret link."""

    unit_name: Name
    region: Annotated[Name, Field(max_length=100)] | None = None
    leader_name: Name
    #: stored encrypted, shown masked
    leader_phone: Phone
    #: a field hidden from people on the page: anything in it marks a script
    website: Annotated[str, Field(max_length=200)] = ""


class RosterSectionIn(_In):
    """A section a player enters: for a team section, the team's name and the player's fixed board (REG-9)."""

    section_id: Slug
    team_name: Name | None = None
    board: Annotated[int, Field(ge=1, le=20)] | None = None


class RosterPersonIn(_In):
    role: Literal["leader", "coach", "player"]
    name: Name
    #: a player of the delegation's previous roster, kept with the details stored for them
    #: (the amended roster need not carry their birth date and ID number again)
    person_id: Slug | None = None
    gender: Literal["male", "female"] | None = None
    birth_date: date | None = None
    #: stored encrypted, shown only masked (REG-11)
    id_number: IdNumberStr | None = None
    sections: Annotated[list[RosterSectionIn], Field(max_length=4)] = []
    #: REG-8: the player's annual registration is with this delegation's unit
    registered_with_unit: bool = False
    #: REG-16 (NY 七(三)): the quoted place in the previous edition's top N
    quota_exempt_ref: Ref | None = None
    #: lodging (DA 十一(一)): a room of the event's and the nights booked
    room: Annotated[str, Field(max_length=50)] | None = None
    nights: Annotated[int, Field(ge=0, le=60)] = 0
    #: optional services (DA 十二) by id: the uses booked
    services: Annotated[dict[ServiceId, Annotated[int, Field(ge=0, le=20)]], Field(max_length=5)] = {}

    @model_validator(mode="after")
    def _player_facts(self) -> RosterPersonIn:
        if self.role == "player":
            if not self.sections:
                raise ValueError("a player needs at least one section")
            if self.person_id is None and (self.gender is None or self.birth_date is None):
                raise ValueError("a new player needs a gender and a birth date")
        elif self.sections or self.quota_exempt_ref or self.person_id:
            raise ValueError("only players enter sections, claim a quota exemption or are kept by person_id")
        return self


class RosterIn(_In):
    """The whole delegation as one document; a submission replaces the previous one."""

    people: Annotated[list[RosterPersonIn], Field(min_length=1, max_length=80)]
    #: REG-13: the delegation's insurance policy, where the participants insure (DA 十三(一))
    insurance_policy: Ref | None = None
