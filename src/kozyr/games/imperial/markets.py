"""Imperial's markets for spectators (B4): "betting on the first imperial, the number of
tricks", as the seed says.

Game markets: the winner (I12) and who marks the first imperial of the game. For every
deal: who marks the first imperial in it (or nobody), each player's tricks in buckets
(0-3, 4-6, 7-11, capot 12: I10), and whether anyone makes capot. A white deal (I11) has
no play, so its trick and capot markets are void.

>>> [m.id for m in CATALOGUE.markets(2, players=2, options=None)]
['deal.2.first_mark', 'deal.2.tricks.0', 'deal.2.tricks.1', 'deal.2.capot']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kozyr.games.markets import VOID, Event, Market, market, seat_outcomes

__all__ = ["CATALOGUE", "TRICK_BUCKETS", "bucket"]

TRICK_BUCKETS: tuple[tuple[str, int, int], ...] = (
    ("0-3", 0, 3),
    ("4-6", 4, 6),
    ("7-11", 7, 11),
    ("12", 12, 12),
)
"""(outcome, fewest, most tricks) of a player's tricks in a deal of 12 (I5)."""


def bucket(tricks: int) -> str:
    """>>> bucket(6), bucket(7), bucket(12)
    ('4-6', '7-11', '12')"""
    return next(name for name, lo, hi in TRICK_BUCKETS if lo <= tricks <= hi)


def deal_of(events: Sequence[Event], i: int) -> int:
    """The number of the deal that ``events[i]`` belongs to (0 before the first deal)."""
    for e in reversed(events[: i + 1]):
        if e.get("type") == "deal":
            return int(e["number"])
    return 0


class ImperialMarkets:
    def markets(self, scope: int, players: int, options: Any) -> list[Market]:
        seats = seat_outcomes(players)
        if scope == 0:
            return [
                market(
                    "game.winner",
                    "winner",
                    0,
                    seats,
                    {},
                    "markets.imperial.winner",
                ),
                market(
                    "game.first_mark",
                    "first_mark",
                    0,
                    seats,
                    {},
                    "markets.imperial.first_mark",
                ),
            ]
        n = scope
        out = [
            market(
                f"deal.{n}.first_mark",
                "deal_first_mark",
                n,
                (*seats, "nobody"),
                {"deal": n},
                "markets.imperial.deal_first_mark",
            )
        ]
        buckets = tuple(name for name, _, _ in TRICK_BUCKETS)
        for s in range(players):
            out.append(
                market(
                    f"deal.{n}.tricks.{s}",
                    "tricks",
                    n,
                    buckets,
                    {"deal": n, "seat": s},
                    "markets.imperial.tricks",
                )
            )
        out.append(
            market(
                f"deal.{n}.capot",
                "capot",
                n,
                ("yes", "no"),
                {"deal": n},
                "markets.imperial.capot",
            )
        )
        return out

    def decide(self, market: Market, events: Sequence[Event], i: int) -> str | None:
        e = events[i]
        kind = e.get("type")
        if market.kind == "winner":
            return f"seat:{e['winner']}" if kind == "game_over" else None
        if market.kind == "first_mark":
            return f"seat:{e['seat']}" if kind == "mark" else None
        n = market.scope
        if market.kind == "deal_first_mark":
            if kind == "mark" and deal_of(events, i) == n:
                return f"seat:{e['seat']}"
            if kind == "deal_end" and e["number"] == n:
                return "nobody"
            return None
        if kind != "deal_end" or e["number"] != n:
            return None
        tricks = e["tricks"]
        if tricks is None:
            return VOID  # a white deal is not played (I11)
        if market.kind == "tricks":
            return bucket(tricks[market.params["seat"]])
        if market.kind == "capot":
            return "yes" if max(tricks) == 12 else "no"
        raise ValueError(f"not an Imperial market: {market.kind}")


CATALOGUE = ImperialMarkets()
