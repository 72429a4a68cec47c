"""The database's transaction as the service layer sees it: a unique key met while writing or
committing is the port's ``AlreadyStored``, never SQLAlchemy's ``IntegrityError``."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from sqlalchemy.exc import IntegrityError

from ..domain.errors import AlreadyStored

Begun = TypeVar("Begun")


@contextlib.asynccontextmanager
async def translating(transaction: AbstractAsyncContextManager[Begun]) -> AsyncIterator[Begun]:
    """``transaction``, its unique-key violations (in the block or at commit) as ``AlreadyStored``."""
    try:
        async with transaction as begun:
            yield begun
    except IntegrityError as error:
        raise AlreadyStored(str(error.orig)) from error
