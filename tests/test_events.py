"""One observation and event contract for both games (kozyr.games.events, docs/engine-api.md).

The shared events of whole random games of both engines have exactly the shapes of the
``TypedDict`` s, and a review written only against those shapes reads either game.
"""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Iterator
from typing import Any, Literal, get_args, get_origin

import pytest

from kozyr.cards import parse_card, parse_cards
from kozyr.games.base import DealError, Event, GameState
from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.events import SHARED_EVENTS
from kozyr.games.imperial import ImperialDeal, ImperialOptions, ImperialState


def _fits(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if hint is int:
        return type(value) is int
    if hint is str:
        return isinstance(value, str)
    if origin is Literal:
        return value in get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in get_args(hint))
    if hint is type(None):
        return value is None
    if origin is list:
        (item,) = get_args(hint)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if origin is tuple:
        # JSON has no tuples: a pair is a two-item list.
        items = get_args(hint)
        return (
            isinstance(value, list | tuple)
            and len(value) == len(items)
            and all(_fits(v, h) for v, h in zip(value, items, strict=True))
        )
    raise AssertionError(f"no check for {hint!r}")


def _random_game(state: GameState, seed: int) -> GameState:
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return state


def _games() -> Iterator[GameState]:
    for players in (2, 3):
        for seed in range(3):
            yield _random_game(ImperialState.new(ImperialOptions(players=players), seed=seed), seed)
    for players in (3, 4):
        for seed in range(2):
            options = EmperorOptions(players=players, bargain_from=2)
            yield _random_game(EmperorState.new(options, seed=seed), seed)


GAMES = list(_games())


@pytest.mark.parametrize("state", GAMES, ids=lambda s: f"{s.game}{s.players}")
def test_shared_events_have_the_contract_shapes(state: GameState) -> None:
    seen = set()
    for event in state.events:
        shape = SHARED_EVENTS.get(event["type"])
        if shape is None:
            continue
        seen.add(event["type"])
        hints = typing.get_type_hints(shape)
        missing = set(hints) - set(event)
        assert not missing, (event, missing)
        for key, hint in hints.items():
            assert _fits(event[key], hint), (event, key)
    # Every shared type occurs in a whole game (score: I6 declarations, E11 tricks).
    assert seen == set(SHARED_EVENTS)


def review(events: list[Event], players: int) -> dict[str, Any]:
    """What a review or a rating reads, from the shared events only, whatever the game."""
    tricks = [0] * players
    on_table: list[list[Any]] = []
    deals = 0
    result: dict[str, Any] = {}
    for ev in events:
        kind = ev["type"]
        if kind == "deal":
            deals += 1
            tricks = [0] * players
            on_table = []
        elif kind == "play":
            on_table.append([ev["seat"], ev["card"]])
        elif kind == "trick":
            # The trick holds exactly the cards played since the last one, in that order.
            assert [list(p) for p in ev["cards"]] == on_table
            assert ev["deal"] == deals
            on_table = []
            tricks[ev["winner"]] += 1
        elif kind == "deal_end" and ev["tricks"] is not None:
            assert ev["tricks"] == tricks
        elif kind == "game_over":
            result = {"places": ev["places"], "winner": ev["winner"], "stakes": ev["stakes"]}
    return result


@pytest.mark.parametrize("state", GAMES, ids=lambda s: f"{s.game}{s.players}")
def test_a_review_reads_either_game_from_the_shared_events(state: GameState) -> None:
    result = review(state.events, state.players)
    assert sorted(result["places"]) == list(range(state.players))
    assert result["winner"] == result["places"][0]
    assert sum(result["stakes"]) == 0
    # The winner takes the most; a worse place never wins more than a better one.
    stakes_by_place = [result["stakes"][s] for s in result["places"]]
    assert stakes_by_place == sorted(stakes_by_place, reverse=True)


def test_emperor_stakes_by_place() -> None:
    # Four players: 3, 1, -1, -3 by place; three players: 2, 0, -2.
    for state in GAMES:
        if isinstance(state, EmperorState):
            over = state.events[-1]
            want = {4: [3, 1, -1, -3], 3: [2, 0, -2]}[state.players]
            assert [over["stakes"][s] for s in over["places"]] == want
            assert over["places"] == state.standing


def test_imperial_places_after_the_winner_by_imperials() -> None:
    for state in GAMES:
        if isinstance(state, ImperialState):
            over = state.events[-1]
            assert over["places"][0] == state.winner
            losers = [(state.imperials[s], state.loose[s]) for s in over["places"][1:]]
            assert losers == sorted(losers, reverse=True)


@pytest.mark.parametrize("state", GAMES, ids=lambda s: f"{s.game}{s.players}")
def test_observations_share_the_field_names(state: GameState) -> None:
    common = {
        "seat",
        "to_act",
        "over",
        "legal_actions",
        "hand",
        "hand_sizes",
        "trick",
        "tricks",
        "voids",
        "played",
        "events",
    }
    for seat in (None, 0):
        view = state.observation(seat).to_json()
        assert common <= set(view)
        assert (view["hand"] is None) == (seat is None)
        assert view["over"] is True


# ---------------------------------------------------------------- voids (I7, E10)


def _imperial_play_deal() -> ImperialDeal:
    # Trump hearts (turn-up KH), dealer seat 1, seat 0 leads. Seat 1 has no spades.
    return ImperialDeal(
        (
            parse_cards("QH 8H 9H 7S 8S 9S 10S 7D 8D 9D 7C 8C").mask,
            parse_cards("7H 10H JH AH 10D JD QD KD 9C 10C JC QC").mask,
        ),
        turnup=parse_card("KH"),
    )


def test_i7_imperial_observation_shows_voids() -> None:
    state = ImperialState.new(
        ImperialOptions(players=2), deals=[_imperial_play_deal()], first_dealer=1
    )
    assert state.observation(0).voids == (0, 0)
    state.play("7S")
    # Seat 1 has no spades and must trump (I7): 10H. He has shown he has no spades (bit 0).
    state.play("10H")
    obs = state.observation(0)
    assert obs.voids == (0, 0b0001)
    assert obs.to_json()["voids"] == [[], ["S"]]
    assert state.observation(None).voids == (0, 0b0001)  # public (I13)
    # A guess that gives seat 1 a spade contradicts the observation.
    assert obs.hand is not None
    rest = parse_cards("7H JH AH 10D JD QD KD 9C 10C JC QC").mask
    with pytest.raises(DealError, match="lacks"):
        ImperialState.from_observation(
            obs, [0, rest ^ 1 << parse_card("QC") | 1 << parse_card("JS")]
        )
    again = ImperialState.from_observation(obs, [0, rest])
    assert again.observation(0).voids == obs.voids


def test_i7_voids_start_again_with_each_deal() -> None:
    state = ImperialState.new(
        ImperialOptions(players=2), deals=[_imperial_play_deal()], first_dealer=1, seed=5
    )
    state.play("7S")
    state.play("10H")
    number = state.deal_number
    rng = random.Random(1)
    while state.deal_number == number and not state.over:
        state.apply(rng.choice(state.legal_actions()))
    assert not state.over and state.deal_number == 2
    assert state.observation(0).voids == (0, 0)
