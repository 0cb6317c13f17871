"""Calibration: would soft inference from the cards played sharpen Imperial's worlds?

Imperial's sampler keeps every hard fact (voids, honours, the declarations) but not the
way the opponent played. This script weighs each sampled world by how well it explains
the opponent's plays so far (Emperor's ``inference.py`` idea): replaying the deal in the
world, each card the opponent played that the heuristic would not have played there (nor
one that plays the same) multiplies the world's weight by ``--eps``. It then measures, at
each of seat 0's decisions in tricks 3-10 of two-player deals, how much of the opponent's
true hidden hand the sampled worlds hold, plain and weighted, and prints the mean gain
with its 95% confidence interval (decisions as the unit) and the weights' effective
share of the worlds. Seat 0 plays the heuristic; the opponent is the heuristic or level 3.

    .venv/bin/python bench/imperial_inference.py --opponent level3 --seeds 40

The bots do not use it: against level 3 the gain was small (docs/bots.md).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Sequence

from kozyr.bots.imperial.heuristic import HeuristicBot, decide, decide_in_state
from kozyr.bots.imperial.levels import level_bot
from kozyr.bots.imperial.sampler import Sampler
from kozyr.cards import CARD_NAMES as NAME
from kozyr.cards import SUIT_MASKS, SUIT_OF
from kozyr.games.imperial import ImperialObservation, ImperialOptions, ImperialState, honour_mask
from kozyr.games.imperial.card_tables import ABOVE, STRENGTH, deck_for, low_rank_for
from kozyr.games.tricks import beaters, follow_mask, must_beat_mask

EPS = 0.25
"""A departure from the heuristic's card multiplies a world's weight by this."""

_CARD_IDS: dict[str, int] = {name: i for i, name in enumerate(NAME)}


def deal_plays(obs: ImperialObservation) -> list[tuple[int, int]] | None:
    """This deal's plays, ``(seat, card)`` in order, read from the public events; None when
    the events do not tell them all (an observation built without its history)."""
    plays: list[tuple[int, int]] = []
    for e in reversed(obs.events):
        kind = e["type"]
        if kind == "play":
            plays.append((int(e["seat"]), _CARD_IDS[str(e["card"])]))
        elif kind == "deal":
            break
    plays.reverse()
    total = sum(m.bit_count() for m in obs.played)
    return plays if len(plays) == total else None


def world_weight(
    obs: ImperialObservation,
    plays: Sequence[tuple[int, int]],
    hidden: Sequence[int],
    eps: float = EPS,
) -> float:
    """How well the world ``hidden`` (every seat's hand now) explains the other seats'
    ``plays`` (:func:`deal_plays`): ``eps`` to the power of the plays the heuristic would
    not have made there."""
    trump = obs.trump
    if trump is None:
        return 1.0
    players = obs.options.players
    deck = deck_for(players)
    if obs.turnup is not None:
        deck &= ~(1 << obs.turnup)
    # Cards whose play matters on its own: the honours (I8) and the trump J and A (I9).
    base = 13 * trump
    special = honour_mask(trump, low_rank_for(players)) | 1 << (base + 9) | 1 << (base + 12)
    hands = [hidden[s] | obs.played[s] for s in range(players)]
    gone = 0
    trick: list[tuple[int, int]] = []
    led = best = -1
    weight = 1.0
    for seat, card in plays:
        b = 1 << card
        hand = hands[seat]
        if seat != obs.seat and hand & b:
            if obs.options.must_head and led >= 0:
                legal = must_beat_mask(hand, led, best, trump, ABOVE)
            else:
                legal = follow_mask(hand, led, trump)
            if legal & (legal - 1):
                out = deck & ~hand & ~gone
                cards = [c for c in range(52) if legal >> c & 1]
                guess = decide(hand, cards, trick, players, trump, out)
                if guess != card and not _same(guess, card, out, special):
                    weight *= eps
        hands[seat] = hand & ~b
        gone |= b
        if led < 0:
            led, best = SUIT_OF[card], card
        elif beaters(best, trump, ABOVE) >> card & 1:
            best = card
        trick.append((seat, card))
        if len(trick) == players:
            trick, led, best = [], -1, -1
    return weight


def _same(a: int, b: int, out: int, special: int) -> bool:
    """Whether ``a`` and ``b`` play the same for a seat that cannot see ``out`` (I2)."""
    if SUIT_OF[a] != SUIT_OF[b] or (special >> a | special >> b) & 1:
        return False
    lo, hi = sorted((STRENGTH[a], STRENGTH[b]))
    suit = SUIT_MASKS[SUIT_OF[a]]
    between = [c for c in range(52) if suit >> c & 1 and lo < STRENGTH[c] < hi]
    return not any(out >> c & 1 for c in between) and not any(special >> c & 1 for c in between)


def measure(opponent: str, seeds: int, worlds: int, eps: float) -> None:
    gains: list[float] = []
    plain: list[float] = []
    effective: list[float] = []
    for seed in range(seeds):
        state = ImperialState.new(ImperialOptions(), seed=1000 + seed)
        other = level_bot(3, seed) if opponent == "level3" else HeuristicBot(seed)
        number = state.deal_number
        while state.to_act is not None and state.deal_number == number:
            if state.to_act == 1:
                state.apply(other.choose(state.observation(1), state.legal_actions(), 0.0))
                continue
            obs = state.observation(0)
            truth = state.hands[1] & ~obs.shown[1]
            plays = deal_plays(obs)
            if 2 <= state.tricks_done <= 9 and truth and plays and len(state.legal_actions()) > 1:
                sampler = Sampler(obs)
                rng = random.Random(seed)
                total = weighted = weight = squares = 0.0
                for _ in range(worlds):
                    hidden = sampler.hidden(rng)
                    w = world_weight(obs, plays, hidden, eps)
                    held = (hidden[1] & truth).bit_count() / truth.bit_count()
                    total += held
                    weighted += w * held
                    weight += w
                    squares += w * w
                plain.append(total / worlds)
                gains.append(weighted / weight - total / worlds)
                effective.append(weight * weight / squares / worlds)
            state.apply(decide_in_state(state))
    n = len(gains)
    half = 1.96 * statistics.stdev(gains) / math.sqrt(n)
    mean = statistics.mean(gains)
    print(
        f"opponent {opponent}, eps {eps}: {n} decisions ({seeds} deals, {worlds} worlds each); "
        f"the opponent's hidden cards held by a world: {statistics.mean(plain):.1%} plain, "
        f"weighted {mean:+.1%} (95% CI {mean - half:+.1%} .. {mean + half:+.1%}); "
        f"effective worlds {statistics.mean(effective):.0%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", choices=["heuristic", "level3"], default="heuristic")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--worlds", type=int, default=200)
    parser.add_argument("--eps", type=float, default=EPS)
    args = parser.parse_args()
    measure(args.opponent, args.seeds, args.worlds, args.eps)


if __name__ == "__main__":
    main()
