"""The seat to act learns why each card it holds but may not play is refused, in the
engine's words (issue 29, reasons for illegal moves; I7); nobody else gets the reasons,
and they name nothing the seat cannot see (B3)."""

from __future__ import annotations

from kozyr.games.emperor import EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialOptions, ImperialState
from kozyr.server.tables.views import Views, view_of

# Seed 3, two players: seat 1 leads; seat 0 holds one diamond, the ten (worked out from
# the hands below: I7, follow suit if you can).
SEAT0 = ["7S", "QS", "KS", "8H", "JH", "KH", "AH", "10D", "9C", "10C", "QC", "AC"]


def _after_jack_of_diamonds() -> ImperialState:
    state = ImperialState.new(ImperialOptions(players=2), seed=3)
    assert state.observation(0).to_json()["hand"] == SEAT0
    state.play("JD")
    return state


def test_every_other_card_is_refused_with_the_suit_to_follow() -> None:
    state = _after_jack_of_diamonds()
    view = Views(state).of(0)
    assert view["legal_actions"] == ["10D"]
    why = view["refusals"]
    assert set(why) == set(SEAT0) - {"10D"}
    for refusal in why.values():
        assert refusal["code"] == "must_follow"
        assert refusal["message"] == "You must follow suit (diamonds)"
        assert refusal["message_ru"] == "Нужно ходить в масть (бубны)"


def test_only_the_seat_to_act_gets_reasons_and_both_ways_agree() -> None:
    state = _after_jack_of_diamonds()
    views = Views(state)
    assert "refusals" not in views.of(1)  # not its turn
    assert "refusals" not in views.of(None)  # a spectator
    assert views.of(0)["refusals"] == view_of(state, 0)["refusals"]


def test_a_free_lead_refuses_nothing() -> None:
    state = ImperialState.new(ImperialOptions(players=2), seed=3)
    assert Views(state).of(1)["refusals"] == {}  # the leader may play any card


def test_emperor_reasons_name_only_the_seats_own_cards() -> None:
    state = EmperorState.new(EmperorOptions(players=4), seed=11)
    seen = 0
    while not state.over and seen < 40:
        seat = state.to_act
        if seat is None:
            break
        view = Views(state).of(seat)
        hand = set(view.get("hand") or [])
        assert set(view.get("refusals", {})) <= hand
        seen += bool(view.get("refusals"))
        state.apply(state.legal_actions()[0])
    assert seen > 0  # some turn had cards to refuse
