"""HTTP API of the awards service."""

from __future__ import annotations

from fastapi import FastAPI

from gomoku_shared.auth import KeyRing
from gomoku_shared.event_access import EventAccessDirectory
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import service_app

from . import honours, publishing, results, season, team_results, titles


def create_api(runtime: ServiceRuntime, keyring: KeyRing, event_access: EventAccessDirectory) -> FastAPI:
    """The app (``event_access``: on the service's own table, built by the composition root)."""
    app = service_app(
        runtime,
        keyring,
        title="Gomoku awards service",
        description="Places, prize money, titles, team scores, best boards and qualification, published.",
    )
    # issue 29: who owns each event (event.access_changed), for require(..., action=...)
    app.state.event_access = event_access
    # published results are public information: reads need no API key
    app.include_router(results.router)
    app.include_router(team_results.router)
    # AWD-9: honours are read in public, recorded and revoked by staff
    app.include_router(honours.router)
    # issue 32: titles and ratings of an organisation's people, public reads
    app.include_router(season.router)
    app.include_router(titles.router)
    # staff-only: a section's awards published again on request (audited)
    app.include_router(publishing.router)
    return app
