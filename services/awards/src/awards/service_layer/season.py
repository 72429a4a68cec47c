"""The season (issue 32, ADR 0012): what a published section leaves on its players' records.

When a section's awards are (re)published, its title grants (AWD-5, DA 九(三)) are recorded
for every entrant with a registry id, and — when the event is rated — its games over the board;
both replace what the section left before (a correction, AWD-8). Rated games change the
organisation's rating lists, so these are recomputed whole from its games (ADR 0012: a
correction reaches every later period) and stored: the stored lists are the published ones.

Dates: a grant and a game are dated by the last day of the section's stage (the configuration's
``ends_on``), not by when the message arrived, so a replay or a late correction dates them the same.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

from gomoku_shared.contracts.events import SectionCompleted
from gomoku_shared.event_config import EventConfig

from ..domain.ratings import GlickoParams, RatedGame, rate_history
from ..domain.section import SectionAwards
from ..domain.title_record import TitleLadder
from .ports import Season
from .ratings_publication import Emit, publish_latest
from .unit_of_work import AwardsUnitOfWork

#: ADR 0012's parameters (τ 0.5, 1500/350/0.06, provisional above RD 110 or under 9 games)
PARAMS = GlickoParams()
SCORES = {"first_wins": 1.0, "second_wins": 0.0, "draw": 0.5}


async def ladder_of(repo: Season, organisation: str) -> TitleLadder:
    stored = await repo.ladder(organisation)
    return TitleLadder(tuple(stored)) if stored else TitleLadder.kyu_dan()


def nominal_seconds(config: EventConfig, section_id: str) -> int | None:
    """The section's clock as one number: base + 60 × increment seconds (None: no clock)."""
    clock = config.section(section_id).clock
    return None if clock is None else clock.base_s + 60 * clock.increment_s


def section_rated(config: EventConfig, section_id: str) -> bool:
    """Issue 32: the event is rated and the section's clock reaches its minimum time control."""
    settings = config.ratings
    if not settings.rated:
        return False
    if settings.min_time_control_s is None:
        return True
    seconds = nominal_seconds(config, section_id)
    return seconds is not None and seconds >= settings.min_time_control_s


def _people(payload: SectionCompleted) -> dict[str, tuple[str, str, str | None]]:
    """Entrant ids and team members' player ids → (registry id, name, registration's player id),
    for those who have a registry id."""
    out: dict[str, tuple[str, str, str | None]] = {}
    for entrant in payload.entrants:
        if entrant.registry_id:
            out[entrant.entrant_id] = (entrant.registry_id, entrant.name, entrant.attributes.get("player_id"))
        for member in entrant.members:
            if member.registry_id:
                out[member.player_id] = (member.registry_id, member.name, member.player_id)
    return out


def grant_rows(payload: SectionCompleted, awards: SectionAwards, organisation: str, on: date) -> list[dict[str, Any]]:
    """Every grant to an entrant with a registry id, whatever the ladder: precedence is applied
    when a title is read, so a ladder set later ranks the grants already kept."""
    people = _people(payload)
    rows = []
    for award in awards.titles:
        person = people.get(award.entrant_id)
        if person is None:
            continue  # a team, or an entry from before the registry: nobody to hold it
        rows.append(
            {
                "person_id": person[0],
                "organisation": organisation,
                "title": award.title,
                "place": award.place,
                "granted_on": on,
                "name": person[1],
                "player_id": person[2],
            }
        )
    return rows


def game_rows(payload: SectionCompleted, organisation: str, on: date) -> list[dict[str, Any]]:
    """The section's games that count: decided over the board (forfeits never count) between
    two registry people."""
    people = _people(payload)
    rows = []
    for game in payload.games:
        score = SCORES.get(game.outcome)
        first, second = people.get(game.first), people.get(game.second)
        if game.forfeit or score is None or first is None or second is None or first[0] == second[0]:
            continue
        rows.append(
            {
                "pairing_id": game.pairing_id,
                "organisation": organisation,
                "round": game.round,
                "first_id": first[0],
                "second_id": second[0],
                "first_name": first[1],
                "second_name": second[1],
                "score": score,
                "played_on": on,
                "first_player": first[2],
                "second_player": second[2],
            }
        )
    return rows


async def record_section(
    repo: Season, config: EventConfig, payload: SectionCompleted, awards: SectionAwards, emit: Emit = None
) -> None:
    """Replace the section's grants and rated games; recompute the lists when games changed."""
    try:
        on = config.stage_of(payload.section_id).ends_on
    except KeyError:
        return  # a section the configuration does not know: no date, no record
    organisation = await repo.organisation(payload.event_code)
    await repo.lock_organisation(organisation)
    played = not awards.cancelled and section_rated(config, payload.section_id)
    grants = [] if awards.cancelled else grant_rows(payload, awards, organisation, on)
    games = game_rows(payload, organisation, on) if played else []
    had_games = await repo.section_has_games(payload.event_code, payload.section_id)
    await repo.replace_section(payload.event_code, payload.section_id, grants, games)
    if games or had_games:
        await recompute_lists(repo, organisation, emit)


def months(first: str, last: str) -> list[str]:
    """Every period label (YYYY-MM) from ``first`` to ``last``: a month without games still
    grows everybody's RD."""
    year, month = int(first[:4]), int(first[5:])
    out = []
    while f"{year:04d}-{month:02d}" <= last:
        out.append(f"{year:04d}-{month:02d}")
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return out


def list_rows(games: list[Any], params: GlickoParams = PARAMS) -> list[dict[str, Any]]:
    """Every period's list from the organisation's games in date order (ADR 0012)."""
    if not games:
        return []
    by_period: dict[str, list[RatedGame]] = defaultdict(list)
    names: dict[str, str] = {}
    for g in games:
        if g.first_id == g.second_id:
            continue  # two registry people merged as one human: not a game between two people
        by_period[g.played_on.strftime("%Y-%m")].append(RatedGame(g.first_id, g.second_id, g.score))
        names[g.first_id], names[g.second_id] = g.first_name, g.second_name
    if not by_period:
        return []
    labels = months(min(by_period), max(by_period))
    rows = []
    for label, ratings in rate_history(((p, by_period.get(p, [])) for p in labels), params):
        for person, r in ratings.items():
            rows.append(
                {
                    "period": label,
                    "person_id": person,
                    "name": names[person],
                    "rating": r.rating,
                    "rd": r.rd,
                    "volatility": r.volatility,
                    "games": r.games,
                    "provisional": r.provisional(params),
                }
            )
    return rows


async def recompute_lists(repo: Season, organisation: str, emit: Emit = None) -> None:
    """Replace the organisation's lists; ``emit``: publish the latest (ratings.published)."""
    rows = list_rows(await repo.games(organisation))
    await repo.replace_lists(organisation, rows)
    if emit is not None:
        publish_latest(emit, organisation, rows)


async def on_owner_changed(uow: AwardsUnitOfWork, event_code: str) -> None:
    """``owner_changed`` on the consumer's unit of work."""
    await owner_changed(uow.season, event_code, uow.emit)


async def owner_changed(repo: Season, event_code: str, emit: Emit = None) -> None:
    """event.access_changed may come after the event's sections (no order across producers):
    what they left is filed under the event's owner as stored now, and the lists of both
    organisations are computed again when games moved."""
    organisation = await repo.organisation(event_code)
    await repo.lock_organisation(organisation)
    left = await repo.move_event(event_code, organisation)
    for moved in sorted(left):
        await repo.lock_organisation(moved)
        await recompute_lists(repo, moved, emit)
    if left:
        await recompute_lists(repo, organisation, emit)
