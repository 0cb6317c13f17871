"""Speed of the Emperor engine against OpenSpiel's C++ ``hearts``, both driven from Python.

Usage: .venv/bin/python bench/emperor_rounds.py [--seconds 3] [--path both|fast|public]

What is measured (4 players, random legal choices), each on two paths:

* fast: as a search plays, on :meth:`EmperorState.fast_clone` copies (no events or actions
  written), each action by ``apply_legal`` from ``legal_actions`` (a list, which a random
  choice needs; ``legal_mask`` is the same as a bit mask);
* public: as a server plays a table, ``legal_actions`` and ``apply`` (every action checked,
  every event written).

The rounds:

* Emperor round 1: a seeded deal (shuffle + deal + trump card) and 13 tricks, i.e.
  ``EmperorState.new(seed=...)`` then 52 cards, in a game of one round (so the end of the
  round is the end of the game: its final standing is counted, no second deal is).
* Emperor round 2+: from a state that has played round 1 and waits for the next deal
  (copied, the copy's time included): ``add_deal`` of a seeded deal, the exchange (three
  random decisions among the legal swaps and passes; no bargaining before round 4),
  the King's random trump, and 13 tricks in the fixed title order.
* OpenSpiel hearts: one deal per ``new_initial_state()``: chance nodes (pass direction,
  the 52 dealt cards) sampled from ``chance_outcomes()``, the 3-card pass, 13 tricks,
  every decision by ``legal_actions()`` + ``apply_action`` with a random choice.

Rounds (deals) per second are printed for each and the ratio Emperor / hearts (issue #32:
at least 5). Install OpenSpiel with
``uv pip install --python .venv/bin/python -r requirements/dev.txt``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from kozyr.core import core_kind
from kozyr.games.emperor import EmperorOptions, EmperorState, seeded_deal

OPTIONS = EmperorOptions(players=4, rounds=2)
ONE_ROUND = EmperorOptions(players=4, rounds=1)
JOIN = (0, 1, 2, 3)


def emperor_round1(rng: random.Random, seed: int) -> EmperorState:
    state = EmperorState.new(ONE_ROUND, seed=seed, join_order=JOIN)
    choice = rng.choice
    while not state.over:
        state.apply(choice(state.legal_actions()))
    return state


def emperor_round1_fast(rng: random.Random, seed: int) -> EmperorState:
    state = EmperorState.new(ONE_ROUND, seed=seed, join_order=JOIN).fast_clone()
    choice = rng.choice
    legal = state.legal_actions()
    while legal:  # empty once the game is over
        state.apply_legal(choice(legal))
        legal = state.legal_actions()
    return state


def after_round1(rng: random.Random) -> EmperorState:
    """A state that has finished round 1 and waits for round 2's cards."""
    state = EmperorState.new(OPTIONS, deals=[seeded_deal(0, 0, 4)], join_order=JOIN)
    while not state.waiting_for_deal:
        state.apply(rng.choice(state.legal_actions()))
    return state


def emperor_round2(rng: random.Random, base: EmperorState, seed: int) -> None:
    state = base.clone()
    state.add_deal(seeded_deal(seed, 1, 4))
    choice = rng.choice
    while not state.over:
        state.apply(choice(state.legal_actions()))


def emperor_round2_fast(rng: random.Random, base: EmperorState, seed: int) -> None:
    state = base.fast_clone()
    state.add_deal(seeded_deal(seed, 1, 4))
    choice = rng.choice
    legal = state.legal_actions()
    while legal:  # empty once the game is over
        state.apply_legal(choice(legal))
        legal = state.legal_actions()


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
    ap.add_argument("--path", choices=("both", "fast", "public"), default="both")
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
    print(f"python {sys.version.split()[0]}, open_spiel {getattr(pyspiel, '__version__', '?')}")
    print(f"# core: {core_kind()}; load average {os.getloadavg()[0]:.2f} at start")
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    base = after_round1(rng)
    rows: list[tuple[str, float]] = []
    for path in ("fast", "public"):
        if args.path not in ("both", path):
            continue
        one = emperor_round1_fast if path == "fast" else emperor_round1
        more = emperor_round2_fast if path == "fast" else emperor_round2
        rows.append((f"round 1  {path}", rate(lambda i, f=one: f(rng, i), args.seconds)))  # type: ignore[misc]
        rows.append((f"round 2+ {path}", rate(lambda i, f=more: f(rng, base, i), args.seconds)))  # type: ignore[misc]
    hearts = rate(lambda i: hearts_deal(game, rng), args.seconds)
    for name, r in rows:
        print(f"emperor {name:16} {r:8.0f} rounds/s   {r / hearts:5.2f} x hearts")
    print(f"openspiel hearts          {hearts:8.0f} deals/s")
    print(f"# load average {os.getloadavg()[0]:.2f} at end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
