"""Issue 32 (ADR 0012): the events of the federation's season between registration, which keeps
the registry of people, and awards, which keeps their titles and ratings."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from pydantic import Field

from .common import Model
from .envelope import Payload

__all__ = ["EventPerson", "PeopleMerged", "PeopleSplit", "PublishedRating", "RatingsPublished"]


class PublishedRating(Model):
    """One registry person's line of a published rating list."""

    registry_id: str
    #: the Glicko-2 rating as published (rounded to a whole number: the TRF rating column)
    rating: int
    rd: float
    provisional: bool


class RatingsPublished(Payload):
    """Awards replaced an organisation's rating lists (its rated games changed): the latest
    period's list. Registration seeds entries by it (the TRF rating column, Swiss start order).
    ``period`` None with no people: the organisation has no list any more."""

    TYPE: ClassVar[str] = "ratings.published"
    organisation: str
    #: the rating period (calendar month, ``YYYY-MM``)
    period: str | None
    people: list[PublishedRating] = Field(default_factory=list)


class PeopleMerged(Payload):
    """Staff merged registry people that are one human: ``merged_ids`` (the person merged and
    whoever was merged into it before) now stand as ``person_id``."""

    TYPE: ClassVar[str] = "people.merged"
    organisation: str
    person_id: str
    merged_ids: list[str]
    at: datetime


class EventPerson(Model):
    """One event's person (registration's player id in that event)."""

    event_code: str
    player_id: str


class PeopleSplit(Payload):
    """Staff undid a merge, or split an event person out of a registry person: the event people
    in ``players`` stood as ``person_id`` and stand as ``split_off`` from now on (their grants
    and games in earlier events are theirs again)."""

    TYPE: ClassVar[str] = "people.split"
    organisation: str
    person_id: str
    split_off: str
    players: list[EventPerson] = Field(default_factory=list)
    at: datetime
