"""The shared PIMC loop (``kozyr.bots.search.pimc``) on hand-made worlds and values."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator

import pytest

import kozyr.bots.search as search
from kozyr.bots.emperor.search import EmperorSearch
from kozyr.bots.imperial.search import SearchBot
from kozyr.bots.search import pimc
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState

# Three worlds, met in this order, and the observer's value of each action in each.
# Action 1 is a gamble (6, 0, 6), action 2 steady until world C (4, 4, 1):
# after A, B: means 3 and 4, so 2 is best; after A, B, C: means 4 and 3, so 1 is best.
VALUES = {"A": {1: 6.0, 2: 4.0}, "B": {1: 0.0, 2: 4.0}, "C": {1: 6.0, 2: 1.0}}


def _worlds() -> Callable[[random.Random], str]:
    order: Iterator[str] = itertools.cycle("ABC")
    return lambda _rng: next(order)


def _value(world: str, action: int, _rng: random.Random) -> float:
    return VALUES[world][action]


def test_three_worlds_make_the_gamble_best() -> None:
    tally = pimc([1, 2], _worlds(), _value, random.Random(0), seconds=60.0, work=3)
    assert tally.worlds == 3 and tally.work == 3
    assert tally.mean(1) == 4.0 and tally.mean(2) == 3.0


def test_the_work_budget_stops_the_search_and_changes_the_choice() -> None:
    tally = pimc([1, 2], _worlds(), _value, random.Random(0), seconds=60.0, work=2)
    assert tally.worlds == 2
    assert tally.mean(1) == 3.0 and tally.mean(2) == 4.0


def test_a_world_starts_only_while_work_is_left() -> None:
    # 3 units a world, a budget of 10: worlds start at 0, 3, 6 and 9 units done.
    calls: list[int] = []

    def value(world: str, action: int, rng: random.Random) -> float:
        calls.append(action)
        return _value(world, action, rng)

    tally = pimc([1, 2], _worlds(), value, random.Random(0), seconds=60.0, work=10, world_work=3)
    assert tally.worlds == 4 and tally.work == 12
    assert calls == [1, 2] * 4
    # worlds A, B, C, A: action 1 has 6 + 0 + 6 + 6 = 18, action 2 has 4 + 4 + 1 + 4 = 13
    assert tally.mean(1) == 18 / 4 and tally.mean(2) == 13 / 4


def test_weighted_worlds() -> None:
    # World B counts three times: action 1 (6 + 0) / 4, action 2 (4 + 12) / 4.
    weights = {"A": 1.0, "B": 3.0, "C": 1.0}
    tally = pimc(
        [1, 2], _worlds(), _value, random.Random(0), seconds=60.0, work=2, weigh=weights.get
    )
    assert tally.mean(1) == 1.5 and tally.mean(2) == 4.0


def test_the_same_seed_draws_the_same_worlds() -> None:
    def world(rng: random.Random) -> float:
        return rng.random()

    def value(w: float, action: int, rng: random.Random) -> float:
        return w * action + rng.random()

    a = pimc([1, 2, 3], world, value, random.Random(5), seconds=60.0, work=7)
    b = pimc([1, 2, 3], world, value, random.Random(5), seconds=60.0, work=7)
    c = pimc([1, 2, 3], world, value, random.Random(6), seconds=60.0, work=7)
    assert a == b and a.worlds == 7
    assert a != c


class _Clock:
    """A fake ``time`` module: each evaluation takes one second."""

    def __init__(self) -> None:
        self.now = 0.0

    def perf_counter(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr(search, "time", fake)
    return fake


def test_no_world_starts_that_would_end_after_the_time_limit(clock: _Clock) -> None:
    def value(world: str, action: int, rng: random.Random) -> float:
        clock.now += 1.0
        return _value(world, action, rng)

    # A world takes 2 s: after the first (t = 2), a second would end at 4 > 3.5.
    tally = pimc([1, 2], _worlds(), value, random.Random(0), seconds=3.5)
    assert tally.worlds == 1
    assert tally.mean(1) == 6.0 and tally.mean(2) == 4.0
    # With a limit of 4 s the second world fits exactly, a third would not.
    clock.now = 0.0
    assert pimc([1, 2], _worlds(), value, random.Random(0), seconds=4.0).worlds == 2


def test_a_world_past_the_hard_limit_is_dropped(clock: _Clock) -> None:
    def value(world: str, action: int, rng: random.Random) -> float:
        clock.now += 1.0
        return _value(world, action, rng)

    # World A ends at t = 2; world B's first action ends at t = 3, the hard limit, so its
    # second action is not tried and B does not count: the means are A's alone.
    tally = pimc([1, 2], _worlds(), value, random.Random(0), seconds=10.0, hard_seconds=3.0)
    assert tally.worlds == 1
    assert tally.mean(1) == 6.0 and tally.mean(2) == 4.0


def test_the_clock_cannot_stop_the_minimum_worlds(clock: _Clock) -> None:
    def value(world: str, action: int, rng: random.Random) -> float:
        clock.now += 1.0
        return _value(world, action, rng)

    assert pimc([1, 2], _worlds(), value, random.Random(0), seconds=0.0).worlds == 1
    got = pimc([1, 2], _worlds(), value, random.Random(0), seconds=0.0, min_worlds=3)
    assert got.worlds == 3
    none = pimc([1, 2], _worlds(), value, random.Random(0), seconds=0.0, min_worlds=0)
    assert none.worlds == 0 and none.mean(1) == 0.0


def test_no_actions_is_an_error() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        pimc([], _worlds(), _value, random.Random(0), seconds=1.0)


def test_both_games_search_with_the_shared_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    import kozyr.bots.emperor.search as emperor_search
    import kozyr.bots.imperial.search as imperial_search

    used: list[str] = []

    def spy(game: str) -> Callable[..., search.Tally]:
        def wrapped(*args: object, **kwargs: object) -> search.Tally:
            used.append(game)
            return pimc(*args, **kwargs)  # type: ignore[arg-type]

        return wrapped

    monkeypatch.setattr(imperial_search, "pimc", spy("imperial"))
    monkeypatch.setattr(emperor_search, "pimc", spy("emperor"))
    state = ImperialState.new(ImperialOptions(players=2), seed=70)
    seat = state.to_act
    assert seat is not None
    SearchBot(1, max_worlds=2).choose(state.observation(seat), state.legal_actions(), 5.0)
    emperor = EmperorState.new(EmperorOptions(players=4), seed=8)
    seat = emperor.to_act
    assert seat is not None
    EmperorSearch(1, cap=5.0, work=500).choose(
        emperor.observation(seat), emperor.legal_actions(), 5.0
    )
    assert used == ["imperial", "emperor"]
