"""Speed of the Emperor engine against OpenSpiel's C++ ``hearts``, both driven from Python.

Usage: .venv/bin/python bench/emperor_rounds.py [--seconds 3]

What is measured (4 players, random legal choices, public API only):

* Emperor round 1: a seeded deal (shuffle + deal + trump card) and 13 tricks, i.e.
  ``EmperorState.new(seed=...)`` then 52 x (legal_actions + apply).
* Emperor round 2+: from a state that has played round 1 and waits for the next deal
  (cloned, clone time included): ``add_deal`` of a seeded deal, the exchange (three
  random decisions among the legal swaps and passes; no bargaining before round 4),
  the King's random trump, and 13 tricks in the fixed title order.
* OpenSpiel hearts: one deal per ``new_initial_state()``: chance nodes (pass direction,
  the 52 dealt cards) sampled from ``chance_outcomes()``, the 3-card pass, 13 tricks,
  every decision by ``legal_actions()`` + ``apply_action`` with a random choice.

Rounds (deals) per second are printed for each and the ratio Emperor / hearts; the goal is
a ratio of at least 1.0. Install OpenSpiel with
``uv pip install --python .venv/bin/python -r requirements/dev.txt``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from kozyr.games.emperor import EmperorOptions, EmperorState, seeded_deal

OPTIONS = EmperorOptions(players=4, rounds=2)


def emperor_round1(rng: random.Random, seed: int) -> EmperorState:
    state = EmperorState.new(OPTIONS, seed=seed, join_order=(0, 1, 2, 3))
    choice = rng.choice
    while state.round == 1:
        state.apply(choice(state.legal_actions()))
    return state


def after_round1(rng: random.Random) -> EmperorState:
    """A state that has finished round 1 and waits for round 2's cards."""
    state = EmperorState.new(OPTIONS, deals=[seeded_deal(0, 0, 4)], join_order=(0, 1, 2, 3))
    while not state.waiting_for_deal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def emperor_round2(rng: random.Random, base: EmperorState, seed: int) -> None:
    state = base.clone()
    state.add_deal(seeded_deal(seed, 1, 4))
    choice = rng.choice
    while not state.over:
        state.apply(choice(state.legal_actions()))


def hearts_deal(game: Any, rng: random.Random) -> None:
    state = game.new_initial_state()
    choice = rng.choice
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(choice(state.legal_actions()))


def rate(fn: Callable[[int], object], seconds: float) -> float:
    """Calls per second of fn(i), i = 0, 1, ..., for about ``seconds``."""
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(20):
            fn(n)
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n / (now - start)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        print(
            "open_spiel is not installed, so there is nothing to compare with.\n"
            "Install it with: uv pip install --python .venv/bin/python -r requirements/dev.txt",
            file=sys.stderr,
        )
        return 2
    rng = random.Random(1)
    r1 = rate(lambda i: emperor_round1(rng, i), args.seconds)
    base = after_round1(rng)
    r2 = rate(lambda i: emperor_round2(rng, base, i), args.seconds)
    game = pyspiel.load_game("hearts")
    hearts = rate(lambda i: hearts_deal(game, rng), args.seconds)
    print(f"python {sys.version.split()[0]}, open_spiel {getattr(pyspiel, '__version__', '?')}")
    print(f"emperor round 1  (deal + 13 tricks):                      {r1:8.0f} rounds/s")
    print(f"emperor round 2+ (deal + exchange + trump + 13 tricks):   {r2:8.0f} rounds/s")
    print(f"openspiel hearts (chance deal + pass + 13 tricks):        {hearts:8.0f} deals/s")
    print(f"ratio emperor round 1  / hearts: {r1 / hearts:5.2f}")
    print(f"ratio emperor round 2+ / hearts: {r2 / hearts:5.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
