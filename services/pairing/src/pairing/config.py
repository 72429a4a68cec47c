"""Settings of the pairing service: the shared ones (:class:`gomoku_shared.settings.ServiceSettings`)
and its own, read once by the composition root (the README's settings table lists them)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from gomoku_shared.settings import ServiceSettings


class PairingSettings(ServiceSettings):
    #: pair sections in a pool of this many worker processes (0: in the service's own process)
    pairing_workers: int = Field(default=0, ge=0, le=64, alias="PAIRING_WORKERS")

    @field_validator("pairing_workers", mode="before")
    @classmethod
    def _empty_is_default(cls, value: Any) -> Any:
        return 0 if value == "" else value

    @classmethod
    def from_shared(cls, settings: ServiceSettings) -> PairingSettings:
        """The pairing settings of a process started with ``settings``: those values, and the
        pairing service's own read from the environment now (once, by the composition root)."""
        if isinstance(settings, cls):
            return settings
        return cls(**settings.model_dump(by_alias=True))
