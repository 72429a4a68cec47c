"""Who is who on a section's pages: its entrants by id and, in a team section, every team's
players by their player id (the games name players, not teams), each with their team and board."""

from __future__ import annotations

from typing import Any


def by_id(section: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Entrants by entrant id; a team's members (pairing's ``members``, PAIR-9) by player id with
    the team as their unit, so every page that names a game's players names them with their team."""
    names: dict[str, dict[str, Any]] = {}
    for entrant in (section or {}).get("entrants", []):
        names[entrant["entrant_id"]] = entrant
        for member in entrant.get("members") or []:
            names[member["player_id"]] = {
                "name": member["name"],
                "unit": entrant["name"],
                "board": member["board"],
                "team": entrant["entrant_id"],
                "team_name": entrant["name"],
                # issue 32: the registry person, for their title beside their name (``held_titles``)
                **({"registry_id": member["registry_id"]} if member.get("registry_id") else {}),
            }
    return names
