"""A port's error, not a rule's (issue 31): the service layer catches this, never the database
driver's."""

from __future__ import annotations


class AlreadyStored(Exception):
    """A write met a row stored meanwhile under the same key (a concurrent twin of a keyed
    request stored its Idempotency-Key first). The adapters raise it in place of SQLAlchemy's
    ``IntegrityError``."""
