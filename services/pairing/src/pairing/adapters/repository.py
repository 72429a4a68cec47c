"""Loading and writing a section's stored state (rows ↔ :class:`SectionState`).

Every use case loads the section with its tournament row locked (``SELECT … FOR UPDATE``;
compiles away on SQLite, where writes are serialised anyway), so two replicas handling two
``game.finished`` of one section at once run one after the other and a round is paired once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update

from gomoku_shared.contracts.common import Entrant, SectionRules

from . import orm


@dataclass
class SectionState:
    row: dict[str, Any]
    rules: SectionRules
    #: entrant rows by start number, each with the parsed contract ``Entrant`` under "entrant"
    entrants: dict[int, dict[str, Any]]
    rounds: dict[int, dict[str, Any]] = field(default_factory=dict)
    #: pairings by round, in round order (match_no, board)
    pairings: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    byes: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    ties: list[dict[str, Any]] = field(default_factory=list)

    @property
    def event_code(self) -> str:
        return self.row["event_code"]

    @property
    def section_id(self) -> str:
        return self.row["section_id"]

    @property
    def key(self) -> dict[str, str]:
        return {"event_code": self.event_code, "section_id": self.section_id}

    @property
    def team(self) -> bool:
        return self.rules.kind == "team"

    def by_entrant_id(self) -> dict[str, int]:
        return {e["entrant_id"]: no for no, e in self.entrants.items()}

    def complete_rounds(self) -> list[int]:
        return sorted(r for r, row in self.rounds.items() if row["status"] == "complete")


def _where(table, ec: str, sid: str):
    return (table.c.event_code == ec) & (table.c.section_id == sid)


async def exists(session, ec: str, sid: str) -> bool:
    q = select(orm.tournaments.c.section_id).where(_where(orm.tournaments, ec, sid))
    return (await session.execute(q)).first() is not None


async def load(session, ec: str, sid: str, *, lock: bool = False) -> SectionState | None:
    t = orm.tournaments
    q = select(t).where(_where(t, ec, sid))
    if lock:
        q = q.with_for_update()
    row = (await session.execute(q)).mappings().first()
    if row is None:
        return None
    st = SectionState(dict(row), SectionRules.model_validate(row["rules"]), {})
    for e in (
        await session.execute(
            select(orm.entrants).where(_where(orm.entrants, ec, sid)).order_by(orm.entrants.c.start_no)
        )
    ).mappings():
        d = dict(e)
        d["entrant"] = Entrant.model_validate(e["data"])
        st.entrants[e["start_no"]] = d
    for r in (await session.execute(select(orm.rounds).where(_where(orm.rounds, ec, sid)))).mappings():
        st.rounds[r["round"]] = dict(r)
    for p in (
        await session.execute(
            select(orm.pairings)
            .where(_where(orm.pairings, ec, sid))
            .order_by(orm.pairings.c.round, orm.pairings.c.match_no, orm.pairings.c.board)
        )
    ).mappings():
        st.pairings.setdefault(p["round"], []).append(dict(p))
    for b in (
        await session.execute(
            select(orm.byes).where(_where(orm.byes, ec, sid)).order_by(orm.byes.c.round, orm.byes.c.start_no)
        )
    ).mappings():
        st.byes.setdefault(b["round"], []).append(dict(b))
    st.requests = [
        dict(r)
        for r in (
            await session.execute(
                select(orm.bye_requests)
                .where(_where(orm.bye_requests, ec, sid))
                .order_by(orm.bye_requests.c.round, orm.bye_requests.c.start_no)
            )
        ).mappings()
    ]
    st.ties = [
        dict(r)
        for r in (
            await session.execute(select(orm.ties).where(_where(orm.ties, ec, sid)).order_by(orm.ties.c.tie_id))
        ).mappings()
    ]
    return st


async def lock_row(session, ec: str, sid: str) -> dict[str, Any] | None:
    """Only the tournament row, locked (the cheap first step of every game.finished)."""
    t = orm.tournaments
    row = (await session.execute(select(t).where(_where(t, ec, sid)).with_for_update())).mappings().first()
    return dict(row) if row else None


async def pairing_row(session, ec: str, sid: str, pairing_id: str) -> dict[str, Any] | None:
    p = orm.pairings
    row = (
        (await session.execute(select(p).where(_where(p, ec, sid) & (p.c.pairing_id == pairing_id)))).mappings().first()
    )
    return dict(row) if row else None


async def open_pairings(session, ec: str, sid: str, rnd: int) -> int:
    from sqlalchemy import func

    p = orm.pairings
    q = select(func.count()).select_from(p).where(_where(p, ec, sid) & (p.c.round == rnd) & p.c.outcome.is_(None))
    return int((await session.execute(q)).scalar_one())


async def update_tournament(session, st: SectionState, **values) -> None:
    await session.execute(
        update(orm.tournaments).where(_where(orm.tournaments, st.event_code, st.section_id)).values(**values)
    )
    st.row.update(values)


async def insert_round(
    session,
    st: SectionState,
    rnd: int,
    status: str,
    now: datetime,
    pairing_rows: list[dict],
    bye_rows: list[dict],
    paired_by: str = "engine",
) -> None:
    """Store a round (replacing a draft of the same number)."""
    await delete_round(session, st, rnd)
    row = dict(
        **st.key,
        round=rnd,
        status=status,
        paired_at=now,
        paired_by=paired_by,
        published_at=now if status == "published" else None,
        starts_at=now if status == "published" else None,
    )
    await session.execute(insert(orm.rounds).values(**row))
    if pairing_rows:
        await session.execute(insert(orm.pairings), [dict(**st.key, round=rnd, **p) for p in pairing_rows])
    if bye_rows:
        await session.execute(insert(orm.byes), [dict(**st.key, round=rnd, **b) for b in bye_rows])
    st.rounds[rnd] = row
    st.pairings[rnd] = [
        dict(
            **st.key,
            round=rnd,
            outcome=None,
            first_points=None,
            second_points=None,
            result_source=None,
            result_at=None,
            **p,
        )
        for p in pairing_rows
    ]
    st.byes[rnd] = [dict(**st.key, round=rnd, **b) for b in bye_rows]


async def delete_round(session, st: SectionState, rnd: int) -> None:
    for table in (orm.pairings, orm.byes, orm.rounds):
        await session.execute(delete(table).where(_where(table, st.event_code, st.section_id) & (table.c.round == rnd)))
    st.rounds.pop(rnd, None)
    st.pairings.pop(rnd, None)
    st.byes.pop(rnd, None)


async def update_round(session, st: SectionState, rnd: int, **values) -> None:
    await session.execute(
        update(orm.rounds)
        .where(_where(orm.rounds, st.event_code, st.section_id) & (orm.rounds.c.round == rnd))
        .values(**values)
    )
    st.rounds[rnd].update(values)


async def set_result(session, st: SectionState | None, p: dict, **values) -> None:
    await session.execute(
        update(orm.pairings)
        .where(
            _where(orm.pairings, p["event_code"], p["section_id"])
            & (orm.pairings.c.round == p["round"])
            & (orm.pairings.c.pairing_id == p["pairing_id"])
        )
        .values(**values)
    )
    p.update(values)


async def game_recorded(session, ec: str, sid: str, playoff_id: str, pairing_id: str, game_no: int) -> bool:
    g = orm.games
    q = select(g.c.id).where(
        _where(g, ec, sid) & (g.c.playoff_id == playoff_id) & (g.c.pairing_id == pairing_id) & (g.c.game_no == game_no)
    )
    return (await session.execute(q)).first() is not None


async def record_game(session, **values) -> None:
    await session.execute(insert(orm.games).values(**values))


async def games_of(session, ec: str, sid: str) -> list[dict]:
    g = orm.games
    rows = (
        await session.execute(
            select(g).where(_where(g, ec, sid)).order_by(g.c.playoff_id, g.c.round, g.c.pairing_id, g.c.game_no)
        )
    ).mappings()
    return [dict(r) for r in rows]


async def add_request(session, st: SectionState, **values) -> None:
    br = orm.bye_requests
    await session.execute(
        delete(br).where(
            _where(br, st.event_code, st.section_id)
            & (br.c.round == values["round"])
            & (br.c.start_no == values["start_no"])
        )
    )
    await session.execute(insert(br).values(**st.key, **values))
    st.requests = [
        r for r in st.requests if not (r["round"] == values["round"] and r["start_no"] == values["start_no"])
    ]
    st.requests.append(dict(**st.key, **values))


async def set_withdrawn(session, st: SectionState, start_no: int, after_round: int, reason: str, now, by: str) -> None:
    w = orm.withdrawals
    await session.execute(delete(w).where(_where(w, st.event_code, st.section_id) & (w.c.start_no == start_no)))
    await session.execute(
        insert(w).values(**st.key, start_no=start_no, after_round=after_round, reason=reason, created_at=now, by=by)
    )
    await session.execute(
        update(orm.entrants)
        .where(_where(orm.entrants, st.event_code, st.section_id) & (orm.entrants.c.start_no == start_no))
        .values(withdrawn_after=after_round)
    )
    st.entrants[start_no]["withdrawn_after"] = after_round


async def upsert_tie(session, st: SectionState, tie: dict) -> None:
    t = orm.ties
    await session.execute(delete(t).where(_where(t, st.event_code, st.section_id) & (t.c.tie_id == tie["tie_id"])))
    await session.execute(
        insert(t).values(**st.key, **{k: v for k, v in tie.items() if k not in ("event_code", "section_id")})
    )
    st.ties = [x for x in st.ties if x["tie_id"] != tie["tie_id"]] + [
        dict(**st.key, **{k: v for k, v in tie.items() if k not in ("event_code", "section_id")})
    ]
    st.ties.sort(key=lambda x: x["tie_id"])


async def add_audit(
    session, st: SectionState, *, at, role: str, key_id: str, action: str, rnd: int | None, details: dict
) -> None:
    await session.execute(
        insert(orm.audit).values(**st.key, at=at, role=role, key_id=key_id, action=action, round=rnd, details=details)
    )


async def audit_of(session, ec: str, sid: str) -> list[dict]:
    a = orm.audit
    rows = (await session.execute(select(a).where(_where(a, ec, sid)).order_by(a.c.id))).mappings()
    return [dict(r) for r in rows]


async def withdrawals_of(session, ec: str, sid: str) -> list[dict]:
    w = orm.withdrawals
    rows = (await session.execute(select(w).where(_where(w, ec, sid)).order_by(w.c.start_no))).mappings()
    return [dict(r) for r in rows]


async def sections_of(session, ec: str) -> list[dict]:
    t = orm.tournaments
    rows = (
        await session.execute(
            select(
                t.c.section_id,
                t.c.stage,
                t.c.name,
                t.c.status,
                t.c.current_round,
                t.c.rounds_planned,
                t.c.format,
                t.c.kind,
                t.c.revision,
            )
            .where(t.c.event_code == ec)
            .order_by(t.c.section_id)
        )
    ).mappings()
    return [dict(r) for r in rows]
