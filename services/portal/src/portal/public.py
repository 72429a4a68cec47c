"""Public pages (no sign-in): start, event home, a section's rounds, standings, cross table,
a player's page (those of a section in public_sections), awards, and a finished game's replay
with its record for download."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from gomoku_shared.params import PathId, RoundNo

from . import board, home, page_names, player_search, printout_reads, public_sections, section_states, team_texts
from . import names as who_is_who
from .held_titles import with_titles
from .nofont import NoFont
from .section_reads import match_of
from .site import Site

if TYPE_CHECKING:
    from . import pdf, pdf_team
else:

    class _Printouts:
        """``portal.pdf``, imported at the first printout (fpdf and the font tools cost a
        tenth of a second at every start otherwise)."""

        def __init__(self, module: str = "portal.pdf") -> None:
            self.module = module

        def __getattr__(self, name: str) -> Any:
            return getattr(importlib.import_module(self.module), name)

    pdf = _Printouts()
    pdf_team = _Printouts("portal.pdf_team")

#: the record formats gameplay offers (``record?format=``): file suffix and media type
RECORD_FORMATS = {"psq": ("psq", "text/plain"), "notation": ("txt", "text/plain"), "json": ("json", "application/json")}


def install(app: FastAPI, site: Site) -> None:
    home.install(app, site)
    player_search.install(app, site)
    public_sections.install(app, site)
    _awards_route(app, site)
    _game_routes(app, site)


def _awards_route(app: FastAPI, site: Site) -> None:
    """An event's awards page: every published section, pending team rankings, qualifiers,
    honours and the history of publications."""
    upstream = site.upstream

    @app.get("/events/{code}/awards", response_class=HTMLResponse, name="awards")
    async def awards_page(request: Request, code: PathId) -> HTMLResponse:
        event, status, teams, qualifiers, history, honours = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.optional("awards", f"/v1/events/{code}"),
            upstream.optional("awards", f"/v1/events/{code}/teams"),
            upstream.optional("awards", f"/v1/events/{code}/qualifiers"),
            upstream.optional("awards", f"/v1/events/{code}/publications"),
            upstream.optional("awards", f"/v1/events/{code}/honours"),
        )
        published = [s["section_id"] for s in (status or {}).get("sections", []) if s.get("publication_revision")]
        sections, closings = await asyncio.gather(
            asyncio.gather(
                *(upstream.optional("awards", f"/v1/events/{code}/sections/{sid}/awards") for sid in published)
            ),
            section_states.of_event(upstream, code),
        )
        closings = closings[1]
        # REG-12 (SZ): a merged men + women section's places by gender, as pairing ranks them
        split = [sid for sid in published if (closings.get(sid) or {}).get("rank_by_gender")]
        tables = await asyncio.gather(
            *(upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}/standings") for sid in split)
        )
        gender_places = {
            sid: {r["entrant_id"]: r for r in (table or {}).get("standings", []) if r.get("gender_place")}
            for sid, table in zip(split, tables, strict=True)
        }
        pubs = sorted(
            ((h or {}).get("publication", {}) for h in (history or {}).get("publications", [])),
            key=lambda p: (p.get("published_at") or "", p.get("section_id") or "", p.get("revision") or 0),
            reverse=True,
        )
        words = site.words(request)
        named = page_names.event_in(event, words.lang)
        return site.render(
            request,
            "awards.html",
            honours=(honours or {}).get("honours", []),
            event=event,
            code=code,
            sections=[s for s in sections if s],
            pending_teams=[t for t in (teams or {}).get("teams", []) if t.get("status") != "published"],
            qualifiers=(qualifiers or {}).get("selections", []),
            publications=pubs,
            section_names=page_names.section_names(named),
            # issue 28: the team-score texts in words, sections by name (in the page's language)
            team_member=lambda text: team_texts.member(text, page_names.section_names(named), words),
            team_note=lambda text: team_texts.note(text, page_names.section_names(named), words),
            closings=closings,
            gender_places=gender_places,
        )


def _game_routes(app: FastAPI, site: Site) -> None:
    """A finished game's replay and its record to download."""
    upstream = site.upstream

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse, name="replay")
    async def replay_page(request: Request, game_id: PathId) -> HTMLResponse:
        game, record = await asyncio.gather(
            upstream.get("gameplay", f"/v1/games/{game_id}"),
            upstream.get("gameplay", f"/v1/games/{game_id}/record", params={"format": "json"}),
        )
        section, event = await asyncio.gather(
            upstream.optional("pairing", f"/v1/events/{game['event_code']}/sections/{game['section_id']}"),
            upstream.optional("registration", f"/v1/events/{game['event_code']}"),
        )
        names, match = await asyncio.gather(
            with_titles(upstream, event, who_is_who.by_id(section)), match_of(upstream, game, section)
        )
        layout = board.replay(record)
        shown = request.query_params.get("ply", "")
        ply = int(shown) if shown.isdigit() else layout["move_count"]
        return site.render(
            request,
            "replay.html",
            game=game,
            event=event or {},
            names=names,
            section=section,
            match=match,
            layout=layout,
            ply=min(ply, layout["move_count"]),
            formats=RECORD_FORMATS,
        )

    @app.get("/games/{game_id}/record.{fmt}", name="record")
    async def record_download(game_id: PathId, fmt: str) -> Response:
        """The game record as gameplay writes it (PLAY-8), as a file to save."""
        by_suffix = {suffix: (name, media) for name, (suffix, media) in RECORD_FORMATS.items()}
        if fmt not in by_suffix:
            return PlainTextResponse("unknown record format", status_code=404)
        name, media = by_suffix[fmt]
        body = await upstream.get_text("gameplay", f"/v1/games/{game_id}/record", params={"format": name})
        filename = game_id.replace("/", "_") + "." + fmt
        return Response(body, media_type=media, headers={"content-disposition": f'attachment; filename="{filename}"'})


def _as_pdf(site: Site, request: Request, draw: Callable[[], bytes], name: str) -> Response:
    body = site.printout(request, draw)  # made once per input (read_cache.py)
    return Response(body, media_type="application/pdf", headers={"content-disposition": f'inline; filename="{name}"'})


async def _event_section(
    site: Site, request: Request, code: str, sid: str
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """The event and the section as the printout names them (in the reader's language, with the
    dates: ``printout_reads.imprint``), and the section's entrants by id; the section keeps its
    ``kind`` (a team section's sheets are drawn as matches) and its entrants."""
    event, section, plan = await asyncio.gather(
        site.upstream.get("registration", f"/v1/events/{code}"),
        site.upstream.get("pairing", f"/v1/events/{code}/sections/{sid}"),
        printout_reads.schedule(site.upstream, code),
    )
    printed, named = printout_reads.imprint(event, plan, sid, site.words(request))
    named = {**section, "name": named["name"] or section.get("name")}
    return printed, named, {e["entrant_id"]: e for e in section.get("entrants", [])}


def _cancelled(site: Site, request: Request, event: dict[str, Any], section: dict[str, Any]) -> Response:
    """Any printout of a cancelled section: one page saying it was cancelled (it has no rounds,
    places or certificates), never "not published yet"; a PDF still, as the pages link to it."""
    font = site.settings.pdf_font
    words = site.words(request)
    sid = str(section.get("section_id") or "section")
    return _as_pdf(
        site, request, lambda: pdf.cancelled_notice(words, event, section, font=font), f"{sid}-cancelled.pdf"
    )


async def _round_printout(site: Site, request: Request, code: str, sid: str, n: int, kind: str) -> Response:
    """A round's printout (``kind``: the pairing sheet or the result slips) of its pairings; a team
    section's as matches with their boards (``pdf_team``)."""
    event, section, names = await _event_section(site, request, code, sid)
    if section.get("status") == "cancelled":
        return _cancelled(site, request, event, section)
    rnd = await site.upstream.get("pairing", f"/v1/events/{code}/sections/{sid}/rounds/{n}")
    font, words = site.settings.pdf_font, site.words(request)
    if section.get("kind") == "team":
        players = who_is_who.by_id(section)  # a team's players by player id, with their team
        team_sheet = pdf_team.pairing_sheet if kind == "pairings" else pdf_team.result_slips
        draw = lambda: team_sheet(words, event, section, rnd, names, players, font=font)  # noqa: E731
    else:
        sheet = pdf.pairing_sheet if kind == "pairings" else pdf.result_slips
        draw = lambda: sheet(words, event, section, rnd, names, font=font)  # noqa: E731
    return _as_pdf(site, request, draw, f"{sid}-r{n}-{kind}.pdf")


async def _certificates_printout(site: Site, request: Request, code: str, sid: str) -> Response:
    """A section's certificates in the reader's language, dated with the awards' publication;
    a team's name its players in board order (``names.by_id``)."""
    upstream, font = site.upstream, site.settings.pdf_font
    event, awards, plan, section = await asyncio.gather(
        upstream.get("registration", f"/v1/events/{code}"),
        upstream.get("awards", f"/v1/events/{code}/sections/{sid}/awards"),
        printout_reads.schedule(upstream, code),
        upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}"),
    )
    words = site.words(request)
    printed, named = printout_reads.imprint(event, plan, sid, words)
    if (awards.get("summary") or {}).get("cancelled"):
        return _cancelled(site, request, printed, {"section_id": sid, **named})
    issued = printout_reads.issued_on((awards.get("publication") or {}).get("published_at"), printed["timezone"], words)
    shown = {**awards, "section_name": named["name"] or awards.get("name"), "issued": issued}
    members: dict[str, list[str]] = {}
    team_players = [p for p in who_is_who.by_id(section).values() if p.get("team")]
    for player in sorted(team_players, key=lambda p: p.get("board") or 0):
        members.setdefault(str(player["team"]), []).append(str(player["name"]))
    return _as_pdf(
        site,
        request,
        lambda: pdf.certificates(words, printed, shown, font=font, members=members),
        f"{sid}-certificates.pdf",
    )


def install_printouts(app: FastAPI, site: Site) -> None:
    """The printouts (PDF, A4) of a section: the same answers as the pages, laid out for paper."""
    upstream = site.upstream
    font = site.settings.pdf_font

    @app.exception_handler(NoFont)
    async def _no_font(request: Request, exc: NoFont) -> HTMLResponse:
        return site.render(request, "error.html", status=503, message_key="pdf.no_font")

    @app.get("/events/{code}/sections/{sid}/rounds/{n}/pairings.pdf", name="pairings_pdf")
    async def pairings_pdf(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        return await _round_printout(site, request, code, sid, n, "pairings")

    @app.get("/events/{code}/sections/{sid}/rounds/{n}/slips.pdf", name="slips_pdf")
    async def slips_pdf(request: Request, code: PathId, sid: PathId, n: RoundNo) -> Response:
        return await _round_printout(site, request, code, sid, n, "slips")

    @app.get("/events/{code}/sections/{sid}/standings.pdf", name="standings_pdf")
    async def standings_pdf(request: Request, code: PathId, sid: PathId) -> Response:
        event, section, _names = await _event_section(site, request, code, sid)
        if section.get("status") == "cancelled":
            return _cancelled(site, request, event, section)
        table = await upstream.get("pairing", f"/v1/events/{code}/sections/{sid}/standings")
        return _as_pdf(
            site,
            request,
            lambda: pdf.standings(site.words(request), event, section, table, font=font),
            f"{sid}-standings.pdf",
        )

    @app.get("/events/{code}/sections/{sid}/crosstable.pdf", name="crosstable_pdf")
    async def crosstable_pdf(request: Request, code: PathId, sid: PathId) -> Response:
        event, section, _names = await _event_section(site, request, code, sid)
        if section.get("status") == "cancelled":
            return _cancelled(site, request, event, section)
        table = await upstream.get("pairing", f"/v1/events/{code}/sections/{sid}/crosstable")
        starts = {e["entrant_id"]: e["start_no"] for e in section.get("entrants", [])}
        return _as_pdf(
            site,
            request,
            lambda: pdf.cross_table(site.words(request), event, section, table, starts, font=font),
            f"{sid}-crosstable.pdf",
        )

    @app.get("/events/{code}/sections/{sid}/certificates.pdf", name="certificates_pdf")
    async def certificates_pdf(request: Request, code: PathId, sid: PathId) -> Response:
        return await _certificates_printout(site, request, code, sid)

    @app.get("/events/{code}/honours/certificates.pdf", name="honour_certificates_pdf")
    async def honour_certificates_pdf(request: Request, code: PathId) -> Response:
        event, honours, plan = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            upstream.get("awards", f"/v1/events/{code}/honours/certificates"),
            printout_reads.schedule(upstream, code),
        )
        words = site.words(request)
        printed, _section = printout_reads.imprint(event, plan, "", words)
        return _as_pdf(
            site,
            request,
            lambda: pdf.honour_certificates(words, printed, honours, font=font),
            f"{code}-honours.pdf",
        )
