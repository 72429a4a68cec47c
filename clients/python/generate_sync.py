"""Writes src/gomoku_client/sync.py, the synchronous client, from the asynchronous one (aio.py).

Run it after changing aio.py (``python clients/python/generate_sync.py``); the client's tests
fail while sync.py differs from what this produces.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).parent / "src" / "gomoku_client"

#: (pattern, replacement), applied in order
REWRITES: tuple[tuple[str, str], ...] = (
    (
        r'^"""The asynchronous client \(``httpx.AsyncClient``\); ``gomoku_client.Client`` is its synchronous twin."""',
        '"""The synchronous client (``httpx.Client``), generated from aio.py by generate_sync.py: do not edit."""',
    ),
    (r"^import asyncio\nimport functools\n", "import functools\nimport threading\n"),
    (
        r"^from collections\.abc import AsyncIterator, Callable, Coroutine, Mapping$",
        "from collections.abc import Callable, Iterator, Mapping",
    ),
    (r"\bCallable\[Params, Coroutine\[Any, Any, Answer\]\]", "Callable[Params, Answer]"),
    (r"\bAsyncIterator\b", "Iterator"),
    (r"\bhttpx\.AsyncClient\b", "httpx.Client"),
    (r"\bhttpx\.AsyncBaseTransport\b", "httpx.BaseTransport"),
    (r"\bclass AsyncClient\b", "class Client"),
    (r"-> AsyncClient:", "-> Client:"),
    (r"\bAwaitedEndpoints\b", "BlockingEndpoints"),
    (r"\basyncio\.Lock\(\)", "threading.Lock()"),
    (r"\basyncio\.sleep\(", "time.sleep("),
    (r"\basync def __aenter__", "def __enter__"),
    (r"\basync def __aexit__", "def __exit__"),
    (r"\baclose\(", "close("),
    (r"\baread\(", "read("),
    (r"\baiter_lines\(", "iter_lines("),
    (r"\basync def\b", "def"),
    (r"\basync with\b", "with"),
    (r"\basync for\b", "for"),
    (r"\bawait ", ""),
)


def generate(source: str) -> str:
    for pattern, replacement in REWRITES:
        source = re.sub(pattern, replacement, source, flags=re.MULTILINE)
    return source


def main() -> None:
    (HERE / "sync.py").write_text(generate((HERE / "aio.py").read_text()))


if __name__ == "__main__":
    main()
