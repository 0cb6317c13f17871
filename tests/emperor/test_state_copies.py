"""``clone()`` and ``from_observation`` forget no field of the state (issue 28).

The state declares ``__slots__`` and has no ``__dict__``, so every field is a slot and
these tests see every field. A slot added to :class:`EmperorState` but not carried by
``clone()``, or in neither list below for ``from_observation``, fails a test that names
it. The checks run at many points of seeded random games of 3 and 4 players. (The
checks are those of ``tests/imperial/test_state_copies.py``.)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from tests.state_copies import clone_problems, rebuild_problems
from tests.state_copies import slots as _slots
from tests.state_copies import unlisted as _unlisted

from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.emperor.state import BARGAIN, PLAY

S = EmperorState

# ---------------------------------------------------------------- clone()

CLONE_SHARES = {
    "_order": "the title order is replaced at each round's end, never changed in place",
    "_standing": "the final standing is set once at the game's end, never changed",
}
"""Slots whose mutable value a clone may share with the original, and why."""

CLONE_SHARES_ELEMENTS = {
    "events": "an event dict is never changed once logged; the list is copied",
}
"""Slots whose container a clone copies but whose elements it may share, and why."""

# ---------------------------------------------------------------- from_observation

FROM_OBSERVATION_CARRIES = frozenset(
    {
        "_first_leader",
        "_first_trick",
        "_known",
        "_offers",
        "_order",
        "_phase",
        "_played",
        "_round",
        "_seq",
        "_standing",
        "_swaps",
        "_tc",
        "_to_act",
        "_totals",
        "_trick_no",
        "_tricks",
        "_trump",
        "_trump_card",
        "_voids",
        "options",
        "players",
    }
)
"""Slots a rebuilt state holds exactly as the original: public (or derived from public)."""


def _own_hands(obs: Any, hidden: Sequence[int]) -> list[int]:
    return [obs.hand if s == obs.seat else h for s, h in enumerate(hidden)]


def _same_when(name: str, when: Any) -> Any:
    def check(orig: S, new: S, obs: Any, hidden: Sequence[int], seed: Any, dealing: str) -> bool:
        # Read only ``when`` it matters; elsewhere the original keeps a stale value and
        # the rebuilt state its blank one.
        return not when(orig) or getattr(new, name) == getattr(orig, name)

    return check


def _trick_cards(o: S, n: S, obs: Any, hidden: Sequence[int], seed: Any, dealing: str) -> bool:
    on_table = o._seq[: o._tc]
    return n._trick_cards == [o._trick_cards[s] if s in on_table else -1 for s in range(o.players)]


def _join_order(o: S, n: S, obs: Any, hidden: Sequence[int], seed: Any, dealing: str) -> bool:
    # Only the last joiner matters (E5): a clockwise order ending with him stands in.
    return n.join_order[-1] == o.join_order[-1] and sorted(n.join_order) == sorted(o.join_order)


FROM_OBSERVATION_REBUILDS: dict[str, Any] = {
    # sampled: the observer's own hand and the caller's guesses for the others
    "_hands": lambda o, n, obs, hidden, seed, dealing: n._hands == _own_hands(obs, hidden),
    # no history before the observed point: the state knows only this round
    "dealt": lambda o, n, obs, hidden, seed, dealing: n.dealt == [],
    "events": lambda o, n, obs, hidden, seed, dealing: n.events == [],
    "actions": lambda o, n, obs, hidden, seed, dealing: n.actions == [],
    "_given": lambda o, n, obs, hidden, seed, dealing: n._given == (),
    # a rebuilt state writes its events, whatever path the original was on
    "_writes": lambda o, n, obs, hidden, seed, dealing: n._writes is True,
    # the caller's arguments: later rounds come from this seed, by this scheme
    "seed": lambda o, n, obs, hidden, seed, dealing: n.seed == seed,
    "dealing": lambda o, n, obs, hidden, seed, dealing: n.dealing == dealing,
    "join_order": _join_order,
    # derived from the trick on the table
    "_best": _same_when("_best", lambda o: o._tc),
    "_best_seat": _same_when("_best_seat", lambda o: o._tc),
    "_lead": _same_when("_lead", lambda o: o._tc),
    "_trick_cards": _trick_cards,
    # derived from the swaps and offers of this round
    "_ex_idx": _same_when("_ex_idx", lambda o: o._phase != PLAY),
    "_bargain_target": _same_when("_bargain_target", lambda o: o._phase == BARGAIN),
    "_last_offer": _same_when("_last_offer", lambda o: o._phase == BARGAIN),
    "_answering": _same_when("_answering", lambda o: o._phase == BARGAIN),
}
"""Slots ``from_observation`` samples, rebuilds or derives: each with its own check of
(original, rebuilt, observation, hidden, seed, dealing)."""

# ---------------------------------------------------------------- the checks


def _clone_problems(state: EmperorState) -> list[str]:
    return clone_problems(state, CLONE_SHARES, CLONE_SHARES_ELEMENTS)


def _rebuild_problems(state: EmperorState, seat: int | None, seed: int | None) -> list[str]:
    return rebuild_problems(state, seat, seed, FROM_OBSERVATION_CARRIES, FROM_OBSERVATION_REBUILDS)


# ---------------------------------------------------------------- the states


def _states(players: int, bargain_from: int, games: int) -> Iterator[EmperorState]:
    """States at many points of seeded random games (every phase of several rounds, a
    game over, and a state that waits for a deal)."""
    options = EmperorOptions(players=players, rounds=4, bargain_from=bargain_from)
    for seed in range(games):
        rng = random.Random(seed * 7 + players)
        state = EmperorState.new(options, seed=seed)
        yield state
        while not state.over:
            state.apply(rng.choice(state.legal_actions()))
            if state.phase != "play" or not state.observation(None).trick or rng.random() < 0.04:
                yield state
        yield state
        # The same deals without a seed: the state waits for a deal after the second.
        waiting = EmperorState.new(options, deals=state.dealt[:2], join_order=state.join_order)
        for text in state.actions:
            if waiting.waiting_for_deal:
                break
            waiting.play(text)
        assert waiting.waiting_for_deal
        yield waiting


CASES = [(3, 2), (3, 3), (4, 2), (4, 3)]


def test_the_state_keeps_every_field_in_its_slots() -> None:
    state = EmperorState.new(EmperorOptions(), seed=1)
    assert not hasattr(state, "__dict__")
    with pytest.raises(AttributeError):
        state.not_a_field = 1  # type: ignore[attr-defined]
    for name in _slots(EmperorState):
        getattr(state, name)  # set by new()


@pytest.mark.parametrize(("players", "bargain_from"), CASES)
def test_clone_carries_every_slot_and_shares_nothing_mutable(
    players: int, bargain_from: int
) -> None:
    points = 0
    for state in _states(players, bargain_from, 6):
        problems = _clone_problems(state)
        assert not problems, "\n".join(problems)
        points += 1
    assert points > 200


def test_from_observation_lists_every_slot_once() -> None:
    slots = set(_slots(EmperorState))
    both = FROM_OBSERVATION_CARRIES & set(FROM_OBSERVATION_REBUILDS)
    assert not both, f"slots both carried and rebuilt: {sorted(both)}"
    stale = (FROM_OBSERVATION_CARRIES | set(FROM_OBSERVATION_REBUILDS)) - slots
    assert not stale, f"listed but not slots of EmperorState: {sorted(stale)}"
    unlisted = slots - FROM_OBSERVATION_CARRIES - set(FROM_OBSERVATION_REBUILDS)
    assert not unlisted, "\n".join(_unlisted("EmperorState", n) for n in sorted(unlisted))


@pytest.mark.parametrize(("players", "bargain_from"), CASES)
def test_from_observation_carries_every_public_slot(players: int, bargain_from: int) -> None:
    points = 0
    phases: set[str] = set()
    for i, state in enumerate(_states(players, bargain_from, 6)):
        if state.over or state.waiting_for_deal:
            continue  # nothing to continue
        seed = state.seed if i % 2 else None
        for seat in [None, *range(players)]:
            problems = _rebuild_problems(state, seat, seed)
            assert not problems, "\n".join(problems)
        phases.add(state.phase)
        points += 1
    assert points > 200
    assert phases == {"play", "exchange", "bargain", "trump"}
