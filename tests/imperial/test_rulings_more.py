"""More hand-worked ruling tests: white-deal conversion at the end (I11) and a
three-player point tie (I6.4)."""

from __future__ import annotations

from kozyr.games.imperial import ImperialOptions, ImperialState

from .helpers import deal2, deal3, of_type


def test_i11_loose_points_over_24_become_imperials_only_at_the_end_of_a_white_deal() -> None:
    # Deal 1 (dealer 1, trump D, turn-up 7D an honour): seat 0 white (2) + four aces (1);
    # seat 1 four K, Q, J (3). Dealer +4 for the turn-up; both mark 3 (no comparison, no
    # wipe); point: seat 0 spades A 10 9 8 7 = 5 cards beats 3-card suits: +4; honours:
    # seat 1 KD QD JD +12. Scores: seat 0 (3, 4), seat 1 (3, 16).
    deal1 = deal2(
        "AS AH AD AC 7S 8S 9S 10S 7H 8H 9H 10H",
        "KS QS JS KH QH JH KD QD JD KC QC JC",
        "7D",
    )
    # Deal 2 (dealer 0, trump C, turn-up 8C: no honour): seat 0 white again (2, no four
    # aces: AC is in the stock); seat 1 again four K, Q, J (3). Seat 1 marks 3 -> 6, seat 0
    # marks 2 -> 5. Point: seat 0 spades 5 cards (A 10 9 8 7 = 45) beats 3-card suits: +4 ->
    # loose 8. Honours: seat 1 KC QC JC +12 -> loose 28, more than 24 but kept until the end
    # of the white deal: then one more imperial (7) and 4 loose. Nobody is wiped.
    deal2_ = deal2(
        "AS 10S 9S 8S 7S AH 10H 9H 8H 7H AD 10D",
        "KS QS JS KH QH JH KD QD JD KC QC JC",
        "8C",
    )
    state = ImperialState.new(ImperialOptions(target=10), deals=[deal1, deal2_], first_dealer=1)
    assert state.deal_number == 2
    assert state.scores == [(5, 8), (7, 4)]
    assert not of_type(state, "wipe")
    last_mark = of_type(state, "mark")[-1]
    assert (last_mark["seat"], last_mark["imperials"], last_mark["rule"]) == (1, 1, "I11")
    # The mark of the 24 points comes after every declaration of the deal.
    kinds = [e["type"] for e in state.events]
    assert kinds.index("mark", len(kinds) - 3) > max(
        i for i, e in enumerate(state.events) if e["type"] == "declare"
    )


def test_i6_three_player_point_tie_scores_two_each() -> None:
    # Dealer 2, trump D (the dealer's 9D). No imperials. Points: seat 0 spades A K 10 9 8 =
    # 5 cards, 11+10+10+9+8 = 48; seat 1 hearts A K 10 9 8 = 5 cards, 48; seat 2 at most 4
    # cards. Equal length and value: seats 0 and 1 score 2 each (seat order 0, 1, 2).
    # Honours (K Q J 6 of diamonds): seat 0 KD +4, seat 1 6D +4, seat 2 QD JD +8.
    # Scores: (0, 6), (0, 6), (0, 8).
    deal = deal3(
        "AS KS 10S 9S 8S AD KD 6C 7C 8C 6H 7H",
        "AH KH 10H 9H 8H AC KC 6D 7D 8D JS QS",
        "6S 7S JH QH 9D 10D JD QD 9C 10C JC QC",
        "9D",
    )
    state = ImperialState.new(ImperialOptions(players=3), deals=[deal], first_dealer=2)
    points = [
        (e["seat"], e["suit"], e["length"], e["value"])
        for e in of_type(state, "declare")
        if e["kind"] == "point"
    ]
    assert points == [(0, "S", 5, 48), (1, "H", 5, 48), (2, "D", 4, 39)]
    point_scores = [
        (e["seat"], e["points"]) for e in of_type(state, "score") if e["reason"] == "point"
    ]
    assert point_scores == [(0, 2), (1, 2)]
    assert state.scores == [(0, 6), (0, 6), (0, 8)]
    assert state.to_act == 0  # I7: left of the dealer leads
