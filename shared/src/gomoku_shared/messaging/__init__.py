"""Event bus port and transports, transactional outbox and inbox. See README.md."""

from .bus import DEFAULT_DELIVERY_LIMIT, EventBus, Handler, Message, dlq_name
from .inbox import handle_once, inbox_handler, inbox_table
from .memory import InMemoryEventBus
from .outbox import OutboxRelay, add_to_outbox, outbox_table
from .topic import topic_matches

__all__ = [
    "DEFAULT_DELIVERY_LIMIT",
    "EventBus",
    "Handler",
    "InMemoryEventBus",
    "Message",
    "OutboxRelay",
    "add_to_outbox",
    "dlq_name",
    "handle_once",
    "inbox_handler",
    "inbox_table",
    "outbox_table",
    "topic_matches",
]
