"""What a partner receives of each event it can subscribe to: one model per webhook event type.

Each model is the ``data`` of a delivered webhook body and, in the OpenAPI ``webhooks`` section,
its documented schema: the body is built by validating the event's contract payload with the
model (fields the model does not name are dropped) and dumping it, so what is sent and what is
documented are the same fields. Free-form objects (``record`` of a game, the awards' lists) are
sent without personal data keys (``PRIVATE_KEYS``) wherever they sit.

A view is derived from its contract payload model: every field of it but those ``LEFT_OUT``
(with why), declared as the contract declares it, so a field the contract gains reaches the
view (and the document) without being written twice; the nested contract types (pairings,
standings rows, section rules) are sent whole, as they carry no personal data.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo

from gomoku_shared.contracts.envelope import Payload
from gomoku_shared.contracts.events import (
    AwardsPublished,
    BoardStat,
    GameCreated,
    GameFinished,
    GameStarted,
    RoundPaired,
    RoundRescheduled,
    SectionCompleted,
    StandingRow,
    StandingsUpdated,
)


class PartnerView(BaseModel):
    """Base of the webhook ``data`` models: built from a contract payload, whose other fields
    are left out. Within ``/v1`` a view may gain fields (additive changes only)."""

    model_config = ConfigDict(extra="ignore", frozen=True)


#: the contract fields of each type a partner does not get, with why (every other field of the
#: contract payload is in its view: a field the contract adds is a choice made here)
LEFT_OUT: dict[str, dict[str, str]] = {
    "round.paired": {"byes": "byes name no partner: a partner gets its own players' pairings only"},
    "section.completed": {"entrants": "the entrants list carries registration details"},
    "entry.decided": {
        "entrant": "the entrant carries personal data: the entry id and your external ids name it",
        "entrant_name": "a name is personal data: the entry id and your external ids name it",
        "application_id": "the entry id names the entry",
        "partner_id": "you are the partner: the webhook is sent to you alone",
    },
}


#: the fields of a standings row a partner does not get, with why (issue 27: the documents
#: promise no attributes; a partner names its own players by ``entrant_id``)
ROW_LEFT_OUT: dict[str, str] = {
    "name": "a name is personal data: entrant_id names the entrant",
    "gender": "an attribute: attributes are never sent",
    "unit": "an attribute (the player's club or school): attributes are never sent",
    "gender_place": "the place among the entrant's gender tells its gender",
}
#: the fields of a board's record (best-board award) a partner does not get
BOARD_LEFT_OUT: dict[str, str] = {"name": "a name is personal data: player_id names the player"}


def _nested(name: str, contract: type[BaseModel], left_out: Mapping[str, str], doc: str) -> type[PartnerView]:
    """A nested contract type (a standings row, a board's record) without the fields ``left_out``."""
    fields: dict[str, Any] = {f: (i.annotation, i) for f, i in contract.model_fields.items() if f not in left_out}
    return create_model(name, __base__=PartnerView, __doc__=doc, __module__=__name__, **fields)


PartnerStandingRow = _nested(
    "PartnerStandingRow",
    StandingRow,
    ROW_LEFT_OUT,
    """A standings row as a partner receives it: the place, the entrant's id, points, tiebreaks,
    wins, games played and how a tie was settled. No name and no attribute (gender, unit).""",
)
PartnerBoardStat = _nested(
    "PartnerBoardStat", BoardStat, BOARD_LEFT_OUT, """A team member's record on a board, without the name."""
)
#: the nested contract types a view sends as the partner's version of them
NESTED: dict[str, Any] = {
    "standings": list.__class_getitem__(PartnerStandingRow),  # built at import: a value, not a static type
    "board_stats": list.__class_getitem__(PartnerBoardStat),
}


def _view(
    name: str, contract: type[Payload], doc: str, described: Mapping[str, str] | None = None
) -> type[PartnerView]:
    """The partner view of a contract payload: its fields in its order, but those LEFT_OUT of
    its type, each as the contract declares it (type, default), with the description a partner
    reads in the documented schema where ``described`` gives one; standings rows and boards'
    records as the partner's versions of them (``NESTED``)."""
    left_out = LEFT_OUT.get(contract.TYPE, {})
    fields: dict[str, Any] = {}  # name -> (annotation, FieldInfo), as create_model takes them
    for field, info in contract.model_fields.items():
        if field in left_out:
            continue
        if described and field in described:
            info = FieldInfo.merge_field_infos(info, description=described[field])
        annotation = NESTED.get(field, info.annotation)
        if field in NESTED:
            info = FieldInfo.merge_field_infos(info, annotation=annotation)
        fields[field] = (annotation, info)
    return create_model(name, __base__=PartnerView, __doc__=doc, __module__=__name__, **fields)


RoundPairedData = _view(
    "RoundPairedData",
    RoundPaired,
    """`round.paired` as a partner receives it: only the pairings of its own players (a pairing
    names a player's partner in `first_partner` / `second_partner`); no byes (they name no
    partner). A partner none of whose players is paired receives nothing.""",
    {"pairings": "the pairings of your own players only"},
)
RoundRescheduledData = _view(
    "RoundRescheduledData",
    RoundRescheduled,
    """`round.rescheduled` (EVT-7): an arbiter moved a round's start; sent to every subscriber.""",
    {"decided_by": "the staff member who decided it (their key's name)"},
)
GameCreatedData = _view(
    "GameCreatedData",
    GameCreated,
    """`game.created`: a game of a pairing with one of your players exists; its players may join
    (PLAY-7). The round may start much later (`starts_at`, EVT-7).""",
)
GameStartedData = _view(
    "GameStartedData",
    GameStarted,
    """`game.started`: a game of a pairing with one of your players is under way: both players are
    present (PLAY-7; over the board: its first move was recorded), its clock runs from `started_at`.""",
)
GameFinishedData = _view(
    "GameFinishedData",
    GameFinished,
    """`game.finished`: a game of a pairing with one of your players ended; `record` leaves out
    personal data keys.""",
    {"winner": "player id of the winner, null for a draw or a double forfeit"},
)
SectionCompletedData = _view(
    "SectionCompletedData",
    SectionCompleted,
    """`section.completed`: a section's final standings, to every subscriber. No entrants list
    (it carries registration details): the standings are the public result, each row without
    name or attribute (gender, unit), the boards' records without names.""",
    {"revision": "increases when an arbiter's correction republishes (AWD-8)"},
)
StandingsUpdatedData = _view(
    "StandingsUpdatedData",
    StandingsUpdated,
    """`standings.updated`: a section's standings after a round, to every subscriber (standings
    are public). Each row has its place, entrant id, points, tiebreaks, wins and games played; no
    name and no attribute (gender, unit).""",
    {"after_round": "the round the standings were computed after"},
)
AwardsPublishedData = _view(
    "AwardsPublishedData",
    AwardsPublished,
    """`awards.published`: a section's (or team ranking's) awards, to every subscriber; the lists
    leave out personal data keys.""",
)


class EntryDecidedData(PartnerView):
    """`entry.decided`: registration accepted or refused one of your entries; sent only to the
    partner that registered the entry (from the bus events `entry.accepted` / `entry.refused`).
    No names nor other personal data: the entry id and your own user ids name it."""

    # declared here, not derived: the one view of two contract payloads (and ``decision``, which
    # of them it was), whose fields are not those of either (``reason`` only when refused)
    event_code: str
    stage: str
    section_id: str
    entry_id: str
    decision: Literal["accepted", "refused"]
    clause: str = Field(description="the eligibility clause that admitted or refused the entry (REG-4..REG-8)")
    reason: str | None = Field(default=None, description="why the entry was refused (null when accepted)")
    waiting_list: bool = Field(default=False, description="accepted onto the waiting list")
    evidence_pending: bool = Field(default=False, description="REG-18: admitted on evidence still to be approved")
    evidence_approve_by: datetime | None = None
    external_ids: dict[str, str] = Field(
        default_factory=dict, description="your own user ids of the entry's people (player id -> external_id)"
    )


#: the ``data`` model of each webhook event type (the types a subscription can name)
VIEWS: dict[str, type[PartnerView]] = {
    "round.paired": RoundPairedData,
    "round.rescheduled": RoundRescheduledData,
    "game.created": GameCreatedData,
    "game.started": GameStartedData,
    "game.finished": GameFinishedData,
    "section.completed": SectionCompletedData,
    "awards.published": AwardsPublishedData,
    "standings.updated": StandingsUpdatedData,
    "entry.decided": EntryDecidedData,
}
#: the bus events a webhook type is made from, where they are not the one of its name
SOURCES: dict[str, tuple[str, ...]] = {"entry.decided": ("entry.accepted", "entry.refused")}
#: the fields a view adds to its contract payloads: what the bus event's type said
DERIVED: dict[str, frozenset[str]] = {"entry.decided": frozenset({"decision"})}
