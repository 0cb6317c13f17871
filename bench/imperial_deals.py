"""Benchmark: complete random Imperial deals per second, on the fast path and through the
public API.

Each deal is dealt (the seeded, checkable shuffle) and declared by the engine, then its 12
tricks are played with random legal cards. Games restart when they end. Two ways, each
timed for ``--seconds``:

* the fast path, as a search plays its playouts: a :meth:`ImperialState.fast_clone` of
  each new game (no events, no actions written), each card by ``apply_legal`` from
  ``legal_actions`` (a list, which a random choice needs; ``legal_mask`` is the same as a
  bit mask);
* the public API, as a server plays a table: ``legal_actions`` and ``apply``, every card
  checked, every event written.

The same random choices are made both ways (the same seed of the chooser), so both play
the same deals. ``--path`` runs only one of them.

    .venv/bin/python bench/imperial_deals.py --seconds 5 --players 2
"""

from __future__ import annotations

import argparse
import os
import random
import time

from kozyr.core import core_kind
from kozyr.games.imperial import ImperialOptions, ImperialState


def run(seconds: float, players: int, must_head: bool, fast: bool) -> tuple[int, int, float]:
    options = ImperialOptions(players=players, must_head=must_head)
    rng = random.Random(1)
    choice = rng.choice
    seed = 0
    state = ImperialState.new(options, seed=seed)
    if fast:
        state = state.fast_clone()
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        number = state.deal_number
        if fast:
            legal = state.legal_actions()
            while legal and state.deal_number == number:  # empty once the game is over
                state.apply_legal(choice(legal))
                actions += 1
                legal = state.legal_actions()
        else:
            while state.deal_number == number and not state.over:
                state.apply(choice(state.legal_actions()))
                actions += 1
        deals += 1
        if state.over:
            seed += 1
            state = ImperialState.new(options, seed=seed)
            if fast:
                state = state.fast_clone()
        if deals % 64 == 0 and time.perf_counter() >= deadline:
            break
    return deals, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--must-head", action="store_true")
    parser.add_argument("--path", choices=("both", "fast", "public"), default="both")
    args = parser.parse_args()
    print(f"# core: {core_kind()}; load average {os.getloadavg()[0]:.2f} at start")
    for path in ("fast", "public"):
        if args.path not in ("both", path):
            continue
        deals, actions, elapsed = run(args.seconds, args.players, args.must_head, path == "fast")
        print(
            f"imperial {args.players}p{' must_head' if args.must_head else ''} {path:6}: "
            f"{deals} deals, {actions} cards in {elapsed:.2f} s = {deals / elapsed:,.0f} deals/s, "
            f"{actions / elapsed:,.0f} cards/s"
        )
    print(f"# load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
