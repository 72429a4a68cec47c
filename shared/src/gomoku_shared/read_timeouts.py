"""Header and body read timeouts for every served process (uvicorn's httptools protocol, extended).

uvicorn times out only an idle keep-alive connection, and any byte received cancels that timer:
a client that opens a connection and sends nothing, or sends its headers or body a byte at a
time (slow loris), holds a connection and its buffers for as long as it likes. Here a request's
headers must be complete within ``header_s`` of its first byte (of the connection, for its
first request), and its body within ``body_s`` of the headers; otherwise the connection is
closed (a half-read request has no one to answer). An answer being written (a stream) and a
keep-alive pause between requests are not limited here: those are the app's and uvicorn's own
``timeout_keep_alive``.

It extends uvicorn's httptools protocol (its C parser), the one uvicorn picks by default: the
pure-Python h11 parser costs a served move about two thirds more CPU (``bench.compare``,
gameplay_load). A request that arrives whole in one read, as nearly all do, arms no timer: the
parser's callbacks only mark where the request stands, and a deadline is set only when a read
ends inside a request.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: defaults of HTTP_HEADER_TIMEOUT_S and HTTP_BODY_TIMEOUT_S (the services' bodies are small: the
#: input guard caps them at a few hundred kB)
HEADER_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 30.0


class TimedHttpProtocol(HttpToolsProtocol):
    """HttpToolsProtocol with the read deadlines above (``header_s`` and ``body_s`` set by ``timed``)."""

    header_s: float = HEADER_TIMEOUT_S
    body_s: float = BODY_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_deadline: asyncio.TimerHandle | None = None
        #: what the armed deadline waits for: "headers", "body" or None
        self._awaiting: str | None = None
        #: where the request being read stands: "headers", "body" or None (between requests)
        self._reading: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._expect("headers")  # a connection that never sends a request is cut off too

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect(None)
        super().connection_lost(exc)

    # the parser's callbacks (httptools binds them when the parser is made, in __init__)
    def on_message_begin(self) -> None:
        self._reading = "headers"
        super().on_message_begin()

    def on_headers_complete(self) -> None:
        self._reading = "body"
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._reading = None
        super().on_message_complete()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            # closed, or upgraded to a WebSocket (its own protocol from here on)
            self._expect(None)
        elif self._reading is not None or self._awaiting is not None:
            self._expect(self._reading)  # inside a request: its deadline; read in full: none

    def _expect(self, what: str | None) -> None:
        if what is not None and what == self._awaiting:
            return  # the deadline runs from the first byte, not the latest
        if self._read_deadline is not None:
            self._read_deadline.cancel()
            self._read_deadline = None
        self._awaiting = what
        if what is not None:
            seconds = self.header_s if what == "headers" else self.body_s
            self._read_deadline = self.loop.call_later(seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._read_deadline = None
        if not self.transport.is_closing():
            self.logger.info("closed a connection whose request %s did not arrive in time", self._awaiting)
            self.transport.close()
        self._awaiting = None


def timed(header_s: float, body_s: float) -> type[TimedHttpProtocol]:
    """The protocol class for ``uvicorn.run(http=...)`` with these deadlines."""
    return type("TimedHttpProtocol", (TimedHttpProtocol,), {"header_s": header_s, "body_s": body_s})
