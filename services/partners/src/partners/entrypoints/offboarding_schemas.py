"""Request and answer bodies of the operators' offboarding routes."""

from __future__ import annotations

from pydantic import Field

from gomoku_shared.pagination import Paged

from .schemas import Strict
from .webhook_schemas import SubscriptionView


class ReasonIn(Strict):
    reason: str = Field(min_length=1, max_length=500, description="why (kept in the audit log)")


class OperatorSubscriptionView(SubscriptionView):
    partner_id: str
    disabled_by: str | None = Field(description="the operator who disabled it; null: disabled after failed attempts")


class OperatorSubscriptionList(Paged):
    items: list[OperatorSubscriptionView]
