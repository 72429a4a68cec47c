"""Header and body read timeouts for every served process (uvicorn's h11 protocol, extended).

uvicorn times out only an idle keep-alive connection, and any byte received cancels that timer:
a client that opens a connection and sends nothing, or sends its headers or body a byte at a
time (slow loris), holds a connection and its buffers for as long as it likes. Here a request's
headers must be complete within ``header_s`` of its first byte (of the connection, for its
first request), and its body within ``body_s`` of the headers; otherwise the connection is
closed (a half-read request has no one to answer). An answer being written (a stream) and a
keep-alive pause between requests are not limited here: those are the app's and uvicorn's own
``timeout_keep_alive``.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

#: defaults of HTTP_HEADER_TIMEOUT_S and HTTP_BODY_TIMEOUT_S (the services' bodies are small: the
#: input guard caps them at a few hundred kB)
HEADER_TIMEOUT_S = 10.0
BODY_TIMEOUT_S = 30.0


class TimedH11Protocol(H11Protocol):
    """H11Protocol with the read deadlines above (``header_s`` and ``body_s`` set by ``timed``)."""

    header_s: float = HEADER_TIMEOUT_S
    body_s: float = BODY_TIMEOUT_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._read_deadline: asyncio.TimerHandle | None = None
        #: what the armed deadline waits for: "headers", "body" or None
        self._awaiting: str | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._expect("headers")  # a connection that never sends a request is cut off too

    def connection_lost(self, exc: Exception | None) -> None:
        self._expect(None)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.is_closing() or self.transport.get_protocol() is not self:
            # closed, or upgraded to a WebSocket (its own protocol from here on)
            self._expect(None)
            return
        state = self.conn.their_state
        if state is h11.IDLE and self.conn.trailing_data[0]:
            self._expect("headers")  # a request has begun and its head is not complete yet
        elif state is h11.SEND_BODY:
            self._expect("body")
        elif state is not h11.IDLE:
            self._expect(None)  # read in full (DONE), or closing: nothing more to wait for

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


def timed(header_s: float, body_s: float) -> type[TimedH11Protocol]:
    """The protocol class for ``uvicorn.run(http=...)`` with these deadlines."""
    return type("TimedH11Protocol", (TimedH11Protocol,), {"header_s": header_s, "body_s": body_s})
