"""Integration events the registration service consumes: each a command run through
``handlers.handle`` (thin translation, nothing else of the service layer's writes)."""

from __future__ import annotations

from gomoku_shared.runtime import ServiceRuntime

from ..service_layer import handlers
from ..service_layer.commands import AdmitQualifiers, KeepDelay, KeepRatings, KeepRecord, RecordAppealFee
from ..service_layer.state import RegistrationState
from ..service_layer.unit_of_work import RegistrationUnitOfWork

#: the event types this service consumes (docs/architecture.md, "Bus events")
CONSUMES = [
    "qualifiers.selected",
    "appeal.lodged",
    "appeal.decided",
    "round.rescheduled",
    "ratings.published",
    "awards.published",
]


def register(runtime: ServiceRuntime, context: RegistrationState) -> None:
    """Attach the handlers of CONSUMES to ``runtime``."""

    def uow_of(uow) -> RegistrationUnitOfWork:  # noqa: ANN001 - the runtime's unit of work
        return RegistrationUnitOfWork(uow, context.protector)

    @runtime.on("qualifiers.selected")
    async def qualifiers_selected(uow, env) -> None:
        # EVT-6: the next stage's entries come from the qualifier lists (REG-7 re-checked)
        await handlers.handle(AdmitQualifiers(env.payload), uow_of(uow), context)

    @runtime.on("appeal.lodged")
    async def appeal_lodged(uow, env) -> None:
        # AWD-10 (NY 十(四)): the arbitration fee received with an appeal, a payment of the unit
        await handlers.handle(RecordAppealFee(env.payload), uow_of(uow), context)

    @runtime.on("appeal.decided")
    async def appeal_decided(uow, env) -> None:
        # AWD-10: an upheld appeal's fee goes back to the unit, a refund line
        await handlers.handle(RecordAppealFee(env.payload), uow_of(uow), context)

    @runtime.on("round.rescheduled")
    async def round_rescheduled(uow, env) -> None:
        # EVT-7: the published schedule and its calendars show an arbiter's delay
        await handlers.handle(KeepDelay(env.payload), uow_of(uow), context)

    @runtime.on("ratings.published")
    async def ratings_published(uow, env) -> None:
        # issue 32: the organisation's latest rating list seeds its events' entries (TRF rating)
        await handlers.handle(KeepRatings(env.payload, env.occurred_at), uow_of(uow), context)

    @runtime.on("awards.published")
    async def awards_published(uow, env) -> None:
        # issue 32: the federation's record of final places (REG-16, REG-6 read it)
        await handlers.handle(KeepRecord(env.payload, env.occurred_at), uow_of(uow), context)
