"""The fast path gives what the public API gives (issue 32).

A search plays its playouts on :meth:`ImperialState.fast_clone` copies with
:meth:`~ImperialState.legal_mask` and :meth:`~ImperialState.apply_legal`: no events, no
actions, no second check of the card. Here the same random games are played both ways,
side by side, for every player count and both trick laws; after every card the two
states must agree on every field but the ones the fast path leaves out, and the
counters the search reads (``play_points``, ``tricks_won``) must say what the public
path's events say.
"""

from __future__ import annotations

import pytest
from tests.fast_paths import play_both_paths

from kozyr.bots.imperial.value import play_record
from kozyr.cards import card_list
from kozyr.games.imperial import ImperialOptions, ImperialState


def _play_both(options: ImperialOptions, seed: int) -> int:
    public = ImperialState.new(options, seed=seed)
    _fast, cards = play_both_paths(public, seed)
    # The counters the search weighs a playout by say what the events say.
    points, tricks = play_record(public.events, options.players)
    assert public.play_points == points and public.tricks_won == tricks
    return cards


@pytest.mark.parametrize("must_head", [False, True])
@pytest.mark.parametrize("players", [2, 3])
def test_random_games_through_both_paths_agree_after_every_card(
    players: int, must_head: bool
) -> None:
    options = ImperialOptions(players=players, must_head=must_head, target=3)
    cards = sum(_play_both(options, seed) for seed in range(400))
    assert cards > 400 * 24  # at least a deal's cards a game: the games were played


def test_a_fast_copy_writes_nothing_and_leaves_the_original_whole() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=5)
    state.apply(state.legal_actions()[0])
    events, actions = list(state.events), list(state.actions)
    fast = state.fast_clone()
    fast.apply_legal(card_list(fast.legal_mask())[0])
    assert fast.events == [] and fast.actions == []
    assert state.events == events and state.actions == actions
    assert state.hands != fast.hands  # the copy played; the original did not
    copy = fast.clone()  # a copy of a fast copy stays fast
    copy.apply_legal(card_list(copy.legal_mask())[0])
    assert copy.events == []


def test_i8_an_honour_led_and_heading_its_trick_counts_in_play_points() -> None:
    """Worked by hand: seat 1 leads the trump king (an honour, I8: 4 points) and seat 0
    follows with a low trump; the king heads the trick, so seat 1 has 4 play points and
    one trick."""
    from kozyr.cards import parse_card, parse_cards
    from kozyr.games.imperial import ImperialDeal

    # Seat 0 deals (I5), seat 1 leads (I7). Trump hearts (the turn-up 8H). Seat 0 holds
    # a jack, so his hand is no white imperial (I11) and the deal is played; his 7H, the
    # low trump, is an honour too, but it does not head the trick.
    hands = (
        parse_cards("7H 9C 10C 8C 7D 8D 9D 10D 7S 8S 9S JS").mask,
        parse_cards("KH 7C JC QC KC AC JD QD KD AD AS QS").mask,
    )
    deal = ImperialDeal(hands, turnup=parse_card("8H"))
    state = ImperialState.new(ImperialOptions(players=2), deals=[deal], first_dealer=0)
    assert state.to_act == 1
    before_points, before_tricks = state.play_points[:], state.tricks_won[:]
    fast = state.fast_clone()
    fast.apply_legal(parse_card("KH"))
    fast.apply_legal(parse_card("7H"))
    assert [a - b for a, b in zip(fast.play_points, before_points, strict=True)] == [0, 4]
    assert [a - b for a, b in zip(fast.tricks_won, before_tricks, strict=True)] == [0, 1]
