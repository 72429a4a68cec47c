"""Fees of an event (REG-14, REG-15, AWD-10): the fee items and when they must be received.

Amounts are in fen (1 CNY = 100 fen), integers, never floats. A fee item whose amount the
regulation leaves to a later notice (NY, NT: 食宿标准另行通知) has ``amount_fen: null``: the
organiser announces the amount once the event exists (registration records the announcement,
audited, with the date it applies from); until then an entry's payment of it counts as complete
only with the fee clerk's explicit "paid in full" confirmation.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from .base import _Model

FeeBasis = Literal["per_person_per_day", "per_entry", "per_team", "per_appeal"]


class FeeItem(_Model):
    """One fee: board and lodging by room type per person per day (DA 十一(一)), a fee per
    entry or per team, or the arbitration fee of an appeal (NY 十(四))."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")]
    name: str
    name_zh: str | None = None
    basis: FeeBasis
    #: None: the amount is announced later (另行通知); until it is, an explicit "paid in full"
    #: confirmation per entry completes the item, never a payment alone
    amount_fen: Annotated[int, Field(ge=0)] | None = None
    #: per_person_per_day: the room type this rate is for (standard, single ...)
    room: str | None = None
    #: per_appeal: refunded when the appeal is upheld (NY 十(四) 胜诉后退回)
    refundable_if_upheld: bool = False

    @model_validator(mode="after")
    def _room(self) -> FeeItem:
        if (self.basis == "per_person_per_day") != (self.room is not None):
            raise ValueError("a room is named by, and only by, a per_person_per_day item")
        return self


class OptionalService(_Model):
    """A service a person may book on a delegation's roster at the regulation's price (DA 十二:
    乘坐组委会接送专用大巴车每人每次45元): charged per person per use, never required for validity."""

    id: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_-]*$")]
    name: str
    name_zh: str | None = None
    amount_fen: Annotated[int, Field(ge=0)]
    #: what one use is called (a trip), and the most a person may book
    per: Literal["trip"] = "trip"
    max_per_person: Annotated[int, Field(ge=1, le=20)] = 2


class FeeRules(_Model):
    """REG-14: an entry counts (is paired at the stage close) only when its materials and its
    fees have both been received by ``due_by`` (exclusive, like ``registration.closes_at``;
    None: the close of registration). REG-15: refunds after confirmation go through a written
    request with proof, decided by the organiser."""

    currency: str = "CNY"
    items: list[FeeItem] = []
    #: whether the fees decide an entry's validity at the stage close (NY, DA, NT)
    required_for_validity: bool = False
    due_by: datetime | None = None
    #: per_person_per_day items: the days charged per person, and the room assumed until a
    #: payment names another one
    days: Annotated[int, Field(ge=1)] | None = None
    default_room: str | None = None
    #: issue 34: optional services a delegation's roster books per person (DA 十二)
    services: list[OptionalService] = []

    @model_validator(mode="after")
    def _consistent(self) -> FeeRules:
        ids = [item.id for item in self.items]
        ids += [service.id for service in self.services]
        if len(ids) != len(set(ids)):
            raise ValueError(f"fee item ids repeat: {ids}")
        rooms = {item.room for item in self.items if item.basis == "per_person_per_day"}
        if rooms and (self.days is None or self.default_room not in rooms):
            raise ValueError("per_person_per_day items need days and a default_room naming one of their rooms")
        if self.due_by is not None and self.due_by.tzinfo is None:
            raise ValueError("due_by needs a UTC offset")
        return self

    def item(self, item_id: str) -> FeeItem:
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(item_id)

    def lodging(self, room: str | None = None) -> FeeItem | None:
        """The board-and-lodging item of a room type (the default room when None)."""
        wanted = room or self.default_room
        return next((i for i in self.items if i.basis == "per_person_per_day" and i.room == wanted), None)

    @property
    def appeal_item(self) -> FeeItem | None:
        return next((i for i in self.items if i.basis == "per_appeal"), None)
