"""The interop layer deals its worlds with the bots' samplers: one sampler per game."""

from __future__ import annotations

import random

import kozyr.bots.emperor.sampler as emperor_sampler
import kozyr.bots.imperial.sampler as imperial_sampler
from kozyr.bots.matching import SampleError
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.interop import sampling


def test_the_interop_samplers_are_the_bots_samplers() -> None:
    assert sampling.sample_imperial_hidden is imperial_sampler.sample_hidden
    assert sampling.sample_emperor_hidden is emperor_sampler.sample_hidden
    assert sampling.SamplingError is SampleError


def test_an_interop_guess_rebuilds_the_observed_position() -> None:
    imperial = ImperialState.new(ImperialOptions(players=3), seed=4)
    emperor = EmperorState.new(EmperorOptions(players=3), seed=4)
    rng = random.Random(1)
    for state, sample in (
        (imperial, sampling.sample_imperial_hidden),
        (emperor, sampling.sample_emperor_hidden),
    ):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        hidden = sample(obs, rng)  # type: ignore[arg-type]
        assert hidden[seat] == state.hands[seat]
        world = type(state).from_observation(obs, hidden)  # type: ignore[attr-defined]
        assert world.legal_actions() == state.legal_actions()
        assert world.observation(seat).hand == obs.hand
