"""The fast path gives what the public API gives (issue 32).

:meth:`EmperorState.fast_clone` copies write no events and no actions, and
:meth:`~EmperorState.apply_legal` plays a card without checking it again. The same random
games are played both ways side by side, for every player count, with bargaining from
its earliest round and from none: after every action the two states agree on every field
but the ones the fast path leaves out.
"""

from __future__ import annotations

import pytest
from tests.fast_paths import mask_actions, play_both_paths

from kozyr.games.emperor import EmperorOptions, EmperorState


def _play_both(options: EmperorOptions, seed: int) -> int:
    public = EmperorState.new(options, seed=seed)
    fast, steps = play_both_paths(public, seed)
    assert fast.standing == public.standing
    return steps


@pytest.mark.parametrize("bargain_from", [2, 11])
@pytest.mark.parametrize("players", [3, 4])
def test_random_games_through_both_paths_agree_after_every_action(
    players: int, bargain_from: int
) -> None:
    options = EmperorOptions(players=players, rounds=3, bargain_from=bargain_from)
    steps = sum(_play_both(options, seed) for seed in range(150))
    # three rounds of every seat's cards a game, at the least: the games were played
    assert steps >= 150 * 3 * 12 * players


def test_a_fast_copy_writes_nothing_and_leaves_the_original_whole() -> None:
    state = EmperorState.new(EmperorOptions(players=4), seed=3)
    state.apply(state.legal_actions()[0])
    events, actions = list(state.events), list(state.actions)
    fast = state.fast_clone()
    fast.apply_legal(mask_actions(fast.legal_mask())[0])
    assert fast.events == [] and fast.actions == []
    assert state.events == events and state.actions == actions
    assert state.hands != fast.hands
