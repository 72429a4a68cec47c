"""REG-16 delegations and staff: NY 七(一)(三) — at most N players per delegation, the
previous edition's top finishers outside the quota (checked against the published list where
the event has one, else against the list the organiser loaded: domain.previous_top), the host may add players with the organiser's approval; NT 六(六), 十(一)4
— one leader and one coach per unit, one more coach for a unit entered in every section, and
a team without a leader names one of its players as acting leader. Also REG-3's unit rules:
entries through units or alone, the delegation quota, and the officials a unit may name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from gomoku_shared.event_config import EventConfig, QuotaExemption, UnitRules, place_key

from .errors import RegistrationError
from .model import Application, Decision, Entry, Person, Unit, Verdict
from .previous_top import PreviousTop


def quota_exemptions(
    rules: UnitRules, app: Application, members: Sequence[Person], previous_top: PreviousTop | None = None
) -> tuple[set[str], list[Decision]]:
    """The players of an application outside the quota, and a decision for each claim. A claim
    is checked against a list, never taken on trust: the event's published list where its
    configuration keeps one (the quoted reference and the player's name), else the list the
    organiser loaded (`previous_top`: the same person, placed within the top N). A claim the
    list does not support, or made while no list is loaded, counts in the quota and says why."""
    top = rules.quota_exempt_previous_top
    if not top:
        return set(), []
    listed = {x.ref: x for x in rules.quota_exempt_list}
    exempt: set[str] = set()
    decisions = []
    for person in members:
        ref = app.quota_exempt_refs.get(person.id)
        if ref is None:
            continue
        if rules.quota_exempt_list:
            decision = _against_published(top, listed, ref, person)
        else:
            decision = judge_claim(
                top, previous_top, person, app.id_keys.get(person.id), app.registry_ids.get(person.id)
            )
        if decision.clause == "units/quota_exempt":
            exempt.add(person.id)
        decisions.append(decision)
    return exempt, decisions


def _against_published(top: int, listed: dict[str, QuotaExemption], ref: str, person: Person) -> Decision:
    entry = listed.get(ref)
    if entry is None or place_key(entry.name) != place_key(person.name):
        why = f"{ref!r} is not {person.name}'s place on the list of the previous top {top}"
        return Decision("REG-16", "units/quota_exempt_unlisted", Verdict.ADMITTED, why + ": counted", person.id)
    return Decision(
        "REG-16",
        "units/quota_exempt",
        Verdict.ADMITTED,
        f"outside the quota: previous top {top} ({ref}, place {entry.place})",
        person.id,
    )


def judge_claim(
    top: int, previous_top: PreviousTop | None, person: Person, id_key: str | None, registry_id: str | None = None
) -> Decision:
    """One player's claim against the loaded list (`id_key`: the keyed index of their ID number)
    and the previous edition's recorded places (`registry_id`: the registry person they are)."""
    if previous_top is None:
        return Decision(
            "REG-16",
            "units/quota_exempt_no_list",
            Verdict.ADMITTED,
            f"exemption claimed: no list of the previous top {top} is loaded: counted in the quota",
            person.id,
            (("top", top),),
        )
    edition = previous_top.edition
    line = previous_top.place_of(person, top, id_key, registry_id)
    if line is None:
        return Decision(
            "REG-16",
            "units/quota_exempt_unlisted",
            Verdict.ADMITTED,
            f"exemption claimed: not on the list of {edition}'s top {top}: counted in the quota",
            person.id,
            (("edition", edition), ("top", top)),
        )
    return Decision(
        "REG-16",
        "units/quota_exempt",
        Verdict.ADMITTED,
        f"outside the quota: place {line.place} in {line.edition or edition}'s {line.section} (top {top})",
        person.id,
        (("edition", line.edition or edition), ("place", line.place), ("section", line.section), ("top", top)),
    )


def units_without_leader(
    config: EventConfig, entries: Iterable[Entry], officials: Iterable[tuple[str, str]], units: dict[str, Unit]
) -> list[Decision]:
    """NT 十(一)4 (如参赛队伍没有领队，则须指派一名选手兼任领队): each unit with a team entry and
    neither a leader nor an acting leader, as a decision to settle before the close."""
    if not config.units.player_may_act_as_leader:
        return []
    led = {unit_id for unit_id, role in officials if role in ("leader", "acting_leader")}
    teams = {
        e.unit_id for e in entries if e.unit_id and e.status.holds_place and config.section(e.section_id).kind == "team"
    }
    return [
        Decision(
            "REG-16",
            "units/acting_leader",
            Verdict.PENDING,
            f"{units[uid].name if uid in units else uid} has no leader: it names one of its players as acting leader",
        )
        for uid in sorted(teams - led)
    ]


def check_unit(
    rules: UnitRules,
    app: Application,
    unit: Unit | None,
    members: Sequence[Person],
    quota_players: Callable[[str], set[str]],
    previous_top: PreviousTop | None = None,
) -> list[Decision]:
    """REG-3: individual vs unit entries, delegation quota (NY 20, previous top-8 exempt);
    `quota_players(unit_id)`: the players already counted against the unit's quota;
    `previous_top`: the list of the previous edition's places the organiser loaded."""
    if app.unit_id is None:
        if not rules.individual_entries_allowed:
            return [
                Decision("REG-3", "units/individual", Verdict.REFUSED, "this event accepts entries through units only")
            ]
        return [Decision("REG-3", "units/individual", Verdict.ADMITTED, "individual entry")]
    if unit is None:
        raise RegistrationError(f"unit {app.unit_id!r} not given")
    out = [Decision("REG-3", "units/unit", Verdict.ADMITTED, f"entered through {unit.name}")]
    if rules.delegation_max_players is not None:
        exempt, claims = quota_exemptions(rules, app, members, previous_top)
        out.extend(claims)
        counted = quota_players(unit.id) | {p.id for p in members if p.id not in exempt}
        if len(counted) > rules.delegation_max_players:
            msg = f"{unit.name} would have {len(counted)} players in its quota (max {rules.delegation_max_players})"
            if unit.is_host and rules.host_may_exceed_quota:
                out.append(
                    Decision(
                        "REG-3",
                        "units/quota_host",
                        Verdict.PENDING,
                        msg + "; host delegation: needs the organiser's approval",
                    )
                )
            else:
                out.append(Decision("REG-3", "units/quota", Verdict.REFUSED, msg))
    return out


@dataclass(frozen=True)
class Official:
    unit_id: str
    role: str  # leader | coach | acting_leader
    name: str
    person_id: str | None = None


def judge_official(
    config: EventConfig,
    officials: Sequence[Official],
    entries: Iterable[Entry],
    delegation: set[str],
    unit: Unit,
    role: str,
    name: str,
    person_id: str | None,
) -> Decision:
    """REG-3: may the unit name `name` as its leader, coach or acting leader? (NT: +1 coach
    if it enters every team section; an acting leader is one of its players, `delegation`,
    where it has no leader.) Admitted: the official may be added."""
    rules = config.units
    have = [o for o in officials if o.unit_id == unit.id and o.role == role]
    if role == "leader":
        limit = rules.max_leaders
    elif role == "coach":
        limit = rules.max_coaches
        teams = config.team_sections()
        entered = {e.section_id for e in entries if e.unit_id == unit.id and e.status.holds_place}
        if rules.extra_coaches_if_all_team_sections and teams and all(s.id in entered for s in teams):
            limit += rules.extra_coaches_if_all_team_sections
    elif role == "acting_leader":
        if not rules.player_may_act_as_leader:
            return Decision("REG-3", "units/officials", Verdict.REFUSED, "no acting leaders in this event")
        if any(o.unit_id == unit.id and o.role == "leader" for o in officials):
            return Decision("REG-3", "units/officials", Verdict.REFUSED, f"{unit.name} has a leader")
        if person_id is None or person_id not in delegation:
            return Decision(
                "REG-3", "units/officials", Verdict.REFUSED, "the acting leader must be one of the unit's players"
            )
        limit = 1
    else:
        raise RegistrationError(f"unknown role {role!r}")
    if len(have) >= limit:
        return Decision(
            "REG-3",
            f"units/{role}",
            Verdict.REFUSED,
            f"{unit.name} already has {len(have)} {role}(s) (max {limit})",
        )
    return Decision("REG-3", f"units/{role}", Verdict.ADMITTED, f"{name} is {unit.name}'s {role}")


def claims_judged_again(
    entry: Entry,
    top: int,
    previous_top: PreviousTop,
    people: dict[str, Person],
    id_keys: dict[str, str],
    registry_ids: Mapping[str, str] | None = None,
) -> Entry:
    """REG-16 (NY 七(三)): an entry's exemption claims judged again against a newly loaded list
    (the entry as it was where nothing changes). Only the exemption changes: a player the list
    now supports leaves the quota; one it no longer supports counts again, the decision says so."""
    decisions = list(entry.decisions)
    exempt = set(entry.quota_exempt)
    for index, old in enumerate(decisions):
        pid = old.person_id
        if old.rule != "REG-16" or not old.clause.startswith("units/quota_exempt") or pid not in people:
            continue
        decisions[index] = judge_claim(top, previous_top, people[pid], id_keys.get(pid), (registry_ids or {}).get(pid))
        exempt.discard(pid)
        if decisions[index].clause == "units/quota_exempt":
            exempt.add(pid)
    return replace(entry, decisions=tuple(decisions), quota_exempt=frozenset(exempt))
