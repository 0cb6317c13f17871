"""Hand-written Imperial card play: the level 1-2 bots and the search's playout policy.

The policy sees only what a player sees: its hand, the trick on the table, the cards
already played (``gone``) and so the cards still out. Every other player is an opponent
(there are no partners). The ideas, in order of weight:

* I9 tombé: win a trick holding an opponent's trump J or A with the trump K or Q; never
  drop one's own trump J or A into a trick an opponent's K or Q can still win.
* I8 honours score when led, or when they beat the card then winning: ruff with the low
  honour (7, or 6 with three players), head tricks with the Q or J when that is safe.
* Cheap wins: the lowest card that surely wins; duck with the lowest card otherwise, and
  discard from short side suits to make voids for ruffing.
* Trump management: draw trumps with master trumps when long in them; cash side-suit
  masters; otherwise lead low from the longest side suit.

It is pure integer work on bit masks, so a whole deal plays out in well under a
millisecond of policy time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kozyr.cards import SUIT_MASKS, SUIT_OF, card_list
from kozyr.games.base import Observation
from kozyr.games.imperial import ImperialObservation, ImperialState
from kozyr.games.imperial.card_tables import ABOVE, STRENGTH, deck_for
from kozyr.games.tricks import beaters

__all__ = ["HeuristicBot", "decide", "decide_in_state", "playout"]

# Card id = 13 * suit + rank - 2 (kozyr.cards); these are the rank offsets.
_K, _Q, _J, _A = 11, 10, 9, 12
RISK_TRUMPS = 2
"""Lead an honour that a higher trump out could beat when holding this many trumps or fewer."""


def _low_offset(players: int) -> int:
    return 5 if players == 2 else 4  # the 7 (two players) or the 6 (three), I4


def decide(
    hand: int,
    legal: Sequence[int],
    trick: Sequence[tuple[int, int]],
    players: int,
    trump: int,
    out: int,
) -> int:
    """The heuristic card for a player holding ``hand`` with ``legal`` cards.

    ``trick`` is the trick on the table [(seat, card)]; ``out`` the cards that may be in
    other players' hands (not ours, not played, not the turn-up).
    """
    if len(legal) == 1:
        return legal[0]
    base = 13 * trump
    k, q, j, a = base + _K, base + _Q, base + _J, base + _A
    honours = 1 << k | 1 << q | 1 << j | 1 << (base + _low_offset(players))
    tm = SUIT_MASKS[trump]
    kq_out = out & (1 << k | 1 << q)
    legal_mask = 0
    for c in legal:
        legal_mask |= 1 << c
    if trick:
        return _follow(hand, legal_mask, trick, players, trump, out, honours, kq_out, k, q, j, a)
    return _lead(hand, players, trump, tm, out, honours, kq_out, k, q, j, a)


def _keep(c: int, trump: int, out: int, hand: int, kq_out: int, k: int, j: int, a: int) -> float:
    """How much a card is worth keeping for later (higher: spend it later)."""
    if SUIT_OF[c] != trump:
        return STRENGTH[c]
    if c == k:
        # The K always scores when played; its later use is to capture the J and A (I9).
        return 22.0 if out & (1 << j | 1 << a) else 16.0
    if (c in (j, a)) and kq_out:
        # In danger of capture while an opponent may hold K or Q: glad to spend it safely.
        return 8.0
    return 10.0 + 1.5 * STRENGTH[c]


def _follow(
    hand: int,
    legal: int,
    trick: Sequence[tuple[int, int]],
    players: int,
    trump: int,
    out: int,
    honours: int,
    kq_out: int,
    k: int,
    q: int,
    j: int,
    a: int,
) -> int:
    best = trick[0][1]
    in_trick = 1 << best
    for _, c in trick[1:]:
        in_trick |= 1 << c
        if beaters(best, trump, ABOVE) >> c & 1:
            best = c
    led = SUIT_OF[trick[0][1]]
    last = len(trick) == players - 1
    win = legal & beaters(best, trump, ABOVE)
    if win:
        if last:
            safe = win
        else:
            # Safe against the players still to come: no card out beats it in its suit
            # (a ruff by a void player is possible but unknown; accept that risk).
            safe = 0
            for c in card_list(win):
                if not ABOVE[c] & out:
                    safe |= 1 << c
        kq = safe & (1 << k | 1 << q)
        if kq and in_trick & (1 << j | 1 << a):
            # I9: capture an opponent's trump J or A; spend the Q before the K.
            return q if kq >> q & 1 else k
        if safe:
            choice, cost = -1, 1e9
            for c in card_list(safe):
                value = _keep(c, trump, out, hand, kq_out, k, j, a)
                if honours >> c & 1:
                    value -= 4.0  # I8: an honour that beats the winning card scores 4
                if value < cost:
                    choice, cost = c, value
            return choice
        # Not sure to win: an honour that heads the trick still scores now (I8), except
        # the J, which the K or Q still to come could capture (I9).
        scoring = win & honours & ~(1 << j if kq_out else 0)
        if scoring and not scoring >> k & 1:
            return card_list(scoring)[0]
    return _duck(hand, legal, led, trump, out, honours, kq_out, best, k, q, j, a)


def _duck(
    hand: int,
    legal: int,
    led: int,
    trump: int,
    out: int,
    honours: int,
    kq_out: int,
    best: int,
    k: int,
    q: int,
    j: int,
    a: int,
) -> int:
    # Keep the trump J and A out of a trick an opponent's K or Q wins or may win (I9).
    danger = 1 << j | 1 << a if (kq_out or best in (k, q)) else 0
    pool = legal & ~danger & ~honours or legal & ~danger or legal
    choice, cost = -1, 1e9
    for c in card_list(pool):
        suit = SUIT_OF[c]
        if suit == led:
            value = float(STRENGTH[c])
        elif suit == trump:
            value = 30.0 + STRENGTH[c]
        else:
            # A discard: from a short suit, to make a void for ruffing; keep masters.
            length = (hand & SUIT_MASKS[suit]).bit_count()
            value = STRENGTH[c] + 2.0 * length
            if not ABOVE[c] & out:
                value += 12.0
        if value < cost:
            choice, cost = c, value
    return choice


def _lead(
    hand: int,
    players: int,
    trump: int,
    tm: int,
    out: int,
    honours: int,
    kq_out: int,
    k: int,
    q: int,
    j: int,
    a: int,
) -> int:
    mine = hand & tm
    out_trumps = out & tm
    plain = hand & ~tm
    n_out = out.bit_count()
    # Expected trumps in opponents' hands (with two players some of ``out`` is stock).
    others = (players - 1) * hand.bit_count()
    exp_opp = out_trumps.bit_count() * min(1.0, others / n_out) if n_out else 0.0
    # Trumps nothing out can beat, weakest first (card ids do not follow I2's order).
    masters = sorted(
        (c for c in card_list(mine) if not ABOVE[c] & out_trumps), key=STRENGTH.__getitem__
    )
    if masters and exp_opp > 0.4 and mine.bit_count() >= exp_opp + 1:
        # Draw trumps with the lowest master; a master honour led also scores 4 (I8),
        # and leading the K while the J or A is out may force it under (I9).
        return masters[0]
    if not out_trumps and mine & honours:
        return card_list(mine & honours)[0]  # nothing can beat or capture it: score it (I8)
    low = 13 * trump + _low_offset(players)
    # An honour under a trump that is still out may be forced under it later and score
    # nothing; with few trumps to shield it, lead it now for a sure 4 (I8).
    if mine.bit_count() <= RISK_TRUMPS:
        risky = [c for c in card_list(mine & honours & ~(1 << low)) if ABOVE[c] & out_trumps]
        if risky:
            return max(risky, key=STRENGTH.__getitem__)
    if mine >> low & 1:
        short = any(0 < (plain & SUIT_MASKS[s]).bit_count() <= 1 for s in range(4) if s != trump)
        if not short or mine.bit_count() <= 1:
            # No short side suit to ruff from: cash the low honour by leading it (I8).
            return low
    # Cash a side-suit master, from the suit with the most cards out (least ruff risk).
    best_master, most = -1, -1
    for s in range(4):
        if s == trump:
            continue
        suit_hand = plain & SUIT_MASKS[s]
        if not suit_hand:
            continue
        # Card ids run 7..A within a suit; the order in play is by STRENGTH (I2).
        top = max(card_list(suit_hand), key=STRENGTH.__getitem__)
        if not ABOVE[top] & out:
            count = (out & SUIT_MASKS[s]).bit_count()
            if count > most:
                best_master, most = top, count
    if best_master >= 0 and (most > 0 or not out_trumps):
        return best_master
    if plain:
        # Lead low from the longest side suit.
        choice, cost = -1, 1e9
        for c in card_list(plain):
            length = (plain & SUIT_MASKS[SUIT_OF[c]]).bit_count()
            value = STRENGTH[c] - 3.0 * length
            if value < cost:
                choice, cost = c, value
        return choice
    # Only trumps left: never lead the J or A into a K or Q that is out (I9).
    pool = mine & ~(1 << j | 1 << a) if kq_out else mine
    if not pool:
        pool = mine
    if masters:
        return masters[0]
    return min(card_list(pool), key=STRENGTH.__getitem__)


def decide_in_state(state: ImperialState) -> int:
    """The heuristic card for the player to act in a full state (playouts).

    It uses only that player's hand and public information, as a real player would."""
    seat = state.to_act
    assert seat is not None
    hand = state.hands[seat]
    gone = 0
    for m in state.played:
        gone |= m
    out = deck_for(state.players) & ~hand & ~gone
    turnup = state.turnup
    if turnup is not None:
        out &= ~(1 << turnup)
    trump = state.trump
    assert trump is not None
    return decide(hand, state.legal_actions(), state.trick, state.players, trump, out)


def playout(state: ImperialState, stop_at: int = 12) -> None:
    """Plays the heuristic for every seat until the current deal (or the game) ends, or
    until ``stop_at`` tricks of it are done and the next is not yet led."""
    number = state.deal_number
    while state.to_act is not None and state.deal_number == number:
        if state.tricks_done >= stop_at and not state.trick:
            return
        state.apply_legal(decide_in_state(state))


def decide_in_observation(obs: ImperialObservation, legal: Sequence[int]) -> int:
    """The heuristic card for the observer (who must be to act)."""
    assert obs.hand is not None and obs.trump is not None
    gone = 0
    for m in obs.played:
        gone |= m
    out = deck_for(obs.options.players) & ~obs.hand & ~gone
    if obs.turnup is not None:
        out &= ~(1 << obs.turnup)
    return decide(obs.hand, legal, obs.trick, obs.options.players, obs.trump, out)


class HeuristicBot:
    """The heuristic, with a ``mistakes`` probability of a random legal card (level 1-2)."""

    def __init__(self, seed: int | None = None, mistakes: float = 0.0) -> None:
        self.name = "heuristic" if not mistakes else f"heuristic-{mistakes:g}"
        self.mistakes = mistakes
        self._rng = random.Random(seed)

    def choose(self, observation: Observation, legal: Sequence[int], budget: float = 0.0) -> int:
        if not legal:
            raise ValueError("no legal action to choose from")
        if not isinstance(observation, ImperialObservation):
            raise TypeError("HeuristicBot plays Imperial observations only")
        if self.mistakes and self._rng.random() < self.mistakes:
            return self._rng.choice(list(legal))
        return decide_in_observation(observation, legal)
