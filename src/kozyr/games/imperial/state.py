"""The Imperial game state: deals, declarations, play and scoring (I1-I13)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kozyr.cards import (
    ACE,
    JACK,
    KING,
    QUEEN,
    SUIT_OF,
    card_list,
    card_names,
    parse_card,
    rank_of,
    suit_name,
)
from kozyr.cards import CARD_NAMES as NAME
from kozyr.games.base import DealError, Event, GameError, IllegalAction
from kozyr.games.dealing import SECURE, check_optional_seed
from kozyr.games.tricks import (
    beaters,
    follow_mask,
    legal_cards,
    must_beat_mask,
    refusal,
    shown_voids,
    suits_cards,
)

from .card_tables import ABOVE, deck_for, low_rank_for, rank_bit
from .deal import ImperialDeal, draw_first_dealer, seeded_deal
from .declarations import Imperial, find_imperials, honour_mask, is_white, point_of
from .observation import ImperialObservation
from .options import ImperialOptions

__all__ = ["IMPERIAL_POINTS", "ImperialState"]

IMPERIAL_POINTS = 24
"""Loose points that make one imperial."""

_TRICKS = 12


_names = card_names


class ImperialState:
    """A game of Imperial, from the first deal to the winner.

    >>> s = ImperialState.new(ImperialOptions(players=2), seed=1)
    >>> s.to_act is not None, len(s.legal_actions()), s.deal_number
    (True, 12, 1)
    >>> while not s.over:
    ...     s.apply(s.legal_actions()[0])
    >>> s.scores[s.winner][0] >= 5
    True
    """

    __slots__ = (
        "_best",
        "_best_seat",
        "_first_dealer",
        "_given",
        "_honours",
        "_leader",
        "_led",
        "_must_head",
        "_to_act",
        "_tombe_cards",
        "_tombe_winners",
        "_trick",
        "_trump",
        "_white",
        "_writes",
        "actions",
        "captures",
        "deal_number",
        "dealer",
        "dealing",
        "dealt",
        "events",
        "game",
        "hands",
        "imperials",
        "loose",
        "options",
        "play_points",
        "played",
        "players",
        "seed",
        "shown",
        "tricks",
        "tricks_done",
        "tricks_won",
        "voids",
        "waiting_for_deal",
        "winner",
    )

    _best: int
    _best_seat: int
    _first_dealer: int
    _given: list[ImperialDeal]
    _honours: int
    _leader: int
    _led: int
    _writes: bool
    """Whether events and actions are written (False on the fast path: :meth:`fast_clone`)."""
    _must_head: bool
    _tombe_cards: int
    _tombe_winners: int
    _to_act: int | None
    _trick: list[int]
    _trump: int
    _white: bool
    game: str
    players: int
    options: ImperialOptions
    seed: int | None
    dealing: str
    """How the seed deals: :data:`kozyr.games.dealing.SECURE` or ``LEGACY`` (old records)."""
    events: list[Event]
    actions: list[str]
    dealt: list[ImperialDeal]
    deal_number: int
    """Deals dealt so far: the current deal's number, 1 for the first (0 before any)."""
    dealer: int
    hands: list[int]
    played: list[int]
    shown: list[int]
    captures: list[int]
    tricks: list[int]
    """Tricks each seat has won in this deal."""
    voids: list[int]
    """Suits (bit s: suit s) each seat has shown it lacks in this deal (I7)."""
    tricks_done: int
    play_points: list[int]
    """Per seat, the points scored in card play in this game (I8 honours, I10 tricks and
    capot; a tombé, I9, as 24 points an imperial): what a search weighs a playout by
    without reading events, which the fast path does not write."""
    tricks_won: list[int]
    """Per seat, the tricks won in this game (``tricks`` is this deal's)."""
    imperials: list[int]
    loose: list[int]
    winner: int | None
    waiting_for_deal: bool

    def __init__(self) -> None:
        """An empty shell that :meth:`new`, :meth:`from_observation` and :meth:`clone`
        fill (a compiled class is built through ``__init__``, not ``__new__``)."""

    # ------------------------------------------------------------------ building

    @classmethod
    def _blank(
        cls,
        options: ImperialOptions,
        seed: int | None,
        first_dealer: int,
        scheme: str = SECURE,
    ) -> ImperialState:
        self = cls()
        n = options.players
        self.game = "imperial"
        self.players = n
        self.options = options
        self.seed = seed
        self.dealing = scheme
        self._first_dealer = first_dealer
        self._given = []
        self._must_head = options.must_head
        self._writes = True
        self.events = []
        self.actions = []
        self.dealt = []
        self.deal_number = 0
        self.dealer = first_dealer
        self.hands = [0] * n
        self.played = [0] * n
        self.shown = [0] * n
        self.captures = [0] * n
        self.tricks = [0] * n
        self.voids = [0] * n
        self.tricks_done = 0
        self.play_points = [0] * n
        self.tricks_won = [0] * n
        self.imperials = [0] * n
        self.loose = [0] * n
        self.winner = None
        self.waiting_for_deal = False
        self._white = False
        self._to_act = None
        self._trick = []
        self._leader = 0
        self._led = -1
        self._best = -1
        self._best_seat = -1
        self._set_trump(-1)
        return self

    @classmethod
    def new(
        cls,
        options: ImperialOptions | None = None,
        seed: int | None = None,
        deals: Iterable[ImperialDeal] = (),
        first_dealer: int | None = None,
        dealing: str = SECURE,
    ) -> ImperialState:
        """A new game. ``deals`` fix the first deals; later ones come from ``seed``,
        shuffled by the ``dealing`` scheme (:mod:`kozyr.games.dealing`); with neither the
        state waits for :meth:`add_deal`. The first dealer is ``first_dealer``, else
        drawn from the seed, else seat 0 (I5)."""
        options = options or ImperialOptions()
        n = options.players
        scheme = dealing
        try:
            check_optional_seed(seed, scheme)
        except ValueError as e:
            raise GameError(str(e)) from None
        if first_dealer is None:
            first_dealer = draw_first_dealer(n, seed, scheme)
        elif not isinstance(first_dealer, int) or not 0 <= first_dealer < n:
            raise GameError(f"first_dealer must be a seat 0-{n - 1}, not {first_dealer!r}")
        self = cls._blank(options, seed, first_dealer, scheme)
        given = list(deals)
        for i, deal in enumerate(given):
            self._check_deal(deal, (first_dealer + i) % n, f"deal {i + 1}: ")
        self._given = given
        self._advance()
        return self

    def _check_deal(self, deal: ImperialDeal, dealer: int, where: str = "") -> None:
        if not isinstance(deal, ImperialDeal):
            raise DealError(f"{where}not an ImperialDeal: {deal!r}")
        if deal.players != self.players:
            raise DealError(f"{where}{deal.players} hands; the table has {self.players} players")
        try:
            deal.check_dealer(dealer)
        except DealError as e:
            raise DealError(f"{where}{e}") from None

    def add_deal(self, deal: ImperialDeal) -> None:
        """Supply the next deal when :attr:`waiting_for_deal` (a game without a seed)."""
        if not self.waiting_for_deal:
            raise GameError("the game is not waiting for a deal")
        self._check_deal(deal, (self._first_dealer + self.deal_number) % self.players)
        self._given.append(deal)
        self._advance()

    @property
    def first_dealer(self) -> int:
        return self._first_dealer

    def clone(self) -> ImperialState:
        return self._copy(self.events[:], self.actions[:])

    def _copy(self, events: list[Event], actions: list[str]) -> ImperialState:
        # Attribute by attribute, not a loop over names with getattr/setattr: the server
        # copies the state for every move it checks (the loop is 2.5 times slower).
        # tests/imperial/test_state_copies.py fails on a slot left out here or shared.
        new = ImperialState()
        new._best = self._best
        new._best_seat = self._best_seat
        new._first_dealer = self._first_dealer
        new._honours = self._honours
        new._leader = self._leader
        new._led = self._led
        new._writes = self._writes
        new._must_head = self._must_head
        new._tombe_cards = self._tombe_cards
        new._tombe_winners = self._tombe_winners
        new._to_act = self._to_act
        new._trump = self._trump
        new._white = self._white
        new.deal_number = self.deal_number
        new.dealer = self.dealer
        new.game = self.game
        new.options = self.options
        new.players = self.players
        new.seed = self.seed
        new.dealing = self.dealing
        new.tricks_done = self.tricks_done
        new.waiting_for_deal = self.waiting_for_deal
        new.winner = self.winner
        new._given = self._given[:]
        new._trick = self._trick[:]
        new.actions = actions
        new.captures = self.captures[:]
        new.dealt = self.dealt[:]
        new.events = events
        new.hands = self.hands[:]
        new.imperials = self.imperials[:]
        new.loose = self.loose[:]
        new.played = self.played[:]
        new.play_points = self.play_points[:]
        new.shown = self.shown[:]
        new.tricks = self.tricks[:]
        new.tricks_won = self.tricks_won[:]
        new.voids = self.voids[:]
        return new

    def fast_clone(self) -> ImperialState:
        """A copy on the fast path, for a search's playouts: it writes no events and no
        actions from here on (it starts with none), so applying a card costs less; every
        rule, score and field else is kept as :meth:`clone` keeps it. What a playout is
        worth is read from the scores, ``play_points`` and ``tricks_won``.
        tests/imperial/test_fast_path.py plays thousands of games both ways."""
        new = self._copy([], [])
        new._writes = False
        return new

    # ------------------------------------------------------------------ reading

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def trump(self) -> int | None:
        """The trump suit of the current deal (0-3), None before the first deal."""
        return self._trump if self._trump >= 0 else None

    @property
    def turnup(self) -> int | None:
        return self.dealt[-1].turnup if self.dealt else None

    @property
    def trump_card(self) -> int | None:
        return self.dealt[-1].trump_card if self.dealt else None

    @property
    def trick(self) -> list[tuple[int, int]]:
        """The trick on the table: (seat, card) in order of play."""
        n = self.players
        return [((self._leader + i) % n, c) for i, c in enumerate(self._trick)]

    @property
    def scores(self) -> list[tuple[int, int]]:
        """(marked imperials, loose points) per seat."""
        return list(zip(self.imperials, self.loose, strict=True))

    def summary(self) -> dict[str, Any]:
        return {
            "scores": [{"imperials": i, "points": p} for i, p in self.scores],
            "over": self.over,
            "winner": self.winner,
            "to_act": self._to_act,
            "deal": self.deal_number,
            "dealer": self.dealer,
        }

    def legal_actions(self) -> list[int]:
        """The cards the player to act may play, ascending (I7); empty when nobody acts."""
        seat = self._to_act
        if seat is None:
            return []
        if self._must_head:
            return card_list(
                must_beat_mask(self.hands[seat], self._led, self._best, self._trump, ABOVE)
            )
        return legal_cards(self.hands[seat], self._led, self._trump)

    def action_text(self, action: object) -> str:
        if not isinstance(action, int) or not 0 <= action < 52:
            raise IllegalAction("not_an_action", {"action": action}, "I7")
        return NAME[action]

    def parse_action(self, text: str) -> int:
        c = parse_card(text)
        if not deck_for(self.players) >> c & 1:
            deck = deck_for(self.players).bit_count()
            raise IllegalAction("not_in_deck", {"card": c, "deck": deck, "ranks": rank_of(c)}, "I1")
        return c

    def play(self, text: str) -> None:
        self.apply(self.parse_action(text))

    # ------------------------------------------------------------------ scoring

    def _order(self) -> list[int]:
        """Seats from the player left of the dealer, clockwise (I6: simultaneous scores)."""
        n = self.players
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def _score(self, seat: int, points: int, reason: str, rule: str, in_play: bool = False) -> None:
        """Scores loose points; ``in_play``: points of the card play (I8, I10), which
        ``play_points`` counts too."""
        if in_play:
            self.play_points[seat] += points
        loose = self.loose[seat] + points
        # "total" is the seat's loose points right after this score, before any mark it
        # triggers: a reader can follow the scores without recomputing them.
        if self._writes:
            self.events.append(
                {
                    "type": "score",
                    "seat": seat,
                    "points": points,
                    "reason": reason,
                    "rule": rule,
                    "total": loose,
                }
            )
        self.loose[seat] = loose
        if self._white:
            return  # I11: loose points become imperials only at the end of a white deal
        while loose >= IMPERIAL_POINTS and not self._ended():
            loose -= IMPERIAL_POINTS
            self.loose[seat] = loose
            self._mark(seat, 1, "24 points", rule)

    def _mark(self, seat: int, count: int, reason: str, rule: str, in_play: bool = False) -> None:
        """Marks imperials; ``in_play``: won in the card play (a tombé, I9), which
        ``play_points`` counts as 24 points an imperial."""
        if in_play:
            self.play_points[seat] += IMPERIAL_POINTS * count
        self.imperials[seat] += count
        if self._writes:
            self.events.append(
                {
                    "type": "mark",
                    "seat": seat,
                    "imperials": count,
                    "reason": reason,
                    "rule": rule,
                    "total": self.imperials[seat],
                    "loose": self.loose[seat],
                }
            )
        if not self._white:
            # Every mark wipes every other player's loose points (I11 excepted).
            n = self.players
            for i in range(1, n):
                other = (seat + i) % n
                lost = self.loose[other]
                if lost:
                    self.loose[other] = 0
                    if self._writes:
                        self.events.append(
                            {"type": "wipe", "seat": other, "points": lost, "by": seat}
                        )
        if self.imperials[seat] >= self.options.target and not self._ended():
            self._end_game(seat)

    def _ended(self) -> bool:
        # Read through a call, never narrowed: mypy keeps ``self.winner`` narrowed across
        # the calls that set it, and mypyc compiles by mypy's types (a compiled test of a
        # narrowed ``self.winner is None`` raises once a called method has set it).
        return self.winner is not None

    def _end_game(self, winner: int) -> None:
        # I12: the first to reach the target wins at once, even in the middle of a deal.
        self.winner = winner
        self._to_act = None
        if not self._writes:
            return  # the places and stakes below go only into the event
        stake = self.options.stake
        n = self.players
        # The losers' places, which no ruling orders: more imperials, then more loose
        # points, then the seat nearest the winner's left.
        rest = sorted(
            ((winner + i) % n for i in range(1, n)),
            key=lambda s: (-self.imperials[s], -self.loose[s], (s - winner) % n),
        )
        self.events.append(
            {
                "type": "game_over",
                "places": [winner, *rest],
                "winner": winner,
                "imperials": list(self.imperials),
                "stakes": [stake * (n - 1) if s == winner else -stake for s in range(n)],
                "rule": "I12",
            }
        )

    # ------------------------------------------------------------------ dealing

    def _set_trump(self, trump: int) -> None:
        self._trump = trump
        if trump < 0:
            self._honours = self._tombe_cards = self._tombe_winners = 0
            return
        shift = 13 * trump
        self._honours = honour_mask(trump, low_rank_for(self.players))
        self._tombe_winners = (rank_bit(KING) | rank_bit(QUEEN)) << shift
        self._tombe_cards = (rank_bit(JACK) | rank_bit(ACE)) << shift

    def _advance(self) -> None:
        """Deal and declare until a deal is to be played, the game ends, or no deal is known."""
        while not self._ended():
            index = self.deal_number
            if index < len(self._given):
                deal = self._given[index]
            elif self.seed is not None:
                dealer = (self._first_dealer + index) % self.players
                deal = seeded_deal(self.players, self.seed, index, dealer, self.dealing)
            else:
                self.waiting_for_deal = True
                self._to_act = None
                return
            self.waiting_for_deal = False
            if self._begin_deal(deal):
                return

    def _begin_deal(self, deal: ImperialDeal) -> bool:
        """Start a deal and make its declarations; True when card play follows."""
        n = self.players
        self.deal_number += 1
        self.dealer = dealer = (self._first_dealer + self.deal_number - 1) % n
        self.dealt.append(deal)
        self.hands = list(deal.hands)
        self.played = [0] * n
        self.shown = [0] * n
        self.captures = [0] * n
        self.tricks = [0] * n
        self.voids = [0] * n
        self.tricks_done = 0
        self._trick = []
        self._led = -1
        self._set_trump(deal.trump)
        if deal.trump_card is not None:
            self.shown[dealer] = 1 << deal.trump_card  # I5, I13: shown to all, kept in hand
        if self._writes:
            event: Event = {
                "type": "deal",
                "number": self.deal_number,
                "dealer": dealer,
                "trump": suit_name(deal.trump),
            }
            if deal.turnup is not None:
                event["turnup"] = NAME[deal.turnup]
            if deal.trump_card is not None:
                event["trump_card"] = NAME[deal.trump_card]
            self.events.append(event)
        self._declare()
        if self._ended():
            return False
        if self._white:
            self._white = False
            if self._writes:
                self.events.append({"type": "deal_end", "number": self.deal_number, "tricks": None})
            return False
        self._leader = self._to_act = (dealer + 1) % n  # I7
        return True

    # ------------------------------------------------------------------ declarations (I6)

    def _declare_turnup(self) -> None:
        # I6.2: two players only; a turned honour scores 4 for the dealer.
        turnup = self.dealt[-1].turnup
        if turnup is not None and self._honours >> turnup & 1:
            if self._writes:
                self.events.append(
                    {
                        "type": "declare",
                        "seat": self.dealer,
                        "kind": "turnup",
                        "cards": [NAME[turnup]],
                    }
                )
            self._score(self.dealer, 4, "turnup", "I6")

    def _imperials_of(self, seat: int) -> list[Imperial]:
        turnup = self.dealt[-1].turnup if seat == self.dealer else None
        found = find_imperials(self.hands[seat], self._trump, low_rank_for(self.players), turnup)
        if self._white and is_white(self.hands[seat]):
            found.insert(0, Imperial("white", self.hands[seat], 2))
        return found

    def _declare_imperial_event(self, seat: int, imps: list[Imperial], marked: bool) -> None:
        if not self._writes:
            return
        event: Event = {
            "type": "declare",
            "seat": seat,
            "kind": "imperials",
            "count": sum(i.count for i in imps),
            "marked": marked,
        }
        if marked:
            # I6, I13: the cards of a marked imperial are shown; unmarked ones only counted.
            event["imperials"] = [
                {"kind": i.kind, "count": i.count, "cards": _names(i.cards), "turned": i.turned}
                for i in imps
            ]
        self.events.append(event)

    def _show(self, seat: int, cards: int) -> None:
        # Shown cards stay public while they are in the hand; the turn-up is no hand's card.
        self.shown[seat] |= cards & self.hands[seat]

    def _declare_point(self) -> None:
        # I6.4: longest suit, then higher I3 value; a full tie gives 2 to each tied player.
        order = self._order()
        points = {}
        for s in order:
            suit, length, value = points[s] = point_of(self.hands[s])
            if not self._writes:
                continue
            self.events.append(
                {
                    "type": "declare",
                    "seat": s,
                    "kind": "point",
                    "suit": suit_name(suit),
                    "length": length,
                    "value": value,
                }
            )
        top = max((p[1], p[2]) for p in points.values())
        best = [s for s in order if (points[s][1], points[s][2]) == top]
        each = 4 if len(best) == 1 else 2
        for s in best:
            self._score(s, each, "point", "I6")
            if self._ended():
                return

    def _declare_honours(self) -> None:
        # I6.5: 4 per honour held; the honours are shown.
        for s in self._order():
            held = self.hands[s] & self._honours
            if held:
                self._show(s, held)
                if self._writes:
                    self.events.append(
                        {"type": "declare", "seat": s, "kind": "honours", "cards": _names(held)}
                    )
                self._score(s, 4 * held.bit_count(), "honours", "I6")
                if self._ended():
                    return

    def _declare(self) -> None:
        order = self._order()
        whites = [s for s in order if is_white(self.hands[s])]
        if whites:
            self._declare_white(order, whites)
            return
        if self.players == 2:
            self._declare_turnup()
            if self._ended():
                return
        # I6.3: compare counts; the highest count marks all, equal highest all mark.
        found = {s: self._imperials_of(s) for s in order}
        counts = {s: sum(i.count for i in found[s]) for s in order}
        top = max(counts.values())
        if top:
            for s in order:
                if counts[s]:
                    self._declare_imperial_event(s, found[s], counts[s] == top)
            for s in order:
                if counts[s] == top:
                    for imp in found[s]:
                        self._show(s, imp.cards)
                    self._mark(s, top, "imperials", "I6")
                    if self._ended():
                        return
        self._declare_point()
        if self._ended():
            return
        self._declare_honours()

    def _declare_white(self, order: list[int], whites: list[int]) -> None:
        # I11: no play, no wiping, every player marks his own imperials without comparison.
        self._white = True
        for s in whites:
            self.shown[s] = self.hands[s]
            if self._writes:
                self.events.append(
                    {
                        "type": "white_imperial",
                        "seat": s,
                        "cards": _names(self.hands[s]),
                        "rule": "I11",
                    }
                )
        if self.players == 2:
            self._declare_turnup()
        for s in order:
            if self._ended():
                return
            imps = self._imperials_of(s)
            if imps:
                self._declare_imperial_event(s, imps, True)
                for imp in imps:
                    self._show(s, imp.cards)
                self._mark(s, sum(i.count for i in imps), "imperials", "I11")
        if self._ended():
            return
        self._declare_point()
        if self._ended():
            return
        self._declare_honours()
        for s in order:
            while self.loose[s] >= IMPERIAL_POINTS and not self._ended():
                self.loose[s] -= IMPERIAL_POINTS
                self._mark(s, 1, "24 points", "I11")

    # ------------------------------------------------------------------ play (I7-I10)

    def apply(self, action: object) -> None:
        """Play a card for the player to act (I7); an illegal card changes nothing. Any
        object is taken and checked (compiled, an ``int`` parameter would take ``True`` as
        card 1 and refuse a string with a TypeError instead of an illegal action)."""
        seat = self._to_act
        if seat is None:
            if self._ended():
                raise IllegalAction("game_over", {}, "I12")
            raise IllegalAction("waiting_for_deal", {}, "I5")
        if type(action) is not int or not 0 <= action < 52:
            raise IllegalAction("not_an_action", {"action": action}, "I7")
        if not self.legal_mask() >> action & 1:
            raise self._refused(action, self.hands[seat])
        self._play(seat, action)

    def legal_mask(self) -> int:
        """:meth:`legal_actions` as a bit mask (0 when nobody acts): the fast path's form."""
        seat = self._to_act
        if seat is None:
            return 0
        if self._must_head:
            return must_beat_mask(self.hands[seat], self._led, self._best, self._trump, ABOVE)
        return follow_mask(self.hands[seat], self._led, self._trump)

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` for a card known to be legal (one of :meth:`legal_mask`), without
        checking it again: the fast path of searches and benches. A card that is not
        legal breaks the state; tests/imperial/test_fast_path.py holds the two paths equal."""
        seat = self._to_act
        assert seat is not None
        self._play(seat, action)

    def _play(self, seat: int, action: int) -> None:
        b = 1 << action
        hand = self.hands[seat]
        led = self._led
        self.hands[seat] = hand ^ b
        self.played[seat] |= b
        self.shown[seat] &= ~b
        self._trick.append(action)
        if self._writes:
            name = NAME[action]
            self.actions.append(name)
            self.events.append({"type": "play", "seat": seat, "card": name})
        if led < 0:
            self._led = SUIT_OF[action]
            self._best = action
            self._best_seat = seat
            if self._honours & b:
                self._score(seat, 4, "honour led", "I8", in_play=True)
        else:
            if SUIT_OF[action] != led:
                self.voids[seat] |= shown_voids(action, led, self._trump)  # public (I13)
            if beaters(self._best, self._trump, ABOVE) & b:
                self._best = action
                self._best_seat = seat
                if self._honours & b:
                    self._score(seat, 4, "honour heads the trick", "I8", in_play=True)
        if self._ended():
            return
        n = self.players
        if len(self._trick) == n:
            self._finish_trick()
        else:
            self._to_act = (seat + 1) % n

    def _refused(self, card: int, hand: int) -> IllegalAction:
        why = refusal(card, hand, self._led, self._best, self._trump, ABOVE, self._must_head)
        assert why is not None
        return IllegalAction(*why, "I7")

    def _finish_trick(self) -> None:
        n = self.players
        winner = self._best_seat
        leader = self._leader
        trick = self._trick
        self.tricks[winner] += 1
        self.tricks_won[winner] += 1
        self.tricks_done += 1
        if self._writes:
            self.events.append(
                {
                    "type": "trick",
                    "deal": self.deal_number,
                    "number": self.tricks_done,
                    "cards": [[(leader + i) % n, NAME[c]] for i, c in enumerate(trick)],
                    "winner": winner,
                }
            )
        if self._tombe_winners >> self._best & 1:
            # I9: the trump K or Q won; it captures an opponent's trump J or A in this trick.
            for i, c in enumerate(trick):
                if self._tombe_cards >> c & 1:
                    self.captures[winner] |= 1 << c
                    if self._writes:
                        self.events.append(
                            {
                                "type": "capture",
                                "seat": winner,
                                "card": NAME[c],
                                "from": (leader + i) % n,
                                "by": NAME[self._best],
                                "rule": "I9",
                            }
                        )
                    if self.captures[winner] == self._tombe_cards:
                        tombe = self.options.tombe_value
                        self._mark(winner, tombe, "imperial tombé", "I9", in_play=True)
                        if self._ended():
                            return
        self._trick = []
        self._led = -1
        if self.tricks_done == _TRICKS:
            self._end_play()
            return
        self._leader = self._to_act = winner

    def _end_play(self) -> None:
        # I10: more than `trick_bonus_over` tricks scores 4, all twelve (capot) 8 instead.
        self._to_act = None
        over = self.options.trick_bonus_over
        for s in self._order():
            t = self.tricks[s]
            if t == _TRICKS:
                self._score(s, 8, "capot", "I10", in_play=True)
            elif t > over:
                self._score(s, 4, "tricks", "I10", in_play=True)
            if self._ended():
                return
        if self._writes:
            self.events.append(
                {"type": "deal_end", "number": self.deal_number, "tricks": list(self.tricks)}
            )
        self._advance()

    # ------------------------------------------------------------------ knowing (I13)

    def seat_json(self, seat: int) -> dict[str, Any]:
        """What ``observation(seat).to_json()`` holds beyond the public observation's
        (seat None): the fields that differ, with the seat's values. A server that sends
        every role its view builds the public one once and lays this over a copy of it
        for each seat (``{**public, **seat_json}`` is the seat's view, key order and
        all), instead of building every seat's observation whole."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise GameError(f"seat must be 0-{self.players - 1}, not {seat!r}")
        mine = seat == self._to_act
        return {
            "seat": seat,
            "hand": _names(self.hands[seat]),
            "legal_actions": [NAME[c] for c in self.legal_actions()] if mine else [],
        }

    def observation(self, seat: int | None) -> ImperialObservation:
        n = self.players
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat < n):
            raise GameError(f"seat must be 0-{n - 1} or None, not {seat!r}")
        dealt = bool(self.dealt)
        return ImperialObservation(
            seat=seat,
            options=self.options,
            hand=None if seat is None else self.hands[seat],
            dealer=self.dealer if dealt else None,
            trump=self.trump,
            turnup=self.turnup,
            trump_card=self.trump_card,
            scores=tuple(self.scores),
            to_act=self._to_act,
            legal_actions=(
                tuple(self.legal_actions()) if seat is not None and seat == self._to_act else ()
            ),
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            voids=tuple(self.voids),
            played=tuple(self.played),
            hand_sizes=tuple(h.bit_count() for h in self.hands),
            shown=tuple(sh & h for sh, h in zip(self.shown, self.hands, strict=True)),
            captures=tuple(self.captures),
            deal_number=self.deal_number,
            over=self.over,
            winner=self.winner,
            waiting_for_deal=self.waiting_for_deal,
            events=tuple(self.events),
        )

    @classmethod
    def from_observation(
        cls,
        obs: ImperialObservation,
        hidden: Sequence[int],
        seed: int | None = None,
        dealing: str = SECURE,
    ) -> ImperialState:
        """A state at the observed point of the current deal, with ``hidden`` as the other
        seats' hands (the observer's own entry is ignored). Deals after this one come
        from ``seed`` (as deal numbers of that seed), else the state waits for a deal.
        The state has only this deal's information: ``events`` and ``actions`` start empty.
        """
        # A new slot is carried here or listed with a check among the rebuilt ones in
        # tests/imperial/test_state_copies.py, which fails on a slot in neither list.
        n = obs.options.players
        if obs.to_act is None or obs.dealer is None or obs.trump is None:
            raise DealError("the observation has no deal in play")
        if len(hidden) != n:
            raise DealError(f"hidden must give {n} hands (one per seat), not {len(hidden)}")
        deck = deck_for(n)
        public = 0
        for m in obs.played:
            public |= m
        if obs.turnup is not None:
            public |= 1 << obs.turnup
        if obs.hand is not None:
            public |= obs.hand
        hands: list[int] = []
        taken = 0
        for s in range(n):
            if s == obs.seat and obs.hand is not None:
                hands.append(obs.hand)
                continue
            h = hidden[s]
            if not isinstance(h, int) or h < 0 or h & ~deck:
                raise DealError(f"guess for seat {s} has cards outside the deck")
            if h.bit_count() != obs.hand_sizes[s]:
                raise DealError(
                    f"guess for seat {s} has {h.bit_count()} cards, not {obs.hand_sizes[s]}"
                )
            if h & suits_cards(obs.voids[s]):
                raise DealError(
                    f"guess for seat {s} holds {' '.join(_names(h & suits_cards(obs.voids[s])))} "
                    "of a suit it has shown it lacks"
                )
            if obs.shown[s] & ~h:
                raise DealError(
                    f"guess for seat {s} lacks its shown cards "
                    + " ".join(_names(obs.shown[s] & ~h))
                )
            if h & public:
                raise DealError(
                    f"guess for seat {s} holds known cards {' '.join(_names(h & public))}"
                )
            if h & taken:
                raise DealError(f"guess for seat {s} holds {' '.join(_names(h & taken))} twice")
            taken |= h
            hands.append(h)
        for s in range(n):
            for t in range(n):
                if s != t and obs.shown[t] & hands[s]:
                    raise DealError(f"seat {s} holds shown cards of seat {t}")
        deal = ImperialDeal(
            tuple(h | p for h, p in zip(hands, obs.played, strict=True)),
            turnup=obs.turnup,
            trump_card=obs.trump_card,
        )
        deal.check_dealer(obs.dealer)
        first = (obs.dealer - (obs.deal_number - 1)) % n
        self = cls._blank(obs.options, seed, first, dealing)
        self.deal_number = obs.deal_number
        self.dealer = obs.dealer
        self.dealt = [deal]
        self._given = []
        self.hands = hands
        self.played = list(obs.played)
        self.shown = list(obs.shown)
        self.captures = list(obs.captures)
        self.tricks = list(obs.tricks)
        self.voids = list(obs.voids)
        self.tricks_done = sum(obs.tricks)
        self.imperials = [i for i, _ in obs.scores]
        self.loose = [p for _, p in obs.scores]
        self._set_trump(obs.trump)
        self._to_act = obs.to_act
        self._trick = [c for _, c in obs.trick]
        self._leader = obs.trick[0][0] if obs.trick else obs.to_act
        self._led = -1
        for seat, c in obs.trick:
            if self._led < 0:
                self._led = SUIT_OF[c]
                self._best, self._best_seat = c, seat
            elif beaters(self._best, self._trump, ABOVE) >> c & 1:
                self._best, self._best_seat = c, seat
        return self
