"""What the gameplay load bench reads from the services' ``/metrics``: their own latency
histogram of POST requests, the group-commit writer's figures and the outbox backlog."""

from __future__ import annotations

import asyncio
import time

from ._served_games import Conn


async def metrics_text(port: int) -> str:
    conn = Conn(port)
    try:
        _, body = await conn.request("GET", "/metrics")
    finally:
        await conn.close()
    return body.decode()


async def metric_lines(port: int, metric: str) -> list[str]:
    """A metric's sample lines as the service shows them (diagnosis)."""
    return [line for line in (await metrics_text(port)).splitlines() if line.startswith(metric)]


async def outbox_drained(port: int, timeout: float = 30.0) -> float:
    """Wait until the services' outbox holds nothing unpublished (the replicas share one table);
    the seconds waited."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        lines = await metric_lines(port, "gomoku_outbox_pending")
        if sum(float(line.rsplit(" ", 1)[1]) for line in lines if not line.startswith("#")) == 0:
            break
        await asyncio.sleep(0.1)
    return time.perf_counter() - t0


async def server_buckets(port: int) -> dict[float, float]:
    """The service's own latency histogram of POST requests (cumulative counts per bucket)."""
    out: dict[float, float] = {}
    for line in (await metrics_text(port)).splitlines():
        if line.startswith("http_request_seconds_bucket") and 'method="POST"' in line:
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out[float("inf") if le == "+Inf" else float(le)] = float(line.rsplit(" ", 1)[1])
    return out


def server_share(before: list[dict], after: list[dict]) -> str:
    """Share of live-phase POSTs the service itself answered within each bucket bound."""
    total: dict[float, float] = {}
    for b, a in zip(before, after):
        for le, n in a.items():
            total[le] = total.get(le, 0) + n - b.get(le, 0)
    n = total.get(float("inf"), 0)
    if not n:
        return "n/a"
    return ", ".join(
        f"{100 * total[le] / n:.1f}% <= {1000 * le:g} ms"
        for le in sorted(total)
        if le in (0.005, 0.01, 0.025, 0.05, 0.1)
    )
