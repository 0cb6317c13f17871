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
    "help_imperial": (
        "Type a card: rank and suit, like 10H, QS, AC (TH is the ten), or: hand, score, "
        "help, quit (Ctrl-D and Ctrl-C also quit; the game is saved).",
        "Введите карту: достоинство и масть, например 10ч, дп, тт (туз треф), К♥; "
        "или команду: карты, счёт, помощь, выход (Ctrl-D и Ctrl-C тоже выходят, "
        "запись партии сохраняется).",
    ),
    "help_emperor": (
        "Type a card (10H, QS, AC) or: pass, swap N, offer N, accept, refuse, yield, "
        "trump S/H/D/C or trump NT; hand, score, help, quit (Ctrl-D and Ctrl-C also quit; "
        "the game is saved).",
        "Введите карту (10ч, дп, тт — туз треф) или: пас, обмен N, откуп N, принять, "
        "отказать, уступить, козырь ч/п/б/т или козырь бк (бескозырка); карты, счёт, "
        "помощь, выход (Ctrl-D и Ctrl-C тоже выходят, запись партии сохраняется).",
    ),
    "latin_t": (
        "T is a Latin letter: the ace is A (or the Cyrillic Т), the ten is 10 or T.",
        "T — латинская буква; туз — русская Т или A, трефы — русская Т или C, десятка — 10.",
    ),
    "not_in_hand": ("you do not hold {card}", "у вас нет карты {card}"),
    "play_a_card": ("it is your turn to play a card", "сейчас ваш ход: сыграйте карту"),
    "rule_I7": (
        "follow suit; with none of it, play a trump",
        "ходить нужно в масть, а без масти — козырем",
    ),
    "rule_E5": (
        "follow suit; with none of it, play a trump",
        "ходить нужно в масть, а без масти — козырем",
    ),
    "rule_E10": (
        "follow suit; with none of it, play a trump",
        "ходить нужно в масть, а без масти — козырем",
    ),
    "rule_E7": (
        "King may take anyone's hand, Prince the Soldier's or Jester's, Soldier the Jester's",
        "Король забирает карты у любого, Принц — у Солдата или Скомороха, Солдат — "
        "у Скомороха; или пас",
    ),
    "rule_E8": (
        "an offer is 1-3 tricks of your game total, more than the last; or yield",
        "откуп — 1, 2 или 3 взятки из вашего счёта, каждый раз больше прежнего; или уступить",
    ),
    "rule_E9": (
        "the King names trump: a suit or no trumps",
        "Король называет козырь: козырь ч, п, б, т или козырь бк (бескозырка)",
    ),
    "rule_E4": ("the game is over", "игра окончена"),
    "rule_E1": ("no such action", "такого хода нет"),
    "rule_I12": ("the game is over", "игра окончена"),
    "rule_I1": ("no such card in this game", "такой карты в этой игре нет"),
    "rule_I5": ("the deal is not made yet", "карты ещё не сданы"),
    "you": ("You", "Вы"),
    "bad_input": (
        "{text!r} is not a card or a choice",
        "не понимаю «{text}»: введите карту, например 10ч, дп или Т♣, или команду "
        "(«помощь» покажет все)",
    ),
    "broken_rule": ("{why} (rule {rule})", "{why} (правило {rule})"),
    "computer": ("Computer {n}", "Компьютер {n}"),
    "hand": ("Your hand", "Ваши карты"),
    "trump": ("Trump", "Козырь"),
    "no_trump": ("no trumps", "бескозырка"),
    "turnup": ("Turn-up", "Вскрыт"),
    "trump_card": ("Dealer's trump card", "Последняя карта сдатчика"),
    "dealer": ("Dealer", "Сдатчик"),
    "trick": ("Trick", "Взятка"),
    "on_table": ("On the table", "На столе"),
    "shown_by": ("{name} has shown", "Открыты карты {name}"),
    "known_of": ("You know of {name}", "Вам известны карты {name}"),
    "status_imperial": (
        "imperials {imperials}, points {points}",
        "империалы {imperials}, очки {points}",
    ),
    "status_emperor": ("tricks {tricks}, game total {total}", "взятки {tricks}, всего {total}"),
    "place": ("Place", "Место"),
    "trump_not_named": ("not named yet", "ещё не назначен"),
    "your_title": ("You are the {title}", "Вы — {title}"),
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
    # kozyr ledger check (docs/chips.md)
    "ledger_ok": (
        "The ledger is consistent: {accounts} accounts, all balances sum to 0, and each "
        "equals the sum of its journal entries.",
        "Учёт фишек сходится: счетов {accounts}, сумма всех балансов 0, и каждый баланс "
        "равен сумме проводок его счёта.",
    ),
    "ledger_bad": ("The ledger is NOT consistent:", "Учёт фишек НЕ сходится:"),
    "ledger_total": (
        "all {accounts} balances sum to {total}, not 0",
        "сумма всех балансов ({accounts}) равна {total}, а не 0",
    ),
    "ledger_account": (
        "{account}: balance {balance}, journal sum {journal} (off by {diff})",
        "{account}: баланс {balance}, сумма проводок {journal} (расхождение {diff})",
    ),
    "ledger_no_database": (
        "No database at {path}: give --data or --database.",
        "Базы данных нет: {path}; укажите --data или --database.",
    ),
    "ledger_unreadable": (
        "The ledger cannot be read: {error}",
        "Учёт фишек не читается: {error}",
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
    # kozyr play --stake: a local tally (kozyr.terminal.tally)
    "stake_per_game": ("{chips} per game", "{chips} за партию"),
    "stake_per_imperial": (
        "{chips} per imperial short of the target",
        "{chips} за каждый недостающий до цели империал",
    ),
    "stake_per_place": ("{chips} per place", "{chips} за место"),
    "stake_per_trick": (
        "{chips} per trick of difference in the totals (at most 10 a pair)",
        "{chips} за каждую взятку разницы в счёте (не больше 10 с пары)",
    ),
    "stake_playing": (
        "Playing for stakes: {terms}. A local tally: no chips move anywhere.",
        "Игра на ставку: {terms}. Счёт ведётся только здесь, фишки никуда не переводятся.",
    ),
    "stake_settled": ("Stakes ({terms}):", "Расчёт по ставке ({terms}):"),
    "stake_pays": ("{payer} {verb} {payee}: {chips}", "{payer} {verb} {payee}: {chips}"),
    "stake_nobody_pays": ("nobody pays anyone", "никто никому не платит"),
    "stake_net": ("Net: {list}", "Итог: {list}"),
    "stake_session": ("Games played: {n}. Session total:", "Сыграно партий: {n}. Итог сессии:"),
    "stake_err_bad_stake": (
        "write the stake as KIND:S ({kinds}), not {text!r}",
        "ставку пишут как ВИД:S ({kinds}), а не «{text}»",
    ),
    "stake_err_bad_stake_kind": (
        "the stake kind in {game} is one of {kinds}, not {kind!r}",
        "вид ставки в игре {game}: {kinds}, а не «{kind}»",
    ),
    "stake_err_stake_wrong_game": (
        "{kind} is a stake of {other}, not of {game} ({kinds})",
        "{kind} — ставка игры {other}, а не {game} ({kinds})",
    ),
    "stake_err_bad_stake_chips": (
        "S is a whole number of chips from 1 to {most}, not {chips!r}",
        "S — целое число фишек от 1 до {most}, а не «{chips}»",
    ),
    "stake_unsettled": (
        "The game was not finished: no stakes change hands.",
        "Партия не окончена: по ставке никто не платит.",
    ),
    "choices": ("Choices", "Варианты"),
    "ask_swap": (
        "Exchange: take another player's hand (swap N), or keep yours (pass)",
        "Обмен: забрать карты у игрока (обмен N) или оставить свои (пас)",
    ),
    "ask_offer": (
        "{name} wants your hand: buy it off with tricks (offer K) or give in (yield)",
        "Откупиться от {name_gen} взятками (откуп N) или уступить?",
    ),
    "ask_accept": (
        "{name} offers {tricks} to keep the hand: accept or refuse?",
        "Принять откуп от {name_gen} ({tricks}) или отказать?",
    ),
    "ask_trump": (
        "You are King: name trump (trump S, H, D, C) or no trumps (trump NT)",
        "Вы — Король: назовите козырь (козырь ч, п, б, т) или бескозырку (козырь бк)",
    ),
}


def t(key: str, lang: Lang = "en", **kwargs: object) -> str:
    """The message ``key`` in ``lang``, filled with ``kwargs``."""
    en, ru = MESSAGES[key]
    return (ru if lang == "ru" else en).format(**kwargs)


def ru_plural(n: int, one: str, few: str, many: str) -> str:
    """The Russian word form for a count: 1 карта, 2 карты, 5 карт, 21 карта, 11 карт.

    The one plural rule of the project: it also chooses verb and participle forms that
    agree with a count ("1 взятка переходит", "2 взятки переходят").

    >>> [ru_plural(n, "карта", "карты", "карт") for n in (1, 3, 5, 11, 21, 22, 40)]
    ['карта', 'карты', 'карт', 'карт', 'карта', 'карты', 'карт']
    """
    n = abs(n)
    if n % 10 == 1 and n % 100 != 11:
        return one
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return few
    return many


# The words counted in the terminal: (English singular, English plural, Russian 1, 2-4, 5-20).
UNITS: dict[str, tuple[str, str, str, str, str]] = {
    "point": ("point", "points", "очко", "очка", "очков"),
    "trick": ("trick", "tricks", "взятка", "взятки", "взяток"),
    "card": ("card", "cards", "карта", "карты", "карт"),
    "imperial": ("imperial", "imperials", "империал", "империала", "империалов"),
    "chip": ("chip", "chips", "фишка", "фишки", "фишек"),
}


def count(n: int, unit: str, lang: Lang = "en") -> str:
    """A number with its noun in the right form: "+4 очка", "2 взятки", "1 trick".

    >>> count(4, "point", "ru"), count(21, "trick", "ru"), count(1, "trick"), count(5, "card")
    ('4 очка', '21 взятка', '1 trick', '5 cards')
    """
    en_one, en_many, one, few, many = UNITS[unit]
    if lang == "ru":
        return f"{n} {ru_plural(n, one, few, many)}"
    return f"{n} {en_one if abs(n) == 1 else en_many}"


def decimal(x: float, lang: Lang = "en", digits: int = 1) -> str:
    """A number with ``digits`` decimals, written as a reader of ``lang`` expects: a
    decimal comma in Russian (as the page writes it), a point in English.

    >>> decimal(4.56, "ru"), decimal(4.56), decimal(94.0, "ru"), decimal(-0.25, "ru", 2)
    ('4,6', '4.6', '94,0', '-0,25')
    """
    text = f"{x:.{digits}f}"
    return text.replace(".", ",") if lang == "ru" else text


# Seat names the terminal makes itself, declined: nominative -> (genitive, instrumental).
# A person's own name (from a server record) is left as it is: it cannot be declined
# safely without knowing it.
_YOU_RU = ("Вы", "вас", "вам", "вами")
_DECLINED = {
    "Компьютер": ("Компьютера", "Компьютеру", "Компьютером"),
    "Игрок": ("Игрока", "Игроку", "Игроком"),
}
_CASES = ("gen", "dat", "ins")


def ru_case(name: str, case: str) -> str:
    """A seat's name in the genitive (``"gen"``: у Компьютера 3, от Игрока 2, у вас),
    dative (``"dat"``: к Компьютеру 1, к вам) or instrumental (``"ins"``: с вами).

    >>> ru_case("Компьютер 3", "gen"), ru_case("Игрок 2", "gen"), ru_case("Вы", "gen")
    ('Компьютера 3', 'Игрока 2', 'вас')
    >>> ru_case("Компьютер 1", "dat"), ru_case("Вы", "ins"), ru_case("Маша", "gen")
    ('Компьютеру 1', 'вами', 'Маша')
    """
    index = _CASES.index(case)
    if name == _YOU_RU[0]:
        return _YOU_RU[1 + index]
    word, _, rest = name.partition(" ")
    forms = _DECLINED.get(word)
    if forms is None or not rest.isdigit():
        return name
    return f"{forms[index]} {rest}"


def is_you(name: str) -> bool:
    """Whether a seat name is the person at the terminal (verbs then take the plural)."""
    return name in ("Вы", "You")


def ru_verb(name: str, singular: str, plural: str) -> str:
    """The verb form agreeing with a seat name: "Вы берёте", "Компьютер 1 берёт"."""
    return plural if is_you(name) else singular


def default_lang() -> Lang:
    """Russian when the environment's locale is Russian, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "ru" if value.lower().startswith("ru") else "en"
    return "en"
