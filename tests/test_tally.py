"""The terminal's stake tally (``kozyr play --stake``): payments, nets and session totals
worked out by hand, in both languages, and every bad ``--stake`` named."""

from __future__ import annotations

import pytest

from kozyr.games.stakes import StakeError, StakeTerms
from kozyr.terminal.tally import Tally, parse_stake, stake_words, transfers

FOUR = ["You", "Computer 1", "Computer 2", "Computer 3"]
FOUR_RU = ["Вы", "Компьютер 1", "Компьютер 2", "Компьютер 3"]


def test_one_winner_is_paid_by_each_loser() -> None:
    # Imperial per_game S = 10, seat 1 wins: seats 0 and 2 pay him 10 each.
    assert transfers([-10, 20, -10]) == [(0, 1, 10), (2, 1, 10)]


def test_many_payers_pay_the_payees_in_seat_order() -> None:
    # Emperor per_place S = 2, totals [20, 44, 31, 9] give [-2, +6, +2, -6] (B5):
    # seat 0 owes 2 -> seat 1; seat 3 owes 6 -> 4 to seat 1 (whose +6 is then full), 2 to seat 2.
    assert transfers([-2, 6, 2, -6]) == [(0, 1, 2), (3, 1, 4), (3, 2, 2)]
    assert transfers([0, 0, 0]) == []
    with pytest.raises(ValueError, match="sums to zero"):
        transfers([5, -4])


def test_a_game_settled_in_english_and_russian() -> None:
    terms = StakeTerms("per_place", 2)
    tally = Tally(terms, FOUR)
    tally.add([-2, 6, 2, -6])
    assert tally.game_lines([-2, 6, 2, -6], "en") == [
        "Stakes (2 chips per place):",
        "  You pay Computer 1: 2 chips",
        "  Computer 3 pays Computer 1: 4 chips",
        "  Computer 3 pays Computer 2: 2 chips",
        "Net: You −2 chips, Computer 1 +6 chips, Computer 2 +2 chips, Computer 3 −6 chips",
    ]
    ru = Tally(terms, FOUR_RU)
    assert ru.game_lines([-2, 6, 2, -6], "ru") == [
        "Расчёт по ставке (2 фишки за место):",
        "  Вы платите Компьютеру 1: 2 фишки",
        "  Компьютер 3 платит Компьютеру 1: 4 фишки",
        "  Компьютер 3 платит Компьютеру 2: 2 фишки",
        "Итог: Вы −2 фишки, Компьютер 1 +6 фишек, Компьютер 2 +2 фишки, Компьютер 3 −6 фишек",
    ]


def test_russian_chip_counts_and_a_payment_to_you() -> None:
    tally = Tally(StakeTerms("per_game", 21), ["Вы", "Компьютер 1"])
    # 21 фишка, 1 фишка, 11 фишек, 5 фишек; "вам" is the dative of "Вы".
    assert tally.game_lines([21, -21], "ru") == [
        "Расчёт по ставке (21 фишка за партию):",
        "  Компьютер 1 платит вам: 21 фишка",
        "Итог: Вы +21 фишка, Компьютер 1 −21 фишка",
    ]
    assert stake_words(StakeTerms("per_game", 11), "ru") == "11 фишек за партию"
    assert stake_words(StakeTerms("per_game", 1), "en") == "1 chip per game"
    en = Tally(StakeTerms("per_game", 1), ["You", "Computer 1"])
    assert en.payment_line(1, 0, 1, "en") == "Computer 1 pays you: 1 chip"


def test_a_session_adds_its_games() -> None:
    tally = Tally(StakeTerms("per_place", 2), FOUR)
    tally.add([-2, 6, 2, -6])
    tally.add([10, -10, 0, 0])
    # [-2+10, 6-10, 2+0, -6+0] = [8, -4, 2, -6]: seats 1 and 3 owe 4 and 6; seat 0 is due 8,
    # seat 2 is due 2: seat 1 pays seat 0 4; seat 3 pays seat 0 4, then seat 2 2.
    assert tally.totals == [8, -4, 2, -6] and tally.games == 2
    assert tally.session_lines("en") == [
        "Games played: 2. Session total:",
        "  Computer 1 pays you: 4 chips",
        "  Computer 3 pays you: 4 chips",
        "  Computer 3 pays Computer 2: 2 chips",
        "Net: You +8 chips, Computer 1 −4 chips, Computer 2 +2 chips, Computer 3 −6 chips",
    ]
    with pytest.raises(ValueError, match="not a settlement"):
        tally.add([1, 0, 0, 0])
    assert tally.totals == [8, -4, 2, -6]  # a refused result changes nothing


def test_parse_stake() -> None:
    assert parse_stake("per_game:10", "imperial") == StakeTerms("per_game", 10)
    assert parse_stake(" per_trick : 1000000 ", "emperor") == StakeTerms("per_trick", 1_000_000)


@pytest.mark.parametrize(
    ("text", "game", "code", "en", "ru"),
    [
        ("per_game", "imperial", "bad_stake", "write the stake as KIND:S", "ставку пишут как"),
        (":5", "imperial", "bad_stake", "not ':5'", "а не «:5»"),
        ("per_win:5", "emperor", "bad_stake_kind", "not 'per_win'", "а не «per_win»"),
        (
            "per_place:5",
            "imperial",
            "stake_wrong_game",
            "a stake of Emperor, not of Imperial",
            "ставка игры Император, а не Империал",
        ),
        (
            "per_game:0",
            "imperial",
            "bad_stake_chips",
            "from 1 to 1,000,000, not '0'",
            "от 1 до 1 000 000, а не «0»",
        ),
        ("per_game:1000001", "imperial", "bad_stake_chips", "not '1000001'", "а не «1000001»"),
        ("per_game:-3", "imperial", "bad_stake_chips", "not '-3'", "а не «-3»"),
        ("per_game:2.5", "imperial", "bad_stake_chips", "not '2.5'", "а не «2.5»"),
        ("per_game:+5", "imperial", "bad_stake_chips", "not '+5'", "а не «+5»"),
        ("per_game:", "imperial", "bad_stake_chips", "not ''", "а не «»"),
    ],
)
def test_a_bad_stake_is_named(text: str, game: str, code: str, en: str, ru: str) -> None:
    with pytest.raises(StakeError) as english:
        parse_stake(text, game, "en")
    assert english.value.code == code and en in str(english.value)
    with pytest.raises(StakeError) as russian:
        parse_stake(text, game, "ru")
    assert russian.value.code == code and ru in str(russian.value)
