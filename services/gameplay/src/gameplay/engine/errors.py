"""Domain exceptions of the engine: a machine-readable ``code`` plus a human message."""
from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse (move out of turn, occupied point, bad opening step...).

    ``code`` is stable and machine-readable (the service maps it to a 409/422 error body);
    ``message`` explains the refusal to a person; ``details`` carries data such as the foul kind
    or the pair of equivalent offers.
    """

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = details


class ClockError(IllegalAction):
    """A clock operation that is not allowed in the clock's current state."""
