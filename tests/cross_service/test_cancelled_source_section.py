"""A source section cancelled at closing counts as absent in a team score (issue 16, Build 8).

AWD-6 + REG-12, SZ 十一(二) (the mixed team: the best 2 men + 1 woman of the final, a unit short
of them gets no team score) and 十二(一) (a final section of 4 or fewer is cancelled): the women's
final is cancelled at closing, the men's final is played. Pairing completes the cancelled section
as ``cancelled`` (it is never paired), so awards no longer waits for it: the mixed team score is
published, computed from the section that was played, with a note naming the cancelled one. On
SQLite + the in-memory bus and on PostgreSQL + RabbitMQ (one database and connection per service).
"""

from __future__ import annotations

from gomoku_shared.contracts.common import ClockSpec, Entrant, Ruleset, SectionRules
from gomoku_shared.contracts.events import EventConfigured, SectionClosed

from .trio import ARB, PLAYED, postgres_trio, sqlite_trio

EV = "SZC"
MEN = f"/v1/events/{EV}/sections/final-men"
REASON = "3 entries (at most 4): section cancelled"


def _configured() -> EventConfigured:
    from registration import presets

    config = presets.load("sz-2022")
    return EventConfigured(event_code=EV, name=config.name, preset_id="sz-2022", config=config.model_dump(mode="json"))


def _rules() -> SectionRules:
    return SectionRules(
        rounds=1,
        ruleset=Ruleset(track="free"),
        clock=ClockSpec(kind="sudden_death", base_s=900),
        tiebreaks=["points", "buchholz", "median_buchholz", "wins"],
    )


def _closed(section_id: str, name: str, gender: str, count: int, *, cancelled: bool) -> SectionClosed:
    units = ("A", "B", "C")
    entrants = [
        Entrant(
            entrant_id=f"{section_id}-{i}",
            name=f"{name} {i}",
            gender=gender,
            rating=2000 - i,
            unit=f"Unit {units[i % 3]}",
            attributes={"unit_id": units[i % 3]},
        )
        for i in range(1, count + 1)
    ]
    return SectionClosed(
        event_code=EV,
        stage="final",
        section_id=section_id,
        name=name,
        status="cancelled" if cancelled else "ready",
        rules=_rules(),
        entrants=entrants,
        cancel_reason=REASON if cancelled else None,
    )


async def _team(trio) -> dict | None:
    """The mixed team once published with every source in (the answer's two reads may straddle
    the commit that publishes it: wait for both)."""
    r = await trio.call("GET", "awards", f"/v1/events/{EV}/teams/mixed-team")
    team = r.json() if r.status_code == 200 else {}
    return team if team.get("status") == "published" and team["missing_sources"] == [] else None


async def _round_one(trio) -> list[dict] | None:
    r = await trio.call("GET", "pairing", f"{MEN}/rounds/1")
    return r.json()["pairings"] if r.status_code == 200 else None


async def _publications(trio, section_id: str) -> list[dict] | None:
    r = await trio.call("GET", "awards", f"/v1/events/{EV}/sections/{section_id}/publications")
    return r.json()["publications"] or None if r.status_code == 200 else None


async def _scenario(trio) -> None:
    await trio.send(_configured())
    await trio.send(_closed("final-women", "女子个人组", "female", 3, cancelled=True))
    await trio.send(_closed("final-men", "男子个人组", "male", 6, cancelled=False))

    # the cancelled section is never paired; pairing lists it as cancelled
    pairings = await trio.until(lambda: _round_one(trio), "the men's round 1 paired")
    sections = (await trio.call("GET", "pairing", f"/v1/events/{EV}/sections")).json()["sections"]
    assert {s["section_id"]: s["status"] for s in sections} == {"final-women": "cancelled", "final-men": "running"}
    [women] = await trio.until(lambda: _publications(trio, "final-women"), "the cancelled section reaches awards")
    assert women["payload"]["cancelled"] is True
    assert women["payload"]["notes"] == [f"cancelled at closing: {REASON}"]
    pending = (await trio.call("GET", "awards", f"/v1/events/{EV}/teams/mixed-team")).json()
    assert pending["status"] == "pending" and pending["missing_sources"] == ["final-men"]

    # the men's final is played (the arbiter enters every result, PAIR-11)
    for pairing in pairings:
        r = await trio.call(
            "POST",
            "pairing",
            f"{MEN}/rounds/1/results",
            headers=ARB,
            json={"pairing_id": pairing["pairing_id"], "result": "first_wins", "note": "result slip"},
        )
        assert r.status_code == 200, r.text

    team = await trio.until(lambda: _team(trio), "the mixed team score published")
    assert team["publication"]["revision"] == 1
    [note] = team["notes"]
    assert f"女子个人组 (cancelled at closing: {REASON})" in note
    assert "computed from the sections that were played" in note
    # counted as absent: per the seed no unit has its woman, so none is scored, and each says why
    assert {row["unit_name"] for row in team["rows"]} == {"Unit A", "Unit B", "Unit C"}
    assert all(row["place"] is None and "(section cancelled)" in row["note"] for row in team["rows"])
    [men] = await trio.until(lambda: _publications(trio, "final-men"), "the men's final published")
    assert men["payload"]["cancelled"] is False and men["payload"]["notes"] == []


async def test_awd6_reg12_cancelled_source_section_counts_as_absent_on_sqlite(tmp_path):
    async with sqlite_trio(tmp_path) as trio:
        await _scenario(trio)


async def test_awd6_reg12_cancelled_source_section_counts_as_absent_on_postgres_rabbitmq(
    fresh_database, amqp_url, bus_namespace
):
    urls = {name: await fresh_database() for name in PLAYED}
    async with postgres_trio(urls, amqp_url, bus_namespace) as trio:
        await _scenario(trio)
