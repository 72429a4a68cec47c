"""REG-16 (NY 七(三): 2021 年各组前8名的棋手报名不受名额限制): the organiser loads the list a
delegation-quota exemption refers to — the previous edition's final places by section — and
every claim made from then on is checked against it (`domain.delegations.quota_exemptions`).
Each load is kept with who made it and when; the latest is in force."""

from __future__ import annotations

from typing import Any

from gomoku_shared.auth import Principal
from gomoku_shared.errors import Conflict, Unprocessable
from gomoku_shared.event_config import place_key

from ..adapters import repository as repo
from ..adapters.protection import DataProtector
from ..adapters.repositories import Repositories
from ..domain import ListedPlayer
from ..domain.delegations import claims_judged_again
from . import forms as s
from . import record
from .actors import actor_ref
from .command import EventCommand
from .state import RegistrationState


def _top(config) -> int:
    """The event's N; 409 where the event exempts nobody or keeps its list in the configuration."""
    top = config.units.quota_exempt_previous_top
    if not top:
        raise Conflict("exemption_list_not_loadable", f"{config.id} exempts nobody from the delegation quota")
    if config.units.quota_exempt_list:
        raise Conflict(
            "exemption_list_not_loadable", f"{config.id} keeps its list of the previous top {top} in its configuration"
        )
    return top


def _who(principal: Principal) -> str:
    return actor_ref(principal)


async def load_list(cmd: EventCommand, body: s.ExemptionListIn) -> dict[str, Any]:
    """Put the loaded list in force. Lines placed beyond the top N are counted, not kept (they
    exempt nobody); one person listed twice is refused (422 `duplicate_listed_player`)."""
    top = _top(cmd.config)
    kept = [p for p in body.players if p.place <= top]
    seen: dict[str, int] = {}
    for number, line in enumerate(body.players, start=1):  # numbered as in the request
        if line.place > top:
            continue
        key = (
            f"id:{cmd.state.protector.index(line.id_number)}"
            if line.id_number
            else f"nb:{place_key(line.name)}:{line.birth_date}"
        )
        if key in seen:
            raise Unprocessable(
                "duplicate_listed_player",
                f"the list names one player twice (lines {seen[key]} and {number})",
                {"first_line": seen[key], "second_line": number},
            )
        seen[key] = number
    players = [
        (
            ListedPlayer(section=line.section, place=line.place, name=line.name, birth_date=line.birth_date),
            line.id_number,
        )
        for line in kept
    ]
    await cmd.uow.exemptions.replace(
        cmd.code,
        edition=body.edition,
        source=body.source,
        players=players,
        beyond_top=len(body.players) - len(kept),
        loaded_at=cmd.now,
        loaded_by=_who(cmd.principal),
    )
    rejudged = await _claims_judged_again(cmd, top)
    return {**await _view(cmd.uow, cmd.state.protector, cmd.code, top), "rejudged": rejudged}


async def _claims_judged_again(cmd: EventCommand, top: int) -> list[str]:
    """The entries holding a place whose claims the new list judges otherwise (their ids)."""
    claiming = {
        e.id: e
        for e in cmd.reg.entries.values()
        if e.status.holds_place and any(d.clause.startswith("units/quota_exempt") for d in e.decisions)
    }
    if not claiming:
        return []
    previous_top = await record.previous_top(cmd, await cmd.uow.exemptions.in_force(cmd.code))
    assert previous_top is not None, "judged right after a load"
    ids = sorted({pid for e in claiming.values() for pid in e.person_ids})
    people = await cmd.load_people(ids)
    rows = await cmd.uow.people.rows(cmd.code, ids)
    id_keys = {pid: row.id_number_index for pid, row in rows.items() if row.id_number_index}
    changed = []
    for entry_id, entry in sorted(claiming.items()):
        again = claims_judged_again(entry, top, previous_top, people, id_keys, cmd.registry_ids)
        if again != entry:
            cmd.reg.replace_entry(again)
            changed.append(entry_id)
    if changed:
        await cmd.save()
    return changed


async def get_list(repos: Repositories, state: RegistrationState, code: str) -> dict[str, Any]:
    """The list in force and every load of it (staff); `top` null where the event exempts nobody."""
    config = await state.config(repos, code)
    return {**await _view(repos, state.protector, code, config.units.quota_exempt_previous_top), "rejudged": []}


async def _view(repos: Repositories, protector: DataProtector, code: str, top: int | None) -> dict[str, Any]:
    loads = await repos.exemptions.loads(code)
    lines = await repos.exemptions.lines(code)
    return {
        "event_code": code,
        "top": top,
        "edition": loads[-1].edition if loads else None,
        "players": [
            {
                "section": row.section,
                "place": row.place,
                "name": row.name,
                "birth_year": int(str(protector.decrypt(row.birth_date_enc))[:4]) if row.birth_date_enc else None,
                "id_number": row.id_number_masked,
            }
            for row in lines
        ],
        "loads": [
            {
                "revision": row.revision,
                "edition": row.edition,
                "source": row.source,
                "loaded_at": repo.aware(row.loaded_at).isoformat(),
                "loaded_by": row.loaded_by,
                "players": row.players,
                "beyond_top": row.beyond_top,
            }
            for row in loads
        ],
    }
