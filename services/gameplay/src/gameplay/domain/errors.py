"""Refusals of the game rules. The domain knows no HTTP: each refusal says only what kind it is
(a conflict with the game's state, an action that is not valid, an actor without the right);
the service layer and the entry points turn them into the 409 / 422 / 403 answers."""

from __future__ import annotations

from typing import Any


class GameRefusal(Exception):
    """An action the game's rules refuse: a stable ``code``, a message, optional details."""

    #: conflict (the game's state forbids it) | invalid (the action itself is wrong) | forbidden
    kind = "conflict"

    def __init__(self, code: str, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


class GameConflict(GameRefusal):
    kind = "conflict"


class InvalidAction(GameRefusal):
    kind = "invalid"


class NotPermitted(GameRefusal):
    kind = "forbidden"


def game_over(result: str | None, reason: str | None, winner: str | None) -> GameConflict:
    """Any action on a finished game (decided by play, the clock, a no-show or an arbiter)."""
    how = "decided by the arbiter" if reason == "arbiter" else "over"
    return GameConflict(
        "game_over",
        f"the game is {how} ({result}, {reason}): no action can change it",
        {"result": result, "reason": reason, "winner": winner},
    )


class AlreadyRecorded(Exception):
    """A port's error, not a rule's: a write met a row stored meanwhile under the same key (a
    concurrent action took the same log index, a concurrent retry stored the same
    Idempotency-Key). The adapters raise it in place of the database's error; the service layer
    judges the action again on the stored state."""
