"""The federation ``bench.history_page`` reads: PostgreSQL databases of its own, the services on
them in this process, and an organisation's season stored as awards stores it.

Awards' tables are filled the way its consumer fills them (``SeasonRepository.replace_section``
per section, then ``recompute_lists`` once: the published lists of every month); the registry's
people are inserted into registration's table directly (names only: no ID number is needed to
find a person by name). Deterministic for the seed."""

from __future__ import annotations

import contextlib
import random
import secrets
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI

from gomoku_shared.messaging.memory import InMemoryEventBus
from gomoku_shared.migrate import upgrade_async
from gomoku_shared.service import Service, builders
from gomoku_shared.settings import ServiceSettings

#: the services the history page reads (the portal reaches them in-process)
SERVICES = ("awards", "gameplay", "pairing", "registration")
ORG = "bench-fed"
#: the person whose history page is timed: plays in one event of every ``EVERY``
PERSON = "rp-bench-star"
EVERY = 3
FIRST_DAY = date(2016, 1, 10)
SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚"


def admin_url(database_url: str) -> str:
    return database_url.replace("postgresql+asyncpg://", "postgresql://")


async def _admin(database_url: str, statements: list[str]) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url(database_url))
    try:
        for statement in statements:
            await conn.execute(statement)
    finally:
        await conn.close()


@dataclass
class Federation:
    """The services on the bench's databases, and what was stored so far."""

    services: dict[str, Service]
    urls: dict[str, str]
    operator_key: str
    events: int = 0
    people: int = 0
    names: list[str] = field(default_factory=list)

    @property
    def apps(self) -> dict[str, FastAPI]:
        return {name: svc.app for name, svc in self.services.items()}

    def runtime(self, name: str) -> Any:
        return self.services[name].runtime


@contextlib.asynccontextmanager
async def federation(database_url: str, data_dir: Path) -> AsyncIterator[Federation]:
    """Awards, registration, pairing and gameplay on databases created for this run (dropped at the end)."""
    tag = uuid.uuid4().hex[:8]
    base = database_url.rsplit("/", 1)[0]
    names = {s: f"bench_history_{tag}_{s}" for s in SERVICES}
    await _admin(database_url, [f'CREATE DATABASE "{n}"' for n in names.values()])
    bus = InMemoryEventBus()
    operator = secrets.token_urlsafe(16)
    services: dict[str, Service] = {}
    try:
        for name in SERVICES:
            settings = ServiceSettings(
                DATABASE_URL=f"{base}/{names[name]}",
                DATA_DIR=str(data_dir),
                API_KEYS=f"{operator}=operator",
                LOG_LEVEL="WARNING",
                LOG_JSON=False,
            ).model_copy(update={"amqp_url": None, "service": name})
            services[name] = builders()[name](settings, bus=bus)
            await upgrade_async(name, services[name].runtime.database_url)
        await bus.start()
        for svc in services.values():
            await svc.runtime.start()
        yield Federation(services, {s: f"{base}/{n}" for s, n in names.items()}, operator)
    finally:
        for svc in services.values():
            with contextlib.suppress(Exception):
                await svc.runtime.stop()
        await bus.close()
        await _admin(database_url, [f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)' for n in names.values()])


def _name(rng: random.Random) -> str:
    return rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.randint(1, 2)))


async def grow(fed: Federation, events: int, pool: int, players: int, rounds: int, seed: int) -> None:
    """Store events ``fed.events`` … ``events - 1`` of the organisation (one section each, three
    days apart): ``players`` people from a pool of ``pool`` (PERSON in one of every EVERY),
    ``rounds`` rated rounds and the top quarter granted a title; then the lists again."""
    from awards.adapters.season_repository import SeasonRepository
    from awards.service_layer.season import recompute_lists

    rng = random.Random(seed + fed.events)
    ids = [f"rp-{n:06d}" for n in range(pool)]
    while len(fed.names) < pool:
        fed.names.append(_name(rng))
    names = dict(zip(ids, fed.names, strict=True)) | {PERSON: "陈星"}
    titles = ("1d", "1k", "2k", "3k", "4k", "5k", "6k", "7k")
    async with fed.runtime("awards").sessionmaker() as session:
        repo = SeasonRepository(session)
        for n in range(fed.events, events):
            code, on = f"bench-{n:05d}", FIRST_DAY + timedelta(days=3 * n)
            field_ = rng.sample(ids, players - 1 if n % EVERY == 0 else players)
            if n % EVERY == 0:
                field_.insert(rng.randrange(players), PERSON)
            grants = [
                {
                    "person_id": pid,
                    "organisation": ORG,
                    "title": titles[place - 1] if place <= len(titles) else titles[-1],
                    "place": place,
                    "granted_on": on,
                    "name": names[pid],
                    "player_id": f"pl-{pid}",
                }
                for place, pid in enumerate(field_[: max(1, players // 4)], 1)
            ]
            games = []
            for r in range(1, rounds + 1):
                order = field_[:]
                rng.shuffle(order)
                for b in range(len(order) // 2):
                    first, second = order[2 * b], order[2 * b + 1]
                    games.append(
                        {
                            "pairing_id": f"r{r}b{b + 1}",
                            "organisation": ORG,
                            "round": r,
                            "first_id": first,
                            "second_id": second,
                            "first_name": names[first],
                            "second_name": names[second],
                            "score": rng.choice((1.0, 0.0, 0.5, 1.0, 0.0)),
                            "played_on": on,
                            "first_player": f"pl-{first}",
                            "second_player": f"pl-{second}",
                        }
                    )
            await repo.replace_section(code, "open", grants, games)
        await recompute_lists(repo, ORG)
        await session.commit()
    fed.events = events
    await _registry(fed, names)


async def _registry(fed: Federation, names: dict[str, str]) -> None:
    """The registry's people not stored yet (a staff search reads them)."""
    from registration.adapters import orm

    table = orm.registry_people
    now = datetime.now(UTC)
    async with fed.runtime("registration").sessionmaker() as session:
        known = set((await session.execute(sa.select(table.c.id))).scalars())
        rows = [
            {"id": pid, "organisation": ORG, "name": name, "gender": "m", "created_at": now}
            for pid, name in names.items()
            if pid not in known
        ]
        if rows:
            await session.execute(sa.insert(table), rows)
        await session.commit()
    fed.people = len(names)
