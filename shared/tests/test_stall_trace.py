"""The stall timeline (diagnosis, STALL_TRACE_DIR): a held event loop, a collection and a noted
span reach the process's file; with tracing off nothing is recorded."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time

from gomoku_shared import stall_trace


async def test_the_timeline_records_loop_lag_collections_and_spans(tmp_path, monkeypatch):
    monkeypatch.setattr(stall_trace, "ENABLED", True)
    monkeypatch.setenv("STALL_TRACE_DIR", str(tmp_path))
    stop = asyncio.Event()
    task = asyncio.create_task(stall_trace.run("svc", stop))
    try:
        await asyncio.sleep(0.02)
        time.sleep(0.05)  # the loop held: the ticker wakes ~50 ms late
        gc.collect()
        stall_trace.note_span("batch", time.monotonic() - 0.01, 3, 0)
        await asyncio.sleep(0.02)
    finally:
        stop.set()
        await task
        gc.callbacks.remove(stall_trace._on_gc)
    rows = [json.loads(line) for line in (tmp_path / f"svc-{os.getpid()}.jsonl").read_text().splitlines()]
    kinds = {row[1] for row in rows}
    assert {"lag", "gc", "batch"} <= kinds, kinds
    assert max(row[2] for row in rows if row[1] == "lag") >= 0.04
    assert any(row[3] == 2 for row in rows if row[1] == "gc")  # gc.collect() is a full collection


def test_off_nothing_is_noted(monkeypatch):
    monkeypatch.setattr(stall_trace, "ENABLED", False)
    before = len(stall_trace._rows)
    stall_trace.note("req", 0.1)
    stall_trace.note_span("batch", 0.0, 1)
    assert len(stall_trace._rows) == before
