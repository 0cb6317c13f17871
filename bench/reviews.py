"""What a post-game review costs the server: the driver's time per game and level (with
and without the oracle's hindsight), and what starting a review process of its own adds.

Plays whole games with random legal moves (Imperial 2 players to 5 imperials, Emperor 4
players over 10 rounds: the defaults), reviews each, prints the times.

    .venv/bin/python bench/reviews.py --levels 1 2
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from typing import Any

from kozyr.games.spec import GAMES
from kozyr.records import to_record
from kozyr.review import review
from kozyr.review_command import LEVEL_WORLDS
from kozyr.server.reviews import worker as review_worker


def random_game(game: str, seed: int) -> dict[str, Any]:
    g = GAMES[game]
    state = g.new_state(g.options_from_json({}), seed=seed)
    rng = random.Random(seed)
    while not state.over:
        state.apply(rng.choice(state.legal_actions()))
    return to_record(state)


def spawn_cost(record: dict[str, Any]) -> float:
    """Seconds from starting a review process to its result, for a game with one action
    (what the process's start and imports cost)."""
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    started = time.perf_counter()
    process = context.Process(target=review_worker.run, args=(send, record, 8, 0))
    process.start()
    send.close()
    while receive.recv()[0] == "progress":
        pass
    process.join()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for game in ("imperial", "emperor"):
        record = random_game(game, args.seed)
        n = len(record["actions"])
        for level in args.levels:
            worlds = LEVEL_WORLDS[level]
            for hindsight in (False, True):
                started = time.perf_counter()
                result = review(record, worlds=worlds, hindsight=hindsight)
                took = time.perf_counter() - started
                print(
                    f"{game:8} level {level} ({worlds:3} worlds) hindsight={hindsight!s:5}: "
                    f"{n} actions, {len(result.decisions)} decisions, {took:6.2f} s "
                    f"({1000 * took / max(1, len(result.decisions)):.1f} ms a decision)"
                )
    short = random_game("imperial", args.seed)
    short["actions"] = short["actions"][:1]
    short.pop("result", None)
    print(f"a review process's start and imports: {spawn_cost(short):.2f} s")


if __name__ == "__main__":
    main()
