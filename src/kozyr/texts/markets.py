"""Spectators' markets (B4): each market's question, by game and market kind
(:class:`kozyr.games.markets.Market`'s ``title``). ``{deal}`` and ``{round}`` are the
numbers of the deal or round asked about; ``{player}`` is the player a market asks about,
by his name where the table knows it (else "Player N", :func:`kozyr.games.markets.question`).
The ``markets.outcome.*`` are the answers in words (a seat's answer is its player's name)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "markets.imperial.winner": ("Who wins the game", "Кто выиграет партию"),
    "markets.imperial.first_mark": (
        "Who marks the first imperial",
        "Кто первым запишет империал",
    ),
    "markets.imperial.deal_first_mark": (
        "Deal {deal}: who marks the first imperial",
        "Сдача {deal}: кто первым запишет империал",
    ),
    "markets.imperial.tricks": (
        "Deal {deal}: how many tricks {player} takes",
        "Сдача {deal}: сколько взяток возьмёт {player}",
    ),
    "markets.imperial.capot": ("Deal {deal}: a capot", "Сдача {deal}: капот"),
    "markets.emperor.emperor": ("Who becomes Emperor", "Кто станет Императором"),
    "markets.emperor.king_after": (
        "Who is King after round {round}",
        "Кто будет Королём после тура {round}",
    ),
    "markets.emperor.king_tricks": (
        "Round {round}: the King takes over or under 6.5 tricks",
        "Тур {round}: Король возьмёт больше или меньше 6,5 взятки",
    ),
    "markets.emperor.bargain": (
        "Round {round}: a bargain is struck",
        "Тур {round}: состоится откуп",
    ),
    # The answers (kozyr.games.markets.Market.outcomes) in words; a bucket of tricks
    # ("4-6") is markets.outcome.tricks, its noun agreeing with the last number.
    "markets.outcome.yes": ("yes", "да"),
    "markets.outcome.no": ("no", "нет"),
    "markets.outcome.over": ("over", "больше"),
    "markets.outcome.under": ("under", "меньше"),
    "markets.outcome.nobody": ("nobody", "никто"),
    "markets.outcome.tricks": (
        "{range} {last:trick|tricks}",
        "{range} {last:взятка|взятки|взяток}",
    ),
}
