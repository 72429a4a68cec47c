"""EventBus on RabbitMQ (aio-pika 10), for the distributed mode.

Topology, declared idempotently by every process (so start order loses nothing):
- ``<ns>.events``: durable topic exchange all events are published to;
- ``<ns>.dlx``: durable direct exchange receiving dead letters;
- per ``subscribe(queue, ...)``: a durable quorum queue ``<ns>.<queue>`` bound to the
  routing keys, with an explicit delivery limit and dead-lettering (at-least-once) to
  ``<ns>.dlx`` under the key ``<ns>.<queue>``, where the durable queue
  ``<ns>.<queue>.dlq`` is bound.

Delivery-limit arithmetic: RabbitMQ dead-letters a quorum-queue message when its
delivery count *exceeds* ``x-delivery-limit`` (limit N allows N+1 deliveries, checked on
3.10). The port's ``delivery_limit`` counts failed deliveries, so we declare
``x-delivery-limit = delivery_limit - 1``. On 3.x a consumer that disconnects with the
message unacknowledged also counts as a failed delivery.

Reliability: ``connect_robust`` re-opens channels, re-declares the topology and restarts
consumers after a connection loss. A start-up declaration the broker interrupts (a broker
restarting closes the connection, with INTERNAL_ERROR or CONNECTION_FORCED) is made again on the
reconnected connection, for up to ``connect_retry_for`` seconds, like an unreachable broker.
``publish`` sends a batch, then awaits its publisher confirms and, if
the connection drops, retries with a bounded backoff until ``publish_retry_for`` seconds
have passed (a retried message may arrive twice; consumers dedupe with the inbox).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import aio_pika
from aio_pika.abc import (
    AbstractChannel,
    AbstractExchange,
    AbstractIncomingMessage,
    AbstractQueue,
    AbstractRobustChannel,
    AbstractRobustConnection,
)

from . import rabbit_start
from .bus import EventBus, Handler, Message, dlq_name
from .topic import validate_pattern

log = logging.getLogger(__name__)

_T = TypeVar("_T")


@dataclass
class _Subscription:
    queue: str  # full (namespaced) name
    channel: AbstractChannel
    amqp_queue: AbstractQueue
    consumer_tag: str


class RabbitEventBus(EventBus):
    """EventBus over one RabbitMQ connection. See the module docstring for the topology."""

    def __init__(
        self,
        url: str,
        *,
        namespace: str = "gomoku",
        exchange: str = "events",
        dead_letter_exchange: str = "dlx",
        reconnect_interval: float = 1.0,
        publish_timeout: float = 10.0,
        publish_retry_for: float = 60.0,
        max_backoff: float = 2.0,
        connect_retry_for: float = 30.0,
    ) -> None:
        self._url = url
        self._namespace = namespace
        self.exchange_name = self.name(exchange)
        self.dlx_name = self.name(dead_letter_exchange)
        self._reconnect_interval = reconnect_interval
        self._publish_timeout = publish_timeout
        self._publish_retry_for = publish_retry_for
        self._max_backoff = max_backoff
        self._patience = rabbit_start.Patience(connect_retry_for, max_backoff)
        self._conn: AbstractRobustConnection | None = None
        self._pub_channel: AbstractChannel | None = None
        self._exchange: AbstractExchange | None = None
        self._subs: list[_Subscription] = []
        self._declared_queues: set[str] = set()
        self._inflight: set[asyncio.Task[Any]] = set()
        self._start_lock = asyncio.Lock()
        #: the channel of ``ready_count``'s passive declares
        self._probe: AbstractRobustChannel | None = None
        self._probe_lock = asyncio.Lock()
        self._closed = False

    def name(self, local: str) -> str:
        """The broker-side name of ``local`` (a queue or exchange) in this namespace."""
        return f"{self._namespace}.{local}" if self._namespace else local

    # -- EventBus -------------------------------------------------------------
    async def start(self) -> None:
        async with self._start_lock:
            if self._closed:
                raise RuntimeError("bus is closed")
            if self._conn is not None:
                return
            conn = await self._connect()
            try:
                channel, exchange = await self._declaring(conn, "the exchanges", lambda: self._exchanges(conn))
            except BaseException:
                await conn.close()
                raise
            self._conn, self._pub_channel, self._exchange = conn, channel, exchange

    async def _exchanges(self, conn: AbstractRobustConnection) -> tuple[AbstractChannel, AbstractExchange]:
        """The publishing channel and the events exchange (the dead-letter one declared too)."""
        channel = await conn.channel(publisher_confirms=True)
        try:
            exchange = await channel.declare_exchange(self.exchange_name, aio_pika.ExchangeType.TOPIC, durable=True)
            await channel.declare_exchange(self.dlx_name, aio_pika.ExchangeType.DIRECT, durable=True)
        except BaseException:
            await rabbit_start.close_quietly(channel)
            raise
        return channel, exchange

    async def _connect(self) -> AbstractRobustConnection:
        """First connection; retried for ``connect_retry_for`` s (the broker may start later)."""
        name = f"gomoku-bus:{self._namespace}"
        return await rabbit_start.connect(self._url, name, self._reconnect_interval, self._patience)

    async def stop_consuming(self) -> None:
        """Cancel the consumers and let running handlers finish; publishing still works (a
        stopping service flushes its outbox after this)."""
        for sub in self._subs:
            with contextlib.suppress(Exception):
                await sub.amqp_queue.cancel(sub.consumer_tag, timeout=5)
        if self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)
        self._subs.clear()

    async def close(self) -> None:
        """Cancel the consumers, let running handlers finish, then disconnect."""
        if self._closed:
            return
        self._closed = True
        await self.stop_consuming()
        if self._conn is not None:
            await self._conn.close()
        self._conn = self._pub_channel = self._exchange = self._probe = None

    async def publish(self, messages: Sequence[Message]) -> None:
        """Publish in order on the one publishing channel, the broker's confirms awaited together:
        each message is sent without waiting for the confirm of the one before (the channel sends
        them in this order), so a batch costs one round trip to the broker, not one a message (a
        relay publishing a round start's thousands of events had managed about 170 a second under
        load). If one is not confirmed, the messages from the first unconfirmed one on are sent
        again in order, after a bounded backoff (a copy of one the broker had confirmed is dropped
        by the consumers' inbox; the unconfirmed one then arrives after those, as the batches of
        two relay replicas may), until ``publish_retry_for`` seconds have passed."""
        await self.start()
        pending = list(messages)
        deadline = time.monotonic() + self._publish_retry_for
        backoff = 0.05
        while pending:
            outcomes = await asyncio.gather(*(self._send(m) for m in pending), return_exceptions=True)
            failed = next((i for i, outcome in enumerate(outcomes) if isinstance(outcome, BaseException)), None)
            if failed is None:
                return
            error = outcomes[failed]
            assert isinstance(error, BaseException)
            if isinstance(error, asyncio.CancelledError) or not isinstance(error, Exception):
                raise error
            if self._closed or time.monotonic() + backoff > deadline:
                raise error
            log.warning(
                "publish of %s %s failed (%s: %s); retrying it and the %d after it in %.2fs",
                pending[failed].routing_key,
                pending[failed].message_id,
                type(error).__name__,
                error,
                len(pending) - failed - 1,
                backoff,
            )
            await asyncio.sleep(backoff)
            backoff = min(self._max_backoff, backoff * 2)
            pending = pending[failed:]

    async def _consume(
        self, queue: str, routing_keys: Sequence[str], handler: Handler, prefetch: int, delivery_limit: int
    ) -> None:
        conn = self._conn
        assert conn is not None

        async def once() -> _Subscription:
            # a channel per subscription: its own prefetch window
            channel = await conn.channel(publisher_confirms=False)
            try:
                await channel.set_qos(prefetch_count=prefetch)
                amqp_queue = await self._declare(channel, queue, routing_keys, delivery_limit)
                tag = await amqp_queue.consume(self._consumer(handler, amqp_queue.name))
            except BaseException:
                await rabbit_start.close_quietly(channel)
                raise
            return _Subscription(amqp_queue.name, channel, amqp_queue, tag)

        self._subs.append(await self._declaring(conn, f"queue {queue}", once))

    async def subscribe_broadcast(self, routing_keys: Sequence[str], handler: Handler) -> None:
        """Every process that calls this receives every matching message (not one consumer of a
        shared queue): a server-named, exclusive queue of this connection, gone with it. For
        notices each replica must see (a revoked credential), not for work: nothing is kept
        while the process is down."""
        await self.start()
        conn = self._conn
        assert conn is not None
        for pattern in routing_keys:
            validate_pattern(pattern)

        async def once() -> _Subscription:
            channel = await conn.channel(publisher_confirms=False)
            try:
                amqp_queue = await channel.declare_queue(exclusive=True, auto_delete=True, durable=False)
                for pattern in routing_keys:
                    await amqp_queue.bind(self.exchange_name, routing_key=pattern)
                tag = await amqp_queue.consume(self._consumer(handler, amqp_queue.name))
            except BaseException:
                await rabbit_start.close_quietly(channel)
                raise
            return _Subscription(amqp_queue.name, channel, amqp_queue, tag)

        self._subs.append(await self._declaring(conn, "a broadcast queue", once))

    async def ping(self) -> bool:
        conn = self._conn
        return bool(
            conn is not None
            and not conn.is_closed
            and conn.connected.is_set()
            and self._pub_channel is not None
            and not self._pub_channel.is_closed
        )

    # -- extensions -------------------------------------------------------------
    async def _declare_queue(self, queue: str, routing_keys: Sequence[str], delivery_limit: int) -> None:
        """Declare ``queue`` (+ its DLQ) and its bindings without consuming."""
        conn = self._conn
        assert conn is not None

        async def once() -> None:
            channel = await conn.channel(publisher_confirms=False)
            try:
                await self._declare(channel, queue, routing_keys, delivery_limit, robust=False)
            finally:
                await rabbit_start.close_quietly(channel)

        await self._declaring(conn, f"queue {queue}", once)

    async def dead_letters(self, queue: str) -> list[Message]:
        """The messages in ``<queue>.dlq``, oldest first, left in place."""
        await self.start()
        assert self._conn is not None
        channel = await self._conn.channel(publisher_confirms=False)
        found: list[Message] = []
        try:
            dlq = await channel.get_queue(dlq_name(self.name(queue)), ensure=True)
            while (incoming := await dlq.get(no_ack=False, fail=False, timeout=5)) is not None:
                found.append(self._to_message(incoming, dead=True))
        finally:
            # closing the channel returns every unacknowledged message to the DLQ
            await channel.close()
        return found

    async def queue_depth(self, queue: str) -> tuple[int, int]:
        """(ready messages in ``queue``, messages in ``<queue>.dlq``); (0, 0) for queues not declared."""
        await self.start()
        assert self._conn is not None
        counts = []
        for name in (self.name(queue), dlq_name(self.name(queue))):
            channel = await self._conn.channel(publisher_confirms=False)
            try:
                declared = await channel.declare_queue(name, passive=True, robust=False)
                counts.append(int(declared.declaration_result.message_count or 0))
            except aio_pika.exceptions.ChannelClosed:  # not declared (yet): nothing waits in it
                counts.append(0)
            finally:
                if not channel.is_closed:
                    await channel.close()
        return counts[0], counts[1]

    async def ready_count(self, queue: str) -> int:
        """Messages ready in ``queue``: one passive declare on a channel kept for these looks
        (opened again when the broker closed it, e.g. for a queue not declared yet: 0)."""
        await self.start()
        assert self._conn is not None
        async with self._probe_lock:
            if self._probe is None or self._probe.is_closed:
                self._probe = await self._conn.channel(publisher_confirms=False)
            try:
                declared = await self._probe.declare_queue(self.name(queue), passive=True, robust=False)
            except aio_pika.exceptions.ChannelClosed:
                return 0
            return int(declared.declaration_result.message_count or 0)

    async def purge(self, queue: str) -> int:
        """Drop every ready message of ``queue`` (an operator's replay re-sends them); how many."""
        await self.start()
        assert self._conn is not None
        channel = await self._conn.channel(publisher_confirms=False)
        try:
            declared = await channel.get_queue(self.name(queue), ensure=True)
            result = await declared.purge()
            return int(getattr(result, "message_count", 0) or 0)
        finally:
            await channel.close()

    async def replay_dead_letters(self, queue: str, message_ids: Sequence[str] | None = None) -> int:
        """Move dead letters back to ``queue`` through the default exchange (to that queue only,
        not to every subscriber of the event); each is acknowledged in the DLQ only after the
        broker confirmed its copy, so a crash in between duplicates (the inbox skips it) and
        never loses it."""
        await self.start()
        assert self._conn is not None
        target = self.name(queue)
        channel = await self._conn.channel(publisher_confirms=True)
        moved = 0
        try:
            dlq = await channel.get_queue(dlq_name(target), ensure=True)
            while (incoming := await dlq.get(no_ack=False, fail=False, timeout=5)) is not None:
                if message_ids is not None and incoming.message_id not in message_ids:
                    continue  # left unacknowledged: back in the DLQ when the channel closes
                headers = {k: v for k, v in (incoming.headers or {}).items() if not k.startswith("x-")}
                await channel.default_exchange.publish(
                    aio_pika.Message(
                        bytes(incoming.body),
                        message_id=incoming.message_id,
                        type=incoming.type,
                        headers=headers,
                        delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
                    ),
                    routing_key=target,
                    timeout=self._publish_timeout,
                )
                await incoming.ack()
                moved += 1
        finally:
            await channel.close()
        return moved

    async def delete_declared(self) -> None:
        """Stop consuming, then delete the queues and exchanges this bus declared (test clean-up)."""
        await self.start()
        assert self._conn is not None
        for sub in self._subs:
            with contextlib.suppress(Exception):
                await sub.amqp_queue.cancel(sub.consumer_tag, timeout=5)
        channel = await self._conn.channel(publisher_confirms=False)
        try:
            for name in sorted(self._declared_queues):
                queue = await channel.get_queue(name, ensure=False)
                await queue.delete(if_unused=False, if_empty=False)
            for name in (self.exchange_name, self.dlx_name):
                exchange = await channel.get_exchange(name, ensure=False)
                await exchange.delete()
        finally:
            await channel.close()

    # -- internals ----------------------------------------------------------------
    async def _declaring(self, conn: AbstractRobustConnection, what: str, step: Callable[[], Awaitable[_T]]) -> _T:
        """``step``, a declaration of the start-up, made again if the broker interrupts it
        (``rabbit_start.declaring``)."""
        return await rabbit_start.declaring(conn, what, step, self._patience, lambda: self._closed)

    async def _declare(
        self,
        channel: AbstractChannel,
        queue: str,
        routing_keys: Sequence[str],
        delivery_limit: int,
        *,
        robust: bool = True,
    ) -> AbstractQueue:
        full = self.name(queue)
        dead = dlq_name(full)
        kwargs: dict[str, Any] = {"robust": robust} if robust is False else {}
        amqp_queue = await channel.declare_queue(
            full,
            durable=True,
            arguments={
                "x-queue-type": "quorum",
                # exceeding x-delivery-limit dead-letters: N failures need N-1 here
                "x-delivery-limit": delivery_limit - 1,
                "x-dead-letter-exchange": self.dlx_name,
                "x-dead-letter-routing-key": full,
                "x-dead-letter-strategy": "at-least-once",
                "x-overflow": "reject-publish",  # required by at-least-once dead-lettering
            },
            **kwargs,
        )
        dlq = await channel.declare_queue(dead, durable=True, **kwargs)
        await dlq.bind(self.dlx_name, routing_key=full, **kwargs)
        for pattern in routing_keys:
            await amqp_queue.bind(self.exchange_name, routing_key=pattern, **kwargs)
        self._declared_queues.update((full, dead))
        return amqp_queue

    def _consumer(self, handler: Handler, queue: str):
        async def on_message(incoming: AbstractIncomingMessage) -> None:
            task = asyncio.current_task()
            if task is not None:
                self._inflight.add(task)
            try:
                message = self._to_message(incoming)
                try:
                    await handler(message)
                except Exception:
                    log.warning(
                        "handler for %s failed on %s %s (delivery %d); rejecting for redelivery",
                        queue,
                        message.routing_key,
                        message.message_id,
                        message.redeliveries + 1,
                        exc_info=True,
                    )
                    await self._settle(incoming, ack=False)
                else:
                    await self._settle(incoming, ack=True)
            finally:
                if task is not None:
                    self._inflight.discard(task)

        return on_message

    @staticmethod
    async def _settle(incoming: AbstractIncomingMessage, *, ack: bool) -> None:
        try:
            if ack:
                await incoming.ack()
            else:
                # reject (not nack) counts toward the delivery limit on every version
                await incoming.reject(requeue=True)
        except Exception:  # noqa: BLE001 - channel gone: the broker redelivers anyway
            log.info("could not settle delivery (channel closed); it will be redelivered")

    @staticmethod
    def _to_message(incoming: AbstractIncomingMessage, *, dead: bool = False) -> Message:
        raw = incoming.headers or {}
        count = raw.get("x-delivery-count")
        redeliveries = int(count) if isinstance(count, int | str) else (1 if incoming.redelivered else 0)
        headers = {k: v.decode() if isinstance(v, bytes) else str(v) for k, v in raw.items() if not k.startswith("x-")}
        # dead letters carry the DLX routing key; the event type travels in ``type``
        routing_key = incoming.type if (dead and incoming.type) else incoming.routing_key
        return Message(
            routing_key=routing_key or "",
            message_id=incoming.message_id or "",
            body=bytes(incoming.body),
            headers=headers,
            redeliveries=0 if dead else redeliveries,
        )

    async def _send(self, message: Message) -> None:
        """One message sent and confirmed by the broker (no retry: ``publish`` retries)."""
        exchange = self._exchange
        if exchange is None:
            raise RuntimeError("bus is closed")
        await exchange.publish(
            aio_pika.Message(
                bytes(message.body),
                message_id=message.message_id,
                type=message.routing_key,
                headers=dict(message.headers),
                delivery_mode=aio_pika.DeliveryMode.PERSISTENT,
            ),
            routing_key=message.routing_key,
            mandatory=False,  # pub/sub: no bound queue means nobody wants it
            timeout=self._publish_timeout,
        )
