"""Concrete positions worked out by hand: heuristic card play, search, hints."""

from __future__ import annotations

from imperial_bot_helpers import cards, end_observation

from kozyr.bots.imperial import HeuristicBot, SearchBot
from kozyr.bots.imperial.heuristic import decide
from kozyr.bots.imperial.hint import hint
from kozyr.cards import CARD_NAMES as NAME
from kozyr.cards import parse_card
from kozyr.games.imperial import ImperialObservation
from kozyr.games.imperial.card_tables import deck_for
from kozyr.games.tricks import legal_cards

SPADES = 0


def _decide(hand: str, trick: list[tuple[int, str]], players: int = 2) -> str:
    """The heuristic's card for seat ``players - 1`` holding ``hand``, trumps spades,
    with every card not in hand or trick possibly out."""
    h = cards(hand)
    played = [(s, parse_card(c)) for s, c in trick]
    gone = sum(1 << c for _, c in played)
    out = deck_for(players) & ~h & ~gone
    led = played[0][1] // 13 if played else -1
    legal = legal_cards(h, led, SPADES)

    return NAME[decide(h, legal, played, players, SPADES, out)]


def test_i9_captures_the_trump_jack_with_the_king() -> None:
    assert _decide("KS 8S 9H 7C", [(0, "JS")]) == "KS"


def test_i9_captures_with_the_queen_before_spending_the_king() -> None:
    assert _decide("KS QS 8S 9H", [(0, "AS")]) == "QS"


def test_wins_a_trick_with_the_cheapest_winning_card() -> None:
    assert _decide("10H AH KH 7C", [(0, "9H")]) == "10H"


def test_ducks_with_the_lowest_card_when_it_cannot_win() -> None:
    assert _decide("7H AH 9H 8D", [(0, "KH")]) == "7H"


def test_i9_keeps_the_trump_jack_out_of_a_trick_the_king_wins() -> None:
    assert _decide("JS 8S 7C", [(0, "KS")]) == "8S"


def test_i8_ruffs_with_the_low_honour_to_score_it() -> None:
    assert _decide("7S 9S 10S 7C", [(0, "AH")]) == "7S"


def test_i9_second_hand_does_not_risk_the_jack_before_a_king_still_out() -> None:
    # Three players, seat 1 second to play on a plain lead: JS would head, but the K or Q
    # may come from seat 2 and capture it; a safe small trump or a duck is better.
    card = _decide("JS 8S 7C", [(0, "AH")], players=3)
    assert card != "JS"


def _winning_end() -> tuple[ImperialObservation, int]:
    # Seat 0 has 4 imperials and 20 loose points: leading the trump 7 scores 4 (I8),
    # which marks the fifth imperial and wins the game at once (I12). The opponent
    # shows the trump Q, so leading the AH lets him head and score instead.
    obs = end_observation(
        hand="7S AH",
        played0="7C 8C 9C 10C AC 7D 8D 9D 10D AD",
        played1="JC QC KC JD QD KD 7H 8H 9H 10H",
        shown1="QS",
        scores=((4, 20), (4, 20)),
        turnup="8S",
        tricks=(5, 5),
    )
    return obs, parse_card("7S")


def test_search_finds_the_game_winning_lead() -> None:
    obs, win = _winning_end()
    bot = SearchBot(1, cap=1.0, max_worlds=8)
    assert bot.choose(obs, obs.legal_actions, 1.0) == win


def test_hint_ranks_every_legal_card_best_first() -> None:
    obs, win = _winning_end()
    ranked = hint(obs, budget=1.0, max_worlds=8)
    assert sorted(r.action for r in ranked) == sorted(obs.legal_actions)
    assert ranked[0].action == win
    assert ranked[0].value > 900  # a won game
    values = [r.value for r in ranked]
    assert values == sorted(values, reverse=True)


def test_heuristic_bot_mistakes_are_random_legal_cards() -> None:
    obs, _ = _winning_end()
    bot = HeuristicBot(seed=3, mistakes=1.0)
    legal = list(obs.legal_actions)
    picks = {bot.choose(obs, legal, 0.0) for _ in range(40)}
    assert picks == set(legal)


def test_interchangeable_cards_are_searched_once() -> None:
    from kozyr.bots.imperial.search import equivalent_groups

    hand = cards("7H 8H 10H 7S 8S 9S")
    out = cards("9H AH KS")  # 9H splits the hearts; no spade lies between 8S and 9S
    legal = [parse_card(c) for c in ("7H", "8H", "10H", "7S", "8S", "9S")]
    groups = equivalent_groups(legal, hand, out, SPADES, 2)
    named = sorted(sorted(NAME[c] for c in g) for g in groups)
    # The trump 7 is an honour (I4) and stays alone; 8S and 9S play alike.
    assert named == [["10H"], ["7H", "8H"], ["7S"], ["8S", "9S"]]


def test_the_players_hint_is_valued_in_play_points() -> None:
    """The hint a player sees is in the review's unit: play points, a won game worth
    IMPERIAL_POINTS x target = 24 x 5 = 120 (not the level search's 1000), plus the points
    scored in the play from the card on: the trump 7 led, 4 (I8). Both seats stand at 20
    loose points, so whoever scores 4 first wins at once (I12): no card is worth more than
    124 or less than -124."""
    from kozyr.bots.imperial.review import hint as players_hint

    obs, win = _winning_end()
    ranked = players_hint(obs, 0.5)
    assert sorted(r.action for r in ranked) == sorted(obs.legal_actions)
    assert ranked[0].action == win
    assert ranked[0].value == 124.0  # the lead wins the game at once, in every world
    assert all(-124.0 <= r.value <= 124.0 for r in ranked)
