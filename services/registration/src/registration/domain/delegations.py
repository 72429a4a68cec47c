"""REG-16 delegations and staff: NY 七(一)(三) — at most N players per delegation, the
previous edition's top finishers outside the quota (checked against the published list where
the event has one), the host may add players with the organiser's approval; NT 六(六), 十(一)4
— one leader and one coach per unit, one more coach for a unit entered in every section, and
a team without a leader names one of its players as acting leader."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gomoku_shared.event_config import EventConfig, UnitRules, place_key

from .model import Application, Decision, Entry, Person, Unit, Verdict


def quota_exemptions(rules: UnitRules, app: Application, members: Sequence[Person]) -> tuple[set[str], list[Decision]]:
    """The players of an application outside the quota, and a decision for each claim: a
    quoted reference exempts when the event keeps no list, else only a listed reference
    whose published name is the player's (otherwise the player counts in the quota)."""
    if not rules.quota_exempt_previous_top:
        return set(), []
    listed = {x.ref: x for x in rules.quota_exempt_list}
    exempt: set[str] = set()
    decisions = []
    for person in members:
        ref = app.quota_exempt_refs.get(person.id)
        if ref is None:
            continue
        entry = listed.get(ref)
        if rules.quota_exempt_list and (entry is None or place_key(entry.name) != place_key(person.name)):
            why = f"{ref!r} is not {person.name}'s place on the list of the previous top {rules.quota_exempt_previous_top}"
            decisions.append(
                Decision("REG-16", "units/quota_exempt_unlisted", Verdict.ADMITTED, why + ": counted", person.id)
            )
            continue
        exempt.add(person.id)
        place = f", place {entry.place}" if entry is not None else ""
        decisions.append(
            Decision(
                "REG-16",
                "units/quota_exempt",
                Verdict.ADMITTED,
                f"outside the quota: previous top {rules.quota_exempt_previous_top} ({ref}{place})",
                person.id,
            )
        )
    return exempt, decisions


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
