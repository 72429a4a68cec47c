"""Settings of the awards service. It has none of its own: the shared ones
(:class:`gomoku_shared.settings.ServiceSettings`, the README's settings table) are all it reads,
once, in the composition root. A setting awards adds is declared here."""

from __future__ import annotations

from gomoku_shared.settings import ServiceSettings


class AwardsSettings(ServiceSettings):
    @classmethod
    def from_shared(cls, settings: ServiceSettings) -> AwardsSettings:
        """The awards settings of a process started with ``settings``."""
        if isinstance(settings, cls):
            return settings
        return cls(**settings.model_dump(by_alias=True))
