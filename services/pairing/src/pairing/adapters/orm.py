"""Tables of the pairing service (its own database; no other service reads them)."""
from __future__ import annotations

from sqlalchemy import MetaData

from gomoku_shared.messaging.inbox import inbox_table
from gomoku_shared.messaging.outbox import outbox_table

metadata = MetaData()
outbox = outbox_table(metadata)
inbox = inbox_table(metadata)
