"""One or more tests per ruling I1-I13, on hand-built deals with scores worked out by hand.

Seats: with ``start(deal, dealer=1)`` and two players, seat 0 is the player left of the
dealer: he declares first and leads the first trick (I6, I7).
"""

from __future__ import annotations

import pytest

from kozyr.cards import parse_card, parse_cards
from kozyr.games.base import DealError, IllegalAction, OptionsError
from kozyr.games.imperial import ImperialDeal, ImperialOptions, ImperialState

from .helpers import deal2, deal3, of_type, snapshot, start, types

C = parse_card


# ---------------------------------------------------------------- I1 decks


def test_i1_two_players_use_32_cards() -> None:
    with pytest.raises(DealError, match="6S"):
        deal2(
            "6S KS QS JS AS 7D 8D 9D 10D 7C 8C 9C",
            "KH QH JH 8H 9H 7S 8S 9S 10S KD QD JD",
            "AH",
        )


def test_i1_three_players_use_36_cards() -> None:
    state = ImperialState.new(ImperialOptions(players=3), seed=3)
    assert sum(h.bit_count() for h in state.dealt[0].hands) == 36
    assert state.dealt[0].turnup is None and state.dealt[0].trump_card is not None


def test_i1_deal_errors_name_the_problem() -> None:
    a = "KS QS JS AS 7D 8D 9D 10D 7C 8C 9C 10C"
    with pytest.raises(DealError, match="11 cards"):
        deal2("KS QS JS AS 7D 8D 9D 10D 7C 8C 9C", "KH QH JH 8H 9H 7S 8S 9S 10S KD QD JD", "AH")
    with pytest.raises(DealError, match="KS is in the hands of seat 0 and seat 1"):
        deal2(a, "KS QH JH 8H 9H 7S 8S 9S 10S KD QD JD", "AH")
    with pytest.raises(DealError, match="turnup KS is also in a hand"):
        deal2(a, "KH QH JH 8H 9H 7S 8S 9S 10S KD QD JD", "KS")
    with pytest.raises(DealError, match="turnup"):
        ImperialDeal(
            (parse_cards(a).mask, parse_cards("KH QH JH 8H 9H 7S 8S 9S 10S KD QD JD").mask)
        )
    d3 = deal3(
        "JH 6S 7S 8S 9S 10S 6D 7D 8D 6C 7C 8C",
        "AH 6H JS QS KS 9D 10D JD QD 9C 10C JC",
        "KH QH 7H 8H 9H 10H AS KD AD QC KC AC",
        "KH",
    )
    with pytest.raises(DealError, match="not in the dealer's hand"):
        start(d3, dealer=0)


# ---------------------------------------------------------------- I2 order, I3 values, I4 honours


def test_i2_jack_beats_ace_and_king_beats_all() -> None:
    # The I9 deal below: 0 leads JH, 1 follows AH (lower than J), 2 plays KH and wins.
    state = start(_tombe3_deal(), dealer=2)
    state.play("JH")
    assert state.trick == [(0, C("JH"))]
    state.play("AH")
    state.play("KH")
    assert of_type(state, "trick")[0]["winner"] == 2


def test_i3_point_tie_broken_by_value_with_ace_eleven() -> None:
    # Both points are four cards; seat 0 has KS QS JS AS = 10+10+10+11 = 41,
    # seat 1 has 7S 8S 9S 10S = 34, so seat 0 takes the point alone: 4. Seat 0 had 0
    # loose points (its spade imperial was marked directly), so it has 4 after the point.
    state = start(_wipe_deal(), dealer=1)
    points = [e for e in of_type(state, "declare") if e["kind"] == "point"]
    assert [(e["seat"], e["suit"], e["length"], e["value"]) for e in points] == [
        (0, "S", 4, 41),
        (1, "S", 4, 34),
    ]
    assert {
        "type": "score",
        "seat": 0,
        "points": 4,
        "reason": "point",
        "rule": "I6",
        "total": 4,
    } in state.events


def test_i4_trump_ace_is_not_an_honour() -> None:
    # Turned imperial deal: the turn-up is AH (trump ace): the dealer scores nothing for it.
    state = start(_turned_deal(), dealer=1)
    assert not [e for e in of_type(state, "declare") if e["kind"] == "turnup"]


# ---------------------------------------------------------------- I5 deal


def test_i5_seeded_deals_are_fixed_and_dealer_moves_clockwise() -> None:
    a = ImperialState.new(ImperialOptions(), seed=42)
    b = ImperialState.new(ImperialOptions(), seed=42)
    assert a.dealt == b.dealt and a.dealer == b.dealer
    first = a.dealer
    deal = a.dealt[0]
    assert deal.turnup is not None
    assert all(h.bit_count() == 12 for h in deal.hands)
    assert deal.stock.bit_count() == 7
    while a.deal_number == 1 and not a.over:
        a.apply(a.legal_actions()[0])
    if not a.over:
        assert a.dealer == (first + 1) % 2


def test_i5_three_player_trump_card_is_the_dealers_last_card() -> None:
    state = ImperialState.new(ImperialOptions(players=3), seed=9, first_dealer=1)
    deal = state.dealt[0]
    assert deal.trump_card is not None
    assert deal.hands[1] >> deal.trump_card & 1
    assert state.trump == deal.trump_card // 13
    assert state.events[0]["trump_card"] == state.action_text(deal.trump_card)


def test_i5_without_seed_the_game_waits_for_a_deal() -> None:
    state = ImperialState.new(ImperialOptions())
    assert state.waiting_for_deal and state.to_act is None and state.dealer == 0
    state.add_deal(_wipe_deal_for_dealer0())
    assert not state.waiting_for_deal and state.to_act == 1


# ---------------------------------------------------------------- I6 declarations


def test_i6_two_imperials_beat_one_only_the_higher_marks() -> None:
    # Trump hearts (turn-up 8H, not an honour).
    # Seat 0: spade and diamond imperials = 2; seat 1: club imperial = 1. Seat 0 marks 2.
    # Point: seat 0 spades 4 cards / 41, seat 1 clubs 4 cards / 41: full tie, 2 each.
    # Honours: nobody holds a heart. Result: seat 0 (2, 2), seat 1 (0, 2).
    deal = deal2(
        "KS QS JS AS KD QD JD AD 7C 8C 9C 10C",
        "KC QC JC AC 7S 8S 9S 10S 7D 8D 9D 10D",
        "8H",
    )
    state = start(deal, dealer=1)
    assert state.scores == [(2, 2), (0, 2)]
    imps = [e for e in of_type(state, "declare") if e["kind"] == "imperials"]
    assert [(e["seat"], e["count"], e["marked"]) for e in imps] == [(0, 2, True), (1, 1, False)]
    assert "imperials" not in imps[1]  # the unmarked imperial is not shown
    assert state.observation(1).shown[0] == parse_cards("KS QS JS AS KD QD JD AD").mask


def test_i6_equal_counts_both_mark_and_trump_suit_imperial_counts_two() -> None:
    # Trump spades (turn-up 9S). Seat 0: KS QS JS AS in trumps = 2 imperials.
    # Seat 1: hearts and diamonds imperials = 2. Equal: both mark 2.
    # Point: seat 0 spades 4/41, seat 1 hearts 4/41 (first of H, D): tie, 2 each.
    # Honours (KS QS JS 7S): seat 0 holds KS QS JS = 12. Seat 0 (2, 14), seat 1 (2, 2).
    deal = deal2(
        "KS QS JS AS 7H 8H 9H 10H 7D 8D 9D 10D",
        "KH QH JH AH KD QD JD AD 7C 8C 9C 10C",
        "9S",
    )
    state = start(deal, dealer=1)
    assert state.scores == [(2, 14), (2, 2)]
    marks = of_type(state, "mark")
    assert [(m["seat"], m["imperials"]) for m in marks] == [(0, 2), (1, 2)]


def test_i6_imperial_of_non_dealer_wipes_dealers_turnup_points() -> None:
    # Trump hearts, turn-up JH (honour): the dealer (seat 1) scores 4.
    # Seat 0 holds the spade imperial and marks it: the dealer's 4 are wiped (seed text:
    # "если империал записан не сдатчиком, то очки сдатчика за вскрышу уничтожаются").
    # Point: seat 0 spades 4/41 beats seat 1 spades 4/34: seat 0 scores 4.
    # Honours (KH QH JH 7H): neither holds one. Seat 0 (1, 4), seat 1 (0, 0).
    state = start(_wipe_deal(), dealer=1)
    assert state.scores == [(1, 4), (0, 0)]
    assert types(state)[:6] == ["deal", "declare", "score", "declare", "mark", "wipe"]
    assert of_type(state, "wipe") == [{"type": "wipe", "seat": 1, "points": 4, "by": 0}]


def test_i6_turned_imperial_counts_for_the_dealer() -> None:
    # Trump hearts, turn-up AH (no honour, I4). Dealer (seat 1) KH QH JH + AH = turned
    # trump imperial = 2; seat 0 spade imperial = 1. Dealer marks 2, seat 0 none.
    # Point: seat 0 spades 4/41; dealer hearts 5 (K Q J 8 9 = 47) wins: 4.
    # Honours (K Q J 7 of hearts): seat 0 7H = 4; dealer KH QH JH = 12.
    # Seat 0 (0, 4); seat 1 (2, 4 + 12 = 16).
    state = start(_turned_deal(), dealer=1)
    assert state.scores == [(0, 4), (2, 16)]
    decl = [e for e in of_type(state, "declare") if e["kind"] == "imperials" and e["seat"] == 1]
    assert decl[0]["imperials"] == [
        {"kind": "suit", "count": 2, "cards": ["JH", "QH", "KH", "AH"], "turned": True}
    ]
    assert state.observation(0).shown[1] == parse_cards("KH QH JH").mask


def test_i6_card_may_serve_suit_imperial_and_four_of_a_kind() -> None:
    # Trump spades (turn-up 8S). Seat 0: KS QS JS AS (trump suit imperial, 2) and the
    # four kings KS KD KC KH (1): 3. Seat 1: QD JD AD 7D, a Q-J-A-7 imperial: 1.
    # Seat 0 marks 3. Point: seat 0 spades 7/67 beats seat 1 diamonds 7/65: 4.
    # Honours (KS QS JS 7S) all with seat 0: 16. Seat 0 (3, 20), seat 1 (0, 0).
    state = start(_capot_deal(), dealer=1, target=10)
    assert state.scores == [(3, 20), (0, 0)]
    decl = [e for e in of_type(state, "declare") if e["kind"] == "imperials"]
    assert [(e["seat"], e["count"]) for e in decl] == [(0, 3), (1, 1)]
    assert [i["kind"] for i in decl[0]["imperials"]] == ["suit", "four"]


def test_i6_honours_in_hand_are_shown_and_score_four_each() -> None:
    state = start(_play_deal(), dealer=1)
    honours = [e for e in of_type(state, "declare") if e["kind"] == "honours"]
    assert [(e["seat"], e["cards"]) for e in honours] == [(0, ["QH"]), (1, ["7H", "JH"])]
    # turn-up KH 4 + point 4 + honours 8 for the dealer; seat 0 honour QH 4.
    assert state.scores == [(0, 4), (0, 16)]


def test_i6_three_player_point_and_honours_in_seat_order() -> None:
    # I9 deal: points S 5/40, D 4/39, H 6/54: seat 2 scores 4. Honours (KH QH JH 6H):
    # seat 0 JH 4, seat 1 6H 4, seat 2 KH QH 8. Scores (0,4) (0,4) (0,12).
    state = start(_tombe3_deal(), dealer=2)
    assert state.scores == [(0, 4), (0, 4), (0, 12)]
    assert [e["seat"] for e in of_type(state, "score")] == [2, 0, 1, 2]


# ---------------------------------------------------------------- I7 play


def test_i7_must_follow_suit_and_state_is_unchanged() -> None:
    state = start(_play_deal(), dealer=1)
    assert state.to_act == 0
    state.play("QH")
    before = snapshot(state)
    follow = r"You hold hearts, the suit led, so you must follow suit \(I7\)"
    with pytest.raises(IllegalAction, match=follow) as err:
        state.play("10D")
    assert err.value.rule == "I7" and isinstance(err.value, ValueError)
    assert err.value.code == "must_follow" and err.value.params["suit"] == 1  # hearts
    assert (
        err.value.message("ru")
        == "Масть хода — черви, и она у вас есть, значит, нужно ходить в масть"
    )
    assert snapshot(state) == before
    assert state.legal_actions() == [C("7H"), C("10H"), C("JH"), C("AH")]


def test_i7_must_trump_when_void() -> None:
    state = start(_play_deal(), dealer=1)
    state.play("QH")
    state.play("7H")
    state.play("9S")  # seat 0 won and leads; seat 1 has no spades
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.play("10D")
    # Spades led, seat 1 has none and holds trumps (hearts): he must trump.
    assert err.value.code == "must_trump" and err.value.rule == "I7"
    assert err.value.message() == (
        "You have no spades but you hold a trump (hearts), so you must trump"
    )
    assert err.value.message("ru") == (
        "Масти хода (пики) у вас нет, а козырь (черви) есть, значит, нужно бить козырем"
    )
    assert err.value.to_json()["params"] == {"card": "10D", "led": "S", "trump": "H"}
    assert snapshot(state) == before
    assert state.legal_actions() == [C("10H"), C("JH"), C("AH")]


def test_i7_any_card_when_void_of_suit_and_trumps() -> None:
    state = start(_capot_deal(), dealer=1, target=10)
    state.play("KS")
    # Seat 1 has neither spades nor trumps (spades are trumps): any of his 12 cards.
    assert state.legal_actions() == sorted(parse_cards("7H 8H 9H 10H AH 7D 8D 9D 10D JD QD AD"))


def test_i7_not_in_hand_and_no_overtake_duty() -> None:
    state = start(_play_deal(), dealer=1)
    with pytest.raises(IllegalAction, match="You do not hold K♠") as err:
        state.play("KS")
    assert err.value.code == "not_in_hand" and err.value.message("ru") == "У вас нет К♠"
    state.play("8H")
    assert C("7H") in state.legal_actions()  # no duty to beat 8H by default


def test_i7_must_head_option() -> None:
    state = start(_play_deal(), dealer=1, must_head=True)
    state.play("8H")
    # 10H, JH and AH beat 8H; 7H does not, so it is not allowed.
    assert state.legal_actions() == [C("10H"), C("JH"), C("AH")]
    head = r"must head the trick when you can: beat 8♥ \(10♥ J♥ A♥\)"
    with pytest.raises(IllegalAction, match=head) as err:
        state.play("7H")
    assert err.value.code == "must_beat"
    assert err.value.message("ru") == (
        "За этим столом взятку нужно перебивать, когда можете: перебейте 8♥ (10♥ В♥ Т♥)"
    )
    state2 = start(_play_deal(), dealer=1, must_head=True)
    state2.play("QH")  # nothing of seat 1 beats QH: any heart
    assert state2.legal_actions() == [C("7H"), C("10H"), C("JH"), C("AH")]


def test_i7_wrong_actions() -> None:
    state = start(_play_deal(), dealer=1)
    with pytest.raises(IllegalAction, match="There are no sixes in the 32-card deck") as err:
        state.parse_action("6S")
    assert err.value.code == "not_in_deck" and err.value.rule == "I1"
    assert err.value.message("ru") == "В колоде из 32 карт нет шестёрок"
    with pytest.raises(IllegalAction) as err:
        state.parse_action("2C")
    assert err.value.message("ru") == "В колоде из 32 карт нет двоек"
    with pytest.raises(IllegalAction, match="There is no action 99") as err:
        state.apply(99)
    assert err.value.code == "not_an_action"


# ---------------------------------------------------------------- I8 honours in play


def test_i8_leading_heading_and_not_heading() -> None:
    # After declarations: seat 0 (0, 4), seat 1 (0, 16) (see test_i6_honours_...).
    # Trick 1: seat 0 leads QH, an honour: +4 -> 8. Seat 1 follows 7H, an honour that
    # does not beat QH: nothing. Trick 2: seat 0 leads 9S; seat 1 trumps with JH, an
    # honour that beats: +4 -> 20.
    state = start(_play_deal(), dealer=1)
    state.play("QH")
    assert state.scores == [(0, 8), (0, 16)]
    state.play("7H")
    assert state.scores == [(0, 8), (0, 16)]
    state.play("9S")
    state.play("JH")
    assert state.scores == [(0, 8), (0, 20)]
    reasons = [e["reason"] for e in of_type(state, "score")[-2:]]
    assert reasons == ["honour led", "honour heads the trick"]


# ---------------------------------------------------------------- I9 tombé


@pytest.mark.parametrize(("value", "marked"), [(1, 1), (2, 2)])
def test_i9_tombe_in_one_trick_wipes_both_opponents(value: int, marked: int) -> None:
    # After declarations (0,4) (0,4) (0,12). Seat 0 leads JH (+4 -> 8), seat 1 follows
    # AH (no honour), seat 2 heads with KH (+4 -> 16) and wins: it captures JH and AH,
    # marks the tombé and wipes both opponents (three players, I6 wipe rule).
    state = start(_tombe3_deal(), dealer=2, tombe_value=value)
    state.play("JH")
    state.play("AH")
    state.play("KH")
    assert state.scores == [(0, 0), (0, 0), (marked, 16)]
    caps = of_type(state, "capture")
    assert [(c["card"], c["from"]) for c in caps] == [("JH", 0), ("AH", 1)]
    assert of_type(state, "wipe") == [
        {"type": "wipe", "seat": 0, "points": 8, "by": 2},
        {"type": "wipe", "seat": 1, "points": 4, "by": 2},
    ]
    assert of_type(state, "mark")[-1]["reason"] == "imperial tombé"


def test_i9_no_capture_when_neither_king_nor_queen_wins() -> None:
    # Seat 0 leads JH and wins with it (seat 1 AH, seat 2 10H are lower): no capture.
    state = start(_tombe3_deal(), dealer=2)
    state.play("JH")
    state.play("AH")
    state.play("10H")
    assert not of_type(state, "capture")
    assert state.captures == [0, 0, 0]


# ---------------------------------------------------------------- I10 end of play


def test_i10_capot_scores_eight() -> None:
    # After declarations seat 0 (3, 20). Leads KS +4 = 24 -> 4th imperial, loose 0;
    # QS, JS, 7S +4 each = 12; takes all 12 tricks: capot +8 = 20. Seat 0 (4, 20).
    state = start(_capot_deal(), dealer=1, target=10)
    for card in ["KS", "QS", "JS", "7S", "AS", "10S", "9S", "KH", "QH", "JH", "KD", "KC"]:
        state.play(card)
        if state.to_act == 1:
            state.apply(state.legal_actions()[0])
    assert of_type(state, "deal_end")[-1]["tricks"] == [12, 0]
    assert state.scores == [(4, 20), (0, 0)]
    assert of_type(state, "score")[-1]["reason"] == "capot"


def test_i10_more_than_six_tricks_scores_four() -> None:
    # As the capot deal but seat 0 has 7H for JH: seat 1 takes the last trick with JH.
    # Seat 0 after declarations (3, 20) (hearts K Q 7 change no point: spades 7/67 wins),
    # +16 for honours led = (4, 12), 11 tricks > 6: +4 = (4, 16).
    deal = deal2(
        "7S 9S 10S JS QS KS AS KD KC KH QH 7H",
        "JH 8H 9H 10H AH 7D 8D 9D 10D JD QD AD",
        "8S",
    )
    state = start(deal, dealer=1, target=10)
    assert state.scores == [(3, 20), (0, 0)]
    seat0 = ["KS", "QS", "JS", "7S", "AS", "10S", "9S", "KD", "KC", "KH", "QH", "7H"]
    seat1 = ["7D", "8D", "9D", "10D", "JD", "QD", "AD", "8H", "9H", "10H", "AH", "JH"]
    for a, b in zip(seat0, seat1, strict=True):
        state.play(a)
        state.play(b)
    assert of_type(state, "deal_end")[-1]["tricks"] == [11, 1]
    assert state.scores == [(4, 16), (0, 0)]
    assert of_type(state, "score")[-1]["reason"] == "tricks"


# ---------------------------------------------------------------- I11 white imperial


def test_i11_white_imperial_no_play_no_wiping_then_next_deal() -> None:
    # Seat 0 has no K, Q, J: white (2) + four aces (1) = 3. Seat 1: four kings, queens,
    # jacks = 3. Trump diamonds, turn-up 7D (honour): the dealer (seat 1) scores 4 first
    # and keeps them although seat 0 then marks (no wiping). Both mark 3.
    # Point: seat 0 spades 4 (A 7 8 9 10 = 45) beats seat 1's 3-card suits: 4.
    # Honours (KD QD JD 7D): seat 1 has KD QD JD = 12. Seat 0 (3, 4), seat 1 (3, 16).
    state = start(_white_deal(), dealer=1, target=10)
    assert state.scores == [(3, 4), (3, 16)]
    assert not of_type(state, "wipe") and not of_type(state, "play")
    assert of_type(state, "white_imperial")[0]["cards"] == (
        ["7S", "8S", "9S", "10S", "AS", "7H", "8H", "9H", "10H", "AH", "AD", "AC"]
    )
    assert state.waiting_for_deal and state.to_act is None
    assert of_type(state, "deal_end") == [{"type": "deal_end", "number": 1, "tricks": None}]
    state.add_deal(_wipe_deal_for_dealer0())
    assert state.deal_number == 2 and state.dealer == 0 and state.to_act == 1


def test_i11_white_game_end_during_marks() -> None:
    # target 3: seat 0 (left of the dealer) marks its 3 first and wins at once.
    state = start(_white_deal(), dealer=1, target=3)
    assert state.winner == 0
    assert state.scores == [(3, 0), (0, 4)]


# ---------------------------------------------------------------- I12 game end


def test_i12_game_ends_during_declarations() -> None:
    # Capot deal with target 3: seat 0 marks 3 imperials and wins; no point, no honours.
    state = start(_capot_deal(), dealer=1, target=3, stake=5)
    assert state.over and state.winner == 0 and state.to_act is None
    assert state.legal_actions() == []
    assert not [e for e in of_type(state, "declare") if e["kind"] in ("point", "honours")]
    assert state.events[-1] == {
        "type": "game_over",
        "places": [0, 1],
        "winner": 0,
        "imperials": [3, 0],
        "stakes": [5, -5],
        "rule": "I12",
    }
    with pytest.raises(IllegalAction, match="over") as err:
        state.apply(C("KS"))
    assert err.value.rule == "I12"


def test_i12_game_ends_at_a_card() -> None:
    # target 4: seat 0 at (3, 20) leads KS: +4 = 24 -> 4th imperial: wins at once.
    state = start(_capot_deal(), dealer=1, target=4)
    state.play("KS")
    assert state.winner == 0 and state.scores == [(4, 0), (0, 0)]
    assert types(state)[-4:] == ["play", "score", "mark", "game_over"]
    assert state.summary() == {
        "scores": [{"imperials": 4, "points": 0}, {"imperials": 0, "points": 0}],
        "over": True,
        "winner": 0,
        "to_act": None,
        "deal": 1,
        "dealer": 1,
    }


# ---------------------------------------------------------------- I13 what is public


def test_i13_observation_hides_other_hand_and_stock() -> None:
    deal = _turned_deal()
    state = start(deal, dealer=1)
    obs = state.observation(0)
    assert obs.hand == deal.hands[0]
    assert obs.shown[1] == parse_cards("KH QH JH").mask
    assert obs.legal_actions == tuple(state.legal_actions())
    text = str(obs.to_json())
    hidden1 = parse_cards("8H 9H 7S 8S 9S 10S 7D 8D 9D")
    for name in hidden1.names() + parse_cards("10D JD AD JC QC KC AC").names():
        assert f"'{name}'" not in text, name
    spectator = state.observation(None)
    assert spectator.hand is None and spectator.legal_actions == ()
    assert state.observation(1).legal_actions == ()


def test_i13_three_player_trump_card_is_public() -> None:
    state = start(_tombe3_deal(), dealer=2)
    # KH is the trump card; KH and QH are also declared honours (I6.5).
    assert state.observation(0).shown[2] == parse_cards("KH QH").mask
    assert state.observation(None).trump_card == C("KH")


def test_options_validation() -> None:
    with pytest.raises(OptionsError, match="tombe_value"):
        ImperialOptions(tombe_value=3)
    with pytest.raises(OptionsError, match="unknown option 'foo'"):
        ImperialOptions.from_json({"foo": 1})
    with pytest.raises(OptionsError, match="stake"):
        ImperialOptions.from_json({"stake": -1})
    opts = ImperialOptions(players=3, must_head=True)
    assert ImperialOptions.from_json(opts.to_json()) == opts


def test_deal_json_round_trip() -> None:
    d = _turned_deal()
    assert ImperialDeal.from_json(d.to_json()) == d


# ---------------------------------------------------------------- the deals


def _wipe_deal() -> ImperialDeal:
    return deal2(
        "KS QS JS AS 7D 8D 9D 10D 7C 8C 9C 10C",
        "7S 8S 9S 10S KD QD JD KC QC JC 8H 9H",
        "JH",
    )


def _wipe_deal_for_dealer0() -> ImperialDeal:
    d = _wipe_deal()
    return ImperialDeal((d.hands[1], d.hands[0]), turnup=d.turnup)


def _turned_deal() -> ImperialDeal:
    return deal2(
        "KS QS JS AS 7H 10H KD QD 7C 8C 9C 10C",
        "KH QH JH 8H 9H 7S 8S 9S 10S 7D 8D 9D",
        "AH",
    )


def _play_deal() -> ImperialDeal:
    # Trump hearts, turn-up KH (honour: dealer +4). Seat 1 has no spades.
    # Point: seat 0 spades 4/34, seat 1 diamonds 10D JD QD KD 4/40: dealer +4.
    return deal2(
        "QH 8H 9H 7S 8S 9S 10S 7D 8D 9D 7C 8C",
        "7H 10H JH AH 10D JD QD KD 9C 10C JC QC",
        "KH",
    )


def _capot_deal() -> ImperialDeal:
    return deal2(
        "7S 9S 10S JS QS KS AS KD KC KH QH JH",
        "7H 8H 9H 10H AH 7D 8D 9D 10D JD QD AD",
        "8S",
    )


def _white_deal() -> ImperialDeal:
    return deal2(
        "AS AH AD AC 7S 8S 9S 10S 7H 8H 9H 10H",
        "KS QS JS KH QH JH KD QD JD KC QC JC",
        "7D",
    )


def _tombe3_deal() -> ImperialDeal:
    return deal3(
        "JH 6S 7S 8S 9S 10S 6D 7D 8D 6C 7C 8C",
        "AH 6H JS QS KS 9D 10D JD QD 9C 10C JC",
        "KH QH 7H 8H 9H 10H AS KD AD QC KC AC",
        "KH",
    )


def test_from_observation_rejects_bad_guesses() -> None:
    from kozyr.games.imperial import ImperialState as S

    state = start(_turned_deal(), dealer=1)
    obs = state.observation(0)
    true = list(state.hands)
    assert S.from_observation(obs, true).legal_actions() == state.legal_actions()
    seat1 = true[1]
    cases = {
        "8 cards|11 cards": [0, seat1 & ~(1 << C("8H"))],
        "lacks its shown cards": [0, (seat1 & ~(1 << C("KH"))) | 1 << C("10D")],
        "known cards": [0, (seat1 & ~(1 << C("8H"))) | 1 << C("AH")],
    }
    for message, guess in cases.items():
        with pytest.raises(DealError, match=message):
            S.from_observation(obs, guess)
    # A guess from the stock is allowed: 10D for 8H.
    other = S.from_observation(obs, [0, (seat1 & ~(1 << C("8H"))) | 1 << C("10D")])
    assert other.to_act == 0 and other.scores == state.scores
