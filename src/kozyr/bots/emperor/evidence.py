"""Soft evidence from this round's public decisions: exchange, bargaining and trump.

Who passed, who named whom (E7), who offered, gave in, accepted or refused (E8) and the
trump the King named (E9) are public, and each says something about the hand its maker
held then. This module turns that into a likelihood of a sampled world: every decision of
another seat is scored by a cheap model of it, the heuristic's own rule
(:mod:`.heuristic`) made soft by a logistic curve of the margin by which the world's hand
clears the rule's threshold (``TEMPERATURE`` tricks), and floored at ``FLOOR``, so a
player who thinks differently (a human, a search) never rules a world out.

The hands then are found from the world by undoing the round's swaps: a world gives every
seat's hand now; adding the cards played gives the hands after the exchange; undoing the
swaps in reverse gives the dealt hands, and the decisions are replayed forward from them.

:func:`sample_informed` draws ``tries`` worlds that honour every hard fact
(:func:`.sampler.sample_hidden`) and keeps one at random in proportion to its likelihood
(sampling-importance-resampling): the worlds handed to the search follow the evidence,
and the cost per world is bounded (``tries`` samples and likelihoods).
Only the observation is read, never a state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from kozyr.cards import suit_name
from kozyr.games.emperor import EmperorObservation
from kozyr.games.tricks import NO_TRUMP as NT

from .heuristic import (
    ACCEPT_MARGIN,
    CHOSEN,
    REJECTED,
    SWAP_MARGIN,
    average_hand_value,
    king_trump_value,
    king_value,
    subject_value,
)
from .sampler import sample_hidden

__all__ = ["TRIES", "Evidence", "read_evidence", "sample_informed"]

TEMPERATURE = 0.5  # tricks: how sharply a decision's margin separates the hands
TRUMP_TEMPERATURE = 0.5  # tricks: the same for the King's choice among five trumps
FLOOR = 0.05  # the least likelihood of any decision, whatever the hand
TRIES = 6  # worlds drawn for each world kept
OFFER_PREMIUM = 1.15  # the heuristic's offer rule: cap = loss * 1.15 - 0.25 (E6 premium)
OFFER_SHIFT = 0.25

_TRUMPS: dict[str, int] = {suit_name(s): s for s in range(4)} | {"NT": NT}


@dataclass(frozen=True)
class Decision:
    """One public decision by ``seat``. ``kind``: ``pass``/``swap`` (E7; ``bar`` the
    expected worth of the best hand he could take), ``offer``/``yield`` (E8; ``bar`` the
    worth he presumes of the taker's hand, ``tricks`` the offer made or, for a yield, the
    least he could have offered, 0 when he could offer nothing), ``accept``/``refuse``
    (E8; ``bar`` the presumed worth of the target's hand, ``tricks`` the offer), ``trump``
    (E9; ``tricks`` the suit named, 4 for no trumps)."""

    kind: str
    seat: int
    king: bool
    bar: float = 0.0
    tricks: int = 0


@dataclass(frozen=True)
class Evidence:
    """This round's decisions by other seats, with the swaps between them: ``steps`` is a
    sequence of a :class:`Decision` or a ``(taker, target)`` pair (hands swapped)."""

    players: int
    steps: tuple[Decision | tuple[int, int], ...]
    done: tuple[tuple[int, int], ...]

    def likelihood(self, obs: EmperorObservation, hidden: Sequence[int]) -> float:
        """How likely the others' public decisions are in the world ``hidden``."""
        n = self.players
        hands = [hidden[t] | obs.played[t] for t in range(n)]
        for a, b in reversed(self.done):
            hands[a], hands[b] = hands[b], hands[a]
        w = 1.0
        for step in self.steps:
            if isinstance(step, tuple):
                a, b = step
                hands[a], hands[b] = hands[b], hands[a]
            else:
                w *= FLOOR + (1.0 - FLOOR) * _chance(step, hands[step.seat], n)
        return w


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _worth(hand: int, king: bool, n: int) -> float:
    return king_value(hand, n) if king else subject_value(hand, n)


def _chance(d: Decision, hand: int, n: int) -> float:
    """The heuristic's decision, made soft: its chance with ``hand``."""
    t = TEMPERATURE
    if d.kind in ("pass", "swap"):
        # Swap when the best hand on offer beats one's own by the margin (E7).
        margin = _worth(hand, d.king, n) - (d.bar - SWAP_MARGIN)
        p = _sigmoid(margin / t)
        return p if d.kind == "pass" else 1.0 - p
    if d.kind in ("offer", "yield"):
        if d.tricks == 0:
            return 1.0  # nothing could be offered: the yield says nothing
        cap = (subject_value(hand, n) - d.bar) * OFFER_PREMIUM - OFFER_SHIFT
        p = _sigmoid((cap - d.tricks) / t)
        return p if d.kind == "offer" else 1.0 - p
    if d.kind in ("accept", "refuse"):
        gain = d.bar - _worth(hand, d.king, n)
        p = _sigmoid((d.tricks - ACCEPT_MARGIN - max(gain, 0.0)) / t)
        return p if d.kind == "accept" else 1.0 - p
    # trump: the King names the best trump for his hand (E9); softmax over the five.
    vals = [king_trump_value(hand, s, n) / TRUMP_TEMPERATURE for s in range(5)]
    top = max(vals)
    total = sum(math.exp(v - top) for v in vals)
    return math.exp(vals[d.tricks] - top) / total


def _prior(
    seat: int, king: bool, n: int, swapped: Sequence[tuple[int, int]], known: frozenset[int]
) -> float:
    """What the heuristic presumes an unseen hand in ``seat`` is worth (as
    :func:`.heuristic.expected_hand` does without knowledge): the mean, less for a hand
    a taker gave away, more for a hand a taker chose, by the last swap it was in."""
    v = average_hand_value(n, king)
    if seat in known:
        return v
    for taker, target in reversed(swapped):
        if target == seat:
            return v - REJECTED
        if taker == seat:
            return v + CHOSEN
    return v


def read_evidence(obs: EmperorObservation) -> Evidence | None:
    """This round's public decisions by the others, read from ``obs.events``; None when
    there are none (round 1, the exchange not begun, or a history not kept)."""
    if obs.round < 2 or obs.title_order is None or obs.seat is None:
        return None
    start = None
    for i in range(len(obs.events) - 1, -1, -1):
        ev = obs.events[i]
        if ev.get("type") == "deal":
            if ev.get("number") == obs.round:
                start = i
            break
    if start is None:
        return None
    n = obs.players
    me = obs.seat
    order = tuple(obs.title_order)
    king = order[0]
    # Game totals at the deal: the round's trick scores come only at its end (E11), so
    # undoing this round's bought-off swaps gives them.
    totals = list(obs.totals)
    events = obs.events[start + 1 :]
    for ev in events:
        if ev.get("type") == "accept":
            k = int(ev["tricks"])
            totals[int(ev["seat"])] -= k
            totals[int(ev["target"])] += k
    steps: list[Decision | tuple[int, int]] = []
    swapped: list[tuple[int, int]] = []
    last_offer = 0
    pending: tuple[int, int] | None = None
    max_offer = obs.options.max_offer
    for ev in events:
        kind = ev.get("type")
        if kind == "pass" or kind == "swap":
            taker = int(ev["seat"] if kind == "pass" else ev["taker"])
            if taker != me and taker in order:
                k_ing = taker == king
                # The taker does not know the hands he may take, except his own old one
                # (he was a target before): the heuristic's prior for each, best counts.
                mine_known = frozenset(t for t, b in swapped if b == taker)
                targets = order[order.index(taker) + 1 :]
                bar = max(
                    (_prior(t, k_ing, n, swapped, mine_known) for t in targets),
                    default=average_hand_value(n, k_ing),
                )
                steps.append(Decision("pass" if kind == "pass" else "swap", taker, k_ing, bar))
            if kind == "swap":
                pair = (taker, int(ev["target"]))
                last_offer = 0
                if ev.get("happened"):
                    steps.append(pair)
                    swapped.append(pair)
                else:
                    pending = pair
        elif kind in ("offer", "yield") and pending is not None:
            taker, target = pending
            if target != me:
                # The target's view of the taker's hand: the prior, less since he wants
                # to give it away (as :func:`.heuristic._offer`).
                bar = _prior(taker, False, n, swapped, frozenset()) - REJECTED
                if kind == "offer":
                    k = int(ev["tricks"])
                else:
                    least = last_offer + 1
                    k = least if least <= min(max_offer, totals[target]) else 0
                steps.append(Decision(kind, target, False, bar, k))
            if kind == "offer":
                last_offer = int(ev["tricks"])
            else:
                steps.append(pending)
                swapped.append(pending)
                pending = None
        elif kind in ("accept", "refuse") and pending is not None:
            taker, target = pending
            k = int(ev["tricks"])
            if taker != me:
                k_ing = taker == king
                bar = _prior(target, k_ing, n, swapped, frozenset())
                steps.append(Decision(kind, taker, k_ing, bar, k))
            if kind == "accept":
                totals[target] -= k
                totals[taker] += k
                pending = None
        elif kind == "trump":
            seat = int(ev["seat"])
            if seat != me:
                steps.append(Decision("trump", seat, True, 0.0, _TRUMPS[str(ev["trump"])]))
        elif kind == "play":
            break
    if not any(isinstance(s, Decision) for s in steps):
        return None
    done = tuple((s.taker, s.target) for s in obs.swaps if s.result == "swapped")
    if done != tuple(swapped):
        return None  # the events disagree with the swaps: no inference
    return Evidence(n, tuple(steps), done)


def sample_informed(
    obs: EmperorObservation,
    rng: random.Random,
    evidence: Evidence | None,
    tries: int = TRIES,
) -> list[int]:
    """A world (as :func:`.sampler.sample_hidden`) drawn in proportion to how well it
    explains ``evidence``: ``tries`` candidates, one kept by its likelihood. Every
    candidate honours the hard facts, so the kept one does."""
    if evidence is None or tries <= 1:
        return sample_hidden(obs, rng)
    worlds = [sample_hidden(obs, rng) for _ in range(tries)]
    weights = [evidence.likelihood(obs, w) for w in worlds]
    return rng.choices(worlds, weights=weights)[0]
