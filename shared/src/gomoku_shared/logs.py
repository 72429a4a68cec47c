"""Structured (JSON) logs that carry the correlation id of the work in progress.

Personal data never reaches a log line: database engines hide statement parameters
(``db.make_engine``), and a traceback shows a database driver's exception by its class and
SQLSTATE only, because drivers quote the offending value in their messages (asyncpg:
``invalid input for query argument $3: '...'``).
"""

from __future__ import annotations

import contextvars
import json
import logging
import sys
import traceback
from datetime import UTC, datetime

correlation_id: contextvars.ContextVar[str] = contextvars.ContextVar("correlation_id", default="-")


_DATABASE_MODULES = ("sqlalchemy", "asyncpg", "sqlite3", "aiosqlite", "psycopg")


def format_exception(exc_info) -> str:
    """A traceback in which database errors keep their class (and SQLSTATE) but not their message."""
    root = traceback.TracebackException(*exc_info)
    pending: list[tuple[traceback.TracebackException | None, BaseException | None]] = [(root, exc_info[1])]
    seen: set[int] = set()
    while pending:
        node, exc = pending.pop()
        if node is None or exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        if type(exc).__module__.startswith(_DATABASE_MODULES):
            code = getattr(exc, "sqlstate", None) or getattr(getattr(exc, "orig", None), "sqlstate", None)
            # _str is the message TracebackException.format prints; the class has no public way to replace it
            node._str = "(message withheld: database errors may quote personal data" + (  # type: ignore[attr-defined]
                f"; sqlstate {code})" if code else ")"
            )
        pending.append((node.__cause__, exc.__cause__))
        pending.append((node.__context__, exc.__context__))
    return "".join(root.format()).rstrip("\n")


class _JsonFormatter(logging.Formatter):
    def formatException(self, exc_info) -> str:  # noqa: N802 - logging's name
        return format_exception(exc_info)

    def format(self, record: logging.LogRecord) -> str:
        data = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            "correlation_id": correlation_id.get(),
        }
        service = getattr(record, "service", None)
        if service:
            data["service"] = service
        if record.exc_info:
            data["exc"] = self.formatException(record.exc_info)
        return json.dumps(data, ensure_ascii=False)


class _PlainFormatter(logging.Formatter):
    def formatException(self, exc_info) -> str:  # noqa: N802 - logging's name
        return format_exception(exc_info)

    def format(self, record: logging.LogRecord) -> str:
        base = super().format(record)
        return f"{base} [cid={correlation_id.get()}]"


def configure(level: str = "INFO", *, json_lines: bool = True) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_JsonFormatter() if json_lines else _PlainFormatter("%(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for noisy in ("aiormq", "aio_pika", "sqlalchemy.engine", "httpx", "uvicorn.access"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, root.level))
