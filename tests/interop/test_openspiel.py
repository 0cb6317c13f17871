"""The OpenSpiel games: OpenSpiel's own random simulation test, resampling, utilities."""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from kozyr.cards import SUIT_MASKS  # noqa: E402
from kozyr.games.emperor import EmperorState  # noqa: E402
from kozyr.games.imperial import ImperialState  # noqa: E402
from kozyr.interop import openspiel as kos  # noqa: E402


@pytest.mark.parametrize(
    ("name", "params", "sims"),
    [
        (kos.IMPERIAL, {"players": 2, "target": 2}, 4),
        (kos.IMPERIAL, {}, 2),
        (kos.IMPERIAL, {"players": 3, "target": 2, "must_head": True}, 3),
        (kos.EMPEROR, {"players": 3, "rounds": 2}, 3),
        (kos.EMPEROR, {"players": 4, "rounds": 2, "bargain_from": 2}, 3),
        (kos.EMPEROR, {}, 1),
    ],
)
def test_random_sim_test(name: str, params: dict[str, object], sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_game_info() -> None:
    imperial = pyspiel.load_game(kos.IMPERIAL, {"players": 3})
    assert imperial.num_players() == 3
    assert imperial.num_distinct_actions() == 52
    assert imperial.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    emperor = pyspiel.load_game(kos.EMPEROR)
    assert emperor.num_players() == 4
    assert emperor.num_distinct_actions() == 68
    assert emperor.max_chance_outcomes() == kos.DEFAULT_DEAL_SEEDS
    state = emperor.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(5)
    # Outcome k is the engine's seeded deal of seed k.
    assert (
        kos.kozyr_state(state).dealt[0]
        == EmperorState.new(emperor.options, seed=5, join_order=[0, 1, 2, 3]).dealt[0]
    )


def _play(game: Any, rng: random.Random, steps: int) -> Any:
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _random_midgame(game: Any, rng: random.Random) -> Any:
    while True:
        state = _play(game, rng, rng.randrange(1, 160))
        if not state.is_terminal() and not state.is_chance_node():
            return state


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (kos.IMPERIAL, {"players": 2}),
        (kos.IMPERIAL, {"players": 3}),
        (kos.EMPEROR, {"players": 3, "rounds": 3, "bargain_from": 2}),
        (kos.EMPEROR, {"players": 4, "rounds": 3, "bargain_from": 2}),
    ],
)
def test_resampling_keeps_the_information_state(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    rng = random.Random(11)
    n = game.num_players()
    for _ in range(12):
        state = _random_midgame(game, rng)
        player = rng.randrange(n)
        info = state.information_state_string(player)
        obs = state.kozyr_observation(player)
        for _ in range(5):
            sample = state.resample_from_infostate(
                player, pyspiel.UniformProbabilitySampler(0.0, 1.0)
            )
            assert sample.information_state_string(player) == info
            assert sample.observation_string(player) == state.observation_string(player)
            assert sample.current_player() == state.current_player()
            if player == state.current_player():
                assert sample.legal_actions() == state.legal_actions()
            k = kos.kozyr_state(sample)
            hands = k.hands
            assert hands[player] == kos.kozyr_state(state).hands[player]
            for seat in range(n):
                if seat == player:
                    continue
                assert hands[seat].bit_count() == obs.hand_sizes[seat]
                if isinstance(k, EmperorState):
                    assert obs.known.get(seat, 0) & ~hands[seat] == 0
                    voids = obs.voids[seat]
                else:
                    assert isinstance(k, ImperialState)
                    assert obs.shown[seat] & ~hands[seat] == 0
                    voids = obs.voids[seat]
                for suit in range(4):
                    if voids >> suit & 1:
                        assert hands[seat] & SUIT_MASKS[suit] == 0
            # The resampled world plays on to the end like any other state.
            for _ in range(40):
                if sample.is_terminal():
                    break
                if sample.is_chance_node():
                    sample.apply_action(rng.randrange(100))
                else:
                    sample.apply_action(rng.choice(sample.legal_actions()))


def test_imperial_voids_agree_with_the_hands() -> None:
    game = pyspiel.load_game(kos.IMPERIAL, {"players": 2})
    rng = random.Random(3)
    found = 0
    for _ in range(30):
        state = _random_midgame(game, rng)
        k = kos.kozyr_state(state)
        assert isinstance(k, ImperialState)
        for seat in range(2):
            voids = k.observation(seat).voids
            for other in range(2):
                for suit in range(4):
                    if voids[other] >> suit & 1:
                        found += 1
                        assert k.hands[other] & SUIT_MASKS[suit] == 0
    assert found > 0


def test_utilities_are_zero_sum() -> None:
    rng = random.Random(5)
    for name, params in [
        (kos.IMPERIAL, {"players": 3, "target": 1}),
        (kos.EMPEROR, {"players": 3, "rounds": 1}),
    ]:
        game = pyspiel.load_game(name, params)
        state = _play(game, rng, 10_000)
        assert state.is_terminal()
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        assert max(returns) == 1.0


@pytest.mark.parametrize(
    ("name", "params"),
    [(kos.IMPERIAL, {"players": 3, "target": 1}), (kos.EMPEROR, {"players": 3, "rounds": 1})],
)
def test_random_sim_test_with_serialization(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
