"""Issue 32 (ADR 0012): "a merge or split in the registry changes whose games and grants are
whose". Registration announces its audited merges and splits; awards re-keys the stored title
grants and rated games and computes the organisation's lists again (titles are read from the
grants, so they follow). Idempotent: a repeated message finds nothing left to move and changes
nothing."""

from __future__ import annotations

from gomoku_shared.contracts.season_events import PeopleMerged, PeopleSplit
from gomoku_shared.runtime import UnitOfWork

from ..adapters.season_repository import SeasonRepository
from .season import recompute_lists


async def people_merged(uow: UnitOfWork, payload: PeopleMerged) -> int:
    """The merged people's records become the kept person's; how many rows moved."""
    repo = SeasonRepository(uow.session)
    await repo.lock_organisation(payload.organisation)
    moved = await repo.rekey_people(payload.organisation, payload.merged_ids, payload.person_id)
    if moved:
        await recompute_lists(repo, payload.organisation, uow.emit)
    return moved


async def people_split(uow: UnitOfWork, payload: PeopleSplit) -> int:
    """The split event people's records become ``split_off``'s again; how many rows moved."""
    repo = SeasonRepository(uow.session)
    await repo.lock_organisation(payload.organisation)
    players = [(p.event_code, p.player_id) for p in payload.players]
    moved = await repo.rekey_players(payload.organisation, players, payload.split_off)
    if moved:
        await recompute_lists(repo, payload.organisation, uow.emit)
    return moved
