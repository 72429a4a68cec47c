"""The database's transaction as the service layer sees it: a unique key met while writing or
committing is the port's ``AlreadyRecorded``, never SQLAlchemy's ``IntegrityError`` (the service
layer knows no driver)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from sqlalchemy.exc import IntegrityError

from ..domain.errors import AlreadyRecorded

Begun = TypeVar("Begun")


@contextlib.asynccontextmanager
async def translating(transaction: AbstractAsyncContextManager[Begun]) -> AsyncIterator[Begun]:
    """``transaction``, its unique-key violations (in the block or at commit) as ``AlreadyRecorded``."""
    try:
        async with transaction as begun:
            yield begun
    except IntegrityError as error:
        raise AlreadyRecorded(str(error.orig)) from error
