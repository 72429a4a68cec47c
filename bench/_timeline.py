"""Where a latency tail comes from: the bench's moves lined up with what the services did meanwhile.

The services started with ``STALL_TRACE_DIR`` write their timeline there (``gomoku_shared.stall_trace``:
event-loop lag, garbage collections, group-commit batches, sweeps, relay passes, each request's
time in the service), on the monotonic clock the bench shares. The bench notes each move (sent,
latency, which replica) and its own event loop's lag. ``report`` prints, for the slow moves, how
many overlapped each kind of stall, and the worst 100 ms buckets with what happened in them.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from ._served_games import percentile

BUCKET_S = 0.1
TICK_S = 0.005


class ClientTimeline:
    """The bench's side: each move (sent, seconds, replica) and the bench loop's own lag."""

    def __init__(self) -> None:
        self.moves: list[tuple[float, float, int]] = []
        self.lag: list[tuple[float, float]] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        while True:
            asked = time.monotonic()
            await asyncio.sleep(TICK_S)
            late = time.monotonic() - asked - TICK_S
            if late > 0.002:
                self.lag.append((asked + TICK_S, late))

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()


def _read(folder: Path, pids: list[int]) -> list[list[list[Any]]]:
    """Each replica's rows (by its position in ``pids``)."""
    out: list[list[list[Any]]] = []
    for pid in pids:
        rows: list[list[Any]] = []
        for path in folder.glob(f"*-{pid}.jsonl"):
            rows += [json.loads(line) for line in path.read_text().splitlines() if line]
        out.append(rows)
    return out


def _spans(rows: list[list[Any]], kind: str, at_least: float = 0.0) -> list[tuple[float, float]]:
    """(start, end) of the rows of one kind lasting at least ``at_least`` seconds ("lag" rows are
    (end of the wait, lag): the loop was held from end - lag)."""
    if kind == "lag":
        return [(r[0], r[0] + r[2]) for r in rows if r[1] == "lag" and r[2] >= at_least]
    return [(r[0], r[0] + r[2]) for r in rows if r[1] == kind and r[2] >= at_least]


def _overlaps(spans: list[tuple[float, float]], start: float, end: float) -> bool:
    return any(s < end and e > start for s, e in spans)


def report(
    client: ClientTimeline, folder: Path, pids: list[int], window: tuple[float, float], slow_s: float
) -> list[str]:
    """Lines for the report: the stall causes of the moves slower than ``slow_s`` in ``window``."""
    replicas = _read(folder, pids)
    w0, w1 = window
    moves = [m for m in client.moves if w0 <= m[0] <= w1]
    if not moves:
        return ["timeline: no moves in the window"]
    lines = [f"timeline of the live phase ({len(moves)} moves; slow: > {1000 * slow_s:.0f} ms as the bench saw it)"]
    causes: dict[str, list[list[tuple[float, float]]]] = {
        "service GC gen 2": [[(s, e) for s, e, g in _gc(rows) if g == 2] for rows in replicas],
        "service GC gen 0/1 >= 5 ms": [
            [(s, e) for s, e, g in _gc(rows) if g < 2 and e - s >= 0.005] for rows in replicas
        ],
        "service loop lag >= 20 ms": [_spans(rows, "lag", 0.02) for rows in replicas],
        "group-commit batch >= 20 ms": [_spans(rows, "batch", 0.02) for rows in replicas],
        "sweep": [_spans(rows, "sweep", 0.0) for rows in replicas],
        "outbox relay pass": [_spans(rows, "relay", 0.0) for rows in replicas],
    }
    client_lag = [(t, t + late) for t, late in client.lag if late >= 0.02]
    slow = [m for m in moves if m[1] > slow_s]
    lines.append(
        f"  slow moves: {len(slow)} ({100 * len(slow) / len(moves):.2f} %); overlapping (a move may count in several):"
    )
    for name, per_replica in causes.items():
        hit = sum(1 for sent, sec, r in slow if _overlaps(per_replica[r], sent, sent + sec))
        lines.append(f"    {name:<32}{hit:>7}  ({len(slow) and 100 * hit / len(slow):.0f} %)")
    hit = sum(1 for sent, sec, _r in slow if _overlaps(client_lag, sent, sent + sec))
    lines.append(f"    {'bench loop lag >= 20 ms':<32}{hit:>7}  ({len(slow) and 100 * hit / len(slow):.0f} %)")
    for i, rows in enumerate(replicas):
        gcs = _gc(rows)
        window_gcs = [(s, e, g) for s, e, g in gcs if w0 <= s <= w1]
        by_gen: dict[int, list[float]] = defaultdict(list)
        for s, e, g in window_gcs:
            by_gen[g].append(e - s)
        lag = sorted(r[2] for r in rows if r[1] == "lag" and w0 <= r[0] <= w1)
        batches = [r for r in rows if r[1] == "batch" and w0 <= r[0] <= w1]
        bsec = sorted(r[2] for r in batches)
        bsize = sorted(r[3] for r in batches)
        reqs = sorted(r[2] for r in rows if r[1] == "req" and w0 <= r[0] <= w1)
        gc_cpu: dict[int, float] = defaultdict(float)
        for r in rows:
            if r[1] == "gc" and w0 <= r[0] <= w1:
                gc_cpu[r[3]] += r[5]
        gc_words = ", ".join(
            f"gen {g}: {len(v)} x, max {1000 * max(v):.1f} ms, total {1000 * sum(v):.0f} ms (CPU {1000 * gc_cpu[g]:.0f} ms)"
            for g, v in sorted(by_gen.items())
        )
        lag_cpu = sum(r[3] for r in rows if r[1] == "lag" and w0 <= r[0] <= w1)
        lines.append(
            f"  replica {i}: requests in the service p50 {1000 * percentile(reqs, 0.5):.1f} / p99 "
            f"{1000 * percentile(reqs, 0.99):.1f} ms; loop lag noted {len(lag)} x (max "
            f"{1000 * (lag[-1] if lag else 0):.0f} ms, sum {1000 * sum(lag):.0f} ms, CPU in them {1000 * lag_cpu:.0f} ms); "
            f"batches {len(batches)} "
            f"(size p50 {percentile(bsize, 0.5):.0f} max {bsize[-1] if bsize else 0}; time p50 "
            f"{1000 * percentile(bsec, 0.5):.1f} p99 {1000 * percentile(bsec, 0.99):.1f} max "
            f"{1000 * (bsec[-1] if bsec else 0):.0f} ms); GC {gc_words or 'none'}"
        )
    lag = sorted(late for t, late in client.lag if w0 <= t <= w1)
    lines.append(
        f"  bench: loop lag noted {len(lag)} x (max {1000 * (lag[-1] if lag else 0):.0f} ms, sum {1000 * sum(lag):.0f} ms)"
    )
    lines += _worst_buckets(moves, replicas, client, w0, w1)
    return lines


def _gc(rows: list[list[Any]]) -> list[tuple[float, float, int]]:
    return [(r[0], r[0] + r[2], r[3]) for r in rows if r[1] == "gc"]


def _worst_buckets(moves, replicas, client: ClientTimeline, w0: float, w1: float, shown: int = 8) -> list[str]:
    by_bucket: dict[int, list[float]] = defaultdict(list)
    for sent, sec, _r in moves:
        by_bucket[int((sent - w0) / BUCKET_S)].append(sec)
    worst = sorted(by_bucket, key=lambda b: -max(by_bucket[b]))[:shown]
    lines = [
        f"  the {len(worst)} worst {1000 * BUCKET_S:.0f} ms buckets (moves sent in it: n, p99, max; then per replica):"
    ]
    for b in sorted(worst):
        t0, t1 = w0 + b * BUCKET_S, w0 + (b + 1) * BUCKET_S
        values = sorted(by_bucket[b])
        parts = [
            f"    t={t0 - w0:6.1f}s n={len(values):4d} p99 {1000 * percentile(values, 0.99):5.0f} max {1000 * values[-1]:5.0f} ms |"
        ]
        for i, rows in enumerate(replicas):
            inside = [r for r in rows if t0 - 0.05 <= r[0] < t1 + 0.05]
            lag = max((r[2] for r in inside if r[1] == "lag"), default=0.0)
            gcs = [f"g{r[3]}:{1000 * r[2]:.0f}" for r in inside if r[1] == "gc" and (r[3] > 0 or r[2] > 0.003)]
            bt = [r for r in inside if r[1] == "batch"]
            other = [f"{r[1]}:{1000 * r[2]:.0f}ms/{r[3]}" for r in inside if r[1] in ("sweep", "relay") and r[3]]
            parts.append(
                f" r{i} lag {1000 * lag:3.0f} batches {len(bt)} max {1000 * max((r[2] for r in bt), default=0):3.0f} ms"
                f"/{max((r[3] for r in bt), default=0)} {' '.join(gcs + other)} |"
            )
        lag = max((late for t, late in client.lag if t0 - 0.05 <= t < t1 + 0.05), default=0.0)
        parts.append(f" bench lag {1000 * lag:.0f}")
        lines.append("".join(parts))
    return lines
