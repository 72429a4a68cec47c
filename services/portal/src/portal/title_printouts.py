"""Issue 32: an event's title certificates as a printout (A4 PDF, ``pdf_titles``): every title
its title tables granted (DA 九(三) …), beside the place certificates of the awards page; with
``?person=`` one registry person's own (the link on their history page). Read from awards'
public title certificates (named as the event's published titles name them), registration's
event and schedule (names and dates in the reader's language) and pairing's sections (each
holder's unit or team); made once per input like every printout (ADR 0010)."""

from __future__ import annotations

import asyncio
import importlib
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.responses import Response

from gomoku_shared.params import PathId

from . import printout_reads
from .site import Site
from .upstream import Upstream


async def units_by_person(upstream: Upstream, code: str, sids: list[str]) -> dict[tuple[str, str], str]:
    """(section, registry id) → the unit an entrant played for, or a team member's team."""
    sections = await asyncio.gather(
        *(upstream.optional("pairing", f"/v1/events/{code}/sections/{sid}") for sid in sids)
    )
    units: dict[tuple[str, str], str] = {}
    for sid, section in zip(sids, sections, strict=True):
        for entrant in (section or {}).get("entrants", []):
            if entrant.get("registry_id"):
                units[(sid, entrant["registry_id"])] = str(entrant.get("unit") or "")
            for member in entrant.get("members") or []:
                if member.get("registry_id"):
                    units[(sid, member["registry_id"])] = str(entrant.get("name") or "")
    return units


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    @app.get("/events/{code}/title-certificates.pdf", name="title_certificates_pdf")
    async def title_certificates_pdf(
        request: Request, code: PathId, person: str | None = Query(None, min_length=1, max_length=64)
    ) -> Response:
        event, plan, found = await asyncio.gather(
            upstream.get("registration", f"/v1/events/{code}"),
            printout_reads.schedule(upstream, code),
            upstream.get(
                "awards", f"/v1/events/{code}/title-certificates", params={"person": person} if person else None
            ),
        )
        words = site.words(request)
        printed, _ = printout_reads.imprint(event, plan, "", words)
        rows: list[dict[str, Any]] = list(found.get("certificates", []))
        sids = sorted({str(r["section_id"]) for r in rows})
        units = await units_by_person(upstream, code, sids)
        names = {sid: printout_reads.imprint(event, plan, sid, words)[1]["name"] for sid in sids}
        shown = [{**r, "unit": units.get((r["section_id"], r["person_id"]), "")} for r in rows]
        # fpdf and the font tools load at the first printout, not at every start (as ``public.pdf``)
        draw = importlib.import_module("portal.pdf_titles").title_certificates
        font = site.settings.pdf_font
        body = site.printout(request, lambda: draw(words, printed, shown, names, font=font))
        filename = f"{code}-titles.pdf"
        return Response(
            body, media_type="application/pdf", headers={"content-disposition": f'inline; filename="{filename}"'}
        )
