"""The heuristic card play of Emperor, on raw bit masks (no objects, no observation).

The same functions serve the heuristic bot (called from an observation) and the
playouts of the search (called from :mod:`kozyr.bots.emperor.playout` thousands of
times a second), so they take only what one seat may know: its own hand, the cards
gone, the trick so far, the public voids and hand sizes.

The rules of the trick (E10) are :mod:`kozyr.games.tricks`'s, with the natural order of
ranks (E1): a higher card id of the same suit is a higher card.
"""

from __future__ import annotations

from collections.abc import Sequence

from kozyr.cards import DECK_52 as DECK
from kozyr.cards import SUIT_MASKS
from kozyr.games.tricks import ABOVE_NATURAL as ABOVE
from kozyr.games.tricks import NO_TRUMP as NT
from kozyr.games.tricks import beaters, trick_winner

__all__ = ["choose_card", "low_card", "top_card"]


def top_card(mask: int) -> int:
    """The highest card of a non-empty mask (highest id)."""
    return mask.bit_length() - 1


def low_card(mask: int) -> int:
    """The lowest card of a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def choose_card(
    hand: int,
    legal: Sequence[int],
    cur: Sequence[int],
    trump: int,
    gone: int,
    voids: Sequence[int],
    followers: Sequence[int],
    sizes: Sequence[int],
) -> int:
    """The heuristic's card: cheap follows, the lowest sure winner, ducks when the
    trick is lost, trump drawing and cashing of masters on the lead.

    ``cur``: cards of the trick so far in play order; ``gone``: every card played this
    round (the trick included); ``followers``: seats still to play after this one;
    ``sizes``: cards left in each seat's hand.
    """
    if len(legal) == 1:
        return legal[0]
    out = DECK & ~hand & ~gone  # cards someone else (or the undealt pile) may hold
    if not cur:
        return _lead(hand, trump, out, voids, followers)
    lead = cur[0] // 13
    best = cur[trick_winner(cur, trump, ABOVE)]
    beat = beaters(best, trump, ABOVE)
    winners = [c for c in legal if beat >> c & 1]
    if winners:
        if not followers:
            return winners[0]  # last to play: the cheapest winner is enough
        unknown = out.bit_count()
        held = sum(sizes[f] for f in followers)
        share = min(1.0, held / unknown) if unknown else 0.0
        trumps_out = trump != NT and bool(out & SUIT_MASKS[trump])
        ruff_risk = 1.0
        if trumps_out and lead != trump:
            if any(voids[f] >> lead & 1 and not voids[f] >> trump & 1 for f in followers):
                ruff_risk = 0.15
            elif (out & SUIT_MASKS[lead]).bit_count() < 2 * len(followers):
                ruff_risk = 0.6
        for w in winners:
            k = (out & ABOVE[w]).bit_count()
            p = (1.0 - share) ** k
            if w // 13 != trump:
                p *= ruff_risk
            elif lead != trump and not any(voids[f] >> lead & 1 for f in followers):
                # A ruff can be over-ruffed only by a follower also void in the suit led.
                p = max(p, 1.0 - (1.0 - p) * 0.4)
            if p >= 0.5:
                return w
        losers = [c for c in legal if not beat >> c & 1]
        if losers:
            return _throw(hand, losers, trump, out)
        return winners[0]
    return _throw(hand, legal, trump, out)


def _throw(hand: int, cards: Sequence[int], trump: int, out: int) -> int:
    """A card that will not win: the least useful one. Keeps masters, trumps and (with
    no trumps) long suits; gives up short suits first so later leads can be ruffed."""
    first = cards[0] // 13
    if all(c // 13 == first for c in cards):
        return cards[0]  # following (or forced to trump): the lowest
    best_key = (99.0, 0)
    choice = cards[0]
    for c in cards:
        s = c // 13
        length = (hand & SUIT_MASKS[s]).bit_count()
        master = 0 if out & ABOVE[c] else 1
        key = float(c % 13) + 20.0 * master
        if s == trump:
            key += 40.0
        elif trump == NT:
            key += 2.5 * length  # long suits win tricks late in no trumps
        else:
            key += 1.0 * length  # shortening a side suit makes a void for ruffs
        if (key, c) < best_key:
            best_key = (key, c)
            choice = c
    return choice


def _lead(hand: int, trump: int, out: int, voids: Sequence[int], others: Sequence[int]) -> int:
    """The leader's card (in rounds 2-10 always the King, E10)."""
    my_t = hand & SUIT_MASKS[trump] if trump != NT else 0
    out_t = out & SUIT_MASKS[trump] if trump != NT else 0
    if my_t and out_t:
        top = top_card(my_t)
        n_my = my_t.bit_count()
        n_out = out_t.bit_count()
        # Draw trumps with a master trump and length, so the side masters survive.
        if not out_t & ABOVE[top] and n_my >= 2:
            return top
        if n_my >= n_out + 2 and n_my >= 4:
            return low_card(my_t)
    cash = -1
    cash_key = (-1, -1)
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASKS[s]
        if not m:
            continue
        top = top_card(m)
        if out & ABOVE[top]:
            continue
        o = (out & SUIT_MASKS[s]).bit_count()
        risky = False
        if out_t:
            risky = o < len(others) or any(
                voids[f] >> s & 1 and not voids[f] >> trump & 1 for f in others
            )
        key = (0 if risky else 1, o + (hand & SUIT_MASKS[s]).bit_count())
        if key > cash_key:
            cash_key, cash = key, top
    if cash >= 0 and cash_key[0] == 1:
        return cash
    if my_t and not out_t:
        return top_card(my_t)  # every trump left is a sure trick
    if cash >= 0 and cash_key[1] >= 4:
        return cash
    # Lead low from the longest side suit (it sets up length), weakest top on ties.
    pick = -1
    pick_key = (-1, 0)
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASKS[s]
        if not m:
            continue
        key = (m.bit_count(), -top_card(m))
        if key > pick_key:
            pick_key, pick = key, low_card(m)
    if pick >= 0:
        return pick
    return top_card(my_t) if not out_t & ABOVE[top_card(my_t)] else low_card(my_t)
