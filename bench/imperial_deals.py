"""Benchmark: complete random Imperial deals per second through the public API.

Each deal is dealt and declared by the engine, then its 12 tricks are played with
random legal cards (``legal_actions`` + ``apply``). Games restart when they end.

    .venv/bin/python bench/imperial_deals.py --seconds 5 --players 2
"""

from __future__ import annotations

import argparse
import random
import time

from kozyr.games.imperial import ImperialOptions, ImperialState


def run(seconds: float, players: int, must_head: bool) -> tuple[int, int, float]:
    options = ImperialOptions(players=players, must_head=must_head)
    rng = random.Random(1)
    seed = 0
    state = ImperialState.new(options, seed=seed)
    deals = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        number = state.deal_number
        while state.deal_number == number and not state.over:
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        deals += 1
        if state.over:
            seed += 1
            state = ImperialState.new(options, seed=seed)
        if deals % 64 == 0 and time.perf_counter() >= deadline:
            break
    return deals, actions, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--must-head", action="store_true")
    args = parser.parse_args()
    deals, actions, elapsed = run(args.seconds, args.players, args.must_head)
    print(
        f"imperial {args.players}p{' must_head' if args.must_head else ''}: "
        f"{deals} deals, {actions} cards in {elapsed:.2f} s = {deals / elapsed:,.0f} deals/s, "
        f"{actions / elapsed:,.0f} cards/s"
    )


if __name__ == "__main__":
    main()
