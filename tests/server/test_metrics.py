"""The per-move metrics, counted without prometheus_client's locks, read as Prometheus
text exactly as its own Counter and Histogram would show them."""

from __future__ import annotations

from prometheus_client import generate_latest

from kozyr.server.runtime.metrics import Metrics


def test_actions_and_latency_read_as_prometheus_counters_and_histograms() -> None:
    m = Metrics()
    m.action("imperial", "person")
    m.action("imperial", "person")
    m.action("emperor", "bot")
    m.latency.observe(0.003)  # in (0.0025, 0.005]
    m.latency.observe(0.005)  # on a bound: counted in its own bucket (le means <=)
    m.latency.observe(7.0)  # above every bound: +Inf only
    lines = generate_latest(m.registry).decode().splitlines()
    assert 'kozyr_actions_total{by="person",game="imperial"} 2.0' in lines
    assert 'kozyr_actions_total{by="bot",game="emperor"} 1.0' in lines
    assert "# TYPE kozyr_actions_total counter" in lines
    bucket = "kozyr_action_latency_seconds_bucket"
    assert f'{bucket}{{le="0.0025"}} 0.0' in lines
    assert f'{bucket}{{le="0.005"}} 2.0' in lines
    assert f'{bucket}{{le="2.5"}} 2.0' in lines
    assert f'{bucket}{{le="+Inf"}} 3.0' in lines
    assert "kozyr_action_latency_seconds_count 3.0" in lines
    assert "kozyr_action_latency_seconds_sum 7.008" in lines
    assert "# TYPE kozyr_action_latency_seconds histogram" in lines
    assert "kozyr_commit_seconds_count 0.0" in lines  # shown before any commit
