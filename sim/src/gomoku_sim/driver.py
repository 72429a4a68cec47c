"""Run one seed event end to end through the four competition services' HTTP APIs, with bot players.

The driver is an operator, an arbiter and a partner app at once: it creates the event from a
preset, registers a synthetic field (partner key), checks players in, closes the stage, then
sweeps the games — each sweep plays every game as far as its bots go, games in sorted order —
and, when no bot can act and the services are quiet, moves the simulation clock to the next
due time (flag fall, no-show) and asks gameplay to sweep. SZ's final stage is entered, closed
and played the same way once the qualifiers have arrived. It finishes when every played
section is completed and its awards are published.

Determinism: every decision (field, bots, format choices, clock moves) is a function of the
seed and of what the services report, never of wall-clock time or the order in which
concurrent work completes, so a preset, field and seed give the same ``summary()`` (and
``result_digest``) in the embedded and the distributed mode.
"""

from __future__ import annotations

import time
from typing import Any

from .client import ApiError, all_games
from .digest import VOLATILE_KEYS, canonical, canonical_json, result_digest  # noqa: F401  (importable from here)
from .driver_state import ACCEPTED, PLAYING, Quiet, StageRun  # noqa: F401  (importable from here)
from .registering import Registering
from .run_spec import (  # noqa: F401  (importable from here)
    EVENT_CODES,
    FULL_FIELDS,
    SMALL_FIELDS,
    RunSpec,
    load_config,
    scaled_sizes,
    shifted_overrides,
    years_to_reach,
)
from .sim_clock import Progress, SimClock, StuckError  # noqa: F401  (importable from here)
from .sweeping import Sweeping


class EventDriver(Registering, Sweeping):
    """One seed event end to end: registration (registering.py), play (sweeping.py), awards."""

    async def wait_awards(self, section_ids: list[str]) -> None:
        async def probe() -> bool:
            st = await self.awards_status()
            published = {s["section_id"] for s in st.get("sections", []) if s.get("publication_revision")}
            return all(s in published for s in section_ids)

        await self.wait_for(f"awards.published for sections {section_ids}", probe)

    async def run(self) -> dict[str, Any]:
        started = time.monotonic()
        await self.create_event()
        await self.create_units()
        await self.register()
        await self.verify_evidence()
        for stage in self.config.stages:
            if stage.entry == "qualification":

                async def ready(stage_id: str = stage.id) -> bool:
                    st = await self.stage_status(stage_id)
                    return st.get("status") == "ready"

                await self.wait_for(f"stage {stage.id} to become ready (qualifiers.selected -> registration)", ready)
            run = await self.check_in_and_close(stage.id)
            played = self.played_sections(run)
            await self.play(stage.id, played)
            await self.quiet()
            completed = [
                s["section_id"]
                for s in await self.pairing_sections()
                if s.get("section_id") in played and s.get("status") == "completed"
            ]
            await self.wait_awards(completed)
        await self.quiet()
        self.progress.show("done", 1, 1, 0, self.actions, force=True)
        self.progress.log(
            f"\nevent {self.code} finished in {time.monotonic() - started:.1f}s "
            f"({self.actions} bot actions, {self.p.requests} HTTP requests)"
        )
        return await self.summary()

    # ------------------------------------------------------------------ results

    async def summary(self) -> dict[str, Any]:
        """Canonical results: standings, awards, every game's moves and result (no timestamps)."""
        out: dict[str, Any] = {"event_code": self.code, "preset_id": self.spec.preset_id, "seed": self.spec.seed}
        out["registrations"] = {
            k: {x: v[x] for x in ("status", "entry_id", "clause", "section_id")}
            for k, v in sorted(self.registrations.items())
        }
        out["entries"] = {}
        for stage in self.config.stages:
            rows = await self.entries(stage.id)
            out["entries"][stage.id] = sorted((canonical(e) for e in rows), key=lambda e: e["entry_id"])
        sections = await self.pairing_sections()
        out["sections"] = {}
        for s in sorted(sections, key=lambda s: s["section_id"]):
            sid = s["section_id"]
            st = await self.p.get("pairing", f"/v1/events/{self.code}/sections/{sid}/standings")
            out["sections"][sid] = {
                "status": s.get("status"),
                "rounds": s.get("rounds"),
                "standings": st.get("standings", st),
            }
        listed = await all_games(self.p, {"event_code": self.code, "status": "all"})
        games = {}
        for g in sorted(listed, key=lambda g: g["game_id"]):
            full = await self.p.get("gameplay", f"/v1/games/{g['game_id']}")
            games[g["game_id"]] = {
                "black": full.get("black"),
                "white": full.get("white"),
                "moves": full.get("moves"),
                "result": full.get("result"),
                "reason": full.get("reason"),
                "foul": full.get("foul"),
                "winner": full.get("winner"),
                "opening": full.get("opening"),
                "mode": full.get("mode"),
            }
        out["games"] = games
        pubs = await self.p.get("awards", f"/v1/events/{self.code}/publications")
        out["publications"] = [canonical(p) for p in pubs.get("publications", [])]
        try:
            out["qualifiers"] = canonical(await self.p.get("awards", f"/v1/events/{self.code}/qualifiers"))
        except ApiError:
            out["qualifiers"] = None
        try:
            out["teams"] = canonical(await self.p.get("awards", f"/v1/events/{self.code}/teams"))
        except ApiError:
            out["teams"] = None
        return canonical(out)
