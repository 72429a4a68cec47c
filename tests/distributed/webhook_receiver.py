"""A partner's webhook endpoint as its own process (``python webhook_receiver.py PORT RECORD``),
so that a test can kill it (SIGKILL, as a crash) and start it again on the same port.

It is the tests' webhook receiver (``gomoku_shared.testing.webhooks``) served by uvicorn,
verifying each delivery with the ``standardwebhooks`` library, the secret from the
``WEBHOOK_SECRET`` environment variable: a delivery that verifies is appended to the RECORD file
(one JSON line: webhook-id, type, data; flushed and synced to disk) before it is answered 204,
any other request is recorded as refused and answered 400. Nothing is deduplicated here: the
test counts the arrivals of each webhook-id.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

import uvicorn
from standardwebhooks import Webhook

from gomoku_shared.testing.webhooks import Arrival, WebhookReceiver


def _recorder(record: Path) -> Callable[[Arrival], None]:
    def write(arrival: Arrival) -> None:
        if arrival.payload is None:
            line = {"refused": arrival.refusal}
        else:
            payload = arrival.payload
            line = {"webhook_id": arrival.headers["webhook-id"], "type": payload["type"], "data": payload["data"]}
        with record.open("a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
            out.flush()
            os.fsync(out.fileno())

    return write


def main() -> None:
    port, record = int(sys.argv[1]), Path(sys.argv[2])
    hook = Webhook(os.environ["WEBHOOK_SECRET"])
    receiver = WebhookReceiver(port, status=204, verify=hook.verify, on_arrival=_recorder(record))
    uvicorn.run(receiver, host="127.0.0.1", port=port, log_config=None, access_log=False, lifespan="off")


if __name__ == "__main__":
    main()
