"""``gomoku-ops``: the operators' repair tool.

    gomoku-ops dlq list                         # ready and dead-lettered events per service queue
    gomoku-ops dlq show pairing [--payload]     # what failed (the payload only on request)
    gomoku-ops dlq replay pairing --all         # or --event-id ID (repeatable)
    gomoku-ops outbox backlog --db pairing=postgresql://…   # or PAIRING_DATABASE_URL
    gomoku-ops outbox resend pairing EVENT_ID…
    gomoku-ops replay pairing --db gameplay=… --db registration=…   # after restoring pairing
    gomoku-ops republish standings EVENT SECTION   # the newest section.completed, sent again
    gomoku-ops republish awards EVENT SECTION      # the newest awards.published, sent again
    gomoku-ops check EVENT --url https://gateway --api-key …  # do the services agree?

The broker comes from ``AMQP_URL`` and ``BUS_NAMESPACE`` (as for the services). Every command
prints plain text, or JSON with ``--json``; it exits 1 when it finds a problem (a dead letter
on ``dlq list``, a disagreement on ``check``) and 2 on wrong usage.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import click

from gomoku_shared.topology import CONSUMES

from .broker import Broker
from .databases import PUBLICATIONS, Outbox, database_urls

T = TypeVar("T")


def _run(work: Awaitable[T]) -> T:
    try:
        return asyncio.run(work)  # type: ignore[arg-type]  # asyncio.run takes any awaitable coroutine
    except ValueError as exc:  # wrong input found while working: a usage error, not a crash
        raise click.UsageError(str(exc)) from exc
    except (OSError, ConnectionError) as exc:  # the broker or a database is not reachable
        raise click.ClickException(f"cannot reach {type(exc).__name__}: {exc}") from exc


def _emit(as_json: bool, rows: list[Any], text: Callable[[Any], str]) -> None:
    if as_json:
        plain = [dataclasses.asdict(r) if dataclasses.is_dataclass(r) and not isinstance(r, type) else r for r in rows]
        click.echo(json.dumps(plain, indent=2))
    else:
        for row in rows:
            click.echo(text(row))


@click.group()
@click.option("--amqp-url", envvar="AMQP_URL", default="amqp://guest:guest@127.0.0.1:5672/", show_default=True)
@click.option("--namespace", envvar="BUS_NAMESPACE", default="gomoku", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of text")
@click.pass_context
def main(ctx: click.Context, amqp_url: str, namespace: str, as_json: bool) -> None:
    """Inspect and repair a running Gomoku platform."""
    ctx.obj = {"amqp_url": amqp_url, "namespace": namespace, "json": as_json}


# ------------------------------------------------------------------ dead letters


@main.group()
def dlq() -> None:
    """Dead-lettered events: list, show and replay."""


@dlq.command("list")
@click.option("--service", default=None, help="one service's queue only")
@click.pass_obj
def dlq_list(obj: dict[str, Any], service: str | None) -> None:
    """Events waiting and dead-lettered in each service's queue."""

    async def work():
        async with Broker(obj["amqp_url"], obj["namespace"]) as broker:
            return await broker.depths(service)

    depths = _run(work())
    _emit(obj["json"], depths, lambda d: f"{d.service:<14} ready {d.ready:>7}   dead letters {d.dead:>5}")
    if any(d.dead for d in depths):
        sys.exit(1)


@dlq.command("show")
@click.argument("service")
@click.option("--payload", is_flag=True, help="print each event's payload too (it may name people)")
@click.option("--limit", default=50, show_default=True, type=click.IntRange(1, 10_000))
@click.pass_obj
def dlq_show(obj: dict[str, Any], service: str, payload: bool, limit: int) -> None:
    """The dead letters of SERVICE's queue, oldest first (left in place)."""

    async def work():
        async with Broker(obj["amqp_url"], obj["namespace"]) as broker:
            return await broker.dead_letters(service)

    letters = _run(work())[:limit]
    if not payload:
        letters = [dataclasses.replace(letter, payload={}) for letter in letters]

    def line(letter) -> str:
        where = " ".join(f"{k}={v}" for k, v in letter.where.items())
        text = f"{letter.event_id}  {letter.event_type:<20} {letter.occurred_at}  {where}"
        return text + (f"\n    {json.dumps(letter.payload, ensure_ascii=False)}" if payload else "")

    _emit(obj["json"], letters, line)


@dlq.command("replay")
@click.argument("service")
@click.option("--event-id", "event_ids", multiple=True, help="replay this event (repeatable)")
@click.option("--all", "replay_all", is_flag=True, help="replay every dead letter of the queue")
@click.pass_obj
def dlq_replay(obj: dict[str, Any], service: str, event_ids: tuple[str, ...], replay_all: bool) -> None:
    """Put dead letters back in SERVICE's queue (only its consumer sees them again)."""
    if replay_all == bool(event_ids):
        raise click.UsageError("give --all or at least one --event-id")

    async def work():
        async with Broker(obj["amqp_url"], obj["namespace"]) as broker:
            return await broker.replay(service, None if replay_all else list(event_ids))

    moved = _run(work())
    _emit(obj["json"], [{"service": service, "replayed": moved}], lambda r: f"replayed {r['replayed']} event(s)")


# ------------------------------------------------------------------ outbox


def _database_urls(pairs: tuple[str, ...], services) -> dict[str, str]:
    try:
        return database_urls(pairs, services)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc


def _outboxes(pairs: tuple[str, ...], services: list[str]) -> list[Outbox]:
    urls = _database_urls(pairs, services)
    missing = [s for s in services if s not in urls]
    if missing:
        raise click.UsageError(
            "no database for " + ", ".join(missing) + ": give --db service=url or <SERVICE>_DATABASE_URL"
        )
    return [Outbox(s, urls[s]) for s in services]


DB_OPTION = click.option("--db", "db_pairs", multiple=True, help="service=database URL (repeatable)")
SERVICES = ("registration", "pairing", "gameplay", "awards", "partners")


@main.group()
def outbox() -> None:
    """The services' outboxes: backlog and re-sends."""


@outbox.command("backlog")
@click.option("--service", "only", default=None, type=click.Choice(SERVICES))
@DB_OPTION
@click.pass_obj
def outbox_backlog_command(obj: dict[str, Any], only: str | None, db_pairs: tuple[str, ...]) -> None:
    """Unpublished events per service and the age of the oldest."""
    services = [only] if only else [s for s in SERVICES if s in _database_urls(db_pairs, SERVICES)]
    if not services:
        raise click.UsageError("no database given: --db service=url or <SERVICE>_DATABASE_URL")

    async def work():
        found = []
        for box in _outboxes(db_pairs, services):
            try:
                found.append(await box.backlog())
            finally:
                await box.close()
        return found

    backlogs = _run(work())
    _emit(obj["json"], backlogs, lambda b: f"{b.service:<14} pending {b.pending:>7}   oldest {b.oldest_s:>9.1f} s")


@outbox.command("resend")
@click.argument("service", type=click.Choice(SERVICES))
@click.argument("event_ids", nargs=-1, required=True)
@DB_OPTION
@click.pass_obj
def outbox_resend(obj: dict[str, Any], service: str, event_ids: tuple[str, ...], db_pairs: tuple[str, ...]) -> None:
    """Send SERVICE's events EVENT_IDS again (consumers that had them skip them)."""

    async def work():
        (box,) = _outboxes(db_pairs, [service])
        try:
            return await box.resend(list(event_ids))
        finally:
            await box.close()

    found = _run(work())
    unknown = sorted(set(event_ids) - set(found))
    _emit(
        obj["json"],
        [{"service": service, "resent": found, "unknown": unknown}],
        lambda r: (
            f"queued {len(r['resent'])} event(s) for the relay" + (f"; unknown: {', '.join(unknown)}" * bool(unknown))
        ),
    )
    if unknown:
        sys.exit(1)


#: the order to start the producers in after a replay (upstream first): within a producer the
#: relay keeps the order, across producers the causes must come first
PIPELINE_ORDER = ("registration", "pairing", "gameplay", "awards", "partners")


@main.command()
@click.argument("consumer", type=click.Choice(sorted(CONSUMES)))
@DB_OPTION
@click.pass_obj
def replay(obj: dict[str, Any], consumer: str, db_pairs: tuple[str, ...]) -> None:
    """After restoring CONSUMER's database from a backup, with CONSUMER and the services that
    publish what it consumes stopped: empty CONSUMER's queue and mark every event it consumes
    pending again in the producers' outboxes. Then start the producers one at a time in the
    printed order, each once the previous one's `outbox backlog` is 0: their relays send
    everything again in order. The restored inbox skips what the backup already had; what
    CONSUMER publishes again is skipped by its consumers' inboxes. (Producers left running would
    publish new events between the purge and the replay, ahead of older ones.)"""
    wanted = list(CONSUMES[consumer])
    given = _database_urls(db_pairs, SERVICES)
    producers = [s for s in PIPELINE_ORDER if s in given and s != consumer]
    if not producers:
        raise click.UsageError("no database given: --db service=url for the producers of the events")

    async def work():
        async with Broker(obj["amqp_url"], obj["namespace"]) as broker:
            # what waits there is in the producers' outboxes too: the replay delivers it in order
            purged = await broker.purge(consumer)
        counts = []
        for box in _outboxes(db_pairs, producers):
            try:
                counts.append({"service": box.service, "resent": await box.resend_all(wanted)})
            finally:
                await box.close()
        return purged, counts

    purged, counts = _run(work())
    _emit(
        obj["json"],
        [{"consumer": consumer, "purged": purged, "producers": counts, "start_order": producers}],
        lambda r: "\n".join(
            [f"emptied {consumer}'s queue ({purged} event(s))"]
            + [f"{c['service']:<14} {c['resent']:>7} event(s) to send again" for c in counts]
            + [f"start {', then '.join(producers)} (each once the previous one's outbox backlog is 0)"]
        ),
    )


@main.command()
@click.argument("what", type=click.Choice(sorted(PUBLICATIONS)))
@click.argument("event_code")
@click.argument("section_id")
@DB_OPTION
@click.pass_obj
def republish(obj: dict[str, Any], what: str, event_code: str, section_id: str, db_pairs: tuple[str, ...]) -> None:
    """Send a section's newest standings (section.completed) or awards (awards.published) again."""
    service, event_type = PUBLICATIONS[what]

    async def work():
        (box,) = _outboxes(db_pairs, [service])
        try:
            event_id = await box.latest_publication(event_type, event_code, section_id)
            if event_id is None:
                return None
            await box.resend([event_id])
            return event_id
        finally:
            await box.close()

    event_id = _run(work())
    if event_id is None:
        click.echo(f"{service} has published no {event_type} for {event_code} {section_id}", err=True)
        sys.exit(1)
    _emit(obj["json"], [{"event_id": event_id, "type": event_type}], lambda r: f"queued {r['type']} {r['event_id']}")


# ------------------------------------------------------------------ consistency


def _service_bases(url: str | None, pairs: tuple[str, ...], services: tuple[str, ...]) -> dict[str, str]:
    """One gateway URL (``<url>/<service>``) or one URL per service."""
    if bool(url) == bool(pairs):
        raise click.UsageError("give --url (the gateway) or --service-url for every service")
    if url:
        return {s: f"{url.rstrip('/')}/{s}" for s in services}
    bases = dict(pair.partition("=")[::2] for pair in pairs)
    missing = [s for s in services if not bases.get(s)]
    if missing:
        raise click.UsageError("no --service-url for " + ", ".join(missing))
    return bases


@main.command()
@click.argument("event_code")
@click.option("--url", default=None, help="the gateway (or embedded) base URL, e.g. https://gomoku.example")
@click.option("--service-url", "service_urls", multiple=True, help="service=base URL (repeatable), instead of --url")
@click.option("--api-key", envvar="GOMOKU_OPERATOR_KEY", required=True, help="an operator key (or GOMOKU_OPERATOR_KEY)")
@click.option("--part", "parts", multiple=True, type=click.Choice(["games", "awards", "field"]))
@click.pass_obj
def check(
    obj: dict[str, Any],
    event_code: str,
    url: str | None,
    service_urls: tuple[str, ...],
    api_key: str,
    parts: tuple[str, ...],
) -> None:
    """Do the live services agree about EVENT_CODE (games, awards, field)?"""
    from gomoku_sim.client import SERVICES as API_SERVICES
    from gomoku_sim.client import Keys, Platform
    from gomoku_sim.consistency import PARTS
    from gomoku_sim.consistency import check as consistency_check

    bases = _service_bases(url, service_urls, API_SERVICES)

    async def work():
        platform = Platform.distributed(bases, Keys(operator=api_key), retry_for_s=5)
        try:
            return await consistency_check(platform, event_code, parts=parts or PARTS)
        finally:
            await platform.aclose()

    report = _run(work())
    problems = [f"[{d.part}] {d.where}: {d.what}" for d in report.disagreements]
    _emit(
        obj["json"],
        [{"event_code": event_code, "checked": dict(report.checked), "problems": problems}],
        lambda r: (
            "\n".join([f"{event_code}: checked {r['checked']}", *(f"  DISAGREE {p}" for p in problems)])
            + ("" if problems else "\n  the services agree")
        ),
    )
    if problems:
        sys.exit(1)
