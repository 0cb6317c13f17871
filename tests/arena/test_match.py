"""Playing arena games: who gets an observation and who the whole state, illegal moves."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kozyr.arena.command import run_arena
from kozyr.arena.duplicate import schedule
from kozyr.arena.match import ArenaError, Task, make_options, parse_bots, play
from kozyr.bots.registry import register
from kozyr.games.base import GameState, Observation


class LowBot:
    """Always the lowest legal action; checks it is asked only on its own turn."""

    name = "arena-test-low"

    def __init__(self, seed: int | None) -> None:
        self.calls = 0

    def choose(self, observation: Observation, legal: Sequence[int], budget: float) -> int:
        obs = observation.to_json()
        assert obs["to_act"] == observation.seat
        assert budget == 0.25
        return min(legal)


class OracleBot:
    """Sees the whole state, as the oracle bot does (``needs_state``)."""

    name = "arena-test-oracle"
    needs_state = True

    def __init__(self, seed: int | None) -> None:
        pass

    def choose(self, observation: Observation, legal: Sequence[int], budget: float) -> int:
        raise AssertionError("a bot with needs_state must be asked through choose_state")

    def choose_state(self, state: GameState, budget: float) -> int:
        assert budget == 0.5
        return max(state.legal_actions())


class CheatBot:
    name = "arena-test-cheat"

    def __init__(self, seed: int | None) -> None:
        pass

    def choose(self, observation: Observation, legal: Sequence[int], budget: float) -> int:
        return 99


for _game in ("imperial", "emperor"):
    register(_game, "arena-test-low", LowBot)
    register(_game, "arena-test-oracle", OracleBot)
    register(_game, "arena-test-cheat", CheatBot)


def test_oracle_gets_the_state_and_others_their_observation() -> None:
    run = run_arena(
        "imperial",
        parse_bots("arena-test-low,arena-test-oracle@0.5"),
        games=4,
        seed=3,
        options={"target": 3},
        budget=0.25,
    )
    assert [s.label for s in run.summaries] == ["arena-test-low", "arena-test-oracle@0.5"]
    assert all(s.timing.decisions > 0 for s in run.summaries)
    assert sum(s.figures["win_rate"].value for s in run.summaries) == pytest.approx(1.0)


def test_deterministic_bots_give_the_same_games() -> None:
    a = run_arena(
        "emperor",
        parse_bots("random,arena-test-low@0.25,random"),
        3,
        seed=4,
        options={"rounds": 2},
        budget=0.25,
    )
    b = run_arena(
        "emperor",
        parse_bots("random,arena-test-low@0.25,random"),
        3,
        seed=4,
        options={"rounds": 2},
        budget=0.25,
    )
    assert [r.outcome for r in a.results] == [r.outcome for r in b.results]


def test_an_illegal_action_is_an_arena_error() -> None:
    specs = tuple(parse_bots("random,arena-test-cheat"))
    opts = make_options("imperial", 2, {}).to_json()
    slot = schedule(2, 2, seed=1)[0]
    with pytest.raises(ArenaError, match=r"arena-test-cheat .*not a legal action"):
        play(Task("imperial", opts, slot, specs, 0.0))


def test_unknown_bot() -> None:
    with pytest.raises(ArenaError, match="unknown bot"):
        run_arena("imperial", parse_bots("random,nonsense"), 2, seed=1)
