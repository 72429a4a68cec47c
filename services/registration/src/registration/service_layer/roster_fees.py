"""Issue 34: the delegations' rosters as the fee ledger charges them (REG-14, DA 十一(一)):
each person's room and nights, each service's uses."""

from __future__ import annotations

from typing import Any

from ..adapters.repositories import Repositories
from ..domain.rosters import Booking
from .unit_of_work import RegistrationUnitOfWork


def bookings_of(roster: dict[str, Any] | None) -> list[Booking]:
    return [
        Booking(
            p["name"],
            p["role"],
            p.get("room"),
            int(p.get("nights") or 0),
            dict(p.get("services") or {}),
            p.get("person_id") or None,
        )
        for p in (roster or {}).get("people", [])
    ]


async def load_rosters(repos: Repositories | RegistrationUnitOfWork, code: str) -> dict[str, list[Booking]]:
    """unit id -> its roster's bookings, for the delegations that submitted one."""
    return {unit_id: bookings_of(roster) for unit_id, roster in (await repos.delegation_links.rosters(code)).items()}
