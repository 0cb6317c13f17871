"""The double-dummy solver (issue #15, level 5's evaluation): hand-worked endings, and
its values against an exhaustive search through the engine itself (I7-I10)."""

from __future__ import annotations

import pytest

from kozyr.bots.imperial.heuristic import decide_in_state
from kozyr.bots.imperial.solver import POINT, Solver, solve_state
from kozyr.bots.imperial.value import play_record
from kozyr.cards import Suit, parse_card, parse_cards
from kozyr.games.imperial import ImperialOptions, ImperialState


def _mask(text: str) -> int:
    return int(parse_cards(text))


def test_i9_a_tombe_is_worth_an_imperial_of_play_points() -> None:
    # Clubs trump; seat 0 holds KC QC, seat 1 JC AC; five tricks each so far, seat 0 leads.
    # KC led: an honour led, 4 (I8); seat 1 must follow in clubs and either card is
    # captured by the king (I9). QC led: 4 more, and the other card captured: both J and
    # A taken, the imperial tombé, 24 points. Seat 0 ends with 7 tricks: 4 more (I10).
    # 4 + 4 + 24 + 4 = 36 points and two tricks more than seat 1. QC led first is the same
    # (the queen captures too). Both are searched: honours never stand in for each other.
    s = Solver(Suit.CLUBS, ImperialOptions())
    v = s.root_values(_mask("KC QC"), _mask("JC AC"), 0, 0, None, 5, 5, 0, 0)
    assert v == {parse_card("KC"): 36 * POINT + 2, parse_card("QC"): 36 * POINT + 2}
    # With the trump ace captured earlier in the deal, taking the jack completes the
    # tombé: KC led (4), JC captured (24), 9H wins over 8H; 7 tricks (4). Leading 9H first
    # ends the same. 32 points, two tricks more.
    v = s.root_values(_mask("KC 9H"), _mask("JC 8H"), 0, 0, None, 5, 5, _mask("AC"), 0)
    assert v == {parse_card("KC"): 32 * POINT + 2, parse_card("9H"): 32 * POINT + 2}
    # Without the earlier capture there is no tombé: 4 + 4 points.
    v = s.root_values(_mask("KC 9H"), _mask("JC 8H"), 0, 0, None, 5, 5, 0, 0)
    assert v[parse_card("KC")] == 8 * POINT + 2


def test_i8_an_honour_heading_the_trick_scores_and_the_follower_sees_it() -> None:
    # Spades trump, two tricks left, five won each. Seat 1 led the 10 of spades (7H left
    # in his hand); seat 0 holds KS 8S.
    # KS heads the trick: 4 (I8); 8S then wins the 7H; 7 tricks, 4 more (I10): 8 points.
    # 8S loses to the 10; seat 1 leads 7H and seat 0 must trump with KS, which heads the
    # trick: 4; six tricks each, no bonus. 4 points, the tricks even.
    s = Solver(Suit.SPADES, ImperialOptions())
    v = s.root_values(_mask("KS 8S"), _mask("7H"), 1, 0, parse_card("10S"), 5, 5, 0, 0)
    assert v == {parse_card("KS"): 8 * POINT + 2, parse_card("8S"): 4 * POINT}


def test_i10_capot_scores_eight_instead_of_four() -> None:
    # Hearts trump; seat 0 has won all ten tricks so far and holds AH 10H against 8S 9S:
    # it wins both (trumps), twelve tricks, capot: 8 (not 4). The trump ace is no honour.
    s = Solver(Suit.HEARTS, ImperialOptions())
    v = s.root_values(_mask("AH 10H"), _mask("8S 9S"), 0, 0, None, 10, 0, 0, 0)
    assert set(v.values()) == {8 * POINT + 2}


def _ending(seed: int, left: int, mid_trick: bool) -> ImperialState:
    """Deal ``seed`` played by the heuristic until ``left`` tricks remain (a card led
    when ``mid_trick``), rebuilt to end with this deal."""
    s = ImperialState.new(ImperialOptions(), seed=seed)
    while s.to_act is not None and (s.tricks_done < 12 - left or (s.trick and not mid_trick)):
        s.apply(decide_in_state(s))
    if mid_trick and s.to_act is not None and not s.trick:
        s.apply(decide_in_state(s))
    seat = s.to_act
    assert seat is not None
    return ImperialState.from_observation(s.observation(seat), [s.hands[0], s.hands[1]])


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("mid_trick", [False, True])
def test_the_solver_agrees_with_an_exhaustive_search_through_the_engine(
    seed: int, mid_trick: bool
) -> None:
    state = _ending(seed, 4, mid_trick)
    seat = state.to_act
    assert seat is not None
    values = solve_state(state, seat)
    assert values, "no card searched"
    legal = state.legal_actions()
    every = {}
    for c in legal:
        child = state.clone()
        child.apply(c)
        every[c] = _exhaustive_after(child, seat, state)
    for card, v in values.items():
        assert v == every[card], (seed, card)
    # Cards left out play like one that was searched: none is better than the best.
    assert max(values.values()) == max(every.values())
    # The quicker search for the best card alone finds one of the best, with its value.
    trick = state.trick
    solver = Solver(state.trump or 0, state.options)
    card, value = solver.best_card(
        state.hands[0],
        state.hands[1],
        trick[0][0] if trick else seat,
        seat,
        trick[0][1] if trick else None,
        state.tricks[0],
        state.tricks[1],
        state.captures[0],
        state.captures[1],
    )
    assert value == max(every.values()) == every[card]


def _exhaustive_after(child: ImperialState, seat: int, root: ImperialState) -> int:
    """The exhaustive value for ``seat`` after one card of ``root``, counted from the root
    (so the card's own points are in)."""
    since = len(root.events)

    def go(s: ImperialState) -> int:
        if s.to_act is None or s.deal_number != root.deal_number:
            points, tricks = play_record(s.events[since:], 2)
            other = 1 - seat
            return POINT * int(points[seat] - points[other]) + tricks[seat] - tricks[other]
        values = []
        for c in s.legal_actions():
            nxt = s.clone()
            nxt.apply(c)
            values.append(go(nxt))
        return max(values) if s.to_act == seat else min(values)

    return go(child)


def test_the_solver_refuses_three_players_hands_that_do_not_fit_and_the_wrong_seat() -> None:
    with pytest.raises(ValueError, match="two-player"):
        Solver(0, ImperialOptions(players=3))
    s = Solver(Suit.SPADES, ImperialOptions())
    with pytest.raises(ValueError, match="hands"):
        s.root_values(_mask("KS 8S"), 0, 1, 0, parse_card("10S"), 6, 5, 0, 0)
    with pytest.raises(ValueError, match="hands"):
        s.root_values(_mask("KS 8S"), _mask("7H"), 0, 0, None, 5, 5, 0, 0)
    state = _ending(0, 4, False)
    other = 1 - (state.to_act or 0)
    with pytest.raises(ValueError, match="seat to act"):
        solve_state(state, other)
