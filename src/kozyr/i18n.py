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
    "bad_input": (
        "{text!r} is not a card or a choice",
        "не понимаю «{text}»: введите карту, например 10♥, Д♠ или дп, или вариант из списка",
    ),
    "broken_rule": ("against rule {rule}", "это против правила {rule}"),
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
    "seed_not_secret": (
        "Seed {seed} was given: it is not secret, whoever knows it knows every deal.",
        "Задано зерно {seed}: оно не тайное, кто его знает, знает все сдачи.",
    ),
    "verify_ok": (
        "Fair: the seed matches the commitment sha256 {commitment}, and all {deals} deals "
        "are the ones it deals.",
        "Честно: зерно совпадает с обязательством sha256 {commitment}, и все сдачи ({deals}) "
        "получены из него.",
    ),
    "verify_failed": ("NOT verified:", "НЕ подтверждено:"),
    "verify_deals": (
        "{ok} of {deals} deals match the seed.",
        "Совпадают с зерном сдач: {ok} из {deals}.",
    ),
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
    "ask_swap": (
        "Exchange: take another player's hand (swap N), or keep yours (pass)",
        "Обмен: забрать карты у игрока (swap N) или оставить свои (pass)",
    ),
    "ask_offer": (
        "{name} wants your hand: buy it off with tricks (offer K) or give in (yield)",
        "{name} хочет забрать ваши карты: откупиться взятками (offer K) или уступить (yield)",
    ),
    "ask_accept": (
        "{name} offers {k} trick(s) to keep the hand: accept or refuse",
        "{name} предлагает {k} взят., чтобы оставить карты: accept (принять) или refuse (отказать)",
    ),
    "ask_trump": (
        "You are King: name trump (trump S, H, D, C) or no trumps (trump NT)",
        "Вы Король: назовите козырь (trump S, H, D, C) или без козыря (trump NT)",
    ),
}


def t(key: str, lang: Lang = "en", **kwargs: object) -> str:
    """The message ``key`` in ``lang``, filled with ``kwargs``."""
    en, ru = MESSAGES[key]
    return (ru if lang == "ru" else en).format(**kwargs)


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian noun form for a count: 1 карта, 2 карты, 5 карт, 21 карта, 11 карт.

    >>> [ru_plural(n, "карта", "карты", "карт") for n in (1, 3, 5, 11, 21, 22, 40)]
    ['карта', 'карты', 'карт', 'карт', 'карта', 'карты', 'карт']
    """
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


def default_lang() -> Lang:
    """Russian when the environment's locale is Russian, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"
