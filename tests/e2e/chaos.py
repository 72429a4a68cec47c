"""Crash injection for a distributed run: SIGKILL services at seeded random moments and restart
them; restart RabbitMQ once (``rabbitmqctl stop_app`` / ``start_app``)."""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field

SERVICES = ("registration", "pairing", "gameplay", "awards")


@dataclass
class ChaosLog:
    kills: list[str] = field(default_factory=list)
    rabbit_restarts: int = 0
    #: services killed before the event finished
    during_run: list[str] = field(default_factory=list)


def chaos(seed: int, rabbit_ctl, log: ChaosLog, *, extra_kills: int = 2, gap_s: tuple[float, float] = (1.0, 3.0)):
    """A context factory for ``harness.run_distributed(chaos=...)``: every service is killed at
    least once (in a seeded order, at seeded moments), RabbitMQ restarted once in between.

    A service's restart is done while holding the simulation clock's lock, so the driver never
    moves time while a service is down (the clock is simulation machinery, not what is tested);
    the restarted process starts its fake clock at the simulation's current time."""
    rng = random.Random(f"chaos|{seed}")
    order = list(SERVICES)
    rng.shuffle(order)
    plan = order + [rng.choice(SERVICES) for _ in range(extra_kills)]
    rabbit_after = rng.randrange(1, len(plan))

    @contextlib.asynccontextmanager
    async def run(stack, driver):
        compose = stack.extras["compose"]

        async def restart(service: str) -> None:
            compose.kill(service)
            log.kills.append(service)
            await asyncio.sleep(rng.uniform(0.0, 0.5))
            compose.extra_env["CLOCK_START"] = driver.clock.current.isoformat()
            compose.start(service)
            await asyncio.to_thread(compose.wait_ready, service, 60.0)

        async def rabbit() -> None:
            await asyncio.to_thread(rabbit_ctl, ["stop_app"])
            await asyncio.sleep(1.0)
            await asyncio.to_thread(rabbit_ctl, ["start_app"])
            await asyncio.to_thread(rabbit_ctl, ["await_startup"])
            for s in SERVICES:  # readiness includes the bus connection
                await asyncio.to_thread(compose.wait_ready, s, 60.0)
            log.rabbit_restarts += 1

        async def loop() -> None:
            for i, service in enumerate(plan):
                await asyncio.sleep(rng.uniform(*gap_s))
                async with driver.clock.lock:
                    if i == rabbit_after:
                        await rabbit()
                    await restart(service)
                    await driver.clock.resync()
                    await asyncio.sleep(1.0)  # consumers pick up redelivered work

        task = asyncio.create_task(loop())
        try:
            yield
            log.during_run = list(log.kills)
            await asyncio.wait_for(task, timeout=300)  # the plan is carried out in full
        finally:
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    return run
