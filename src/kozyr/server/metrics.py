"""Prometheus metrics, served at ``/metrics`` (one registry per app, so tests may run
several apps in one process)."""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.tables = Gauge(
            "kozyr_tables", "Tables in memory by status", ["status"], registry=self.registry
        )
        self.connections = Gauge(
            "kozyr_connections", "Open WebSocket connections", registry=self.registry
        )
        self.actions = Counter(
            "kozyr_actions_total",
            "Accepted actions by game and actor kind",
            ["game", "by"],
            registry=self.registry,
        )
        self.rejected = Counter(
            "kozyr_rejected_frames_total",
            "Rejected client frames by error code",
            ["code"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "kozyr_action_latency_seconds",
            "From an action frame received to its acknowledgement (committed)",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.commit = Histogram(
            "kozyr_commit_seconds",
            "Time to commit one action to the database",
            buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
            registry=self.registry,
        )
        self._actions_by: dict[tuple[str, str], Counter] = {}

    def action(self, game: str, by: str) -> None:
        """One accepted action. The labelled child is kept: ``labels()`` takes a lock and
        builds its key each time, and this runs for every move."""
        child = self._actions_by.get((game, by))
        if child is None:
            child = self._actions_by[(game, by)] = self.actions.labels(game, by)
        child.inc()
