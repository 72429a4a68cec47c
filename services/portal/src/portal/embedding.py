"""The web pages inside the embedded process (ADR 0006): found by the shared library through the
``gomoku.pages`` entry points, as the services are through ``gomoku.services`` — the shared
library imports no service and no page."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI

from gomoku_shared.clock import Clock

from .app import create_app
from .settings import PortalSettings
from .upstream import Upstream


def mount(app: FastAPI, service_apps: Mapping[str, Any], keyrings: list[Any], clock: Clock | None = None) -> Upstream:
    """The pages at /: they answer what no service mount or route matches (the router's default,
    so a known path with a wrong method still gets its 405). They read the mounted apps
    in-process with a read-only key of their own (ADR 0001), and the time on the services' clock
    (``clock``: a simulation clock too). Returns the upstream to close."""
    settings = PortalSettings()
    key = settings.api_key or secrets.token_urlsafe(24)  # one of its own: nobody else needs it here
    for ring in keyrings:
        if ring.lookup(key) is None:
            ring.add(key, "viewer")
    upstream = Upstream.in_process(dict(service_apps), key, settings.upstream_timeout_s)
    pages = app.router.default = create_app(upstream, settings, clock)
    app.state.end_streams = pages.state.end_streams  # the spectators' streams end on a stop, as standalone
    return upstream
