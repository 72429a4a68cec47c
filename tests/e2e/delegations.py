"""Issue 34: the unit events' e2e runs enter one delegation through the delegation door (the
bots as people): its roster submitted once, each of its applications answered as expected."""

from __future__ import annotations

from typing import Any

from gomoku_sim.roster_door import door_units


def assert_one_delegation_by_roster(driver: Any, summary: dict[str, Any]) -> None:
    units = door_units(driver.spec.preset_id, driver.field)
    assert len(units) == 1, units
    routes = driver.p.by_route
    assert routes["POST registration /v1/events/{}/delegations"] == 1
    assert routes["PUT registration /v1/delegation/roster"] == 1
    regs = summary["registrations"]
    apps = [a for a in driver.field if a.unit in units]
    assert apps and all(regs[a.app_id]["status"] == a.expect == "accepted" for a in apps)
