"""The terminal's play (``kozyr play``, ``kozyr replay``): prompts, help, table labels,
questions; read through :func:`kozyr.i18n.t`, which takes the key without ``terminal.``.
Each game's events in words are in :mod:`kozyr.texts.imperial_view` and
:mod:`kozyr.texts.emperor_view`."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "terminal.your_turn": ("Your turn", "Ваш ход"),
    "terminal.illegal": ("Not allowed: {reason}", "Так нельзя: {reason}"),
    "terminal.prompt_card": ("Play a card", "Ваша карта"),
    "terminal.help_imperial": (
        "Type a card: rank and suit, like 10H, QS, AC (TH is the ten), or: hand, score, "
        "help, quit (Ctrl-D and Ctrl-C also quit; the game is saved).",
        "Введите карту: достоинство и масть, например 10ч, дп, тт (туз треф), К♥; "
        "или команду: карты, счёт, помощь, выход (Ctrl-D и Ctrl-C тоже выходят, "
        "запись партии сохраняется).",
    ),
    "terminal.help_emperor": (
        "Type a card (10H, QS, AC) or: pass, swap N, offer N, accept, refuse, yield, "
        "trump S/H/D/C or trump NT; hand, score, help, quit (Ctrl-D and Ctrl-C also quit; "
        "the game is saved).",
        "Введите карту (10ч, дп, тт — туз треф) или: пас, обмен N, откуп N, принять, "
        "отказать, уступить, козырь ч/п/б/т или козырь бк (бескозырка); карты, счёт, "
        "помощь, выход (Ctrl-D и Ctrl-C тоже выходят, запись партии сохраняется).",
    ),
    "terminal.latin_t": (
        "T is a Latin letter: the ace is A (or the Cyrillic Т), the ten is 10 or T.",
        "T — латинская буква; туз — русская Т или A, трефы — русская Т или C, десятка — 10.",
    ),
    "terminal.not_in_hand": ("you do not hold {card}", "у вас нет карты {card}"),
    "terminal.play_a_card": (
        "it is your turn to play a card",
        "сейчас ваш ход: сыграйте карту",
    ),
    "terminal.rule_I7": (
        "follow suit; with none of it, play a trump",
        "ходить нужно в масть, а без масти — козырем",
    ),
    "terminal.rule_E5": (
        "follow suit; with none of it, play a trump",
        "ходить нужно в масть, а без масти — козырем",
    ),
    "terminal.rule_E10": (
        "follow suit; with none of it, play a trump",
        "ходить нужно в масть, а без масти — козырем",
    ),
    "terminal.rule_E7": (
        "King may take anyone's hand, Prince the Soldier's or Jester's, Soldier the Jester's",
        "Король забирает карты у любого, Принц — у Солдата или Скомороха, Солдат — "
        "у Скомороха; или пас",
    ),
    "terminal.rule_E8": (
        "an offer is 1-3 tricks of your game total, more than the last; or yield",
        "откуп — 1, 2 или 3 взятки из вашего счёта, каждый раз больше прежнего; или уступить",
    ),
    "terminal.rule_E9": (
        "the King names trump: a suit or no trumps",
        "Король называет козырь: козырь ч, п, б, т или козырь бк (бескозырка)",
    ),
    "terminal.rule_E4": ("the game is over", "игра окончена"),
    "terminal.rule_E1": ("no such action", "такого хода нет"),
    "terminal.rule_I12": ("the game is over", "игра окончена"),
    "terminal.rule_I1": ("no such card in this game", "такой карты в этой игре нет"),
    "terminal.rule_I5": ("the deal is not made yet", "карты ещё не сданы"),
    "terminal.bad_input": (
        "{text!r} is not a card or a choice",
        "не понимаю «{text}»: введите карту, например 10ч, дп или Т♣, или команду "
        "(«помощь» покажет все)",
    ),
    "terminal.broken_rule": ("{why} (rule {rule})", "{why} (правило {rule})"),
    "terminal.hand": ("Your hand", "Ваши карты"),
    "terminal.trump": ("Trump", "Козырь"),
    "terminal.no_trump": ("no trumps", "бескозырка"),
    "terminal.turnup": ("Turn-up", "Вскрыт"),
    "terminal.trump_card": ("Dealer's trump card", "Последняя карта сдатчика"),
    "terminal.dealer": ("Dealer", "Сдатчик"),
    "terminal.trick": ("Trick", "Взятка"),
    "terminal.on_table": ("On the table", "На столе"),
    "terminal.shown_by": ("{name} has shown", "Открыты карты {name:gen}"),
    "terminal.known_of": ("You know of {name}", "Вам известны карты {name:gen}"),
    "terminal.status_imperial": (
        "imperials {imperials}, points {points}",
        "империалы {imperials}, очки {points}",
    ),
    "terminal.status_emperor": (
        "tricks {tricks}, game total {total}",
        "взятки {tricks}, всего {total}",
    ),
    "terminal.place": ("Place", "Место"),
    "terminal.trump_not_named": ("not named yet", "ещё не назначен"),
    "terminal.your_title": ("You are the {title}", "Вы — {title}"),
    "terminal.tricks": ("Tricks", "Взятки"),
    "terminal.legal": ("Legal", "Можно"),
    "terminal.scores": ("Scores", "Счёт"),
    "terminal.imperials": ("Imperials", "Империалы"),
    "terminal.points": ("Points", "Очки"),
    "terminal.player": ("Player", "Игрок"),
    "terminal.title": ("Title", "Звание"),
    "terminal.total": ("Total", "Всего"),
    "terminal.round": ("Round {n}", "Тур {n}"),
    "terminal.deal": ("Deal {n}", "Сдача {n}"),
    "terminal.record_saved": ("Game record saved: {path}", "Запись партии сохранена: {path}"),
    "terminal.seed_not_secret": (
        "Seed {seed} was given: it is not secret, whoever knows it knows every deal.",
        "Задан ключ сдач {seed}: он не тайный, и кто его знает, знает все сдачи.",
    ),
    "terminal.game_over": ("Game over", "Игра окончена"),
    "terminal.winner": ("{name} wins", "Победитель: {name}"),
    "terminal.quit": ("You left the game.", "Вы вышли из игры."),
    "terminal.waiting_deal": (
        "The record needs a deal it does not hold.",
        "Для продолжения нужна сдача, которой нет в записи.",
    ),
    "terminal.standing": ("Final standing", "Итоговые места"),
    "terminal.prompt_action": ("Your choice", "Ваш выбор"),
    "terminal.choices": ("Choices", "Варианты"),
    "terminal.ask_swap": (
        "Exchange: take another player's hand (swap N), or keep yours (pass)",
        "Обмен: забрать карты у игрока (обмен N) или оставить свои (пас)",
    ),
    "terminal.ask_offer": (
        "{name} wants your hand: buy it off with tricks (offer K) or give in (yield)",
        "Откупиться от {name:gen} взятками (откуп N) или уступить?",
    ),
    "terminal.ask_accept": (
        "{name} offers {tricks} to keep the hand: accept or refuse?",
        "Принять откуп от {name:gen} ({tricks}) или отказать?",
    ),
    "terminal.ask_trump": (
        "You are King: name trump (trump S, H, D, C) or no trumps (trump NT)",
        "Вы — Король: назовите козырь (козырь ч, п, б, т) или бескозырку (козырь бк)",
    ),
}
