"""Issue 32: what the registry of people answers (its OpenAPI document; answers may carry more)."""

from __future__ import annotations

from typing import Any

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged


class RegistryPersonSummary(View):
    person_id: str
    name: str
    gender: str
    birth_year: int | None
    #: masked: the last four characters behind 14 `*`
    id_number: str | None
    #: the registry person this one was merged into (null: none)
    merged_into: str | None


class RegistryPersonListed(RegistryPersonSummary):
    #: how many event records (event people) stand for the person
    records: int


class RegistryPeople(Paged):
    organisation: str
    people: list[RegistryPersonListed]


class RegistryEntry(View):
    entry_id: str
    stage: str
    section_id: str
    status: str


class RegistryRecord(View):
    """One event person linked to the registry person (or to one merged into them)."""

    event_code: str
    event_name: str
    player_id: str
    #: the registry person the event person is linked to (the person itself or one merged into it)
    linked_to: str
    name: str
    gender: str
    birth_year: int | None
    id_number: str | None
    #: the partner app that registered the event person (null: staff or the public form)
    registered_by: str | None
    entries: list[RegistryEntry]


class RegistryAction(View):
    #: merge | unmerge | split | correct | export
    action: str
    person_id: str
    other_id: str | None
    details: dict[str, Any]
    reason: str
    at: str
    by: str


class RegistryPersonView(RegistryPersonSummary):
    organisation: str
    merged: list[RegistryPersonSummary]
    records: list[RegistryRecord]
    history: list[RegistryAction]


class RegistrySplit(View):
    person: RegistryPersonView
    split_off: RegistryPersonView


class RegistryExport(View):
    """A person's data in full (a subject access request): birth dates and ID numbers unmasked."""

    exported_at: str
    organisation: str
    person: dict[str, Any]
    merged: list[dict[str, Any]]
    records: list[dict[str, Any]]
    history: list[RegistryAction]
