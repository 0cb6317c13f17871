"""A quick, bounded strength check of the Emperor bots (not the official arena).

Usage: .venv/bin/python bench/emperor_bots.py --hero search --field heuristic --games 8
       [--players 4] [--rounds 10] [--budget 0.25] [--seed 1]

Plays ``games`` games; in game g the hero sits in seat ``g % players`` (seats rotated)
and every other seat is a ``field`` bot. Prints the hero's and the field's mean final
total, the hero's Emperor rate, and the hero's decision times.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kozyr.bots.base import Bot
from kozyr.bots.registry import make_bot
from kozyr.games.emperor import EmperorOptions, EmperorState


def play_game(
    bots: list[Bot],
    options: EmperorOptions,
    seed: int,
    budget: float,
    times: dict[int, list[float]],
) -> EmperorState:
    state = EmperorState.new(options, seed=seed, join_order=list(range(options.players)))
    while not state.over:
        seat = state.to_act
        assert seat is not None
        legal = state.legal_actions()
        t0 = time.perf_counter()
        a = bots[seat].choose(state.observation(seat), legal, budget)
        times.setdefault(seat, []).append(time.perf_counter() - t0)
        state.apply(a)
    return state


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hero", default="search")
    ap.add_argument("--field", default="heuristic")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--budget", type=float, default=0.25)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    n = args.players
    options = EmperorOptions(players=n, rounds=args.rounds)
    hero_totals: list[int] = []
    field_totals: list[float] = []
    emperor = 0
    hero_times: list[float] = []
    start = time.perf_counter()
    for g in range(args.games):
        hero_seat = g % n
        bots: list[Bot] = [
            make_bot("emperor", args.hero if s == hero_seat else args.field, seed=1000 * g + s)
            for s in range(n)
        ]
        times: dict[int, list[float]] = {}
        state = play_game(bots, options, args.seed * 100003 + g, args.budget, times)
        totals = state.totals
        standing = state.standing
        assert standing is not None
        hero_totals.append(totals[hero_seat])
        field_totals.append(sum(totals[s] for s in range(n) if s != hero_seat) / (n - 1))
        emperor += standing[0] == hero_seat
        hero_times.extend(times.get(hero_seat, []))
        print(
            f"game {g + 1}: hero seat {hero_seat} totals {totals} "
            f"emperor {standing[0]} ({time.perf_counter() - start:.0f}s)",
            flush=True,
        )
    hm = statistics.mean(hero_totals)
    fm = statistics.mean(field_totals)
    print(f"{args.hero} vs 3x{args.field}, {n} players, {args.games} games, {args.rounds} rounds")
    print(f"hero mean total {hm:.2f}  field mean total {fm:.2f}  ratio {hm / fm:.3f}")
    print(f"hero Emperor in {emperor}/{args.games} = {emperor / args.games:.0%}")
    ts = sorted(hero_times)
    if ts:
        print(
            f"hero decisions {len(ts)}: median {1000 * ts[len(ts) // 2]:.1f} ms, "
            f"p99 {1000 * ts[min(len(ts) - 1, int(0.99 * len(ts)))]:.1f} ms, "
            f"max {1000 * ts[-1]:.1f} ms"
        )


if __name__ == "__main__":
    main()
