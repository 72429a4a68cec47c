"""A unique key a concurrent twin stored first becomes 409 ``concurrent_duplicate`` (the routes
that refuse such twins import no SQLAlchemy: issue 31), and nothing else is swallowed."""

from __future__ import annotations

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, insert

from gomoku_shared.db import concurrent_duplicate_refused, make_engine
from gomoku_shared.errors import Conflict

metadata = MetaData()
keys = Table("keys", metadata, Column("id", Integer, primary_key=True))


async def test_a_duplicate_key_is_refused_as_a_conflict(tmp_path):
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path}/d.sqlite")
    try:
        async with engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
            await conn.execute(insert(keys).values(id=1))
        with pytest.raises(Conflict) as refused:
            with concurrent_duplicate_refused("/v1/test"):
                async with engine.begin() as conn:
                    await conn.execute(insert(keys).values(id=1))
        assert refused.value.code == "concurrent_duplicate"
        assert refused.value.status == 409
        with pytest.raises(ValueError):  # any other error passes through unchanged
            with concurrent_duplicate_refused("/v1/test"):
                raise ValueError("not a duplicate")
    finally:
        await engine.dispose()
