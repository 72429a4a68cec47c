"""A connection returned while its task is cancelled (a background task stopped at shutdown) is
discarded by the pool: the log says so in one INFO line, not as an ERROR with a traceback."""

from __future__ import annotations

import asyncio
import logging
import sys

from gomoku_shared import logs


def _record(name: str, exc: BaseException) -> logging.LogRecord:
    try:
        raise exc
    except BaseException:
        info = sys.exc_info()
    return logging.LogRecord(name, logging.ERROR, __file__, 1, "Exception during reset or similar", (), info)


def _configured_handler() -> logging.Handler:
    saved = logging.getLogger().handlers[:], logging.getLogger().level
    try:
        logs.configure("INFO")
        return logging.getLogger().handlers[0]
    finally:
        logging.getLogger().handlers[:], _ = saved
        logging.getLogger().setLevel(saved[1])


def test_a_cancelled_checkin_is_one_info_line_without_a_traceback():
    handler = _configured_handler()
    record = _record("sqlalchemy.pool.impl.AsyncAdaptedQueuePool", asyncio.CancelledError())
    assert handler.filter(record)
    line = handler.format(record)
    assert record.levelname == "INFO" and "Traceback" not in line and "discarded" in line


def test_other_pool_errors_keep_their_traceback():
    handler = _configured_handler()
    record = _record("sqlalchemy.pool.impl.AsyncAdaptedQueuePool", OSError("connection reset"))
    assert handler.filter(record)
    assert record.levelname == "ERROR" and "Traceback" in handler.format(record)
