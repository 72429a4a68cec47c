"""bench.gameplay_load waits for the services' outbox to empty before its live phase (issue 33):
the events of creating and starting the games were still being published during its first
seconds, and the live latencies counted them."""

from __future__ import annotations

from bench import _service_metrics


async def test_the_live_phase_waits_until_the_outbox_is_empty(monkeypatch):
    pending = iter([4100, 120, 0, 0])
    scrapes: list[int] = []

    async def metric_lines(port: int, metric: str) -> list[str]:
        assert metric == "gomoku_outbox_pending"
        scrapes.append(port)
        n = next(pending)
        return [
            "# HELP gomoku_outbox_pending Outbox rows not yet published",
            "# TYPE gomoku_outbox_pending gauge",
            f'gomoku_outbox_pending{{service="gameplay"}} {n}.0',
        ]

    async def no_sleep(_seconds: float) -> None:
        return None

    monkeypatch.setattr(_service_metrics, "metric_lines", metric_lines)
    monkeypatch.setattr(_service_metrics.asyncio, "sleep", no_sleep)
    waited = await _service_metrics.outbox_drained(8000)
    assert scrapes == [8000, 8000, 8000]  # stopped at the first empty outbox
    assert waited >= 0
