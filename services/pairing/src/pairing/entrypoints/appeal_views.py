"""Bodies and answers of the appeal routes (AWD-10), for validation at the edge and the OpenAPI
document."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from gomoku_shared.api_docs import View
from gomoku_shared.pagination import Paged
from gomoku_shared.text import Line, Prose

from .bodies import ResultName


class AppealBody(BaseModel):
    """A written appeal as the committee received it (NY 十(四)), recorded by staff."""

    #: the unit (delegation) appealing: registration's unit id, or the unit as entrants carry it
    unit_id: Line = Field(min_length=1, max_length=160)
    signatory_role: Literal["leader", "coach"]
    #: the leader's or coach's name as signed (answers show it masked)
    signatory_name: Line = Field(min_length=1, max_length=200)
    grounds: Prose = Field(min_length=1, max_length=4000)
    #: the appealed round and pairing (both omitted: a dispute not about one result)
    round: int | None = Field(default=None, ge=1, le=99)
    pairing_id: Line | None = Field(default=None, min_length=1, max_length=64)
    #: the fee received with the appeal, in fen: it must equal the event's fee (NY: 50000)
    fee_fen: int = Field(ge=0, le=100_000_000)
    currency: str = Field(default="CNY", min_length=3, max_length=3, pattern=r"^[A-Z]{3}$")
    payment_reference: Line = Field(default="", max_length=120)

    @model_validator(mode="after")
    def _round_with_pairing(self) -> AppealBody:
        if self.pairing_id is not None and self.round is None:
            raise ValueError("a pairing_id needs its round")
        return self


class AppealDecisionBody(BaseModel):
    """The arbitration committee's decision with its reasons."""

    upheld: bool
    reasons: Prose = Field(min_length=1, max_length=4000)
    #: upheld only: the appealed pairing's new result (through the arbiter's path, AWD-8)
    result: ResultName | None = None
    #: with a result: the appealed result's revision the committee saw (``pairing_revision``);
    #: an older one is refused with the current result (409 stale_revision), as for the arbiter
    expected_revision: int | None = Field(default=None, ge=0, le=1_000_000)


class Appeal(View):
    event_code: str
    section_id: str
    appeal_id: str
    status: Literal["lodged", "upheld", "rejected"]
    round: int | None
    pairing_id: str | None
    unit_id: str | None
    unit_name: str | None
    signatory_role: str
    #: masked ('张**'): personal data is never shown in full
    signatory: str
    grounds: str
    fee_fen: int
    currency: str
    payment_reference: str
    lodged_at: str
    #: issue 29: who recorded and who decided: acct:<account> or the key id, and the name
    lodged_by: str | None = None
    lodged_by_name: str | None = None
    decided_at: str | None
    decided_by: str | None = None
    decided_by_name: str | None = None
    reasons: str | None
    refund_fen: int | None
    result_before: str | None
    result_after: str | None
    result_changed: bool
    #: the appealed pairing's result as it stands now and its revision (null: no pairing appealed)
    pairing_result: str | None = None
    pairing_revision: int | None = None


class AppealList(Paged):
    event_code: str
    section_id: str | None
    appeals: list[Appeal]
