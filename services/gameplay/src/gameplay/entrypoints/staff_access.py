"""Issue 29: every staff route of the gameplay service names its action (``gomoku_shared.staff_roles``)
and is authorised in the event of the game in its path: the organisation's staff in their roles
(a recorder records and enters slips, nothing else), an arbiter's API key in its own organisation,
the platform operator's keys everywhere. The game's event comes from this process's map of game
ids (one read by primary key the first time a game is named)."""

from __future__ import annotations

from typing import Any

from fastapi import Depends, Request

from gomoku_shared.auth import Principal, require

#: the roles of the staff routes (a staff account is a Principal with the arbiter role)
STAFF = ("arbiter", "operator")
#: the longest game id (``games.game_id``)
GAME_ID_MAX = 200


async def game_event(request: Request) -> str | None:
    """The event code of the game in the path (404 ``game_not_found`` for no such game)."""
    game_id = request.path_params.get("game_id")
    if not game_id or len(game_id) > GAME_ID_MAX:
        return None
    return await request.app.state.games.views.event_of(game_id)


def staff_on_game(action: str) -> Any:
    """The dependency of a staff route acting on the game in its path."""
    return Depends(require(*STAFF, action=action, event=game_event))


def staff_on_event(action: str) -> Any:
    """The dependency of a staff route on the event in its path (``event_code``)."""
    return Depends(require(*STAFF, action=action))


def person(principal: Principal) -> tuple[str, str]:
    """(stable id, display name) of who acts, as stored beside a slip or an exception."""
    return principal.actor_id[:64], principal.actor[:200]


def decided_by(principal: Principal) -> dict[str, str]:
    """Who decided, as logged with an arbiter's decision or time correction."""
    actor_id, actor = person(principal)
    return {"by": actor, "by_id": actor_id}
