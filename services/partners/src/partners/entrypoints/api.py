"""HTTP API of the partners service."""

from __future__ import annotations

from fastapi import FastAPI

from gomoku_shared.auth import KeyRing
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import lifespan_for
from gomoku_shared.web import create_app

from ..service_layer.handlers import PartnerService
from . import oauth, operators


def create_api(runtime: ServiceRuntime, keyring: KeyRing, partners: PartnerService) -> FastAPI:
    app = create_app(
        "partners",
        title="Gomoku partners service",
        description=(
            "Partner accounts and their OAuth client credentials (managed by operators), the "
            "client-credentials grant that issues access tokens, the public keys that verify "
            "them (JWKS), and an audit of every use."
        ),
        lifespan=lifespan_for(runtime),
        keyring=keyring,
        ready_checks={"database": runtime.db_ready, "bus": runtime.bus_ready},
        clock=runtime.clock,
    )
    app.state.runtime = runtime
    app.state.partners = partners
    app.include_router(oauth.router)
    app.include_router(operators.router)
    return app
