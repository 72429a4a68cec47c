"""What the registration service keeps across requests: the data key, the parsed configurations
(a configuration never changes once its event is created) and, per event, the aggregate as this
process last committed it. Also who may see what (a partner its own records, staff all)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from gomoku_shared.auth import Principal
from gomoku_shared.clock import Clock, SystemClock
from gomoku_shared.errors import NotFound
from gomoku_shared.event_config import EventConfig
from gomoku_shared.throttle import FailureThrottle

from ..adapters import repository as repo
from ..adapters.protection import DataProtector
from ..adapters.repositories import Repositories
from ..domain.documents import DocumentLimits


class Committed(Protocol):
    """What ``RegistrationState.committed`` reads of a command that committed (an ``EventCommand``)."""

    @property
    def code(self) -> str: ...

    version: int
    loaded: repo.Loaded
    started_from: repo.Snapshot | None


@dataclass
class RegistrationState:
    protector: DataProtector
    configs: dict[str, EventConfig] = field(default_factory=dict)
    #: per event, the entries as this process last committed them (a cache checked by version)
    snapshots: dict[str, repo.Snapshot] = field(default_factory=dict)
    #: the service's clock (reads that say where an event stands: the events' list)
    clock: Clock = field(default_factory=SystemClock)
    #: issue 34: the limits of a registrant's documents and the days they are kept after the event
    documents: DocumentLimits = field(default_factory=DocumentLimits)
    document_retention_days: int = 90
    #: issue 34: wrong secret-link tokens per client address (`secret_links`), in this process
    link_throttle: FailureThrottle = field(default_factory=FailureThrottle)

    def now(self) -> datetime:
        return self.clock.now()

    def committed(self, cmd: Committed) -> None:
        """Called once the command's transaction has committed. Only a fully saved aggregate
        is kept (anything unsaved would make the cache differ from the database)."""
        loaded = cmd.loaded
        saved = (
            loaded.before.keys() == loaded.reg.entries.keys()
            and all(loaded.before[k] is e for k, e in loaded.reg.entries.items())
            and loaded.officials_before == len(loaded.reg.officials)
        )
        if saved:
            self.snapshots[cmd.code] = repo.Snapshot.of(cmd.version, loaded, cmd.started_from)
        else:
            self.snapshots.pop(cmd.code, None)

    async def config(self, repos: Repositories, code: str) -> EventConfig:
        if code in self.configs:
            return self.configs[code]
        row = await repos.events.get(code)
        if row is None:
            raise NotFound("unknown_event", f"no event {code!r}")
        cfg = EventConfig.model_validate(repo.stored_config(row))
        self.configs[code] = cfg
        return cfg


def owner_of(principal: Principal) -> str | None:
    return principal.partner_id if principal.role == "partner" else None


def may_see(principal: Principal, partner_id: str | None) -> bool:
    return principal.is_staff or (principal.role == "partner" and partner_id == principal.partner_id)


def external_ids_seen(principal: Principal, people_rows: Mapping[str, Any]) -> dict[str, str]:
    """The external ids of ``people_rows`` the caller may see: a partner's own, nobody else's
    (staff included: it is the partner's own user id, not the platform's)."""
    if principal.role != "partner":
        return {}
    return {
        pid: row.external_id
        for pid, row in people_rows.items()
        if row.external_id is not None and row.partner_id == principal.partner_id
    }
