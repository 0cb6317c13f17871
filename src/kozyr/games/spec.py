"""One description per game: what code outside the engines needs to know about a game
without naming it.

Records, the arena, the command line, the interop adapters and the server look a game up
in :data:`GAMES` by its name and ask the :class:`Game` for its player counts, options,
a new state, the record encoding of its start and deals, and the result and stakes of a
finished game. Only the engines (and each game's bots) know the rules behind the answers.

>>> game = GAMES["imperial"]
>>> game.player_counts, game.default_players, game.stake_kinds
((2, 3), 2, ('per_game', 'per_imperial'))
>>> state = game.new_state(game.options_from_json({"players": 3}), seed=7)
>>> game.start_json(state) == {"first_dealer": game.draw_start(3, 7, state.dealing)}
True
>>> GAMES["emperor"].draw_start(4, 7, state.dealing) is None
True
>>> GAMES["emperor"].facts()["players"], GAMES["emperor"].facts()["unit"]
([3, 4], 'round')
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from kozyr.cards import card_name
from kozyr.games import stakes
from kozyr.games.base import DealError, GameError, GameState, OptionsError
from kozyr.games.deal_json import card_names, claim, optional_card, read_hands, require_object
from kozyr.games.dealing import SECURE
from kozyr.games.emperor import EmperorDeal, EmperorOptions, EmperorState
from kozyr.games.emperor import facts as emperor_facts
from kozyr.games.emperor.deal import seeded_deal as emperor_seeded_deal
from kozyr.games.emperor.markets import CATALOGUE as EMPEROR_MARKETS
from kozyr.games.imperial import ImperialDeal, ImperialOptions, ImperialState
from kozyr.games.imperial import facts as imperial_facts
from kozyr.games.imperial.deal import draw_first_dealer
from kozyr.games.imperial.deal import seeded_deal as imperial_seeded_deal
from kozyr.games.imperial.markets import CATALOGUE as IMPERIAL_MARKETS
from kozyr.games.markets import Catalogue
from kozyr.games.stakes import StakeError, StakeTerms
from kozyr.texts import both

__all__ = ["GAMES", "EmperorGame", "Game", "GameResult", "ImperialGame", "Options"]


class Options(Protocol):
    """A game's options: a frozen dataclass with at least the number of players."""

    @property
    def players(self) -> int: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class GameResult:
    """The outcome of a finished game, by seat."""

    winner: int
    places: tuple[int, ...]
    """Seats, best first (Imperial I12; Emperor E12)."""
    scores: tuple[int, ...]
    """Per seat, the game's own final measure: Imperial marked imperials, Emperor totals."""
    stakes: tuple[int, ...]
    """The ``game_over`` event's stake multipliers."""


def _shown(value: Any) -> str:
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _game_over(state: GameState) -> dict[str, Any]:
    if not state.over:
        raise ValueError("the game is not over: it has no result yet")
    # The engine ends a game with exactly one game_over event, its last.
    return next(e for e in reversed(state.events) if e["type"] == "game_over")


class Game(ABC):
    """What records, the arena, the command line, interop and the server know of a game.

    One instance per game, in :data:`GAMES`.
    """

    name: str
    title: tuple[str, str]
    """English and Russian names."""
    player_counts: tuple[int, ...]
    default_players: int
    stake_kinds: tuple[str, ...]
    markets: Catalogue
    """What spectators may bet on, and how the game's events decide it (B4)."""
    rank_order: tuple[int, ...]
    """Ranks (2 to 14, ace 14) high to low within a suit."""
    unit: str
    """What one hand of the game is called: ``deal`` or ``round``."""
    score_columns: tuple[str, ...]
    """The score table's columns after the player's name, as the page's message keys."""
    decision_kinds: tuple[str, ...]
    """The phases in which a player chooses something other than a card to play."""
    panels: tuple[str, ...]
    """What a table shows for this game only (``dealer``, ``turnup``, ``titles``, ...)."""
    first_game: Mapping[str, int]
    """The options of a newcomer's first game after the lessons (#29): the game's own rules,
    only shorter, so that a first game against the gentlest bots ends within a sitting."""

    def __repr__(self) -> str:
        return f"<Game {self.name}>"

    @abstractmethod
    def options_from_json(self, data: Mapping[str, Any], *, stored: bool = False) -> Options:
        """The options from their JSON form; :class:`OptionsError` names a bad one.
        ``stored``: options a table or record already holds, read with the wider ranges
        older versions accepted, so that a game made then still loads."""

    @abstractmethod
    def new_state(
        self,
        options: Options,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        join_order: Sequence[int] | None = None,
        deals: Sequence[Any] = (),
        dealing: str = SECURE,
    ) -> GameState:
        """A new game. Each game uses the start facts it has (Imperial ``first_dealer``,
        I5; Emperor ``join_order``, B1 and E5) and ignores the other; left out, they are
        drawn from the seed. Bad values raise :class:`GameError` naming them."""

    @abstractmethod
    def draw_start(self, players: int, seed: int, dealing: str) -> int | None:
        """Imperial: the first dealer the seed draws (I5). Emperor: None (the join order
        comes from seating)."""

    @abstractmethod
    def start_json(self, state: GameState) -> dict[str, Any]:
        """How the game started, for its record: ``first_dealer`` or ``join_order``."""

    @abstractmethod
    def deal_to_json(self, deal: Any) -> dict[str, Any]:
        """One deal as a record writes it: hands as card names, and the trump card or
        turn-up where there is one."""

    @abstractmethod
    def deal_from_json(self, raw: Mapping[str, Any], where: str) -> Any:
        """One deal from a record; :class:`DealError` names the fault, starting with
        ``where`` (``deals[0]``)."""

    @abstractmethod
    def seeded_deal(self, state: GameState, index: int) -> Any:
        """Deal ``index`` (0-based) as the state's seed and dealing scheme deal it."""

    @abstractmethod
    def result(self, state: GameState) -> GameResult:
        """The result of a finished game; ValueError if it is not over."""

    @abstractmethod
    def max_loss(self, terms: StakeTerms, options: Options) -> int:
        """The most one seat can lose under ``terms`` (what escrow holds, B5)."""

    @abstractmethod
    def settle(self, terms: StakeTerms, state: GameState) -> list[int]:
        """Chips each seat receives (negative: pays) at the end; sums to zero (B5)."""

    @abstractmethod
    def settle_summary(
        self, terms: StakeTerms, options: Options, summary: Mapping[str, Any]
    ) -> list[int]:
        """:meth:`settle` from a finished game's summary (``state.summary()``, what a
        table's row keeps) instead of its state."""

    def facts(self) -> dict[str, Any]:
        """What a client needs to show the game without naming it (``GET /api/game-facts``):
        plain JSON."""
        return {
            "name": self.name,
            "title": {"en": self.title[0], "ru": self.title[1]},
            "players": list(self.player_counts),
            "default_players": self.default_players,
            "rank_order": list(self.rank_order),
            "stake_kinds": list(self.stake_kinds),
            "unit": self.unit,
            "score_columns": list(self.score_columns),
            "decision_kinds": list(self.decision_kinds),
            "panels": list(self.panels),
            "first_game": dict(self.first_game),
        }

    def _check_kind(self, terms: StakeTerms) -> None:
        if terms.kind not in self.stake_kinds:
            raise StakeError(
                "stake_wrong_game",
                f"{terms.kind} is not a stake of {self.title[0]}: "
                f"expected one of {', '.join(self.stake_kinds)}",
            )

    def _seed_of(self, state: GameState) -> int:
        if state.seed is None:
            raise ValueError("the game has no seed: its deals were given, not dealt")
        return state.seed


def _imperial(state: GameState) -> ImperialState:
    if not isinstance(state, ImperialState):
        raise TypeError(f"not an Imperial game state: {type(state).__name__}")
    return state


def _emperor(state: GameState) -> EmperorState:
    if not isinstance(state, EmperorState):
        raise TypeError(f"not an Emperor game state: {type(state).__name__}")
    return state


class ImperialGame(Game):
    name = "imperial"
    title = both("games.title.imperial")
    player_counts = (2, 3)
    default_players = 2
    stake_kinds = stakes.KINDS["imperial"]
    markets = IMPERIAL_MARKETS
    rank_order = imperial_facts.RANK_ORDER
    unit = imperial_facts.UNIT
    score_columns = imperial_facts.SCORE_COLUMNS
    decision_kinds = imperial_facts.DECISION_KINDS
    panels = imperial_facts.PANELS
    first_game = MappingProxyType({"target": 2})  # two imperials, not five

    def options_from_json(
        self, data: Mapping[str, Any], *, stored: bool = False
    ) -> ImperialOptions:
        return ImperialOptions.from_json(data, stored=stored)

    def new_state(
        self,
        options: Options,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        join_order: Sequence[int] | None = None,
        deals: Sequence[Any] = (),
        dealing: str = SECURE,
    ) -> ImperialState:
        if not isinstance(options, ImperialOptions):
            raise OptionsError(f"not Imperial options: {type(options).__name__}")
        # bool is an int in Python, but never a seat.
        if first_dealer is not None and (
            isinstance(first_dealer, bool) or not isinstance(first_dealer, int)
        ):
            raise GameError(f"first_dealer: expected an integer, got {_shown(first_dealer)}")
        return ImperialState.new(
            options, seed=seed, deals=deals, first_dealer=first_dealer, dealing=dealing
        )

    def draw_start(self, players: int, seed: int, dealing: str) -> int:
        return draw_first_dealer(players, seed, dealing)

    def start_json(self, state: GameState) -> dict[str, Any]:
        return {"first_dealer": _imperial(state).first_dealer}

    def deal_to_json(self, deal: Any) -> dict[str, Any]:
        if not isinstance(deal, ImperialDeal):
            raise TypeError(f"not an Imperial deal: {type(deal).__name__}")
        out: dict[str, Any] = {"hands": [card_names(h) for h in deal.hands]}
        if deal.turnup is not None:
            out["turnup"] = card_name(deal.turnup)
        if deal.trump_card is not None:
            out["trump_card"] = card_name(deal.trump_card)
        return out

    def deal_from_json(self, raw: Mapping[str, Any], where: str) -> ImperialDeal:
        raw = require_object(raw, where)
        seen: dict[int, str] = {}
        hands = read_hands(raw, where, seen)
        trump_card = optional_card(raw, "trump_card", where)
        turnup = optional_card(raw, "turnup", where)
        if turnup is not None:
            # The turn-up lies apart from the hands (I5): it must not be dealt as well.
            claim(turnup, f"{where}.turnup", seen)
        try:
            return ImperialDeal(hands=hands, turnup=turnup, trump_card=trump_card)
        except DealError as e:
            raise DealError(f"{where}: {e}") from e

    def seeded_deal(self, state: GameState, index: int) -> ImperialDeal:
        imp = _imperial(state)
        n = imp.players
        dealer = (imp.first_dealer + index) % n
        return imperial_seeded_deal(n, self._seed_of(imp), index, dealer, imp.dealing)

    def result(self, state: GameState) -> GameResult:
        imp = _imperial(state)
        over = _game_over(imp)
        return GameResult(
            winner=over["winner"],
            places=tuple(over["places"]),
            scores=tuple(imp.imperials),
            stakes=tuple(over["stakes"]),
        )

    def max_loss(self, terms: StakeTerms, options: Options) -> int:
        self._check_kind(terms)
        if not isinstance(options, ImperialOptions):
            raise OptionsError(f"not Imperial options: {type(options).__name__}")
        return stakes.max_loss(terms, options.players, options.target)

    def settle(self, terms: StakeTerms, state: GameState) -> list[int]:
        self._check_kind(terms)
        imp = _imperial(state)
        result = self.result(imp)
        return stakes.settle_imperial(terms, result.winner, list(imp.imperials), imp.options.target)

    def settle_summary(
        self, terms: StakeTerms, options: Options, summary: Mapping[str, Any]
    ) -> list[int]:
        if not isinstance(options, ImperialOptions):
            raise OptionsError(f"not Imperial options: {type(options).__name__}")
        imperials = [int(s["imperials"]) for s in summary["scores"]]
        return stakes.settle_imperial(terms, int(summary["winner"]), imperials, options.target)


class EmperorGame(Game):
    name = "emperor"
    title = both("games.title.emperor")
    player_counts = (3, 4)
    default_players = 4
    stake_kinds = stakes.KINDS["emperor"]
    markets = EMPEROR_MARKETS
    rank_order = emperor_facts.RANK_ORDER
    unit = emperor_facts.UNIT
    score_columns = emperor_facts.SCORE_COLUMNS
    decision_kinds = emperor_facts.DECISION_KINDS
    panels = emperor_facts.PANELS
    first_game = MappingProxyType({"rounds": 4})  # four rounds, not ten

    def options_from_json(self, data: Mapping[str, Any], *, stored: bool = False) -> EmperorOptions:
        return EmperorOptions.from_json(data, stored=stored)

    def new_state(
        self,
        options: Options,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
        join_order: Sequence[int] | None = None,
        deals: Sequence[Any] = (),
        dealing: str = SECURE,
    ) -> EmperorState:
        if not isinstance(options, EmperorOptions):
            raise OptionsError(f"not Emperor options: {type(options).__name__}")
        if join_order is not None:
            if not isinstance(join_order, Sequence) or isinstance(join_order, str):
                raise GameError(f"join_order: expected a list, got {_shown(join_order)}")
            if any(isinstance(s, bool) or not isinstance(s, int) for s in join_order):
                raise GameError(f"join_order: expected a list of seats, got {_shown(join_order)}")
        return EmperorState.new(
            options, seed=seed, deals=deals, join_order=join_order, dealing=dealing
        )

    def draw_start(self, players: int, seed: int, dealing: str) -> None:
        return None

    def start_json(self, state: GameState) -> dict[str, Any]:
        return {"join_order": list(_emperor(state).join_order)}

    def deal_to_json(self, deal: Any) -> dict[str, Any]:
        if not isinstance(deal, EmperorDeal):
            raise TypeError(f"not an Emperor deal: {type(deal).__name__}")
        out: dict[str, Any] = {"hands": [card_names(h) for h in deal.hands]}
        if deal.trump_card is not None:
            out["trump_card"] = card_name(deal.trump_card)
        return out

    def deal_from_json(self, raw: Mapping[str, Any], where: str) -> EmperorDeal:
        raw = require_object(raw, where)
        hands = read_hands(raw, where, {})
        trump_card = optional_card(raw, "trump_card", where)
        try:
            return EmperorDeal(hands=hands, trump_card=trump_card)
        except DealError as e:
            raise DealError(f"{where}: {e}") from e

    def seeded_deal(self, state: GameState, index: int) -> EmperorDeal:
        emp = _emperor(state)
        return emperor_seeded_deal(self._seed_of(emp), index, emp.players, emp.dealing)

    def result(self, state: GameState) -> GameResult:
        emp = _emperor(state)
        over = _game_over(emp)
        return GameResult(
            winner=over["winner"],
            places=tuple(over["places"]),
            scores=tuple(emp.totals),
            stakes=tuple(over["stakes"]),
        )

    def max_loss(self, terms: StakeTerms, options: Options) -> int:
        self._check_kind(terms)
        if not isinstance(options, EmperorOptions):
            raise OptionsError(f"not Emperor options: {type(options).__name__}")
        return stakes.max_loss(terms, options.players, None)

    def settle(self, terms: StakeTerms, state: GameState) -> list[int]:
        self._check_kind(terms)
        emp = _emperor(state)
        self.result(emp)  # refuses a game that is not over
        return stakes.settle_emperor(terms, emp.totals)

    def settle_summary(
        self, terms: StakeTerms, options: Options, summary: Mapping[str, Any]
    ) -> list[int]:
        return stakes.settle_emperor(terms, [int(t) for t in summary["totals"]])


GAMES: dict[str, Game] = {game.name: game for game in (ImperialGame(), EmperorGame())}
"""Every game kozyr plays, by name."""
