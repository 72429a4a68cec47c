"""What the awards service is asked to do: one command per use case, plain data (the routes and
the consumers build them; :mod:`.handlers` runs each on a unit of work)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gomoku_shared.auth import Principal
from gomoku_shared.contracts.events import EventAccessChanged, EventConfigured, SectionCompleted
from gomoku_shared.contracts.season_events import PeopleMerged, PeopleSplit

from .honours import HonourForm


@dataclass(frozen=True)
class ConfigureEvent:
    """event.configured: store the configuration, (re)compute every section already received."""

    configured: EventConfigured


@dataclass(frozen=True)
class CompleteSection:
    """section.completed: store the section's final standings and publish its awards (AWD-8)."""

    completed: SectionCompleted


@dataclass(frozen=True)
class ChangeEventAccess:
    """event.access_changed (issue 29): the event's owner; its titles and games follow (issue 32)."""

    changed: EventAccessChanged


@dataclass(frozen=True)
class MergePeople:
    """people.merged (issue 32): the merged people's grants and games are the kept person's."""

    merged: PeopleMerged


@dataclass(frozen=True)
class SplitPeople:
    """people.split (issue 32): a merge undone or an event person split out."""

    split: PeopleSplit


@dataclass(frozen=True)
class PublishSection:
    """A staff member publishes (or republishes) a section's awards (audited; AWD-8). ``actor``:
    who asked, by name; ``actor_id``: acct:<account> or the key id."""

    event_code: str
    section_id: str
    actor: str
    actor_id: str | None = None


@dataclass(frozen=True)
class RecordHonour:
    """AWD-9: an honour the organiser chose."""

    event_code: str
    form: HonourForm
    principal: Principal


@dataclass(frozen=True)
class RevokeHonour:
    event_code: str
    honour_id: str
    reason: str
    principal: Principal


@dataclass(frozen=True)
class SetTitleLadder:
    """Issue 32: an organisation's titles in precedence order."""

    principal: Principal
    organisation: str
    titles: Sequence[str]


#: a command of the consumers (the runtime's unit of work, with the inbox row)
EventCommand = ConfigureEvent | CompleteSection | ChangeEventAccess | MergePeople | SplitPeople
#: a command of a staff route (the route's unit of work)
StaffCommand = PublishSection | RecordHonour | RevokeHonour | SetTitleLadder
Command = EventCommand | StaffCommand
