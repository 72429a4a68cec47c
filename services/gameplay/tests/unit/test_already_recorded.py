"""Issue 31: the service layer catches the port's ``AlreadyRecorded``, never SQLAlchemy's
``IntegrityError`` — the adapters translate a unique key met in a write or at commit."""

from __future__ import annotations

import contextlib

import pytest
from sqlalchemy.exc import IntegrityError

from gameplay.adapters.transactions import translating
from gameplay.domain.errors import AlreadyRecorded
from gomoku_shared.idempotency import KeyedRequest


def _duplicate() -> IntegrityError:
    return IntegrityError("INSERT", {}, Exception("duplicate key value violates unique constraint"))


@contextlib.asynccontextmanager
async def _committing(fails: bool):
    yield "begun"
    if fails:  # the commit meets the key (an outbox row, a deferred check)
        raise _duplicate()


async def test_a_unique_key_met_in_the_block_or_at_commit_is_already_recorded():
    with pytest.raises(AlreadyRecorded) as raised:
        async with translating(_committing(fails=False)):
            raise _duplicate()
    assert isinstance(raised.value.__cause__, IntegrityError)
    with pytest.raises(AlreadyRecorded):
        async with translating(_committing(fails=True)) as begun:
            assert begun == "begun"


async def test_other_errors_pass_unchanged():
    with pytest.raises(ValueError, match="not a key"):
        async with translating(_committing(fails=False)):
            raise ValueError("not a key")


async def test_a_key_stored_twice_in_a_unit_of_work_is_already_recorded(gp):
    """The repositories on a real database (SQLite): the second row under one Idempotency-Key."""
    units = gp.service.extras["games"].units
    keyed = KeyedRequest("partner:pa", "key-1", "fingerprint")
    async with units.transaction(correlation_id="t") as uow:
        await uow.keys.remember(keyed, 200, {"ok": True})
    with pytest.raises(AlreadyRecorded):
        async with units.transaction(correlation_id="t") as uow:
            await uow.keys.remember(keyed, 200, {"ok": True})
    async with units.reading() as uow:  # the first answer stands
        stored = await uow.keys.lookup(keyed)
    assert stored is not None
