"""Imperial in the terminal (:mod:`kozyr.terminal.imperial_view`): its events in words,
the seed's words where it has them."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # Score reasons, keyed by the engine's own name of the reason.
    "imperial_view.reason.turnup": ("an honour turned up", "вскрыт онер"),
    "imperial_view.reason.imperials": ("imperials", "хвалёж империалами"),
    "imperial_view.reason.point": ("the point", "хвалёж мастью"),
    "imperial_view.reason.honours": ("honours in hand", "онеры на руках"),
    "imperial_view.reason.honour led": ("leading an honour", "ход онером"),
    "imperial_view.reason.honour heads the trick": (
        "an honour that beats the trick",
        "ход перекрыт онером",
    ),
    "imperial_view.reason.imperial tombé": ("imperial tombé", "империал томбе"),
    "imperial_view.reason.capot": ("capot: all 12 tricks", "капот: все 12 взяток"),
    "imperial_view.reason.tricks": ("more than six tricks", "больше шести взяток"),
    "imperial_view.reason.24 points": ("24 points", "набрано 24 очка"),
    "imperial_view.reason.white imperial": ("white imperial", "белый империал"),
    # An imperial declared, by kind and count (2: a suit imperial in trumps, or white);
    # {turned} is "imperial_view.turned" or nothing.
    "imperial_view.suit.1": ("suit imperial{turned}", "империал в масти{turned}"),
    "imperial_view.suit.2": ("suit imperial{turned} ×2", "империал в козырях (за два){turned}"),
    "imperial_view.white.1": ("white imperial{turned}", "белый империал{turned}"),
    "imperial_view.white.2": ("white imperial{turned} ×2", "белый империал{turned}"),
    # Four of a kind, by rank: "четыре дамы" (the engine has no other fours).
    "imperial_view.four": ("four of a kind{turned}", "четыре одного достоинства{turned}"),
    "imperial_view.four.14": ("four of a kind{turned}", "четыре туза{turned}"),
    "imperial_view.four.13": ("four of a kind{turned}", "четыре короля{turned}"),
    "imperial_view.four.12": ("four of a kind{turned}", "четыре дамы{turned}"),
    "imperial_view.four.11": ("four of a kind{turned}", "четыре валета{turned}"),
    "imperial_view.four.7": ("four of a kind{turned}", "четыре семёрки{turned}"),
    "imperial_view.four.6": ("four of a kind{turned}", "четыре шестёрки{turned}"),
    # Any other kind or count (none the engine makes), by the engine's word.
    "imperial_view.other": ("{kind}{turned}", "{kind}{turned}"),
    "imperial_view.other_times": ("{kind}{turned} ×{n}", "{kind}{turned} ×{n}"),
    "imperial_view.turned": (" (turned)", " (вскрытый)"),
    # Events.
    "imperial_view.white_imperial": (
        "{who}: white imperial! {cards}",
        "{who}: белый империал! {cards}",
    ),
    "imperial_view.turnup": (
        "{who}: an honour is turned up: {cards}",
        "{who}: вскрыт онер {cards}",
    ),
    "imperial_view.not_marked": (
        "{who}: {imperials}, fewer: not marked",
        "{who}: {imperials} — меньше, чем у соперника, не в счёт",
    ),
    "imperial_view.imperials": ("{who}: imperials: {list}", "{who}: хвалёж империалами — {list}"),
    "imperial_view.point": (
        "{who}: point in {suit}, {length}, value {value}",
        "{who}: хвалёж мастью — {suit}, {length}, {value} {value:очко|очка|очков}",
    ),
    "imperial_view.honours": (
        "{who}: {n:honours|honours} {cards}",
        "{who}: {n:онер|онеры|онеры} {cards}",
    ),
    "imperial_view.score_total": (
        "{who}: {gained} ({reason}); {total} in all",
        "{who}: {gained} ({reason}); всего {total} {total:очко|очка|очков}",
    ),
    # The seed says a player "маркирует" an imperial; at the table he writes it down
    # ("записывает"), as every score is written.
    "imperial_view.mark": (
        "{who} {who:marks|mark} {n} {n:imperial|imperials} ({reason}); {total} in all",
        "{who}: {n:записан|записано|записано} {n} {n:империал|империала|империалов} "
        "({reason}); всего {total} {total:империал|империала|империалов}",
    ),
    # The seed: "все очки противника ... уничтожаются"; a card player says they burn.
    "imperial_view.wipe": (
        "{who}: {lost} wiped ({by} marked an imperial)",
        "У {who:gen} сгорело {lost}: империал у {by:gen}",
    ),
    "imperial_view.capture": (
        "{who} {who:captures|capture} {card} with {by} (tombé)",
        "{who}: {by} берёт {card} (томбе)",
    ),
    "imperial_view.no_play": ("No play in this deal.", "Сдача без розыгрыша."),
    "imperial_view.tricks": ("Tricks: {list}", "Взятки: {list}"),
}
