"""Refusals as answers: a game rule's refusal (``domain.errors``) is a 409, 422 or 403 with the
error body every service uses. The entry points answer with these; the service layer needs
them too, to store a refusal it commits (a flag fall) under the action's Idempotency-Key."""

from __future__ import annotations

from typing import Any

from gomoku_shared.errors import Conflict, Forbidden, ServiceError, Unprocessable, error_body
from gomoku_shared.idempotency import REPLAYED_HEADER, Stored

from ..domain.errors import GameRefusal

_ANSWERS: dict[str, type[ServiceError]] = {"conflict": Conflict, "invalid": Unprocessable, "forbidden": Forbidden}


def as_service_error(refusal: GameRefusal) -> ServiceError:
    return _ANSWERS[refusal.kind](refusal.code, refusal.message, refusal.details)


def stored_answer(refusal: GameRefusal) -> tuple[int, dict[str, Any]]:
    """(status, body) of a refusal, as kept under an Idempotency-Key."""
    error = as_service_error(refusal)
    return error.status, error_body(error.code, error.message, error.details)


def replay(stored: Stored) -> dict[str, Any]:
    """A stored answer again: the summary marked ``_replayed``, or the stored refusal raised
    with the replay header."""
    if stored.status != 200:
        error = stored.body["error"]
        raise ServiceError(
            error["code"],
            error["message"],
            error.get("details"),
            status=stored.status,
            headers={REPLAYED_HEADER: "true"},
        )
    return {**stored.body, "_replayed": True}
