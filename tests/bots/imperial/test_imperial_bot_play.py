"""Every Imperial bot plays legal cards; levels and kinds are registered; timing holds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from imperial_bot_helpers import random_positions

from kozyr.bots.base import Bot
from kozyr.bots.imperial import HeuristicBot, OracleBot, SearchBot, level_bot
from kozyr.bots.imperial import search as imperial_search
from kozyr.bots.registry import kinds, make_bot
from kozyr.bots.search import Ranked
from kozyr.games.imperial import ImperialObservation, ImperialOptions, ImperialState


@pytest.mark.parametrize("players", [2, 3])
def test_every_bot_plays_legal_cards(players: int) -> None:
    bots: list[Bot] = [
        HeuristicBot(1),
        HeuristicBot(2, mistakes=0.3),
        SearchBot(3, cap=0.5, max_worlds=2),
        *(level_bot(n, seed=n, max_worlds=2) for n in range(1, 6)),
    ]
    oracle = OracleBot(4)
    for state in random_positions(players, 40, seed=players):
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        obs = state.observation(seat)
        for bot in bots:
            assert bot.choose(obs, legal, 0.5) in legal, bot.name
        assert oracle.choose_state(state, 0.5) in legal


def test_levels_and_kinds_are_registered() -> None:
    for n in range(1, 6):
        bot = make_bot("imperial", n, seed=7)
        assert bot.name == f"level{n}"
        assert make_bot("imperial", str(n), seed=7).name == f"level{n}"
    for kind in ("heuristic", "search", "oracle", "level1", "level5", "random"):
        assert kind in kinds("imperial")
        make_bot("imperial", kind, seed=1)
    assert getattr(make_bot("imperial", "oracle"), "needs_state", False) is True


def test_whole_games_between_levels_end_with_a_winner() -> None:
    for players in (2, 3):
        state = ImperialState.new(ImperialOptions(players=players, target=2), seed=11)
        bots = [level_bot(1 + s, seed=s, max_worlds=1) for s in range(players)]
        while not state.over:
            seat = state.to_act
            assert seat is not None
            state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), 0.2))
        assert state.winner is not None


def test_search_respects_the_time_budget_and_its_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # What is checked is the time handed to the search (whose loop keeps to it: a fake
    # clock in test_pimc), never the wall: the smaller of budget and cap, less the 0.01 s
    # kept back for the set-up and the return.
    given: list[float] = []
    real = imperial_search.search_observation

    def spy(
        obs: ImperialObservation, legal: Sequence[int], budget: float, *a: Any, **k: Any
    ) -> list[Ranked]:
        given.append(budget)
        return real(obs, legal, budget, *a, **k)

    monkeypatch.setattr(imperial_search, "search_observation", spy)
    state = next(iter(random_positions(2, 1, seed=5, heuristic_share=0.0)))
    seat = state.to_act
    assert seat is not None
    obs = state.observation(seat)
    legal = state.legal_actions()
    assert len(legal) > 1
    SearchBot(1, cap=5.0).choose(obs, legal, 0.1)  # the budget lowers the cap
    SearchBot(1, cap=0.1).choose(obs, legal, 10.0)  # and cannot raise it
    SearchBot(1, cap=0.3).choose(obs, legal, 0.0)  # no budget of the caller's: the cap
    assert given == pytest.approx([0.09, 0.09, 0.29])


def test_one_legal_card_returns_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_search(*a: Any, **k: Any) -> None:
        raise AssertionError("a forced card needs no search")

    monkeypatch.setattr(imperial_search, "search_observation", no_search)
    for state in random_positions(2, 60, seed=9):
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        if len(legal) == 1:
            assert SearchBot(1, cap=5.0).choose(state.observation(seat), legal, 5.0) == legal[0]
            return
    raise AssertionError("no forced card among the positions")


def test_fixed_worlds_make_search_deterministic() -> None:
    for state in random_positions(3, 5, seed=13):
        seat = state.to_act
        assert seat is not None
        obs, legal = state.observation(seat), state.legal_actions()
        a = SearchBot(42, cap=10.0, max_worlds=4).rank(obs, legal, 10.0)
        b = SearchBot(42, cap=10.0, max_worlds=4).rank(obs, legal, 10.0)
        assert a == b


def test_oracle_bound_to_a_state_provider() -> None:
    state = next(iter(random_positions(2, 1, seed=21)))
    oracle = OracleBot(1)
    seat = state.to_act
    assert seat is not None
    with pytest.raises(RuntimeError):
        oracle.choose(state.observation(seat), state.legal_actions(), 0.1)
    oracle.bind(lambda: state)
    assert oracle.choose(state.observation(seat), state.legal_actions(), 0.1) in (
        state.legal_actions()
    )
