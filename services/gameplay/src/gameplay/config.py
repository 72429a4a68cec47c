"""Every setting of the gameplay service, read once, here (documented in the README's settings
table). The shared ones (database, bus, keys, clock, ``IDEMPOTENCY_TTL_S``) come from
``gomoku_shared.settings.ServiceSettings``; gameplay's own (``MOVE_WRITERS``, ``MOVE_LINGER_MS``)
are declared by ``GameplaySettings`` (issue 31: each service declares its own); the rules core is
chosen by ``GAMEPLAY_ENGINE`` when ``gameplay.engine`` is first imported, before any settings
object exists, so it is read from the environment here at import."""

from __future__ import annotations

import os
from dataclasses import dataclass

from pydantic import Field

from gomoku_shared.settings import ServiceSettings

#: GAMEPLAY_ENGINE: auto (= cython, fails loudly if it is not built) | cython | python
ENGINE = os.environ.get("GAMEPLAY_ENGINE", "auto").strip().lower() or "auto"


class GameplaySettings(ServiceSettings):
    #: PostgreSQL: connections that group-commit plain moves (0 = every move through the ORM,
    #: one transaction each)
    move_writers: int = Field(default=1, ge=0, le=64, alias="MOVE_WRITERS")
    #: how long a move writer waits to gather more moves into its statement
    move_linger_ms: float = Field(default=0.0, ge=0, le=100, alias="MOVE_LINGER_MS")

    @classmethod
    def from_shared(cls, settings: ServiceSettings) -> GameplaySettings:
        """The gameplay settings of a process started with ``settings``: those values, and
        gameplay's own read from the environment now (once, by the composition root)."""
        if isinstance(settings, cls):
            return settings
        return cls(**settings.model_dump(by_alias=True))


@dataclass(frozen=True)
class GameplayConfig:
    #: connections that group-commit plain moves (PostgreSQL; 0: every move through the ORM)
    move_writers: int = 1
    #: how long a move writer waits to gather more moves into its statement
    move_linger_ms: float = 0.0
    #: how long (service clock) an Idempotency-Key and its answer are kept
    idempotency_ttl_s: float = 86400.0
    #: the sweeper's pause when nothing was due (real seconds)
    sweep_poll_s: float = 0.25
    #: due games one sweep transaction claims
    sweep_batch: int = 200
    #: attempts of an action whose game changed concurrently, before 409 ``busy``
    max_retries: int = 8
    #: games whose last committed state a process keeps
    cache_size: int = 20000

    @classmethod
    def from_settings(cls, settings: ServiceSettings) -> GameplayConfig:
        own = GameplaySettings.from_shared(settings)
        return cls(
            move_writers=own.move_writers,
            move_linger_ms=own.move_linger_ms,
            idempotency_ttl_s=own.idempotency_ttl_s,
        )
