"""The web front's routes: event home, a section's rounds, standings, cross table, a live game."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape

from gomoku_shared.params import PathId
from gomoku_shared.web import install_error_handlers

from . import board, i18n
from .settings import PortalSettings
from .upstream import Upstream, UpstreamError

HERE = Path(__file__).parent
LANG_COOKIE = "lang"
#: the gameplay stream's event kinds after which the board is drawn again
LIVE_KINDS = (
    "created",
    "joined",
    "started",
    "action",
    "draw_offer",
    "draw_declined",
    "time_added",
    "finished",
    "corrected",
)


def create_app(upstream: Upstream, settings: PortalSettings | None = None) -> FastAPI:
    settings = settings or PortalSettings()
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    app = FastAPI(title="Gomoku platform: public pages", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.upstream = upstream
    # an unknown path or a malformed id gets the platform's common JSON error shape
    install_error_handlers(app)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    def lang_of(request: Request) -> str:
        return i18n.pick(request.query_params.get("lang") or request.cookies.get(LANG_COOKIE))

    def render(request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        words = i18n.Words(lang_of(request))
        other = "en" if words.lang == "zh" else "zh"
        html = env.get_template(template).render(
            w=words, t=words.t, v=words.v, path=request.url.path, other_lang=other, **ctx
        )
        resp = HTMLResponse(html, status_code=status)
        if request.query_params.get("lang") in i18n.LANGS:
            # the switch is remembered: later pages come in the chosen language
            resp.set_cookie(LANG_COOKIE, words.lang, max_age=365 * 86400, samesite="lax", httponly=True)
        return resp

    @app.exception_handler(UpstreamError)
    async def _upstream(request: Request, exc: UpstreamError) -> HTMLResponse:
        missing = exc.status == 404
        return render(
            request, "error.html", status=404 if missing else 503, message_key="not_found" if missing else "unavailable"
        )

    @app.get("/", response_class=HTMLResponse)
    async def start(request: Request, code: str | None = Query(None, max_length=64)) -> Response:
        if code:
            return RedirectResponse(request.url_for("event_home", code=code.strip()), status_code=303)
        return render(request, "start.html", events=settings.event_codes())

    @app.get("/events/{code}", response_class=HTMLResponse, name="event_home")
    async def event_home(request: Request, code: PathId) -> HTMLResponse:
        event, sections, awards = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.optional("pairing", f"/v1/events/{code}/sections"),
            upstream.optional("awards", f"/v1/events/{code}"),
        )
        played = {s["section_id"]: s for s in (sections or {}).get("sections", [])}
        published = {s["section_id"]: s.get("publication_revision") for s in (awards or {}).get("sections", [])}
        return render(request, "event.html", event=event, played=played, published=published)

    async def section_context(code: str, sid: str) -> dict[str, Any]:
        event, section = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.get("pairing", f"/v1/events/{code}/sections/{sid}"),
        )
        names = {e["entrant_id"]: e for e in section.get("entrants", [])}
        return {"event": event, "section": section, "names": names, "code": code}

    @app.get("/events/{code}/sections/{sid}", response_class=HTMLResponse, name="section")
    async def section_page(request: Request, code: PathId, sid: PathId) -> HTMLResponse:
        ctx = await section_context(code, sid)
        last = int(ctx["section"].get("current_round") or 0)
        numbers = list(range(last, 0, -1))  # the newest round first

        async def one(n: int) -> dict[str, Any]:
            rnd, games = await asyncio.gather(
                upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}"),
                upstream.optional("gameplay", f"/v1/rounds/{code}/{sid}/{n}/games"),
            )
            by_pairing: dict[str, list[dict]] = {}
            for g in (games or {}).get("games", []):
                by_pairing.setdefault(g.get("pairing_id"), []).append(g)
            return {"n": n, "round": rnd, "games": by_pairing}

        rounds = await asyncio.gather(*(one(n) for n in numbers))
        return render(request, "section.html", rounds=rounds, tab="pairings", **ctx)

    @app.get("/events/{code}/sections/{sid}/standings", response_class=HTMLResponse, name="standings")
    async def standings_page(request: Request, code: PathId, sid: PathId) -> HTMLResponse:
        ctx = await section_context(code, sid)
        table = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings")
        return render(request, "standings.html", table=table, tab="standings", **ctx)

    @app.get("/events/{code}/sections/{sid}/crosstable", response_class=HTMLResponse, name="crosstable")
    async def crosstable_page(request: Request, code: PathId, sid: PathId) -> HTMLResponse:
        ctx = await section_context(code, sid)
        table = await upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/crosstable")
        starts = {e["entrant_id"]: e["start_no"] for e in ctx["section"].get("entrants", [])}
        return render(request, "crosstable.html", table=table, starts=starts, tab="crosstable", **ctx)

    async def game_context(game_id: str) -> dict[str, Any]:
        game = await upstream.get("gameplay", f"/v1/games/{game_id}")
        section = await upstream.optional("pairing", f"/v1/events/{game['event_code']}/sections/{game['section_id']}")
        names = {e["entrant_id"]: e for e in (section or {}).get("entrants", [])}
        return {"game": game, "names": names, "section": section, "layout": board.layout(game)}

    @app.get("/games/{game_id}", response_class=HTMLResponse, name="game")
    async def game_page(request: Request, game_id: PathId) -> HTMLResponse:
        ctx = await game_context(game_id)
        return render(request, "game.html", live_kinds=LIVE_KINDS, **ctx)

    @app.get("/games/{game_id}/board", response_class=HTMLResponse, name="game_board")
    async def game_board(request: Request, game_id: PathId) -> HTMLResponse:
        """The board and clocks alone: the live page draws them again after each event."""
        ctx = await game_context(game_id)
        return render(request, "board.html", **ctx)

    @app.get("/games/{game_id}/events", name="game_events")
    async def game_events(request: Request, game_id: PathId) -> Response:
        """The gameplay stream of the game, relayed: a browser's EventSource cannot send the key."""
        stream = upstream.stream_app(
            "gameplay",
            f"/v1/games/{game_id}/events",
            request.url.query.encode("latin-1"),
            request.headers.get("last-event-id"),
        )
        return _AsgiResponse(stream)

    return app


class _AsgiResponse(Response):
    """A response that is another ASGI app (the relayed stream)."""

    def __init__(self, inner) -> None:
        super().__init__()
        self.inner = inner

    async def __call__(self, scope, receive, send) -> None:
        await self.inner(scope, receive, send)


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
