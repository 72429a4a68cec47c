"""Settings of the registration service: the shared ones (:class:`gomoku_shared.settings.ServiceSettings`,
the README's settings table) and what registration derives from them, read once in the
composition root. A setting registration adds is declared here."""

from __future__ import annotations

from pydantic import Field

from gomoku_shared.settings import ServiceSettings


class RegistrationSettings(ServiceSettings):
    #: a DATA_KEY rotation: the previous secret(s), comma-separated; read (never written) until
    #: the service has re-encrypted the stored data under DATA_KEY at start (docs/privacy.md)
    data_key_previous: str = Field(default="", alias="DATA_KEY_PREVIOUS")

    #: issue 34: a registrant's documents: bytes per file, bytes per entry, and the days after
    #: an event's last day they are kept (then deleted: docs/privacy.md)
    document_max_bytes: int = Field(default=8 * 1024 * 1024, alias="DOCUMENT_MAX_BYTES", ge=1024)
    document_entry_bytes: int = Field(default=32 * 1024 * 1024, alias="DOCUMENT_ENTRY_BYTES", ge=1024)
    document_retention_days: int = Field(default=90, alias="DOCUMENT_RETENTION_DAYS", ge=0)

    @classmethod
    def from_shared(cls, settings: ServiceSettings) -> RegistrationSettings:
        """The registration settings of a process started with ``settings``."""
        if isinstance(settings, cls):
            return settings
        return cls(**settings.model_dump(by_alias=True))

    @property
    def distributed(self) -> bool:
        """Over RabbitMQ (AMQP_URL set): DATA_KEY is then required, the same in every replica."""
        return bool(self.amqp_url)
