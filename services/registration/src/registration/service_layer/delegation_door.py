"""Issue 34: the delegation door (NY 七(一)(三), DA 十(一)1, NT 十(一): 各单位统一报名). A unit's
leader starts a delegation (the unit, their contact) and gets a secret link; by it they submit
the whole roster as one document: leader, coaches, players with their sections (a team's name
and fixed boards, REG-9), exemption claims (REG-16, NY 七(三)), lodging and optional services per
person (DA 十一(一), 十二).

The roster is judged by the use case partners use (`entries.submit`: quota, exemptions checked
against the list, eligibility, windows; `add_official`: REG-3's officials), all or nothing: a
refused row keeps nothing and the answer says which row and why. A later submission before the
close of registration replaces the roster: the entries of rows it drops are withdrawn (REG-10),
those it keeps stay as they are, new rows are judged. After the close the roster is fixed
(409 ``roster_closed``): changes go through the changes process (REG-10) with the organiser.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gomoku_shared.errors import Conflict, Forbidden, NotFound, Unprocessable

from ..adapters import repository as repo
from ..domain import Entry, EntryStatus, RegistrationError
from ..domain.rosters import Booking, check_booking
from . import entries, secret_links
from . import forms as r
from . import forms as s
from .command import EventCommand
from .rendering import status_clause, status_name
from .secret_links import Attempt

#: why a row's entry left the roster (REG-10 asks a reason and, where configured, a proof)
AMENDED = "removed from the delegation's roster by its leader before the close of registration"
AMENDED_PROOF = "the delegation's amended roster"


@dataclass
class DryRun(Exception):
    """A roster checked without submitting: the transaction rolls back, the report is answered."""

    report: dict[str, Any]


def door_open(cmd: EventCommand) -> None:
    if not cmd.config.registration.public_delegations.open:
        raise Forbidden("delegations_closed", "this event does not take delegations through the roster door")


async def start(cmd: EventCommand, body: r.DelegationStartIn) -> dict[str, Any]:
    """A new unit with its leader's contact, and the delegation's secret link (shown once)."""
    door_open(cmd)
    if body.website:  # the hidden field: people never fill it in
        raise Unprocessable("challenge_failed", "the form was not filled in by a person")
    window = cmd.config.registration
    if cmd.now >= window.closes_at:
        raise Conflict("roster_closed", "registration has closed: ask the organiser (changes process)")
    if await cmd.uow.delegation_links.count(cmd.code) >= window.public_delegations.cap:
        raise Conflict("delegations_full", "the event has taken as many delegations through the door as it can")
    if any(row.name == body.unit_name for row in cmd.units.values()):
        raise Conflict("delegation_exists", f"{body.unit_name} is registered already: use its link")
    unit = await cmd.create_unit(s.UnitIn(name=body.unit_name, kind="delegation", region=body.region))
    token = await secret_links.issue(cmd, secret_links.DELEGATION, unit.id, body.leader_phone)
    return {"token": token, "event_code": cmd.code, "unit_name": unit.name, "leader_name": body.leader_name}


async def reissue(cmd: EventCommand, unit_id: str, body: s.ReissueIn) -> dict[str, Any]:
    """The organiser gives a delegation's leader a new link (a lost or leaked one); the old one
    stops working at once. The roster, the entries and the leader's contact stay as they are."""
    del body  # the platform's common (empty) body
    unit = cmd.units.get(unit_id)
    if unit is None:
        raise NotFound("unknown_unit", f"no unit {unit_id!r}")
    token = await secret_links.relink(cmd, secret_links.DELEGATION, unit_id)
    return {"token": token, "unit_id": unit_id, "unit_name": unit.name}


async def link_of(repos: Any, token: str, attempt: Attempt) -> Any:
    """The delegation a secret link proves; 404 for any other string (guesses throttled)."""
    return await secret_links.verify(repos, secret_links.DELEGATION, token, attempt)


# ---- the roster


@dataclass(frozen=True)
class Application:
    """One entry the roster makes: an individual player in a section, or a team in board order."""

    section_id: str
    rows: tuple[int, ...]
    team_name: str | None = None

    def key(self, person_ids: Sequence[str], refs: Sequence[str | None]) -> str:
        """What makes it the same entry in an amended roster: section, team, people and claims."""
        people = ",".join(f"{person_ids[i]}:{refs[i] or ''}" for i in self.rows)
        return f"{self.section_id}|{self.team_name or ''}|{people}"


def applications(cmd: EventCommand, body: r.RosterIn) -> list[Application]:
    """The roster's entries: each player's individual sections, and its teams (members by board)."""
    singles: list[Application] = []
    teams: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for index, person in enumerate(body.people):
        for chosen in person.sections:
            try:
                section = cmd.config.section(chosen.section_id)
            except KeyError:
                raise Unprocessable("unknown_section", f"{person.name}: no section {chosen.section_id!r}") from None
            if section.kind == "team":
                if not chosen.team_name or chosen.board is None:
                    raise Unprocessable("roster_team_incomplete", f"{person.name}: a team section needs team and board")
                teams.setdefault((section.id, chosen.team_name), []).append((chosen.board, index))
            else:
                singles.append(Application(section.id, (index,)))
    out = list(singles)
    for (section_id, team_name), members in teams.items():
        boards = [b for b, _ in members]
        if len(set(boards)) != len(boards):
            raise Unprocessable("roster_team_incomplete", f"team {team_name}: two players on one board")
        out.append(Application(section_id, tuple(i for _, i in sorted(members)), team_name))
    return out


def _officials(body: r.RosterIn) -> list[tuple[str, str]]:
    return [(p.role, p.name) for p in body.people if p.role != "player"]


def _check_people(cmd: EventCommand, body: r.RosterIn) -> None:
    for person in body.people:
        try:
            check_booking(cmd.config, Booking(person.name, person.role, person.room, person.nights, person.services))
        except RegistrationError as exc:
            raise Unprocessable("roster_booking_invalid", str(exc)) from None
        if person.role == "player" and cmd.config.registration.id_number_required and not person.id_number:
            raise Unprocessable("roster_id_number_required", f"{person.name}: give the player's ID number")
    if not any(p.role == "leader" for p in body.people):
        raise Unprocessable("roster_leader_required", "name the delegation's leader")


async def submit(
    cmd: EventCommand, token: str, attempt: Attempt, body: r.RosterIn, *, dry_run: bool = False
) -> dict[str, Any]:
    """Judge the roster as one application; save it (or, ``dry_run``, answer what it would become)."""
    door_open(cmd)
    link = await link_of(cmd.uow, token, attempt)
    if link.event_code != cmd.code:
        raise NotFound("unknown_delegation_link", "this delegation link is not valid")
    if cmd.now >= cmd.config.registration.closes_at:
        raise Conflict("roster_closed", "registration has closed: changes go through the organiser (changes process)")
    cmd.own_unit = link.unit_id
    unit = cmd.existing_unit(link.unit_id)
    body = await _kept_people(cmd, link, body)
    _check_people(cmd, body)
    apps = applications(cmd, body)
    person_ids = [await _person(cmd, p, unit.id) for p in body.people]
    refs = [p.quota_exempt_ref for p in body.people]
    previous = {row["key"]: row["entry_id"] for row in (link.roster or {}).get("entries", [])}
    wanted = {app.key(person_ids, refs): app for app in apps}
    for key, entry_id in previous.items():  # rows the new roster drops leave it (REG-10)
        entry = cmd.reg.entries.get(entry_id)
        if key not in wanted and entry is not None and entry.status.holds_place:
            await entries.withdraw_entry(cmd, entry, cmd.loaded.meta[entry_id].stage, AMENDED, AMENDED_PROOF)
    made: list[tuple[str, Entry]] = []
    insurance = s.InsuranceIn(confirmed=bool(body.insurance_policy), document_ref=body.insurance_policy)
    for key, app in wanted.items():
        kept = cmd.reg.entries.get(previous.get(key, ""))
        if kept is not None and kept.status not in (EntryStatus.WITHDRAWN, EntryStatus.REFUSED):
            made.append((key, kept))
            continue
        made.append((key, await _enter(cmd, body, app, unit.id, insurance)))
    official_refusals = _name_officials(cmd, unit, body)
    report = _report(cmd, body, apps, made, person_ids, official_refusals)
    if dry_run:
        raise DryRun(report)
    if not report["ok"]:
        raise Unprocessable("roster_refused", report["summary"], {"rows": report["rows"]})
    await cmd.save()
    stored = {
        "entries": [{"key": k, "entry_id": e.id} for k, e in made],
        "people": [_stored_person(p, pid) for p, pid in zip(body.people, person_ids, strict=True)],
    }
    await cmd.uow.delegation_links.save_roster(cmd.code, unit.id, stored, cmd.now)
    return report


async def _kept_people(cmd: EventCommand, link: Any, body: r.RosterIn) -> r.RosterIn:
    """The rows naming a player of the previous roster by ``person_id``, with the details stored
    for them (only this delegation's players: any other id is unknown)."""
    ours = {p["person_id"] for p in (link.roster or {}).get("people", []) if p.get("person_id")}
    wanted = [p.person_id for p in body.people if p.person_id]
    if not wanted:
        return body
    unknown = [pid for pid in wanted if pid not in ours]
    if unknown:
        raise Unprocessable("roster_unknown_person", "a kept player is not one of this delegation's")
    rows = await cmd.uow.people.rows(cmd.code, wanted)
    people = []
    for person in body.people:
        if person.person_id:
            stored = repo.person_from_row(rows[person.person_id], cmd.state.protector, decrypt=True)
            person = dataclasses.replace(
                person,
                name=stored.name,
                gender=stored.gender,
                birth_date=stored.birth_date,
                id_number=stored.id_number.value if stored.id_number else None,
            )
        people.append(person)
    return dataclasses.replace(body, people=people)


def _player_in(person: r.RosterPersonIn, unit_id: str) -> s.PlayerIn:
    assert person.gender is not None and person.birth_date is not None  # the schema asks them of players
    return s.PlayerIn(
        name=person.name,
        gender=person.gender,
        birth_date=person.birth_date,
        id_number=person.id_number,
        registered_unit_id=unit_id if person.registered_with_unit else None,
    )


async def _person(cmd: EventCommand, person: r.RosterPersonIn, unit_id: str) -> str:
    return await cmd.person_for(_player_in(person, unit_id)) if person.role == "player" else ""


async def _enter(
    cmd: EventCommand, body: r.RosterIn, app: Application, unit_id: str, insurance: s.InsuranceIn
) -> Entry:
    people = [body.people[i] for i in app.rows]
    players = [_player_in(p, unit_id) for p in people]
    return await entries.submit(
        cmd,
        section_id=app.section_id,
        stage=None,
        players=players,
        evidence=[[] for _ in people],
        facts=[s.FactsIn(quota_exempt_ref=p.quota_exempt_ref) for p in people],
        insurance=insurance,
        items=None,
        unit_ref=unit_id,
        team_name=app.team_name,
    )


def _name_officials(cmd: EventCommand, unit: Any, body: r.RosterIn) -> list[str]:
    """REG-3: the roster's leader and coaches; the ones named before stay (replacing an official
    named already is a change for the organiser)."""
    named = [(o.role, o.name) for o in cmd.reg.officials if o.unit_id == unit.id]
    wanted = _officials(body)
    dropped = [name for role, name in named if (role, name) not in wanted]
    if dropped:
        raise Conflict("roster_official_fixed", f"{', '.join(dropped)} is named already: ask the organiser to replace")
    refusals = []
    for role, name in wanted:
        if (role, name) in named:
            continue
        decision = cmd.reg.add_official(unit, role, name)
        if decision.refused:
            refusals.append(decision.reason)
    return refusals


def _report(
    cmd: EventCommand,
    body: r.RosterIn,
    apps: Sequence[Application],
    made: Sequence[tuple[str, Entry]],
    person_ids: Sequence[str],
    official_refusals: Sequence[str],
) -> dict[str, Any]:
    rows = []
    for app, (_, entry) in zip(apps, made, strict=True):
        clause, reason = status_clause(entry)
        claims = [
            {"name": body.people[i].name, "clause": d.clause, "reason": d.reason}
            for d in entry.decisions
            if d.rule == "REG-16" and d.clause.startswith("units/quota_exempt")
            for i in app.rows
            if person_ids[i] == d.person_id
        ]
        rows.append(
            {
                "entry_id": entry.id,
                "names": [body.people[i].name for i in app.rows],
                "section_id": app.section_id,
                "team_name": app.team_name,
                "status": status_name(entry),
                "rule": entry.refused_by.rule if entry.refused_by else None,
                "clause": clause,
                "reason": reason,
                "exemptions": claims,
            }
        )
    refused = [
        f"{', '.join(body.people[i].name for i in app.rows)}: {row['reason']}"
        for app, row in zip(apps, rows, strict=True)
        if row["status"] == "refused"
    ]
    ok = not refused and not official_refusals
    summary = "; ".join(refused + list(official_refusals))
    return {"ok": ok, "summary": summary or "accepted", "rows": rows, "officials_refused": list(official_refusals)}


def _stored_person(person: r.RosterPersonIn, person_id: str) -> dict[str, Any]:
    """A roster row as kept: no ID number or birth date (the person record keeps them, encrypted)."""
    return {
        "role": person.role,
        "name": person.name,
        "person_id": person_id or None,
        "sections": [dataclasses.asdict(x) for x in person.sections],
        "quota_exempt_ref": person.quota_exempt_ref,
        "room": person.room,
        "nights": person.nights,
        "services": dict(person.services),
    }


def decision_json(entry: Entry) -> list[dict[str, Any]]:
    return [repo.decision_to_json(d) for d in entry.decisions]
