"""The web front assembled: public pages, live boards, the staff console and printouts."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from gomoku_shared.clock import Clock
from gomoku_shared.headers import SecurityHeaders
from gomoku_shared.web import install_error_handlers

from . import (
    console_awards,
    console_boards,
    console_events,
    console_rounds,
    console_slips,
    console_slot,
    delegation_roster,
    delegation_upload,
    entry_form,
    event_page,
    live,
    people_pages,
    public,
    registrant_upload,
    staff,
    title_printouts,
)
from .fanout import FeedHub
from .page_headers import PagePolicy
from .read_cache import TrackReads
from .settings import PortalSettings
from .site import HERE, Site
from .upstream import Upstream, UpstreamError


def create_app(upstream: Upstream, settings: PortalSettings | None = None, clock: Clock | None = None) -> FastAPI:
    """``clock``: the time live clocks are read at (default the system's; the embedded process
    gives the services' own, so that a simulation clock holds for the pages too)."""
    settings = settings or PortalSettings()

    def open_game_stream(game_id: str, since: int):
        return upstream.open_stream("gameplay", f"/v1/games/{game_id}/events", f"since={since}")

    async def fetch_view(game_id: str) -> dict:
        # not an input of the page whose request happened to fetch it: every page drawn from a
        # feed's view notes the feed's digest of it instead (live._game_view)
        return await upstream.get("gameplay", f"/v1/games/{game_id}", noted=False)

    def open_round_stream(key: tuple[str, str, int], since: int):
        code, sid, n = key
        return upstream.open_socket("gameplay", f"/v1/rounds/{code}/{sid}/{n}/ws", f"since={since}")

    hub = FeedHub(
        open_game_stream,
        fetch_view,
        linger_s=settings.feed_linger_s,
        round_opener=open_round_stream if settings.round_streams else None,
        clock=clock,
    )
    upstream.on_close.append(hub.aclose)
    site = Site(upstream, settings, hub)
    app = FastAPI(title="Gomoku platform: web pages", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.upstream = upstream
    app.state.hub = hub
    # called by the server on the signal to stop (gomoku_shared.serve)
    app.state.end_streams = hub.end_streams
    app.state.site = site
    # an unknown path or a malformed id gets the platform's common JSON error shape
    install_error_handlers(app)
    app.add_middleware(TrackReads)  # the reads of each request key its page (read_cache.py)
    # every page's Content-Security-Policy (staff pages: never framed), then nosniff, the
    # referrer policy and HSTS over TLS as on every service (page_headers.py)
    app.add_middleware(PagePolicy)
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.exception_handler(UpstreamError)
    async def _upstream(request: Request, exc: UpstreamError) -> HTMLResponse:
        missing = exc.status == 404
        if exc.status == 429:  # the services throttle the reader's address (e.g. after wrong keys from it)
            return site.render(request, "error.html", status=429, message_key="too_busy")
        return site.render(
            request, "error.html", status=404 if missing else 503, message_key="not_found" if missing else "unavailable"
        )

    public.install(app, site)
    event_page.install(app, site)
    entry_form.install(app, site)  # issue 34: the public entry form and the registrant's page
    registrant_upload.install(app, site)  # issue 34: the registrant's documents from their page
    delegation_roster.install(app, site)  # issue 34: a delegation's roster for units
    delegation_upload.install(app, site)  # issue 34: a delegation's documents from its page
    public.install_printouts(app, site)
    live.install(app, site)
    people_pages.install(app, site)  # issue 32: a person's history, rating lists
    title_printouts.install(app, site)  # issue 32: title certificates
    staff.install(app, site)
    console = console_rounds.install(app, site, app.state.sessions)
    console_awards.install(app, console)
    console_slot.install(app, console)  # EVT-7: a whole time slot delayed
    console_events.install(app, console)
    console_boards.install(app, site, app.state.sessions)
    console_slips.install(app, site, app.state.sessions)  # PLAY-9 result slips

    return app


def standalone_app(settings: PortalSettings | None = None) -> FastAPI:
    """The web front as its own process (distributed mode): the services over HTTP."""
    from gomoku_shared.guard import InputGuardMiddleware
    from gomoku_shared.settings import SettingsError

    settings = settings or PortalSettings()
    if not settings.api_key:
        raise SettingsError("PORTAL_API_KEY is unset: give the portal a read-only key (an API_KEYS entry key=viewer)")
    upstream = Upstream.over_http(settings.base_urls(), settings.api_key, settings.upstream_timeout_s)
    app = create_app(upstream, settings)
    # as in the embedded process: control characters, oversized paths and headers refused first
    app.add_middleware(InputGuardMiddleware)

    @app.on_event("shutdown")
    async def _close() -> None:
        await upstream.aclose()

    return app
