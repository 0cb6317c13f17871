"""OpenSpiel's ISMCTS as a kozyr bot."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from kozyr.bots import Bot, RandomBot
from kozyr.bots.registry import make_bot
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.interop import ismcts
from kozyr.interop.ismcts import ISMCTSKozyrBot


def test_registered_for_both_games() -> None:
    assert isinstance(make_bot("imperial", "ismcts", 1), ISMCTSKozyrBot)
    assert isinstance(make_bot("emperor", "ismcts", 1), ISMCTSKozyrBot)


@pytest.mark.parametrize("players", [2, 3])
def test_imperial_move_is_legal_and_within_budget(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot's clock is driven by the test: each reading is 0.01 s after the last, so
    # keeping to the budget is checked exactly, whatever else the machine is doing.
    # Budget 0.15 s less the 5% margin: the deadline is 0.1425 s after the start (read 0).
    # The first simulation only expands the root (no visit yet) and the second makes the
    # first visit, both unasked; each later one follows a reading below the deadline,
    # 0.01 .. 0.14 (14 of them); the reading 0.15 stops the search: 16 simulations.
    readings = iter(range(1_000_000))
    monkeypatch.setattr(ismcts, "_clock", lambda: next(readings) / 100)
    state = ImperialState.new(ImperialOptions(players=players), seed=21)
    bot = ISMCTSKozyrBot(seed=1)
    searched = 0
    for _ in range(3):
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        readings = iter(range(1_000_000))
        action = bot.choose(state.observation(seat), legal, 0.15)
        assert action in legal
        if len(legal) > 1:
            assert bot.last_simulations == 16
            searched += 1
        state.apply(action)
    assert searched > 0


def test_emperor_moves_through_every_phase() -> None:
    # Round 2 starts with the exchange and bargaining (bargain_from=2), then trump.
    state = EmperorState.new(EmperorOptions(players=4, rounds=2, bargain_from=2), seed=4)
    bot = ISMCTSKozyrBot(seed=2, max_simulations=12)
    phases = set()
    while not state.over:
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        phases.add(state.phase)
        action = bot.choose(state.observation(seat), legal, 5.0)
        assert action in legal
        state.apply(action)
    assert {"play", "exchange", "trump"} <= phases


def test_fixed_simulations_are_reproducible() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=8)
    seat = state.to_act
    assert seat is not None
    obs, legal = state.observation(seat), state.legal_actions()
    picks = {ISMCTSKozyrBot(seed=3, max_simulations=30).choose(obs, legal, 10.0) for _ in range(2)}
    assert len(picks) == 1


def test_short_game_against_random_finishes() -> None:
    state = ImperialState.new(ImperialOptions(players=2, target=1), seed=5)
    bots: list[Bot] = [ISMCTSKozyrBot(seed=7), RandomBot(seed=8)]
    moves = 0
    while not state.over:
        seat = state.to_act
        assert seat is not None
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), 0.02))
        moves += 1
    assert state.winner is not None
    assert moves > 0


def test_root_and_its_worlds_share_the_information_state() -> None:
    state = EmperorState.new(EmperorOptions(players=3, rounds=2, bargain_from=2), seed=6)
    for _ in range(20):
        state.apply(state.legal_actions()[0])
    seat = state.to_act
    assert seat is not None
    bot = ISMCTSKozyrBot(seed=4)
    root = bot.root_state(state.observation(seat))
    key = root.information_state_string(seat)
    for i in range(5):
        world = root.resample_with_rng(seat, random.Random(i))
        assert world.information_state_string(seat) == key
        assert world.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("policy", ["visits", "value"])
def test_the_final_policy_picks_the_most_visited_or_the_best_valued_root_card(
    policy: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The search's root is kept, so the card played can be checked against its children.
    roots = []

    class Kept(ismcts._TimedISMCTS):  # type: ignore[name-defined,misc]
        def search(self, state, deadline, max_simulations):  # type: ignore[no-untyped-def]
            out = super().search(state, deadline, max_simulations)
            roots.append(self._root_node)
            return out

    monkeypatch.setattr(ismcts, "_TimedISMCTS", Kept)
    state = ImperialState.new(ImperialOptions(players=2), seed=8)
    seat = state.to_act
    assert seat is not None
    obs, legal = state.observation(seat), state.legal_actions()
    card = ISMCTSKozyrBot(seed=3, max_simulations=200, final_policy=policy).choose(obs, legal, 30.0)
    children = roots[0].child_info
    if policy == "visits":
        best = max(c.visits for c in children.values())
        assert children[card].visits == best
    else:
        best_value = max(c.value() for c in children.values())
        assert children[card].value() == best_value
    # with 200 simulations over a dozen cards the two picks are not both ties everywhere
    assert len({c.visits for c in children.values()}) > 1


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"final_policy": "robust"}, "final_policy must be 'visits' or 'value'"),
        ({"uct_c": 0.0}, "uct_c must be above 0"),
        ({"uct_c": 101.0}, "at most 100"),
    ],
)
def test_a_setting_out_of_range_is_refused(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        ISMCTSKozyrBot(seed=1, **kwargs)  # type: ignore[arg-type]
