"""The routers beside the event API's own (api.py): the schedule, the public doors (entry form,
delegation roster), registrants' documents and the organisation's registry of people."""

from __future__ import annotations

from fastapi import APIRouter

from .delegation_documents import delegation_documents_router
from .registrant_documents import delegation_router, public_router, registrant_documents_router
from .registry_routes import people_router
from .schedule_api import schedule_router


def more_routers() -> tuple[APIRouter, ...]:
    return (
        schedule_router(),
        public_router(),
        registrant_documents_router(),
        delegation_router(),
        delegation_documents_router(),
        people_router(),
    )
