"""bench.webhooks runs end to end at a tiny size (no timing asserted: the machine is shared):
both runs measure every one of the healthy partner's deliveries, and the table is printed."""

from __future__ import annotations

import asyncio

from bench.webhooks import healthy_latencies, main


def test_the_healthy_partner_gets_every_delivery_beside_hung_subscriptions(capsys):
    """Issue 27 finding 4: the bench's loaded run (a partner whose receiver never answers beside
    the healthy one) ends, every healthy delivery measured."""
    latencies = asyncio.run(healthy_latencies(3, 2, 50.0, distributed=False))
    assert len(latencies) == 2 and all(0 <= s < float("inf") for s in latencies)
    assert main(["--hung", "2", "--events", "2", "--rate", "50"]) in (0, 1)  # 1: the goal missed on a busy machine
    out = capsys.readouterr().out
    assert "baseline: healthy partner alone" in out and "beside 2 hung subscriptions" in out
    assert "the hung partner adds" in out
