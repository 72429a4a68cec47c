"""Issue 32: a history page reads a person's sections a page at a time — the newest ``latest``
after skipping ``skip`` — so that what it reads does not grow with the person's record, let
alone with the organisation's (bench.history_page)."""

from __future__ import annotations

from typing import Any

from ..adapters.repositories import Repositories
from .season_reads import SeasonReads


async def sections_page(
    reads: SeasonReads, organisation: str, person_id: str, latest: int, skip: int
) -> tuple[int, list[Any], list[Any]]:
    """How many sections the person has, and the grants and rated games of the page's."""
    history = Repositories(reads.session).history
    total, page = await history.sections(organisation, person_id, latest, skip)
    grants = await history.grants_in(organisation, person_id, page)
    games = await history.games_in(organisation, person_id, page)
    return total, grants, games


async def grants_of(reads: SeasonReads, organisation: str, person_ids: list[str]) -> list[Any]:
    """The grants of the people a search of a rating list found (not the organisation's all)."""
    return await Repositories(reads.session).history.grants_of(organisation, person_ids)
