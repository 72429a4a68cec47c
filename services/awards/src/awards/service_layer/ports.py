"""What awards' use cases ask of their stores (issue 31): one protocol per repository the unit of
work exposes (``uow.awards``, ``uow.season``, ``uow.honours``, ``uow.staff_actions``,
``uow.backfill``). The SQL repositories of ``adapters`` satisfy them, and so do the tests'
in-memory ones (``awards_fakes``); rows come back as objects with the tables' columns as
attributes (``Any`` here: a SQLAlchemy row there, a namespace in the fakes)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from ..adapters.repository import Publication


class Awards(Protocol):
    """An event's configuration, its sections' results, publications and qualifier selections."""

    async def lock_event(self, event_code: str) -> None: ...

    async def save_config(
        self, event_code: str, name: str, preset_id: str, config: dict[str, Any], now: datetime
    ) -> bool: ...

    async def config(self, event_code: str) -> dict[str, Any] | None: ...

    async def event(self, event_code: str) -> Any: ...

    async def add_result(
        self,
        event_code: str,
        section_id: str,
        revision: int,
        stage: str,
        name: str,
        kind: str,
        payload: dict[str, Any],
        now: datetime,
    ) -> str: ...

    async def current_result(self, event_code: str, section_id: str) -> Any: ...

    async def current_results(self, event_code: str) -> dict[str, Any]: ...

    async def current_publication(self, event_code: str, section_id: str) -> Publication | None: ...

    async def add_publication(
        self,
        *,
        event_code: str,
        section_id: str,
        stage: str,
        kind: str,
        revision: int,
        supersedes: int | None,
        source_revision: int | None,
        payload_text: str,
        document_text: str,
        now: datetime,
    ) -> None: ...

    async def replace_team_ranking(
        self, event_code: str, team_section_id: str, rows: list[dict[str, Any]], publication_revision: int
    ) -> None: ...

    async def selections(self, event_code: str, section_id: str | None = None) -> list[Any]: ...

    async def save_selection(self, values: dict[str, Any], *, exists: bool) -> None: ...

    async def drop_selections(self, event_code: str, section_id: str, keep_targets: set[str]) -> None: ...


class Season(Protocol):
    """Issue 32: an organisation's title grants, rated games, rating lists and title ladder."""

    async def lock_organisation(self, organisation: str) -> None: ...

    async def organisation(self, event_code: str) -> str: ...

    async def ladder(self, organisation: str) -> list[str] | None: ...

    async def save_ladder(self, organisation: str, titles: Sequence[str]) -> None: ...

    async def replace_section(
        self, event_code: str, section_id: str, grants: Sequence[dict[str, Any]], games: Sequence[dict[str, Any]]
    ) -> None: ...

    async def replace_lists(self, organisation: str, rows: Sequence[dict[str, Any]]) -> None: ...

    async def move_event(self, event_code: str, organisation: str) -> set[str]: ...

    async def section_has_games(self, event_code: str, section_id: str) -> bool: ...

    async def games(self, organisation: str) -> list[Any]: ...

    async def rekey_people(self, organisation: str, old_ids: Sequence[str], new_id: str) -> int: ...

    async def rekey_players(self, organisation: str, players: Sequence[tuple[str, str]], new_id: str) -> int: ...


class Honours(Protocol):
    """AWD-9: the honours of an event, as rows (dicts)."""

    async def count(self, event_code: str) -> int: ...

    async def add(self, row: dict[str, Any]) -> None: ...

    async def get(self, event_code: str, honour_id: str) -> dict[str, Any] | None: ...

    async def revoke(self, event_code: str, honour_id: str, **values: Any) -> None: ...

    async def of_event(self, event_code: str, *, active_only: bool = False) -> list[dict[str, Any]]: ...


class StaffAudit(Protocol):
    """The audit of staff actions on a section's awards."""

    async def record(
        self,
        event_code: str,
        section_id: str,
        action: str,
        actor: str,
        revision: int | None,
        published: bool,
        at: datetime,
        actor_id: str | None = None,
    ) -> None: ...

    async def of_section(self, event_code: str, section_id: str) -> list[dict[str, Any]]: ...


class Backfill(Protocol):
    """Issue 32: season rows stored before the event person was kept, and their filling."""

    async def unkeyed_grants(self, organisation: str, event_codes: Sequence[str]) -> list[Any]: ...

    async def unkeyed_games(self, organisation: str, event_codes: Sequence[str]) -> list[Any]: ...

    async def current_payload(self, event_code: str, section_id: str) -> str | None: ...

    async def key_grant(self, event_code: str, section_id: str, person_id: str, player_id: str) -> None: ...

    async def key_game(self, event_code: str, section_id: str, pairing_id: str, values: dict[str, str]) -> None: ...

    async def unkeyed_of(self, organisation: str, person_id: str, event_codes: Sequence[str]) -> int: ...
