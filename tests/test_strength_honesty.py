"""bench/strength.py keeps its figures honest (issue #31): it will not start on a busy
machine, it times both sides and counts ISMCTS's simulations, and it reports no figure
for a row where a side's p99 decision time broke its budget by more than 10%."""

from __future__ import annotations

import pytest
from tests.test_strength_combine import _strength


def test_a_load_above_the_limit_refuses_and_the_limit_itself_does_not() -> None:
    bench = _strength()
    assert bench.load_refusal(1.5) is None
    assert bench.load_refusal(0.0) is None
    why = bench.load_refusal(1.51)
    assert why is not None and "1.51" in why and "above 1.5" in why
    assert bench.load_refusal(3.0, limit=4.0) is None


def test_p99_over_the_budget_by_more_than_ten_percent_is_refused() -> None:
    bench = _strength()
    # 200 decisions: the p99 is the 199th smallest (index 198), worked out by hand.
    kept = [0.2] * 198 + [0.275, 0.9]  # p99 275 ms: exactly 110% of 250 ms, allowed
    assert bench.budget_refusal("A", kept, 0.25) is None
    broke = [0.2] * 197 + [0.276, 0.276, 0.9]  # p99 276 ms
    why = bench.budget_refusal("B ismcts", broke, 0.25)
    assert why == "B ismcts: p99 276 ms is above its budget of 250 ms by more than 10%"
    # no budget known, or no decision: nothing to hold it to
    assert bench.budget_refusal("A", broke, 0.0) is None
    assert bench.budget_refusal("A", [], 0.25) is None


class _Capped:
    cap = 2.0
    last_simulations = 460


class _Plain:
    pass


def test_a_sides_budget_is_the_rows_capped_by_the_bots_own() -> None:
    bench = _strength()
    assert bench._budget_of(_Capped(), 0.25) == 0.25
    assert bench._budget_of(_Capped(), 5.0) == 2.0
    assert bench._budget_of(_Capped(), 0.0) == 2.0  # the level's own cap
    assert bench._budget_of(_Plain(), 0.25) == 0.25
    assert bench._budget_of(_Plain(), 0.0) == 0.0


def test_both_sides_are_timed_and_the_simulations_counted() -> None:
    bench = _strength()
    row = bench.ROWS["imperial-l3-ismcts"]
    timing = bench.Timing.new()
    for took in (0.20, 0.24, 0.26):
        timing.note("A", _Plain(), 0.25, took)
    for took in (0.25, 0.25, 0.40):
        timing.note("B", _Capped(), 0.25, took)
    lines = timing.lines(row)
    assert lines[0] == (
        "A level3: decisions 3, median 240 ms, p99 260 ms, max 260 ms, budget 250 ms"
    )
    assert lines[1] == (
        "B ismcts: decisions 3, median 250 ms, p99 400 ms, max 400 ms, budget 250 ms; "
        "simulations a move: median 460, min 460, max 460"
    )
    assert timing.refusals(row) == [
        "B ismcts: p99 400 ms is above its budget of 250 ms by more than 10%"
    ]


def test_a_run_on_a_busy_machine_does_not_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _strength()
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (2.5, 1.0, 0.5))
    with pytest.raises(SystemExit) as stopped:
        bench.main(["imperial-heuristic-random", "--seeds", "1"])
    assert stopped.value.code == 2
    assert "REFUSED imperial-heuristic-random: the load average is 2.50" in capsys.readouterr().err


def test_a_quiet_run_reports_load_and_both_sides_times(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = _strength()
    monkeypatch.setattr(bench.os, "getloadavg", lambda: (0.25, 0.5, 0.75))
    bench.main(["imperial-heuristic-random", "--seeds", "1"])
    out = capsys.readouterr().out
    assert "load average at start 0.25 0.50 0.75" in out
    assert "# load average at end 0.25 0.50 0.75" in out
    assert "# A heuristic: decisions " in out and "# B random: decisions " in out
    assert "RESULT imperial-heuristic-random: play points/deal" in out
    assert "REFUSED" not in out
