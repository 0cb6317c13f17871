"""Emperor's markets for spectators (B4, by analogy with Imperial's "first imperial,
number of tricks").

Game market: who becomes Emperor (first in the final standing, E12). For every round N:
who is King after it (E6); from round 2, whether the King of round N takes more than
half of its 13 tricks (over/under 6.5, E2); from the first round with bargaining (E8),
whether a bargain is struck in it (a taker accepts an offer).

>>> [m.id for m in CATALOGUE.markets(4, players=4, options=EmperorOptions())]
['round.4.king_after', 'round.4.king_tricks', 'round.4.bargain']
>>> CATALOGUE.markets(11, players=4, options=EmperorOptions())
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kozyr.games.emperor.options import EmperorOptions
from kozyr.games.markets import Event, Market, market, seat_outcomes

__all__ = ["CATALOGUE", "TRICKS_PER_ROUND"]

TRICKS_PER_ROUND = 13
"""13 cards each with 3 or 4 players (E2)."""


def _round_of(events: Sequence[Event], i: int) -> Event | None:
    for e in reversed(events[: i + 1]):
        if e.get("type") == "deal":
            return e
    return None


class EmperorMarkets:
    def markets(self, scope: int, players: int, options: Any) -> list[Market]:
        opts = options if isinstance(options, EmperorOptions) else EmperorOptions(players=players)
        seats = seat_outcomes(players)
        if scope == 0:
            return [
                market(
                    "game.emperor",
                    "emperor",
                    0,
                    seats,
                    {},
                    "markets.emperor.emperor",
                )
            ]
        n = scope
        if n > opts.rounds:
            return []
        out = [
            market(
                f"round.{n}.king_after",
                "king_after",
                n,
                seats,
                {"round": n},
                "markets.emperor.king_after",
            )
        ]
        if n >= 2:
            out.append(
                market(
                    f"round.{n}.king_tricks",
                    "king_tricks",
                    n,
                    ("over", "under"),
                    {"round": n, "line": TRICKS_PER_ROUND // 2},
                    "markets.emperor.king_tricks",
                )
            )
        if n >= opts.bargain_from:
            out.append(
                market(
                    f"round.{n}.bargain",
                    "bargain",
                    n,
                    ("yes", "no"),
                    {"round": n},
                    "markets.emperor.bargain",
                )
            )
        return out

    def decide(self, market: Market, events: Sequence[Event], i: int) -> str | None:
        e = events[i]
        kind = e.get("type")
        if market.kind == "emperor":
            return f"seat:{e['places'][0]}" if kind == "game_over" else None
        n = market.scope
        if market.kind == "bargain":
            deal = _round_of(events, i)
            if kind == "accept" and deal is not None and deal["number"] == n:
                return "yes"
            return "no" if kind == "deal_end" and e["number"] == n else None
        if kind != "deal_end" or e["number"] != n:
            return None
        if market.kind == "king_after":
            return f"seat:{e['titles'].index('king')}"
        if market.kind == "king_tricks":
            deal = _round_of(events, i)
            assert deal is not None and deal.get("titles") is not None
            king = deal["titles"].index("king")
            return "over" if 2 * e["tricks"][king] > TRICKS_PER_ROUND else "under"
        raise ValueError(f"not an Emperor market: {market.kind}")


CATALOGUE = EmperorMarkets()
