"""Integration events the registration service consumes: thin translation to service-layer calls."""

from __future__ import annotations

from gomoku_shared.runtime import ServiceRuntime

from ..service_layer import record, schedule, seeding
from ..service_layer.fees import on_appeal
from ..service_layer.stages import on_qualifiers_selected
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

    @runtime.on("qualifiers.selected")
    async def qualifiers_selected(uow, env) -> None:
        # EVT-6: the next stage's entries come from the qualifier lists (REG-7 re-checked)
        await on_qualifiers_selected(RegistrationUnitOfWork(uow, context.protector), context, env.payload)

    @runtime.on("appeal.lodged")
    async def appeal_lodged(uow, env) -> None:
        # AWD-10 (NY 十(四)): the arbitration fee received with an appeal, a payment of the unit
        await on_appeal(RegistrationUnitOfWork(uow, context.protector), context, env.payload)

    @runtime.on("appeal.decided")
    async def appeal_decided(uow, env) -> None:
        # AWD-10: an upheld appeal's fee goes back to the unit, a refund line
        await on_appeal(RegistrationUnitOfWork(uow, context.protector), context, env.payload)

    @runtime.on("round.rescheduled")
    async def round_rescheduled(uow, env) -> None:
        # EVT-7: the published schedule and its calendars show an arbiter's delay
        await schedule.on_round_rescheduled(RegistrationUnitOfWork(uow, context.protector), env.payload)

    @runtime.on("ratings.published")
    async def ratings_published(uow, env) -> None:
        # issue 32: the organisation's latest rating list seeds its events' entries (TRF rating)
        await seeding.on_ratings_published(RegistrationUnitOfWork(uow, context.protector), env.payload, env.occurred_at)

    @runtime.on("awards.published")
    async def awards_published(uow, env) -> None:
        # issue 32: the federation's record of final places (REG-16, REG-6 read it)
        await record.on_awards_published(
            RegistrationUnitOfWork(uow, context.protector), context, env.payload, env.occurred_at
        )
