"""What the delegation door's routes answer (issue 34), for the OpenAPI document; the handlers
build these as dicts (answers may carry more fields)."""

from __future__ import annotations

from typing import Any

from gomoku_shared.api_docs import View


class DoorSection(View):
    section_id: str
    name: str
    name_zh: str | None
    kind: str
    gender: str
    team_size: int | None


class DoorRoom(View):
    room: str
    item: str
    name: str
    name_zh: str | None
    #: None: announced later (另行通知)
    amount_fen: int | None


class DoorService(View):
    id: str
    name: str
    name_zh: str | None
    amount_fen: int
    per: str
    max_per_person: int


class DelegationDoor(View):
    """What a delegation's roster asks: sections, rooms with their rates, services with their prices, the quota."""

    event_code: str
    open: bool
    accepting: bool
    closes_at: str
    id_number_required: bool
    max_nights: int
    sections: list[DoorSection]
    rooms: list[DoorRoom]
    default_room: str | None
    services: list[DoorService]
    quota: int | None
    quota_exempt_top: int | None
    max_leaders: int
    max_coaches: int
    currency: str


class DelegationReissued(View):
    """A delegation's new secret link's token, shown this once; the old link stops working."""

    token: str
    unit_id: str
    unit_name: str


class DelegationStarted(View):
    """The delegation's secret link's token, shown this once."""

    token: str
    event_code: str
    unit_name: str
    leader_name: str


class RosterRow(View):
    #: the entry the row made (a checked roster's: the number it would take)
    entry_id: str
    names: list[str]
    section_id: str
    team_name: str | None
    status: str
    rule: str | None
    clause: str | None
    reason: str | None
    exemptions: list[dict[str, Any]]


class RosterReport(View):
    """What the roster became (or, checked, would become): one row per entry it makes."""

    ok: bool
    summary: str
    rows: list[RosterRow]
    officials_refused: list[str]


class DelegationQuota(View):
    limit: int | None
    counted: int
    exempt: list[dict[str, Any]]


class DelegationFees(View):
    currency: str
    lines: list[dict[str, Any]]
    #: None while a rate is announced later
    due_fen: int | None
    paid_fen: int


class DelegationPage(View):
    """A delegation as its leader sees it by the secret link."""

    event_code: str
    unit_name: str
    #: masked: the first three and last four digits
    leader_phone: str
    link_issued_at: str
    submitted_at: str | None
    amendments: int
    amendable: bool
    closes_at: str
    officials: list[dict[str, Any]]
    people: list[dict[str, Any]]
    entries: list[dict[str, Any]]
    quota: DelegationQuota
    fees: DelegationFees
    #: the documents the delegation sent, metadata only (issue 34)
    documents: list[dict[str, Any]] = []
