"""Property tests over many random games of two and three players (seeded loops)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kozyr.cards import card_list, parse_card
from kozyr.games.imperial import ImperialOptions, ImperialState

from .helpers import snapshot

MAX_ACTIONS = 5000


def _check_scores(state: ImperialState) -> None:
    for imperials, loose in state.scores:
        assert imperials >= 0
        # Loose points stay 0-23, except when the game ends inside a white deal (I11:
        # loose points there become imperials only at the end of the deal).
        if not (state.over and any(e["type"] == "white_imperial" for e in _this_deal(state))):
            assert 0 <= loose < 24


def _this_deal(state: ImperialState) -> list[dict[str, Any]]:
    for i in range(len(state.events) - 1, -1, -1):
        if state.events[i]["type"] == "deal":
            return state.events[i:]
    return []


def _card_names(value: Any) -> set[str]:
    """Every string in a JSON-ready structure that reads as a card."""
    out: set[str] = set()
    if isinstance(value, str):
        try:
            parse_card(value)
        except ValueError:
            return out
        if len(value) <= 3:
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "trump":
                out |= _card_names(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out |= _card_names(v)
    return out


def _check_observation(state: ImperialState, seat: int | None) -> None:
    obs = state.observation(seat)
    n = state.players
    stock = state.dealt[-1].stock if state.dealt else 0
    # A card of another hand may be named only if it is shown (I13); the stock never.
    secret = stock
    for t in range(n):
        if t != seat:
            secret |= state.hands[t] & ~state.shown[t]
    data = obs.to_json()
    data["events"] = _this_deal(state)
    secret_names = {state.action_text(c) for c in card_list(secret)}
    assert not (_card_names(data) & secret_names)
    if seat is not None:
        assert obs.hand == state.hands[seat]
    for t in range(n):
        assert obs.shown[t] & ~state.hands[t] == 0


def _play_game(
    options: ImperialOptions, seed: int, rng: random.Random, observe: bool
) -> ImperialState:
    state = ImperialState.new(options, seed=seed)
    _check_scores(state)
    steps = 0
    while not state.over:
        legal = state.legal_actions()
        assert legal, "a state that is not over has a legal action"
        assert legal == sorted(legal)
        state.apply(rng.choice(legal))
        _check_scores(state)
        steps += 1
        assert steps < MAX_ACTIONS
        if observe and steps % 7 == 0:
            _check_observation(state, state.to_act)
            _check_observation(state, None)
    winner = state.winner
    assert winner is not None
    assert state.scores[winner][0] >= options.target
    assert state.events[-1]["type"] == "game_over"
    return state


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("must_head", [False, True])
def test_random_games_end_and_replay(players: int, must_head: bool) -> None:
    options = ImperialOptions(players=players, must_head=must_head)
    rng = random.Random(players * 10 + must_head)
    for seed in range(150):
        state = _play_game(options, seed, rng, observe=seed % 5 == 0)
        # B2: the deals and the actions replay the game event for event.
        replay = ImperialState.new(
            options, seed=None, deals=state.dealt, first_dealer=state.first_dealer
        )
        for text in state.actions:
            replay.play(text)
        assert replay.events == state.events
        assert replay.scores == state.scores and replay.winner == state.winner


def test_many_quick_games_short_target() -> None:
    # Short games reach the white imperial and the tombé often enough over many deals.
    kinds: set[str] = set()
    rng = random.Random(5)
    for seed in range(1500):
        players = 2 + seed % 2
        options = ImperialOptions(players=players, target=2, tombe_value=1 + seed % 3 // 2)
        state = _play_game(options, seed, rng, observe=False)
        kinds |= {e.get("reason", e["type"]) for e in state.events}
    assert {"imperial tombé", "capot", "tricks", "imperials", "honour led"} <= kinds
    assert "white_imperial" in kinds


def test_clone_is_independent() -> None:
    rng = random.Random(3)
    state = ImperialState.new(ImperialOptions(players=3), seed=11)
    for _ in range(40):
        copy = state.clone()
        before = snapshot(state)
        while not copy.over and copy.deal_number == state.deal_number:
            copy.apply(rng.choice(copy.legal_actions()))
        assert snapshot(state) == before
        state.apply(rng.choice(state.legal_actions()))


def _continue_identically(seed: int, players: int, cut: int) -> None:
    rng = random.Random(seed)
    options = ImperialOptions(players=players)
    state = ImperialState.new(options, seed=seed)
    for _ in range(cut):
        if state.over:
            return
        state.apply(rng.choice(state.legal_actions()))
    if state.over:
        return
    seat = state.to_act
    obs = state.observation(seat if cut % 2 else None)
    other = ImperialState.from_observation(obs, list(state.hands), seed=seed)
    assert other.legal_actions() == state.legal_actions()
    mark = len(state.events)
    number = state.deal_number
    while not state.over and state.deal_number == number:
        action = rng.choice(state.legal_actions())
        state.apply(action)
        other.apply(action)
        assert other.scores == state.scores
    # Same seed: the continuation (next deals included) is identical.
    assert other.events == state.events[mark:]
    assert other.scores == state.scores and other.winner == state.winner


def test_from_observation_continues_identically() -> None:
    for seed in range(300):
        _continue_identically(seed, 2 + seed % 2, seed % 97)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([2, 3]), st.integers(0, 200))
def test_from_observation_continues_identically_hypothesis(
    seed: int, players: int, cut: int
) -> None:
    _continue_identically(seed, players, cut)
