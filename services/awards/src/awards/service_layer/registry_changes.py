"""Issue 32 (ADR 0012): "a merge or split in the registry changes whose games and grants are
whose". Registration announces its audited merges and splits; awards re-keys the stored title
grants and rated games and computes the organisation's lists again (titles are read from the
grants, so they follow). Idempotent: a repeated message finds nothing left to move and changes
nothing."""

from __future__ import annotations

import logging

from gomoku_shared.contracts.season_events import PeopleMerged, PeopleSplit

from .player_backfill import fill_player_ids, unkeyed_left
from .season import recompute_lists
from .unit_of_work import AwardsUnitOfWork

log = logging.getLogger("gomoku.awards")


async def people_merged(uow: AwardsUnitOfWork, payload: PeopleMerged) -> int:
    """The merged people's records become the kept person's; how many rows moved."""
    repo = uow.season
    await repo.lock_organisation(payload.organisation)
    moved = await repo.rekey_people(payload.organisation, payload.merged_ids, payload.person_id)
    if moved:
        await recompute_lists(repo, payload.organisation, uow.emit)
    return moved


async def people_split(uow: AwardsUnitOfWork, payload: PeopleSplit) -> int:
    """The split event people's records become ``split_off``'s again; how many rows moved."""
    repo = uow.season
    await repo.lock_organisation(payload.organisation)
    players = [(p.event_code, p.player_id) for p in payload.players]
    events = sorted({code for code, _ in players})
    # rows stored before migration 0008 name no event person: filled first from the stored results
    await fill_player_ids(uow.backfill, payload.organisation, events)
    moved = await repo.rekey_players(payload.organisation, players, payload.split_off)
    left = await unkeyed_left(uow.backfill, payload.organisation, payload.person_id, events)
    if left:
        log.warning(
            "people.split %s -> %s: %d row(s) in events %s stored before the event person was kept "
            "could not be told apart; they stay with %s",
            payload.person_id,
            payload.split_off,
            left,
            ", ".join(events),
            payload.person_id,
        )
    if moved:
        await recompute_lists(repo, payload.organisation, uow.emit)
    return moved
