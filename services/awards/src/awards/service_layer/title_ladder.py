"""Issue 32: an organisation's title ladder (its precedence of titles, lowest first) is its own
configuration: the platform operator's keys, or staff holding ``people.manage`` in the
organisation itself (the registry's action: titles are the organisation's people's), set it."""

from __future__ import annotations

from collections.abc import Sequence

from gomoku_shared.auth import Principal
from gomoku_shared.event_access import EventAccess, held_roles, refusal
from gomoku_shared.staff_roles import ACTIONS, may, role_words

from ..domain.title_record import TitleLadder
from .ports import Season
from .unit_of_work import AwardsUnitOfWork

ACTION = "people.manage"


def check_manages_people(principal: Principal, organisation: str) -> None:
    """403 ``people_not_yours`` (with words) unless the operator's keys or ``people.manage`` in
    the organisation (an arbiter's API key: in its own organisation)."""
    if principal.role == "operator" and principal.person is None:
        return
    if may(held_roles(principal, EventAccess("", organisation)), ACTION):
        return
    needed = ACTIONS[ACTION][0]
    raise refusal(
        "people_not_yours",
        f"这个组织的人员名册只有它的{role_words(needed, 'zh')}可以查看和管理。",
        f"Only the organisation's {role_words(needed, 'en')} may read and manage its registry of people.",
        action=ACTION,
        organisation=organisation,
        needs=sorted(needed),
    )


async def set_ladder_in(
    uow: AwardsUnitOfWork, principal: Principal, organisation: str, titles: Sequence[str]
) -> TitleLadder:
    """The use case as a route runs it: on the unit of work's session."""
    return await set_ladder(uow.season, principal, organisation, titles)


async def set_ladder(repo: Season, principal: Principal, organisation: str, titles: Sequence[str]) -> TitleLadder:
    check_manages_people(principal, organisation)
    ladder = TitleLadder(tuple(titles))  # each title once, lowest first (the body is checked before)
    await repo.save_ladder(organisation, ladder.order)
    return ladder
