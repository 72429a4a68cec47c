"""Issue 34: in the unit events (NY, DA, NT: 各单位统一报名) one delegation of the field enters
as a person would, through the delegation door: its leader starts the delegation (no
credential), gets its secret link and submits the unit's whole roster as one document; the
rest of the field enters through the partner key as before. The door's answer is recorded per
application like the partner's, so the run's checks read the same registrations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .field import Application, unit_slug

#: the events whose units enter through the door (their presets open it)
DOOR_PRESETS = frozenset({"ny-2022", "da-2023", "nt-2023"})
#: how many delegations of a run enter through the door
DOOR_UNITS = 1


def door_units(preset_id: str, field: Sequence[Application]) -> set[str]:
    """The units whose whole roster the door takes: every application expected accepted, with
    nothing the roster does not carry (evidence, an annual registration with another unit)."""
    if preset_id not in DOOR_PRESETS:
        return set()
    by_unit: dict[str, list[Application]] = {}
    for app in field:
        if app.unit:
            by_unit.setdefault(app.unit, []).append(app)

    def fits(apps: list[Application]) -> bool:
        return all(
            a.expect == "accepted"
            and not a.evidence
            and set(a.facts) <= {"quota_exempt_ref"}
            and all(p.registered_unit_id in (None, unit_slug(a.unit or "")) for p in a.people)
            for a in apps
        )

    return set(sorted(u for u, apps in by_unit.items() if fits(apps))[:DOOR_UNITS])


def roster_of(unit: str, apps: Sequence[Application]) -> dict[str, Any]:
    """The unit's roster: its leader, then each player once with every section they enter (a
    team's name and the player's board)."""
    people: dict[str, dict[str, Any]] = {}
    for app in apps:
        for board, person in enumerate(app.people, start=1):
            row = people.setdefault(
                person.id_number,
                {
                    "role": "player",
                    "name": person.name,
                    "gender": person.gender,
                    "birth_date": person.birth_date.isoformat(),
                    "id_number": person.id_number,
                    "sections": [],
                    # REG-8: registered with the unit it represents (NT 六(一))
                    "registered_with_unit": person.registered_unit_id is not None,
                },
            )
            chosen: dict[str, Any] = {"section_id": app.section_id}
            if app.kind == "team":
                chosen |= {"team_name": app.unit, "board": board}
            row["sections"].append(chosen)
            if app.facts.get("quota_exempt_ref"):
                row["quota_exempt_ref"] = app.facts["quota_exempt_ref"]
    leader = {"role": "leader", "name": f"{unit}领队"}
    return {"people": [leader, *people.values()], "insurance_policy": f"ins-{unit}"}


async def enter_by_roster(platform: Any, code: str, unit: str, apps: Sequence[Application]) -> dict[str, dict]:
    """The delegation started and its roster submitted; each application's answer by its id."""
    body = {"unit_name": unit, "leader_name": f"{unit}领队", "leader_phone": "13800138000"}
    started = await platform.post("registration", f"/v1/events/{code}/delegations", body, role=None)
    token = {"X-Delegation-Token": started["token"]}
    report = await platform.request(
        "PUT", "registration", "/v1/delegation/roster", role=None, json=roster_of(unit, apps), headers=token
    )
    rows = {(r["section_id"], tuple(r["names"])): r for r in report["rows"]}
    out = {}
    for app in apps:
        row = rows[(app.section_id, tuple(p.name for p in app.people))]
        out[app.app_id] = {k: row.get(k) for k in ("status", "entry_id", "clause", "reason")}
    return out
