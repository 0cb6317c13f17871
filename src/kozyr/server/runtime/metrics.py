"""Prometheus metrics, served at ``/metrics`` (one registry per app, so tests may run
several apps in one process)."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import cast

from prometheus_client import CollectorRegistry, Counter, Gauge
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

_le = cast(Callable[[float], str], floatToGoString)  # (untyped there)


class LoopHistogram:
    """A histogram observed on the event loop only, in plain numbers: prometheus_client's
    own takes a lock for its sum and again for its bucket (2.8 µs an observation against
    0.35 µs here), and two are observed for every move. Exposed by :class:`_LoopMetrics`.

    >>> h = LoopHistogram("x_seconds", "X", (0.01, 0.1))
    >>> for v in (0.005, 0.01, 0.05, 3.0):
    ...     h.observe(v)
    >>> [(s.labels["le"], s.value) for s in h.family().samples if s.name == "x_seconds_bucket"]
    [('0.01', 2.0), ('0.1', 3.0), ('+Inf', 4.0)]
    """

    def __init__(self, name: str, documentation: str, buckets: Sequence[float]) -> None:
        self.name = name
        self.documentation = documentation
        self.bounds = (*buckets, float("inf"))
        self.counts = [0] * len(self.bounds)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        # the first bound >= value: Prometheus's buckets count the values <= their "le"
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value

    def family(self) -> HistogramMetricFamily:
        cumulative, total = [], 0
        for bound, n in zip(self.bounds, self.counts, strict=True):
            total += n
            cumulative.append((_le(bound), float(total)))
        return HistogramMetricFamily(
            self.name, self.documentation, buckets=cumulative, sum_value=self.sum
        )


class _LoopMetrics(Collector):
    """Exposes the loop-only metrics when ``/metrics`` is read."""

    def __init__(self, histograms: Iterable[LoopHistogram], actions: dict[tuple[str, str], int]):
        self.histograms = list(histograms)
        self.actions = actions

    def collect(self) -> Iterator[Metric]:
        counter = CounterMetricFamily(
            "kozyr_actions_total", "Accepted actions by game and actor kind", labels=["game", "by"]
        )
        for (game, by), n in list(self.actions.items()):
            counter.add_metric([game, by], float(n))
        yield counter
        for h in self.histograms:
            yield h.family()


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge(
            "kozyr_tables", "Tables in memory by status", ["status"], registry=self.registry
        )
        self.connections = Gauge(
            "kozyr_connections", "Open WebSocket connections", registry=self.registry
        )
        self.rejected = Counter(
            "kozyr_rejected_frames_total",
            "Rejected client frames by error code",
            ["code"],
            registry=self.registry,
        )
        self.latency = LoopHistogram(
            "kozyr_action_latency_seconds",
            "From an action frame received to its acknowledgement (committed)",
            (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
        )
        self.commit = LoopHistogram(
            "kozyr_commit_seconds",
            "Time to commit one action to the database",
            (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
        )
        self.actions: dict[tuple[str, str], int] = {}
        """Accepted actions by (game, actor kind), counted on the event loop."""
        self.registry.register(_LoopMetrics((self.latency, self.commit), self.actions))

    def action(self, game: str, by: str) -> None:
        """One accepted action (on the event loop: a plain count, no lock)."""
        key = (game, by)
        self.actions[key] = self.actions.get(key, 0) + 1
