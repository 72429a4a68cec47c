"""The plumbing every service runs on: unit of work + outbox, inbox-guarded consumers, relay.

A handler never publishes. It changes state through a UnitOfWork and ``emit``s payloads;
the events are written as outbox rows in the same transaction, and the relay publishes
them after commit. Consumers record the event id in the inbox in the same transaction as
their effect, so a redelivered event is acknowledged and skipped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterator
from typing import Any

from sqlalchemy import MetaData
from sqlalchemy.ext.asyncio import AsyncSession

from . import stall_trace, tracing
from .clock import Clock, SystemClock
from .contracts import Envelope, Payload, decode, encode, envelope_for
from .db import make_engine, make_reading_sessionmaker, make_sessionmaker, ping
from .logs import correlation_id as correlation_ctx
from .messaging.bus import EventBus, Message
from .messaging.inbox import handle_once, inbox_table
from .messaging.outbox import OutboxRelay, add_to_outbox, outbox_backlog, outbox_table
from .settings import ServiceSettings
from .tokens import REVOKED_EVENT, TokenVerifier, http_key_fetch
from .topology import CONSUMES

log = logging.getLogger("gomoku.runtime")

#: how long the background tasks have, once asked to stop, to return by themselves (at their next
#: idle point, ``gomoku_shared.loops``) before they are cancelled
BACKGROUND_STOP_S = 5.0

EventHandler = Callable[["UnitOfWork", Envelope[Any]], Awaitable[None]]


class ConsumerStats:
    """Counts and handling time of consumed events by (type, outcome): handled, duplicate
    (already in the inbox) or failed (to be redelivered or dead-lettered)."""

    def __init__(self) -> None:
        self.count: defaultdict[tuple[str, str], int] = defaultdict(int)
        self.seconds: defaultdict[tuple[str, str], float] = defaultdict(float)

    def record(self, event_type: str, outcome: str, seconds: float) -> None:
        self.count[(event_type, outcome)] += 1
        self.seconds[(event_type, outcome)] += seconds


class UnitOfWork:
    """One transaction: state changes plus the events they cause."""

    def __init__(
        self, session: AsyncSession, clock: Clock, outbox: Any, *, correlation_id: str, causation_id: str | None = None
    ) -> None:
        self.session = session
        self._outbox = outbox
        self.clock = clock
        self.correlation_id = correlation_id
        self.causation_id = causation_id
        self._events: list[Envelope[Any]] = []

    def emit(
        self, payload: Payload, *, correlation_id: str | None = None, event_id: uuid.UUID | None = None
    ) -> Envelope[Any]:
        env = envelope_for(
            payload,
            correlation_id=correlation_id or self.correlation_id,
            causation_id=self.causation_id,
            occurred_at=self.clock.now(),
            event_id=event_id,
        )
        self._events.append(env)
        return env

    @property
    def events(self) -> list[Envelope[Any]]:
        return list(self._events)

    async def _write_outbox(self) -> None:
        if self._events:
            messages = [encode(e) for e in self._events]
            if tracing.enabled():  # the consumers' spans continue this one (the relay publishes later)
                for message in messages:
                    tracing.inject(message.headers)
            await add_to_outbox(self.session, messages, table=self._outbox)
            self._events.clear()


class ServiceRuntime:
    """Database, bus, relay and consumers of one service, built by its composition root."""

    def __init__(
        self,
        name: str,
        settings: ServiceSettings,
        metadata: MetaData,
        *,
        bus: EventBus,
        clock: Clock | None = None,
        owns_bus: bool = True,
    ) -> None:
        self.name = name
        #: False when the bus is shared (embedded mode): the runner closes it
        self.owns_bus = owns_bus
        self.settings = settings
        self.metadata = metadata
        self.bus = bus
        self.clock = clock or SystemClock()
        self.database_url = settings.database_url_for(name)
        self.engine = make_engine(self.database_url)
        self.sessionmaker = make_sessionmaker(self.engine)
        #: for reads alone: no transaction on PostgreSQL (db.make_reading_sessionmaker)
        self.reading_sessionmaker = make_reading_sessionmaker(self.engine)
        # the service's metadata usually declares them already (its migrations create them)
        known_outbox = metadata.tables.get("outbox")
        self.outbox = known_outbox if known_outbox is not None else outbox_table(metadata)
        known_inbox = metadata.tables.get("inbox")
        self.inbox = known_inbox if known_inbox is not None else inbox_table(metadata)
        self.relay = OutboxRelay(self.sessionmaker, bus, self.outbox, poll_interval=settings.relay_poll_s)
        #: verifies partners' access tokens: keys from PARTNERS_URL (the embedded runner and the
        #: partners service itself hand theirs in-process with ``tokens.use_fetch``)
        self.tokens = TokenVerifier(
            http_key_fetch(settings.partners_url, service_key=settings.partners_service_key)
            if settings.partners_url
            else None,
            clock=self.clock,
            # a revocation is remembered as long as the longest-lived token it refuses may live
            max_ttl_s=max(settings.access_token_ttl_s, settings.staff_token_ttl_s),
        )
        self._handlers: dict[str, EventHandler] = {}
        self._background: list[Callable[[], Coroutine[Any, Any, None]]] = []
        self._stoppers: list[Callable[[], Awaitable[None]]] = []
        self._tasks: list[asyncio.Task] = []
        #: set when the service stops: the background loops return at their next idle point
        #: (``gomoku_shared.loops.idle``); one still running after ``background_stop_s`` is cancelled
        self.stopping = asyncio.Event()
        self.background_stop_s = BACKGROUND_STOP_S
        #: what the consumer did, per event type (read by the metrics)
        self.consumed = ConsumerStats()
        #: deliveries in a handler now, and every delivery whose handler has returned (or failed)
        self.handling = 0
        self.settled = 0
        #: background loops in a round of work now (``working``), e.g. gameplay's flag-fall sweep
        self.busy = 0
        self._background_idle = asyncio.Event()
        self._background_idle.set()
        self.started = False

    # ------------------------------------------------------------------ wiring
    def on(self, *event_types: str) -> Callable[[EventHandler], EventHandler]:
        """Register a consumer of integration events (one handler per type)."""

        def register(func: EventHandler) -> EventHandler:
            for task in event_types:
                if task in self._handlers:
                    raise ValueError(f"{self.name}: a handler for {task} is already registered")
                self._handlers[task] = func
            return func

        return register

    def on_stop(self, func: Callable[[], Awaitable[None]]) -> Callable[[], Awaitable[None]]:
        """Register a clean-up run when the service stops (before the database engine closes)."""
        self._stoppers.append(func)
        return func

    def background(self, func: Callable[[], Coroutine[Any, Any, None]]) -> Callable[[], Coroutine[Any, Any, None]]:
        """Register a long-running task started with the service (e.g. a scheduler). A loop waits
        between its rounds of work with ``gomoku_shared.loops.idle(runtime.stopping, ...)`` and
        returns when it answers True: it is cancelled only if it has not returned
        ``background_stop_s`` after the stop began."""
        self._background.append(func)
        return func

    @property
    def consumed_types(self) -> list[str]:
        return sorted(self._handlers)

    @contextlib.contextmanager
    def working(self) -> Iterator[None]:
        """Around a background loop's round of work (not its idle wait): counted in
        ``work_in_flight`` while it runs."""
        self.busy += 1
        self._background_idle.clear()
        try:
            yield
        finally:
            self.busy -= 1
            if not self.busy:
                self._background_idle.set()

    async def work_in_flight(self, wait_background_s: float = 2.0) -> dict[str, int]:
        """What this service has in flight now (the simulations' quiet check, CLOCK=fake only):
        deliveries in a handler, background rounds running, outbox rows not yet published and
        messages ready in its own queue; plus two counters that only grow (deliveries settled,
        rows published), so that two looks with the same counters saw no work happen between them.

        A background round running when asked (gameplay's sweep of games it claimed) is waited
        for, up to ``wait_background_s``: its events are then in the outbox. The counters are read before the
        queries: a delivery that starts after ``handling`` was read and ends before the next look
        moves ``settled``; one that ends before the outbox is counted has its events there
        already (its transaction committed first)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait_background_s):
                await self._background_idle.wait()
        handling, busy, settled, published = self.handling, self.busy, self.settled, self.relay.published
        async with self.sessionmaker() as session:
            pending, _ = await outbox_backlog(session, self.outbox, self.clock.now())
        ready = await self.bus.ready_count(self.name) if self._handlers else 0
        return {
            "handling": handling,
            "background": busy,
            "outbox_pending": pending,
            "queue_ready": ready,
            "settled": settled,
            "published": published,
        }

    # ------------------------------------------------------------------ work
    @contextlib.asynccontextmanager
    async def transaction(
        self, *, correlation_id: str | None = None, causation_id: str | None = None
    ) -> AsyncIterator[UnitOfWork]:
        """Commit state and its outbox rows together; roll back on any exception.

        The relay is woken after the commit only when events were emitted: an idle wake costs
        it a claim query, which on a hot path (a move that emits nothing) is pure waste."""
        async with self.sessionmaker() as session:
            async with session.begin():
                uow = UnitOfWork(
                    session,
                    self.clock,
                    self.outbox,
                    correlation_id=correlation_id or correlation_ctx.get(),
                    causation_id=causation_id,
                )
                yield uow
                emitted = bool(uow._events)
                await uow._write_outbox()
        if emitted:
            self.relay.wake()

    async def _on_message(self, message: Message) -> None:
        env = decode(message)
        handler = self._handlers.get(env.type)
        if handler is None:  # bound by a wildcard we do not handle: acknowledge
            return
        token = correlation_ctx.set(env.correlation_id)
        started = time.perf_counter()
        outcome = "failed"
        self.handling += 1
        try:

            async def effect(session: AsyncSession, _msg: Message) -> None:
                uow = UnitOfWork(
                    session, self.clock, self.outbox, correlation_id=env.correlation_id, causation_id=str(env.event_id)
                )
                await handler(uow, env)
                await uow._write_outbox()

            with tracing.consumer_span(self.name, env.type, message.message_id, message.headers):
                if await handle_once(self.sessionmaker, self.name, message, effect, table=self.inbox):
                    outcome = "handled"
                    self.relay.wake()
                else:
                    outcome = "duplicate"
        finally:
            self.handling -= 1
            self.settled += 1
            self.consumed.record(env.type, outcome, time.perf_counter() - started)
            correlation_ctx.reset(token)

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        if self.started:
            return
        self.stopping.clear()
        unknown = set(self._handlers) - set(CONSUMES.get(self.name, ()))
        if unknown:
            raise RuntimeError(f"{self.name} handles {sorted(unknown)} but gomoku_shared.topology does not route them")
        await self.bus.start()
        await self._declare_topology()
        if self.tokens.configured:
            # revocations first, then the keys and the current revocation list: nothing is missed
            subscribe_broadcast = getattr(self.bus, "subscribe_broadcast", None)
            if subscribe_broadcast is not None:
                await subscribe_broadcast([REVOKED_EVENT], self.tokens.on_revoked)
            loading = self.tokens.keep_loaded(stop=self.stopping)
            self._tasks.append(asyncio.create_task(loading, name=f"{self.name}-token-keys"))
        self._tasks.append(asyncio.create_task(self.relay.run(self.stopping), name=f"{self.name}-relay"))
        if stall_trace.ENABLED:
            self._tasks.append(
                asyncio.create_task(stall_trace.run(self.name, self.stopping), name=f"{self.name}-stall-trace")
            )
        for func in self._background:
            self._tasks.append(asyncio.create_task(func(), name=f"{self.name}-{func.__name__}"))
        self.started = True

    async def _declare_topology(self) -> None:
        """Every queue of the topology with its bindings, and the consumer of this service's own
        queue (which declares that one), all at once: each on a channel of its own, so a start
        waits for the slowest declaration rather than for the sum of some fifty broker round
        trips. The routing keys of the own queue are the topology's (a subset has handlers)."""
        limit = self.settings.delivery_limit
        async with asyncio.TaskGroup() as group:
            for queue, keys in CONSUMES.items():
                if queue == self.name and self._handlers:
                    group.create_task(
                        self.bus.subscribe(
                            queue,
                            list(keys),
                            self._on_message,
                            prefetch=self.settings.consumer_prefetch,
                            delivery_limit=limit,
                        )
                    )
                else:
                    group.create_task(self.bus.declare(queue, list(keys), delivery_limit=limit))

    async def stop(self) -> None:
        """Stop in the order that loses nothing: no new deliveries (those in flight finish and
        commit), then the background tasks (asked to stop; cancelled after ``background_stop_s``),
        then publish what the outbox still holds (within SHUTDOWN_GRACE_S; what is left stays
        pending for the next start or another replica)."""
        if self.owns_bus:
            with contextlib.suppress(Exception):
                await self.bus.stop_consuming()
        await self._stop_background()
        for func in self._stoppers:
            with contextlib.suppress(Exception):
                await func()
        with contextlib.suppress(Exception):
            await self.tokens.aclose()
        if self.owns_bus and self.started:
            await self._flush_outbox(self.settings.shutdown_grace_s)
            with contextlib.suppress(Exception):
                await self.bus.close()
        await self.engine.dispose()
        self.started = False

    async def _stop_background(self) -> None:
        """Ask the background tasks to stop, give them ``background_stop_s`` to return, then
        cancel those still running (a cancel may land mid-query: the last resort only)."""
        tasks, self._tasks = self._tasks, []
        self.stopping.set()
        if not tasks:
            return
        _, running = await asyncio.wait(tasks, timeout=self.background_stop_s)
        for task in running:
            log.warning(
                "%s: %s did not stop within %.1fs: cancelled", self.name, task.get_name(), self.background_stop_s
            )
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _flush_outbox(self, within_s: float) -> None:
        flushed = 0
        try:
            async with asyncio.timeout(within_s):
                while published := await self.relay.publish_pending():
                    flushed += published
        except Exception as exc:  # noqa: BLE001 - the rows stay pending: published on the next start
            log.warning("%s: outbox not flushed at shutdown (%s); pending events stay stored", self.name, exc)
        if flushed:
            log.info("%s: published %d outbox event(s) while stopping", self.name, flushed)

    async def db_ready(self) -> bool:
        return await ping(self.engine)

    async def tokens_ready(self) -> bool:
        """False while partners' access tokens cannot be verified (no keys fetched yet)."""
        return self.tokens.ready

    async def bus_ready(self) -> bool:
        return await self.bus.ping()
