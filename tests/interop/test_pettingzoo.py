"""The PettingZoo AEC environments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.interop.pettingzoo import emperor_env, imperial_env

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize(
    "make",
    [
        lambda: imperial_env(players=2, target=2),
        lambda: imperial_env(players=3, target=1, must_head=True),
        lambda: emperor_env(players=3, rounds=2, bargain_from=2),
        lambda: emperor_env(players=4, rounds=2, render_mode="ansi"),
    ],
)
def test_api_and_seed(make: Callable[[], Any]) -> None:
    api_test(make(), num_cycles=300)
    seed_test(make, num_cycles=300)


def test_reset_seed_is_the_engine_seed() -> None:
    env = emperor_env(players=4, rounds=1)
    env.reset(seed=9)
    state = EmperorState.new(EmperorOptions(players=4, rounds=1), seed=9)
    assert env.state_of().dealt == state.dealt
    agent = env.agent_selection
    assert agent == f"player_{state.to_act}"
    obs = env.observe(agent)
    assert obs["observation"].dtype == np.float32
    assert env.observation_space(agent).contains(obs)
    assert sorted(np.flatnonzero(obs["action_mask"]).tolist()) == state.legal_actions()


def test_full_game_rewards_and_render() -> None:
    env = imperial_env(players=3, target=1, render_mode="ansi")
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(totals.values()) == [-0.5, -0.5, 1.0]
    text = env.render()
    assert text is not None and "imperial" in text


def test_illegal_action_raises() -> None:
    env = imperial_env(players=2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="illegal"):
        env.step(illegal)


def test_bad_options() -> None:
    with pytest.raises(ValueError):
        imperial_env(players=5)
    with pytest.raises(ValueError):
        emperor_env(render_mode="human")
