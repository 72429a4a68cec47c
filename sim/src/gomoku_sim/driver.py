"""Run one seed event end to end through the four services' HTTP APIs, with bot players.

The driver is an operator, an arbiter and a partner app at once: it creates the event from a
preset, registers a synthetic field (partner key), checks players in, closes the stage, then
sweeps the games — every bot acts at most once per game per sweep, games in sorted order —
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

import asyncio
import hashlib
import re
import sys
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from datetime import time as dtime
from typing import Any
from zoneinfo import ZoneInfo

from gomoku_shared.event_config import EventConfig

from .bots import BotPolicy, GameView, predict_view
from .client import ApiError, Platform, all_games
from .digest import VOLATILE_KEYS, canonical, canonical_json, result_digest  # noqa: F401  (importable from here)
from .fees import field_counts, record_fees
from .field import Application, build_field, unit_slug, units_of
from .schedule import (
    any_action,
    at_round_start,
    bot_action,
    capped_at_next_start,
    due_step,
    earliest_start,
    stage_start,
)
from .venue import Venue, over_the_board

# --------------------------------------------------------------------------- scaled-down fields

#: entries per section of the default (scaled-down) field, per preset; the demo multiplies
#: them with --players-per-section. SZ: women-free is small so REG-12 merges it with men-free.
SMALL_FIELDS: dict[str, dict[str, int]] = {
    "sz-2022": {
        "men-free": 6,
        "women-free": 4,
        "junior-boys-free": 0,
        "junior-girls-free": 0,
        "men-pro": 6,
        "women-pro": 6,
        "junior-boys-pro": 0,
        "junior-girls-pro": 0,
    },
    "ny-2022": {
        "youth-male": 6,
        "youth-female": 6,
        "junior-male": 5,
        "junior-female": 5,
        "children-male": 0,
        "children-female": 0,
    },
    "da-2023": {"open": 10, "junior": 12, "public": 6},
    "nt-2023": {"mixed-team": 7, "junior-boys-team": 4, "junior-girls-team": 0},
}

FULL_FIELDS: dict[str, dict[str, int]] = {
    "sz-2022": {
        s: 128
        for s in (
            "men-free",
            "women-free",
            "junior-boys-free",
            "junior-girls-free",
            "men-pro",
            "women-pro",
            "junior-boys-pro",
            "junior-girls-pro",
        )
    },
    "ny-2022": {
        s: 32
        for s in ("youth-male", "youth-female", "junior-male", "junior-female", "children-male", "children-female")
    },
    "da-2023": {"open": 64, "junior": 48, "public": 64},
    "nt-2023": {"mixed-team": 16, "junior-boys-team": 10, "junior-girls-team": 8},
}

#: event codes used by the demo and the tests
EVENT_CODES = {"sz-2022": "sz22", "ny-2022": "ny22", "da-2023": "da23", "nt-2023": "nt23"}


def scaled_sizes(preset_id: str, players_per_section: int | None = None, *, full: bool = False) -> dict[str, int]:
    if full:
        return dict(FULL_FIELDS[preset_id])
    base = dict(SMALL_FIELDS[preset_id])
    if players_per_section:
        return {k: (players_per_section if v else 0) for k, v in base.items()}
    return base


def load_config(preset_id: str, overrides: Mapping[str, Any] | None = None) -> EventConfig:
    """The event configuration as registration builds it (the preset files it ships)."""
    from registration import presets  # the preset files live with the registration service

    return presets.load(preset_id, overrides=dict(overrides or {}))


_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})")


def _shift_value(value: Any, years: int) -> Any:
    dated = _DATE.match(value) if isinstance(value, str) else None
    if dated is not None:
        year, month, day = (int(part) for part in dated.groups())
        day = min(day, 28) if (month, day) == (2, 29) else day
        return f"{year + years:04d}-{month:02d}-{day:02d}" + value[10:]
    if isinstance(value, Mapping):
        return {key: _shift_value(item, years) for key, item in value.items()}
    if isinstance(value, list):
        return [_shift_value(item, years) for item in value]
    return value


def shifted_overrides(preset_id: str, years: int, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Overrides that move every date of the preset (registration window, stage days, birth
    windows, deadlines) by whole years, plus ``overrides``. The distributed services' fake
    clock starts at 2026-01-01 and never goes back, so a 2022 event is replayed years later,
    with every date (and so every age window) moved alike."""
    from gomoku_shared.event_config import deep_merge

    base = load_config(preset_id).model_dump(mode="json")
    shifted = _shift_value({k: v for k, v in base.items() if k not in ("id", "schema_version")}, years)
    return deep_merge(shifted, dict(overrides or {}))


def years_to_reach(preset_id: str, earliest: datetime) -> int:
    """Whole years to shift a preset so that its registration happens after ``earliest``."""
    cfg = load_config(preset_id)
    reg = cfg.registration
    moment = (reg.opens_at + timedelta(hours=10)) if reg.opens_at else (reg.closes_at - timedelta(days=7))
    years = 0
    while moment.replace(year=moment.year + years) < earliest:
        years += 1
    return years


# --------------------------------------------------------------------------- run settings


#: entry statuses of registration that hold a place (REG-18: accepted while evidence awaits approval)
ACCEPTED = ("accepted", "accepted_pending_evidence")
PLAYING = (*ACCEPTED, "confirmed", None)


@dataclass
class RunSpec:
    preset_id: str = "sz-2022"
    seed: int = 1
    event_code: str | None = None
    sizes: dict[str, int] | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    #: Swiss rounds for a scaled-down field (None: the preset's number or the service's choice)
    rounds: int | None = None
    policy: BotPolicy = field(default_factory=BotPolicy)
    #: move every date of the preset by whole years (the distributed fake clock starts in 2026)
    shift_years: int = 0
    #: bounded waits (seconds of wall time) for things the services do on their own
    wait_timeout_s: float = 120.0
    #: the whole run (wall seconds)
    run_timeout_s: float = 3600.0
    progress: bool = True
    concurrency: int = 1
    #: fetch every game after each action and check the predicted view (tests of the driver)
    verify_views: bool = False

    @property
    def code(self) -> str:
        return self.event_code or EVENT_CODES.get(self.preset_id, self.preset_id.replace("-", ""))


class StuckError(RuntimeError):
    """The event did not progress within a bounded wait; the message names what was awaited."""


# --------------------------------------------------------------------------- clock control


class SimClock:
    """The simulation clock of the services (CLOCK=fake), moved over /v1/ops/clock."""

    def __init__(self, platform: Platform, services: tuple[str, ...]) -> None:
        self.platform = platform
        self.services = services
        #: held while time moves, and by a crash test while it restarts a service
        self.lock = asyncio.Lock()
        #: the simulation time last set on every service
        self.current: datetime | None = None

    async def now(self) -> datetime:
        answer = await self.platform.get(self.services[0], "/v1/ops/clock")
        return datetime.fromisoformat(answer["now"])

    async def set(self, when: datetime) -> datetime:
        now = await self.now()
        if when <= now:
            self.current = now
            return now
        for s in self.services:
            await self.platform.post(s, "/v1/ops/clock", {"set": when.isoformat()})
        self.current = when
        return when

    async def resync(self) -> None:
        """Bring every service to the simulation time (after one was restarted)."""
        if self.current is not None:
            for s in self.services:
                answer = await self.platform.get(s, "/v1/ops/clock")
                if datetime.fromisoformat(answer["now"]) < self.current:
                    await self.platform.post(s, "/v1/ops/clock", {"set": self.current.isoformat()})

    async def advance(self, seconds: float) -> datetime:
        return await self.set(await self.now() + timedelta(seconds=seconds))


# --------------------------------------------------------------------------- progress


class Progress:
    """A one-line progress bar on stderr (rounds done / rounds planned, games in play)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()
        self.last = 0.0
        self.started = time.monotonic()

    def due(self) -> bool:
        return self.enabled and time.monotonic() - self.last >= (0.3 if self.tty else 5.0)

    def show(
        self, stage: str, done: int, total: int, active: int, finished: int, note: str = "", force: bool = False
    ) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self.last < (0.2 if self.tty else 5.0):
            return
        self.last = now
        width = 30
        frac = 0.0 if total <= 0 else min(1.0, done / total)
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        line = (
            f"[{bar}] {stage}: rounds {done}/{total}  games in play {active:4d}  bot actions {finished:6d}"
            f"  {now - self.started:6.1f}s {note}"
        )
        if self.tty:
            sys.stderr.write("\r" + line[:150].ljust(150))
        else:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def log(self, text: str) -> None:
        if not self.enabled:
            return
        if self.tty:
            sys.stderr.write("\r" + " " * 150 + "\r")
        sys.stderr.write(text + "\n")
        sys.stderr.flush()


# --------------------------------------------------------------------------- the driver

Quiet = Callable[[], Awaitable[None]]


def _local(config: EventConfig, day, hour: int, minute: int = 0) -> datetime:
    return datetime.combine(day, dtime(hour, minute), tzinfo=ZoneInfo(config.timezone)).astimezone(UTC)


@dataclass
class StageRun:
    stage: str
    sections: list[dict[str, Any]] = field(default_factory=list)


class EventDriver:
    def __init__(self, platform: Platform, clock: SimClock, quiet: Quiet, spec: RunSpec) -> None:
        self.p = platform
        self.clock = clock
        self.quiet = quiet
        self.spec = spec
        self.code = spec.code
        self.overrides = (
            shifted_overrides(spec.preset_id, spec.shift_years, spec.overrides)
            if spec.shift_years
            else dict(spec.overrides)
        )
        self.config = load_config(spec.preset_id, self.overrides)
        self.sizes = spec.sizes or scaled_sizes(spec.preset_id)
        self.field: list[Application] = build_field(self.config, spec.seed, self.sizes)
        self.registrations: dict[str, dict[str, Any]] = {}
        self.unpaid: list[str] = []  # REG-14: entries left without their fees (sim.fees)
        self.stages: list[StageRun] = []
        self.progress = Progress(spec.progress)
        self.actions = 0
        self.clock_moves: list[str] = []
        self.deadline = time.monotonic() + spec.run_timeout_s
        self.finished_games = 0
        #: game id -> (seq, view): the server's view predicted after our own actions
        self.views: dict[str, tuple[Any, GameView]] = {}
        #: refused bot actions by error code (a game that changed under the bot)
        self.conflicts: dict[str, int] = {}
        #: PLAY-9 / PLAY-10: the games of offline sections, played at the venue (venue.py)
        self.venue = Venue(platform, spec.policy, spec.seed)

    # ------------------------------------------------------------------ helpers

    def _check_deadline(self, what: str) -> None:
        if time.monotonic() > self.deadline:
            raise StuckError(f"the run exceeded {self.spec.run_timeout_s:.0f}s while {what}")

    async def wait_for(self, what: str, probe: Callable[[], Awaitable[Any]], timeout: float | None = None) -> Any:
        """Poll ``probe`` until it returns a truthy value; raise StuckError naming ``what``."""
        timeout = timeout or self.spec.wait_timeout_s
        end = time.monotonic() + timeout
        delay = 0.05
        while True:
            value = await probe()
            if value:
                return value
            if time.monotonic() > end:
                raise StuckError(f"timed out after {timeout:.0f}s waiting for {what}")
            await self.quiet()
            await asyncio.sleep(delay)
            delay = min(delay * 1.5, 1.0)

    # ------------------------------------------------------------------ registration

    async def create_event(self) -> dict[str, Any]:
        reg = self.config.registration
        moment = (reg.opens_at + timedelta(hours=10)) if reg.opens_at else (reg.closes_at - timedelta(days=7))
        await self.clock.set(moment)
        self.clock_moves.append(f"registration {moment.isoformat()}")
        body = {"preset_id": self.spec.preset_id, "event_code": self.code, "overrides": self.overrides}
        try:
            return await self.p.post("registration", "/v1/events", body)
        except ApiError as exc:
            if exc.status == 409:  # created by an earlier attempt of this run
                return await self.p.get("registration", f"/v1/events/{self.code}")
            raise

    async def create_units(self) -> None:
        region = None
        for unit in units_of(self.field):
            body = {"id": unit_slug(unit), "name": unit, "region": region}
            try:
                await self.p.post(
                    "registration",
                    f"/v1/events/{self.code}/units",
                    body,
                    role="partner",
                    idempotency_key=f"{self.code}-unit-{unit_slug(unit)}",
                )
            except ApiError as exc:
                if exc.status in (404, 405):
                    return  # no unit endpoint: units are created by name with the entries
                if exc.status != 409:
                    raise

    @staticmethod
    def _player(person, unit: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {
            "name": person.name,
            "gender": person.gender,
            "birth_date": person.birth_date.isoformat(),
            "id_number": person.id_number,
        }
        if unit:
            body["unit"] = unit_slug(unit)
        if person.registered_unit_id:
            body["registered_unit_id"] = person.registered_unit_id
        return body

    def _insurance(self, ref: str) -> dict[str, Any]:
        return {"confirmed": True, "document_ref": f"ins-{ref}"}

    async def register(self) -> None:
        for app in self.field:
            if app.kind == "team":
                body: dict[str, Any] = {
                    "stage": app.stage,
                    "section_id": app.section_id,
                    "unit": unit_slug(app.unit or ""),
                    "team_name": app.unit,
                    "members": [{**self._player(p, app.unit), "board": i + 1} for i, p in enumerate(app.people)],
                    "insurance": self._insurance(app.app_id),
                }
                path = f"/v1/events/{self.code}/teams"
            else:
                p = app.people[0]
                body = {
                    "stage": app.stage,
                    "section_id": app.section_id,
                    "player": self._player(p, app.unit),
                    "facts": app.facts,
                    "evidence": app.evidence,
                    "insurance": self._insurance(app.app_id),
                }
                path = f"/v1/events/{self.code}/entries"
            try:
                res = await self.p.post(
                    "registration", path, body, role="partner", idempotency_key=f"{self.code}-app-{app.app_id}"
                )
            except ApiError as exc:
                # a refusal may come as an error answer rather than a refused entry
                res = {"status": "refused", "clause": exc.code, "reason": exc.message, "http_status": exc.status}
            self.registrations[app.app_id] = {
                "expect": app.expect,
                "why": app.why,
                "status": res.get("status"),
                "entry_id": res.get("entry_id"),
                "clause": res.get("clause"),
                "reason": res.get("reason"),
                "section_id": app.section_id,
            }
        self.unpaid = await record_fees(self.p, self.code, self.spec.preset_id)  # REG-14 (sim.fees)
        accepted = sum(1 for r in self.registrations.values() if r["status"] in ACCEPTED)
        refused = [(k, r["reason"]) for k, r in self.registrations.items() if r["status"] not in ACCEPTED]
        self.progress.log(f"registered {accepted} entries; {len(refused)} refused or pending:")
        for k, why in refused:
            self.progress.log(f"  {k}: {self.registrations[k]['status']} — {why}")

    async def verify_evidence(self) -> int:
        """The arbiter checks the submitted documents (REG-6 / REG-7: the SZ final admits only
        verified residency) and approves every pending record, in id order."""
        answer = await self.p.get(
            "registration", f"/v1/events/{self.code}/evidence", role="arbiter", params={"status": "pending"}
        )
        count = 0
        for evidence in sorted(answer.get("evidence", []), key=lambda e: e["evidence_id"]):
            await self.p.post(
                "registration",
                f"/v1/evidence/{evidence['evidence_id']}/decision",
                {"decision": "approve", "note": "document checked"},
                role="arbiter",
                idempotency_key=f"ev-{evidence['evidence_id']}",
            )
            count += 1
        if count:
            self.progress.log(f"arbiter approved {count} evidence records")
        return count

    # ------------------------------------------------------------------ stages

    def _stage_days(self, stage_id: str) -> tuple[Any, Any]:
        st = self.config.stage(stage_id)
        first = min([s.starts_on for s in st.sections if s.starts_on] + [st.starts_on])
        return first, st.ends_on

    async def entries(self, stage_id: str) -> list[dict[str, Any]]:
        answer = await self.p.get("registration", f"/v1/events/{self.code}/entries", params={"stage": stage_id})
        return answer.get("entries", answer if isinstance(answer, list) else [])

    def format_choices(self, stage_id: str, counts: Mapping[str, int]) -> dict[str, Any]:
        """The arbiter's format choice per section: round robin for a handful, Swiss otherwise."""
        out: dict[str, Any] = {}
        merged = dict(counts)
        for sec in self.config.stage(stage_id).sections:  # REG-12: a small section joins its partner
            closing = sec.closing
            if closing.merge_below and closing.merge_with and 0 < counts.get(sec.id, 0) < closing.merge_below:
                merged[closing.merge_with] = merged.get(closing.merge_with, 0) + counts.get(sec.id, 0)
        for sec in self.config.stage(stage_id).sections:
            if sec.format is None or sec.kind == "team" and sec.team and sec.team.scored_from_individual_sections:
                continue
            count = merged.get(sec.id, 0)
            allowed = sec.format.allowed
            # (an empty section gets a Swiss choice: round robin of 0 would be -1 rounds)
            if "round_robin" in allowed and (2 <= count <= 4 or "swiss" not in allowed):
                out[sec.id] = {"kind": "round_robin"}
            else:
                rounds = self.spec.rounds or sec.format.rounds or min(sec.format.max_rounds or 7, 7)
                out[sec.id] = {"kind": "swiss", "rounds": rounds}
        return out

    async def check_in_and_close(self, stage_id: str) -> StageRun:
        first_day, _ = self._stage_days(stage_id)
        moment = _local(self.config, first_day - timedelta(days=1), 10)
        await self.clock.set(moment)
        self.clock_moves.append(f"check-in {stage_id} {moment.isoformat()}")
        entries = await self.entries(stage_id)
        ids = sorted(e["entry_id"] for e in entries if e.get("status") in PLAYING)
        counts = field_counts(entries, PLAYING, self.unpaid)
        body = {
            "entry_ids": ids,
            "no_show": [],
            "documents_shown": list(self.config.check_in.documents),
            "insurance_refs": {i: f"policy-{i}" for i in ids},
        }
        await self.p.post("registration", f"/v1/events/{self.code}/stages/{stage_id}/check-in", body, role="arbiter")
        choices = self.format_choices(stage_id, counts)
        closed = await self.p.post(
            "registration", f"/v1/events/{self.code}/stages/{stage_id}/close", {"format_choices": choices}
        )
        run = StageRun(stage_id, list(closed.get("sections", [])))
        self.stages.append(run)
        for s in run.sections:
            self.progress.log(
                f"  {stage_id}/{s.get('section_id')}: {s.get('status')}"
                + (f" into {s.get('merged_into')}" if s.get("merged_into") else "")
                + f" ({s.get('entrants', '?')} entrants)"
            )
        start = stage_start(self.config, stage_id, _local(self.config, first_day, 9))  # EVT-7
        await self.clock.set(start)
        self.clock_moves.append(f"start {stage_id} {start.isoformat()}")
        return run

    def played_sections(self, run: StageRun) -> list[str]:
        return sorted(s["section_id"] for s in run.sections if s.get("status") in ("ready", "closed", "running"))

    # ------------------------------------------------------------------ playing

    async def pairing_sections(self) -> list[dict[str, Any]]:
        answer = await self.p.get("pairing", f"/v1/events/{self.code}/sections")
        return answer.get("sections", [])

    async def active_games(self) -> list[dict[str, Any]]:
        games = await all_games(self.p, {"event_code": self.code, "status": "active"})
        return sorted(games, key=lambda g: g["game_id"])

    async def sweep_bots(self, games: list[dict[str, Any]]) -> tuple[int, list[GameView]]:
        """One action at most per game. Returns (actions taken, views of games nobody acts in)."""
        stalled: list[GameView] = []
        acted = 0
        sem = asyncio.Semaphore(max(1, self.spec.concurrency))
        earliest = earliest_start(games)

        async def one(game: dict[str, Any]) -> None:
            nonlocal acted
            async with sem:
                gid = game["game_id"]
                if over_the_board(game):
                    if await at_round_start(self.clock, game, earliest):  # EVT-7: slots start together
                        await self.venue.step(gid)
                        acted += 1
                    return
                cached = self.views.get(gid)
                if cached is not None and cached[0] == game.get("seq") and not self.spec.verify_views:
                    view = cached[1]
                else:
                    raw = await self.p.get("gameplay", f"/v1/games/{gid}")
                    view = GameView.from_api(raw)
                    if cached is not None and cached[0] == raw.get("seq") and self.spec.verify_views:
                        _same_view(cached[1], view)
                    self.views[gid] = (raw.get("seq"), view)
                if view.over:
                    self.views.pop(gid, None)
                    return
                for player in sorted(set(view.players)):
                    action = bot_action(game, view, player, self.spec.policy, self.spec.seed, self.clock.current)
                    if action is None:
                        continue
                    key = f"{view.game_id}:{len(view.moves)}:{action.verb}:{player}:{view.phase}:{view.draw_offer_by}"
                    try:
                        summary = await self.p.post(
                            "gameplay",
                            f"/v1/games/{view.game_id}/{action.verb}",
                            action.body,
                            role="partner",
                            idempotency_key=hashlib.sha1(key.encode()).hexdigest(),
                        )
                        self.views[gid] = (summary.get("seq"), predict_view(view, player, action, summary))
                    except ApiError as exc:
                        self.views.pop(gid, None)
                        self.conflicts[exc.code] = self.conflicts.get(exc.code, 0) + 1
                        # the game changed under us (flag fell, opponent resigned): look again next sweep
                        if exc.status != 409:
                            raise RuntimeError(f"bot action refused in {view.game_id}: {action} -> {exc}") from exc
                    acted += 1
                    return
                stalled.append(view)

        if self.spec.concurrency > 1:
            await asyncio.gather(*(one(g) for g in games))
        else:
            for g in games:
                await one(g)
        stalled.sort(key=lambda v: v.game_id)
        return acted, stalled

    async def next_due_step(self, stalled: list[GameView], section_rules: Mapping[str, int]) -> float:
        """Seconds to the earliest flag fall or no-show among games nobody acts in."""
        steps: list[float] = []
        for view in stalled:
            answer = await self.p.get("gameplay", f"/v1/games/{view.game_id}")
            step = due_step(answer, self.clock.current, section_rules)  # EVT-7: a round's start too
            if step is not None:
                steps.append(step)
        return min(steps) if steps else 60.0

    async def advance_stalled(
        self, games: list[dict[str, Any]], no_show: Mapping[str, int], step_factor: float = 1.0
    ) -> None:
        """Move the clock to the next flag fall / no-show of the games nobody acts in, then
        let gameplay judge them (POST /v1/ops/sweep)."""
        async with self.clock.lock:  # no service restarts between this decision and the move
            await self.quiet()
            acted, stalled = await self.sweep_bots(await self.active_games())
            if acted:  # a game appeared since the last look: play it before time moves
                self.actions += acted
                return
            if not stalled:
                return
            step = await self.next_due_step(stalled, no_show) * step_factor
            step = capped_at_next_start(step, await self.active_games(), self.clock.current)
            moment = await self.clock.advance(step)
            self.clock_moves.append(f"advance {step:.0f}s -> {moment.isoformat()}")
            await self.p.post("gameplay", "/v1/ops/sweep", {})
            # gameplay's own sweeper (a background loop polling every 0.25 s of real time) may
            # be judging the same games: let it finish before anything else is looked at
            await asyncio.sleep(0.3)
            await self.quiet()

    async def settle_games(self, no_show: Mapping[str, int] | None = None, max_sweeps: int = 100000) -> None:
        """Play every active game of the event to its end (bots, then the clock)."""
        no_show = no_show or {}
        factor = 1.0
        for _ in range(max_sweeps):
            games = await self.active_games()
            if not games:
                await self.quiet()
                if not await self.active_games():
                    return
                continue
            acted, _ = await self.sweep_bots(games)
            self.actions += acted
            if acted:
                factor = 1.0
                continue
            await self.quiet()
            if await self._actionable():
                continue
            await self.advance_stalled(await self.active_games(), no_show, factor)
            factor = min(factor * 2, 500.0)
        raise StuckError(f"games of {self.code} still active after {max_sweeps} sweeps")

    async def handle_ties(self, sections: list[dict[str, Any]]) -> int:
        """PAIR-8: a tie left for the arbiter (SZ online qualification cut) is decided in the
        order the pairing service lists the players (deterministic)."""
        decided = 0
        for s in sections:
            if s.get("status") != "awaiting_arbiter":
                continue
            sid = s["section_id"]
            ties = await self.p.get("pairing", f"/v1/events/{self.code}/sections/{sid}/ties", role="arbiter")
            for tie in ties.get("ties", []):
                if tie.get("decided") or tie.get("status") == "decided":
                    continue
                order = tie.get("entrant_ids") or [e.get("entrant_id") for e in tie.get("entrants", [])]
                await self.p.post(
                    "pairing",
                    f"/v1/events/{self.code}/sections/{sid}/ties/{tie['tie_id']}/decision",
                    {"order": sorted(order)},
                    role="arbiter",
                )
                decided += 1
        return decided

    async def play(self, stage_id: str, section_ids: list[str]) -> None:
        """Sweep games until every section of the stage is completed (or cancelled)."""
        no_show = {s.id: (s.no_show_minutes or 15) for s in self.config.stage(stage_id).sections}
        step_factor = 1.0
        idle_rounds = 0
        idle_since = time.monotonic()
        while True:
            self._check_deadline(f"playing stage {stage_id}")
            games = await self.active_games()
            acted, stalled = await self.sweep_bots(games) if games else (0, [])
            self.actions += acted
            if self.progress.due():
                sections = [s for s in await self.pairing_sections() if s.get("section_id") in section_ids]
                done_rounds = sum(
                    int(s.get("current_round") or 0) - (0 if s.get("status") == "completed" else 1) for s in sections
                )
                total_rounds = sum(int(s.get("rounds") or 0) for s in sections)
                self.progress.show(stage_id, max(0, done_rounds), total_rounds, len(games), self.actions)
            if acted:
                idle_rounds = 0
                step_factor = 1.0
                continue
            # no bot can act: let the services finish what is in flight
            await self.quiet()
            if await self._actionable():
                continue
            sections = [
                s
                for s in await self.pairing_sections()
                if s.get("section_id") in section_ids or s.get("stage") == stage_id
            ]
            if await self.handle_ties(sections):
                continue
            waiting = [s for s in sections if s.get("status") not in ("completed", "cancelled")]
            known = {s.get("section_id") for s in sections}
            missing = [s for s in section_ids if s not in known]
            if not waiting and not missing:
                return
            games = await self.active_games()
            if games:
                # only stalled games are left (no-shows, players letting their clock run out)
                await self.advance_stalled(games, no_show, step_factor)
                step_factor = min(step_factor * 2, 500.0)
                continue
            idle_rounds += 1
            if idle_rounds == 1:
                idle_since = time.monotonic()
            else:
                await asyncio.sleep(min(0.05 * idle_rounds, 0.5))
            if time.monotonic() - idle_since > self.spec.wait_timeout_s:
                raise StuckError(
                    f"timed out waiting for the services to pair the next round or complete "
                    f"sections {sorted(str(s.get('section_id')) for s in waiting) + missing} "
                    f"(statuses {[(s.get('section_id'), s.get('status')) for s in waiting]})"
                )

    async def _actionable(self) -> bool:
        for game in await self.active_games():
            if over_the_board(game):
                return True  # something always happens at the board (a step, or the slip)
            view = GameView.from_api(await self.p.get("gameplay", f"/v1/games/{game['game_id']}"))
            if any_action(game, view, self.spec.policy, self.spec.seed, self.clock.current):
                return True
        return False

    # ------------------------------------------------------------------ awards and next stage

    async def awards_status(self) -> dict[str, Any]:
        try:
            return await self.p.get("awards", f"/v1/events/{self.code}")
        except ApiError as exc:
            if exc.status == 404:
                return {"sections": []}
            raise

    async def wait_awards(self, section_ids: list[str]) -> None:
        async def probe() -> bool:
            st = await self.awards_status()
            published = {s["section_id"] for s in st.get("sections", []) if s.get("publication_revision")}
            return all(s in published for s in section_ids)

        await self.wait_for(f"awards.published for sections {section_ids}", probe)

    async def stage_status(self, stage_id: str) -> dict[str, Any]:
        return await self.p.get("registration", f"/v1/events/{self.code}/stages/{stage_id}")

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


def _same_view(predicted: GameView, actual: GameView) -> None:
    fields = (
        "status",
        "phase",
        "moves",
        "black",
        "white",
        "to_act",
        "joined",
        "forbidden",
        "draw_offer_by",
        "n",
        "offers",
        "opening_code",
    )
    diff = {
        f: (getattr(predicted, f), getattr(actual, f)) for f in fields if getattr(predicted, f) != getattr(actual, f)
    }
    if diff:
        raise AssertionError(f"predicted view of {actual.game_id} differs from the server's: {diff}")
