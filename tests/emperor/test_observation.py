"""What each seat may know: swaps (E7), the shown trump card (E5), from_observation."""

from __future__ import annotations

import pytest
from emperor_helpers import ROUND2_DEAL, SUITS_DEAL, after_round1_suits, cards, play_max

from kozyr.cards import parse_card
from kozyr.games.base import DealError
from kozyr.games.emperor import PASS, EmperorOptions, EmperorState

P, S, J, K = ROUND2_DEAL.hands  # seats 0..3 hold the Prince, Soldier, Jester, King hands


def test_e5_everyone_knows_who_holds_the_shown_trump_card() -> None:
    state = EmperorState.new(EmperorOptions(), deals=[SUITS_DEAL])
    two_c = 1 << parse_card("2C")
    for seat in (None, 0, 1, 2):
        assert state.observation(seat).known[3] == two_c
    assert state.observation(None).hand is None  # a spectator holds no hand
    # Once played, the card leaves what is known.
    play_max(state, 52)
    assert all(m == 0 for m in state.observation(0).known.values())


def test_e7_swappers_know_each_others_hand_others_know_nothing() -> None:
    state = after_round1_suits()  # round 2: King 3, Prince 0, Soldier 1, Jester 2
    state.play("swap 2")
    # The King gave his hand K to the Jester, the Jester gave J to the King.
    assert state.observation(3).known == {0: 0, 1: 0, 2: K}
    assert state.observation(2).known == {0: 0, 1: 0, 3: J}
    assert state.observation(0).known == {1: 0, 2: 0, 3: 0}
    assert state.observation(None).known == {0: 0, 1: 0, 2: 0, 3: 0}
    assert state.observation(3).hand == J
    spectator = state.observation(None).to_json()
    assert spectator["hand"] is None and spectator["swaps"][0]["result"] == "swapped"


def test_e7_knowledge_moves_with_hands_on_chained_swaps() -> None:
    state = after_round1_suits()
    state.play("swap 2")  # King 3 <-> Jester 2: 3 holds J, 2 holds K
    state.play("swap 2")  # Prince 0 <-> Jester 2: 0 holds K, 2 holds P
    # King: his old hand K moved on to the Prince (seat 0).
    assert state.observation(3).known == {0: K, 1: 0, 2: 0}
    # Prince: he gave P to the Jester.
    assert state.observation(0).known == {1: 0, 2: P, 3: 0}
    # Jester: knows the King holds J (his first hand) and the Prince holds K (his
    # second); the one hand left unknown, the Soldier's, is the rest of the deck: S.
    assert state.observation(2).known == {0: K, 1: S, 3: J}
    assert state.observation(1).known == {0: 0, 2: 0, 3: 0}
    state.apply(PASS)  # Soldier passes
    state.play("trump NT")
    # The King (holding J = all clubs) leads AC: it leaves the Jester's knowledge.
    state.play("AC")
    assert state.observation(2).known[3] == J & ~cards("AC")


def test_from_observation_rejects_contradictions() -> None:
    state = after_round1_suits()
    state.play("swap 2")
    obs = state.observation(3)
    true = state.hands
    with pytest.raises(DealError, match="known to hold"):
        EmperorState.from_observation(obs, [true[2], true[1], true[0], 0])
    with pytest.raises(DealError, match="cards"):
        EmperorState.from_observation(obs, [true[0] & (true[0] - 1), true[1], true[2], 0])
    with pytest.raises(DealError, match="another hand"):
        EmperorState.from_observation(obs, [true[0], true[0], true[2], 0])
    # Seats 0 and 1 are unknown to the King: swapping their guesses is consistent.
    ok = EmperorState.from_observation(obs, [true[1], true[0], true[2], 0])
    assert ok.hands == [true[1], true[0], true[2], true[3]]


def test_from_observation_rejects_cards_of_a_suit_a_seat_showed_out_of() -> None:
    state = after_round1_suits()
    for _ in range(3):
        state.apply(PASS)
    state.play("trump NT")
    state.play("2S")
    state.play("AS")
    state.play("AD")  # the Soldier shows out of spades
    obs = state.observation(0)
    true = state.hands
    # Move a spade of the King into the Soldier's guessed hand.
    sp = cards("3S")
    bad = [0, (true[1] & ~cards("AH")) | sp, true[2], (true[3] & ~sp) | cards("AH")]
    with pytest.raises(DealError, match="no spades"):
        EmperorState.from_observation(obs, bad)


def test_from_observation_three_players_keep_the_trump_card_undealt() -> None:
    state = EmperorState.new(EmperorOptions(players=3), seed=4)
    obs = state.observation(0)
    tc = state.dealt[0].trump_card
    assert tc is not None and obs.trump_card == tc
    hands = state.hands
    other = 1 if not hands[1] >> tc & 1 else 2
    low = hands[other] & -hands[other]
    bad = list(hands)
    bad[other] = (hands[other] & ~low) | 1 << tc
    with pytest.raises(DealError, match="undealt"):
        EmperorState.from_observation(obs, bad)


def test_e10_emperor_observation_trick_in_play_order() -> None:
    state = after_round1_suits()
    for _ in range(3):
        state.apply(PASS)
    state.play("trump S")
    # Round 2: the King (seat 3) leads every trick, then Prince 0, Soldier 1, Jester 2 (E10).
    obs = state.observation(0)
    assert obs.trick == () and obs.play_order == (3, 0, 1, 2)
    state.play("8S")
    state.play("AS")
    obs = state.observation(1)
    assert obs.trick == ((3, parse_card("8S")), (0, parse_card("AS")))
    assert obs.to_json()["trick"] == [[3, "8S"], [0, "AS"]]
    assert obs.to_json()["over"] is False
