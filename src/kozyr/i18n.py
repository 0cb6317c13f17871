"""Everything a player reads, in English and Russian.

>>> t("your_turn", "ru")
'Ваш ход'
>>> t("illegal", "en", reason="no")
'Not allowed: no'
"""

from __future__ import annotations

import os

from kozyr.cards import Lang

MESSAGES: dict[str, tuple[str, str]] = {
    # key: (English, Russian)
    "your_turn": ("Your turn", "Ваш ход"),
    "illegal": ("Not allowed: {reason}", "Так нельзя: {reason}"),
    "prompt_card": ("Play a card", "Ваша карта"),
    "prompt_help": (
        "Type a card (10H, QS, Д♠, дп), or: hand, score, help, quit",
        "Введите карту (10H, QS, Д♠, дп) или: hand, score, help, quit",
    ),
    "you": ("You", "Вы"),
    "computer": ("Computer {n}", "Компьютер {n}"),
    "hand": ("Your hand", "Ваши карты"),
    "trump": ("Trump", "Козырь"),
    "no_trump": ("no trumps", "без козыря"),
    "turnup": ("Turn-up", "Вскрыта"),
    "trump_card": ("Dealer's trump card", "Козырь сдатчика"),
    "dealer": ("Dealer", "Сдаёт"),
    "trick": ("Trick", "Взятка"),
    "tricks": ("Tricks", "Взятки"),
    "legal": ("Legal", "Можно"),
    "scores": ("Scores", "Счёт"),
    "imperials": ("Imperials", "Империалы"),
    "points": ("Points", "Очки"),
    "player": ("Player", "Игрок"),
    "title": ("Title", "Звание"),
    "total": ("Total", "Всего"),
    "round": ("Round {n}", "Тур {n}"),
    "deal": ("Deal {n}", "Сдача {n}"),
    "record_saved": ("Game record saved: {path}", "Запись партии сохранена: {path}"),
    "game_over": ("Game over", "Игра окончена"),
    "winner": ("{name} wins", "Победитель: {name}"),
    "quit": ("You left the game.", "Вы вышли из игры."),
    "waiting_deal": (
        "The record needs a deal it does not hold.",
        "Для продолжения нужна сдача, которой нет в записи.",
    ),
    "standing": ("Final standing", "Итоговые места"),
    "prompt_action": ("Your choice", "Ваш выбор"),
    "choices": ("Choices", "Варианты"),
}


def t(key: str, lang: Lang = "en", **kwargs: object) -> str:
    """The message ``key`` in ``lang``, filled with ``kwargs``."""
    en, ru = MESSAGES[key]
    return (ru if lang == "ru" else en).format(**kwargs)


def default_lang() -> Lang:
    """Russian when the environment's locale is Russian, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"
