"""The arena's statistics against values computed by hand."""

from __future__ import annotations

import math

import pytest

from kozyr.arena.duplicate import Slot
from kozyr.arena.match import GameResult
from kozyr.arena.stats import (
    Interval,
    elo,
    elo_interval,
    mean_ci,
    percentile,
    proportion_ci,
    t975,
    wilson,
)
from kozyr.arena.summary import pairwise, summarize


def test_wilson_8_of_10() -> None:
    # p = .8, z = 1.96: centre (.8 + 1.9208/10) / 1.38415 = .71675,
    # half 1.96 * sqrt(.016 + .0096) / 1.38415 = .22658
    w = wilson(8, 10)
    assert w.value == 0.8
    assert w.low == pytest.approx(0.4902, abs=1e-4)
    assert w.high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 10).low == 0.0 and wilson(10, 10).high == 1.0


def test_elo() -> None:
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)  # 400 log10 3
    assert elo(0.5) == 0.0
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    e = elo_interval(Interval(0.75, 0.5, 0.9, 10))
    assert e.low == 0.0
    assert e.high == pytest.approx(400 * math.log10(9))


def test_mean_ci_and_t() -> None:
    # mean 2.5, s = sqrt(5/3), t(3) = 3.1824: half = 3.1824 * 1.29099 / 2 = 2.05426
    m = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m.value == 2.5
    assert m.low == pytest.approx(0.44574, abs=1e-4)
    assert m.high == pytest.approx(4.55426, abs=1e-4)
    assert math.isnan(mean_ci([3.0]).low)
    assert t975(30) == pytest.approx(2.0423, abs=1e-4)
    assert t975(60) == pytest.approx(2.0003, abs=1e-4)
    assert t975(1000) == pytest.approx(1.9623, abs=1e-4)


def test_proportion_takes_the_wider_interval() -> None:
    w = wilson(10, 20)
    # every set split 1-1: no spread between sets, so Wilson decides
    assert proportion_ci(10, 20, [0.5] * 10) == w
    # sets all-or-nothing: the set interval is wider
    wide = proportion_ci(10, 20, [1.0, 0.0] * 5)
    assert wide.low < w.low and wide.high > w.high


def test_percentile() -> None:
    xs = [float(x) for x in range(1, 101)]
    assert percentile(xs, 0.5) == 50.5
    assert percentile(xs, 0.99) == pytest.approx(99.01)


def _imperial(
    index: int, set_index: int, seats: tuple[int, ...], winner: int, imps: list[int], deals: int
) -> GameResult:
    slot = Slot(index, set_index, index % 2, seats, 1, (1, 2))
    outcome = {"winner": winner, "imperials": imps, "points": [0, 0], "deals": deals}
    return GameResult(slot, outcome, [[0.1, 0.3], [0.2]])


def test_summary_of_hand_made_imperial_games() -> None:
    # bot 0 wins 3 of 4 games; sets: {win, win}, {win, loss}
    results = [
        _imperial(0, 0, (0, 1), 0, [5, 1], 4),
        _imperial(1, 0, (1, 0), 1, [2, 5], 6),
        _imperial(2, 1, (0, 1), 0, [5, 3], 5),
        _imperial(3, 1, (1, 0), 0, [5, 4], 5),
    ]
    assert pairwise("imperial", results[1]) == {(1, 0): 0.0, (0, 1): 1.0}
    bots, matrix = summarize("imperial", ["a", "b"], results)
    a, b = bots
    assert a.games == b.games == 4
    assert a.figures["win_rate"].value == 0.75
    assert b.figures["win_rate"].value == 0.25
    assert a.figures["score"].value == 0.75
    assert a.figures["elo"].value == pytest.approx(190.85, abs=0.01)
    # per set: (4 + 3) / 10 = 0.7 and (2 - 1) / 10 = 0.1
    assert a.figures["imperial_diff"].value == pytest.approx(0.4)
    assert b.figures["imperial_diff"].value == pytest.approx(-0.4)
    assert matrix == [[None, 0.75], [0.25, None]]
    # bot 0 sat in seat 0 twice and seat 1 twice: times [.1, .3] and [.2] each
    assert a.timing.decisions == 6
    assert a.timing.median == pytest.approx(0.2)


def test_summary_of_hand_made_emperor_games() -> None:
    def game(index: int, seats: tuple[int, ...], totals: list[int]) -> GameResult:
        standing = sorted(range(3), key=lambda s: -totals[s])
        slot = Slot(index, 0, index, seats, 1, (1, 2, 3))
        outcome = {"totals": totals, "standing": standing, "titles": [None] * 3, "rounds": 10}
        return GameResult(slot, outcome, [[], [], []])

    results = [
        game(0, (0, 1, 2), [50, 40, 40]),
        game(1, (1, 2, 0), [30, 50, 50]),
        game(2, (2, 0, 1), [40, 40, 50]),
    ]
    bots, matrix = summarize("emperor", ["a", "b", "c"], results)
    a = bots[0]
    # bot 0's totals: 50, 50, 40
    assert a.figures["mean_total"].value == pytest.approx(140 / 3)
    assert a.figures["emperor_share"].value == pytest.approx(1 / 3)
    # a vs b: 1 (50>40), 1 (50>30), 1 (40<50? no: b is seat 2 in game 2 with 50) -> 0
    assert matrix[0][1] == pytest.approx(2 / 3)
    # a vs c: 1 (50>40), 0.5 (50=50), 0.5 (40=40)
    assert matrix[0][2] == pytest.approx(2 / 3)
    assert a.figures["score"].value == pytest.approx(2 / 3)
