"""Spectators' markets (B4): each market's question, by game and market kind
(:class:`kozyr.games.markets.Market`'s ``title``). ``{deal}`` and ``{round}`` are the
numbers of the deal or round asked about, ``{seat}`` counts from 1."""

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
        "Deal {deal}: tricks of seat {seat}",
        "Сдача {deal}: взятки места {seat}",
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
}
