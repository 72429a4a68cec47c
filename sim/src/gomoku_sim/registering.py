"""The run's steps up to the games: the event created from its preset, units, the field entered
through the partner key (fees recorded), evidence approved by the arbiter, and each stage's
check-in and closing with the arbiter's format choices."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from registration.domain import max_swiss_rounds

from .client import ApiError
from .driver_state import ACCEPTED, PLAYING, DriverState, StageRun, local_moment
from .fees import field_counts, record_fees
from .field import unit_slug, units_of
from .form_entries import by_form, enter_on_form
from .roster_door import door_units, enter_by_roster
from .schedule import stage_start


def fits_round_robin(entrants: int, swiss_rounds: int) -> bool:
    """PAIR-1/PAIR-2: a field whose round robin (PAIR-3) takes no more rounds than the Swiss would
    plays the round robin: a Swiss of that many rounds must pair everyone with everyone anyway."""
    if entrants < 2:
        return False
    return (entrants - 1 if entrants % 2 == 0 else entrants) <= swiss_rounds


class Registering(DriverState):
    """The operator, the partner app and the arbiter before play."""

    async def create_event(self) -> dict[str, Any]:
        reg = self.config.registration
        moment = (reg.opens_at + timedelta(hours=10)) if reg.opens_at else (reg.closes_at - timedelta(days=7))
        await self.clock.set(moment)
        self.clock_moves.append(f"registration {moment.isoformat()}")
        body: dict[str, Any] = {"preset_id": self.spec.preset_id, "event_code": self.code, "overrides": self.overrides}
        if self.spec.organisation:
            body["organisation"] = self.spec.organisation
        try:
            return await self.p.post("registration", "/v1/events", body)
        except ApiError as exc:
            if exc.status == 409:  # created by an earlier attempt of this run
                return await self.p.get("registration", f"/v1/events/{self.code}")
            raise

    async def create_units(self) -> None:
        region = None
        for unit in units_of(self.field):
            if unit in door_units(self.spec.preset_id, self.field):
                continue  # issue 34: its leader starts it through the delegation door
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
        by_door = door_units(self.spec.preset_id, self.field)
        for app in self.field:
            if app.unit in by_door:  # issue 34: the whole delegation as one roster, on its first application
                if app.app_id not in self.registrations:
                    await self._enter_by_roster(app.unit or "")
                continue
            if by_form(self.config, app, len(self.registrations_by_form())):  # issue 34: people (form_entries.py)
                self._keep_registration(app, await enter_on_form(self.p, self.config, self.code, app))
                continue
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
            self._keep_registration(app, res)
        self.form_entrants = {r["entry_id"] for r in self.registrations_by_form()}
        self.unpaid = await record_fees(self.p, self.code, self.spec.preset_id)  # REG-14 (sim.fees)
        accepted = sum(1 for r in self.registrations.values() if r["status"] in ACCEPTED)
        refused = [(k, r["reason"]) for k, r in self.registrations.items() if r["status"] not in ACCEPTED]
        self.progress.log(f"registered {accepted} entries; {len(refused)} refused or pending:")
        for k, why in refused:
            self.progress.log(f"  {k}: {self.registrations[k]['status']} — {why}")

    async def _enter_by_roster(self, unit: str) -> None:
        apps = [a for a in self.field if a.unit == unit]
        answers = await enter_by_roster(self.p, self.code, unit, apps)
        for app in apps:
            self.registrations[app.app_id] = {
                "expect": app.expect,
                "why": app.why,
                **answers[app.app_id],
                "section_id": app.section_id,
            }
        self.progress.log(f"{unit}: {len(apps)} entries through the delegation door")

    def registrations_by_form(self) -> list[dict[str, Any]]:
        return [r for r in self.registrations.values() if r.get("via") == "form"]

    def _keep_registration(self, app: Any, res: Mapping[str, Any]) -> None:
        self.registrations[app.app_id] = {
            "expect": app.expect,
            "why": app.why,
            "status": res.get("status"),
            "entry_id": res.get("entry_id"),
            "clause": res.get("clause"),
            "reason": res.get("reason"),
            "section_id": app.section_id,
            **{k: res[k] for k in ("via", "document") if k in res},  # the form's (form_entries.py)
        }

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

    def _stage_days(self, stage_id: str) -> tuple[Any, Any]:
        st = self.config.stage(stage_id)
        first = min([s.starts_on for s in st.sections if s.starts_on] + [st.starts_on])
        return first, st.ends_on

    def format_choices(self, stage_id: str, counts: Mapping[str, int]) -> dict[str, Any]:
        """The arbiter's format choice per section: round robin for a handful, Swiss otherwise
        (of at most the rounds the field can play at all, PAIR-2), within the preset's
        maximum and the schedule's rounds (PAIR-1, EVT-7)."""
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
            rounds = self.spec.rounds or sec.format.rounds or min(sec.format.max_rounds or 7, 7)
            # PAIR-1 / EVT-7: never more than the preset's maximum or the rounds the schedule starts
            slots = len(self.config.schedule.round_starts(stage_id, sec.id))
            rounds = min(n for n in (rounds, sec.format.max_rounds, slots or None) if n is not None)
            # (an empty section gets a Swiss choice: round robin of 0 would be -1 rounds)
            if "round_robin" in allowed and (
                2 <= count <= 4 or "swiss" not in allowed or fits_round_robin(count, rounds)
            ):
                out[sec.id] = {"kind": "round_robin"}
            else:
                # PAIR-2: no more rounds than the field can play at all (closing refuses more)
                out[sec.id] = {
                    "kind": "swiss",
                    "rounds": min(rounds, max_swiss_rounds(count)) if count >= 2 else rounds,
                }
        return out

    async def check_in_and_close(self, stage_id: str) -> StageRun:
        first_day, _ = self._stage_days(stage_id)
        moment = local_moment(self.config, first_day - timedelta(days=1), 10)
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
        start = stage_start(self.config, stage_id, local_moment(self.config, first_day, 9))  # EVT-7
        await self.clock.set(start)
        self.clock_moves.append(f"start {stage_id} {start.isoformat()}")
        return run

    def played_sections(self, run: StageRun) -> list[str]:
        return sorted(s["section_id"] for s in run.sections if s.get("status") in ("ready", "closed", "running"))
