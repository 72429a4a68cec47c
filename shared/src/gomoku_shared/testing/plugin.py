"""pytest plugin: real RabbitMQ and PostgreSQL for tests, isolated per run.

Registered by the repository's root ``conftest.py``
(``pytest_plugins = ["gomoku_shared.testing.plugin"]``).

Where the servers come from, in order:
1. ``AMQP_URL`` / ``DATABASE_URL`` from the environment;
2. otherwise, if a Docker daemon answers, pinned testcontainers started for the session;
3. otherwise the test FAILS with a message saying how to provide them. Never skipped:
   a run without infrastructure must not turn green.

Isolation: every ``fresh_database()`` call creates a new PostgreSQL database
``gomoku_test_<runid>_<n>`` (dropped at teardown) and ``bus_namespace`` is a name prefix
unique to the test, so reruns and neighbouring tests never see stale queues or rows.

Tests that use these fixtures are marked ``infra`` automatically (``-m "not infra"``
selects the fast, self-contained tests).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shlex
import subprocess
import threading
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

# 3.x like the CI broker (3.10): quorum queues have no default delivery limit there
RABBITMQ_IMAGE = "rabbitmq:3.13.7"
POSTGRES_IMAGE = "postgres:15.8"

INFRA_FIXTURES = frozenset({"rabbitmq", "amqp_url", "database_url", "pg_admin_url", "fresh_database"})

_HOW_TO = (
    "{what} is needed by this test and none was found.\n"
    "Provide one of:\n"
    "  * {var}={example} in the environment (the CI machines run {what} as a service:\n"
    "    {service_hint});\n"
    "  * a running Docker daemon, so testcontainers can start {image}.\n"
    "These tests are never skipped: a run without the infrastructure fails."
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "infra: needs the real PostgreSQL and RabbitMQ (DATABASE_URL / AMQP_URL or Docker)"
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if INFRA_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.infra)


def _docker_available() -> bool:
    try:
        import docker  # shipped with testcontainers

        client = docker.from_env(timeout=3)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:  # noqa: BLE001 - any failure means "no usable daemon"
        return False


@pytest.fixture(scope="session")
def run_id() -> str:
    """Short id unique to this pytest session (used in database and queue names)."""
    return uuid.uuid4().hex[:8]


@dataclass(frozen=True)
class RabbitServer:
    """The broker used by the session, and how to run ``rabbitmqctl`` against it."""

    url: str
    ctl: Callable[[Sequence[str]], str]


def _local_rabbitmqctl(args: Sequence[str]) -> str:
    cmd = shlex.split(os.environ.get("RABBITMQCTL", "rabbitmqctl"))
    done = subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=120, check=False)
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd + list(args))} failed: {done.stderr or done.stdout}")
    return done.stdout


@pytest.fixture(scope="session")
def rabbitmq() -> Iterator[RabbitServer]:
    """The RabbitMQ broker: environment, else a testcontainer, else fail.

    With ``AMQP_URL`` set, ``ctl`` runs the local ``rabbitmqctl`` (override the command
    with ``RABBITMQCTL``, e.g. ``"sudo rabbitmqctl"``); with a container it runs inside it.
    """
    url = os.environ.get("AMQP_URL")
    if url:
        yield RabbitServer(url, _local_rabbitmqctl)
        return
    if not _docker_available():
        pytest.fail(
            _HOW_TO.format(
                what="RabbitMQ",
                var="AMQP_URL",
                example="amqp://guest:guest@127.0.0.1:5672/",
                service_hint="apt-get install rabbitmq-server; rabbitmq-server -detached",
                image=RABBITMQ_IMAGE,
            ),
            pytrace=False,
        )
    from testcontainers.community.rabbitmq import RabbitMqContainer

    with RabbitMqContainer(RABBITMQ_IMAGE) as container:
        host = container.get_container_host_ip()
        port = container.get_exposed_port(container.port)

        def ctl(args: Sequence[str]) -> str:
            code, out = container.exec(["rabbitmqctl", *args])
            text = out.decode() if isinstance(out, bytes) else str(out)
            if code:
                raise RuntimeError(f"rabbitmqctl {' '.join(args)} failed: {text}")
            return text

        yield RabbitServer(f"amqp://{container.username}:{container.password}@{host}:{port}/", ctl)


@pytest.fixture(scope="session")
def amqp_url(rabbitmq: RabbitServer) -> str:
    """AMQP URL of the session's RabbitMQ broker."""
    return rabbitmq.url


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """SQLAlchemy asyncpg URL of a PostgreSQL server with rights to create databases."""
    url = os.environ.get("DATABASE_URL")
    if url:
        yield url
        return
    if not _docker_available():
        pytest.fail(
            _HOW_TO.format(
                what="PostgreSQL",
                var="DATABASE_URL",
                example="postgresql+asyncpg://postgres@127.0.0.1:5432/postgres",
                service_hint="pg_ctlcluster 15 main start",
                image=POSTGRES_IMAGE,
            ),
            pytrace=False,
        )
    from testcontainers.community.postgres import PostgresContainer

    with PostgresContainer(POSTGRES_IMAGE, driver="asyncpg") as container:
        yield container.get_connection_url()


@pytest.fixture(scope="session")
def pg_admin_url(database_url: str) -> str:
    """The server's maintenance URL (the one used to CREATE/DROP test databases)."""
    return database_url


def _asyncpg_dsn(sqlalchemy_url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


_db_counter = itertools.count(1)
_ns_counter = itertools.count(1)


def _in_thread(func: Callable[[], Coroutine[Any, Any, object]]) -> None:
    """Run a coroutine function on a private event loop (from sync teardown code)."""
    errors: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(func())
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            errors.append(exc)

    thread = threading.Thread(target=target, name="fresh_database-teardown")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


@pytest.fixture
def fresh_database(pg_admin_url: str, run_id: str) -> Iterator[Callable[[], Awaitable[str]]]:
    """Factory: ``url = await fresh_database()`` creates an empty database for this test.

    Every database made is dropped at teardown (``WITH (FORCE)`` ends stray sessions).
    A sync fixture on purpose: it works from sync and async tests and fixtures alike.
    """
    import asyncpg
    from sqlalchemy.engine import make_url

    created: list[str] = []
    admin = make_url(pg_admin_url)
    dsn = _asyncpg_dsn(pg_admin_url)

    async def create() -> str:
        name = f"gomoku_test_{run_id}_{next(_db_counter)}"
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            for attempt in range(20):
                try:
                    await conn.execute(f'CREATE DATABASE "{name}"')
                    break
                except asyncpg.ObjectInUseError:
                    # "source database template1 is being accessed by other users":
                    # a neighbour session is connected to the template for a moment
                    if attempt == 19:
                        raise
                    await asyncio.sleep(0.1 * (attempt + 1))
        finally:
            await conn.close()
        created.append(name)
        return admin.set(database=name).render_as_string(hide_password=False)

    yield create

    async def drop() -> None:
        conn = await asyncpg.connect(dsn, timeout=10)
        try:
            for name in created:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    if created:
        _in_thread(drop)


def _delete_broker_objects(url: str, queues: Sequence[str], exchanges: Sequence[str]) -> None:
    """Delete queues and exchanges (missing ones are fine): quorum queues left behind by
    every test run would pile up on a shared broker until it stops answering."""
    from gomoku_shared.messaging.rabbit_cleanup import delete_objects

    try:
        _in_thread(lambda: delete_objects(url, queues, exchanges))
    except Exception:  # noqa: BLE001 - clean-up must not fail a test
        pass


@pytest.fixture
def bus_namespace(run_id: str) -> Iterator[str]:
    """A bus namespace (name prefix of exchanges and queues) unique to this test.

    At teardown the namespace's queues and exchanges of the service topology are deleted
    (with AMQP_URL set); anything else with the run's prefix is purged at session end."""
    namespace = f"test-{run_id}-{next(_ns_counter)}"
    yield namespace
    url = os.environ.get("AMQP_URL")
    if url:
        from gomoku_shared.messaging.rabbit_cleanup import delete_namespace

        try:
            _in_thread(lambda: delete_namespace(url, namespace, ("observer", "probe", "test")))
        except Exception:  # noqa: BLE001 - clean-up must not fail a test
            pass


@pytest.fixture(scope="session", autouse=True)
def _purge_run_broker_objects(run_id: str) -> Iterator[None]:
    """At session end, delete every queue and exchange named with this run's prefix."""
    yield
    url = os.environ.get("AMQP_URL")
    if not url:
        return
    prefix = f"test-{run_id}-"
    try:
        queues = [n for n in _local_rabbitmqctl(["list_queues", "-q", "name"]).split() if n.startswith(prefix)]
        exchanges = [n for n in _local_rabbitmqctl(["list_exchanges", "-q", "name"]).split() if n.startswith(prefix)]
    except Exception:  # noqa: BLE001 - no local rabbitmqctl: the per-test clean-up has to do
        return
    _delete_broker_objects(url, queues, exchanges)
