"""Business metrics every service shares: the outbox relay's lag, the consumer's work and lag,
dead letters. Counters are read from the runtime's own tallies when Prometheus scrapes; the
figures that need a query (outbox backlog, queue depths) are sampled by an async sampler the
``/metrics`` route awaits first, so nothing polls between scrapes.

Services add their own figures (active games, moves, pairing time) with ``add_sampler`` or
plain prometheus_client metrics on ``app.state.metrics_registry``."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client import CollectorRegistry
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from .messaging.outbox import outbox_backlog

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .runtime import ServiceRuntime

log = logging.getLogger("gomoku.metrics")

Sampler = Callable[[], Awaitable[None]]
#: what a consumer did with an event (gomoku_shared.runtime.ConsumerStats)
OUTCOMES = ("handled", "duplicate", "failed")


def add_sampler(app: FastAPI, sampler: Sampler) -> None:
    """Run ``sampler`` before every scrape of the app's ``/metrics`` (it sets gauges)."""
    if not hasattr(app.state, "metric_samplers"):
        app.state.metric_samplers = []
    app.state.metric_samplers.append(sampler)


class RuntimeCollector(Collector):
    """The runtime's figures as Prometheus metrics, labelled by service."""

    def __init__(self, runtime: ServiceRuntime) -> None:
        self.runtime = runtime
        self.outbox_pending = 0
        self.outbox_oldest_s = 0.0
        self.queue_ready = 0
        self.dead_letters = 0
        self.sample_failures = 0

    async def sample(self) -> None:
        runtime = self.runtime
        assert runtime.outbox is not None  # the runtime adds the table when the metadata lacks it
        try:
            async with runtime.sessionmaker() as session:
                self.outbox_pending, self.outbox_oldest_s = await outbox_backlog(
                    session, runtime.outbox, runtime.clock.now()
                )
            if runtime.consumed_types:
                self.queue_ready, self.dead_letters = await runtime.bus.queue_depth(runtime.name)
        except Exception as exc:  # noqa: BLE001 - a scrape must answer even when the database is away
            self.sample_failures += 1
            log.warning("could not sample the runtime metrics of %s: %s", runtime.name, type(exc).__name__)

    def collect(self) -> Iterator[Metric]:
        service = self.runtime.name
        published = CounterMetricFamily(
            "gomoku_outbox_published", "Events the outbox relay published", labels=["service"]
        )
        published.add_metric([service], self.runtime.relay.published)
        yield published
        pending = GaugeMetricFamily("gomoku_outbox_pending", "Outbox rows not yet published", labels=["service"])
        pending.add_metric([service], self.outbox_pending)
        yield pending
        oldest = GaugeMetricFamily(
            "gomoku_outbox_oldest_pending_seconds", "Age of the oldest unpublished outbox row", labels=["service"]
        )
        oldest.add_metric([service], self.outbox_oldest_s)
        yield oldest
        consumed = CounterMetricFamily(
            "gomoku_events_consumed", "Events consumed, by type and outcome", labels=["service", "type", "outcome"]
        )
        seconds = CounterMetricFamily(
            "gomoku_event_handling_seconds",
            "Time spent handling consumed events, by type and outcome",
            labels=["service", "type", "outcome"],
        )
        stats = self.runtime.consumed
        # every handled type with every outcome, from 0: a rate() exists before the first failure
        series = {(t, o) for t in self.runtime.consumed_types for o in OUTCOMES} | set(stats.count)
        for event_type, outcome in sorted(series):
            consumed.add_metric([service, event_type, outcome], stats.count.get((event_type, outcome), 0))
            seconds.add_metric([service, event_type, outcome], stats.seconds.get((event_type, outcome), 0.0))
        yield consumed
        yield seconds
        ready = GaugeMetricFamily(
            "gomoku_queue_ready_messages", "Events waiting in the service's queue (consumer lag)", labels=["service"]
        )
        ready.add_metric([service], self.queue_ready)
        yield ready
        dead = GaugeMetricFamily("gomoku_dead_letters", "Events in the service's dead-letter queue", labels=["service"])
        dead.add_metric([service], self.dead_letters)
        yield dead
        failures = CounterMetricFamily(
            "gomoku_metric_sample_failures", "Scrapes whose runtime figures could not be read", labels=["service"]
        )
        failures.add_metric([service], self.sample_failures)
        yield failures


def instrument(app: FastAPI, runtime: ServiceRuntime) -> None:
    """Expose ``runtime``'s figures on ``app``'s /metrics (once per app)."""
    registry: CollectorRegistry | None = getattr(app.state, "metrics_registry", None)
    if registry is None or getattr(app.state, "runtime_collector", None) is not None:
        return
    collector = RuntimeCollector(runtime)
    registry.register(collector)
    app.state.runtime_collector = collector
    add_sampler(app, collector.sample)


class Tally:
    """Counts and seconds by a tuple of label values: what a service tallies on its hot path
    (a dict increment), exposed as two Prometheus counters when scraped."""

    def __init__(self) -> None:
        self.count: dict[tuple[str, ...], int] = {}
        self.seconds: dict[tuple[str, ...], float] = {}

    def record(self, labels: tuple[str, ...], seconds: float = 0.0) -> None:
        self.count[labels] = self.count.get(labels, 0) + 1
        self.seconds[labels] = self.seconds.get(labels, 0.0) + seconds


class TallyCollector(Collector):
    def __init__(self, tally: Tally, name: str, documentation: str, service: str, labels: list[str]) -> None:
        self.tally, self.name, self.documentation, self.service, self.labels = (
            tally,
            name,
            documentation,
            service,
            labels,
        )

    def collect(self) -> Iterator[Metric]:
        count = CounterMetricFamily(self.name, self.documentation, labels=["service", *self.labels])
        seconds = CounterMetricFamily(
            f"{self.name}_seconds", f"{self.documentation}: time spent", labels=["service", *self.labels]
        )
        for labels, value in sorted(self.tally.count.items()):
            count.add_metric([self.service, *labels], value)
            seconds.add_metric([self.service, *labels], self.tally.seconds[labels])
        yield count
        yield seconds


def expose_tally(
    app: FastAPI,
    tally: Tally,
    name: str,
    documentation: str,
    service: str,
    labels: list[str],
    *,
    from_zero: tuple[tuple[str, ...], ...] = (),
) -> None:
    """``<name>_total`` and ``<name>_seconds_total`` on the app's /metrics; the ``from_zero``
    label values are shown from 0 (a rate() exists before the first one)."""
    for values in from_zero:
        tally.count.setdefault(values, 0)
        tally.seconds.setdefault(values, 0.0)
    app.state.metrics_registry.register(TallyCollector(tally, name, documentation, service, labels))
