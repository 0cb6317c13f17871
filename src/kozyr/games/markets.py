"""Spectators' markets (B4): what can be bet on at a table, when each market opens and
closes, how it is decided, and the pari-mutuel share-out. Pure: no chips move here.

"Spectators often took an active part in the game, betting on the first imperial, the
number of tricks and so on," says the seed. Each game has a *catalogue*
(``kozyr.games.imperial.markets``, ``kozyr.games.emperor.markets``) saying which markets
a game and each of its deals has, and how a market's outcome is read from the game's
public events. :class:`Book` runs a
catalogue over a game's events with one timing for both games (B4):

- game markets and the first deal's markets are open from the table's opening;
- a deal's (an Emperor round's) markets open when the previous deal is dealt;
- a market closes *at* the ``deal`` event that deals the cards it is about, before
  anything of that deal can be seen (game markets: the first deal);
- a closed market is decided by a later event; at ``game_over`` every market not decided
  (one still open included: its deal never came) is void, and void means every bet is
  refunded.

>>> bets = [Bet(1, "seat:0", 30), Bet(2, "seat:1", 10), Bet(3, "seat:0", 20)]
>>> payouts(bets, "seat:0")
[36, 0, 24]
>>> payouts(bets, VOID)
[30, 10, 20]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from kozyr.texts import Lang, text

__all__ = [
    "PLAYER",
    "VOID",
    "Bet",
    "Book",
    "Catalogue",
    "Change",
    "Market",
    "market",
    "market_of",
    "payouts",
    "question",
    "refund_reason",
    "seat_outcomes",
]

VOID = "void"
"""The outcome of a market whose question was never answered: every bet is refunded."""

Event = Mapping[str, Any]


PLAYER = "{player}"
"""What stands for the player a market asks about in its :meth:`Market.to_json`
``title_player`` templates: the page puts in the name it shows for the seat."""


@dataclass(frozen=True, slots=True)
class Market:
    """One question with its possible answers."""

    id: str
    """Unique at a table, stable across restarts: ``"game.winner"``, ``"deal.3.tricks.1"``.
    A game market's id starts ``game.``, a deal's (round's) ``<word>.<deal>.``
    (:func:`market_of` finds a market by it)."""
    kind: str
    """What is asked (the page words it from ``kind`` and ``params``)."""
    scope: int
    """0 for a game market, N for a market about deal (round) N."""
    outcomes: tuple[str, ...]
    params: Mapping[str, int] = field(default_factory=dict)
    title: tuple[str, str] = ("", "")
    """The question in English and Russian, for logs, the terminal and the protocol (the
    catalogue's ``markets.<game>.<kind>``, :mod:`kozyr.texts.markets`); a seat it asks
    about (``params["seat"]``) is "Player N" here: :meth:`question` names him."""
    key: str = ""
    """The catalogue's key of the question (``markets.imperial.tricks``): with it the
    question can be put with the players' names (:meth:`question`)."""

    def question(self, lang: Lang, names: Sequence[str] | None = None) -> str:
        """The question in ``lang``, the seat it asks about by its name in ``names``."""
        if not self.key:
            return self.title[1 if lang == "ru" else 0]
        return question(self.key, lang, self.params, names)

    def to_json(self) -> dict[str, Any]:
        out = {
            "id": self.id,
            "kind": self.kind,
            "scope": self.scope,
            "params": dict(self.params),
            "outcomes": list(self.outcomes),
            "title": self.title[0],
            "title_ru": self.title[1],
        }
        if self.key and "seat" in self.params:
            # The page names the seat as it names it everywhere (a name, "Computer 2"),
            # which may change while the market is open (someone sits down).
            seat = int(self.params["seat"])
            names = [PLAYER] * (seat + 1)
            out["title_player"] = self.question("en", names)
            out["title_player_ru"] = self.question("ru", names)
        return out


def question(
    key: str, lang: Lang, params: Mapping[str, int], names: Sequence[str] | None = None
) -> str:
    """The catalogue's question ``key`` with ``params``; the seat it asks about (``seat``)
    is ``{player}`` in the template, filled with ``names[seat]`` or "Player N".

    >>> question("markets.imperial.tricks", "en", {"deal": 2, "seat": 1})
    'Deal 2: how many tricks Player 2 takes'
    >>> question("markets.imperial.tricks", "en", {"deal": 2, "seat": 0}, ["Masha", "Petya"])
    'Deal 2: how many tricks Masha takes'
    """
    values: dict[str, Any] = dict(params)
    seat = params.get("seat")
    if seat is not None:
        if names is not None and 0 <= seat < len(names):
            values["player"] = names[seat]
        else:
            values["player"] = text("grammar.player", lang, n=seat + 1)
    return text(key, lang, **values)


def market(
    id: str,
    kind: str,
    scope: int,
    outcomes: Sequence[str],
    params: Mapping[str, int],
    key: str,
) -> Market:
    """A catalogue's market, its title the question ``key`` of :mod:`kozyr.texts.markets`."""
    return Market(
        id,
        kind,
        scope,
        tuple(outcomes),
        dict(params),
        (question(key, "en", params), question(key, "ru", params)),
        key,
    )


def seat_outcomes(players: int) -> tuple[str, ...]:
    return tuple(f"seat:{s}" for s in range(players))


class Catalogue(Protocol):
    """A game's markets and how its events decide them."""

    def markets(self, scope: int, players: int, options: Any) -> list[Market]:
        """The game's markets (``scope`` 0) or deal ``scope``'s; [] past the last deal."""
        ...

    def decide(self, market: Market, events: Sequence[Event], i: int) -> str | None:
        """The outcome that ``events[i]`` fixes for a closed ``market`` (``events[:i]``
        decided nothing), or None while it is still open to question."""
        ...


@dataclass(frozen=True, slots=True)
class Change:
    """A step in a market's life, in the order the book makes them."""

    what: Literal["open", "close", "settle"]
    market: Market
    outcome: str | None = None
    """For ``settle``: the winning outcome, or :data:`VOID`."""


class Book:
    """The markets of one table, driven by its events in order.

    ``feed`` takes the events one at a time (the same list a replay makes, B2), so a book
    rebuilt from a stored game after a restart goes through the very same changes.
    """

    def __init__(self, catalogue: Catalogue, players: int, options: Any) -> None:
        self.catalogue = catalogue
        self.players = players
        self.options = options
        self.open: dict[str, Market] = {}
        self.closed: dict[str, Market] = {}
        self.settled: dict[str, str] = {}
        self.events: list[Event] = []
        self.markets: dict[str, Market] = {}

    def start(self) -> list[Change]:
        """The table opens: the game's markets and the first deal's."""
        return self._open(0) + self._open(1)

    def _open(self, scope: int) -> list[Change]:
        out = []
        for m in self.catalogue.markets(scope, self.players, self.options):
            if m.id in self.markets:
                continue
            self.markets[m.id] = self.open[m.id] = m
            out.append(Change("open", m))
        return out

    def _close(self, scope: int) -> list[Change]:
        out = []
        for m in [m for m in self.open.values() if m.scope == scope]:
            del self.open[m.id]
            self.closed[m.id] = m
            out.append(Change("close", m))
        return out

    def _settle(self, m: Market, outcome: str) -> Change:
        self.closed.pop(m.id, None)
        self.open.pop(m.id, None)
        self.settled[m.id] = outcome
        return Change("settle", m, outcome)

    def feed(self, event: Event) -> list[Change]:
        """The changes ``event`` makes: closes first (nothing of the new deal may be bet
        on once it is dealt), then the outcomes it decides, then the next deal's opens."""
        out: list[Change] = []
        self.events.append(event)
        i = len(self.events) - 1
        kind = event.get("type")
        if kind == "deal":
            number = int(event["number"])
            if number == 1:
                out += self._close(0)
            out += self._close(number)
        for m in list(self.closed.values()):
            outcome = self.catalogue.decide(m, self.events, i)
            if outcome is not None:
                if outcome != VOID and outcome not in m.outcomes:
                    raise ValueError(f"market {m.id}: {outcome!r} is not one of its outcomes")
                out.append(self._settle(m, outcome))
        if kind == "deal":
            out += self._open(int(event["number"]) + 1)
        if kind == "game_over":
            for m in [*self.closed.values(), *self.open.values()]:
                out.append(self._settle(m, VOID))
        return out

    def void_undecided(self) -> list[Change]:
        """The table ended before its game did (a table of bots alone that nobody
        watched): every market not decided yet is void, as at ``game_over``."""
        return [self._settle(m, VOID) for m in [*self.closed.values(), *self.open.values()]]

    def feed_all(self, events: Iterable[Event]) -> list[Change]:
        out: list[Change] = []
        for e in events:
            out += self.feed(e)
        return out


@dataclass(frozen=True, slots=True)
class Bet:
    order: int
    """When the bet was taken (its position in the table's log): earlier is smaller."""
    outcome: str
    chips: int


def payouts(bets: Sequence[Bet], outcome: str) -> list[int]:
    """What each bet gets back when its market settles on ``outcome`` (B4).

    The winners share the whole pool in proportion to their stakes: each gets the floor
    of his share, then the chips left over go one at a time to the largest winning
    stakes, ties to the earliest bet. A void market, or one where nobody backed the
    outcome, refunds every bet. No house cut: the payouts always sum to the pool.

    >>> payouts([Bet(1, "yes", 1), Bet(2, "yes", 1), Bet(3, "no", 1)], "yes")
    [2, 1, 0]
    >>> payouts([Bet(1, "no", 5)], "yes")
    [5]
    """
    pool = sum(b.chips for b in bets)
    winning = sum(b.chips for b in bets if b.outcome == outcome)
    if outcome == VOID or winning == 0:
        return [b.chips for b in bets]
    out = [pool * b.chips // winning if b.outcome == outcome else 0 for b in bets]
    left = pool - sum(out)
    ranked = sorted(
        (i for i, b in enumerate(bets) if b.outcome == outcome),
        key=lambda i: (-bets[i].chips, bets[i].order),
    )
    # Fewer chips are left than there are winners (each floor loses less than one).
    for i in ranked[:left]:
        out[i] += 1
    return out


def refund_reason(bets: Sequence[Bet], outcome: str) -> str | None:
    """Why a market settled on ``outcome`` refunds every bet (B4), or None when its
    winners share the pool: ``"void"`` (the question was never answered) or
    ``"no_winner"`` (nobody backed the outcome).

    >>> refund_reason([Bet(1, "no", 5)], "yes"), refund_reason([Bet(1, "no", 5)], VOID)
    ('no_winner', 'void')
    >>> refund_reason([Bet(1, "yes", 5)], "yes") is None
    True
    """
    if outcome == VOID:
        return "void"
    if not any(b.outcome == outcome for b in bets):
        return "no_winner"
    return None


def market_of(catalogue: Catalogue, market_id: str, players: int, options: Any) -> Market | None:
    """The market ``market_id`` of a table of the catalogue's game (None: no such market):
    its scope is read from the id (``game.*`` is 0, ``<word>.<n>.*`` is ``n``)."""
    head, _, rest = market_id.partition(".")
    number = rest.partition(".")[0]
    if head == "game":
        scope = 0
    elif number.isascii() and number.isdigit() and len(number) < 6:
        scope = int(number)
    else:
        return None
    found = catalogue.markets(scope, players, options)
    return next((m for m in found if m.id == market_id), None)
