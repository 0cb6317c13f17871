"""The Emperor game state: rounds, exchange, bargaining, trump and play (E1-E12).

Hot path notes: hands are int masks, legal cards come from table look-ups, the trick's
winner is kept up to date card by card, and ``clone`` copies a few short lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any, ClassVar, Self

from kozyr.cards import CARD_NAMES, DECK_52, SUIT_MASKS, SUIT_OF, card_name, card_names, suit_name
from kozyr.games.base import DealError, Event, GameError, IllegalAction, OptionsError
from kozyr.games.dealing import SECURE, check_optional_seed
from kozyr.games.tricks import (
    ABOVE_NATURAL,
    NO_TRUMP,
    beaters,
    follow_mask,
    legal_cards,
    refusal,
    shown_voids,
)

from . import actions as A
from .deal import HAND_SIZE, EmperorDeal, default_join_order, seeded_deal
from .exchange import offer_range, swap_hands
from .observation import EmperorObservation, Offer, SwapRecord
from .options import EmperorOptions
from .tables import ROTATIONS
from .titles import (
    FINAL_NAMES,
    TITLE_NAMES,
    final_order,
    final_why,
    round_why,
    swap_targets,
    title_order,
)

__all__ = ["EmperorState"]

# Phases, as ints for speed; PHASE_NAMES gives the public names.
PLAY, EXCHANGE, BARGAIN, TRUMP, OVER, DEAL = range(6)
PHASE_NAMES = ("play", "exchange", "bargain", "trump", "over", "deal")
NT = NO_TRUMP  # internal trump value for no trumps (E9)
UNNAMED = -1  # trump not named yet (rounds 2+, before E9)
_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


class EmperorState:
    """One Emperor game. Build it with :meth:`new` (or :meth:`from_observation`)."""

    game: ClassVar[str] = "emperor"

    __slots__ = (
        "_answering",
        "_bargain_target",
        "_best",
        "_best_seat",
        "_ex_idx",
        "_first_leader",
        "_first_trick",
        "_given",
        "_hands",
        "_known",
        "_last_offer",
        "_lead",
        "_offers",
        "_order",
        "_phase",
        "_played",
        "_round",
        "_seq",
        "_standing",
        "_swaps",
        "_tc",
        "_to_act",
        "_totals",
        "_trick_cards",
        "_trick_no",
        "_tricks",
        "_trump",
        "_trump_card",
        "_voids",
        "_writes",
        "actions",
        "dealing",
        "dealt",
        "events",
        "join_order",
        "options",
        "players",
        "seed",
    )

    options: EmperorOptions
    players: int
    seed: int | None
    dealing: str
    join_order: tuple[int, ...]
    dealt: list[EmperorDeal]
    events: list[Event]
    actions: list[str]
    _given: tuple[EmperorDeal, ...]
    _round: int
    _phase: int
    _to_act: int | None
    _hands: list[int]
    _totals: list[int]
    _tricks: list[int]
    _first_trick: list[int]
    _order: list[int] | None
    _standing: list[int] | None
    _first_leader: int
    _trump: int
    _trump_card: int | None
    _trick_no: int
    _tc: int
    _seq: tuple[int, ...]
    _best: int
    _lead: int
    _best_seat: int
    _trick_cards: list[int]
    _played: list[int]
    _voids: list[int]
    _known: list[list[int]]
    _swaps: list[SwapRecord]
    _offers: list[Offer]
    _ex_idx: int
    _bargain_target: int
    _last_offer: int
    _answering: bool
    _writes: bool
    """Whether events and actions are written (False on the fast path: :meth:`fast_clone`)."""

    def __init__(self) -> None:
        """An empty shell that :meth:`new`, :meth:`from_observation` and :meth:`clone`
        fill (a compiled class is built through ``__init__``, not ``__new__``)."""

    # ------------------------------------------------------------------ building

    @classmethod
    def new(
        cls,
        options: EmperorOptions | None = None,
        seed: int | None = None,
        deals: Iterable[EmperorDeal] = (),
        join_order: Sequence[int] | None = None,
        dealing: str = SECURE,
    ) -> EmperorState:
        """A new game. ``deals`` fix the first rounds' cards; later rounds come from
        ``seed``, shuffled by the ``dealing`` scheme (:mod:`kozyr.games.dealing`); without
        either the state waits for :meth:`add_deal`. ``join_order`` (B1): seats in the
        order they joined; the last one leads round 1 (E5)."""
        options = options or EmperorOptions()
        n = options.players
        try:
            check_optional_seed(seed, dealing)
        except ValueError as e:
            raise GameError(str(e)) from None
        given = tuple(deals)
        if len(given) > options.rounds:
            raise DealError(f"{len(given)} deals given for a game of {options.rounds} rounds")
        for i, d in enumerate(given):
            _check_deal_for_round(d, i + 1, n)
        if join_order is None:
            order = tuple(default_join_order(seed, n, dealing))
        else:
            order = tuple(int(s) for s in join_order)
            if sorted(order) != list(range(n)):
                raise OptionsError(
                    f"join_order must list each of the {n} seats once, not {list(join_order)}"
                )
        self = cls()
        self._writes = True
        self.options = options
        self.players = n
        self.seed = seed
        self.dealing = dealing
        self.join_order = order
        self._given = given
        self.dealt = []
        self.events = []
        self.actions = []
        self._round = 1
        self._totals = [0] * n
        self._order = None
        self._standing = None
        self._first_leader = order[-1]
        self._known = [[0] * n for _ in range(n + 1)]
        self._reset_round()
        self._next_deal()
        return self

    def _reset_round(self) -> None:
        n = self.players
        self._hands = [0] * n
        self._tricks = [0] * n
        self._first_trick = [0] * n
        self._played = [0] * n
        self._voids = [0] * n
        self._trick_cards = [-1] * n
        for row in self._known:
            for t in range(n):
                row[t] = 0
        self._swaps = []
        self._offers = []
        self._trick_no = 1
        self._tc = 0
        self._seq = ()
        self._best = -1
        self._lead = -1
        self._best_seat = -1
        self._trump = UNNAMED
        self._trump_card = None
        self._ex_idx = 0
        self._bargain_target = -1
        self._last_offer = 0
        self._answering = False

    def _next_deal(self) -> None:
        # Indexed by round, not by len(dealt): a state from from_observation has no
        # earlier deals but must deal later rounds exactly as the seeded game would.
        k = self._round - 1
        if k < len(self._given):
            deal = self._given[k]
        elif self.seed is not None:
            deal = seeded_deal(self.seed, k, self.players, self.dealing)
        else:
            self._phase = DEAL
            self._to_act = None
            return
        self._begin_round(deal)

    @property
    def waiting_for_deal(self) -> bool:
        return self._phase == DEAL

    def add_deal(self, deal: EmperorDeal) -> None:
        """Supplies the next round's cards to a state that waits for them."""
        if self._phase != DEAL:
            raise GameError("the game is not waiting for a deal")
        _check_deal_for_round(deal, self._round, self.players)
        self._begin_round(deal)

    def _begin_round(self, deal: EmperorDeal) -> None:
        self._reset_round()
        self.dealt.append(deal)
        self._hands = list(deal.hands)
        n = self.players
        r = self._round
        if r == 1:
            # E5: the shown card fixes trump; the last joiner leads; winners lead.
            tc = deal.trump_card
            assert tc is not None
            self._trump_card = tc
            self._trump = SUIT_OF[tc]
            holder = deal.holder(tc)
            if holder is not None:
                # Shown to all, and it stays in that hand: public knowledge.
                self._known[n][holder] = 1 << tc
            self._seq = ROTATIONS[n][self._first_leader]
            self._phase = PLAY
            self._to_act = self._first_leader
            if self._writes:
                self.events.append(
                    {
                        "type": "deal",
                        "number": 1,
                        "trump": suit_name(SUIT_OF[tc]),
                        "trump_card": CARD_NAMES[tc],
                        "trump_card_holder": holder,
                        "leader": self._first_leader,
                    }
                )
        else:
            order = self._order
            assert order is not None
            self._phase = EXCHANGE
            self._ex_idx = 0
            self._to_act = order[0]
            if self._writes:
                self.events.append(
                    {
                        "type": "deal",
                        "number": r,
                        "trump": None,  # named by the King after the exchange (E9)
                        "titles": self.titles,
                        "order": list(order),
                        "bargaining": r >= self.options.bargain_from,
                    }
                )

    # ------------------------------------------------------------------ reading

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def over(self) -> bool:
        return self._phase == OVER

    @property
    def round(self) -> int:
        return self._round

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    @property
    def tricks(self) -> list[int]:
        return list(self._tricks)

    @property
    def hands(self) -> list[int]:
        """Every seat's current hand (the full truth: not for players' eyes)."""
        return list(self._hands)

    @property
    def titles(self) -> list[str | None]:
        """Each seat's title (E3, E6); all None until round 1 ends."""
        order = self._order
        if order is None:
            return [None] * self.players
        names = TITLE_NAMES[self.players]
        out: list[str | None] = [None] * self.players
        for rank, seat in enumerate(order):
            out[seat] = names[rank]
        return out

    @property
    def title_order(self) -> list[int] | None:
        """Seats by title, King first; None until round 1 ends."""
        return None if self._order is None else list(self._order)

    @property
    def standing(self) -> list[int] | None:
        """E12: seats by final rank, Emperor first, once the game is over."""
        return None if self._standing is None else list(self._standing)

    @property
    def trump(self) -> int | None:
        """The trump suit (0..3), or None for no trumps or not yet named."""
        t = self._trump
        return t if 0 <= t < 4 else None

    @property
    def trump_named(self) -> bool:
        return self._trump != UNNAMED

    def summary(self) -> dict[str, Any]:
        return {
            "round": self._round,
            "totals": self.totals,
            "titles": self.titles,
            "over": self.over,
            "standing": self.standing,
            "to_act": self._to_act,
            "tricks": self.tricks,
        }

    # ------------------------------------------------------------------ actions

    def legal_actions(self) -> list[int]:
        ph = self._phase
        if ph == PLAY:
            hand = self._hands[self._to_act]  # type: ignore[index]
            # E10: follow suit, else trump, else anything.
            return legal_cards(hand, self._lead if self._tc else -1, self._trump)
        if ph == EXCHANGE:
            order = self._order
            assert order is not None
            return [A.SWAP + s for s in sorted(swap_targets(order, self._ex_idx))] + [A.PASS]
        if ph == BARGAIN:
            if self._answering:
                return [A.ACCEPT, A.REFUSE]
            t = self._bargain_target
            offers = offer_range(self._last_offer, self._totals[t], self.options.max_offer)
            return [A.OFFER + k for k in offers] + [A.YIELD]
        if ph == TRUMP:
            return [A.TRUMP, A.TRUMP + 1, A.TRUMP + 2, A.TRUMP + 3, A.TRUMP_NT]
        return []

    def apply(self, action: int) -> None:
        # One check for every phase (a card: in the hand, and E10), then the one code
        # both paths share.
        if not 0 <= action < A.NUM_ACTIONS or not self.legal_mask() >> action & 1:
            raise self._illegal(action)
        self.apply_legal(action)

    def _end_trick(self) -> None:
        w = self._best_seat
        no = self._trick_no
        self._tricks[w] += 1
        if not self._first_trick[w]:
            self._first_trick[w] = no  # E6 tie-break
        cards = self._trick_cards
        if self._writes:
            self.events.append(
                {
                    "type": "trick",
                    "deal": self._round,
                    "number": no,
                    "cards": [[s, CARD_NAMES[cards[s]]] for s in self._seq],
                    "winner": w,
                }
            )
        self._tc = 0
        if no == HAND_SIZE:
            self._end_round()
            return
        self._trick_no = no + 1
        if self._round == 1:
            self._seq = ROTATIONS[self.players][w]  # E5: the winner leads
        # E10: from round 2 the King leads every trick, whoever won the last one.
        self._to_act = self._seq[0]

    def _end_round(self) -> None:
        n = self.players
        if self._order is None:
            previous: Sequence[int] = ROTATIONS[n][self._first_leader]
        else:
            previous = self._order
        order = title_order(self._tricks, self._first_trick, previous)
        self._order = order
        for s in range(n):
            if self._tricks[s]:
                self._score(s, self._tricks[s], "tricks", "E11")
        if self._writes:
            self.events.append(
                {
                    "type": "deal_end",
                    "number": self._round,
                    "tricks": list(self._tricks),
                    "first_trick": [f or None for f in self._first_trick],
                    "totals": list(self._totals),
                    "titles": self.titles,
                    "order": list(order),
                    "why": round_why(order, self._tricks, self._first_trick),
                }
            )
        if self._round >= self.options.rounds:
            standing = final_order(self._totals, order)
            self._standing = standing
            self._phase = OVER
            self._to_act = None
            if self._writes:
                names = FINAL_NAMES[n]
                ranks: list[str] = [""] * n
                for i, s in enumerate(standing):
                    ranks[s] = names[i]
                self.events.append(
                    {
                        "type": "game_over",
                        "places": standing,
                        "winner": standing[0],
                        # No stakes in the rules: a zero-sum n-1, ..., -(n-1) by place.
                        "stakes": [n - 1 - 2 * standing.index(s) for s in range(n)],
                        "totals": list(self._totals),
                        "ranks": ranks,
                        "why": final_why(self._totals, standing),
                    }
                )
            return
        self._round += 1
        self._next_deal()

    def _exchange(self, a: int) -> None:
        order = self._order
        assert order is not None
        taker = order[self._ex_idx]
        if a == A.PASS:
            self._log({"type": "pass", "seat": taker}, a)
            self._next_taker()
            return
        target = a - A.SWAP
        if self._round < self.options.bargain_from:
            swap_hands(self._hands, self._known, taker, target)
            self._swaps.append(SwapRecord(taker, target, "swapped"))
            self._log({"type": "swap", "taker": taker, "target": target, "happened": True}, a)
            self._next_taker()
            return
        # E8: naming a target opens a bargain; the target answers first.
        self._swaps.append(SwapRecord(taker, target, "pending"))
        self._log({"type": "swap", "taker": taker, "target": target, "happened": False}, a)
        self._phase = BARGAIN
        self._bargain_target = target
        self._last_offer = 0
        self._answering = False
        self._to_act = target

    def _bargain(self, a: int) -> None:
        order = self._order
        assert order is not None
        taker = order[self._ex_idx]
        target = self._bargain_target
        if a == A.YIELD:
            swap_hands(self._hands, self._known, taker, target)
            self._swaps[-1] = replace(self._swaps[-1], result="swapped")
            self._log({"type": "yield", "seat": target, "taker": taker, "happened": True}, a)
            self._next_taker()
        elif a == A.ACCEPT:
            k = self._last_offer
            self._swaps[-1] = replace(self._swaps[-1], result="bought_off", tricks=k)
            self._offers[-1] = replace(self._offers[-1], answer="accept")
            self._log(
                {
                    "type": "accept",
                    "seat": taker,
                    "target": target,
                    "tricks": k,
                    "totals": [
                        t - k if s == target else t + k if s == taker else t
                        for s, t in enumerate(self._totals)
                    ],
                },
                a,
            )
            # E8, E11: the tricks move between game totals only, never titles.
            self._score(target, -k, "bought off", "E8")
            self._score(taker, k, "bought off", "E8")
            self._next_taker()
        elif a == A.REFUSE:
            self._offers[-1] = replace(self._offers[-1], answer="refuse")
            self._log(
                {"type": "refuse", "seat": taker, "target": target, "tricks": self._last_offer},
                a,
            )
            self._answering = False
            self._to_act = target
        else:
            k = a - A.OFFER
            self._offers.append(Offer(target, taker, k))
            self._log({"type": "offer", "seat": target, "taker": taker, "tricks": k}, a)
            self._last_offer = k
            self._answering = True
            self._to_act = taker

    def _next_taker(self) -> None:
        order = self._order
        assert order is not None
        self._ex_idx += 1
        if self._ex_idx >= self.players - 1:
            # E9: the exchange is over; the King names trump.
            self._phase = TRUMP
            self._to_act = order[0]
        else:
            self._phase = EXCHANGE
            self._to_act = order[self._ex_idx]

    def _name_trump(self, a: int) -> None:
        order = self._order
        assert order is not None
        t = a - A.TRUMP
        self._trump = t
        self._log(
            {"type": "trump", "seat": order[0], "trump": "NT" if t == NT else suit_name(t)}, a
        )
        # E10: the King leads, then Prince, Soldier, Jester, every trick.
        self._seq = tuple(order)
        self._phase = PLAY
        self._to_act = order[0]

    def _score(self, seat: int, points: int, reason: str, rule: str) -> None:
        total = self._totals[seat] + points
        self._totals[seat] = total
        if self._writes:
            self.events.append(
                {
                    "type": "score",
                    "seat": seat,
                    "points": points,
                    "total": total,
                    "reason": reason,
                    "rule": rule,
                }
            )

    def _log(self, event: Event, a: int) -> None:
        if not self._writes:
            return  # the fast path: a few decisions a round, their events built for nothing
        event["round"] = self._round
        self.events.append(event)
        self.actions.append(A.ACTION_TEXT[a])

    # ------------------------------------------------------------------ errors

    def _illegal(self, a: int) -> IllegalAction:
        """Why ``a`` is not legal now (a code of :mod:`kozyr.messages`), with the ruling it
        breaks."""
        ph = self._phase
        if ph == OVER:
            return IllegalAction("game_over", {}, "E4")
        if ph == DEAL:
            return IllegalAction("waiting_for_deal", {}, "E4")
        if not 0 <= a < A.NUM_ACTIONS:
            return IllegalAction("not_an_action", {"action": a}, "E1")
        text = A.ACTION_TEXT[a]
        seat = self._to_act
        assert seat is not None
        if ph == PLAY:
            rule = "E5" if self._round == 1 else "E10"
            if a >= 52:
                return IllegalAction("must_play_card", {"action": text}, rule)
            lead = self._lead if self._tc else -1
            why = refusal(a, self._hands[seat], lead, self._best, self._trump, ABOVE_NATURAL)
            assert why is not None
            code, params = why
            return IllegalAction(code, params, rule if code == "not_in_hand" else "E10")
        order = self._order
        assert order is not None
        if ph == EXCHANGE:
            targets = sorted(swap_targets(order, self._ex_idx))
            if A.SWAP <= a < A.SWAP + self.players:
                names = TITLE_NAMES[self.players]
                # E7 in words: the taker's title, and the lower titles he may take from.
                params = {
                    "target": a - A.SWAP,
                    "targets": targets,
                    "title": names[self._ex_idx],
                    "titles": list(names[self._ex_idx + 1 :]),
                }
                return IllegalAction("swap_not_allowed", params, "E7")
            return IllegalAction("swap_or_pass", {"action": text, "targets": targets}, "E7")
        if ph == BARGAIN:
            if self._answering:
                return IllegalAction(
                    "answer_offer", {"tricks": self._last_offer, "action": text}, "E8"
                )
            if A.OFFER < a <= A.OFFER + 3:
                k = a - A.OFFER
                if k <= self._last_offer:
                    return IllegalAction(
                        "offer_too_low", {"tricks": k, "last": self._last_offer}, "E8"
                    )
                if k > self.options.max_offer:
                    return IllegalAction(
                        "offer_too_high", {"tricks": k, "max": self.options.max_offer}, "E8"
                    )
                total = self._totals[self._bargain_target]
                return IllegalAction("offer_over_total", {"tricks": k, "total": total}, "E8")
            return IllegalAction("offer_or_yield", {"action": text}, "E8")
        return IllegalAction("name_trump", {"action": text}, "E9")

    def action_text(self, action: int) -> str:
        return A.action_text(action)

    def parse_action(self, text: str) -> int:
        return A.parse_action(text, self.players)

    def play(self, text: str) -> None:
        self.apply(self.parse_action(text))

    # ------------------------------------------------------------------ copying

    def clone(self) -> Self:
        return self._copy(self.events[:], self.actions[:])

    def fast_clone(self) -> Self:
        """A copy on the fast path: it writes no events and no actions from here on (it
        starts with none), so a card costs less; every rule, score and other field is kept
        as :meth:`clone` keeps it. tests/emperor/test_fast_path.py plays random games both
        ways."""
        c = self._copy([], [])
        c._writes = False
        return c

    def legal_mask(self) -> int:
        """:meth:`legal_actions` as a bit mask of action ids (bit ``a``: action ``a``
        legal): in card play the cards of the hand that may be played, the fast path's
        form; 0 when nobody acts."""
        if self._phase == PLAY:
            hand = self._hands[self._to_act]  # type: ignore[index]
            return follow_mask(hand, self._lead if self._tc else -1, self._trump)
        m = 0
        for a in self.legal_actions():
            m |= 1 << a
        return m

    def apply_legal(self, action: int) -> None:
        """:meth:`apply` for an action known to be legal (one of :meth:`legal_mask`): a
        card is played without being checked again (the fast path of searches and
        benches), and so is any other action. An action that is not legal breaks
        the state; tests/emperor/test_fast_path.py holds the two paths equal."""
        ph = self._phase
        if ph != PLAY:
            if ph == EXCHANGE:
                self._exchange(action)
            elif ph == BARGAIN:
                self._bargain(action)
            elif ph == TRUMP:
                self._name_trump(action)
            else:
                raise self._illegal(action)  # nobody acts (over, or waiting for a deal)
            return
        self._play(self._to_act, action)  # type: ignore[arg-type]

    def _play(self, seat: int, action: int) -> None:
        """Plays a legal card for ``seat``, the player to act (E5, E10)."""
        hands = self._hands
        bit = 1 << action
        tc = self._tc
        if tc:
            t = self._trump
            lead = self._lead
            if SUIT_OF[action] != lead:
                self._voids[seat] |= shown_voids(action, lead, t)  # public knowledge
            if beaters(self._best, t, ABOVE_NATURAL) & bit:
                self._best = action
                self._best_seat = seat
        else:
            self._lead = SUIT_OF[action]
            self._best = action
            self._best_seat = seat
        hands[seat] ^= bit
        self._played[seat] |= bit
        self._trick_cards[seat] = action
        if self._writes:
            name = CARD_NAMES[action]
            self.events.append({"type": "play", "seat": seat, "card": name})
            self.actions.append(name)
        tc += 1
        if tc < self.players:
            self._tc = tc
            self._to_act = self._seq[tc]
        else:
            self._end_trick()

    def _copy(self, events: list[Event], actions: list[str]) -> Self:
        # Attribute by attribute, not a loop over the slots: twice as fast, and the bots
        # clone on every node they search. tests/emperor/test_state_copies.py fails on a
        # slot left out here or shared.
        c = type(self)()
        c.options = self.options
        c.players = self.players
        c.seed = self.seed
        c.dealing = self.dealing
        c.join_order = self.join_order
        c._given = self._given
        c.dealt = self.dealt[:]
        c.events = events
        c.actions = actions
        c._writes = self._writes
        c._round = self._round
        c._phase = self._phase
        c._to_act = self._to_act
        c._hands = self._hands[:]
        c._totals = self._totals[:]
        c._tricks = self._tricks[:]
        c._first_trick = self._first_trick[:]
        c._order = self._order  # replaced, never changed in place
        c._standing = self._standing
        c._first_leader = self._first_leader
        c._trump = self._trump
        c._trump_card = self._trump_card
        c._trick_no = self._trick_no
        c._tc = self._tc
        c._seq = self._seq
        c._best = self._best
        c._lead = self._lead
        c._best_seat = self._best_seat
        c._trick_cards = self._trick_cards[:]
        c._played = self._played[:]
        c._voids = self._voids[:]
        c._known = [row[:] for row in self._known]
        c._swaps = self._swaps[:]
        c._offers = self._offers[:]
        c._ex_idx = self._ex_idx
        c._bargain_target = self._bargain_target
        c._last_offer = self._last_offer
        c._answering = self._answering
        return c

    # ------------------------------------------------------------------ knowing

    def observation(self, seat: int | None) -> EmperorObservation:
        """What ``seat`` may know now (None: a spectator, who sees only what is public)."""
        n = self.players
        if seat is not None and not 0 <= seat < n:
            raise GameError(f"there is no seat {seat}")
        hands = self._hands
        known = self._known_by(seat)
        cards = self._trick_cards
        trick = tuple((s, cards[s]) for s in self._seq[: self._tc]) if self._phase == PLAY else ()
        trump_named = self._trump != UNNAMED
        mine = seat is not None and seat == self._to_act
        return EmperorObservation(
            seat=seat,
            players=n,
            options=self.options,
            round=self._round,
            phase=PHASE_NAMES[self._phase],
            to_act=self._to_act,
            over=self._phase == OVER,
            legal_actions=tuple(self.legal_actions()) if mine else (),
            hand=None if seat is None else hands[seat],
            hand_sizes=tuple(h.bit_count() for h in hands),
            titles=tuple(self.titles),
            title_order=None if self._order is None else tuple(self._order),
            totals=tuple(self._totals),
            tricks=tuple(self._tricks),
            first_trick=tuple(self._first_trick),
            trump=self.trump,
            trump_named=trump_named,
            trump_card=self._trump_card,
            first_leader=self._first_leader,
            trick_number=self._trick_no,
            trick=trick,
            played=tuple(self._played),
            voids=tuple(self._voids),
            swaps=tuple(self._swaps),
            offers=tuple(self._offers),
            known=known,
            standing=None if self._standing is None else tuple(self._standing),
            events=tuple(self.events),
        )

    def _known_by(self, seat: int | None) -> dict[int, int]:
        """The cards of each other seat's hand that ``seat`` (None: everyone) knows."""
        n = self.players
        hands = self._hands
        rows = [self._known[n]] if seat is None else [self._known[n], self._known[seat]]
        known: dict[int, int] = {}
        for t in range(n):
            if t != seat:
                m = 0
                for row in rows:
                    m |= row[t]
                known[t] = m & hands[t]
        if seat is not None and n == 4:
            # Elimination: when all other hands but one are known, that one is too.
            open_seats = [t for t in known if known[t] != hands[t]]
            if len(open_seats) == 1:
                rest = DECK_52 & ~hands[seat]
                for t in range(n):
                    rest &= ~self._played[t]
                    if t != seat and t != open_seats[0]:
                        rest &= ~known[t]
                known[open_seats[0]] = rest
        return known

    def seat_json(self, seat: int) -> dict[str, Any]:
        """What ``observation(seat).to_json()`` holds beyond the public observation's
        (seat None): the fields that differ, with the seat's values. A server that sends
        every role its view builds the public one once and lays this over a copy of it
        for each seat (``{**public, **seat_json}`` is the seat's view, key order and
        all), instead of building every seat's observation whole."""
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise GameError(f"there is no seat {seat}")
        mine = seat == self._to_act
        known = self._known_by(seat)
        return {
            "seat": seat,
            "legal_actions": [A.ACTION_TEXT[a] for a in self.legal_actions()] if mine else [],
            "hand": card_names(self._hands[seat]),
            "known": {str(t): card_names(m) for t, m in sorted(known.items())},
        }

    @classmethod
    def from_observation(
        cls,
        obs: EmperorObservation,
        hidden: Sequence[int],
        seed: int | None = None,
        dealing: str = SECURE,
    ) -> EmperorState:
        """A state that goes on from ``obs`` with ``hidden`` as the other seats' hands
        (the observer's own entry is ignored). Later rounds are dealt from ``seed``;
        without it the state waits for :meth:`add_deal` after this round. The new state
        holds only this round's information: ``events``, ``actions`` and ``dealt`` are
        empty."""
        # A new slot is carried here or listed with a check among the rebuilt ones in
        # tests/emperor/test_state_copies.py, which fails on a slot in neither list.
        n = obs.players
        if obs.phase in ("over", "deal"):
            raise DealError(f"nothing to continue: the game is in phase {obs.phase!r}")
        if len(hidden) != n:
            raise DealError(f"hidden must give {n} hands, not {len(hidden)}")
        played_all = 0
        for m in obs.played:
            played_all |= m
        hands: list[int] = []
        seen = played_all
        if obs.seat is not None and obs.hand is None:
            raise DealError("the observation of a seat has no hand")
        for t in range(n):
            h = obs.hand if t == obs.seat and obs.hand is not None else int(hidden[t])
            if h < 0 or h & ~DECK_52:
                raise DealError(f"hand of seat {t} holds a card that is not in the deck")
            if h.bit_count() != obs.hand_sizes[t]:
                raise DealError(
                    f"hand of seat {t} has {h.bit_count()} cards, "
                    f"the observation says {obs.hand_sizes[t]}"
                )
            clash = h & seen
            if clash:
                c = (clash & -clash).bit_length() - 1
                raise DealError(f"card {card_name(c)} of seat {t} is played or in another hand")
            missing = obs.known.get(t, 0) & ~h
            if missing:
                c = (missing & -missing).bit_length() - 1
                raise DealError(f"seat {t} is known to hold {card_name(c)}")
            for s in range(4):
                if obs.voids[t] >> s & 1 and h & SUIT_MASKS[s]:
                    raise DealError(f"seat {t} has shown he holds no {_SUIT_WORDS[s]}")
            seen |= h
            hands.append(h)
        tcard = obs.trump_card if obs.round == 1 else None
        if tcard is not None and n == 3 and seen >> tcard & 1:
            raise DealError(f"the trump card {card_name(tcard)} lies in the undealt pile (E5)")

        self = cls()
        self._writes = True
        self.options = obs.options
        self.players = n
        self.seed = seed
        self.dealing = dealing
        # Only the last joiner matters (E5); a clockwise order ending with him stands in.
        self.join_order = ROTATIONS[n][(obs.first_leader + 1) % n]
        self._given = ()
        self.dealt = []
        self.events = []
        self.actions = []
        self._known = [[0] * n for _ in range(n + 1)]
        self._reset_round()
        self._round = obs.round
        self._totals = list(obs.totals)
        self._order = None if obs.title_order is None else list(obs.title_order)
        self._standing = None
        self._first_leader = obs.first_leader
        self._hands = hands
        self._tricks = list(obs.tricks)
        self._first_trick = list(obs.first_trick)
        self._played = list(obs.played)
        self._voids = list(obs.voids)
        self._swaps = list(obs.swaps)
        self._offers = list(obs.offers)
        self._trump_card = tcard
        self._trump = UNNAMED if not obs.trump_named else (NT if obs.trump is None else obs.trump)
        self._trick_no = obs.trick_number
        self._to_act = obs.to_act
        self._phase = PHASE_NAMES.index(obs.phase)
        # Knowledge: undo this round's swaps to find the dealt hands, then redo them.
        start = [hands[t] | obs.played[t] for t in range(n)]
        done = [(s.taker, s.target) for s in obs.swaps if s.result == "swapped"]
        for a, b in reversed(done):
            start[a], start[b] = start[b], start[a]
        if tcard is not None and n == 4:
            for t in range(n):
                if start[t] >> tcard & 1:
                    self._known[n][t] = 1 << tcard
        for a, b in done:
            swap_hands(start, self._known, a, b)
        if self._phase == PLAY:
            self._seq = obs.play_order
            for s, card in obs.trick:
                self._tc += 1
                self._trick_cards[s] = card
                if self._best < 0:
                    self._best, self._best_seat = card, s
                    self._lead = SUIT_OF[card]
                elif beaters(self._best, self._trump, ABOVE_NATURAL) >> card & 1:
                    self._best, self._best_seat = card, s
        else:
            order = self._order
            assert order is not None
            if self._phase == EXCHANGE:
                assert obs.to_act is not None
                self._ex_idx = order.index(obs.to_act)
            elif self._phase == TRUMP:
                self._ex_idx = n - 1
            else:
                pending = obs.swaps[-1]
                self._ex_idx = order.index(pending.taker)
                self._bargain_target = pending.target
                mine = [o for o in obs.offers if o.taker == pending.taker]
                self._last_offer = mine[-1].tricks if mine else 0
                self._answering = obs.to_act == pending.taker
        return self


def _check_deal_for_round(deal: EmperorDeal, rnd: int, players: int) -> None:
    if not isinstance(deal, EmperorDeal):
        raise DealError(f"round {rnd}: a deal must be an EmperorDeal, not {type(deal).__name__}")
    if len(deal.hands) != players:
        raise DealError(f"round {rnd}: {len(deal.hands)} hands for {players} players (E2)")
    if rnd == 1 and deal.trump_card is None:
        raise DealError("round 1 needs the shown trump card (E5)")
    if rnd > 1 and deal.trump_card is not None:
        raise DealError(f"round {rnd}: only round 1 shows a trump card; the king names it (E9)")
