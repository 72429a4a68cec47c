"""The group-commit writer (PostgreSQL): one move the database refuses must not fail the other
moves of its statement (issue: input that cannot be stored is the sender's 4xx, nobody else's)."""

from __future__ import annotations

import asyncio

from gameplay.adapters.move_writer import MoveWrite, PgMoveWriter


class Refused(Exception):
    pass


def _move(game_id: str, bad: bool = False) -> MoveWrite:
    return MoveWrite({"game_id": game_id, "idem_principal": None, "idem_key": None, "bad": bad})


async def test_a_refused_move_fails_alone_and_the_rest_of_its_batch_is_written():
    writer = PgMoveWriter("postgresql://unused", flushers=1)
    statements: list[list[str]] = []

    async def write(moves):  # stands in for the statement: it fails as a whole on one bad row
        statements.append([m.values["game_id"] for m in moves])
        if any(m.values["bad"] for m in moves):
            raise Refused()
        return {m.values["game_id"] for m in moves}

    writer._write = write
    results = await asyncio.gather(
        writer.write(_move("g1")),
        writer.write(_move("g2", bad=True)),
        writer.write(_move("g3")),
        return_exceptions=True,
    )
    assert results[0] is True and results[2] is True and isinstance(results[1], Refused)
    assert statements[0] == ["g1", "g2", "g3"]  # one statement first, then each move alone
    assert sorted(statements[1:]) == [["g1"], ["g2"], ["g3"]]


async def test_moves_with_the_same_idempotency_key_never_share_a_statement():
    writer = PgMoveWriter("postgresql://unused", flushers=1)
    statements: list[list[str]] = []

    async def write(moves):
        statements.append([m.values["game_id"] for m in moves])
        return {m.values["game_id"] for m in moves}

    writer._write = write
    keyed = [
        MoveWrite({"game_id": g, "idem_principal": "operator:-:k1", "idem_key": "same", "bad": False})
        for g in ("g1", "g2")
    ]
    assert await asyncio.gather(*(writer.write(m) for m in keyed)) == [True, True]
    assert statements == [["g1"], ["g2"]]
