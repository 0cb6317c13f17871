"""kozyr.messages: one catalog of refusals in English and Russian, and its page copy."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from kozyr import messages
from kozyr.cards import CARD_MESSAGES, CardError, parse_card
from kozyr.games.base import IllegalAction
from kozyr.messages import (
    CARD_INPUT_PATH,
    JS_PATH,
    MESSAGES,
    card_input_module,
    js_module,
    json_params,
    message,
)

SRC = Path(messages.__file__).parent


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_page_copy_equals_the_catalog() -> None:
    # `python -m kozyr.messages` writes it; this fails when the catalog changed since.
    assert JS_PATH.read_text(encoding="utf-8") == js_module()
    assert 'export const RULE_MESSAGES = {\n  "game_over": [' in js_module()


def test_the_page_reads_the_cards_the_engine_reads() -> None:
    # One notation for the terminal, the server and the page: the page's table is made
    # from kozyr.cards, so the open suit symbols typed in Python work on the page too.
    assert CARD_INPUT_PATH.read_text(encoding="utf-8") == card_input_module()
    js = card_input_module()
    for typed, letter in (("♤", "S"), ("♡", "H"), ("♢", "D"), ("♧", "C"), ("П", "S")):
        assert f'"{typed}": "{letter}"' in js
    # Т is the ace in Cyrillic, a Latin T the ten (I2 names; the terminal warns on it)
    assert '"Т": 14' in js and '"T": 10' in js


def test_both_languages_use_the_same_parameters() -> None:
    for code, (en, ru) in MESSAGES.items():
        assert _fields(en) == _fields(ru), code
        assert en and ru and en != ru, code


def test_every_code_the_program_raises_is_in_the_catalog() -> None:
    raised: set[str] = set()
    patterns = [
        r'(?:IllegalAction|CardError|RecordError)\(\s*"(\w+)"',
        r'code="(\w+)"',
        r'return "(\w+)", \{',  # kozyr.games.tricks.refusal
    ]
    for path in SRC.rglob("*.py"):
        if "server" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        for pattern in patterns:
            raised.update(re.findall(pattern, text))
    # The engines' and the cards' refusals, found in the source.
    assert {"must_follow", "must_trump", "must_beat", "not_in_hand", "not_in_deck"} <= raised
    assert {"bad_card_text", "card_twice", "swap_not_allowed", "name_trump"} <= raised
    assert raised <= set(MESSAGES), raised - set(MESSAGES)


@pytest.mark.parametrize(
    ("code", "params", "en", "ru"),
    [
        (
            "must_follow",
            {"suit": 0},
            "You hold spades, the suit led, so you must follow suit",
            "Масть хода — пики, и она у вас есть, значит, нужно ходить в масть",
        ),
        (
            "not_in_deck",
            {"card": parse_card("6H"), "deck": 32, "ranks": 6},
            "There are no sixes in the 32-card deck",
            "В колоде из 32 карт нет шестёрок",
        ),
        (
            "not_in_deck",
            {"card": parse_card("5H"), "deck": 36, "ranks": 5},
            "There are no fives in the 36-card deck",
            "В колоде из 36 карт нет пятёрок",
        ),
        ("not_in_hand", {"card": parse_card("QS")}, "You do not hold Q♠", "У вас нет Д♠"),
        (
            "must_trump",
            {"led": 3, "trump": 1},
            "You have no clubs but you hold a trump (hearts), so you must trump",
            "Масти хода (трефы) у вас нет, а козырь (черви) есть, значит, нужно бить козырем",
        ),
        (
            "must_beat",
            {"best": parse_card("10D"), "cards": [parse_card("JD"), parse_card("AD")]},
            "At this table you must head the trick when you can: beat 10♦ (J♦ A♦)",
            "За этим столом взятку нужно перебивать, когда можете: перебейте 10♦ (В♦ Т♦)",
        ),
        (
            "swap_not_allowed",
            {"target": 0, "targets": [2, 3], "title": "prince", "titles": ["soldier", "jester"]},
            "You are the Prince: you may take only the hand of a lower title (Soldier or Jester)",
            "Вы — Принц: можно взять карты только у младших званий (Солдат или Скоморох)",
        ),
        (
            "swap_not_allowed",
            {
                "target": 0,
                "targets": [1, 2, 3],
                "title": "king",
                "titles": ["prince", "soldier", "jester"],
            },
            "You are the King: you may take only the hand of a lower title "
            "(Prince, Soldier or Jester)",
            "Вы — Король: можно взять карты только у младших званий (Принц, Солдат или Скоморох)",
        ),
        (
            "swap_or_pass",
            {"action": "trump S", "targets": [2]},
            "It is the exchange: swap (you may take seat 2) or pass, not “trump S”",
            "Сейчас обмен: меняйтесь (можно: место 2) или пасуйте, а не «trump S»",
        ),
    ],
)
def test_messages_in_both_languages(code: str, params: dict, en: str, ru: str) -> None:
    assert message(code, "en", **params) == en
    assert message(code, "ru", **params) == ru


def test_illegal_action_carries_code_params_and_rule() -> None:
    e = IllegalAction("must_follow", {"card": parse_card("10D"), "suit": 1}, "I7")
    assert isinstance(e, ValueError)
    assert (
        e.rule == "I7" and str(e) == "You hold hearts, the suit led, so you must follow suit (I7)"
    )
    assert e.to_json() == {
        "code": "must_follow",
        "params": {"card": "10D", "suit": "H"},
        "rule": "I7",
        "message": "You hold hearts, the suit led, so you must follow suit",
        "message_ru": "Масть хода — черви, и она у вас есть, значит, нужно ходить в масть",
    }


def test_json_params() -> None:
    assert json_params({"cards": [0, 12], "best": 51, "led": 2, "targets": (1, 3), "k": 2}) == {
        "cards": ["2S", "AS"],
        "best": "AC",
        "led": "D",
        "targets": [1, 3],
        "k": 2,
    }


@pytest.mark.parametrize(
    ("code", "params"),
    [
        ("bad_card_text", {"text": "1H"}),
        ("bad_suit_text", {"text": "X"}),
        ("card_twice", {"card": parse_card("QS")}),
    ],
)
def test_card_errors_render_as_the_catalog_does(code: str, params: dict[str, object]) -> None:
    # kozyr.cards renders its own refusals (it sits below the catalog): the same words
    assert set(CARD_MESSAGES) == {"bad_card_text", "bad_suit_text", "card_twice"}
    assert MESSAGES[code] == CARD_MESSAGES[code]
    error = CardError(code, params)
    for lang in ("en", "ru"):
        assert error.message(lang) == message(code, lang, **params)
    assert error.to_json()["params"] == json_params(params)
