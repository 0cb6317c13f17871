"""Rule refusals: every code a rules engine, the card parser or a record raises, with its
English and Russian message. :mod:`kozyr.messages` renders them (each parameter by its
kind: a card as ``Q♠`` / ``Д♠``, a suit as ``spades`` / ``пики``) and writes this table,
in this order, for the page (``web/static/js/rule_messages.js``): every key here is
``rules.`` and a refusal code, nothing else."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # Turns and phases (I5, I12, E4).
    "rules.game_over": ("The game is over", "Игра окончена"),
    "rules.waiting_for_deal": (
        "No deal is in play: the game waits for the next deal",
        "Сдача ещё не роздана: игра ждёт следующей сдачи",
    ),
    "rules.not_your_turn": ("It is not your turn", "Сейчас не ваш ход"),
    "rules.not_an_action": ("There is no action {action}", "Нет такого хода: {action}"),
    # Cards as typed (kozyr.cards raises and renders these itself).
    "rules.bad_card_text": (
        "“{text}” is not a card: write a rank and a suit, like 10H or QS",
        "«{text}» — не карта: напишите достоинство и масть, например 10♥ или Д♠",
    ),
    "rules.bad_suit_text": (
        "“{text}” is not a suit: write S, H, D or C (or ♠ ♥ ♦ ♣)",
        "«{text}» — не масть: напишите П, Ч, Б или Т (или ♠ ♥ ♦ ♣)",
    ),
    "rules.card_twice": ("{card} is given twice", "{card} указана дважды"),
    "rules.not_in_deck": (
        "There are no {ranks} in the {deck}-card deck",
        "В колоде из {deck} карт нет {ranks}",
    ),
    # Card play (I7, E5, E10).
    "rules.not_in_hand": ("You do not hold {card}", "У вас нет {card}"),
    "rules.must_follow": (
        "You hold {suit}, the suit led, so you must follow suit",
        "Масть хода — {suit}, и она у вас есть, значит, нужно ходить в масть",
    ),
    "rules.must_trump": (
        "You have no {led} but you hold a trump ({trump}), so you must trump",
        "Масти хода ({led}) у вас нет, а козырь ({trump}) есть, значит, нужно бить козырем",
    ),
    "rules.must_beat": (
        "At this table you must head the trick when you can: beat {best} ({cards})",
        "За этим столом взятку нужно перебивать, когда можете: перебейте {best} ({cards})",
    ),
    "rules.must_play_card": (
        "It is your turn to play a card, not “{action}”",
        "Сейчас нужно ходить картой, а не «{action}»",
    ),
    # Emperor's exchange, bargaining and trump (E7, E8, E9).
    "rules.swap_not_allowed": (
        "You are the {title}: you may take only the hand of a lower title ({titles})",
        "Вы — {title}: можно взять карты только у младших званий ({titles})",
    ),
    "rules.swap_or_pass": (
        "It is the exchange: swap (you may take {targets}) or pass, not “{action}”",
        "Сейчас обмен: меняйтесь (можно: {targets}) или пасуйте, а не «{action}»",
    ),
    "rules.answer_offer": (
        "Accept or refuse the offer of {tricks} {tricks:trick|tricks}, not “{action}”",
        "Примите или отклоните откуп ({tricks} {tricks:взятка|взятки|взяток}), а не «{action}»",
    ),
    "rules.offer_or_yield": (
        "You were named for a swap: offer tricks or give in, not “{action}”",
        "У вас требуют обмена: предложите откуп или уступите, а не «{action}»",
    ),
    "rules.offer_too_low": (
        "An offer must be more than the last one ({last})",
        "Откуп должен быть больше прежнего ({last})",
    ),
    "rules.offer_too_high": (
        "An offer is at most {max} {max:trick|tricks}",
        "Откуп — не больше {max} {max:взятки|взяток|взяток}",
    ),
    "rules.offer_over_total": (
        "You have only {total} {total:trick|tricks} in your game total",
        "На вашем счету всего {total} {total:взятка|взятки|взяток}",
    ),
    "rules.name_trump": (
        "You are the King: name trump (S, H, D, C or NT), not “{action}”",
        "Вы — Король: назовите козырь (П, Ч, Б, Т или БК), а не «{action}»",
    ),
    "rules.bad_swap_text": (
        "“{text}”: a swap names a seat 0-{max}, like “swap 2”",
        "«{text}»: для обмена укажите место 0-{max}, например «swap 2»",
    ),
    "rules.bad_offer_text": (
        "“{text}”: an offer is 1, 2 or 3 tricks, like “offer 2”",
        "«{text}»: откуп — 1, 2 или 3 взятки, например «offer 2»",
    ),
    # Records (kozyr.records): a record that cannot be replayed; the detail is English.
    "rules.bad_record": (
        "The record cannot be replayed: {detail}",
        "Запись игры не воспроизводится: {detail}",
    ),
    "rules.bad_trump_text": (
        "“{text}”: name a suit S, H, D, C (or ♠ ♥ ♦ ♣) or NT",
        "«{text}»: назовите масть П, Ч, Б, Т (или ♠ ♥ ♦ ♣) или БК",
    ),
}
