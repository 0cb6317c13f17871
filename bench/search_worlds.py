"""How many worlds a search level plays in its time per card (Imperial, two players).

The same positions are taken every run: random games (seeds from ``--first-seed``) of
the heuristic for both seats, and at every decision of seat 0 with more than one group of
cards, the level's bot ranks the legal cards within its time cap; the worlds it played
(each a sampled deal played out once per card group) are counted. Printed: the median
and quartiles of worlds a decision, the decisions' median time, and which engine core ran.

Run it in one tree and then in another (``--tree``: a checkout whose ``src`` is put first
on the path, e.g. a ``git worktree`` of an older commit) to compare, as the issue asks
("level 3's worlds or playouts per 0.25 s before and after"):

    .venv/bin/python bench/search_worlds.py --level 3 --decisions 40
    git worktree add /tmp/before 724f78d
    .venv/bin/python bench/search_worlds.py --level 3 --decisions 40 --tree /tmp/before
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--level", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--first-seed", type=int, default=9000)
    parser.add_argument("--tree", help="a checkout to import kozyr from (its src/)")
    args = parser.parse_args()
    if args.tree:
        sys.path.insert(0, os.path.join(args.tree, "src"))
    from kozyr.bots.imperial.heuristic import HeuristicBot
    from kozyr.bots.imperial.levels import level_bot
    from kozyr.games.imperial import ImperialOptions, ImperialState

    try:
        from kozyr.core import core_kind

        core = core_kind()
    except ImportError:
        core = "pure Python (a tree before the compiled core)"
    import kozyr

    print(f"# kozyr from {os.path.dirname(kozyr.__file__)}; core: {core}")
    print(f"# load average {os.getloadavg()[0]:.2f} at start")
    bot = level_bot(args.level, seed=1)
    worlds: list[int] = []
    times: list[float] = []
    seed = args.first_seed
    while len(worlds) < args.decisions:
        state = ImperialState.new(ImperialOptions(players=2), seed=seed)
        drivers = [HeuristicBot(seed * 10 + s) for s in range(2)]
        number = state.deal_number
        while state.to_act is not None and state.deal_number == number:
            seat = state.to_act
            legal = state.legal_actions()
            obs = state.observation(seat)
            if seat == 0 and len(legal) > 1 and len(worlds) < args.decisions:
                start = time.perf_counter()
                ranked = bot.rank(obs, legal, 0.0)  # type: ignore[attr-defined]
                took = time.perf_counter() - start
                played = max(r.visits for r in ranked)
                if played:  # 0: the cards were all alike, nothing was searched
                    worlds.append(played)
                    times.append(took)
            state.apply(drivers[seat].choose(obs, legal))
        seed += 1
    q = statistics.quantiles(worlds, n=4)
    print(
        f"level {args.level}: {len(worlds)} decisions (seeds {args.first_seed}-{seed - 1}), "
        f"worlds a decision median {statistics.median(worlds):.0f} "
        f"(quartiles {q[0]:.0f}-{q[2]:.0f}), decision time median "
        f"{1000 * statistics.median(times):.0f} ms"
    )
    print(f"# load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
