"""Issue 32 (ADR 0012): the federation's published ratings seed its events' entries. Awards
publishes an organisation's latest rating list whenever its lists change (``ratings.published``);
registration keeps the newest per organisation, and every entry.accepted / section.closed it
sends afterwards for that organisation's events carries each person's published rating (the
TRF rating column, by which pairing orders a Swiss section's start). An event whose
configuration says ``ratings.seed: false`` carries none."""

from __future__ import annotations

from datetime import datetime

from gomoku_shared.contracts.season_events import RatingsPublished

from .unit_of_work import RegistrationUnitOfWork


async def on_ratings_published(uow: RegistrationUnitOfWork, payload: RatingsPublished, published_at: datetime) -> bool:
    """Keep the list unless a newer one is kept (lists may arrive out of order); whether kept.
    Idempotent: the same list again replaces it with itself."""
    people = [p.model_dump(include={"registry_id", "rating", "rd", "provisional"}) for p in payload.people]
    return await uow.ratings.replace(payload.organisation, payload.period, people, published_at)
