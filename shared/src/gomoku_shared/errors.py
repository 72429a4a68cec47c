"""One error shape for every service: {"error": {"code", "message", "details"}}."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refusal the client can act on. Maps to a 4xx response with a stable ``code``."""

    status = 400

    def __init__(
        self,
        code: str,
        message: str,
        details: Any = None,
        *,
        status: int | None = None,
        headers: dict[str, str] | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details
        #: extra response headers (e.g. Idempotent-Replayed on a replayed refusal)
        self.headers = headers
        if status is not None:
            self.status = status


class NotFound(ServiceError):
    status = 404


class Conflict(ServiceError):
    status = 409


class Unprocessable(ServiceError):
    status = 422


class Forbidden(ServiceError):
    status = 403


class RuleRefused(Exception):
    """A domain rule's refusal (no HTTP in it): ``code`` names the rule broken; ``conflict`` says
    it clashes with the present state (409) rather than being malformed (422)."""

    def __init__(self, code: str, message: str, *, conflict: bool = False) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.conflict = conflict

    def as_service_error(self) -> ServiceError:
        """The refusal a service answers with: 409 for a conflict, else 422."""
        return (Conflict if self.conflict else Unprocessable)(self.code, self.message)


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}
