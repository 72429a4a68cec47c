"""HTTP API of the pairing service."""
from __future__ import annotations

from fastapi import FastAPI

from gomoku_shared.auth import KeyRing
from gomoku_shared.runtime import ServiceRuntime
from gomoku_shared.service import lifespan_for
from gomoku_shared.web import create_app


def create_api(runtime: ServiceRuntime, keyring: KeyRing) -> FastAPI:
    app = create_app(
        "pairing",
        title="Gomoku pairing service",
        description="Swiss (FIDE Dutch) and round-robin (Berger) pairing, results, standings with tiebreaks, playoffs, the round lifecycle.",
        lifespan=lifespan_for(runtime),
        keyring=keyring,
        ready_checks={"database": runtime.db_ready, "bus": runtime.bus_ready},
        clock=runtime.clock,
    )
    app.state.runtime = runtime
    return app
