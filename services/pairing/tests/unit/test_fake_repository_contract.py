"""The fakes cannot drift (issue 31): one scenario of pairing's commands runs on the SQL unit of
work (SQLite, in-process) and on the in-memory one (``pairing_fakes``), and both must publish the
same events (ids included: they are uuid5 of the section's sequence) and store the same section,
audit, games and appeals. The repositories' own refusals — a result written over another
revision, at ``save`` or at once — are checked on both the same way."""

from __future__ import annotations

import asyncio
import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from pairing_fakes import ARBITER, FakeUnitOfWork, games_won_by_first
from pairing_kit import EV, START, closed, players, rules

from gomoku_shared.clock import FakeClock
from gomoku_shared.contracts.common import AppealTerms
from gomoku_shared.db import make_engine, make_sessionmaker
from gomoku_shared.errors import Conflict
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.runtime import UnitOfWork
from pairing.adapters import orm
from pairing.domain.aggregate import StaleResult
from pairing.service_layer import handlers
from pairing.service_layer.appeals import AppealForm, Decision
from pairing.service_layer.commands import (
    AddBye,
    DecideAppeal,
    DelayRound,
    EnterResult,
    LateEntry,
    LodgeAppeal,
    OpenSection,
    RecordGame,
    Withdraw,
)
from pairing.service_layer.pool import Pairer
from pairing.service_layer.unit_of_work import PairingUnitOfWork, SqlPairingUnitOfWork


class SqlDriver:
    """The service's own unit of work on SQLite: one transaction per command."""

    def __init__(self, sessions: Any) -> None:
        self.sessions = sessions
        self.clock = FakeClock(START)
        self.events: list[Any] = []
        self.pairer = Pairer()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PairingUnitOfWork]:
        async with self.sessions() as session, session.begin():
            runtime = UnitOfWork(session, self.clock, orm.outbox, correlation_id="test")
            yield SqlPairingUnitOfWork(runtime)
            self.events.extend(runtime.events)

    async def handle(self, command: Any) -> Any:
        async with self.transaction() as uow:
            return await handlers.handle(command, uow, self.pairer)


class FakeDriver:
    """The in-memory unit of work, driven the same way."""

    def __init__(self) -> None:
        self.uow = FakeUnitOfWork()
        self.clock = self.uow.clock
        self.events = self.uow.events

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PairingUnitOfWork]:
        yield self.uow

    async def handle(self, command: Any) -> Any:
        return await self.uow.handle(command)


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """An empty pairing database migrated once; each test gets its own copy (a copy is cheap,
    the migrations are not)."""
    path = tmp_path_factory.mktemp("migrated") / "pairing.sqlite"
    asyncio.run(upgrade_async("pairing", f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture
async def sessions(tmp_path, migrated):
    shutil.copyfile(migrated, tmp_path / "pairing.sqlite")
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path}/pairing.sqlite")
    yield make_sessionmaker(engine)
    await engine.dispose()


@pytest.fixture(params=["sql", "fake"])
def driver(request):
    return SqlDriver(request.getfixturevalue("sessions")) if request.param == "sql" else FakeDriver()


def _plain(value: Any) -> Any:
    """JSON-shaped, keys sorted: tuples and lists alike, times as text (both must be aware)."""
    return json.loads(json.dumps(value, default=str, sort_keys=True))


def _form() -> AppealForm:
    return AppealForm(
        "U1", "leader", "张三丰", "a device in use", 50_000, "CNY", "receipt 1", round=1, pairing_id="r1.b1"
    )


async def _play(driver: Any, rnd: int) -> None:
    [paired] = [env.payload for env in driver.events if env.type == "round.paired" and env.payload.round == rnd]
    for game in games_won_by_first(paired):
        driver.clock.advance(60)
        await driver.handle(RecordGame(game))


async def _scenario(driver: Any) -> list[Any]:
    """A section opened, played over three rounds with a bye, a withdrawal, an arbiter's result,
    a delay, a refused late entry and an upheld appeal; the answers of the commands."""
    section = closed("a", players(6), rules(rounds=3)).model_copy(update={"appeals": AppealTerms(fee_fen=50_000)})
    answers = [await driver.handle(OpenSection(section))]
    await _play(driver, 1)
    answers.append(await driver.handle(AddBye(EV, "a", "p002", "forced", 3, ARBITER)))
    answers.append(await driver.handle(Withdraw(EV, "a", "p006", 2, "ill", ARBITER)))
    answers.append(await driver.handle(EnterResult(EV, "a", 2, "r2.b1", "draw", ARBITER)))
    answers.append(await driver.handle(DelayRound(EV, "a", 3, START + timedelta(hours=5), "rain", ARBITER)))
    await _play(driver, 2)
    await _play(driver, 3)
    answers.append(await driver.handle(LodgeAppeal(EV, "a", _form(), ARBITER)))
    decision = Decision(upheld=True, reasons="proven", result="second_wins", expected_revision=1)
    answers.append(await driver.handle(DecideAppeal(EV, "a", "a-1", decision, ARBITER)))
    with pytest.raises(Conflict):
        await driver.handle(LateEntry(EV, "a", players(7)[-1], ARBITER))
    return answers


async def _stored(driver: Any) -> dict[str, Any]:
    """Everything a read could see of the scenario's section, JSON-shaped (ids left out)."""
    async with driver.transaction() as uow:
        state = await uow.sections.load(EV, "a")
        assert state is not None
        section = {
            "row": state.row,
            "entrants": {n: {k: v for k, v in row.items() if k != "entrant"} for n, row in state.entrants.items()},
            "rounds": state.rounds,
            "pairings": state.pairings,
            "byes": state.byes,
            "requests": state.requests,
            "ties": state.ties,
            "delays": state.delays,
        }
        audit = [{k: v for k, v in row.items() if k != "id"} for row in await uow.audit.of_section(EV, "a")]
        return _plain(
            {
                "section": section,
                "audit": audit,
                "appeal": await uow.appeals.get(EV, "a", "a-1"),
                "pairing": await uow.sections.pairing(EV, "a", "r1.b1"),
                "of_event": await uow.sections.of_event(EV),
                "open": await uow.sections.open_pairings(EV, "a", 3),
            }
        )


async def test_issue31_fake_and_sql_units_of_work_publish_and_store_the_same(sessions):
    """The same scenario on both: the same answers, the same events (type, id, payload) in the
    same order, the same stored section, audit and appeal."""
    sql, fake = SqlDriver(sessions), FakeDriver()
    assert _plain(await _scenario(sql)) == _plain(await _scenario(fake))
    published = [
        [(env.type, env.event_id, _plain(env.payload.model_dump(mode="json"))) for env in d.events] for d in (sql, fake)
    ]
    assert published[0] == published[1]
    assert {kind for kind, _, _ in published[0]} >= {"round.paired", "section.completed", "appeal.decided"}
    assert await _stored(sql) == await _stored(fake)


async def test_issue31_a_result_saved_over_another_revision_is_refused_on_both(driver):
    """PAIR-11: two writers decide on the same revision; the second ``save`` raises StaleResult,
    and a game's result written over a newer revision changes nothing."""
    await driver.handle(OpenSection(closed("a", players(4), rules(rounds=2))))
    async with driver.transaction() as uow:
        first, second = await uow.sections.load(EV, "a"), await uow.sections.load(EV, "a")
        for state, outcome in ((first, "1-0"), (second, "0-1")):
            state.set_result(state.pairings[1][0], outcome=outcome, first_points=2.0, second_points=0.0)
        await uow.sections.save(first)
        with pytest.raises(StaleResult):
            await uow.sections.save(second)
        stale = {**second.pairings[1][1], "revision": 5}
        assert await uow.sections.write_result(stale, outcome="1-0") is False
        current = await uow.sections.pairing(EV, "a", "r1.b1")
        assert current is not None and (current["outcome"], current["revision"]) == ("1-0", 1)


async def test_issue31_locking_a_section_moves_its_version_on_both(driver):
    """The reads' ETag: every transaction that locks the section adds one to its version."""
    await driver.handle(OpenSection(closed("a", players(4), rules(rounds=2))))
    async with driver.transaction() as uow:
        assert not await uow.sections.exists(EV, "b")
        before = (await uow.sections.load(EV, "a")).row["version"]
        await uow.locked_section(EV, "a")
        row = await uow.sections.lock_tournament(EV, "a")
        assert row is not None and row["version"] == before + 2
        assert await uow.sections.lock_tournament(EV, "b") is None
