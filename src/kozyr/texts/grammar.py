"""Words that change with a count or a case: counted units, and the seat names the
terminal makes with their declined forms (:mod:`kozyr.texts.render` uses them)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # A number with its noun: "1 trick", "4 очка" (kozyr.i18n.count).
    "grammar.count.point": ("{n} {n:point|points}", "{n} {n:очко|очка|очков}"),
    "grammar.count.trick": ("{n} {n:trick|tricks}", "{n} {n:взятка|взятки|взяток}"),
    "grammar.count.card": ("{n} {n:card|cards}", "{n} {n:карта|карты|карт}"),
    "grammar.count.imperial": (
        "{n} {n:imperial|imperials}",
        "{n} {n:империал|империала|империалов}",
    ),
    "grammar.count.chip": ("{n} {n:chip|chips}", "{n} {n:фишка|фишки|фишек}"),
    # The person at the terminal, and the forms of "you" by case (English: the object).
    "grammar.you": ("You", "Вы"),
    "grammar.you.gen": ("you", "вас"),
    "grammar.you.dat": ("you", "вам"),
    "grammar.you.ins": ("you", "вами"),
    # The other seats' names the terminal makes, by case (English does not decline them).
    "grammar.computer": ("Computer {n}", "Компьютер {n}"),
    "grammar.computer.gen": ("Computer {n}", "Компьютера {n}"),
    "grammar.computer.dat": ("Computer {n}", "Компьютеру {n}"),
    "grammar.computer.ins": ("Computer {n}", "Компьютером {n}"),
    "grammar.player": ("Player {n}", "Игрок {n}"),
    "grammar.player.gen": ("Player {n}", "Игрока {n}"),
    "grammar.player.dat": ("Player {n}", "Игроку {n}"),
    "grammar.player.ins": ("Player {n}", "Игроком {n}"),
}
