"""In-memory repositories and a fake unit of work for awards' use-case tests (the fast lane):
the same protocol as the SQL ones (``awards.service_layer.unit_of_work.AwardsUnitOfWork``), so a
command runs through ``handlers.handle`` unchanged, in milliseconds, with no database. Rows are
namespaces with the tables' columns as attributes, as the SQL repositories' rows are.

    uow = FakeUnitOfWork()
    await uow.handle(ConfigureEvent(configured("da-2023")))
    assert uow.payloads("awards.published") == []
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from awards.adapters.repository import Publication, canonical
from awards.service_layer import handlers
from awards.service_layer.commands import Command
from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts import Payload
from gomoku_shared.staff_roles import DEFAULT_ORGANISATION

START = datetime(2023, 8, 22, 18, 0, tzinfo=UTC)


class FakeAwards:
    def __init__(self) -> None:
        self.events: dict[str, SimpleNamespace] = {}
        self.results: dict[tuple[str, str, int], SimpleNamespace] = {}
        self.publications: dict[tuple[str, str], list[Publication]] = {}
        self.team_rankings: dict[tuple[str, str], list[dict[str, Any]]] = {}
        self.selection_rows: dict[tuple[str, str, str], SimpleNamespace] = {}

    async def lock_event(self, event_code: str) -> None:
        self.events.setdefault(event_code, SimpleNamespace(event_code=event_code, config=None))

    async def save_config(
        self, event_code: str, name: str, preset_id: str, config: dict[str, Any], now: datetime
    ) -> bool:
        row, text = self.events[event_code], canonical(config)
        if row.config == text:
            return False
        row.__dict__.update(name=name, preset_id=preset_id, config=text, received_at=now)
        return True

    async def config(self, event_code: str) -> dict[str, Any] | None:
        row = self.events.get(event_code)
        return json.loads(row.config) if row is not None and row.config else None

    async def event(self, event_code: str) -> Any:
        return self.events.get(event_code)

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
    ) -> str:
        text, key = canonical(payload), (event_code, section_id, revision)
        if key in self.results:
            return "same" if self.results[key].payload == text else "conflict"
        self.results[key] = SimpleNamespace(
            event_code=event_code, section_id=section_id, revision=revision, stage=stage, name=name, kind=kind,
            payload=text, received_at=now,
        )  # fmt: skip
        return "added"

    async def current_result(self, event_code: str, section_id: str) -> Any:
        rows = [r for (e, s, _), r in self.results.items() if (e, s) == (event_code, section_id)]
        return max(rows, key=lambda r: r.revision) if rows else None

    async def current_results(self, event_code: str) -> dict[str, Any]:
        sections = sorted({s for (e, s, _) in self.results if e == event_code})
        return {s: await self.current_result(event_code, s) for s in sections}

    async def current_publication(self, event_code: str, section_id: str) -> Publication | None:
        return (self.publications.get((event_code, section_id)) or [None])[-1]

    async def add_publication(self, *, now: datetime, payload_text: str, document_text: str, **values: Any) -> None:
        chain = self.publications.setdefault((values["event_code"], values["section_id"]), [])
        if chain:  # the previous one stays visible, marked superseded (AWD-8)
            chain[-1] = Publication(**{**chain[-1].__dict__, "superseded": True, "superseded_by": values["revision"]})
        chain.append(
            Publication(
                **values, superseded=False, superseded_by=None, payload=json.loads(payload_text),
                document=json.loads(document_text), published_at=now, payload_text=payload_text,
                document_text=document_text,
            )
        )  # fmt: skip

    async def replace_team_ranking(
        self, event_code: str, team_section_id: str, rows: list[dict[str, Any]], publication_revision: int
    ) -> None:
        self.team_rankings[(event_code, team_section_id)] = rows

    async def selections(self, event_code: str, section_id: str | None = None) -> list[Any]:
        return [
            r for (e, s, _), r in sorted(self.selection_rows.items()) if e == event_code and section_id in (None, s)
        ]

    async def save_selection(self, values: dict[str, Any], *, exists: bool) -> None:
        key = (values["event_code"], values["section_id"], values["target_section_id"])
        assert exists == (key in self.selection_rows)
        self.selection_rows[key] = SimpleNamespace(**values)

    async def drop_selections(self, event_code: str, section_id: str, keep_targets: set[str]) -> None:
        for key in [k for k in self.selection_rows if k[:2] == (event_code, section_id) and k[2] not in keep_targets]:
            del self.selection_rows[key]


class FakeSeason:
    def __init__(self) -> None:
        self.owners: dict[str, str] = {}
        self.ladders: dict[str, list[str]] = {}
        self.grants: list[SimpleNamespace] = []
        self.game_rows: list[SimpleNamespace] = []
        self.lists: dict[str, list[dict[str, Any]]] = {}

    async def lock_organisation(self, organisation: str) -> None:
        return None

    async def organisation(self, event_code: str) -> str:
        return self.owners.get(event_code, DEFAULT_ORGANISATION)

    async def ladder(self, organisation: str) -> list[str] | None:
        return self.ladders.get(organisation)

    async def save_ladder(self, organisation: str, titles: Sequence[str]) -> None:
        self.ladders[organisation] = list(titles)

    async def replace_section(
        self, event_code: str, section_id: str, grants: Sequence[dict[str, Any]], games: Sequence[dict[str, Any]]
    ) -> None:
        def other(r: SimpleNamespace) -> bool:
            return (r.event_code, r.section_id) != (event_code, section_id)

        base = {"event_code": event_code, "section_id": section_id}
        self.grants = [r for r in self.grants if other(r)] + [SimpleNamespace(**base, **g) for g in grants]
        self.game_rows = [r for r in self.game_rows if other(r)] + [SimpleNamespace(**base, **g) for g in games]

    async def replace_lists(self, organisation: str, rows: Sequence[dict[str, Any]]) -> None:
        self.lists[organisation] = list(rows)

    async def move_event(self, event_code: str, organisation: str) -> set[str]:
        moved = {r.organisation for r in self.game_rows if r.event_code == event_code} - {organisation}
        for r in self.grants + self.game_rows:
            if r.event_code == event_code:
                r.organisation = organisation
        return moved

    async def section_has_games(self, event_code: str, section_id: str) -> bool:
        return any((r.event_code, r.section_id) == (event_code, section_id) for r in self.game_rows)

    async def games(self, organisation: str) -> list[Any]:
        rows = [r for r in self.game_rows if r.organisation == organisation]
        return sorted(rows, key=lambda r: (r.played_on, r.event_code, r.section_id, r.round, r.pairing_id))

    async def rekey_people(self, organisation: str, old_ids: Sequence[str], new_id: str) -> int:
        return self._rekey(organisation, lambda person, _player: person in old_ids, new_id)

    async def rekey_players(self, organisation: str, players: Sequence[tuple[str, str]], new_id: str) -> int:
        return self._rekey(organisation, lambda _person, player: player in players, new_id)

    def _rekey(self, organisation: str, moves: Any, new_id: str) -> int:
        moved = 0
        for g in (g for g in self.grants if g.organisation == organisation):
            if moves(g.person_id, (g.event_code, g.player_id)):
                g.person_id, moved = new_id, moved + 1
        for r in (r for r in self.game_rows if r.organisation == organisation):
            for side in ("first", "second"):
                if moves(getattr(r, f"{side}_id"), (r.event_code, getattr(r, f"{side}_player"))):
                    setattr(r, f"{side}_id", new_id)
                    moved += 1
        return moved


class FakeHonours:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

    async def count(self, event_code: str) -> int:
        return sum(r["event_code"] == event_code for r in self.rows)

    async def add(self, row: dict[str, Any]) -> None:
        self.rows.append(dict(row))

    async def get(self, event_code: str, honour_id: str) -> dict[str, Any] | None:
        return next((dict(r) for r in self.rows if (r["event_code"], r["honour_id"]) == (event_code, honour_id)), None)

    async def revoke(self, event_code: str, honour_id: str, **values: Any) -> None:
        for r in self.rows:
            if (r["event_code"], r["honour_id"]) == (event_code, honour_id):
                r.update(values, status="revoked")

    async def of_event(self, event_code: str, *, active_only: bool = False) -> list[dict[str, Any]]:
        rows = [r for r in self.rows if r["event_code"] == event_code]
        return [dict(r) for r in rows if not active_only or r["status"] != "revoked"]


class FakeStaffAudit:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []

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
    ) -> None:
        self.rows.append({**locals(), "self": None})

    async def of_section(self, event_code: str, section_id: str) -> list[dict[str, Any]]:
        return [r for r in self.rows if (r["event_code"], r["section_id"]) == (event_code, section_id)]


class FakeBackfill:
    """Every row of the fakes names its event person: nothing stored before migration 0008."""

    async def unkeyed_grants(self, organisation: str, event_codes: Sequence[str]) -> list[Any]:
        return []

    async def unkeyed_games(self, organisation: str, event_codes: Sequence[str]) -> list[Any]:
        return []

    async def current_payload(self, event_code: str, section_id: str) -> str | None:
        return None

    async def key_grant(self, event_code: str, section_id: str, person_id: str, player_id: str) -> None:
        raise AssertionError("no unkeyed rows in the fakes")

    async def key_game(self, event_code: str, section_id: str, pairing_id: str, values: dict[str, str]) -> None:
        raise AssertionError("no unkeyed rows in the fakes")

    async def unkeyed_of(self, organisation: str, person_id: str, event_codes: Sequence[str]) -> int:
        return 0


class FakeUnitOfWork:
    """The repositories above, a fake clock, and the emitted events (``self.emitted``) in order."""

    def __init__(self) -> None:
        self.awards = FakeAwards()
        self.season = FakeSeason()
        self.honours = FakeHonours()
        self.staff_actions = FakeStaffAudit()
        self.backfill = FakeBackfill()
        self.clock = FakeClock(START)
        self.access: dict[str, datetime] = {}
        self.emitted: list[tuple[Payload, uuid.UUID | None]] = []

    def emit(self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None) -> Any:
        self.emitted.append((payload, event_id))

    async def record_access(
        self, event_code: str, organisation: str, partners: list[str] | None, changed_at: datetime
    ) -> bool:
        if event_code in self.access and self.access[event_code] >= changed_at:
            return False
        self.access[event_code] = changed_at
        self.season.owners[event_code] = organisation
        return True

    async def handle(self, command: Command) -> Any:
        return await handlers.handle(command, self)

    def payloads(self, event_type: str) -> list[Any]:
        return [p for p, _ in self.emitted if p.TYPE == event_type]
