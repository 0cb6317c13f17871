"""kozyr.games.GAMES: one Game spec per game, each method with hand-worked expectations."""

from __future__ import annotations

import hashlib
import hmac
import random
from typing import Any

import pytest

from kozyr.cards import parse_card, parse_cards
from kozyr.games import GAMES, GameResult
from kozyr.games.base import DealError, GameError, OptionsError
from kozyr.games.dealing import LEGACY, SECURE
from kozyr.games.emperor import EmperorDeal, EmperorOptions, EmperorState
from kozyr.games.imperial import ImperialDeal, ImperialOptions, ImperialState
from kozyr.games.stakes import StakeError, StakeTerms

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
IMPERIAL = GAMES["imperial"]
EMPEROR = GAMES["emperor"]


def test_the_games_and_their_descriptions() -> None:
    assert list(GAMES) == ["imperial", "emperor"]
    assert (IMPERIAL.name, IMPERIAL.title) == ("imperial", ("Imperial", "Империал"))
    assert (EMPEROR.name, EMPEROR.title) == ("emperor", ("Emperor", "Император"))
    assert (IMPERIAL.player_counts, IMPERIAL.default_players) == ((2, 3), 2)
    assert (EMPEROR.player_counts, EMPEROR.default_players) == ((3, 4), 4)
    assert IMPERIAL.stake_kinds == ("per_game", "per_imperial")
    assert EMPEROR.stake_kinds == ("per_place", "per_trick")


def test_options_from_json() -> None:
    assert IMPERIAL.options_from_json({"players": 3, "target": 2}) == ImperialOptions(
        players=3, target=2
    )
    assert EMPEROR.options_from_json({}) == EmperorOptions()
    with pytest.raises(OptionsError, match="players must be 2 or 3, not 4"):
        IMPERIAL.options_from_json({"players": 4})
    with pytest.raises(OptionsError, match="unknown option 'target'"):
        EMPEROR.options_from_json({"target": 5})
    with pytest.raises(OptionsError, match="options must be an object, not list"):
        IMPERIAL.options_from_json([])  # type: ignore[arg-type]


def test_new_state_uses_its_own_start_and_ignores_the_others() -> None:
    imp = IMPERIAL.new_state(
        ImperialOptions(players=3), seed=5, first_dealer=2, join_order=[9, 9, 9]
    )
    assert isinstance(imp, ImperialState) and imp.first_dealer == 2 and imp.seed == 5
    emp = EMPEROR.new_state(EmperorOptions(players=3), seed=5, first_dealer=7, join_order=[2, 0, 1])
    assert isinstance(emp, EmperorState) and emp.join_order == (2, 0, 1)
    # E5: the last to join leads the first trick.
    assert emp.to_act == 1


def test_new_state_refuses_bad_starts_and_other_games_options() -> None:
    with pytest.raises(GameError, match="first_dealer: expected an integer, got true"):
        IMPERIAL.new_state(ImperialOptions(), seed=1, first_dealer=True)
    with pytest.raises(GameError, match="first_dealer must be a seat 0-1, not 2"):
        IMPERIAL.new_state(ImperialOptions(), seed=1, first_dealer=2)
    with pytest.raises(GameError, match='join_order: expected a list, got "0123"'):
        EMPEROR.new_state(EmperorOptions(), seed=1, join_order="0123")  # type: ignore[arg-type]
    with pytest.raises(GameError, match="join_order: expected a list of seats"):
        EMPEROR.new_state(EmperorOptions(), seed=1, join_order=[0, 1, 2, "3"])  # type: ignore[list-item]
    with pytest.raises(OptionsError, match="not Imperial options"):
        IMPERIAL.new_state(EmperorOptions(), seed=1)
    with pytest.raises(OptionsError, match="not Emperor options"):
        EMPEROR.new_state(ImperialOptions(), seed=1)


def _secure_below(n: int, game: str, seed: int, label: str) -> int:
    # The secure scheme written out from docs/fairness.md: HMAC-SHA-256 keyed with the
    # seed's 32 bytes over "kozyr/<game>/<label>/0", first 32-bit word, redrawn above
    # the largest multiple of n (never needed for these seeds: checked below).
    digest = hmac.new(seed.to_bytes(32, "big"), f"kozyr/{game}/{label}/0".encode(), hashlib.sha256)
    word = int.from_bytes(digest.digest()[:4], "big")
    assert word < 2**32 - 2**32 % n
    return word % n


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [0, 7, 2**255 + 12345])
def test_draw_start_imperial_is_the_first_dealer_drawn_from_the_seed(
    players: int, seed: int
) -> None:
    want = _secure_below(players, "imperial", seed, "start")
    assert IMPERIAL.draw_start(players, seed, SECURE) == want
    assert IMPERIAL.new_state(ImperialOptions(players=players), seed=seed).first_dealer == want


def test_draw_start_imperial_legacy_and_emperor() -> None:
    assert IMPERIAL.draw_start(3, 7, LEGACY) == random.Random("kozyr:imperial:7:start").randrange(3)
    assert EMPEROR.draw_start(4, 7, SECURE) is None
    assert EMPEROR.draw_start(3, 7, LEGACY) is None


def test_start_json() -> None:
    imp = IMPERIAL.new_state(ImperialOptions(players=3), seed=1, first_dealer=1)
    assert IMPERIAL.start_json(imp) == {"first_dealer": 1}
    emp = EMPEROR.new_state(EmperorOptions(), seed=1, join_order=[3, 1, 0, 2])
    assert EMPEROR.start_json(emp) == {"join_order": [3, 1, 0, 2]}
    with pytest.raises(TypeError, match="not an Imperial game state"):
        IMPERIAL.start_json(emp)


_SEAT0 = "KS QS JS AS 7S 8H 9H 10H JD QD KD AD"
_SEAT1 = "8S 9S 10S 7H JH QH KH AH 7D 8D 9D 10D"


def test_deal_to_json_and_back_imperial() -> None:
    deal = _imperial_two()
    raw = IMPERIAL.deal_to_json(deal)
    # Hands in card order (spades, hearts, diamonds, clubs; 7 up to A within a suit).
    assert raw == {
        "hands": [
            ["7S", "JS", "QS", "KS", "AS", "8H", "9H", "10H", "JD", "QD", "KD", "AD"],
            ["8S", "9S", "10S", "7H", "JH", "QH", "KH", "AH", "7D", "8D", "9D", "10D"],
        ],
        "turnup": "7C",
    }
    assert IMPERIAL.deal_from_json(raw, "deals[0]") == deal


def test_deal_to_json_and_back_emperor() -> None:
    hands = tuple(parse_cards(" ".join(f"{r}{s}" for r in RANKS)).mask for s in "SHDC")
    first = EmperorDeal(hands, trump_card=parse_card("2S"))
    raw = EMPEROR.deal_to_json(first)
    assert raw["trump_card"] == "2S" and raw["hands"][3][-1] == "AC"
    assert EMPEROR.deal_from_json(raw, "deals[0]") == first
    later = EmperorDeal(hands)
    # A later round shows no card: the record leaves the key out.
    assert "trump_card" not in EMPEROR.deal_to_json(later)
    assert EMPEROR.deal_from_json(EMPEROR.deal_to_json(later), "deals[1]") == later


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([], 'deals[2]: expected an object with "hands"'),
        ({"hands": "KS"}, 'deals[2].hands: expected a list, got "KS"'),
        ({"hands": ["KS"]}, "deals[2].hands[0]: expected a list of cards"),
        ({"hands": [[5]]}, 'deals[2].hands[0][0]: expected a card like "QS", got 5'),
        ({"hands": [["ZS"]]}, "deals[2].hands[0][0]: "),
        (
            {"hands": [["KS"], ["KS"]]},
            "deals[2].hands[1][0]: card KS is dealt twice (also at deals[2].hands[0][0])",
        ),
        (
            {"hands": [_SEAT0.split(), _SEAT1.split()], "turnup": "KS"},
            "deals[2].turnup: card KS is dealt twice",
        ),
        (
            {"hands": [_SEAT0.split(), _SEAT1.split()[:-1]], "turnup": "7C"},
            "deals[2]: hand of seat 1 has 11 cards",
        ),
    ],
)
def test_deal_from_json_names_where(raw: Any, message: str) -> None:
    with pytest.raises(DealError) as err:
        IMPERIAL.deal_from_json(raw, "deals[2]")
    assert str(err.value).startswith(message)


def test_seeded_deal_is_the_deal_the_seed_deals() -> None:
    imp = IMPERIAL.new_state(ImperialOptions(players=3), seed=11, first_dealer=2)
    while imp.deal_number < 2:
        imp.apply(imp.legal_actions()[0])
    # Deal 2 is dealt by seat 0 (the first dealer 2, one seat on), so its trump card is
    # in seat 0's hand (I5).
    second = IMPERIAL.seeded_deal(imp, 1)
    assert second == imp.dealt[1] and second.trump_card is not None
    assert second.hands[0] >> second.trump_card & 1
    emp = EMPEROR.new_state(EmperorOptions(players=3), seed=11)
    assert EMPEROR.seeded_deal(emp, 0) == emp.dealt[0]
    given = IMPERIAL.new_state(ImperialOptions(), seed=None, deals=[imp_deal := _imperial_two()])
    assert given.dealt == [imp_deal]
    with pytest.raises(ValueError, match="no seed"):
        IMPERIAL.seeded_deal(given, 0)


def _imperial_two() -> ImperialDeal:
    return ImperialDeal(
        (parse_cards(_SEAT0).mask, parse_cards(_SEAT1).mask), turnup=parse_card("7C")
    )


# A white deal (I11) that ends the game in its declarations, with three players, dealer
# seat 0 and target 3. In seat order from the dealer's left:
#   seat 1: Q-J-A-6 of diamonds, an imperial worth 1 (diamonds are not trumps);
#   seat 2: no K, Q or J: a white imperial, worth 2;
#   seat 0: K-Q-J-A of clubs, the trump suit (the dealer's 7C), worth 2, and four kings, 1.
# Nobody is wiped in a white deal, so the marks are 1, 2, then 3: seat 0 wins. Losers by
# marked imperials (I12): seat 2 (2) before seat 1 (1). Stakes 1 each to the winner.
_WHITE = (
    "KS KH KD KC QC JC AC 10C 9C 8C 7C 6C",
    "QD JD AD 6D 10D 9D 8D 7D QS JS QH JH",
    "AS 10S 9S 8S 7S 6S AH 10H 9H 8H 7H 6H",
)


def _white_game() -> ImperialState:
    deal = ImperialDeal(tuple(parse_cards(h).mask for h in _WHITE), trump_card=parse_card("7C"))
    options = ImperialOptions(players=3, target=3)
    return IMPERIAL.new_state(options, seed=None, deals=[deal], first_dealer=0)


def test_result_imperial_places_by_i12() -> None:
    state = _white_game()
    assert state.over
    assert IMPERIAL.result(state) == GameResult(
        winner=0, places=(0, 2, 1), scores=(3, 1, 2), stakes=(2, -1, -1)
    )


# Emperor, one round, four players joined in seat order, so seat 3 leads (E5). Seat 0 holds
# every spade and the shown 2S makes spades trump: seat 0 trumps every other lead and wins
# every spade lead, 13 tricks; nobody else takes one. Titles (E6): seat 0 King; the others
# took none and keep their order of play from the first leader, 3, 1, 2. Final standing
# (E12): totals 13, 0, 0, 0, the tie broken by title: 0, 3, 1, 2; stakes n-1-2*place by
# seat: seat 0 3, seat 1 (third) -1, seat 2 (last) -3, seat 3 (second) 1.
def _sweep() -> EmperorState:
    hands = tuple(parse_cards(" ".join(r + s for r in RANKS)).mask for s in "SHDC")
    options = EmperorOptions(players=4, rounds=1)
    state = EMPEROR.new_state(
        options, deals=[EmperorDeal(hands, trump_card=parse_card("2S"))], join_order=[0, 1, 2, 3]
    )
    while not state.over:
        state.apply(state.legal_actions()[0])
    return state


def test_result_emperor_places_by_e12() -> None:
    assert EMPEROR.result(_sweep()) == GameResult(
        winner=0, places=(0, 3, 1, 2), scores=(13, 0, 0, 0), stakes=(3, -1, -3, 1)
    )


def test_result_of_an_unfinished_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not over"):
        IMPERIAL.result(IMPERIAL.new_state(ImperialOptions(), seed=3))
    with pytest.raises(ValueError, match="not over"):
        EMPEROR.settle(StakeTerms("per_place", 1), EMPEROR.new_state(EmperorOptions(), seed=3))


def test_max_loss() -> None:
    # Imperial: per_game one stake; per_imperial a loser with nothing marked pays target x S.
    assert IMPERIAL.max_loss(StakeTerms("per_game", 10), ImperialOptions(target=5)) == 10
    assert IMPERIAL.max_loss(StakeTerms("per_imperial", 10), ImperialOptions(target=7)) == 70
    # Emperor: the last place pays 3 S with four players, 2 S with three; per_trick at most
    # 10 S to each other player.
    assert EMPEROR.max_loss(StakeTerms("per_place", 5), EmperorOptions(players=4)) == 15
    assert EMPEROR.max_loss(StakeTerms("per_place", 5), EmperorOptions(players=3)) == 10
    assert EMPEROR.max_loss(StakeTerms("per_trick", 2), EmperorOptions(players=3)) == 40
    with pytest.raises(StakeError, match="per_trick is not a stake of Imperial"):
        IMPERIAL.max_loss(StakeTerms("per_trick", 1), ImperialOptions())


def test_settle_imperial() -> None:
    state = _white_game()
    # per_game: each loser pays S to the winner.
    assert IMPERIAL.settle(StakeTerms("per_game", 10), state) == [20, -10, -10]
    # per_imperial: each loser pays S for each imperial he lacks of the target 3:
    # seat 1 has 1 (pays 20), seat 2 has 2 (pays 10).
    assert IMPERIAL.settle(StakeTerms("per_imperial", 10), state) == [30, -20, -10]
    with pytest.raises(StakeError):
        IMPERIAL.settle(StakeTerms("per_place", 10), state)


def test_settle_emperor() -> None:
    state = _sweep()
    # per_place: units 3, 1, -1, -3; seats 1, 2, 3 tie on 0 and share 1 - 1 - 3 = -3 units.
    assert EMPEROR.settle(StakeTerms("per_place", 5), state) == [15, -5, -5, -5]
    # per_trick: seat 0 is 13 ahead of each, capped at 10 units a pair.
    assert EMPEROR.settle(StakeTerms("per_trick", 1), state) == [30, -10, -10, -10]
