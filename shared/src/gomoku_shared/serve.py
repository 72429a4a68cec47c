"""Run one service as its own process: ``python -m gomoku_shared.serve <service>``.

This is the command of every service container in docker-compose.yml (distributed mode):
settings come from the environment (DATABASE_URL, AMQP_URL, API_KEYS, …).
"""
from __future__ import annotations

import argparse

import uvicorn

from . import logs
from .service import builders
from .settings import ServiceSettings


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m gomoku_shared.serve", description=__doc__)
    p.add_argument("service")
    p.add_argument("--host", default="0.0.0.0")
    p.add_argument("--port", type=int, default=8000)
    args = p.parse_args(argv)
    found = builders()
    if args.service not in found:
        p.error(f"unknown service {args.service!r}; installed: {sorted(found)}")
    settings = ServiceSettings(GOMOKU_SERVICE=args.service)
    logs.configure(settings.log_level, json_lines=settings.log_json)
    service = found[args.service](settings)
    uvicorn.run(service.app, host=args.host, port=args.port, log_config=None, access_log=False,
                timeout_graceful_shutdown=10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
