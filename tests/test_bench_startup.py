"""bench.startup leaves nothing behind on the broker: every service it starts declares the whole
topology in the run's bus namespace, and the run deletes that namespace's queues and exchanges
when it ends, also when a start fails. The starts themselves are replaced here (the bench's own
smoke run is the served one); nothing about speed is asserted."""

from __future__ import annotations

import pytest

from bench import startup


@pytest.fixture
def recorded(monkeypatch):
    seen: dict[str, list] = {"namespaces": [], "deleted": [], "dropped": []}

    def run_services(table, repeat, urls, env):
        seen["namespaces"].append(env["BUS_NAMESPACE"])
        return {}

    async def delete_namespace(url, namespace, queues=()):
        seen["deleted"].append((url, namespace))
        return 0

    async def drop_databases(admin, names):
        seen["dropped"].append(names)

    async def create_databases(admin, names):
        return None

    monkeypatch.setattr(startup, "run_baselines", lambda table, repeat: None)
    monkeypatch.setattr(startup, "run_services", run_services)
    monkeypatch.setattr(startup, "run_embedded", lambda table, repeat, env: (0.0, 0.0))
    monkeypatch.setattr(startup, "_create_databases", create_databases)
    monkeypatch.setattr(startup, "_drop_databases", drop_databases)
    monkeypatch.setattr("gomoku_shared.messaging.rabbit_cleanup.delete_namespace", delete_namespace)
    monkeypatch.setenv("DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
    monkeypatch.setenv("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/")
    return seen


def test_the_run_deletes_the_bus_namespace_its_services_used(recorded):
    assert startup.main(["--repeat", "1"]) == 0
    [namespace] = recorded["namespaces"]
    assert namespace.startswith("bench-startup-")
    assert recorded["deleted"] == [("amqp://guest:guest@127.0.0.1:5672/", namespace)]
    assert len(recorded["dropped"]) == 1


def test_a_failed_start_still_deletes_the_namespace(recorded, monkeypatch):
    def failing(table, repeat, env):
        raise RuntimeError("embedded exited 1")

    monkeypatch.setattr(startup, "run_embedded", failing)
    with pytest.raises(RuntimeError, match="embedded exited 1"):
        startup.main(["--repeat", "1"])
    assert [namespace for _, namespace in recorded["deleted"]] == recorded["namespaces"]


def test_sqlite_runs_touch_no_broker(recorded):
    assert startup.main(["--repeat", "1", "--sqlite"]) == 0
    assert recorded["deleted"] == [] and recorded["dropped"] == []
