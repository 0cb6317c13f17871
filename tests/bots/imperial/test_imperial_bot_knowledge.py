"""The sampler deals hidden cards consistently; bots never see the hidden cards."""

from __future__ import annotations

import gc
import random
from dataclasses import fields

import pytest
from imperial_bot_helpers import random_positions

from kozyr.bots.imperial import Sampler
from kozyr.bots.imperial.knowledge import knowledge
from kozyr.games.imperial import (
    ImperialObservation,
    ImperialOptions,
    ImperialState,
    honour_mask,
)
from kozyr.games.imperial.card_tables import deck_for, low_rank_for
from kozyr.games.tricks import suits_cards


@pytest.mark.parametrize("players", [2, 3])
def test_void_inference_is_sound(players: int) -> None:
    # Every void the knowledge infers from public play holds in the true hands.
    found = 0
    for state in random_positions(players, 80, seed=30 + players, heuristic_share=0.3):
        seat = state.to_act
        assert seat is not None
        know = knowledge(state.observation(seat))
        for s in range(players):
            assert not state.hands[s] & suits_cards(know.void[s]), (s, know.void[s])
            found += bool(know.void[s]) and s != seat
    assert found > 10  # the positions do exercise the inference


@pytest.mark.parametrize("players", [2, 3])
def test_sampled_hands_are_consistent(players: int) -> None:
    rng = random.Random(1)
    unshown_honours = 0
    for state in random_positions(players, 60, seed=40 + players, heuristic_share=0.3):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        assert obs.trump is not None
        know = knowledge(obs)
        sampler = Sampler(obs)
        public = know.gone | know.hand | (0 if obs.turnup is None else 1 << obs.turnup)
        # I6: honours held are declared and shown, so another seat holds none unshown.
        honours = honour_mask(obs.trump, low_rank_for(players))
        unshown_honours += bool(honours & know.unseen)
        for _ in range(5):
            hidden = sampler.hidden(rng)
            assert hidden[seat] == obs.hand
            union = 0
            for s in range(players):
                if s == seat:
                    continue
                h = hidden[s]
                assert h.bit_count() == obs.hand_sizes[s]
                assert obs.shown[s] & ~h == 0  # keeps the cards shown in that hand
                assert not h & public
                assert not h & union
                assert not h & suits_cards(know.void[s])
                assert not h & honours & ~obs.shown[s]
                union |= h
            if players == 3:
                assert union | public == deck_for(3)
            world = ImperialState.from_observation(obs, hidden)
            assert world.legal_actions() == state.legal_actions()
    if players == 2:
        assert unshown_honours > 0  # some honours lay in the stock: the rule was exercised


def test_sampler_keeps_the_dealers_trump_card_with_three_players() -> None:
    for state in random_positions(3, 20, seed=50):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        card = obs.trump_card
        assert card is not None and obs.dealer is not None
        if seat == obs.dealer or not state.hands[obs.dealer] >> card & 1:
            continue
        hidden = Sampler(obs).hidden(random.Random(2))
        assert hidden[obs.dealer] >> card & 1


def _reachable(obj: object, depth: int = 4) -> list[object]:
    seen: list[object] = []
    todo = [(obj, 0)]
    ids: set[int] = set()
    while todo:
        o, d = todo.pop()
        if id(o) in ids or d > depth:
            continue
        ids.add(id(o))
        seen.append(o)
        todo.extend((r, d + 1) for r in gc.get_referents(o) if not isinstance(r, type))
    return seen


@pytest.mark.parametrize("players", [2, 3])
def test_a_bot_gets_no_state_and_no_hidden_hand(players: int) -> None:
    for state in random_positions(players, 20, seed=60 + players):
        seat = state.to_act
        assert seat is not None
        obs = state.observation(seat)
        assert isinstance(obs, ImperialObservation)
        reachable = _reachable(obs)
        assert not any(isinstance(o, ImperialState) for o in reachable)
        ints = {v for f in fields(obs) for v in _ints(getattr(obs, f.name))}
        for s in range(players):
            # (a hand of one or two cards is a small int that may equal a count)
            if s != seat and (state.hands[s] & ~state.shown[s]).bit_count() >= 3:
                assert state.hands[s] not in ints  # another seat's hand is nowhere


def _ints(value: object) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, tuple):
        return [i for v in value for i in _ints(v)]
    return []


def test_search_worlds_vary_in_the_hidden_hands() -> None:
    # At the first decision of a deal the other hand is 12 of the 19 cards this seat
    # cannot see (32 - 12 in hand - the turn-up): C(19, 12) = 50,388 possible hands.
    state = ImperialState.new(ImperialOptions(players=2), seed=70)
    seat = state.to_act
    assert seat is not None
    sampler = Sampler(state.observation(seat))
    rng = random.Random(3)
    other = 1 - seat
    hands = {sampler.world(rng).hands[other] for _ in range(20)}
    assert len(hands) > 10


def test_the_matching_fallback_deals_consistent_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    # No greedy tries: every guess comes from the exact matching, and must still fit.
    import kozyr.bots.imperial.sampler as sampler_module

    monkeypatch.setattr(sampler_module, "_TRIES", 0)
    rng = random.Random(4)
    for players in (2, 3):
        for state in random_positions(players, 15, seed=80 + players, heuristic_share=0.3):
            seat = state.to_act
            assert seat is not None
            obs = state.observation(seat)
            know = knowledge(obs)
            hidden = Sampler(obs).hidden(rng)
            for s in range(players):
                if s != seat:
                    assert not hidden[s] & suits_cards(know.void[s])
            world = ImperialState.from_observation(obs, hidden)
            assert world.legal_actions() == state.legal_actions()
