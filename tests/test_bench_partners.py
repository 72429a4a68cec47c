"""bench.partners runs end to end at its tiniest size (no timing asserted: the machine is
shared): the token rows are measured and every webhook delivery arrives verified."""

from __future__ import annotations

import asyncio

import pytest

from bench.partners import delivery_latencies, main, verification_rows

# seconds a test (whole services through their API, or long computations): make test-fast leaves it out
pytestmark = pytest.mark.slow


def test_the_verification_rows_are_measured_against_their_baselines():
    rows = dict(verification_rows(5))
    assert list(rows) == [
        "no-op",
        "HMAC-SHA256 of the token",
        "EdDSA verify (first use)",
        "per request (verified once)",
    ]
    assert all(0 <= us < float("inf") for us in rows.values())


def test_every_delivery_of_the_tiniest_run_arrives_verified(capsys):
    latencies, refused, achieved, mode = asyncio.run(delivery_latencies(3, 50.0, distributed=False))
    assert len(latencies) == 3 and refused == 0 and achieved > 0 and mode.startswith("embedded")
    main(["--verifies", "5", "--deliveries", "2"])
    out = capsys.readouterr().out
    assert "(a) token verification" in out and "deliveries 2, refused 0" in out
