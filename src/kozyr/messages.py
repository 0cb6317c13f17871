"""The one catalog of refusals: every rule error and bad card text, in English and Russian.

A refusal is a code and named parameters (:class:`kozyr.games.base.IllegalAction`,
:class:`kozyr.cards.CardError`); :data:`MESSAGES` maps the code to its English and
Russian templates, and :func:`message` renders one in a language, each parameter by its
kind (:data:`PARAM_KINDS`): a card as ``Q♠`` / ``Д♠``, a suit as ``spades`` / ``пики``.
The page reads the same table from ``web/static/js/rule_messages.js``, which
``python -m kozyr.messages`` writes (a test keeps the file equal to the catalog).

>>> from kozyr.cards import parse_card
>>> message("not_in_hand", "en", card=parse_card("QS")), message("not_in_hand", "ru", card=10)
('You do not hold Q♠', 'У вас нет Д♠')
>>> message("not_in_deck", "ru", card=4, deck=32, ranks=6)
'В колоде из 32 карт нет шестёрок'
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from kozyr.cards import (
    CARD_MESSAGES,
    CARD_NAMES,
    RANK_INPUT,
    SUIT_INPUT,
    Lang,
    card_name,
    suit_name,
)

__all__ = [
    "MESSAGES",
    "PARAM_KINDS",
    "js_module",
    "json_params",
    "message",
]

MESSAGES: dict[str, tuple[str, str]] = {
    # Turns and phases (I5, I12, E4).
    "game_over": ("The game is over", "Игра окончена"),
    "waiting_for_deal": (
        "No deal is in play: the game waits for the next deal",
        "Сдача ещё не роздана: игра ждёт следующей сдачи",
    ),
    "not_your_turn": ("It is not your turn", "Сейчас не ваш ход"),
    "not_an_action": ("There is no action {action}", "Нет такого хода: {action}"),
    # Cards as typed: kozyr.cards raises and renders these itself.
    **CARD_MESSAGES,
    "not_in_deck": (
        "There are no {ranks} in the {deck}-card deck",
        "В колоде из {deck} карт нет {ranks}",
    ),
    # Card play (I7, E5, E10).
    "not_in_hand": ("You do not hold {card}", "У вас нет {card}"),
    "must_follow": ("You must follow suit ({suit})", "Нужно ходить в масть ({suit})"),
    "must_trump": (
        "You have no {led}, so you must trump ({trump})",
        "У вас нет масти ({led}), поэтому нужно бить козырем ({trump})",
    ),
    "must_beat": (
        "You must beat {best}: play {cards}",
        "Нужно перебить {best}: ходите {cards}",
    ),
    "must_play_card": (
        "It is your turn to play a card, not “{action}”",
        "Сейчас нужно ходить картой, а не «{action}»",
    ),
    # Emperor's exchange, bargaining and trump (E7, E8, E9).
    "swap_not_allowed": (
        "You may take the hand of {targets}, not of seat {target}",
        "Можно взять карты только этих мест: {targets}; место {target} — нельзя",
    ),
    "swap_or_pass": (
        "It is the exchange: swap with {targets} or pass, not “{action}”",
        "Сейчас обмен: меняйтесь (можно: {targets}) или пасуйте, а не «{action}»",
    ),
    "answer_offer": (
        "Accept or refuse the offer of {tricks} trick(s), not “{action}”",
        "Примите или отклоните откуп ({tricks} взят.), а не «{action}»",
    ),
    "offer_or_yield": (
        "You were named for a swap: offer tricks or give in, not “{action}”",
        "У вас требуют обмена: предложите откуп или уступите, а не «{action}»",
    ),
    "offer_too_low": (
        "An offer must be more than the last one ({last})",
        "Откуп должен быть больше прежнего ({last})",
    ),
    "offer_too_high": (
        "An offer is at most {max} trick(s)",
        "Откуп — не больше {max} взят.",
    ),
    "offer_over_total": (
        "You have only {total} trick(s) in your game total",
        "В вашем итоге всего {total} взят.",
    ),
    "name_trump": (
        "Name trump (S, H, D, C or NT), not “{action}”",
        "Назовите козырь (П, Ч, Б, Т или БК), а не «{action}»",
    ),
    "bad_swap_text": (
        "“{text}”: a swap names a seat 0-{max}, like “swap 2”",
        "«{text}»: для обмена укажите место 0-{max}, например «swap 2»",
    ),
    "bad_offer_text": (
        "“{text}”: an offer is 1, 2 or 3 tricks, like “offer 2”",
        "«{text}»: откуп — 1, 2 или 3 взятки, например «offer 2»",
    ),
    # Records (kozyr.records): a record that cannot be replayed; the detail is English.
    "bad_record": (
        "The record cannot be replayed: {detail}",
        "Запись игры не воспроизводится: {detail}",
    ),
    "bad_trump_text": (
        "“{text}”: name a suit S, H, D, C (or ♠ ♥ ♦ ♣) or NT",
        "«{text}»: назовите масть П, Ч, Б, Т (или ♠ ♥ ♦ ♣) или БК",
    ),
}
"""Code -> (English, Russian) templates with named parameters."""

Kind = Literal["card", "cards", "suit", "ranks", "seats", "text"]

PARAM_KINDS: dict[str, Kind] = {
    "card": "card",
    "best": "card",
    "cards": "cards",
    "suit": "suit",
    "led": "suit",
    "trump": "suit",
    "ranks": "ranks",
    "targets": "seats",
}
"""How a parameter is rendered; any other parameter is shown as it is (``text``)."""

# The ranks missing from a short deck (I1), by rank: plural, Russian genitive plural.
_RANKS_PLURAL: dict[Lang, dict[int, str]] = {
    "en": {2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes"},
    "ru": {2: "двоек", 3: "троек", 4: "четвёрок", 5: "пятёрок", 6: "шестёрок"},
}
_SEAT_WORDS: dict[Lang, tuple[str, str]] = {"en": ("seat", "or"), "ru": ("место", "или")}


def _render(name: str, value: Any, lang: Lang) -> str:
    kind = PARAM_KINDS.get(name, "text")
    if kind == "card":
        return card_name(value, lang, symbols=True)
    if kind == "cards":
        return " ".join(card_name(c, lang, symbols=True) for c in value)
    if kind == "suit":
        return suit_name(value, lang, long=True)
    if kind == "ranks":
        return _RANKS_PLURAL[lang].get(value, str(value))
    if kind == "seats":
        seat, either = _SEAT_WORDS[lang]
        return f" {either} ".join(f"{seat} {s}" for s in value)
    return str(value)


def message(code: str, lang: Lang = "en", **params: Any) -> str:
    """The catalog's message for ``code`` in ``lang``, its parameters rendered."""
    en, ru = MESSAGES[code]
    template = ru if lang == "ru" else en
    return template.format(**{k: _render(k, v, lang) for k, v in params.items()})


def json_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Parameters in JSON form: cards as names (``"QS"``), suits as letters; the rest as
    they are."""
    out: dict[str, Any] = {}
    for name, value in params.items():
        kind = PARAM_KINDS.get(name, "text")
        if kind == "card":
            out[name] = CARD_NAMES[value]
        elif kind == "cards":
            out[name] = [CARD_NAMES[c] for c in value]
        elif kind == "suit":
            out[name] = suit_name(value)
        elif isinstance(value, Sequence) and not isinstance(value, str):
            out[name] = list(value)
        else:
            out[name] = value
    return out


JS_PATH = Path(__file__).parent / "web" / "static" / "js" / "rule_messages.js"


def js_module() -> str:
    """The catalog as an ES module (``rule_messages.js``): the same table for the page."""
    table = json.dumps(MESSAGES, ensure_ascii=False, indent=2)
    kinds = json.dumps(PARAM_KINDS, ensure_ascii=False, indent=2)
    ranks = json.dumps(_RANKS_PLURAL, ensure_ascii=False, indent=2)
    return (
        "// Generated by `python -m kozyr.messages` from src/kozyr/messages.py: do not edit.\n"
        "// Refusal code -> [English, Russian] templates with {named} parameters.\n"
        f"export const RULE_MESSAGES = {table};\n\n"
        "// How a parameter is rendered (card, cards, suit, ranks, seats); others as text.\n"
        f"export const PARAM_KINDS = {kinds};\n\n"
        "// The ranks missing from a short deck, for `ranks`: [en plural, ru genitive plural].\n"
        f"export const RANKS_PLURAL = {ranks};\n"
    )


CARD_INPUT_PATH = JS_PATH.with_name("card_input.js")


def card_input_module() -> str:
    """What may be typed for a card (``kozyr.cards``) as an ES module for the page, so the
    page reads exactly the notation the terminal and the server read."""
    ranks = json.dumps(dict(sorted(RANK_INPUT.items())), ensure_ascii=False)
    suits = json.dumps(
        {text: "SHDC"[int(suit)] for text, suit in sorted(SUIT_INPUT.items())},
        ensure_ascii=False,
    )
    return (
        "// Generated by `python -m kozyr.messages` from src/kozyr/cards.py: do not edit.\n"
        "// Typed rank -> rank number (11 J, 12 Q, 13 K, 14 A); typed suit -> suit letter.\n"
        f"export const RANK_INPUT = {ranks};\n"
        f"export const SUIT_INPUT = {suits};\n"
    )


GENERATED = {JS_PATH: js_module, CARD_INPUT_PATH: card_input_module}
"""The page's files made from Python tables, kept equal to them by a test."""


def main(argv: Sequence[str] = ()) -> None:
    """Writes the generated page files (or, with ``--check``, fails when one differs)."""
    for path, render in GENERATED.items():
        text = render()
        if "--check" in argv:
            if path.read_text(encoding="utf-8") != text:
                sys.exit(f"{path} differs from its Python table: run python -m kozyr.messages")
            continue
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
