"""The four services as separate OS processes, exactly as docker-compose.yml runs them."""
from __future__ import annotations

import signal

import httpx
import pytest

from .compose_commands import SERVICES, LocalCompose, pid_alive


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


async def test_four_services_start_on_postgres_and_rabbitmq_and_stop_cleanly(databases, amqp_url, bus_namespace,
                                                                              tmp_path):
    """Migrate four empty databases, start four processes, all /readyz, SIGTERM → exit 0."""
    stack = LocalCompose(database_urls=databases, amqp_url=amqp_url, namespace=bus_namespace, log_dir=tmp_path)
    try:
        for s in SERVICES:
            stack.migrate(s)
        for s in SERVICES:
            stack.start(s)
        for s in SERVICES:
            stack.wait_ready(s)
        async with httpx.AsyncClient(timeout=5) as client:
            for s in SERVICES:
                ready = (await client.get(stack.procs[s].url + "/readyz")).json()
                assert ready["checks"] == {"database": True, "bus": True}, (s, ready)
                metrics = await client.get(stack.procs[s].url + "/metrics")
                assert "http_requests_total" in metrics.text
        pids = [p.popen.pid for p in stack.procs.values()]
        for s in SERVICES:
            # uvicorn shuts down gracefully on SIGTERM, then re-raises the signal
            assert stack.stop(s) in (0, -signal.SIGTERM), stack.procs[s].log.read_text()[-2000:]
            assert "Application shutdown complete" in stack.procs[s].log.read_text()
        assert not [pid for pid in pids if pid_alive(pid)], "orphaned service processes"
    finally:
        stack.stop_all()
