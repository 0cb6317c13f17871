"""``clone()`` and ``from_observation`` forget no field of the state (issue 28).

The state declares ``__slots__`` and has no ``__dict__``, so every field is a slot and
these tests see every field. A slot added to :class:`ImperialState` but not carried by
``clone()``, or in neither list below for ``from_observation``, fails a test that names
it. The checks run at many points of seeded random games of 2 and 3 players.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from tests.state_copies import clone_problems, rebuild_problems
from tests.state_copies import slots as _slots
from tests.state_copies import unlisted as _unlisted

from kozyr.games.imperial import ImperialOptions, ImperialState

S = ImperialState

# ---------------------------------------------------------------- clone()

CLONE_SHARES: dict[str, str] = {}
"""Slots whose mutable value a clone may share with the original, and why."""

CLONE_SHARES_ELEMENTS = {
    "events": "an event dict is never changed once logged; the list is copied",
}
"""Slots whose container a clone copies but whose elements it may share, and why."""

# ---------------------------------------------------------------- from_observation

FROM_OBSERVATION_CARRIES = frozenset(
    {
        "_first_dealer",
        "_honours",
        "_leader",
        "_led",
        "_must_head",
        "_to_act",
        "_tombe_cards",
        "_tombe_winners",
        "_trick",
        "_trump",
        "_white",
        "captures",
        "deal_number",
        "dealer",
        "game",
        "imperials",
        "loose",
        "options",
        "played",
        "players",
        "shown",
        "tricks",
        "tricks_done",
        "voids",
        "waiting_for_deal",
        "winner",
    }
)
"""Slots a rebuilt state holds exactly as the original: public (or derived from public)."""


def _own_hands(obs: Any, hidden: Sequence[int]) -> list[int]:
    return [obs.hand if s == obs.seat else h for s, h in enumerate(hidden)]


def _before_trick_or_same(name: str) -> Any:
    def check(orig: S, new: S, obs: Any, hidden: Sequence[int], seed: Any, dealing: str) -> bool:
        # Only read while a trick is on the table; between tricks the original keeps the
        # last trick's value and the rebuilt state its blank one.
        return not orig._trick or getattr(new, name) == getattr(orig, name)

    return check


FROM_OBSERVATION_REBUILDS: dict[str, Any] = {
    # sampled: the observer's own hand and the caller's guesses for the others
    "hands": lambda o, n, obs, hidden, seed, dealing: n.hands == _own_hands(obs, hidden),
    # the current deal only, rebuilt from the hands and the played cards
    "dealt": lambda o, n, obs, hidden, seed, dealing: n.dealt == o.dealt[-1:],
    # no history before the observed point: the state knows only this deal
    "events": lambda o, n, obs, hidden, seed, dealing: n.events == [],
    "actions": lambda o, n, obs, hidden, seed, dealing: n.actions == [],
    "_given": lambda o, n, obs, hidden, seed, dealing: n._given == [],
    # a rebuilt state writes its events, whatever path the original was on
    "_writes": lambda o, n, obs, hidden, seed, dealing: n._writes is True,
    # the game's counters of points in play and tricks start again from the observed point
    "play_points": lambda o, n, obs, hidden, seed, dealing: n.play_points == [0] * n.players,
    "tricks_won": lambda o, n, obs, hidden, seed, dealing: n.tricks_won == [0] * n.players,
    # the caller's arguments: later deals come from this seed, by this scheme
    "seed": lambda o, n, obs, hidden, seed, dealing: n.seed == seed,
    "dealing": lambda o, n, obs, hidden, seed, dealing: n.dealing == dealing,
    # derived from the trick on the table
    "_best": _before_trick_or_same("_best"),
    "_best_seat": _before_trick_or_same("_best_seat"),
}
"""Slots ``from_observation`` samples, rebuilds or derives: each with its own check of
(original, rebuilt, observation, hidden, seed, dealing)."""

# ---------------------------------------------------------------- the checks


def _clone_problems(state: S) -> list[str]:
    return clone_problems(state, CLONE_SHARES, CLONE_SHARES_ELEMENTS)


def _rebuild_problems(state: S, seat: int | None, seed: int | None) -> list[str]:
    return rebuild_problems(state, seat, seed, FROM_OBSERVATION_CARRIES, FROM_OBSERVATION_REBUILDS)


# ---------------------------------------------------------------- the states


def _states(players: int, must_head: bool, games: int) -> Iterator[ImperialState]:
    """States at many points of seeded random games (every deal to the end of the game,
    a game over, and a state that waits for a deal)."""
    options = ImperialOptions(players=players, must_head=must_head, target=3)
    for seed in range(games):
        rng = random.Random(seed * 7 + players)
        state = ImperialState.new(options, seed=seed)
        yield state
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
            if rng.random() < 0.04 or not state.trick:
                yield state
        yield state
        # The same deals without a seed: the state waits for a deal after the last one.
        waiting = ImperialState.new(options, deals=state.dealt[:2], first_dealer=state.first_dealer)
        for text in state.actions:
            if waiting.waiting_for_deal:
                break
            waiting.play(text)
        assert waiting.waiting_for_deal or waiting.over
        yield waiting


CASES = [(2, False), (2, True), (3, False), (3, True)]


def test_the_state_keeps_every_field_in_its_slots() -> None:
    state = ImperialState.new(ImperialOptions(), seed=1)
    assert not hasattr(state, "__dict__")
    with pytest.raises(AttributeError):
        state.not_a_field = 1  # type: ignore[attr-defined]
    for name in _slots(ImperialState):
        getattr(state, name)  # set by new()


@pytest.mark.parametrize(("players", "must_head"), CASES)
def test_clone_carries_every_slot_and_shares_nothing_mutable(players: int, must_head: bool) -> None:
    points = 0
    for state in _states(players, must_head, 12):
        problems = _clone_problems(state)
        assert not problems, "\n".join(problems)
        points += 1
    assert points > 200


def test_from_observation_lists_every_slot_once() -> None:
    slots = set(_slots(ImperialState))
    both = FROM_OBSERVATION_CARRIES & set(FROM_OBSERVATION_REBUILDS)
    assert not both, f"slots both carried and rebuilt: {sorted(both)}"
    stale = (FROM_OBSERVATION_CARRIES | set(FROM_OBSERVATION_REBUILDS)) - slots
    assert not stale, f"listed but not slots of ImperialState: {sorted(stale)}"
    unlisted = slots - FROM_OBSERVATION_CARRIES - set(FROM_OBSERVATION_REBUILDS)
    assert not unlisted, "\n".join(_unlisted("ImperialState", n) for n in sorted(unlisted))


@pytest.mark.parametrize(("players", "must_head"), CASES)
def test_from_observation_carries_every_public_slot(players: int, must_head: bool) -> None:
    points = 0
    for i, state in enumerate(_states(players, must_head, 12)):
        if state.to_act is None:
            continue  # no deal in play: nothing to rebuild
        seed = state.seed if i % 2 else None
        for seat in [None, *range(players)]:
            problems = _rebuild_problems(state, seat, seed)
            assert not problems, "\n".join(problems)
        points += 1
    assert points > 200
