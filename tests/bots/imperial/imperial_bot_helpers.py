"""Helpers for the Imperial bot tests: random positions and hand-built observations."""

from __future__ import annotations

import random
from collections.abc import Iterator

from kozyr.bots.imperial.heuristic import decide_in_state
from kozyr.cards import parse_card, parse_cards
from kozyr.games.imperial import ImperialObservation, ImperialOptions, ImperialState


def random_positions(
    players: int, count: int, seed: int = 0, heuristic_share: float = 0.5
) -> Iterator[ImperialState]:
    """States at random points of play (some deals played by the heuristic, some at random,
    so that voids and captures occur)."""
    rng = random.Random(seed)
    game_seed = seed * 1000
    made = 0
    while made < count:
        game_seed += 1
        state = ImperialState.new(ImperialOptions(players=players), seed=game_seed)
        stop = rng.randrange(0, 12 * players * 3)
        smart = rng.random() < heuristic_share
        for _ in range(stop):
            if state.over or state.to_act is None:
                break
            legal = state.legal_actions()
            state.apply(decide_in_state(state) if smart else rng.choice(legal))
        if state.over or state.to_act is None:
            continue
        made += 1
        yield state


def cards(text: str) -> int:
    return parse_cards(text).mask


def end_observation(
    hand: str,
    played0: str,
    played1: str,
    shown1: str,
    scores: tuple[tuple[int, int], tuple[int, int]],
    turnup: str,
    tricks: tuple[int, int],
) -> ImperialObservation:
    """A hand-built 2-player observation for seat 0 (to lead; seat 1 is the dealer)."""
    h = cards(hand)
    p0, p1 = cards(played0), cards(played1)
    sizes = (12 - p0.bit_count(), 12 - p1.bit_count())
    assert h.bit_count() == sizes[0]
    t = parse_card(turnup)
    legal = tuple(sorted(c for c in range(52) if h >> c & 1))
    return ImperialObservation(
        seat=0,
        options=ImperialOptions(players=2),
        hand=h,
        dealer=1,
        trump=t // 13,
        turnup=t,
        trump_card=None,
        scores=scores,
        to_act=0,
        legal_actions=legal,
        trick=(),
        tricks=tricks,
        voids=(0, 0),
        played=(p0, p1),
        hand_sizes=sizes,
        shown=(0, cards(shown1)),
        captures=(0, 0),
        deal_number=1,
        over=False,
        winner=None,
        waiting_for_deal=False,
        events=(),
    )
