"""What every page route needs: the templates, the language of the request, the services."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from . import deadlines, i18n, page_names, read_cache
from .dates_in_words import say_days, say_time
from .fanout import FeedHub
from .rating_band_words import band_label
from .settings import PortalSettings
from .staff_event_names import who_acted
from .staff_people import powers, roles_list
from .upstream import Upstream

HERE = Path(__file__).parent
LANG_COOKIE = "lang"


class Later:
    """A value of a page's context made only if the page is drawn, not when a kept page is
    served (a live game's board layout: once per state of the game, not once per viewer)."""

    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make


class Site:
    def __init__(self, upstream: Upstream, settings: PortalSettings, hub: FeedHub) -> None:
        self.upstream = upstream
        self.settings = settings
        self.hub = hub
        #: public pages and printouts drawn once per input (read_cache.py)
        self.pages = read_cache.Pages()
        self.env = Environment(
            loader=FileSystemLoader(HERE / "templates"),
            autoescape=select_autoescape(["html"]),
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.filters["num"] = number
        self.env.filters["money"] = money
        self.env.filters["local_time"] = local_time

    def lang_of(self, request: Request) -> str:
        return i18n.pick(request.query_params.get("lang") or request.cookies.get(LANG_COOKIE))

    def words(self, request: Request) -> i18n.Words:
        return i18n.Words(self.lang_of(request))

    def html(self, request: Request, template: str, **ctx: Any) -> str:
        words = self.words(request)
        other = "en" if words.lang == "zh" else "zh"
        # issue 28: the event's, its stages' and sections' names in the page's language
        page_names.localise(ctx, words.lang)
        if ctx.get("staff") is not None and "can" not in ctx:
            # issue 29: the buttons of the actions the person may take in the page's event
            ctx["can"] = powers(ctx["staff"].person, ctx.get("event"), ctx.get("code"))

        def draw() -> str:
            made = {name: value.make() for name, value in ctx.items() if isinstance(value, Later)}
            return self.env.get_template(template).render(
                w=words,
                t=words.t,
                v=words.v,
                roles_words=lambda roles: roles_list(roles, words.lang),
                # issue 29: a time in words in a zone (the event's; the platform's by default)
                when=lambda value, zone=None: say_time(value, zone, words),
                # issue 28: an event's days in words ("2022年11月5日至13日" / "5–13 Nov 2022")
                days=lambda first, last=None: say_days(first, last, words.lang) or "—",
                actor_name=who_acted,
                # issue 32: a rating-band prize table's band in words ("" for other tables)
                prize_band=lambda row: band_label(words, row),
                # the regulation's dates: a registration's last day, included (deadlines.py)
                first_day=lambda value, zone: deadlines.first_day(value, zone, words),
                last_day=lambda value, zone: deadlines.last_day(value, zone, words),
                path=request.url.path,
                other_lang=other,
                request=request,
                **{**ctx, **made},
            )

        key = None
        if template in read_cache.MEMO_TEMPLATES and "staff" not in ctx:
            key = read_cache.request_key("page", template, words.lang, str(request.url))
        return self.pages.drawn(key, draw)

    def tile(
        self,
        request: Request,
        game: dict[str, Any],
        names: dict[str, Any],
        layout: Callable[[], Any],
        match: dict[str, Any] | None = None,
    ) -> Markup:
        """One small board of the wall, drawn once per state of its game (read_cache.py): a
        finished or waiting game is not drawn again on the next load of the wall. ``match``: a
        team game's match (issue 28)."""
        words = self.words(request)
        players = [names.get(str(game.get("black"))), names.get(str(game.get("white")))]
        key = ("tile", words.lang, read_cache.digest_of(game, players, match))

        def draw() -> Markup:
            return Markup(
                self.env.get_template("tile.html").render(
                    w=words, t=words.t, v=words.v, game=game, layout=layout(), names=names, match=match
                )
            )

        return self.pages.drawn(key, draw)

    def printout(self, request: Request, draw: Callable[[], bytes]) -> bytes:
        """A printout (PDF) of the request's reads, made once per input (read_cache.py)."""
        key = read_cache.request_key("pdf", self.lang_of(request), str(request.url))
        return self.pages.drawn(key, draw)

    def render(self, request: Request, template: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        """The page; ``status`` is the HTTP status (templates get no variable of that name)."""
        resp = HTMLResponse(self.html(request, template, **ctx), status_code=status)
        if request.query_params.get("lang") in i18n.LANGS:
            # the switch is remembered: later pages come in the chosen language
            resp.set_cookie(LANG_COOKIE, self.lang_of(request), max_age=365 * 86400, samesite="lax", httponly=True)
        return resp


def number(value: Any) -> str:
    """A score as people write it: 3, 2.5, 10.25 (no trailing .0)."""
    if value is None or value == "":
        return "—"
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return str(int(f)) if f == int(f) else f"{f:.2f}".rstrip("0")


def money(fen: Any) -> str:
    """Integer fen as yuan with two decimals."""
    try:
        return f"{int(fen) / 100:,.2f}"
    except (TypeError, ValueError):
        return "—"


def local_time(value: Any, zone: str) -> str:
    """An ISO time as the event's local date and time (EVT-7: 2022-11-05 09:00)."""
    try:
        return datetime.fromisoformat(str(value)).astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, KeyError):
        return "—"
