"""A season in the simulator (issue 32): seed events played one after the other in one platform,
owned by one organisation and rated, by an overlapping pool of players, so that titles and
ratings accumulate in the organisation's registry of people.

The overlap: every person who entered an earlier event of the season is offered, in the order
they first entered, to the later events' applications — an expected-eligible slot takes the
first pool person not yet entered in this event whose gender and birth date fit the section
(the same name, gender, birth date and ID number: the registry makes them one person). A slot no
pool person fits (a junior section's birth window, a woman's board) keeps its new player, and
the applications that are refused on purpose keep theirs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any, TextIO

from gomoku_shared.staff_roles import DEFAULT_ORGANISATION

from .client import ApiError, Platform
from .driver import EventDriver, RunSpec
from .field import Application, Person

#: the four seed events in date order (NY 2022-08, SZ 2022-10/11, NT 2023-06, DA 2023-08)
SEASON = ("ny-2022", "sz-2022", "nt-2023", "da-2023")
#: the organisation that owns the season's events: the default one, where the simulation's
#: operator and arbiter keys act (an API key holds no role in another organisation's events)
ORGANISATION = DEFAULT_ORGANISATION


def eligible(person: Person, config: Any, section_id: str, gender: str) -> bool:
    """The pool person fits the slot: its gender, and the section's birth window (REG-4, REG-5)."""
    if person.gender != gender:
        return False
    birth = next(s for st in config.stages for s in st.sections if s.id == section_id).birth
    born: date = person.birth_date
    return (birth.born_from is None or born >= birth.born_from) and (birth.born_to is None or born <= birth.born_to)


@dataclass
class Pool:
    """The people who entered the season so far, by ID number, in the order they first entered."""

    people: dict[str, Person] = field(default_factory=dict)

    def share(self, apps: list[Application], config: Any) -> int:
        """Give the applications' slots to pool people where they fit; the number of slots given."""
        taken: set[str] = set()
        shared = 0
        for app in apps:
            if app.expect != "accepted":
                continue  # a refusal on purpose keeps the person it was made for
            for person in app.people:
                match = next(
                    (
                        p
                        for number, p in self.people.items()
                        if number not in taken and eligible(p, config, app.section_id, person.gender)
                    ),
                    None,
                )
                if match is None:
                    continue
                taken.add(match.id_number)
                # the identity is the pool person's; the entry's unit and documents stay the slot's
                person.name, person.birth_date, person.id_number = match.name, match.birth_date, match.id_number
                shared += 1
        return shared

    def remember(self, driver: EventDriver) -> None:
        """Everyone the event accepted joins the pool (a refused application's person does not)."""
        for app in driver.field:
            answer = driver.registrations.get(app.app_id, {})
            if answer.get("status") in ("accepted", "accepted_pending_evidence", "confirmed"):
                for person in app.people:
                    self.people.setdefault(person.id_number, person)


def season_specs(
    seed: int, rounds: int, policy: Any, progress: bool, fields: Mapping[str, dict[str, int] | None] | None = None
) -> list[RunSpec]:
    """The season's runs: ``fields`` names the events (in date order) and their fields (None: the
    demo's scaled-down field); every event rated and owned by the season's organisation."""
    return [
        RunSpec(
            preset_id=preset,
            sizes=sizes,
            seed=seed,
            rounds=rounds,
            policy=policy,
            progress=progress,
            organisation=ORGANISATION,
            overrides={"ratings": {"rated": True}},  # ADR 0012: the events count for the ratings
        )
        for preset, sizes in (fields or dict.fromkeys(SEASON)).items()
    ]


async def play_season(stack: Any, specs: list[RunSpec], out: TextIO) -> list[EventDriver]:
    """Each event in turn, its field sharing the pool's people; every event's own checks hold."""
    pool = Pool()
    drivers = []
    for spec in specs:
        driver = EventDriver(stack.platform, stack.clock, stack.quiet, spec)
        shared = pool.share(driver.field, driver.config)
        slots = sum(len(a.people) for a in driver.field if a.expect == "accepted")
        out.write(f"{spec.code}: {shared} of {slots} players entered an earlier event of the season")
        if pool.people and shared < slots:  # the overlap the sections' eligibility allows, said
            out.write(" (for the others no earlier player is left who fits their gender, birth window or board)")
        out.write("\n")
        out.flush()
        await driver.run()
        pool.remember(driver)
        drivers.append(driver)
    return drivers


async def season_summary(platform: Platform, org: str) -> dict[str, Any]:
    """The latest rating list, and the titles of everyone on it (over HTTP, as anyone reads them)."""
    periods = await _periods(platform, org)
    latest = periods[-1] if periods else None
    rows = (await platform.get("awards", f"/v1/organisations/{org}/ratings/{latest}"))["rows"] if latest else []
    titles = []
    for row in rows:
        record = await platform.get("awards", f"/v1/organisations/{org}/people/{row['person_id']}/titles")
        if record.get("current"):
            titles.append(record)
    events = {}
    for row in rows:
        played = await platform.get("awards", f"/v1/organisations/{org}/people/{row['person_id']}/events")
        events[row["person_id"]] = sorted({s["event_code"] for s in played["sections"]})
    return {"organisation": org, "periods": periods, "period": latest, "rows": rows, "titles": titles, "events": events}


async def _periods(platform: Platform, org: str) -> list[str]:
    """Every period with a list: any list names them all (a month with none answers them too)."""
    try:
        answer = await platform.get("awards", f"/v1/organisations/{org}/ratings/2020-01")
    except ApiError:
        return []
    return list(answer.get("periods", []))


def print_season(summary: dict[str, Any], base_url: str, out: TextIO) -> None:
    org, rows = summary["organisation"], summary["rows"]
    out.write(f"\nThe season of {org}: {len(summary['periods'])} monthly rating lists\n")
    out.write("\nTitles granted (masked names, as published):\n")
    for record in sorted(summary["titles"], key=lambda r: (str(r["since"]), r["person_id"])):
        grants = ", ".join(f"{g['title']} {g['event_code']}/{g['section_id']} #{g['place']}" for g in record["history"])
        out.write(
            f"  {record['name']:<6} {record['person_id']:<20} {record['current']:<4} since {record['since']}  ({grants})\n"
        )
    if not summary["titles"]:
        out.write("  (none)\n")
    out.write(f"\nRating list {summary['period']}, top 10:\n")
    out.write("  #   name      rating     RD  games  events\n")
    for rank, row in enumerate(rows[:10], 1):
        mark = " provisional" if row["provisional"] else ""
        played = ",".join(summary["events"].get(row["person_id"], []))
        out.write(
            f"  {rank:<3} {row['name']:<8} {row['rating']:>6} {row['rd']:>6.1f} {row['games']:>6}  {played}{mark}\n"
        )
    many = [p for p, codes in summary["events"].items() if len(codes) > 1]
    out.write(f"  {len(many)} of {len(rows)} listed people played in more than one event\n")
    # the history worth a look: a titled person who played the most events
    titled = {r["person_id"] for r in summary["titles"]} or set(summary["events"])
    person = max(titled, key=lambda p: (len(summary["events"].get(p, [])), p), default=None)
    out.write("\nThe season's pages (while the demo serves them: --serve keeps them up):\n")
    out.write(f"  rating list   {base_url}/ratings/{org}/{summary['period']}\n")
    if person is not None:
        out.write(f"  a history     {base_url}/people/{org}/{person}\n")
