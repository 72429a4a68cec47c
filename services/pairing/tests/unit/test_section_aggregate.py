"""The section aggregate (issue 31): a use case loads its section once, changes it in memory
through its methods (each change recorded in order) and saves it once. What ``save`` writes is
what the aggregate holds: loading it again gives the same section (PAIR-11's rounds, results,
byes, withdrawals and PAIR-8's ties, EVT-7's delays). A result decided on a revision that another
writer changed meanwhile is refused at ``save`` (``StaleResult``), as the arbiter's 409
stale_revision needs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pairing_kit import players, rules

from gomoku_shared.db import make_engine, make_sessionmaker
from gomoku_shared.migrate import upgrade_async
from pairing.adapters.repository import SectionRepository
from pairing.domain.aggregate import Section, StaleResult

NOW = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
LATER = datetime(2026, 5, 1, 11, 30, tzinfo=UTC)


def _opened(count: int = 4) -> Section:
    section_rules = rules(rounds=3)
    key = {"event_code": "EV", "section_id": "open"}
    tournament = dict(
        **key,
        stage="main",
        name="Open",
        status="running",
        kind="individual",
        format="swiss",
        rounds_planned=3,
        current_round=0,
        revision=0,
        event_seq=0,
        rules=section_rules.model_dump(mode="json"),
        closed={},
        hold=False,
        created_at=NOW,
        version=1,
    )
    rows = [
        dict(
            **key,
            start_no=number,
            entrant_id=entrant.entrant_id,
            data=entrant.model_dump(mode="json"),
            entry_round=1,
            withdrawn_after=None,
        )
        for number, entrant in enumerate(players(count), 1)
    ]
    return Section.opened(tournament, rows)


def _pairing_rows() -> list[dict]:
    return [
        dict(
            pairing_id="r1.b1",
            match_no=1,
            board=None,
            first_no=1,
            second_no=2,
            first_id="p001",
            second_id="p002",
            first_team=None,
            second_team=None,
            games=1,
        ),
        dict(
            pairing_id="r1.b2",
            match_no=2,
            board=None,
            first_no=3,
            second_no=4,
            first_id="p003",
            second_id="p004",
            first_team=None,
            second_team=None,
            games=1,
        ),
    ]


def _played(section: Section) -> None:
    """Round 1 paired and published, one result in, a bye requested for round 2, a withdrawal,
    a tie, a delayed round 2."""
    section.put_round(1, "published", NOW, _pairing_rows(), [])
    section.update(current_round=1)
    section.set_result(section.pairings[1][0], outcome="1-0", first_points=1.0, second_points=0.0, result_source="game")
    section.request_bye(round=2, start_no=3, kind="requested", created_at=NOW, by="arb")
    section.withdraw(4, 1, "ill", NOW, "arb")
    section.put_tie(
        dict(
            tie_id="t1",
            gender=None,
            place_from=1,
            place_to=2,
            entrant_ids=["p001", "p002"],
            action="arbiter",
            status="open",
            playoff={},
            decision=None,
            decided_by=None,
            decided_at=None,
            revision=1,
        )
    )
    section.audit(
        when=NOW,
        action="delay",
        rnd=2,
        details={"starts_at": LATER.isoformat()},
        role="arbiter",
        key_id="k",
        actor="A",
        actor_id="a",
    )


def test_changes_apply_in_memory_at_once_and_are_recorded_in_order():
    section = _opened()
    assert [change.kind for change in section.changes] == ["created"]
    _played(section)
    assert [change.kind for change in section.changes] == [
        "created",
        "round_dropped",
        "round",
        "tournament",
        "result",
        "bye_request",
        "withdrawal",
        "tie",
        "audit",
    ]
    first = section.pairings[1][0]
    assert first["outcome"] == "1-0" and first["revision"] == 1
    assert section.pairings[1][1]["outcome"] is None and section.pairings[1][1]["revision"] == 0
    assert section.row["current_round"] == 1
    assert section.entrants[4]["withdrawn_after"] == 1
    assert section.delays == {2: LATER}  # EVT-7: the audited delay moves the round's start
    assert [(request["round"], request["start_no"]) for request in section.requests] == [(2, 3)]
    section.request_bye(round=2, start_no=3, kind="forced", created_at=NOW, by="arb")
    assert [request["kind"] for request in section.requests] == ["forced"]  # replaced, not added


def test_a_view_is_built_once_per_state_of_the_section():
    section = _opened()
    built = []

    def build() -> int:
        built.append(1)
        return len(built)

    assert section.view("replayed", build) == 1
    assert section.view("replayed", build) == 1  # the same state: not built again
    section.update(note="x")
    assert section.view("replayed", build) == 2  # a change: built again from the new state


@pytest.fixture
async def sessions(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/pairing.sqlite"
    await upgrade_async("pairing", url)
    engine = make_engine(url)
    yield make_sessionmaker(engine)
    await engine.dispose()


def _stored(section: Section) -> dict:
    """What a load gives back, without the columns only the database fills (ids) or leaves empty
    (an aggregate's own records leave out what is still unset)."""

    def record(stored: dict) -> dict:
        return {name: value for name, value in stored.items() if name != "id" and value is not None}

    def rows(records):
        return [record(stored) for stored in records]

    return {
        "row": {name: section.row[name] for name in ("status", "current_round", "event_seq", "hold", "version")},
        "withdrawn": {number: entrant["withdrawn_after"] for number, entrant in section.entrants.items()},
        "rounds": {rnd: record(row) for rnd, row in section.rounds.items()},
        "pairings": {rnd: rows(records) for rnd, records in section.pairings.items() if records},
        "byes": {rnd: rows(records) for rnd, records in section.byes.items() if records},
        "requests": rows(section.requests),
        "ties": rows(section.ties),
        "delays": section.delays,
    }


async def test_save_writes_what_the_aggregate_holds(sessions):
    section = _opened()
    _played(section)
    section.row["event_seq"] = 3  # three events emitted (the unit of work's emit_for)
    async with sessions() as session, session.begin():
        await SectionRepository(session).save(section)
    assert section.changes == [] and section.stored_seq == 3
    async with sessions() as session:
        loaded = await SectionRepository(session).load("EV", "open")
    assert loaded is not None
    assert _stored(loaded) == _stored(section)
    assert [request["kind"] for request in loaded.requests] == ["requested"]


async def test_a_locked_load_moves_the_version_on(sessions):
    section = _opened()
    async with sessions() as session, session.begin():
        await SectionRepository(session).save(section)
    async with sessions() as session, session.begin():
        locked = await SectionRepository(session).load("EV", "open", lock=True)
    async with sessions() as session:
        assert await SectionRepository(session).version("EV", "open") == 2
    assert locked is not None and locked.row["version"] == 2


async def test_a_result_decided_on_a_revision_changed_meanwhile_is_refused_at_save(sessions):
    section = _opened()
    section.put_round(1, "published", NOW, _pairing_rows(), [])
    async with sessions() as session, session.begin():
        await SectionRepository(session).save(section)
    async with sessions() as session:
        late = await SectionRepository(session).load("EV", "open")  # reads revision 0
    async with sessions() as session, session.begin():
        first = await SectionRepository(session).load("EV", "open")
        assert first is not None
        first.set_result(first.pairings[1][0], outcome="1-0", first_points=1.0, second_points=0.0)
        await SectionRepository(session).save(first)
    assert late is not None
    late.set_result(late.pairings[1][0], outcome="0-1", first_points=0.0, second_points=1.0)
    with pytest.raises(StaleResult):
        async with sessions() as session, session.begin():
            await SectionRepository(session).save(late)
    async with sessions() as session:
        stored = await SectionRepository(session).pairing("EV", "open", "r1.b1")
    assert stored is not None and stored["outcome"] == "1-0" and stored["revision"] == 1
