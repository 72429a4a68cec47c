"""SZ and NT on four processes (the docker-compose.yml commands) on RabbitMQ + PostgreSQL:
the same preset, field and seed give the same digest as the embedded run; and the NT event
survives SIGKILLed services and a RabbitMQ restart with an identical digest."""

from __future__ import annotations

import pytest

from gomoku_sim.driver import canonical_json

from . import test_nt_2023, test_sz_2022
from .chaos import ChaosLog, chaos
from .harness import FAST, FAST_QUIET, SERVICES, digest, embedded_once, run_distributed, spec

SZ = spec("sz-2022", 11, test_sz_2022.SIZES, policy=FAST_QUIET)
NT = spec("nt-2023", 4, test_nt_2023.SIZES, policy=FAST)


@pytest.fixture
async def databases(fresh_database):
    return {s: await fresh_database() for s in SERVICES}


def _explain(a: dict, b: dict) -> str:
    diff = [k for k in sorted(set(a) | set(b)) if canonical_json({"x": a.get(k)}) != canonical_json({"x": b.get(k)})]
    return f"parts that differ: {diff}"


async def test_sz_2022_distributed_digest_equals_embedded(tmp_path, databases, amqp_url, bus_namespace):
    """EVT-6 online -> final over RabbitMQ: standings, awards, every game's moves and result
    identical to the embedded run (result_digest)."""
    embedded = await embedded_once(tmp_path, SZ)
    distributed, _ = await run_distributed(
        tmp_path, SZ, amqp_url=amqp_url, databases=databases, namespace=bus_namespace
    )
    assert digest(distributed) == digest(embedded), _explain(distributed, embedded)


@pytest.mark.exclusive  # restarts the broker every other test shares
async def test_nt_2023_crash_and_redelivery_digest_equals_undisturbed(
    tmp_path, databases, amqp_url, bus_namespace, rabbitmq
):
    """SIGKILL each service at least once at seeded random moments (and restart it), restart
    RabbitMQ once: the event finishes, no game lost, no result counted twice — the digest equals
    the undisturbed (embedded) run's. PAIR-9/10, AWD-3/7 hold on the distributed result too."""
    undisturbed = await embedded_once(tmp_path, NT)
    log = ChaosLog()
    # kills 0.5-1.5 s apart: the small NT field is played in well under a minute, and every service
    # must go down while it is played (at 1-3 s apart the fourth kill came after the last round)
    kills = chaos(8, rabbitmq.ctl, log, gap_s=(0.5, 1.5))
    disturbed, _ = await run_distributed(
        tmp_path, NT, amqp_url=amqp_url, databases=databases, namespace=bus_namespace, chaos=kills
    )
    assert set(log.during_run) == set(SERVICES), log
    assert log.rabbit_restarts == 1
    test_nt_2023.check_nt(disturbed)
    assert digest(disturbed) == digest(undisturbed), _explain(disturbed, undisturbed)
