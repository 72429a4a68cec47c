"""Creating an event (EVT-1..6): a preset plus overrides, validated in full; emits event.configured."""

from __future__ import annotations

from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import EventConfigured
from gomoku_shared.errors import Conflict, NotFound, Unprocessable
from gomoku_shared.event_config import EventConfigError

from .. import presets
from ..adapters.contract_mapping import event_id_for
from . import forms as s
from .actors import actor_ref
from .owners import owner_for_creation, record_owner
from .rendering import event_view
from .state import RegistrationState
from .unit_of_work import RegistrationUnitOfWork


async def create_event(
    uow: RegistrationUnitOfWork, state: RegistrationState, principal: Principal, body: s.EventIn
) -> dict[str, Any]:
    """EVT-1..6: an event from a preset plus overrides, owned by an organisation (issue 29);
    emits event.configured and event.access_changed."""
    organisation = owner_for_creation(principal, body.event_code, body.organisation)
    try:
        config = presets.load(body.preset_id, {**body.overrides, "id": body.event_code})
    except presets.PresetNotFound:
        raise NotFound("unknown_preset", f"no preset {body.preset_id!r}", {"known": presets.list_presets()}) from None
    except EventConfigError as exc:
        raise Unprocessable(
            "invalid_event_config",
            "the preset with these overrides is not valid",
            [{"path": i.path, "problem": i.message} for i in exc.issues],
        ) from None
    if await uow.events.get(body.event_code) is not None:
        raise Conflict("event_exists", f"event {body.event_code!r} exists already")
    statuses = {stage.id: "open" if stage.entry == "registration" else "awaiting_qualifiers" for stage in config.stages}
    await uow.events.add(
        config,
        preset_id=body.preset_id,
        overrides=body.overrides,
        now=uow.clock.now(),
        created_by=actor_ref(principal),
        stage_statuses=statuses,
        organisation=organisation,
    )
    await record_owner(uow, config.id, organisation, uow.clock.now())
    state.configs[config.id] = config
    uow.emit(
        EventConfigured(
            event_code=config.id, name=config.name, preset_id=body.preset_id, config=config.model_dump(mode="json")
        ),
        correlation_id=config.id,
        event_id=event_id_for("event.configured", config.id),
    )
    return event_view(config, body.preset_id, statuses, organisation)
