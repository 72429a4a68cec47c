"""Where the pure pairing step runs: in-process, or in a pool of worker processes.

Pairing a 128-player Swiss round costs ~0.1 s of CPU in gacrux's weighted matching; sections
are independent, so a process pool pairs several sections at once and keeps the event loop
free for HTTP meanwhile. The domain is pure and its inputs picklable, so the result is the same
wherever it runs (determinism is unaffected). ``PAIRING_WORKERS`` (:mod:`pairing.config`) sets
the pool size; 0 (default) pairs in-process.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor

from gomoku_shared.metrics import Tally

from ..domain import RoundPairing
from .round_pairing import PairJob, run_pair_job


class Pairer:
    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        #: rounds paired and the wall time they took, in-process or in the pool (metrics)
        self.timings = Tally()

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0:
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        return self._pool

    async def run(self, job: PairJob) -> RoundPairing:
        pool = self._executor()
        started = time.perf_counter()
        if pool is None:
            paired = run_pair_job(job)
        else:
            paired = await asyncio.get_running_loop().run_in_executor(pool, run_pair_job, job)
        self.timings.record(("pool" if pool is not None else "in_process",), time.perf_counter() - started)
        return paired

    def run_many(self, jobs: Iterable[PairJob]) -> list[RoundPairing]:
        """Pair independent sections concurrently (bench, batch tools)."""
        pool = self._executor()
        if pool is None:
            return [run_pair_job(job) for job in jobs]
        return list(pool.map(run_pair_job, jobs))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
