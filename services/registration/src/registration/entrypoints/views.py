"""What the registration API answers, for its OpenAPI document (the handlers build these as
dicts; the fuzz tests check every answer against them). Answers may carry more fields."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from gomoku_shared.api_docs import View


class Preset(View):
    id: str
    name: str


class Presets(View):
    presets: list[Preset]


class SectionInfo(View):
    id: str
    name: str
    kind: str


class StageInfo(View):
    id: str
    name: str
    status: str
    sections: list[SectionInfo]


class EventView(View):
    event_code: str
    preset_id: str
    name: str
    timezone: str
    stages: list[StageInfo]


class PlayerView(View):
    player_id: str
    name: str
    #: masked: never the whole number
    id_number: str | None = None


class EntryView(View):
    entry_id: str
    entrant_id: str
    event_code: str
    stage: str
    section_id: str
    status: str
    clause: str | None
    reason: str | None
    players: list[PlayerView]
    received_at: datetime | None = None
    decisions: list[dict[str, Any]] = []


class Entries(View):
    entries: list[EntryView]


class Changes(View):
    changes: list[dict[str, Any]]


class EvidenceView(View):
    evidence_id: str
    status: str


class EvidenceList(View):
    evidence: list[EvidenceView]


class UnitView(View):
    unit_id: str
    name: str


class Units(View):
    units: list[UnitView]


class StageSection(View):
    section_id: str
    name: str


class StageView(View):
    event_code: str
    stage: str
    status: str
    sections: list[StageSection]
