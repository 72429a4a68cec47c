"""Issue 32: the bodies of the registry's staff actions (each names its reason, kept in the audit)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal

from pydantic import Field, model_validator

from gomoku_shared.text import Prose

from .schemas import Name, Slug, _In

#: why the action was taken: kept in the audit with who took it and when
Reason = Annotated[Prose, Field(min_length=1, max_length=2000)]
RegistryIdStr = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]


class MergeIn(_In):
    """The other registry person, merged into the one of the path (the one kept)."""

    person_id: RegistryIdStr
    reason: Reason


class SplitIn(_In):
    """Undo a merge (``person_id``: the person merged into the one of the path), or split an event
    person (``event_code`` and ``player_id``) out of the person of the path into a new one."""

    reason: Reason
    person_id: RegistryIdStr | None = None
    event_code: Slug | None = None
    player_id: Annotated[str, Field(min_length=1, max_length=100)] | None = None

    @model_validator(mode="after")
    def _one_target(self) -> SplitIn:
        by_event = self.event_code is not None or self.player_id is not None
        if (self.person_id is None) == (not by_event):
            raise ValueError("give either person_id (a merge to undo) or event_code and player_id")
        if by_event and (self.event_code is None or self.player_id is None):
            raise ValueError("an event person is named by event_code and player_id together")
        return self


class CorrectionIn(_In):
    """The corrected details of a registry person (at least one)."""

    reason: Reason
    name: Name | None = None
    gender: Literal["male", "female"] | None = None
    birth_date: Annotated[date, Field(ge=date(1900, 1, 1))] | None = None

    @model_validator(mode="after")
    def _something(self) -> CorrectionIn:
        if self.name is None and self.gender is None and self.birth_date is None:
            raise ValueError("correct at least one of name, gender, birth_date")
        return self


class ExportIn(_In):
    """Why the person's data is exported (e.g. the reference of their request)."""

    reason: Reason
