"""A timeline of what a process did, for finding latency stalls (diagnosis; off by default).

With ``STALL_TRACE_DIR`` set, a process records, on the monotonic clock every process of the
machine shares (so a bench can line them up with its own client-side latencies):

* ``lag``: the event loop's lag, from a ticker that asks to wake every 5 ms (a wake later than
  2 ms is noted: the loop was busy, or the process was not scheduled);
* ``gc``: every garbage collection (generation, seconds, objects collected);
* whatever the code notes with :func:`note` (gameplay: each group-commit batch; the sweep and the
  outbox relay passes that did work; each action request's time in the service).

Each process appends its rows as JSON lines to ``<dir>/<service>-<pid>.jsonl`` once a second.
Off (the variable unset), :func:`note` is a test of one module global and nothing else runs.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from typing import Any

#: on when the process started with STALL_TRACE_DIR set
ENABLED = bool(os.environ.get("STALL_TRACE_DIR"))
#: a wake of the ticker later than this is noted (seconds)
LAG_NOTED_S = 0.002
TICK_S = 0.005

_rows: list[list[Any]] = []
_gc_started: list[float] = [0.0, 0.0]


def note(kind: str, *values: Any) -> None:
    """A row of the timeline: (now, kind, values…); nothing when tracing is off."""
    if ENABLED:
        _rows.append([time.monotonic(), kind, *values])


def note_span(kind: str, started: float, *values: Any) -> None:
    """A row for something that began at ``started`` (``time.monotonic()``): its start and length."""
    if ENABLED:
        now = time.monotonic()
        _rows.append([started, kind, now - started, *values])


def _on_gc(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _gc_started[0], _gc_started[1] = time.monotonic(), time.thread_time()
    else:
        started, cpu = _gc_started
        # the CPU the collection took beside its wall time: on a busy machine they differ
        _rows.append(
            [
                started,
                "gc",
                time.monotonic() - started,
                info.get("generation"),
                info.get("collected"),
                time.thread_time() - cpu,
            ]
        )


def _flush(path: str) -> None:
    global _rows
    rows, _rows = _rows, []
    if rows:
        with open(path, "a", encoding="utf-8") as out:
            out.write("".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows))


async def run(service: str, stop: asyncio.Event | None = None) -> None:
    """The ticker (event-loop lag) and the once-a-second flush, until ``stop`` or cancelled."""
    if not ENABLED:
        return
    folder = os.environ["STALL_TRACE_DIR"]
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"{service}-{os.getpid()}.jsonl")
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)
    flushed = time.monotonic()
    try:
        while stop is None or not stop.is_set():
            asked, cpu = time.monotonic(), time.thread_time()
            await asyncio.sleep(TICK_S)
            now = time.monotonic()
            if now - asked - TICK_S > LAG_NOTED_S:
                # with the CPU the process used meanwhile: lag with little CPU was the machine's
                _rows.append([asked + TICK_S, "lag", now - asked - TICK_S, time.thread_time() - cpu])
            if now - flushed >= 1.0:
                flushed = now
                _flush(path)
    finally:
        _flush(path)
