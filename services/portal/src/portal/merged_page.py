"""A merged section's page (REG-12): pairing plays it inside its host, so its own pages say so
("本组因报名人数不足，与 X 组合并比赛"), point to the host and list its players there, instead
of a 404."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from . import section_states
from .site import Site


class NotPlayedHere(Exception):
    """A section pairing does not play: merged into another (REG-12) or unknown."""

    def __init__(self, event: dict[str, Any], closing: dict[str, Any] | None, schedule: dict[str, Any] | None) -> None:
        super().__init__(event.get("event_code"))
        self.event = event
        self.closing = closing
        self.schedule = schedule


def install(app: FastAPI, site: Site) -> None:
    upstream = site.upstream

    @app.exception_handler(NotPlayedHere)
    async def _not_played_here(request: Request, exc: NotPlayedHere) -> HTMLResponse:
        """REG-12: a merged section's pages say where its players play; any other is not found."""
        closing, event = exc.closing, exc.event
        if not closing or closing.get("status") != "merged" or not closing.get("merged_into"):
            return site.render(request, "error.html", status=404, message_key="not_found")
        code, host_id = event["event_code"], closing["merged_into"]
        host = await upstream.optional("pairing", f"/v1/events/{code}/sections/{host_id}")
        sid = closing["section_id"]
        merged: dict[str, Any] = next(
            (s for st in event.get("stages", []) for s in st.get("sections", []) if s.get("id") == sid), {}
        )
        return site.render(
            request,
            "merged.html",
            event=event,
            code=code,
            closing=closing,
            host_id=host_id,
            host=host,
            players=section_states.players_from(host or {}, merged),
            section_names=section_states.section_names(event, exc.schedule),
        )
