"""A partner's webhook endpoint as its own process (``python webhook_receiver.py PORT RECORD``),
so that a test can kill it (SIGKILL, as a crash) and start it again on the same port.

It verifies each delivery with the ``standardwebhooks`` library, the secret from the
``WEBHOOK_SECRET`` environment variable: a delivery that verifies is appended to the RECORD file
(one JSON line: webhook-id, type, data; flushed and synced to disk) and answered 204, any other
request is recorded as refused and answered 400. Nothing is deduplicated here: the test counts
the arrivals of each webhook-id.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from standardwebhooks import Webhook


class _Handler(BaseHTTPRequestHandler):
    hook: Webhook
    record: Path
    lock = threading.Lock()

    def do_POST(self) -> None:  # noqa: N802 - the http.server hook's name
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        headers = {name.lower(): value for name, value in self.headers.items()}
        try:
            payload = self.hook.verify(body, headers)
            line = {"webhook_id": headers["webhook-id"], "type": payload["type"], "data": payload["data"]}
            status = 204
        except Exception as exc:  # noqa: BLE001 - anything that does not verify is refused
            line = {"refused": repr(exc)}
            status = 400
        with self.lock, self.record.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
            out.flush()
            os.fsync(out.fileno())
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        return


def main() -> None:
    port, record = int(sys.argv[1]), Path(sys.argv[2])
    _Handler.hook = Webhook(os.environ["WEBHOOK_SECRET"])
    _Handler.record = record
    server = ThreadingHTTPServer(("127.0.0.1", port), _Handler)
    server.serve_forever()


if __name__ == "__main__":
    main()
